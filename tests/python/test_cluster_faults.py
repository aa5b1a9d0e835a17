"""Faults around the sweep driver and its workers: a killed driver leaves no simulator running,
a killed worker's point runs again elsewhere, and a cluster without workers ends the sweep."""

import os
import signal
import subprocess
import time

from conftest import (DEFAULT_CONFIG, FAKE_WORMSIM, PYTHON, SCRIPTS, read_csv_rows, start_dask_cluster,
                      stop_dask_cluster, stop_process_group, write_spec)


def wait_for(what, cond, timeout):
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        assert time.monotonic() < deadline, f"timed out after {timeout} s waiting for {what}"
        time.sleep(0.05)


def processes():
    """{pid: (parent pid, command line)} of every process we can see."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                stat = f.read()
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()
        if fields[0] == b"Z":  # a zombie has finished already
            continue
        out[int(d)] = (int(fields[1]), cmd)
    return out


def descendants(root, procs):
    found, todo = set(), [root]
    while todo:
        p = todo.pop()
        for pid, (ppid, _) in procs.items():
            if ppid == p and pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def test_killed_driver_leaves_no_simulator_running(tmp_path):
    # a slow stand-in for wormsim whose command line carries the point's --out folder (and which
    # accepts every config at the sweep's check, and has no `batch`: each point is a process of its own)
    slow = tmp_path / "slow-wormsim"
    slow.write_text('#!/bin/sh\n[ "$1" = config ] && exit 0\n[ "$1" = batch ] && exit 2\nexec /usr/bin/python3 -c "import time; time.sleep(300)" "$@"\n')
    slow.chmod(0o755)
    out = tmp_path / "orphan-check-out"
    spec = write_spec(tmp_path / "spec.yaml", f"base: {DEFAULT_CONFIG}\noutput: {out}\n"
                                              f"grid:\n  schedule.flits: [1, 2, 3]\n")
    marker = f"--out {out}/points/"
    driver = subprocess.Popen([PYTHON, os.path.join(SCRIPTS, "sweep.py"), spec, "--workers", "2",
                               "--wormsim", str(slow), "--no-progress"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        def sims():
            return {pid for pid, (_, cmd) in processes().items() if marker in cmd}
        wait_for("two simulator runs", lambda: len(sims()) == 2, 60)
        family = descendants(driver.pid, processes())   # the cluster's workers and their runs
        assert sims() <= family and len(family) >= 4
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=10)
        wait_for("the runs and workers of the killed driver to end",
                 lambda: not sims() and not (family & set(processes())), 20)
    finally:
        try:
            os.killpg(driver.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        driver.wait(timeout=10)


def test_lost_workers(tmp_path):
    log = tmp_path / "runs.log"
    address, procs, cluster_log = start_dask_cluster(
        tmp_path, 2, env={"FAKE_WORMSIM_SLEEP": "1", "FAKE_WORMSIM_LOG": str(log)})
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "spec.yaml", f"base: {DEFAULT_CONFIG}\noutput: {out}\n"
                                              f"grid:\n  schedule.flits: [1, 2, 3, 4, 5, 6, 7, 8]\n")
    sweep = subprocess.Popen([PYTHON, os.path.join(SCRIPTS, "sweep.py"), spec, "--scheduler", address,
                              "--worker-timeout", "2", "--wormsim", FAKE_WORMSIM, "--no-progress"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        def started():
            return [ln.split() for ln in log.read_text().splitlines()] if log.exists() else []

        # both workers are running a point; kill worker 0 (and its run) in the middle of its point
        wait_for("both workers to start a point", lambda: len(started()) >= 2, 60)
        lost = next(o for o, pid in started() if os.getpgid(int(pid)) == procs[1].pid)
        os.killpg(procs[1].pid, signal.SIGKILL)
        procs[1].wait(timeout=10)
        # Dask gives the lost point to the other worker: it runs again and completes
        wait_for("the lost point to run again", lambda: [o for o, _ in started()].count(lost) == 2, 60)

        def table_says_complete():
            try:
                rows = read_csv_rows(out / "results.csv")
            except (OSError, ValueError):
                return False
            return any(os.path.join(out, r["dir"]) == lost and r["status"] == "completed" for r in rows)
        wait_for("the sweep to record the lost point's rerun", table_says_complete, 60)

        # then the last worker dies: the sweep stops after --worker-timeout, saying so
        killed_at = time.monotonic()
        os.killpg(procs[2].pid, signal.SIGKILL)
        procs[2].wait(timeout=10)
        _, err = sweep.communicate(timeout=60)
        waited = time.monotonic() - killed_at
        assert sweep.returncode == 4, err
        assert 2 <= waited < 30, waited  # bounded: it used to wait forever
        assert f"error: the cluster at {address} has had no worker for 2 s (--worker-timeout): stopped" in err
        rows = read_csv_rows(out / "results.csv")
        assert len(rows) == 8
        by_dir = {os.path.join(out, r["dir"]): r for r in rows}
        assert by_dir[lost]["status"] == "completed" and by_dir[lost]["error"] == "", by_dir[lost]
        not_run = [r for r in rows if r["error"] == "not run: the cluster had no worker for 2 s"]
        assert not_run and all(r["status"] == "error" for r in not_run)
        assert len(not_run) + sum(r["status"] == "completed" for r in rows) == 8
        assert f"{len(not_run)} point(s) not run" in err
    finally:
        stop_process_group(sweep)
        stop_dask_cluster(procs, cluster_log)
