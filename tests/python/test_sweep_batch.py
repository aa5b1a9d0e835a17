"""Sweeps whose points share a network run in `wormsim batch` chunks (docs/sweeps.md, "Batches"):
the table and every point's files must be those of the per-point path (`--no-batch`), the
batch path must really be taken, and resume, failures and time limits must keep working."""

import os
import stat

import pandas as pd

from conftest import DEFAULT_CONFIG, read_csv_rows, script, write_spec

# two networks (4x4 and 8x8) x 3 algorithms x 2 lengths x 3 sources = 36 points in two groups
SPEC = f"""
base: {DEFAULT_CONFIG}
output: OUT
set:
  output.host_timing: false
zip:
  tag.variant:        [eye, binomial, umesh]
  schedule.algorithm: [eye, binomial, umesh]
grid:
  network.dims: [[4, 4], [8, 8]]
  schedule.flits: [4, 32]
sources: {{sample: 3, seed: 2}}
"""


def table_without_host(folder):
    df = pd.read_csv(os.path.join(folder, "results.csv"), dtype=str, keep_default_na=False)
    return df[[c for c in df.columns if not c.startswith("host.")]]


def logging_wrapper(tmp_path, wormsim):
    """A wormsim that logs each command it is asked for, then runs the real one."""
    log = tmp_path / "commands.log"
    wrapper = tmp_path / "wormsim-logged"
    wrapper.write_text(f'#!/bin/sh\necho "$1" >> {log}\nexec {wormsim} "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    return str(wrapper), log


def same_files(a, b):
    names = sorted(n for n in os.listdir(a) if n not in ("stderr.log", "command.sh"))
    assert names == sorted(n for n in os.listdir(b) if n not in ("stderr.log", "command.sh"))
    for n in names:
        with open(os.path.join(a, n), "rb") as f, open(os.path.join(b, n), "rb") as g:
            assert f.read() == g.read(), f"{a}/{n}"


def test_batched_sweep_equals_the_per_point_sweep(tmp_path, wormsim):
    logged, log = logging_wrapper(tmp_path, wormsim)
    batched = write_spec(tmp_path / "batched.yaml", SPEC.replace("OUT", str(tmp_path / "batched")))
    single = write_spec(tmp_path / "single.yaml", SPEC.replace("OUT", str(tmp_path / "single")))
    script("sweep.py", batched, "--workers", "2", "--wormsim", logged, "--no-progress", check=0, timeout=600)
    commands = log.read_text().split()
    # every point ran in a batch (two networks, 18 points each: several chunks), none on its own
    assert commands.count("run") == 0, commands
    assert commands.count("batch") >= 4, commands
    script("sweep.py", single, "--workers", "2", "--wormsim", wormsim, "--no-progress", "--no-batch", check=0,
           timeout=600)
    a, b = table_without_host(str(tmp_path / "batched")), table_without_host(str(tmp_path / "single"))
    assert len(a) == 36
    pd.testing.assert_frame_equal(a, b)
    for r in read_csv_rows(os.path.join(tmp_path / "batched", "results.csv")):
        assert r["status"] == "completed" and r["error"] == "", r
        same_files(os.path.join(tmp_path / "batched", r["dir"]), os.path.join(tmp_path / "single", r["dir"]))
        with open(os.path.join(tmp_path / "batched", r["dir"], "command.sh")) as f:
            assert f.read().split()[1] == "run"  # the command that reproduces the point
    # resume: nothing left to run
    again = script("sweep.py", batched, "--workers", "2", "--wormsim", wormsim, "--no-progress", check=0)
    assert "36 complete, 0 to run" in again.stderr


def test_batched_points_keep_their_time_limit_and_errors(tmp_path, wormsim):
    logged, log = logging_wrapper(tmp_path, wormsim)
    spec = write_spec(tmp_path / "s.yaml", f"""
base: {DEFAULT_CONFIG}
output: {tmp_path / "out"}
timeout: 2
set:
  network.dims: [8, 8]
  schedule: null
  output.messages: schedule
  traffic: {{pattern: uniform, rate: 0.02, flits: 4, cycles: 200}}
zip:
  tag.variant: [quick, slow]
  traffic.cycles: [200, 100000000]
grid:
  traffic.rate: [0.005, 0.01, 0.015, 0.02]
""")
    proc = script("sweep.py", spec, "--workers", "1", "--wormsim", logged, "--no-progress", check=3, timeout=300)
    assert "batch" in log.read_text().split()
    rows = read_csv_rows(os.path.join(tmp_path, "out", "results.csv"))
    assert len(rows) == 8
    for r in rows:
        if r["tag.variant"] == "slow":
            assert r["error"] == "timeout: killed after 2.0 s" and r["exit_code"] == "", proc.stderr
        else:
            assert r["status"] == "completed" and r["error"] == "" and r["exit_code"] == "0", r
