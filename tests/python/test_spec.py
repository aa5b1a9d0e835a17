"""Sweep spec validation and expansion (no simulation)."""

import os

import pytest

from conftest import DEFAULT_CONFIG, FAKE_WORMSIM, REPO, script, write_spec
from wormsim_py import spec as specmod


def load(tmp_path, text, name="s.yaml"):
    return specmod.load(write_spec(tmp_path / name, text))


def error(tmp_path, text):
    with pytest.raises(specmod.SpecError) as e:
        sp = load(tmp_path, text)
        specmod.expand(sp)
    return str(e.value)


BASE = f"base: {DEFAULT_CONFIG}\noutput: out\n"


def test_expansion_order_and_columns(tmp_path):
    sp = load(tmp_path, BASE + """
zip:
  tag.v: [a, b]
  schedule.algorithm: [eye, binomial]
grid:
  network.dims: [[4, 4], [8, 8]]
  schedule.flits: [1, 2, 3]
repeats: 2
seed: 10
""")
    pts = specmod.expand(sp)
    assert len(pts) == 2 * 2 * 3 * 2
    assert sp.param_columns() == ["tag.v", "schedule.algorithm", "network.dims", "schedule.flits", "repeat",
                                  "run.seed"]
    first = pts[0].params
    assert first == {"tag.v": "a", "schedule.algorithm": "eye", "network.dims": [4, 4], "schedule.flits": 1,
                     "repeat": 0, "run.seed": 10}
    assert pts[1].params["run.seed"] == 11 and pts[1].params["schedule.flits"] == 1
    assert pts[2].params["schedule.flits"] == 2  # last grid key varies fastest after repeats
    assert pts[-1].params["tag.v"] == "b" and pts[-1].params["network.dims"] == [8, 8]
    assert [p.index for p in pts] == list(range(len(pts)))
    # tags go to the table only; repeat is not a config key
    keys = [k for k, _ in pts[0].sets]
    assert "tag.v" not in keys and "repeat" not in keys and "run.seed" in keys


def test_ids_are_deterministic_and_depend_on_values_and_base(tmp_path):
    text = BASE + "grid:\n  schedule.flits: [1, 2]\n"
    a = [p.id for p in specmod.expand(load(tmp_path, text, "a.yaml"))]
    b = [p.id for p in specmod.expand(load(tmp_path, text, "b.yaml"))]
    assert a == b and len(set(a)) == 2
    c = [p.id for p in specmod.expand(load(tmp_path, BASE + "set:\n  timing.startup: 3\n"
                                           "grid:\n  schedule.flits: [1, 2]\n", "c.yaml"))]
    assert not set(a) & set(c)
    other_base = tmp_path / "base.yaml"
    other_base.write_text(open(DEFAULT_CONFIG).read() + "\n# edited\n")
    text2 = text.replace(DEFAULT_CONFIG, str(other_base))
    d = [p.id for p in specmod.expand(load(tmp_path, text2, "d.yaml"))]
    assert not set(a) & set(d)


def test_sources_all_and_sample(tmp_path):
    sp = load(tmp_path, BASE + "grid:\n  network.dims: [[2, 3], [4, 4]]\nsources: all\n")
    pts = specmod.expand(sp)
    assert len(pts) == 6 + 16
    assert pts[0].params["schedule.source"] == [0, 0]
    assert pts[1].params["schedule.source"] == [1, 0]
    assert pts[5].params["schedule.source"] == [1, 2]
    sp = load(tmp_path, BASE + "grid:\n  network.dims: [[8, 8]]\nsources: sample 5\n")
    s1 = [p.params["schedule.source"] for p in specmod.expand(sp)]
    s2 = [p.params["schedule.source"] for p in specmod.expand(sp)]
    assert s1 == s2 and len(s1) == 5 and len({tuple(s) for s in s1}) == 5
    sp = load(tmp_path, BASE + "set:\n  network.topology: hypercube\n  network.dims: [3]\n"
                               "sources: {sample: 100}\n")
    assert [p.params["schedule.source"] for p in specmod.expand(sp)] == list(range(8))


def test_exclude_and_schedule_file_resolution(tmp_path):
    sp = load(tmp_path, BASE + """
grid:
  schedule.flits: [1, 2]
  schedule.mode: [barrier, eager]
exclude:
  - {schedule.flits: 2, schedule.mode: eager}
""")
    pts = specmod.expand(sp)
    assert [(p.params["schedule.flits"], p.params["schedule.mode"]) for p in pts] == \
        [(1, "barrier"), (1, "eager"), (2, "barrier")]
    sp = load(tmp_path, BASE + "grid:\n  schedule.file: [sched.json]\n")
    (p,) = specmod.expand(sp)
    assert dict(p.sets)["schedule.file"] == os.path.join(str(tmp_path), "sched.json")
    assert p.params["schedule.file"] == "sched.json"


@pytest.mark.parametrize("text, where, what", [
    ("output: o\n", "base", "missing"),
    (BASE + "grids: {}\n", "grids", "unknown key (expected one of: base, output"),
    (BASE + "grid:\n  network.dims: [4, 4]\n  schedule.flits: 8\n", "grid.schedule.flits",
     "expected a non-empty list of values, got a number (8)"),
    (BASE + "grid:\n  netwrk.dims: [[4, 4]]\n", "grid.netwrk.dims", 'unknown config section "netwrk"'),
    (BASE + "grid:\n  output: [{}]\n", "grid.output", "chooses each point's output folder itself"),
    (BASE + "grid:\n  output.dir: [a, b]\n", "grid.output.dir", "chooses each point's output folder"),
    (BASE + "zip:\n  schedule.flits: [1, 2]\n  schedule.mode: [barrier]\n", "zip.schedule.mode",
     "has 1 values but schedule.flits has 2: zipped lists must have the same length"),
    (BASE + "set:\n  schedule.flits: 1\ngrid:\n  schedule.flits: [2]\n", "grid.schedule.flits",
     "already given in set"),
    (BASE + "repeats: 0\n", "repeats", "expected an integer from 1 to 100000, got a number (0)"),
    (BASE + "repeats: 2\ngrid:\n  run.seed: [1, 2]\n", "repeats", "already given in grid"),
    (BASE + "sources: some\n", "sources", 'expected all, "sample N"'),
    (BASE + "sources: sample 0\n", "sources", 'expected "sample N" with N >= 1'),
    (BASE + "grid:\n  schedule.flits: [1]\nexclude:\n  - {schedule.mode: eager}\n", "exclude[0].schedule.mode",
     "not a swept key (expected one of: schedule.flits)"),
    (BASE + "zip:\n  tag.x: [a, a]\n  schedule.flits: [1, 1]\n", None, "two points run the same parameters"),
    (BASE + "timeout: -1\n", "timeout", "expected a positive number of seconds"),
    (BASE + "grid:\n  schedule.flits: [1\n", None, "not valid YAML (line"),
    ("- a\n- b\n", "(top level)", "expected a mapping"),
    (f"base: {REPO}/no/such.yaml\noutput: o\n", "base", "cannot open"),
    (BASE + "set:\n  tag.x: 1\n", "set.tag.x", "tags are for swept values"),
])
def test_spec_errors_name_file_key_and_expectation(tmp_path, text, where, what):
    msg = error(tmp_path, text)
    assert msg.startswith(str(tmp_path / "s.yaml") + ": "), msg
    if where:
        assert f": {where}: " in msg, msg
    assert what in msg, msg


def test_sweep_cli_reports_spec_errors(tmp_path):
    spec = write_spec(tmp_path / "bad.yaml", BASE + "zip:\n  schedule.flits: [1, 2]\n  schedule.mode: [barrier]\n")
    proc = script("sweep.py", spec, "--dry-run")
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error: {spec}: zip.schedule.mode: has 1 values"), proc.stderr
    proc = script("sweep.py", str(tmp_path / "missing.yaml"))
    assert proc.returncode == 1 and "cannot open sweep spec" in proc.stderr
    proc = script("sweep.py", spec, "--workers", "0")
    assert proc.returncode == 2 and "--workers" in proc.stderr


def test_shipped_sweep_specs_are_valid(tmp_path):
    folder = os.path.join(REPO, "configs", "sweeps")
    specs = sorted(f for f in os.listdir(folder) if f.endswith(".yaml"))
    assert len(specs) >= 4
    for f in specs:
        sp = specmod.load(os.path.join(folder, f), output_override=str(tmp_path / f))
        pts = specmod.expand(sp)
        assert pts, f
        assert len({p.id for p in pts}) == len(pts)


# --- bad input found by fuzzing: a clear one-line error, never a traceback ---------------

def test_a_spec_that_is_not_utf8_is_refused(tmp_path):
    spec = tmp_path / "s.yaml"
    spec.write_bytes(BASE.encode() + b"\xff\xfe\n")
    proc = script("sweep.py", spec, "--dry-run")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr == (f"error: {spec}: not UTF-8 text (byte {len(BASE)}): "
                           "expected a sweep spec YAML file in UTF-8\n")


DEEP = "[" * 10000 + "]" * 10000
LAUGHS = "a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9))


@pytest.mark.parametrize("text, where, what", [
    ("seed: 2024-01-01\n", "seed", 'expected an integer from 0 to 4611686018427387904, got a string ("2024-01-01")'),
    ("seed: 010\n", "seed", 'got a string ("010") (a number with a leading zero is kept as text'),
    ("seed: !!timestamp 2024-01-01\n", "seed",
     "values tagged !!timestamp are not accepted (line 3): expected a number"),
    ("grid:\n  tag.x: [!!binary aGVsbG8=]\n", "grid.tag.x[0]", "values tagged !!binary are not accepted (line 4)"),
    ("grid:\n  tag.x: [!!python/tuple [1, 2]]\n", "grid.tag.x[0]", "values tagged !!python/tuple are not accepted"),
    ("grid:\n  tag.x: [!!set {a, b}]\n", "grid.tag.x[0]", "values tagged !!set are not accepted"),
    ("grid:\n  tag.x: [!mine 1]\n", "grid.tag.x[0]", "values tagged !mine are not accepted"),
    ("grid:\n  schedule.flits: [!!int 010]\n", "grid.schedule.flits[0]",
     "!!int 010: expected a decimal integer without leading zeros (line 4)"),
    ("grid:\n  output.host_timing: [!!bool yes]\n", "grid.output.host_timing[0]", "!!bool yes: expected true or false"),
    ("grid:\n  schedule.flits: [1e999]\n", "grid.schedule.flits[0]", "1e999: too large for a number"),
    (f"grid:\n  tag.x: {DEEP}\n", "grid.tag.x[0][0][0][0]...", "nested more than 100 levels deep (line 4)"),
    ("grid:\n  tag.x: &a [*a]\n", "grid.tag.x[0]", "the alias *a is inside the value it names (line 4)"),
    (LAUGHS, "a5", "more than 1000000 values once aliases are expanded"),
], ids=["date", "leading-zero", "timestamp-tag", "binary", "python-tag", "set", "local-tag", "int-tag-octal",
        "bool-tag-yes", "float-overflow", "deep", "alias-loop", "billion-laughs"])
def test_yaml_values_wormsim_cannot_take_are_refused_with_the_key(tmp_path, text, where, what):
    msg = error(tmp_path, BASE + text)
    assert msg.startswith(f"{tmp_path / 's.yaml'}: {where}: "), msg
    assert what in msg, msg


@pytest.mark.parametrize("value", ["[!!binary aGVsbG8=]", DEEP, "[2024-01-01 10:00:00]"],
                         ids=["binary", "deep", "datetime"])
def test_sweep_cli_reports_odd_yaml_values_without_a_traceback(tmp_path, value):
    spec = write_spec(tmp_path / "s.yaml", BASE + f"grid:\n  tag.x: {value}\n")
    proc = script("sweep.py", spec, "--dry-run", "--wormsim", FAKE_WORMSIM)
    assert "Traceback" not in proc.stderr, proc.stderr
    if value.startswith("[2024"):   # a date stays text: a tag value like any other
        assert proc.returncode == 0 and "\t2024-01-01 10:00:00\n" in proc.stdout, proc.stdout + proc.stderr
    else:
        assert proc.returncode == 1 and proc.stderr.startswith(f"error: {spec}: grid.tag.x[0]"), proc.stderr
        assert len(proc.stderr.splitlines()) == 1, proc.stderr


@pytest.mark.parametrize("text, where, lines", [
    ("grid:\n  schedule.flits: [1]\n  schedule.flits: [2]\n", "grid.schedule.flits", "lines 4 and 5"),
    ("set: {schedule.flits: 4}\nset: {schedule.flits: 8}\n", "set", "lines 3 and 4"),
    ("output: again\n", "output", "lines 2 and 3"),
    ("grid:\n  schedule.flits: [1]\nexclude:\n  - {schedule.flits: 1, schedule.flits: 2}\n",
     "exclude[0].schedule.flits", "lines 6 and 6"),
], ids=["grid", "top-level-section", "top-level-value", "in-a-list"])
def test_a_key_given_twice_is_refused_with_its_lines(tmp_path, text, where, lines):
    msg = error(tmp_path, BASE + text)
    assert msg == f"{tmp_path / 's.yaml'}: {where}: key given twice ({lines}): give each key once", msg


def test_a_merge_key_may_be_overridden(tmp_path):
    # `<<: *a` and then one of its keys is YAML's way to override a value, not a repeated key
    sp = load(tmp_path, BASE + "set:\n  <<: {schedule.flits: 4, schedule.mode: eager}\n  schedule.flits: 8\n")
    assert dict(sp.fixed) == {"schedule.flits": 8, "schedule.mode": "eager"}


@pytest.mark.parametrize("written, value", [
    ("010", "010"), ("-010", "-010"), ("no", "no"), ("yes", "yes"), ("on", "on"), ("off", "off"),
    ("y", "y"), ("True", "True"), ("0x10", "0x10"), ("0o10", "0o10"), ("1_000", "1_000"), ("1:30", "1:30"),
    ("2024-01-01", "2024-01-01"), (".inf", ".inf"), (".nan", ".nan"), ("=", "="),
    ("10", 10), ("-3", -3), ("0", 0), ("true", True), ("false", False), ("1.5", 1.5), (".5", 0.5),
    ("1e3", 1000.0), ("2.5E-3", 0.0025), ("null", None), ("~", None), ('"010"', "010"), ("!!str 10", "10"),
    ("!!float 1", 1.0),
])
def test_scalars_are_read_as_wormsim_reads_them(tmp_path, written, value):
    """YAML 1.1 (PyYAML's default) would make no/yes/on booleans, 010 octal 8 and 2024-01-01 a
    date, and the sweep would pass wormsim another value than the one written."""
    sp = load(tmp_path, BASE + f"grid:\n  tag.x: [{written}]\n  schedule.params: [{{k: {written}}}]\n")
    (p,) = specmod.expand(sp)
    assert p.params["tag.x"] == value and type(p.params["tag.x"]) is type(value)
    assert dict(p.sets)["schedule.params"] == {"k": value}
    if isinstance(value, str):   # the text written reaches wormsim: --set KEY="010"
        assert specmod.set_text(p.params["tag.x"]) == f'"{value}"'


def test_shipped_configs_and_specs_read_as_pyyaml_reads_them():
    """The shipped files use no spelling on which YAML 1.1 and wormsim differ: the spec
    reader's schema changes nothing for them (their point ids stay the same)."""
    import yaml
    from wormsim_py import specyaml
    files = [os.path.join(d, f) for d in (os.path.join(REPO, "configs"), os.path.join(REPO, "configs", "sweeps"))
             for f in sorted(os.listdir(d)) if f.endswith(".yaml")]
    assert len(files) > 10
    for f in files:
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        assert specyaml.load(text) == yaml.safe_load(text), f
