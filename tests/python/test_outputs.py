"""One consistent output set per run folder: the shared verifier (wormsim_py.outputs) and the
readers built on it (runs.Run, compare_traces.py, plot.py) refuse a mixed or incomplete set;
packet names with CSV metacharacters read back exactly."""

import csv
import json
import os
import re
import shutil
import zlib

import pytest

from conftest import inproc, manifest, run_wormsim, script, seal
from wormsim_py import outputs
from wormsim_py.runs import Run, RunError

CSVS = {"messages.csv": "id,step\n0,0\n", "links.csv": "link,src\n0,0\n", "steps.csv": "step,start\n0,0\n"}


def make_set(folder, files=CSVS, **extra):
    """A folder with the given files and a summary.json whose "outputs" lists them."""
    os.makedirs(folder, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text)
    summary = {"status": "completed", "metrics": {"messages": 1}, **extra,
               "outputs": manifest(folder, list(files)), "warnings": []}
    with open(os.path.join(folder, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f)
    return summary


def summary_of(folder):
    with open(os.path.join(folder, "summary.json"), encoding="utf-8") as f:
        return json.load(f)


def rewrite_summary(folder, edit):
    s = summary_of(folder)
    edit(s)
    with open(os.path.join(folder, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(s, f)


def test_crc_matches_zlib(tmp_path):
    data = os.urandom(3 * (1 << 20) + 17)  # more than one read block
    (tmp_path / "f").write_bytes(data)
    assert outputs.crc32_file(tmp_path / "f") == (len(data), f"{zlib.crc32(data) & 0xFFFFFFFF:08x}")
    assert outputs.manifest_entry(tmp_path / "f") == {"bytes": len(data),
                                                      "crc32": f"{zlib.crc32(data) & 0xFFFFFFFF:08x}"}


def test_consistent_set_verifies(tmp_path):
    s = make_set(tmp_path / "r", trace=True)
    # the run's lock file and other files the summary does not list are not part of the set
    (tmp_path / "r" / ".wormsim.lock").write_text("")
    (tmp_path / "r" / "link_utilisation.png").write_bytes(b"x")
    assert outputs.verify(tmp_path / "r") == s
    # a trace listed in the manifest is checked like the CSVs
    (tmp_path / "t").mkdir()
    make_set(tmp_path / "t", {**CSVS, "trace.json": '{"traceEvents": []}'})
    outputs.verify(tmp_path / "t")
    (tmp_path / "t" / "trace.json").write_text('{"traceEvents": [1]}')
    with pytest.raises(outputs.OutputSetError, match=r"trace\.json: has \d+ bytes but summary.json says"):
        outputs.verify(tmp_path / "t")


@pytest.mark.parametrize("damage, file, reason", [
    ("same-size", "messages.csv", "CRC-32 .* but summary.json says .*mixed or damaged output set"),
    ("other-size", "links.csv", "has 25 bytes but summary.json says 13"),
    ("missing", "steps.csv", "missing, but summary.json lists it"),
    ("folder", "steps.csv", "not a regular file"),
    ("no-summary", "summary.json", "missing"),
    ("truncated", "summary.json", "not valid JSON"),
    ("not-utf8", "summary.json", "not valid UTF-8"),
    ("array", "summary.json", "not a JSON object"),
    ("old-wormsim", "summary.json", 'no "outputs" block: it was written by an older wormsim'),
    ("unlisted", "summary.json", '"outputs" does not list links.csv'),
    ("bad-entry", "summary.json", '"outputs"."messages.csv" is not'),
    ("escape", "summary.json", r'"outputs" lists "\.\./x", not a file name'),
], ids=["same-size", "other-size", "missing", "folder", "no-summary", "truncated", "not-utf8", "array",
        "old-wormsim", "unlisted", "bad-entry", "escape"])
def test_mixed_or_incomplete_set_is_refused(tmp_path, damage, file, reason):
    r = tmp_path / "r"
    make_set(r)
    if damage == "same-size":
        (r / "messages.csv").write_text("id,step\n0,1\n")
    elif damage == "other-size":
        (r / "links.csv").write_text("link,src\n0,0\n1,1\n2,2\n3,3\n")
    elif damage == "missing":
        (r / "steps.csv").unlink()
    elif damage == "folder":
        (r / "steps.csv").unlink()
        (r / "steps.csv").mkdir()
    elif damage == "no-summary":
        (r / "summary.json").unlink()
    elif damage == "truncated":
        (r / "summary.json").write_bytes((r / "summary.json").read_bytes()[:40])
    elif damage == "not-utf8":
        (r / "summary.json").write_bytes(b'{"status": "\xff"}')
    elif damage == "array":
        (r / "summary.json").write_text("[1, 2]")
    elif damage == "old-wormsim":
        rewrite_summary(r, lambda s: s.pop("outputs"))
    elif damage == "unlisted":
        rewrite_summary(r, lambda s: s["outputs"].pop("links.csv"))
    elif damage == "bad-entry":
        rewrite_summary(r, lambda s: s["outputs"]["messages.csv"].update(crc32="XYZ"))
    elif damage == "escape":
        rewrite_summary(r, lambda s: s["outputs"].update({"../x": {"bytes": 0, "crc32": "00000000"}}))
    with pytest.raises(outputs.OutputSetError) as e:
        outputs.verify(r)
    assert e.value.folder == str(r) and e.value.file == file
    assert str(e.value).startswith(f"{r}/{file}: ")
    assert re.search(reason, e.value.reason), e.value.reason
    # every reader refuses it the same way
    with pytest.raises(RunError) as e2:
        Run(r)
    assert str(e2.value) == str(e.value)


@pytest.fixture(scope="module")
def sealed_run(tmp_path_factory, wormsim):
    """A real run: wormsim lists its files with sizes and CRCs in summary.json "outputs"."""
    d = tmp_path_factory.mktemp("sealed") / "run"
    run_wormsim(wormsim, d, "network.dims=[4,4]", "schedule.algorithm=binomial", "schedule.flits=8")
    listed = summary_of(d).get("outputs")
    assert listed == manifest(d), f"{wormsim} does not write the outputs block of its files"
    assert list(summary_of(d)).index("outputs") == list(summary_of(d)).index("warnings") - 1
    return d


def mixed_copy(run, tmp_path, wormsim):
    """A copy of run whose messages.csv comes from a different run (a mixed set)."""
    other = tmp_path / "other"
    run_wormsim(wormsim, other, "network.dims=[4,4]", "schedule.algorithm=binomial", "schedule.flits=16")
    mixed = tmp_path / "mixed"
    shutil.copytree(run, mixed)
    shutil.copy(other / "messages.csv", mixed / "messages.csv")
    return mixed


def test_scripts_refuse_a_mixed_set(sealed_run, tmp_path, wormsim):
    assert script("compare_traces.py", sealed_run, sealed_run, "--tolerance", "0").returncode == 0
    assert outputs.verify(sealed_run)["status"] == "completed"
    mixed = mixed_copy(sealed_run, tmp_path, wormsim)
    want = f"error: {mixed}/messages.csv: "
    for args in ((mixed, sealed_run), (sealed_run, mixed / "messages.csv")):
        r = inproc("compare_traces.py", *args, "--tolerance", "0")
        assert r.returncode == 2 and r.stderr.startswith(want), r.stderr
        assert "mixed or damaged output set" in r.stderr and r.stdout == ""
    for args in (("links", mixed), ("contention", mixed)):
        r = inproc("plot.py", *args, "-o", tmp_path / "p.png")
        assert r.returncode == 1 and r.stderr.startswith(want), r.stderr
    assert not (tmp_path / "p.png").exists()
    # a run folder whose summary.json is gone (a run killed while writing) is refused, not read
    os.unlink(mixed / "summary.json")
    for r in (inproc("compare_traces.py", mixed, sealed_run), inproc("plot.py", "contention", mixed)):
        assert r.returncode in (1, 2) and f"{mixed}/summary.json: missing" in r.stderr, r.stderr
    # older wormsim: no "outputs" block
    old = tmp_path / "old"
    shutil.copytree(sealed_run, old)
    rewrite_summary(old, lambda s: s.pop("outputs"))
    r = inproc("compare_traces.py", sealed_run, old)
    assert r.returncode == 2 and "older wormsim" in r.stderr and f"{old}/summary.json" in r.stderr


NASTY = ['a","9', 'x, "y"\nz', ' lead,"trail" ', 'NA', '"', 'crlf\r\nname']


def write_messages_with_packets(folder, names):
    """Replace the packet names of folder's messages.csv (RFC 4180 quoting, as wormsim writes it)."""
    path = folder / "messages.csv"
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
        fields = list(rows[0])
    for r, n in zip(rows, names):
        r["packet"] = n
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    seal(folder)
    return [r["packet"] for r in rows]


def test_packet_names_with_csv_metacharacters_read_back(sealed_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(sealed_run, run)
    names = write_messages_with_packets(run, NASTY)
    assert list(Run(run).messages["packet"]) == names
    rep = tmp_path / "r.json"
    r = script("compare_traces.py", run, run, "--tolerance", "0", "--json", rep, "--messages-csv",
               tmp_path / "m.csv")
    assert r.returncode == 0 and "verdict: identical" in r.stdout, r.stdout + r.stderr
    assert json.loads(rep.read_text())["messages"]["matched"] == len(names)
    with open(tmp_path / "m.csv", newline="", encoding="utf-8") as f:
        assert sorted(x["packet"] for x in csv.DictReader(f)) == sorted(names)
    r = inproc("plot.py", "contention", run, "-o", tmp_path / "c.png")
    assert r.returncode == 0, r.stderr


def test_packet_names_round_trip_through_wormsim(tmp_path, wormsim):
    """Packet names with quotes, commas and newlines, run by wormsim and read back exactly."""
    names = ['a","9', 'comma, and "quotes"', 'two\nlines', '"']
    sched = tmp_path / "packets.json"
    sched.write_text(json.dumps({
        "wormsim_schedule": 1, "name": "csv quoting", "topology": {"kind": "mesh", "dims": [4]}, "flits": 4,
        "steps": [[{"src": 0, "dst": 1, "packet": names[0]}, {"src": 2, "dst": 3, "packet": names[1]}],
                  [{"src": 1, "dst": 2, "packet": names[0]}, {"src": 3, "dst": 0, "packet": names[1]}],
                  [{"src": 0, "dst": 3, "packet": names[2]}],
                  [{"src": 3, "dst": 2, "packet": names[2]}, {"src": 1, "dst": 0, "packet": names[3]}]]}))
    run = tmp_path / "run"
    run_wormsim(wormsim, run, "network.dims=[4]", f"schedule.file={sched}")
    want = [names[0], names[1], names[0], names[1], names[2], names[2], names[3]]
    with open(run / "messages.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert all(len(r) == len(rows[0]) for r in rows)
    assert [r[rows[0].index("packet")] for r in rows[1:]] == want
    assert list(Run(run).messages["packet"]) == want

    r = script("compare_traces.py", run, run, "--tolerance", "0", "--messages-csv", tmp_path / "m.csv")
    assert r.returncode == 0 and "verdict: identical" in r.stdout, r.stdout + r.stderr
    assert "7 matched, 0 only in A, 0 only in B" in r.stdout
    with open(tmp_path / "m.csv", newline="", encoding="utf-8") as f:
        assert sorted(x["packet"] for x in csv.DictReader(f)) == sorted(want)
    r = inproc("plot.py", "contention", run, "-o", tmp_path / "c.png")
    assert r.returncode == 0, r.stderr

    # replacing messages.csv by another run's breaks the set: the readers refuse it
    other = tmp_path / "other"
    run_wormsim(wormsim, other, "network.dims=[4]", f"schedule.file={sched}", "schedule.flits=5")
    shutil.copy(other / "messages.csv", run / "messages.csv")
    r = inproc("compare_traces.py", run, other)
    assert r.returncode == 2 and r.stderr.startswith(f"error: {run}/messages.csv: ")
    assert "mixed or damaged output set" in r.stderr
