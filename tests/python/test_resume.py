"""A sweep killed half-way leaves a consistent table; the next run completes only the missing points."""

import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from conftest import DEFAULT_CONFIG, PYTHON, SCRIPTS, read_csv_rows, script, write_spec

SPEC = f"""
base: {DEFAULT_CONFIG}
output: OUT
set:
  output.host_timing: false
grid:
  schedule.algorithm: [eye, binomial]
  schedule.flits: [2, 4, 8, 16, 32]
"""
N_POINTS = 10


def counting_wrapper(tmp_path, wormsim, delay):
    """A stand-in for wormsim that logs each run's --out folder, sleeps, then runs the real binary
    (the sweep's `config check` goes straight to it). It has no `batch`, so that every point is
    a `run` of its own, counted here (the batched path: test_sweep_batch.py)."""
    log = tmp_path / "runs.log"
    w = tmp_path / "wormsim-counting"
    w.write_text(f"""#!/bin/sh
[ "$1" = config ] && exec "{wormsim}" "$@"
[ "$1" = batch ] && exit 2
out=""
prev=""
for a in "$@"; do
  [ "$prev" = "--out" ] && out="$a"
  prev="$a"
done
echo "$out" >> "{log}"
sleep {delay}
exec "{wormsim}" "$@"
""")
    w.chmod(0o755)
    return str(w), log


def runs_logged(log):
    if not log.exists():
        return []
    return [os.path.basename(line) for line in log.read_text().split() if line]


def complete_points(out):
    path = os.path.join(out, "results.csv")
    if not os.path.exists(path):
        return set()
    return {r["point"] for r in read_csv_rows(path)
            if r["status"] == "completed" and os.path.exists(os.path.join(out, r["dir"], "summary.json"))}


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
def test_resume_after_killed_sweep(tmp_path, wormsim, sig):
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "spec.yaml", SPEC.replace("OUT", str(out)))
    wrapper, log = counting_wrapper(tmp_path, wormsim, delay=0.25)

    # like a terminal: the sweep and its workers in their own process group; the signal goes to all
    proc = subprocess.Popen([PYTHON, os.path.join(SCRIPTS, "sweep.py"), spec, "--workers", "1",
                             "--wormsim", wrapper, "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while len(complete_points(out)) < 3:
        assert proc.poll() is None, f"sweep ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.05)
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=60)
    if sig == signal.SIGINT:
        assert proc.returncode == 130, err
        assert "interrupted" in err and "run the same command again" in err
    else:
        assert proc.returncode == -signal.SIGKILL
    # make sure nothing of the killed sweep is still running
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    time.sleep(0.3)

    # the table is a complete, parseable file with only whole rows
    df = pd.read_csv(out / "results.csv")
    assert 3 <= len(df) < N_POINTS
    assert not [f for f in os.listdir(out) if f.endswith(".tmp")]
    done_first = complete_points(out)
    assert len(done_first) >= 3
    first_runs = runs_logged(log)

    # resume: only the missing points run
    proc2 = script("sweep.py", spec, "--workers", "2", "--wormsim", wrapper, "--no-progress", check=0)
    assert f"{N_POINTS} points, {len(done_first)} complete, {N_POINTS - len(done_first)} to run" in proc2.stderr
    second_runs = runs_logged(log)[len(first_runs):]
    assert not set(second_runs) & done_first, "a completed point was run again"
    assert len(second_runs) == N_POINTS - len(done_first)
    assert complete_points(out) == set(second_runs) | done_first

    if sig != signal.SIGINT:
        return
    # the resumed table equals the table of an uninterrupted sweep
    fresh = tmp_path / "fresh"
    script("sweep.py", spec, "--out", fresh, "--workers", "2", "--wormsim", wormsim, "--no-progress", check=0)
    a = pd.read_csv(out / "results.csv", dtype=str, keep_default_na=False)
    b = pd.read_csv(fresh / "results.csv", dtype=str, keep_default_na=False)
    drop = [c for c in a.columns if c.startswith("host.")]
    pd.testing.assert_frame_equal(a.drop(columns=drop), b.drop(columns=drop))


def test_second_sweep_on_the_same_folder_is_refused(tmp_path, wormsim):
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "spec.yaml", SPEC.replace("OUT", str(out)))
    wrapper, _ = counting_wrapper(tmp_path, wormsim, delay=0.5)
    proc = subprocess.Popen([PYTHON, os.path.join(SCRIPTS, "sweep.py"), spec, "--workers", "1",
                             "--wormsim", wrapper, "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not (out / "results.csv").exists():
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        second = script("sweep.py", spec, "--wormsim", wormsim)
        assert second.returncode == 1
        assert "another sweep is running on this folder" in second.stderr
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.communicate(timeout=60)
