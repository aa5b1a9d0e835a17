#!/usr/bin/python3
"""Run a declarative parameter sweep of wormsim on Dask distributed.

  scripts/sweep.py configs/sweeps/NAME.yaml                 # embedded LocalCluster
  scripts/sweep.py SPEC --workers 4                         # 4 worker processes
  scripts/sweep.py SPEC --scheduler tcp://127.0.0.1:8786    # an existing dask-scheduler
  scripts/sweep.py SPEC --dry-run                           # list the points, run nothing

Writes OUT/results.csv (and results.parquet if pyarrow is installed): one row per
point with every swept parameter and every summary metric. Each point runs in
OUT/points/<id>/. Re-running skips complete points. See docs/sweeps.md.

Exit codes: 0 every point ran without error; 1 bad spec or setup; 2 bad command
line; 3 some points failed (their rows have an error); 130 interrupted.
"""

import argparse
import fcntl
import logging
import os
import secrets
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from wormsim_py import atomicio, progress, runner, table  # noqa: E402
from wormsim_py import spec as specmod  # noqa: E402

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_FAILED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
WRITE_INTERVAL = 1.0  # seconds between table rewrites while points complete


class SweepError(Exception):
    pass


def default_wormsim():
    env = os.environ.get("WORMSIM_BIN")
    if env:
        return env
    return os.path.join(REPO, "build", "wormsim")


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
                   help="wormsim binary (default: $WORMSIM_BIN, else build/wormsim in the repository)")
    p.add_argument("--timeout", type=float, metavar="SECONDS", help="per-point time limit (overrides the spec)")
    p.add_argument("--rerun", action="store_true", help="run every point again, complete or not")
    p.add_argument("--dry-run", action="store_true", help="list the points and whether they are done; run nothing")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        p.error("--workers: expected an integer >= 1")
    if args.connect_timeout <= 0:
        p.error("--connect-timeout: expected a positive number of seconds")
    if args.timeout is not None and args.timeout <= 0:
        p.error("--timeout: expected a positive number of seconds")
    return args


def acquire_lock(output):
    path = os.path.join(output, ".sweep.lock")
    f = open(path, "a+")
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise SweepError(f"{output}: another sweep is running on this folder (lock {path})") from None
    return f


def dry_run(sp, points, existing):
    cols = sp.param_columns()
    print("state\tpoint\t" + "\t".join(cols))
    for p in points:
        state = "done" if table.is_complete(sp.output, existing.get(p.id)) else "todo"
        print(f"{state}\t{p.id}\t" + "\t".join(str(specmod.cell(p.params.get(c))) for c in cols))
    done = sum(1 for p in points if table.is_complete(sp.output, existing.get(p.id)))
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
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0",
                           silence_logs=logging.ERROR)
    client = Client(cluster)
    client.register_worker_plugin(runner.IgnoreSigint(), name=runner.IgnoreSigint.name)
    return client, cluster


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
    wormsim = os.path.abspath(args.wormsim or default_wormsim())
    if not args.scheduler and not args.dry_run and not (os.path.isfile(wormsim) and os.access(wormsim, os.X_OK)):
        print(f"error: wormsim binary not found or not executable: {wormsim} "
              f"(build it, or give --wormsim PATH or WORMSIM_BIN)", file=sys.stderr)
        return EXIT_INPUT

    try:
        os.makedirs(sp.output, exist_ok=True)
    except OSError as e:
        print(f"error: {sp.output}: cannot create the result folder ({e.strerror})", file=sys.stderr)
        return EXIT_INPUT
    csv_path = os.path.join(sp.output, table.TABLE_CSV)
    existing = table.read_rows(csv_path)
    if args.dry_run:
        dry_run(sp, points, existing)
        return EXIT_OK

    try:
        lock = acquire_lock(sp.output)
    except SweepError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT

    param_cols = sp.param_columns()
    with open(sp.path, encoding="utf-8") as f:
        atomicio.write_text(os.path.join(sp.output, "spec.yaml"), f.read())

    # rows of this spec's points, in table order: complete ones are kept as they are, failed or
    # interrupted ones until their point has run again (--rerun: every row is replaced)
    rows = {}
    todo = []
    for p in points:
        old = existing.get(p.id)
        if old is not None and not args.rerun:
            rows[p.id] = table.make_row(p, {k: v for k, v in old.items() if k not in p.params and k != "dir"})
        if args.rerun or not table.is_complete(sp.output, old):
            todo.append(p)
    dropped = len(set(existing) - {p.id for p in points})
    if dropped:
        print(f"sweep: dropping {dropped} row(s) of points that are not in the spec any more "
              f"(their folders stay in {os.path.join(sp.output, table.POINTS_DIR)})", file=sys.stderr)

    def write_table():
        ordered = [rows[p.id] for p in points if p.id in rows]
        table.write(sp.output, param_cols, ordered)

    write_table()
    done_before = len(points) - len(todo)
    print(f"sweep: {len(points)} points, {done_before} complete, {len(todo)} to run -> {csv_path}",
          file=sys.stderr)

    failed = 0
    interrupted = False
    client = cluster = None
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
            for p in todo:
                task = {"point": p.id, "wormsim": wormsim, "base": sp.base, "out": table.point_dir(sp.output, p.id),
                        "sets": [(k, specmod.set_text(v)) for k, v in p.sets], "timeout": sp.timeout}
                fut = client.submit(runner.run_point, task, key=f"wormsim-point-{p.id}-{session}",
                                    pure=False, retries=0, priority=-p.index)
                futures.append(fut)
                by_key[fut.key] = p
            bar = progress.Progress(len(points), done=done_before, enabled=not args.no_progress)
            last_write = time.monotonic()
            pending_write = False
            for fut in as_completed(futures):
                p = by_key[fut.key]
                try:
                    result = fut.result()
                except Exception as e:  # noqa: BLE001 - a lost worker etc. is this point's failure
                    result = {"status": "error", "exit_code": None,
                              "error": f"task failed on the cluster: {type(e).__name__}: {e}"}
                rows[p.id] = table.make_row(p, result)
                bad = table.has_error(rows[p.id])
                failed += bad
                bar.update(failed=bad)
                pending_write = True
                if time.monotonic() - last_write >= WRITE_INTERVAL:
                    write_table()
                    last_write = time.monotonic()
                    pending_write = False
                fut.release()
            if pending_write:
                write_table()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if bar is not None:
            bar.close()
        # the table holds exactly the rows received so far
        write_table()
        stop_client(client, cluster)
        signal.signal(signal.SIGTERM, old_term)
        lock.close()

    ordered = [rows[p.id] for p in points if p.id in rows]
    n_err = sum(1 for r in ordered if table.has_error(r))
    missing = len(points) - sum(1 for p in points if table.is_complete(sp.output, rows.get(p.id)))
    if interrupted:
        print(f"sweep: interrupted; {len(points) - missing} of {len(points)} points complete; "
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
