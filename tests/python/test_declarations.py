"""Every config key and every statistic is declared once, in the simulator (decl/param.hpp,
decl/stat.hpp). These tests fail when anything that repeats a declaration drifts from it:
docs/config-reference.md, docs/metrics.md, scripts/wormsim_py/stats.json (the Python readers'
column types), scripts/wormsim_py/columns.py (plot labels), and the CSV headers and summary.json
blocks a real run writes. They also derive bad inputs from the declarations: every declared key of
a plain type gets a wrong-type case, every integer an out-of-range case, every section a typo
with its "did you mean" suggestion.
"""

import csv
import json
import os
import re
import subprocess

import pytest

from conftest import REPO, DEFAULT_CONFIG
from wormsim_py import columns as plot_columns
from wormsim_py import declarations
from wormsim_py.runs import flat_metrics


def _json(wormsim, *args):
    r = subprocess.run([wormsim, *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def keys(wormsim):
    return _json(wormsim, "config", "keys", "--json")


@pytest.fixture(scope="module")
def stats(wormsim):
    return _json(wormsim, "stats", "--json")


# --- docs tables -----------------------------------------------------------------------------

def _doc_tables(path):
    """{(heading path, key): {column: cell}} of every table whose first column is Key/Column/Metric."""
    rows = {}
    section = ""
    header = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^#+ .*?`([^`]+)`", line) or re.match(r"^#+ (\S+)", line)
            if line.startswith("#") and m:
                section = m.group(1)
                header = None
                continue
            if not line.startswith("|"):
                header = None
                continue
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            if header is None:
                header = cells
                continue
            if set(line) <= set("|-: "):
                continue
            if header[0] not in ("Key", "Column", "Metric"):
                continue
            for name in re.findall(r"`([^`]+)`", cells[0]):
                rows[(section, name)] = dict(zip(header, cells))
    return rows


def _documented_key(section, name):
    return name if "." in name and name.split(".")[0] in ("network", "timing", "schedule", "traffic", "run",
                                                          "output") else f"{section}.{name}"


def test_every_declared_key_is_documented_with_its_type_default_and_range(keys):
    docs = {_documented_key(s, n): row
            for (s, n), row in _doc_tables(os.path.join(REPO, "docs", "config-reference.md")).items()}
    for k in keys:
        assert k["key"] in docs, f"{k['key']} is declared but not in docs/config-reference.md"
        row = docs[k["key"]]
        assert row["Type"] == k["type"], k["key"]
        assert row["Default"] == k["default"], k["key"]
        assert row.get("Range", "") == k["range"], k["key"]


def test_every_documented_key_is_declared(keys):
    declared = {k["key"] for k in keys}
    docs = _doc_tables(os.path.join(REPO, "docs", "config-reference.md"))
    for (s, n) in docs:
        assert _documented_key(s, n) in declared, f"docs/config-reference.md documents {s}.{n}, not declared"


def _metric_doc_names():
    names = {}
    for (section, name) in _doc_tables(os.path.join(REPO, "docs", "metrics.md")):
        names.setdefault(section, set()).add(name)
    return names


def test_every_declared_column_and_metric_is_documented_and_nothing_else(stats):
    docs = _metric_doc_names()
    for table, section in (("messages.csv", "messages.csv"), ("links.csv", "links.csv"),
                           ("steps.csv", "steps.csv"), ("repetitions.csv", "repetitions.csv"),
                           ("routers.csv", "routers.csv"), ("vcs.csv", "vcs.csv"), ("hops.csv", "hops.csv"),
                           ("latency.csv", "latency.csv"), ("copies.csv", "copies.csv")):
        declared = {s["name"] for s in stats if s["file"] == table}
        assert docs.get(section) == declared, table
    declared = {s["name"] for s in stats if s["block"] == "metrics"}
    documented = docs.get("Run", set())
    assert documented == declared, "docs/metrics.md, Run metrics"


def test_summary_blocks_outside_the_tables_name_every_field(stats):
    text = open(os.path.join(REPO, "docs", "metrics.md"), encoding="utf-8").read()
    for s in stats:
        if s["block"] in ("background", "load", "classes", "classes.load", "repetitions", "host", "invariants", "router_stats",
                          "multicast"):
            leaf = s["name"].split(".")[0]
            assert f"`{leaf}`" in text or f"`{s['block']}.{s['name']}`" in text, f"docs/metrics.md does not name summary.json {s['block']}.{s['name']}"


# --- Python readers --------------------------------------------------------------------------

def test_stats_json_is_the_binarys_declarations(stats):
    assert declarations.STATS == stats, \
        "scripts/wormsim_py/stats.json is stale: regenerate it with `wormsim stats --json`"


def test_plot_labels_name_only_declared_keys_and_statistics(keys, stats):
    declared = {k["key"] for k in keys} | {"repeat", "host.sweep_seconds"}  # sweep.py adds these two
    declared |= {f"{s['block']}.{s['name']}" for s in stats if s["block"]}
    prefixes = {k["key"].split(".")[0] for k in keys} | {s["block"] for s in stats if s["block"]}
    for name in plot_columns.COLUMNS:
        if name.split(".")[0] in prefixes:
            assert name in declared, f"wormsim_py/columns.py labels {name}, which wormsim does not declare"


def _run_with_light_traffic(wormsim, out, *sets):
    args = [wormsim, "run", DEFAULT_CONFIG, "--out", str(out), "--quiet",
            "--set", "traffic={pattern: uniform, rate: 0.01, cycles: 200}"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, timeout=120)


def _assert_csv_headers_are_declared(out, stats, names):
    for name in names:
        with open(out / name, newline="") as f:
            rows = list(csv.reader(f))
        declared = [s["name"] for s in stats if s["file"] == name]
        assert rows[0] == declared, name
        assert len(rows) > 1 or name == "steps.csv", f"{name}: no rows"
        assert all(len(r) == len(declared) for r in rows[1:]), f"{name}: a row with another number of fields"


def test_router_stats_files_have_the_declared_columns_and_fields(wormsim, stats, tmp_path):
    out = tmp_path / "out"
    _run_with_light_traffic(wormsim, out, "output.router_stats=true")
    _assert_csv_headers_are_declared(out, stats, ("routers.csv", "vcs.csv", "hops.csv"))
    block = json.loads((out / "summary.json").read_text())["router_stats"]
    flat = {}
    for k, v in block.items():
        if isinstance(v, dict):
            flat.update({f"{k}.{kk}": vv for kk, vv in v.items()})
        else:
            flat[k] = v
    assert set(flat) == {s["name"] for s in stats if s["block"] == "router_stats"}


def test_a_runs_files_have_the_declared_columns_and_fields(wormsim, stats, tmp_path):
    out = tmp_path / "out"
    _run_with_light_traffic(wormsim, out)
    _assert_csv_headers_are_declared(out, stats, ("messages.csv", "links.csv", "steps.csv"))
    summary = json.loads((out / "summary.json").read_text())
    assert "router_stats" not in summary and not (out / "routers.csv").exists(), "output.router_stats is off by default"
    flat = flat_metrics(summary, include_host=True)
    declared = {f"{s['block']}.{s['name']}" for s in stats if s["block"] in ("metrics", "background", "host")}
    assert set(flat) - {"status"} == declared


# --- bad inputs from the declarations --------------------------------------------------------

BASE = """network: {topology: %(topology)s, dims: [4, 4]}
schedule: {algorithm: %(algorithm)s}
traffic: {pattern: %(pattern)s, rate: 0.01, cycles: 100%(hotspot)s%(injection)s}
"""

# Keys whose checks need another key set first (their declarations say so in their description).
_PHASES = ["traffic.cycles=null", "traffic.measure_cycles=100"]
CONTEXT = {"network.ports": ["network.port_model=k-port", "network.ports=2"],
           "traffic.warmup_cycles": _PHASES, "traffic.measure_cycles": _PHASES, "traffic.drain_cycles": _PHASES,
           **{f"traffic.warmup_{k}": _PHASES + ["traffic.warmup_cycles=auto"]
              for k in ("sample_cycles", "tolerance", "max_cycles")}}


def _config_for(k, tmp_path):
    when = k["when"] or ""
    algorithm = when.split(": ")[1] if when.startswith("schedule.algorithm") else "eye"
    # A topology's own keys apply when it is chosen; binomial runs on any topology.
    topology = when.split(": ")[1] if when.startswith("network.topology") else "mesh"
    if topology != "mesh":
        algorithm = "binomial"
    hotspot = k["section"] == "traffic.hotspot"
    # An injection process's own keys apply when it is chosen.
    process = when.split(": ")[1] if when.startswith("traffic.injection") else None
    text = BASE % {"topology": topology, "algorithm": algorithm, "pattern": "hotspot" if hotspot else "uniform",
                   "hotspot": ", hotspot: {nodes: [0], fraction: 0.5}" if hotspot else "",
                   "injection": f", injection: {process}, burst_alpha: 0.5, burst_beta: 0.5" if process else ""}
    path = tmp_path / "base.yaml"
    path.write_text(text)
    return str(path)


def _check(wormsim, config, sets):
    args = [wormsim, "config", "check", config]
    for s in sets:
        args += ["--set", s]
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


WRONG = {"integer": ("abc", 'expected an integer, got "abc"'),
         "boolean": ("maybe", 'expected true or false, got "maybe"'),
         "string": ("[1, 2]", "expected a string, got a list"),
         "number": ("abc", "expected a number in")}


def test_every_plain_key_refuses_a_wrong_type(wormsim, keys, tmp_path):
    checked = 0
    for k in keys:
        if k["type"] not in WRONG and "choices" not in k:
            continue  # compound values: their components check them (bad-input corpus)
        config = _config_for(k, tmp_path)
        assert _check(wormsim, config, CONTEXT.get(k["key"], [])).returncode == 0, k["key"]
        if "choices" in k:
            value, expected = "zzz", "expected " + (", ".join(k["choices"][:-1]) + " or " if len(k["choices"]) > 1
                                                     else "") + k["choices"][-1]
        else:
            value, expected = WRONG[k["type"]]
        r = _check(wormsim, config, CONTEXT.get(k["key"], []) + [f"{k['key']}={value}"])
        assert r.returncode == 1, (k["key"], r.stderr)
        assert f"{config}: {k['key']} (from --set): {expected}" in r.stderr, (k["key"], r.stderr)
        checked += 1
    assert checked >= 20


def test_every_integer_key_refuses_out_of_range_values(wormsim, keys, tmp_path):
    for k in keys:
        if "min" not in k:
            continue
        config = _config_for(k, tmp_path)
        for value in (k["min"] - 1, k["max"] + 1):
            r = _check(wormsim, config, CONTEXT.get(k["key"], []) + [f"{k['key']}={value}"])
            assert r.returncode == 1, (k["key"], value)
            assert f"expected an integer from {k['min']} to {k['max']}, got {value}" in r.stderr, (k["key"], r.stderr)


def _typo(name):
    return name[1] + name[0] + name[2:] if len(name) > 3 else name + "x"


def test_a_typo_in_any_section_suggests_the_declared_key(wormsim, keys, tmp_path):
    by_section = {}
    for k in keys:
        by_section.setdefault((k["section"], k["when"]), k)
    for (section, _), k in by_section.items():
        leaf = k["key"][len(section) + 1:]
        typo = _typo(leaf)
        if any(o["key"] == f"{section}.{typo}" for o in keys):
            continue
        config = _config_for(k, tmp_path)
        r = _check(wormsim, config, CONTEXT.get(k["key"], []) + [f"{section}.{typo}=1"])
        assert r.returncode == 1, section
        assert f"{section}.{typo} (from --set): unknown key (did you mean {leaf}" in r.stderr, r.stderr


def test_a_generator_parameter_without_its_generator_is_refused_by_name(wormsim, tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("network: {topology: mesh, dims: [4, 4]}\nschedule: {algorithm: binomial, orientation: best}\n")
    r = _check(wormsim, str(config), [])
    assert r.returncode == 1
    assert "schedule.orientation (line 2): only meaningful with schedule.algorithm: eye (a parameter of the eye " \
           "generator)" in r.stderr


def test_config_keys_text_lists_every_declared_key(wormsim, keys):
    r = subprocess.run([wormsim, "config", "keys"], capture_output=True, text=True, timeout=60, check=True)
    listed = re.findall(r"^  (\S+)  ", r.stdout, re.M)
    assert listed == [k["key"] for k in keys]
