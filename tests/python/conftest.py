"""Shared fixtures for the Python tooling tests (run with /usr/bin/python3 -m pytest tests/python).

The wormsim binary comes from $WORMSIM_BIN (ctest sets it), else build-py/ or build/ in the
repository. Everything binds 127.0.0.1 only.
"""

import csv
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(REPO, "scripts")
PYTHON = "/usr/bin/python3"
DEFAULT_CONFIG = os.path.join(REPO, "configs", "default.yaml")

if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)


def _find_wormsim():
    env = os.environ.get("WORMSIM_BIN")
    if env:
        return env
    for d in ("build-py", "build"):
        p = os.path.join(REPO, d, "wormsim")
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


@pytest.fixture(scope="session")
def wormsim():
    p = _find_wormsim()
    if not p or not (os.path.isfile(p) and os.access(p, os.X_OK)):
        pytest.fail(f"wormsim binary not found ({p or 'set WORMSIM_BIN or build build/wormsim'})")
    return os.path.abspath(p)


def script(name, *args, env=None, timeout=300, check=None, cwd=None):
    """Run scripts/NAME with Debian's python; returns CompletedProcess (text)."""
    e = dict(os.environ)
    if env:
        e.update(env)
    proc = subprocess.run([PYTHON, os.path.join(SCRIPTS, name), *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, env=e, cwd=cwd or REPO)
    if check is not None:
        assert proc.returncode == check, (
            f"{name} {' '.join(map(str, args))}: exit {proc.returncode}, expected {check}\n"
            f"stdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-3000:]}")
    return proc


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def inproc(name, *args):
    """Call scripts/NAME's main(argv) in this process (faster than a subprocess for error checks)."""
    import contextlib
    import importlib
    import io
    mod = importlib.import_module(name[:-3] if name.endswith(".py") else name)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = mod.main([str(a) for a in args])
        except SystemExit as e:
            rc = e.code if isinstance(e.code, int) else 1
    return Result(rc, out.getvalue(), err.getvalue())


def run_wormsim(wormsim, out, *sets, config=DEFAULT_CONFIG, check=0):
    cmd = [wormsim, "run", config, "--out", str(out), "--quiet", "--set", "output.host_timing=false"]
    for s in sets:
        cmd += ["--set", s]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if check is not None:
        assert proc.returncode == check, f"{cmd}: exit {proc.returncode}\n{proc.stderr[-2000:]}"
    return proc


def read_csv_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def write_spec(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return str(path)


# A small, fast sweep: 2 sizes x 2 lengths x 3 variants = 12 points, of which the 4 "bad"
# ones (unknown algorithm) are refused by `wormsim config check`: run with --skip-invalid,
# they get error rows, so failure rows are part of every comparison.
SMALL_SPEC = f"""
base: {DEFAULT_CONFIG}
output: OUT
zip:
  tag.variant:        [eye, binomial, bad]
  schedule.algorithm: [eye, binomial, no-such-algorithm]
grid:
  network.dims: [[4, 4], [8, 8]]
  schedule.flits: [4, 16]
"""


@pytest.fixture(scope="session")
def small_sweep(tmp_path_factory, wormsim):
    """The small sweep run once on the embedded LocalCluster: (spec path, output folder, process)."""
    d = tmp_path_factory.mktemp("small_sweep")
    spec = write_spec(d / "small.yaml", SMALL_SPEC.replace("OUT", str(d / "out")))
    proc = script("sweep.py", spec, "--workers", "2", "--wormsim", wormsim, "--skip-invalid", timeout=300)
    return spec, str(d / "out"), proc


def manifest(folder, names=None):
    """The "outputs" block wormsim writes into summary.json, computed here with zlib (by default of
    the CSVs a run writes; routes.csv when the folder has one)."""
    import zlib
    if names is None:
        names = ["messages.csv", "links.csv", "steps.csv"]
        names += ["routes.csv"] if os.path.exists(os.path.join(folder, "routes.csv")) else []
    out = {}
    for n in names:
        with open(os.path.join(folder, n), "rb") as f:
            data = f.read()
        out[n] = {"bytes": len(data), "crc32": f"{zlib.crc32(data) & 0xFFFFFFFF:08x}"}
    return out


def seal(folder):
    """Give a run folder the summary.json "outputs" block of its current files (placed before
    "warnings", as wormsim does): a test's deliberate edit of a file then reads as a new
    consistent set rather than a damaged one."""
    import json
    path = os.path.join(folder, "summary.json")
    with open(path, encoding="utf-8") as f:
        summary = json.load(f)
    block = manifest(folder)
    sealed = {}
    for k, v in summary.items():
        if k == "warnings":
            sealed["outputs"] = block
        if k != "outputs":
            sealed[k] = v
    sealed.setdefault("outputs", block)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(sealed, f, indent=2)
    return sealed


FAKE_WORMSIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_wormsim.py")


def _start(cmd, log, cwd, env):
    # cwd: a folder without the scripts, so the workers cannot import wormsim_py themselves
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            start_new_session=True, cwd=cwd, env=env)


def stop_process_group(proc):
    """SIGTERM proc's process group, SIGKILL if it lingers; every wait bounded."""
    import signal
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=15)
        except ProcessLookupError:
            pass


def start_dask_cluster(tmp_path, n_workers, env=None):
    """A dask-scheduler and n_workers dask-worker processes on 127.0.0.1 (ports chosen by the OS),
    each in a process group of its own: (address, [scheduler, worker...] Popen objects, log file)."""
    import json
    import time
    e = dict(os.environ)
    e.update(env or {})
    sched_file = tmp_path / "scheduler.json"
    log = open(tmp_path / "cluster.log", "w")
    procs = []
    try:
        procs.append(_start([PYTHON, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                             "--dashboard-address", "127.0.0.1:0", "--no-show",
                             "--scheduler-file", str(sched_file)], log, tmp_path, e))
        deadline = time.monotonic() + 60
        while not sched_file.exists() or not sched_file.read_text().strip():
            assert procs[0].poll() is None, (tmp_path / "cluster.log").read_text()
            assert time.monotonic() < deadline, "dask-scheduler did not start"
            time.sleep(0.2)
        time.sleep(0.2)
        address = json.loads(sched_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for i in range(n_workers):
            procs.append(_start([PYTHON, "-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1",
                                 "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                                 "--dashboard-address", "127.0.0.1:0", "--name", f"test-worker-{i}",
                                 "--local-directory", str(tmp_path / f"worker{i}")], log, tmp_path, e))
        # wait until every worker has registered
        from distributed import Client
        with Client(address, timeout="30s") as c:
            c.wait_for_workers(n_workers, timeout=60)
            assert len(c.scheduler_info()["workers"]) == n_workers
        return address, procs, log
    except BaseException:
        stop_dask_cluster(procs, log)
        raise


def stop_dask_cluster(procs, log):
    for p in reversed(procs):
        stop_process_group(p)
    log.close()
