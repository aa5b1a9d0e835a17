"""`scripts/bench --vs OLD` and `--set`: two builds compared pair by pair on the configs/bench
workloads (whole-process CPU time, each pair under its own environment size), with a verdict on
whether their outputs have the same bytes; config overrides reach every run."""

import json
import os
import stat
import subprocess

from conftest import PYTHON, SCRIPTS

SHORT = ["-k", "b1_uniform_16x16", "--set", "traffic.cycles=1500"]


def _bench(*args):
    return subprocess.run([PYTHON, os.path.join(SCRIPTS, "bench"), *args], capture_output=True, text=True,
                          timeout=300)


def _wrapper(tmp_path, wormsim, extra):
    """An "old build" that is wormsim run with one more override: its outputs differ where that key matters."""
    w = tmp_path / "old-wormsim"
    w.write_text(f'#!/bin/sh\nexec "{wormsim}" "$@" {extra}\n')
    w.chmod(w.stat().st_mode | stat.S_IXUSR)
    return str(w)


def test_a_build_against_itself_gives_every_pair_and_the_same_bytes(wormsim, tmp_path):
    p = _bench("--binary", wormsim, "--vs", wormsim, "-r", "3", *SHORT, "--json", str(tmp_path / "bench.json"))
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "bench-vs.json") as f:
        data = json.load(f)
    assert data["repeat"] == 3 and data["sets"] == ["traffic.cycles=1500"] and data["old"] == wormsim
    r = data["results"]["b1_uniform_16x16"]
    assert r["pairs"] == 3 and r["outputs_differ"] == []
    assert r["new_cpu_seconds"] > 0 and r["old_cpu_seconds"] > 0
    assert r["ratio_min"] <= r["ratio"] <= r["ratio_max"]
    row = next(line for line in p.stdout.splitlines() if line.startswith("b1_uniform_16x16"))
    assert row.endswith("same bytes")


def test_outputs_that_differ_are_named(wormsim, tmp_path):
    old = _wrapper(tmp_path, wormsim, "--set run.seed=7")
    p = _bench("--binary", wormsim, "--vs", old, "-r", "1", *SHORT, "--json", str(tmp_path / "bench.json"))
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "bench-vs.json") as f:
        differ = json.load(f)["results"]["b1_uniform_16x16"]["outputs_differ"]
    # Another seed: other packets, so other rows and another summary; the network's links are the same.
    assert "messages.csv" in differ and "summary.json" in differ and "routes.csv" in differ
    assert "differ: " in p.stdout


def test_a_failing_old_build_is_an_error_naming_it_and_the_workload(wormsim, tmp_path):
    old = _wrapper(tmp_path, wormsim, "--set network.vcs=0")
    p = _bench("--binary", wormsim, "--vs", old, "-r", "1", *SHORT, "--json", str(tmp_path / "bench.json"))
    assert p.returncode == 1
    assert "old build" in p.stderr and "b1_uniform_16x16" in p.stderr and "network.vcs" in p.stderr


def test_bad_arguments_are_refused(wormsim, tmp_path):
    p = _bench("--binary", wormsim, "--vs", str(tmp_path / "nope"), *SHORT)
    assert p.returncode == 1 and "--vs" in p.stderr and "not an executable file" in p.stderr
    p = _bench("--binary", wormsim, "--vs", wormsim, "-r", "0", *SHORT)
    assert p.returncode == 1 and "-r: 0 (expected 1 or more" in p.stderr
    p = _bench("--binary", wormsim, "--booksim", wormsim, "--set", "network.vcs=2")
    assert p.returncode == 1 and "--set and --vs apply to the configs/bench workloads only" in p.stderr


def test_set_overrides_every_plain_run(wormsim, tmp_path):
    p = _bench("--binary", wormsim, "-r", "1", *SHORT, "--set", "network.dims=[4,4]",
               "--json", str(tmp_path / "bench.json"))
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "bench.json") as f:
        assert json.load(f)["results"]["b1_uniform_16x16"]["nodes"] == 16
    p = _bench("--binary", wormsim, "-r", "1", *SHORT, "--set", "network.nope=1")
    assert p.returncode != 0 and "network.nope" in p.stderr
