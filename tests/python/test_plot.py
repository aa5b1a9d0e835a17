"""plot.py pictures, and the per-step link loads derived from messages.csv."""

import json
import os

import matplotlib.image as mpimg
import pytest

from conftest import REPO, inproc, run_wormsim, script
from wormsim_py.runs import NotDerivable, Run, dor_route, per_step_link_busy

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def check_png(path, min_bytes=8000):
    assert os.path.exists(path), path
    data = open(path, "rb").read()
    assert data.startswith(PNG_MAGIC) and len(data) >= min_bytes, (path, len(data))
    img = mpimg.imread(path)
    h, w = img.shape[:2]
    assert h >= 200 and w >= 300
    # not a blank canvas: many distinct colours
    flat = (img[..., :3] * 255).astype(int).reshape(-1, 3)
    assert len({tuple(p) for p in flat[:: max(1, len(flat) // 20000)]}) > 20


def check_svg(path):
    text = open(path, encoding="utf-8").read()
    assert "<svg" in text and "</svg>" in text and len(text) > 5000


@pytest.fixture(scope="module")
def runs(tmp_path_factory, wormsim):
    d = tmp_path_factory.mktemp("plot_runs")
    mesh = d / "mesh"
    run_wormsim(wormsim, mesh, "network.dims=[8,8]", "schedule.algorithm=umesh", "schedule.source=[3,2]")
    torus = d / "torus"
    run_wormsim(wormsim, torus, "network.topology=torus", "network.dims=[4,4]", "network.vcs=2",
                "schedule.algorithm=binomial", "schedule.flits=8")
    bg = d / "background"
    run_wormsim(wormsim, bg, "network.dims=[4,4]", "schedule.algorithm=eye", "schedule.mode=eager",
                "traffic={pattern: uniform, rate: 0.02, cycles: 300, flits: 8}")
    cube = d / "cube"
    run_wormsim(wormsim, cube, "network.topology=hypercube", "network.dims=[4]", "network.port_model=all-port",
                "schedule.algorithm=multinode-broadcast", "schedule.flits=4")
    return {"mesh": mesh, "torus": torus, "background": bg, "cube": cube, "dir": d}


def test_per_run_heat_map_png_and_svg(runs):
    out = runs["dir"] / "heat"
    proc = script("plot.py", "links", runs["mesh"], "-o", out, check=0)
    assert proc.stdout.split() == [f"{out}.png", f"{out}.svg"]
    check_png(f"{out}.png", min_bytes=30000)
    check_svg(f"{out}.svg")
    # default output next to the run; a torus draws its wrap-around links too
    proc = script("plot.py", "links", runs["torus"], check=0)
    check_png(runs["torus"] / "link_utilisation.png")


def test_per_step_heat_maps(runs):
    proc = script("plot.py", "links", runs["mesh"], "--per-step", "-o", runs["dir"] / "steps.png", check=0)
    check_png(runs["dir"] / "steps.png", min_bytes=30000)
    proc = script("plot.py", "links", runs["mesh"], "--step", "0", "--step", "5", "-o",
                  runs["dir"] / "two.svg", check=0)
    check_svg(runs["dir"] / "two.svg")
    proc = inproc("plot.py", "links", runs["mesh"], "--step", "99")
    assert proc.returncode == 1 and "--step 99: the run has steps 0..5" in proc.stderr


@pytest.mark.parametrize("name", ["mesh", "torus", "background", "cube"])
def test_per_step_derivation_adds_up_to_links_csv(runs, name):
    run = Run(runs[name])
    busy = per_step_link_busy(run)  # raises if the sum does not match links.csv
    total = busy.groupby("link")["busy_cycles"].sum()
    ref = run.links.set_index("link")["busy_cycles"]
    assert int(total.sum()) == int(ref.sum()) == run.summary["metrics"]["flit_hops"]
    for link, b in total.items():
        assert int(ref[link]) == int(b)
    steps = set(busy["step"])
    if name == "background":
        assert -1 in steps
    assert steps - {-1} <= set(range(run.summary["schedule"]["steps"]))


def test_dor_route_matches_the_simulator_conventions():
    # mesh: x first, then y
    assert dor_route("mesh", [4, 4], 0, 5) == [(0, 0, 1), (1, 1, 1)]
    # torus: the shorter way round (wrap), ties go "+"
    assert dor_route("torus", [4, 4], 0, 3) == [(0, 0, -1)]
    assert dor_route("torus", [4, 4], 0, 2) == [(0, 0, 1), (1, 0, 1)]
    # hypercube: bit 0 first; dir 1 sets a bit, -1 clears it
    assert dor_route("hypercube", [3], 0b101, 0b011) == [(0b101, 1, 1), (0b111, 2, -1)]


def test_explicit_routes_are_detected(tmp_path, wormsim):
    # y-first route: same length as the dimension-order one, different links
    sched = tmp_path / "yfirst.json"
    sched.write_text(json.dumps({
        "wormsim_schedule": 1, "name": "y-first", "topology": {"kind": "mesh", "dims": [4, 4]}, "flits": 4,
        "steps": [[{"src": [0, 0], "dst": [1, 1], "route": [[0, 0], [0, 1], [1, 1]]}]]}))
    run_wormsim(wormsim, tmp_path / "r", f"schedule.file={sched}")
    with pytest.raises(NotDerivable):
        per_step_link_busy(Run(tmp_path / "r"))
    proc = inproc("plot.py", "links", tmp_path / "r", "--per-step")
    assert proc.returncode == 1 and "per-step maps not available" in proc.stderr
    # the per-run map (from links.csv) still works
    script("plot.py", "links", tmp_path / "r", "-o", tmp_path / "r.png", check=0)
    check_png(tmp_path / "r.png")


def test_heat_map_refuses_other_shapes(runs):
    proc = inproc("plot.py", "links", runs["cube"])
    assert proc.returncode == 1
    assert "link heat maps cover 1-D and 2-D meshes and tori; this run is a hypercube 4" in proc.stderr


def test_contention_bars_of_a_run(runs):
    out = runs["dir"] / "cont"
    script("plot.py", "contention", runs["background"], "-o", out, check=0)
    check_png(f"{out}.png")
    check_svg(f"{out}.svg")
    script("plot.py", "contention", runs["mesh"], "--per-message", "-o", runs["dir"] / "c2.png", check=0)


def test_sweep_plots(small_sweep):
    _, out, _ = small_sweep
    proc = script("plot.py", "sweep", out, "--x", "schedule.flits", "--facet", "network.dims", "--logx", check=0)
    png = os.path.join(out, "plot_completion_cycles_latency_mean_vs_flits.png")
    assert proc.stdout.split()[0] == png
    check_png(png, min_bytes=30000)
    check_svg(png[:-4] + ".svg")
    # rows that failed are left out, and said so
    assert "leaving out 4 row(s)" in proc.stderr
    proc = script("plot.py", "sweep", os.path.join(out, "results.csv"), "--x", "network.dims", "--line",
                  "tag.variant", "--where", "schedule.flits=16", "--y", "metrics.tcd", "-o",
                  os.path.join(out, "tcd.png"), check=0)
    check_png(os.path.join(out, "tcd.png"))
    proc = script("plot.py", "contention", out, "-o", os.path.join(out, "cont.png"), check=0)
    check_png(os.path.join(out, "cont.png"))


def test_sweep_plot_errors(small_sweep, tmp_path):
    _, out, _ = small_sweep
    proc = inproc("plot.py", "sweep", out, "--x", "no.such")
    assert proc.returncode == 1 and "no column no.such" in proc.stderr
    proc = inproc("plot.py", "sweep", out, "--x", "schedule.flits", "--where", "nope")
    assert proc.returncode == 1 and "expected COLUMN=VALUE" in proc.stderr
    proc = inproc("plot.py", "sweep", tmp_path / "none", "--x", "a")
    assert proc.returncode == 1 and "no such table" in proc.stderr
    proc = inproc("plot.py", "sweep", out, "--x", "schedule.flits", "--y", "summary.schedule.name")
    assert proc.returncode == 1 and "not a numeric column" in proc.stderr
    proc = inproc("plot.py", "sweep", out)
    assert proc.returncode == 2  # --x is required


def test_plot_scripts_use_debian_python():
    for name in ("sweep.py", "compare_traces.py", "plot.py"):
        with open(os.path.join(REPO, "scripts", name)) as f:
            assert f.readline().strip() == "#!/usr/bin/python3"
        assert os.access(os.path.join(REPO, "scripts", name), os.X_OK)
