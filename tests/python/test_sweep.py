"""Sweeps on the embedded LocalCluster and on a real dask-scheduler with two dask-workers."""

import json
import os

import pandas as pd
import pytest

from conftest import read_csv_rows, script, start_dask_cluster, stop_dask_cluster
from wormsim_py import table as tablemod


def table_without_host(folder):
    df = pd.read_csv(os.path.join(folder, "results.csv"), dtype=str, keep_default_na=False)
    return df[[c for c in df.columns if not c.startswith("host.")]]


def test_embedded_sweep_table(small_sweep):
    spec, out, proc = small_sweep
    # 4 points of the "bad" variant are invalid: not run, error rows, exit 3; the others are fine
    assert proc.returncode == 3, proc.stderr
    rows = read_csv_rows(os.path.join(out, "results.csv"))
    assert len(rows) == 12
    cols = list(rows[0].keys())
    assert cols[:6] == ["point", "tag.variant", "schedule.algorithm", "network.dims", "schedule.flits", "status"]
    assert cols[6:8] == ["exit_code", "error"] and cols[-1] == "dir"
    for c in ("metrics.completion_cycles", "metrics.tcd", "metrics.latency.mean", "metrics.latency.p99",
              "metrics.step_contention.cycles", "metrics.link_utilisation.max", "host.wall_seconds",
              "host.sweep_seconds", "invariants.flits_conserved", "summary.schedule.name", "summary.warnings"):
        assert c in cols, c
    good = [r for r in rows if r["tag.variant"] != "bad"]
    bad = [r for r in rows if r["tag.variant"] == "bad"]
    assert len(good) == 8 and len(bad) == 4
    for r in good:
        assert r["status"] == "completed" and r["exit_code"] == "0" and r["error"] == ""
        with open(os.path.join(out, r["dir"], "summary.json")) as f:
            s = json.load(f)
        assert str(s["metrics"]["completion_cycles"]) == r["metrics.completion_cycles"]
        assert s["config"]["schedule"]["flits"] == int(r["schedule.flits"])
        assert s["config"]["network"]["dims"] == json.loads(r["network.dims"])
        assert s["config"]["schedule"]["algorithm"] == r["schedule.algorithm"]
    for r in bad:
        assert r["status"] == "error" and r["exit_code"] == ""
        assert r["error"].startswith("invalid config (wormsim config check): ")
        assert 'unknown algorithm "no-such-algorithm"' in r["error"]
        assert r["metrics.completion_cycles"] == ""
        assert not os.path.exists(os.path.join(out, r["dir"]))
    # rows in spec order: variants outermost, flits fastest
    assert [r["schedule.flits"] for r in rows[:4]] == ["4", "16", "4", "16"]
    assert [r["tag.variant"] for r in rows[::4]] == ["eye", "binomial", "bad"]
    assert "failed" in proc.stderr and "no-such-algorithm" in proc.stderr
    # the completion times are physical: longer messages take longer
    eye = {(r["network.dims"], r["schedule.flits"]): int(r["metrics.completion_cycles"]) for r in good
           if r["tag.variant"] == "eye"}
    assert eye[("[4, 4]", "16")] > eye[("[4, 4]", "4")]


def test_rerun_of_a_complete_sweep_runs_only_the_failed_points(small_sweep, wormsim, tmp_path):
    spec, out, _ = small_sweep
    before = table_without_host(out)
    mtimes = {p: os.path.getmtime(os.path.join(out, "points", p, "summary.json"))
              for p in before["point"] if os.path.exists(os.path.join(out, "points", p, "summary.json"))}
    proc = script("sweep.py", spec, "--workers", "1", "--wormsim", wormsim, "--no-progress", "--skip-invalid")
    assert proc.returncode == 3
    assert "12 points, 8 complete, 4 invalid, 0 to run" in proc.stderr
    after = table_without_host(out)
    pd.testing.assert_frame_equal(before, after)
    for p, t in mtimes.items():
        assert os.path.getmtime(os.path.join(out, "points", p, "summary.json")) == t
    # --rerun runs everything again, with the same results
    proc = script("sweep.py", spec, "--workers", "2", "--wormsim", wormsim, "--no-progress", "--rerun",
                  "--skip-invalid")
    assert proc.returncode == 3 and "12 points, 0 complete, 4 invalid, 8 to run" in proc.stderr
    pd.testing.assert_frame_equal(before, table_without_host(out))
    for p, t in mtimes.items():
        assert os.path.getmtime(os.path.join(out, "points", p, "summary.json")) > t


@pytest.fixture
def dask_cluster(tmp_path):
    """A dask-scheduler and two dask-worker processes on 127.0.0.1 (ports chosen by the OS)."""
    address, procs, log = start_dask_cluster(tmp_path, 2)
    try:
        yield address
    finally:
        stop_dask_cluster(procs, log)


def test_external_cluster_gives_the_same_table(small_sweep, dask_cluster, wormsim, tmp_path):
    spec, out, _ = small_sweep
    out2 = tmp_path / "out_cluster"
    proc = script("sweep.py", spec, "--out", out2, "--scheduler", dask_cluster, "--wormsim", wormsim,
                  "--skip-invalid")
    assert proc.returncode == 3, proc.stderr
    a = table_without_host(out)
    b = table_without_host(out2)
    assert len(b) == 12
    pd.testing.assert_frame_equal(a, b)
    # the host timing columns were there and were dropped
    full = pd.read_csv(out2 / "results.csv")
    assert any(c.startswith("host.") for c in full.columns)
    # the points really ran on the two external workers: their folders exist with outputs
    for p, st in zip(b["point"], b["status"]):
        if st == "completed":
            assert (out2 / "points" / p / "messages.csv").exists()


def test_unreachable_scheduler_is_an_error(small_sweep, tmp_path):
    import socket
    with socket.socket() as s:   # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    spec, _, _ = small_sweep
    proc = script("sweep.py", spec, "--out", tmp_path / "o", "--scheduler", f"tcp://127.0.0.1:{port}",
                  "--connect-timeout", "2", "--skip-invalid", timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert f"cannot start the sweep on the scheduler at tcp://127.0.0.1:{port}" in proc.stderr


def test_missing_binary_is_an_error(small_sweep, tmp_path):
    spec, _, _ = small_sweep
    proc = script("sweep.py", spec, "--out", tmp_path / "o", "--wormsim", tmp_path / "nope")
    assert proc.returncode == 1
    assert "wormsim binary not found" in proc.stderr


def test_table_module_round_trip(tmp_path):
    rows = [{"point": "a", "x": 1, "status": "completed", "exit_code": 0, "error": None, "metrics.m": 0.1,
             "host.t": 1.5, "dir": "points/a"},
            {"point": "b", "x": 2, "status": "error", "exit_code": 1, "error": "exit 1: bad, \"quoted\"",
             "dir": "points/b"}]
    tablemod.write(str(tmp_path), ["x"], rows)
    text = (tmp_path / "results.csv").read_text()
    assert text.splitlines()[0] == "point,x,status,exit_code,error,metrics.m,host.t,dir"
    back = tablemod.read_rows(str(tmp_path / "results.csv"))
    tablemod.write(str(tmp_path), ["x"], [back["a"], back["b"]])
    assert (tmp_path / "results.csv").read_text() == text
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
