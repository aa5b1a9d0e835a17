"""Resume verifies what it resumes: damaged rows, summaries and output sets are run again (and
said so on stderr), and a table that cannot be read is an error naming the file."""

import json
import os
import shutil

import pandas as pd
import pytest

from conftest import DEFAULT_CONFIG, FAKE_WORMSIM, inproc, read_csv_rows, script, write_spec

SPEC = f"""
base: {DEFAULT_CONFIG}
output: OUT
grid:
  schedule.flits: [1, 2, 3, 4, 5, 6]
"""


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A complete 6-point sweep made with the fake wormsim: (spec, output folder)."""
    d = tmp_path_factory.mktemp("verify")
    out = d / "out"
    spec = write_spec(d / "spec.yaml", SPEC.replace("OUT", str(out)))
    proc = script("sweep.py", spec, "--workers", "1", "--wormsim", FAKE_WORMSIM, "--no-progress", check=0)
    assert "6 points, 0 complete, 6 to run" in proc.stderr
    return spec, out


@pytest.fixture
def copy(swept, tmp_path):
    """A private copy of the complete sweep: (spec pointing at it, output folder, rows by flits)."""
    _, out = swept
    mine = tmp_path / "out"
    shutil.copytree(out, mine)
    spec = write_spec(tmp_path / "spec.yaml", SPEC.replace("OUT", str(mine)))
    rows = {r["schedule.flits"]: r for r in read_csv_rows(mine / "results.csv")}
    return spec, mine, rows


def test_complete_sweep_resumes_with_nothing_to_run(copy):
    spec, out, _ = copy
    r = inproc("sweep.py", spec, "--dry-run", "--wormsim", FAKE_WORMSIM)
    assert r.returncode == 0
    assert "6 points, 6 done, 0 to run" in r.stderr
    assert "rerun" not in r.stderr


def test_damaged_points_are_rerun_and_named(copy):
    spec, out, rows = copy
    table = out / "results.csv"
    lines = table.read_text().splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    first_metric = next(i for i, c in enumerate(header) if c.startswith("metrics."))

    # 1: its row cut after three metric columns
    cut = next(i for i, ln in enumerate(lines) if ln.startswith(rows["1"]["point"] + ","))
    lines[cut] = ",".join(lines[cut].split(",")[: first_metric + 3]) + "\n"
    # 2: a metric in its row that differs from its summary.json
    edit = next(i for i, ln in enumerate(lines) if ln.startswith(rows["2"]["point"] + ","))
    fields = lines[edit].rstrip("\n").split(",")
    col = header.index("metrics.completion_cycles")
    fields[col] = str(int(fields[col]) + 1)
    lines[edit] = ",".join(fields) + "\n"
    table.write_text("".join(lines))
    # 3: summary.json truncated
    s3 = out / "points" / rows["3"]["point"] / "summary.json"
    s3.write_bytes(s3.read_bytes()[:100])
    # 4: messages.csv deleted
    os.unlink(out / "points" / rows["4"]["point"] / "messages.csv")
    # 5: a summary.json without "outputs", as an older wormsim wrote it
    s5 = out / "points" / rows["5"]["point"] / "summary.json"
    summary = json.loads(s5.read_text())
    del summary["outputs"]
    s5.write_text(json.dumps(summary))

    dry = inproc("sweep.py", spec, "--dry-run", "--wormsim", FAKE_WORMSIM)
    assert dry.returncode == 0 and "6 points, 1 done, 5 to run" in dry.stderr

    proc = script("sweep.py", spec, "--workers", "1", "--wormsim", FAKE_WORMSIM, "--no-progress", check=0)
    err = proc.stderr
    assert "6 points, 1 complete, 5 to run" in err
    said = {flits: [ln for ln in err.splitlines() if f"rerunning point {rows[flits]['point']}: " in ln]
            for flits in "123456"}
    assert all(len(said[f]) == 1 for f in "12345") and said["6"] == [], err
    assert f"its row in results.csv has {first_metric + 3} fields, the header {len(header)}" in said["1"][0]
    assert "does not match" in said["2"][0] and "metrics.completion_cycles" in said["2"][0]
    assert "summary.json: not valid JSON" in said["3"][0]
    assert "messages.csv: missing, but summary.json lists it" in said["4"][0]
    assert 'has no "outputs" block' in said["5"][0] and "older wormsim" in said["5"][0]

    after = pd.read_csv(table, dtype=str, keep_default_na=False)
    assert len(after) == 6 and set(after["status"]) == {"completed"}
    assert list(after["metrics.completion_cycles"]) == [str(f + 2) for f in range(1, 7)]
    again = inproc("sweep.py", spec, "--dry-run", "--wormsim", FAKE_WORMSIM)
    assert "6 points, 6 done, 0 to run" in again.stderr


@pytest.mark.parametrize("damage, message", [
    ("utf8", "results.csv: not valid UTF-8 (byte"),
    ("folder", "results.csv: is a folder, not a file"),
    ("header", "results.csv: no point column in the first line"),
], ids=["invalid-utf8", "folder", "no-header"])
def test_unreadable_table_is_an_error(copy, damage, message):
    spec, out, _ = copy
    table = out / "results.csv"
    data = table.read_bytes()
    if damage == "utf8":
        table.write_bytes(data[:200] + b"\xff\xfe" + data[200:])
    elif damage == "folder":
        table.unlink()
        table.mkdir()
    else:
        table.write_bytes(b"garbage,more\n1,2\n")
    for extra in ((), ("--dry-run",)):
        r = inproc("sweep.py", spec, "--wormsim", FAKE_WORMSIM, *extra)
        assert r.returncode == 1, r.stderr
        assert r.stderr.startswith(f"error: {out}/") and message in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
    # nothing was touched
    assert (table.is_dir() if damage == "folder" else table.read_bytes() != b"")
