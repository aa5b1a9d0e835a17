"""Run one sweep point with the wormsim binary (run_point), or a chunk of points that share a
network with one `wormsim batch` (run_chunk), and send back what the table needs of each
summary.json (the client flattens it into columns: table.summary_row).

This module is what Dask workers execute. It uses the standard library only, and
sweep.py registers it with cloudpickle "by value", so workers of an external
cluster need neither this package on their path nor pandas: they need the
wormsim binary and the output folder at the same paths as the client (a shared
file system).
"""

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

OUTPUT_FILES = ("summary.json", "messages.csv", "links.csv", "steps.csv", "routes.csv", "repetitions.csv", "warmup.csv",
                "latency.csv", "routers.csv", "vcs.csv", "hops.csv", "curve.csv", "curve.svg")
STDERR_FILE = "stderr.log"
COMMAND_FILE = "command.sh"
STDERR_TAIL_LINES = 8
STDERR_TAIL_CHARS = 1500

# summary.json keys that are not sent back: the config echo and the output manifest are in
# the point's folder, and the warnings (thousands for some schedules) are sent as a count
_NOT_SENT = ("config", "outputs", "warnings")


def summary_extract(summary):
    """The part of summary.json the table needs, with "warning_count" for the warnings."""
    out = {k: v for k, v in summary.items() if k not in _NOT_SENT}
    out["warning_count"] = len(summary.get("warnings") or [])
    return out


def _tail(path):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 64 * 1024))
            data = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [ln.strip() for ln in data.splitlines() if ln.strip()]
    text = " | ".join(lines[-STDERR_TAIL_LINES:])
    if len(text) > STDERR_TAIL_CHARS:
        text = "..." + text[-STDERR_TAIL_CHARS:]
    return text


def build_command(task):
    """`wormsim run BASE --set ... --out OUT --quiet`; with task["saturate"] (a list of options),
    `wormsim saturate` instead: a saturation search per point (docs/sweeps.md)."""
    saturate = task.get("saturate")
    cmd = [task["wormsim"], "run" if saturate is None else "saturate", task["base"]]
    for key, value in task["sets"]:
        cmd += ["--set", f"{key}={value}"]
    cmd += ["--out", task["out"], "--quiet"]
    return cmd + list(saturate or [])


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent():
    """A preexec_fn that ties the child to this process: Linux kills it (SIGKILL) when the
    parent dies, so a killed sweep driver or worker leaves no wormsim running beside the
    reruns of the next sweep. None where prctl is not available.

    The parent-death signal fires when the *thread* that forked the child exits. run_point
    forks from the task's thread (a Dask worker's thread-pool thread) and waits for the
    child in that same thread, so that thread outlives the child unless the whole worker
    process dies -- which is exactly when the child must go.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.restype = ctypes.c_int
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    parent = os.getpid()

    def preexec():
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        # the parent may have died between fork and prctl: then no signal would ever come
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return preexec


def _prepare(task, row, start):
    """Clear the point's folder of an earlier run's outputs and write its command.sh (the
    `wormsim run` that reproduces it, also for a point run in a batch). Returns the command,
    or None with the row's error set."""
    out = task["out"]
    try:
        os.makedirs(out, exist_ok=True)
        for name in OUTPUT_FILES + (STDERR_FILE,):
            try:
                os.unlink(os.path.join(out, name))
            except FileNotFoundError:
                pass
        cmd = build_command(task)
        with open(os.path.join(out, COMMAND_FILE), "w", encoding="utf-8") as f:
            f.write(" ".join(shlex.quote(c) for c in cmd) + "\n")
    except OSError as e:
        row.update(status="error", exit_code=None, error=f"cannot prepare {out}: {e}")
        row["host.sweep_seconds"] = time.monotonic() - start
        return None
    if not (os.path.isfile(task["wormsim"]) and os.access(task["wormsim"], os.X_OK)):
        row.update(status="error", exit_code=None,
                   error=f"wormsim binary not found or not executable on worker {os.uname().nodename}: "
                         f"{task['wormsim']}")
        row["host.sweep_seconds"] = time.monotonic() - start
        return None
    return cmd


def _finish(task, row, exit_code, error, seconds):
    """The rest of the row from the point's folder: summary, status, exit code and error."""
    out = task["out"]
    stderr_path = os.path.join(out, STDERR_FILE)
    summary = None
    summary_path = os.path.join(out, "summary.json")
    if os.path.exists(summary_path):
        try:
            with open(summary_path, encoding="utf-8") as f:
                summary = json.load(f)
        except (OSError, ValueError) as e:
            error = error or f"unreadable summary.json: {e}"

    row["summary"] = None if summary is None else summary_extract(summary)
    row["status"] = "error" if summary is None else summary.get("status")
    row["exit_code"] = exit_code
    if error is None and exit_code != 0:
        tail = _tail(stderr_path)
        error = f"exit {exit_code}" + (f": {tail}" if tail else "")
    if error is None and summary is None:
        error = "wormsim exited with 0 but wrote no summary.json"
    row["error"] = error
    row["host.sweep_seconds"] = round(seconds, 6)
    return row


def run_point(task):
    """Run one point. task: dict with point, wormsim, base, sets [(key, yaml_text)], out, timeout.

    Returns a dict: point, status, exit_code, error, host.sweep_seconds, and "summary" (the
    summary_extract of summary.json, None without one). Never raises for a failed run:
    failures have an error.
    """
    start = time.monotonic()
    out = task["out"]
    row = {"point": task["point"]}
    cmd = _prepare(task, row, start)
    if cmd is None:
        return row

    stderr_path = os.path.join(out, STDERR_FILE)
    timeout = task.get("timeout")
    exit_code = None
    error = None
    with open(stderr_path, "wb") as err:
        try:
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=err, timeout=timeout, cwd=out, preexec_fn=die_with_parent())
            exit_code = proc.returncode
        except subprocess.TimeoutExpired:
            error = f"timeout: killed after {timeout} s"
        except OSError as e:
            error = f"cannot start {task['wormsim']}: {e}"
    return _finish(task, row, exit_code, error, time.monotonic() - start)


def batch_supported(wormsim):
    """Whether this wormsim binary has the `batch` command (test stand-ins may not)."""
    try:
        return subprocess.run([wormsim, "batch", "--help"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _points_file(tasks, line_of):
    """Writes the points file of a batch beside the points' folders; returns its path."""
    folder = os.path.dirname(os.path.abspath(tasks[0]["out"]))
    fd, path = tempfile.mkstemp(prefix=".batch-", suffix=".jsonl", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        for t in tasks:
            f.write(json.dumps(line_of(t)) + "\n")
    return path


def _run_batch(wormsim, base, points_file, extra):
    """`wormsim batch`'s per-point results by output folder ({} when it did not run)."""
    cmd = [wormsim, "batch", base, "--points", points_file, *extra]
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
                              preexec_fn=die_with_parent())
    except OSError:
        return {}
    results = {}
    for line in proc.stdout.splitlines():
        try:
            r = json.loads(line)
            results[r["out"]] = r
        except (ValueError, KeyError, TypeError):
            continue
    return results


def run_chunk(chunk):
    """Run the points of one network in one `wormsim batch` (docs/sweeps.md, "Batches").

    chunk: list of run_point tasks of the same wormsim, base and timeout, whose points share a
    network. Returns their rows, as run_point would. A point the batch refuses (its network
    differs after all) or does not report runs on its own with run_point.
    """
    start = time.monotonic()
    rows, ready = {}, []
    for task in chunk:
        row = {"point": task["point"]}
        if _prepare(task, row, start) is None:
            rows[task["point"]] = row
        else:
            ready.append(task)
    results = {}
    if ready:
        first = ready[0]
        extra = ["--timeout", repr(float(first["timeout"]))] if first.get("timeout") else []
        path = _points_file(ready, lambda t: {"out": t["out"], "set": [f"{k}={v}" for k, v in t["sets"]]})
        try:
            results = _run_batch(first["wormsim"], first["base"], path, extra)
        finally:
            os.unlink(path)
    for task in ready:
        r = results.get(task["out"])
        if r is None or r.get("refused"):
            rows[task["point"]] = run_point(task)
            continue
        row = {"point": task["point"]}
        with open(os.path.join(task["out"], STDERR_FILE), "w", encoding="utf-8") as f:
            f.write(r.get("stderr") or "")
        error = None
        if r.get("exit_code") is None:
            err = r.get("error") or "no exit code"
            error = f"timeout: killed after {task.get('timeout')} s" if err.startswith("timeout:") else err
        rows[task["point"]] = _finish(task, row, r.get("exit_code"), error, r.get("seconds") or 0.0)
    return [rows[t["point"]] for t in chunk]


def check_chunk(wormsim, base, sets_lists):
    """`wormsim config check` of each override list, in one `wormsim batch --check`: a list of
    (exit code or None, stderr text), in order; None when the batch did not run."""
    folder = tempfile.mkdtemp(prefix="wormsim-check-")
    try:
        tasks = [{"out": os.path.join(folder, str(i)), "sets": sets} for i, sets in enumerate(sets_lists)]
        path = _points_file(tasks, lambda t: {"out": t["out"], "set": [f"{k}={v}" for k, v in t["sets"]]})
        results = _run_batch(wormsim, base, path, ["--check"])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if len(results) != len(sets_lists):
        return None
    return [(results[t["out"]].get("exit_code"), results[t["out"]].get("stderr") or "") for t in tasks]


class IgnoreSigint:
    """Worker plugin for the embedded cluster: the worker processes ignore SIGINT.

    A Ctrl-C in the terminal reaches every process of the foreground group: the sweep
    handles it (writes the table, closes the cluster), the wormsim runs stop with status
    interrupted, and the workers should not die with tracebacks of their own.
    """

    name = "wormsim-ignore-sigint"

    def setup(self, worker=None):
        import signal
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread of the worker process
            pass
