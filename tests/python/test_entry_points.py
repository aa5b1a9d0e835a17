"""Every Python entry point under an interpreter that lacks the packages (a venv made
without them: what a pyenv, conda or venv `python3` first on PATH looks like) stops
before touching anything, with one line naming what is missing and how to install it;
the stdlib-only ones work. One variable, WORMSIM_BIN, names the binary everywhere."""

import os
import subprocess

import pytest

from conftest import DEFAULT_CONFIG, PYTHON, REPO, SCRIPTS, write_spec


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    """A venv without pip and without Debian's site-packages (created offline)."""
    d = tmp_path_factory.mktemp("venv")
    subprocess.run([PYTHON, "-m", "venv", "--without-pip", str(d)], check=True, timeout=120)
    py = str(d / "bin" / "python3")
    probe = subprocess.run([py, "-c", "import yaml"], capture_output=True, timeout=60)
    assert probe.returncode != 0, "the venv sees PyYAML: it is not the bare interpreter the test needs"
    return py


def _run(py, script, *args, env=None, cwd=None):
    e = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "WORMSIM_BIN", "WORMSIM_BUILD_DIR")}
    e.update(env or {})
    return subprocess.run([py, os.path.join(SCRIPTS, script), *map(str, args)], capture_output=True, text=True,
                          timeout=120, env=e, cwd=cwd or REPO)


def _assert_one_line(proc, script, packages, code):
    assert proc.returncode == code, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    assert line.startswith(f"error: {script} needs the Python package"), line
    for p in packages:
        assert f"'{p}'" in line and f"python3-{p}" in line, line
    assert "sudo apt-get install" in line and "pip install -r scripts/requirements.txt" in line, line


def test_sweep_stops_before_creating_anything(bare_python, tmp_path):
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "s.yaml", f"base: {DEFAULT_CONFIG}\noutput: {out}\ngrid:\n  schedule.flits: [4, 8]\n")
    proc = _run(bare_python, "sweep.py", spec, cwd=tmp_path)
    _assert_one_line(proc, "sweep.py", ["yaml", "pandas", "tqdm", "dask", "distributed"], 1)
    assert not out.exists()
    assert sorted(os.listdir(tmp_path)) == ["s.yaml"]


def test_plot_stops_before_writing(bare_python, tmp_path):
    proc = _run(bare_python, "plot.py", "sweep", tmp_path, "--x", "schedule.flits", "-o", tmp_path / "p.png")
    _assert_one_line(proc, "plot.py", ["pandas", "matplotlib", "seaborn"], 1)
    assert os.listdir(tmp_path) == []


def test_compare_stops_with_exit_2(bare_python, tmp_path):
    # exit 1 would mean "the runs differ": a missing package is unreadable input (2)
    proc = _run(bare_python, "compare_traces.py", tmp_path, tmp_path, "--json", tmp_path / "c.json")
    _assert_one_line(proc, "compare_traces.py", ["pandas"], 2)
    assert os.listdir(tmp_path) == []


def test_stdlib_scripts_run_with_any_python(bare_python):
    for script in ("bench", "reproduce_papers.py"):
        proc = _run(bare_python, script, "--help")
        assert proc.returncode == 0, (script, proc.stderr)
        assert "WORMSIM_BIN" in proc.stdout


def test_requirements_list_every_package():
    from wormsim_py import deps
    with open(os.path.join(SCRIPTS, "requirements.txt"), encoding="utf-8") as f:
        pins = {ln.split("==")[0] for ln in f.read().splitlines() if ln and not ln.startswith("#")}
    assert pins == {pypi for pypi, _ in deps.PACKAGES.values()}
    with open(os.path.join(SCRIPTS, "setup.sh"), encoding="utf-8") as f:
        setup = f.read()
    for _, deb in deps.PACKAGES.values():
        assert deb in setup, deb


def test_wormsim_bin_names_the_binary_everywhere(bare_python, tmp_path):
    missing = str(tmp_path / "no-such-wormsim")
    env = {"WORMSIM_BIN": missing, "WORMSIM_BUILD_DIR": str(tmp_path / "elsewhere")}
    proc = _run(bare_python, "reproduce_papers.py", "--output", tmp_path / "r.md", env=env)
    assert proc.returncode == 2 and f"wormsim binary not found: {missing}" in proc.stderr, proc.stderr
    proc = _run(bare_python, "bench", "-r", "1", "--json", tmp_path / "b.json", env=env)
    assert proc.returncode != 0 and f"wormsim binary not found: {missing}" in proc.stderr, proc.stderr
    spec = write_spec(tmp_path / "s.yaml", f"base: {DEFAULT_CONFIG}\noutput: {tmp_path / 'out'}\n"
                                           "grid:\n  schedule.flits: [4]\n")
    proc = _run(PYTHON, "sweep.py", spec, env=env)
    assert proc.returncode == 1 and missing in proc.stderr, proc.stderr
    # without WORMSIM_BIN, the build folder names it
    proc = _run(PYTHON, "sweep.py", spec, env={"WORMSIM_BUILD_DIR": str(tmp_path / "elsewhere")})
    assert proc.returncode == 1 and str(tmp_path / "elsewhere" / "wormsim") in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def test_scripts_wormsim_runs_wormsim_bin(wormsim):
    e = {k: v for k, v in os.environ.items() if k != "WORMSIM_BUILD_DIR"}
    e["WORMSIM_BIN"] = wormsim
    proc = subprocess.run([os.path.join(SCRIPTS, "wormsim"), "--version"], capture_output=True, text=True,
                          timeout=60, env=e)
    assert proc.returncode == 0 and proc.stdout.startswith("wormsim "), proc.stderr
