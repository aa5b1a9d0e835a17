"""A sweep is checked by `wormsim config check` before anything runs or is written; fixed
`set:` values are columns; whole sections can be set (schedule: null); files keep the
user's umask; progress in a log is tqdm's text, a line at a time."""

import json
import os
import stat
import subprocess

import pytest

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


def test_values_yaml_1_1_reads_otherwise_run_as_written(wormsim, tmp_path):
    """010 runs as the 10 flits wormsim reads in `schedule.flits: 010`, not as PyYAML's octal 8;
    no/off stay text (a tag, and wormsim's word for schedule.mode), not booleans."""
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "s.yaml", f"base: {DEFAULT_CONFIG}\noutput: {out}\n"
                                           "grid:\n  schedule.flits: [010, 8]\n  tag.t: [no]\n")
    script("sweep.py", spec, "--workers", "1", "--wormsim", wormsim, "--no-progress", check=0)
    rows = read_csv_rows(out / "results.csv")
    assert [(r["schedule.flits"], r["tag.t"]) for r in rows] == [("010", "no"), ("8", "no")]
    ran = []
    for r in rows:
        with open(out / r["dir"] / "summary.json", encoding="utf-8") as f:
            ran.append(json.load(f)["config"]["schedule"]["flits"])
    assert ran == [10, 8]
    # a boolean key given yes is refused by wormsim's own check, naming the key, before any run
    spec = write_spec(tmp_path / "b.yaml", f"base: {DEFAULT_CONFIG}\noutput: {out}-b\n"
                                           "grid:\n  output.host_timing: [yes]\n")
    proc = script("sweep.py", spec, "--wormsim", wormsim, "--no-progress", check=1)
    assert 'output.host_timing (from --set): expected true or false, got "yes"' in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and not os.path.exists(f"{out}-b")


def _make_folder(path):
    os.makedirs(path)


def _make_file(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("x\n")


WRITES = "expected a file the sweep writes; move it away"


@pytest.mark.parametrize("make, where, out_name, message", [
    (_make_folder, "out/spec.yaml", "out", f"out/spec.yaml: is a folder, {WRITES}"),
    (_make_folder, "out/.sweep.lock", "out", f"out/.sweep.lock: is a folder, {WRITES}"),
    (_make_folder, "out/results.parquet", "out", f"out/results.parquet: is a folder, {WRITES}"),
    (_make_file, "out/points", "out",
     "out/points: is a file, expected the folder of the points' outputs; move it away"),
    (_make_file, "out", "out", "out: is a file, expected the result folder"),
    (_make_file, "out", "out/sub", "out/sub: cannot be created: {tmp}/out is a file, expected the result folder"),
], ids=["spec-folder", "lock-folder", "parquet-folder", "points-file", "out-file", "out-under-a-file"])
def test_an_output_folder_the_sweep_cannot_write_is_refused_before_anything_runs(tmp_path, make, where,
                                                                                 out_name, message):
    make(str(tmp_path / where))
    out = tmp_path / out_name
    spec = write_spec(tmp_path / "s.yaml", f"base: {DEFAULT_CONFIG}\noutput: {out}\n"
                                           "grid:\n  schedule.flits: [4]\n")
    before = sorted(os.walk(tmp_path))
    for extra in ([], ["--dry-run"]):
        proc = script("sweep.py", spec, "--workers", "1", "--wormsim", FAKE_WORMSIM, "--no-progress", *extra)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stderr == f"error: {tmp_path}/{message.format(tmp=tmp_path)}\n", proc.stderr
    assert sorted(os.walk(tmp_path)) == before   # nothing written
