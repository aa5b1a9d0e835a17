#!/usr/bin/python3
"""Run a declarative parameter sweep of wormsim on Dask distributed.

  scripts/sweep.py configs/sweeps/NAME.yaml                 # embedded LocalCluster
  scripts/sweep.py SPEC --workers 4                         # 4 worker processes
  scripts/sweep.py SPEC --scheduler tcp://127.0.0.1:8786    # an existing dask-scheduler
  scripts/sweep.py SPEC --dry-run                           # list the points, run nothing

Writes OUT/results.csv (and results.parquet if pyarrow is installed): one row per
point with every swept parameter and every summary metric. Each point runs in
OUT/points/<id>/. Re-running skips complete points. See docs/sweeps.md.

Exit codes: 0 every point ran without error; 1 bad spec, setup or unreadable table;
2 bad command line; 3 some points failed (their rows have an error); 4 stopped
because the cluster had no worker for --worker-timeout seconds; 130 interrupted.
"""

import argparse
import fcntl
import logging
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from wormsim_py import deps  # noqa: E402

deps.require("sweep.py", ["yaml", "pandas", "tqdm", "dask", "distributed", "cloudpickle"])

from wormsim_py import atomicio, progress, runner, table  # noqa: E402
from wormsim_py import spec as specmod  # noqa: E402

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_FAILED, EXIT_NO_WORKERS, EXIT_INTERRUPTED = 0, 1, 2, 3, 4, 130
WRITE_INTERVAL = 1.0  # seconds between table rewrites while points complete
DEFAULT_WORKER_TIMEOUT = 60.0
WORKER_POLL = 1.0  # seconds between asking the scheduler how many workers it has
CHECK_TIMEOUT = 120.0  # seconds for one `wormsim config check`
SHOWN_CHECK_FAILURES = 5  # distinct messages of refused points printed


MAX_CHUNK = 64  # points per `wormsim batch`: a chunk's rows arrive when its last point ends
CHUNKS_PER_WORKER = 4  # enough chunks to keep every worker busy to the end
# the config keys that decide the network a point runs on (sim/batch_network.cpp): points that
# agree on them run in batches; a point the batch refuses after all runs on its own
NETWORK_KEYS = ("network", "timing", "run.max_cycles", "run.watchdog_cycles", "run.fast_paths")


class SweepError(Exception):
    pass


# files the sweep writes in OUT (results.csv: table.read_table says what is wrong with it)
OUTPUT_FILES = ("spec.yaml", table.TABLE_PARQUET, ".sweep.lock")


def check_output_folder(output):
    """Refuse an OUT the sweep could not write before anything is read or written: a write
    onto a folder would otherwise fail with a traceback half-way through the set-up."""
    existing = output
    while not os.path.lexists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        what = "is a file" if existing == output else f"cannot be created: {existing} is a file"
        raise SweepError(f"{output}: {what}, expected the result folder")
    if existing != output:
        return
    for name in OUTPUT_FILES:
        if os.path.isdir(os.path.join(output, name)):
            raise SweepError(f"{os.path.join(output, name)}: is a folder, expected a file the sweep writes; "
                             "move it away")
    points = os.path.join(output, table.POINTS_DIR)
    if os.path.lexists(points) and not os.path.isdir(points):
        raise SweepError(f"{points}: is a file, expected the folder of the points' outputs; move it away")


def chunk_size(n, workers):
    return max(1, min(MAX_CHUNK, -(-n // (CHUNKS_PER_WORKER * max(1, workers)))))


def network_of(point):
    return tuple((k, specmod.set_text(v)) for k, v in point.sets
                 if any(k == n or k.startswith(n + ".") for n in NETWORK_KEYS))


def make_chunks(points, workers, batch):
    """The tasks of a sweep, in point order: lists of points of one network (one `wormsim batch`
    each), or single points (one `wormsim run`) without `batch`."""
    if not batch:
        return [[p] for p in points]
    groups = {}
    for p in points:
        groups.setdefault(network_of(p), []).append(p)
    size = chunk_size(len(points), workers)
    chunks = [g[i:i + size] for g in groups.values() for i in range(0, len(g), size)]
    return sorted(chunks, key=lambda c: c[0].index)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="sweep.py",
        description="Run a wormsim parameter sweep (docs/sweeps.md) on Dask distributed.")
    p.add_argument("spec", help="sweep spec YAML file")
    p.add_argument("--out", help="result folder (overrides the spec's output)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="worker processes of the embedded LocalCluster (default: CPU count)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on an existing cluster, e.g. tcp://127.0.0.1:8786 (workers must see "
                        "the wormsim binary and the result folder at the same paths)")
    p.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS",
                   help="how long to try to reach --scheduler (default 30)")
    p.add_argument("--wormsim", metavar="PATH",
                   help="wormsim binary (default: $WORMSIM_BIN, else $WORMSIM_BUILD_DIR/wormsim, else build/wormsim)")
    p.add_argument("--timeout", type=float, metavar="SECONDS", help="per-point time limit (overrides the spec)")
    p.add_argument("--worker-timeout", type=float, default=DEFAULT_WORKER_TIMEOUT, metavar="SECONDS",
                   help="stop when the cluster has had no worker for this long; the points not run get an "
                        f"error row (default {DEFAULT_WORKER_TIMEOUT:g}; 0 waits forever)")
    p.add_argument("--rerun", action="store_true", help="run every point again, complete or not")
    p.add_argument("--dry-run", action="store_true",
                   help="check every point with `wormsim config check`, list the points and whether they are "
                        "done; run nothing")
    p.add_argument("--skip-invalid", action="store_true",
                   help="run the points `wormsim config check` accepts; the others get an error row instead "
                        "of stopping the sweep")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--no-batch", action="store_true",
                   help="one `wormsim run` process per point, also for points that share a network (by default "
                        "those run in chunks, one `wormsim batch` each: docs/sweeps.md, \"Batches\")")
    args = p.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        p.error("--workers: expected an integer >= 1")
    if args.connect_timeout <= 0:
        p.error("--connect-timeout: expected a positive number of seconds")
    if args.timeout is not None and args.timeout <= 0:
        p.error("--timeout: expected a positive number of seconds")
    if not args.worker_timeout >= 0:
        p.error("--worker-timeout: expected a number of seconds >= 0")
    return args


def acquire_lock(output):
    path = os.path.join(output, ".sweep.lock")
    try:
        f = open(path, "a+")
    except OSError as e:
        raise SweepError(f"{path}: cannot open the lock file ({e.strerror})") from None
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise SweepError(f"{output}: another sweep is running on this folder (lock {path})") from None
    return f


def _one_line(text):
    return " | ".join(ln.strip() for ln in text.splitlines() if ln.strip())


def check_points(wormsim, sp, points, show_progress=True, batch=False):
    """{point id: message} for the points whose overrides `wormsim config check` refuses.

    Each distinct override list is checked once (points may share one, e.g. tags that only
    name a combination); the checks run in parallel threads, one wormsim process each, or
    with `batch` (the binary has `wormsim batch`) one `wormsim batch --check` per chunk of lists.
    """
    by_sets = {}
    for p in points:
        key = tuple((k, specmod.set_text(v)) for k, v in p.sets)
        by_sets.setdefault(key, []).append(p)

    def check(key):
        cmd = [wormsim, "config", "check", sp.base]
        for k, v in key:
            cmd += ["--set", f"{k}={v}"]
        try:
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  errors="replace", timeout=CHECK_TIMEOUT)
        except subprocess.TimeoutExpired:
            return f"wormsim config check did not answer within {CHECK_TIMEOUT:g} s"
        except OSError as e:
            return f"cannot run {wormsim}: {e.strerror}"
        if proc.returncode == 0:
            return None
        return _one_line(proc.stderr) or _one_line(proc.stdout) or f"wormsim config check exited with {proc.returncode}"

    def check_many(keys):
        # one `wormsim batch --check` for many override lists; one process per list without it
        results = runner.check_chunk(wormsim, sp.base, [list(k) for k in keys]) if batch else None
        if results is None:
            return [check(k) for k in keys]
        return [None if code == 0 else (_one_line(err) or f"wormsim config check exited with {code}")
                for code, err in results]

    cpus = len(os.sched_getaffinity(0)) or 1
    jobs = max(1, min(len(by_sets), 2 * cpus))
    keys = list(by_sets)
    size = chunk_size(len(keys), jobs) if batch else 1
    chunks = [keys[i:i + size] for i in range(0, len(keys), size)]
    # generating big schedules takes a while (a 10-cube total exchange): a bar after 2 s
    bar = progress.Progress(len(by_sets), label="checking", enabled=show_progress, delay=2.0)
    messages = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for msgs in pool.map(check_many, chunks):
            messages.extend(msgs)
            for _ in msgs:
                bar.update()
    bar.close()
    refused = {}
    for key, msg in zip(by_sets, messages):
        if msg is not None:
            for p in by_sets[key]:
                refused[p.id] = msg
    return refused


def report_refused(sp, points, refused, skipping):
    """The refused points on stderr: each distinct message once, with the first point that gets it."""
    first = {}
    for p in points:
        if p.id in refused:
            first.setdefault(refused[p.id], []).append(p)
    head = "error: " if not skipping else "sweep: "
    what = "skipping them (--skip-invalid)" if skipping else "nothing was run or written"
    print(f"{head}{sp.path}: wormsim config check refuses {len(refused)} of {len(points)} points; {what}:",
          file=sys.stderr)
    for msg, pts in list(first.items())[:SHOWN_CHECK_FAILURES]:
        params = ", ".join(f"{k}={specmod.canonical(v)}" for k, v in pts[0].params.items()) or "every point"
        more = f" (and {len(pts) - 1} more point(s) with this message)" if len(pts) > 1 else ""
        print(f"  {params}: {msg}{more}", file=sys.stderr)
    if len(first) > SHOWN_CHECK_FAILURES:
        print(f"  ... and {len(first) - SHOWN_CHECK_FAILURES} more message(s)", file=sys.stderr)
    if not skipping:
        print("  fix the spec, leave those points out with exclude:, or give --skip-invalid to run the others",
              file=sys.stderr)


def point_states(sp, points, existing, damaged_rows):
    """{point id: (state, reason)}: complete, todo, or damaged (its row or files do not hold)."""
    states = {}
    for p in points:
        if p.id in damaged_rows:
            states[p.id] = ("damaged", damaged_rows[p.id])
        else:
            states[p.id] = table.point_state(sp.output, existing.get(p.id))
    return states


def report_damaged(states, verb):
    for pid, (state, reason) in states.items():
        if state == "damaged":
            print(f"sweep: {verb} point {pid}: {reason}", file=sys.stderr)


def dry_run(sp, points, states, refused):
    cols = sp.swept_columns()
    print("state\tpoint\t" + "\t".join(cols))
    for p in points:
        state = "invalid" if p.id in refused else "done" if states[p.id][0] == "complete" else "todo"
        print(f"{state}\t{p.id}\t" + "\t".join(str(specmod.cell(p.params.get(c))) for c in cols))
    report_damaged(states, "would rerun")
    done = sum(1 for p in points if states[p.id][0] == "complete")
    print(f"{len(points)} points, {done} done, {len(points) - done} to run; output {sp.output}", file=sys.stderr)


def start_client(args, n_todo):
    from dask.distributed import Client, LocalCluster
    import cloudpickle
    # workers (also those of an external cluster) get the runner by value: they do not
    # need this package on their path
    cloudpickle.register_pickle_by_value(runner)
    if args.scheduler:
        client = Client(args.scheduler, timeout=f"{args.connect_timeout}s")
        return client, None
    workers = args.workers or len(os.sched_getaffinity(0)) or 1
    workers = max(1, min(workers, n_todo))
    # Worker processes forked from a server that has imported Dask once, not
    # interpreters started afresh (Dask's default, spawn): starting and closing
    # the cluster took half of a small sweep's time (docs/performance.md,
    # "Sweeps of small runs"). The server is started here with SIGINT ignored,
    # which it inherits: it would otherwise die of a Ctrl-C with a traceback
    # while it imports Dask, before it ignores SIGINT itself. The workers ignore
    # it through IgnoreSigint, as before.
    import dask
    import multiprocessing.forkserver
    from distributed.utils import get_mp_context
    dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"})
    get_mp_context()  # sets the modules the server imports before it forks a worker
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0",
                           silence_logs=logging.ERROR)
    client = Client(cluster)
    client.register_worker_plugin(runner.IgnoreSigint(), name=runner.IgnoreSigint.name)
    return client, cluster


class WorkerWatch:
    """Measures how long the cluster has been without a worker.

    Asked from a thread of its own: a call to a scheduler that went away can block for the
    connect timeout, and the sweep must still stop on time. An unreachable scheduler counts
    as no worker.
    """

    def __init__(self, client):
        self.client = client
        self._empty_since = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wormsim-worker-watch", daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            asked = time.monotonic()
            try:
                n = len(self.client.nthreads())
            except Exception:  # noqa: BLE001 - see the class comment
                n = 0
            if n:
                self._empty_since = None
            elif self._empty_since is None:
                self._empty_since = asked
            self._stop.wait(WORKER_POLL)

    def idle_for(self):
        """Seconds since the cluster was first seen without a worker (0 while it has one)."""
        since = self._empty_since
        return 0.0 if since is None else time.monotonic() - since

    def stop(self):
        self._stop.set()


def stop_client(client, cluster):
    for closer in (client, cluster):
        if closer is None:
            continue
        try:
            closer.close(timeout=10)
        except BaseException:  # noqa: BLE001 - shutting down after an interrupt must not raise
            pass


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        sp = specmod.load(args.spec, args.out)
        points = specmod.expand(sp)
    except specmod.SpecError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    if args.timeout is not None:
        sp.timeout = args.timeout
    wormsim = os.path.abspath(args.wormsim or deps.wormsim_binary())
    if not (os.path.isfile(wormsim) and os.access(wormsim, os.X_OK)):
        print(f"error: wormsim binary not found or not executable: {wormsim} "
              f"(build it, or give --wormsim PATH or WORMSIM_BIN)", file=sys.stderr)
        return EXIT_INPUT
    # every point's overrides go through wormsim's own checker before anything is written
    batch = sp.saturate is None and not args.no_batch and runner.batch_supported(wormsim)
    refused = check_points(wormsim, sp, points, not args.no_progress, batch)
    if refused:
        report_refused(sp, points, refused, args.skip_invalid)
        if not args.skip_invalid:
            return EXIT_INPUT

    csv_path = os.path.join(sp.output, table.TABLE_CSV)
    try:
        check_output_folder(sp.output)
    except SweepError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    try:
        existing, damaged_rows = table.read_table(csv_path)
    except table.TableError as e:
        print(f"error: {e}; restore it, or move it away to run every point again "
              f"(the point folders stay)", file=sys.stderr)
        return EXIT_INPUT
    states = point_states(sp, points, existing, damaged_rows)
    if args.dry_run:
        dry_run(sp, points, states, refused)
        return EXIT_OK

    try:
        os.makedirs(sp.output, exist_ok=True)
    except OSError as e:
        print(f"error: {sp.output}: cannot create the result folder ({e.strerror})", file=sys.stderr)
        return EXIT_INPUT

    try:
        lock = acquire_lock(sp.output)
    except SweepError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT

    param_cols = sp.param_columns()
    try:
        atomicio.write_text(os.path.join(sp.output, "spec.yaml"), sp.text)
    except OSError as e:
        lock.close()
        print(f"error: {os.path.join(sp.output, 'spec.yaml')}: cannot write ({e.strerror})", file=sys.stderr)
        return EXIT_INPUT

    # rows of this spec's points, in table order: complete ones are kept as they are, failed or
    # interrupted ones until their point has run again (--rerun: every row is replaced); damaged
    # ones are dropped at once, so the table never shows a result its files do not back
    rows = {}
    todo = []
    if not args.rerun:
        report_damaged(states, "rerunning")
    for p in points:
        old = existing.get(p.id)
        state = states[p.id][0]
        if p.id in refused:
            rows[p.id] = table.make_row(p, {"status": "error", "exit_code": None,
                                            "error": f"invalid config (wormsim config check): {refused[p.id]}"})
            continue
        if old is not None and not args.rerun and state != "damaged":
            rows[p.id] = table.make_row(p, {k: v for k, v in old.items() if k not in p.params and k != "dir"})
        if args.rerun or state != "complete":
            todo.append(p)
    dropped = len(set(existing) - {p.id for p in points})
    if dropped:
        print(f"sweep: dropping {dropped} row(s) of points that are not in the spec any more "
              f"(their folders stay in {os.path.join(sp.output, table.POINTS_DIR)})", file=sys.stderr)

    def write_table():
        ordered = [rows[p.id] for p in points if p.id in rows]
        table.write(sp.output, param_cols, ordered)

    try:
        write_table()
    except OSError as e:
        lock.close()
        print(f"error: {sp.output}: cannot write the table ({e.strerror}: {e.filename2 or e.filename})",
              file=sys.stderr)
        return EXIT_INPUT
    done_before = len(points) - len(todo) - len(refused)
    skipped = f", {len(refused)} invalid" if refused else ""
    print(f"sweep: {len(points)} points, {done_before} complete{skipped}, {len(todo)} to run -> {csv_path}",
          file=sys.stderr)

    failed = 0
    interrupted = False
    no_workers = False
    not_run = 0
    client = cluster = watch = None
    bar = None
    old_term = signal.getsignal(signal.SIGTERM)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        if todo:
            from dask.distributed import as_completed
            try:
                client, cluster = start_client(args, len(todo))
            except (OSError, TimeoutError) as e:
                where = f"the scheduler at {args.scheduler}" if args.scheduler else "the embedded LocalCluster"
                print(f"error: cannot start the sweep on {where}: {e}", file=sys.stderr)
                return EXIT_INPUT
            session = secrets.token_hex(4)
            futures = []
            by_key = {}

            def task_of(p):
                return {"point": p.id, "wormsim": wormsim, "base": sp.base, "out": table.point_dir(sp.output, p.id),
                        "sets": [(k, specmod.set_text(v)) for k, v in p.sets], "timeout": sp.timeout,
                        "saturate": None if sp.saturate is None else sp.saturate_args()}

            workers = sum(client.nthreads().values()) or 1
            for chunk in make_chunks(todo, workers, batch):
                p = chunk[0]
                if len(chunk) == 1:
                    fut = client.submit(runner.run_point, task_of(p), key=f"wormsim-point-{p.id}-{session}",
                                        pure=False, retries=0, priority=-p.index)
                else:
                    fut = client.submit(runner.run_chunk, [task_of(q) for q in chunk],
                                        key=f"wormsim-batch-{p.id}-{session}", pure=False, retries=0,
                                        priority=-p.index)
                futures.append(fut)
                by_key[fut.key] = chunk
            bar = progress.Progress(done_before + len(todo), done=done_before, enabled=not args.no_progress)
            last_write = time.monotonic()
            pending_write = False
            watch = WorkerWatch(client) if args.worker_timeout else None
            # with_results: each row is fetched as soon as its task ends. A row fetched later
            # could be lost with a worker that died meanwhile, and waiting for it would wait for
            # Dask to recompute (run the point again), forever once no worker is left.
            ac = as_completed(futures, with_results=True, raise_errors=False)
            pending = set(by_key)
            while not ac.is_empty():
                if not ac.has_ready():
                    if watch is not None and watch.idle_for() >= args.worker_timeout:
                        no_workers = True
                        break
                    time.sleep(0.1)
                    continue
                fut, result = next(ac)
                pending.discard(fut.key)
                chunk = by_key[fut.key]
                if isinstance(result, dict):
                    results = [result]
                elif isinstance(result, list):
                    results = result
                else:
                    # a task error arrives as (type, exception, traceback), a cancelled one as the exception
                    e = result[1] if isinstance(result, tuple) else result
                    results = [{"status": "error", "exit_code": None,
                                "error": f"task failed on the cluster: {type(e).__name__}: {e}"}] * len(chunk)
                for p, res in zip(chunk, results):
                    rows[p.id] = table.make_row(p, res)
                    bad = table.has_error(rows[p.id])
                    failed += bad
                    bar.update(failed=bad)
                pending_write = True
                if time.monotonic() - last_write >= WRITE_INTERVAL:
                    write_table()
                    last_write = time.monotonic()
                    pending_write = False
                fut.release()
            if no_workers:
                client.cancel([f for f in futures if f.key in pending])
                not_run = sum(len(by_key[key]) for key in pending)
                for key in pending:
                    for p in by_key[key]:
                        rows[p.id] = table.make_row(p, {
                            "status": "error", "exit_code": None,
                            "error": f"not run: the cluster had no worker for {args.worker_timeout:g} s"})
                        failed += 1
            if pending_write:
                write_table()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if watch is not None:
            watch.stop()
        if bar is not None:
            bar.close()
        # the table holds exactly the rows received so far
        write_table()
        stop_client(client, cluster)
        signal.signal(signal.SIGTERM, old_term)
        lock.close()

    ordered = [rows[p.id] for p in points if p.id in rows]
    n_err = sum(1 for r in ordered if table.has_error(r))
    def complete():
        # checks every point's files: only for the messages of a sweep that stopped early
        return sum(1 for p in points if table.is_complete(sp.output, rows.get(p.id)))

    if no_workers:
        where = f"the cluster at {args.scheduler}" if args.scheduler else "the embedded LocalCluster"
        print(f"error: {where} has had no worker for {args.worker_timeout:g} s (--worker-timeout): stopped; "
              f"{not_run} point(s) not run, {complete()} of {len(points)} complete; start workers "
              f"and run the same command again -> {csv_path}", file=sys.stderr)
        return EXIT_NO_WORKERS
    if interrupted:
        print(f"sweep: interrupted; {complete()} of {len(points)} points complete; "
              f"run the same command again to finish -> {csv_path}", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(f"sweep: {len(points)} points, {len(todo)} run now ({failed} failed), "
          f"{n_err} row(s) with an error -> {csv_path}", file=sys.stderr)
    errors = [r for r in ordered if table.has_error(r)]
    for r in errors[:10]:
        print(f"  failed {r['point']}: {r['error']}", file=sys.stderr)
    if len(errors) > 10:
        print(f"  ... and {len(errors) - 10} more (see the error column)", file=sys.stderr)
    return EXIT_FAILED if any(table.has_error(r) for r in ordered) else EXIT_OK


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. --dry-run | head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_OK)
