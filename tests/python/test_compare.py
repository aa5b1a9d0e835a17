"""compare_traces.py: a run against itself, and against planted changes."""

import csv
import json
import os
import shutil
import subprocess

import pytest

from conftest import DEFAULT_CONFIG, inproc, run_wormsim, script, seal


@pytest.fixture(scope="module")
def base_run(tmp_path_factory, wormsim):
    d = tmp_path_factory.mktemp("cmp")
    run = d / "a"
    run_wormsim(wormsim, run, "network.dims=[8,8]", "schedule.algorithm=binomial", "schedule.mode=eager",
                "schedule.flits=8")
    return run


def _edit_messages(folder, edit):
    path = folder / "messages.csv"
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
        fields = list(rows[0].keys())
    rows = edit(rows)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    # a planted change is a new consistent set, not a damaged one
    seal(folder)


def test_run_against_itself_is_identical(base_run, tmp_path):
    rep = tmp_path / "r.json"
    proc = script("compare_traces.py", base_run, base_run, "--tolerance", "0", "--json", rep)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "verdict: identical" in proc.stdout
    assert "first divergence: none" in proc.stdout
    r = json.loads(rep.read_text())
    assert r["verdict"]["identical"] and r["verdict"]["within_tolerance"]
    assert r["messages"]["matched"] == 63 and not r["messages"]["only_a"] and not r["messages"]["only_b"]
    assert all(f["differing"] == 0 for f in r["messages"]["fields"].values())
    assert all(m["delta"] in (0, None) for m in r["summary"])
    assert all(s["duration_delta"] == 0 for s in r["steps"])
    # every summary metric is listed
    names = {m["metric"] for m in r["summary"]}
    assert {"metrics.completion_cycles", "metrics.tcd", "metrics.latency.p99", "metrics.link_utilisation.mean",
            "metrics.step_contention.cycles", "status"} <= names


def test_same_config_twice_is_identical_and_files_work_too(base_run, wormsim, tmp_path):
    again = tmp_path / "again"
    run_wormsim(wormsim, again, "network.dims=[8,8]", "schedule.algorithm=binomial", "schedule.mode=eager",
                "schedule.flits=8")
    proc = script("compare_traces.py", base_run / "messages.csv", again / "messages.csv", "--tolerance", "0")
    assert proc.returncode == 0 and "verdict: identical" in proc.stdout, proc.stdout


def test_planted_changes_are_found(base_run, tmp_path):
    b = tmp_path / "b"
    shutil.copytree(base_run, b)
    changed = {}

    def plant(rows):
        # delay one step-3 message by 5 cycles, drop one step-5 message
        for r in rows:
            if r["step"] == "3" and not changed:
                changed.update(r)
                for k in ("delivered", "latency", "blocked_cycles", "other_cycles"):
                    r[k] = str(int(r[k]) + 5)
                break
        dropped = next(r for r in rows if r["step"] == "5")
        changed["dropped"] = dropped
        return [r for r in rows if r is not dropped]

    _edit_messages(b, plant)
    s = json.loads((b / "summary.json").read_text())
    s["metrics"]["completion_cycles"] += 5
    (b / "summary.json").write_text(json.dumps(s))

    rep = tmp_path / "r.json"
    plot = tmp_path / "cmp.png"
    proc = script("compare_traces.py", base_run, b, "--tolerance", "0", "--json", rep, "--plot", plot,
                  "--messages-csv", tmp_path / "m.csv")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "DIFFERENT" in out
    assert "62 matched, 1 only in A, 0 only in B" in out
    r = json.loads(rep.read_text())
    assert r["messages"]["beyond_tolerance"] == 1
    assert r["messages"]["fields"]["latency"]["differing"] == 1
    assert r["messages"]["fields"]["latency"]["max_abs_delta"] == 5
    top = r["messages"]["largest_latency_deltas"][0]
    assert top["id_a"] == int(changed["id"]) and top["delta"] == 5
    fd = r["messages"]["first_divergence"]
    assert fd["kind"] == "timing" and fd["id_a"] == int(changed["id"])
    assert fd["fields"]["delivered"] == [int(changed["delivered"]), int(changed["delivered"]) + 5]
    assert "first divergence at cycle" in out and f"id {changed['id']} in A" in out
    only = r["messages"]["only_a"]
    assert len(only) == 1 and only[0]["id"] == int(changed["dropped"]["id"])
    comp = next(m for m in r["summary"] if m["metric"] == "metrics.completion_cycles")
    assert comp["delta"] == 5 and not comp["within"]
    step3 = next(s for s in r["steps"] if s["step"] == 3)
    assert step3["max_latency_a"] is not None
    assert plot.exists() and plot.stat().st_size > 10000
    with open(tmp_path / "m.csv") as f:
        m = list(csv.DictReader(f))
    assert len(m) == 62 and sum(1 for x in m if x["latency_delta"] not in ("0", "")) == 1

    # within a generous absolute tolerance only the missing message remains a difference
    proc = script("compare_traces.py", base_run, b, "--abs-tolerance", "10")
    assert proc.returncode == 1 and "1 message(s) on one side only" in proc.stdout
    assert "differ in latency" not in proc.stdout
    # without --tolerance it is a report only
    proc = script("compare_traces.py", base_run, b)
    assert proc.returncode == 0 and "DIFFERENT" in proc.stdout


def test_relative_tolerance(base_run, tmp_path):
    b = tmp_path / "b"
    shutil.copytree(base_run, b)

    def plant(rows):
        r = rows[0]
        r["latency"] = str(int(r["latency"]) + 1)
        r["delivered"] = str(int(r["delivered"]) + 1)
        return rows

    _edit_messages(b, plant)
    assert script("compare_traces.py", base_run, b, "--tolerance", "0").returncode == 1
    # +1 cycle on a latency of ~10-20 cycles is within 20 %
    proc = script("compare_traces.py", base_run, b, "--tolerance", "0.2")
    assert proc.returncode == 0, proc.stdout
    assert "within tolerance" in proc.stdout


def test_different_configs_report_config_differences(base_run, wormsim, tmp_path):
    other = tmp_path / "barrier"
    run_wormsim(wormsim, other, "network.dims=[8,8]", "schedule.algorithm=binomial", "schedule.mode=barrier",
                "schedule.flits=8")
    proc = script("compare_traces.py", base_run, other, "--tolerance", "0")
    assert proc.returncode == 1
    assert 'schedule.mode: "eager" -> "barrier"' in proc.stdout


def test_bad_inputs(tmp_path, base_run):
    proc = inproc("compare_traces.py", tmp_path / "nope", base_run)
    assert proc.returncode == 2 and "no such file or folder" in proc.stderr
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    proc = inproc("compare_traces.py", tmp_path / "x.csv", base_run)
    assert proc.returncode == 2 and "not a wormsim messages.csv (its first line is not the header" in proc.stderr
    (tmp_path / "y.csv").write_text("id,step\n1,2\n")
    proc = inproc("compare_traces.py", tmp_path / "y.csv", base_run)
    assert proc.returncode == 2 and "missing column(s)" in proc.stderr
    proc = inproc("compare_traces.py", base_run, base_run, "--tolerance", "-1")
    assert proc.returncode == 2
    os.makedirs(tmp_path / "empty")
    proc = inproc("compare_traces.py", tmp_path / "empty", base_run)
    assert proc.returncode == 2 and "no messages.csv" in proc.stderr


def test_a_trace_or_other_output_file_is_explained(tmp_path, wormsim):
    run = tmp_path / "traced"
    proc = subprocess.run([wormsim, "run", DEFAULT_CONFIG, "--out", str(run), "--quiet", "--trace", "perfetto"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    here = f"expected a wormsim run output folder or its messages.csv; the run folder here is {run}"
    for name, what in (("trace.json", "a Perfetto trace (trace-event JSON from `wormsim run --trace perfetto`), "
                                      "for ui.perfetto.dev"),
                       ("summary.json", "a run's summary.json"), ("links.csv", "a links.csv")):
        proc = script("compare_traces.py", run / name, run)
        assert proc.returncode == 2
        assert proc.stderr == f"error: {run / name}: {what}; {here}\n", proc.stderr
