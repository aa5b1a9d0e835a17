"""A sweep is checked by `wormsim config check` before anything runs or is written; fixed
`set:` values are columns; whole sections can be set (schedule: null); files keep the
user's umask; progress in a log is tqdm's text, a line at a time."""

import os
import stat
import subprocess

from conftest import DEFAULT_CONFIG, FAKE_WORMSIM, PYTHON, SCRIPTS, read_csv_rows, script, write_spec


def test_a_bad_key_in_grid_stops_the_sweep_before_anything_is_written(wormsim, tmp_path):
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "s.yaml", f"base: {DEFAULT_CONFIG}\noutput: {out}\n"
                                           "grid:\n  network.vc: [1, 2]\n  schedule.flits: [4, 8]\n"
                                           "  schedule.algorithm: [binomial, nope]\n")
    for extra in (["--dry-run"], []):
        proc = script("sweep.py", spec, "--wormsim", wormsim, *extra, check=1)
        lines = proc.stderr.splitlines()
        assert lines[0] == (f"error: {spec}: wormsim config check refuses 8 of 8 points; "
                            "nothing was run or written:"), proc.stderr
        # each distinct message once, with the first point's parameters and the binary's own words
        assert lines[1].startswith('  network.vc=1, schedule.flits=4, schedule.algorithm="binomial": error: ')
        assert "network.vc (from --set): unknown key (did you mean vcs?)" in lines[1]
        assert "(and 7 more point(s) with this message)" in lines[1]
        assert len(lines) == 3 and "--skip-invalid" in lines[2]
        assert proc.stdout == ""
        assert not out.exists()


def test_skip_invalid_runs_the_others(tmp_path):
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "s.yaml", f"base: {DEFAULT_CONFIG}\noutput: {out}\n"
                                           "grid:\n  schedule.mode: [barrier, invalid]\n  schedule.flits: [4, 8]\n")
    proc = script("sweep.py", spec, "--dry-run", "--skip-invalid", "--wormsim", FAKE_WORMSIM, check=0)
    assert [ln.split("\t")[0] for ln in proc.stdout.splitlines()[1:]] == ["todo", "todo", "invalid", "invalid"]
    assert not out.exists()   # a dry run writes nothing
    proc = script("sweep.py", spec, "--workers", "1", "--skip-invalid", "--wormsim", FAKE_WORMSIM, "--no-progress",
                  check=3)
    assert "4 points, 0 complete, 2 invalid, 2 to run" in proc.stderr
    rows = read_csv_rows(out / "results.csv")
    assert [r["status"] for r in rows] == ["completed", "completed", "error", "error"]
    assert rows[2]["error"] == ("invalid config (wormsim config check): error: " + DEFAULT_CONFIG +
                                ": schedule.mode (from --set): invalid value")
    assert not (out / rows[2]["dir"]).exists()


def _sweep(spec, *args, umask):
    return subprocess.run([PYTHON, os.path.join(SCRIPTS, "sweep.py"), spec, *map(str, args)], capture_output=True,
                          text=True, timeout=300, preexec_fn=lambda: os.umask(umask))


def test_traffic_only_sweep_fixed_columns_and_file_modes(wormsim, tmp_path):
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "s.yaml", f"""
base: {DEFAULT_CONFIG}
output: {out}
set:
  schedule: null            # the base config's schedule goes: background traffic only
  traffic.pattern: uniform
  traffic.cycles: 200
grid:
  traffic.rate: [0.01, 0.02]
""")
    proc = _sweep(spec, "--workers", "1", "--wormsim", wormsim, umask=0o022)
    assert proc.returncode == 0, proc.stderr
    rows = read_csv_rows(out / "results.csv")
    assert list(rows[0])[:5] == ["point", "traffic.rate", "schedule", "traffic.pattern", "traffic.cycles"]
    assert [(r["traffic.rate"], r["schedule"], r["traffic.pattern"], r["traffic.cycles"]) for r in rows] == \
        [("0.01", "", "uniform", "200"), ("0.02", "", "uniform", "200")]
    assert all(r["status"] == "completed" and r["summary.schedule.messages"] == "0" for r in rows)
    assert int(rows[1]["background.delivered"]) > int(rows[0]["background.delivered"]) > 0
    for name in ("results.csv", "spec.yaml"):
        assert stat.S_IMODE(os.stat(out / name).st_mode) == 0o644, name
    # a stricter umask is kept too; a rerun rewrites both files
    proc = _sweep(spec, "--workers", "1", "--wormsim", wormsim, "--rerun", umask=0o027)
    assert proc.returncode == 0, proc.stderr
    for name in ("results.csv", "spec.yaml"):
        assert stat.S_IMODE(os.stat(out / name).st_mode) == 0o640, name


def test_progress_in_a_log_is_one_line_at_a_time(tmp_path):
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "s.yaml", f"base: {DEFAULT_CONFIG}\noutput: {out}\n"
                                           "grid:\n  schedule.flits: [4, 8, 16]\n")
    proc = script("sweep.py", spec, "--workers", "1", "--wormsim", FAKE_WORMSIM, check=0)
    assert "\r" not in proc.stderr
    bar = [ln for ln in proc.stderr.splitlines() if ln.startswith("points: ")]
    assert bar and bar[-1].startswith("points: 100%|") and " 3/3 [" in bar[-1], proc.stderr
