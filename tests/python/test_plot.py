"""plot.py pictures, and the per-step link loads derived from messages.csv."""

import json
import os

import matplotlib.image as mpimg
import pytest

from conftest import REPO, inproc, run_wormsim, script
from wormsim_py.runs import NotDerivable, Run, per_step_link_busy

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


def test_explicit_routes_come_from_routes_csv(tmp_path, wormsim):
    # y-first route: same length as the dimension-order one, different links; routes.csv has the links taken
    sched = tmp_path / "yfirst.json"
    sched.write_text(json.dumps({
        "wormsim_schedule": 1, "name": "y-first", "topology": {"kind": "mesh", "dims": [4, 4]}, "flits": 4,
        "steps": [[{"src": [0, 0], "dst": [1, 1], "route": [[0, 0], [0, 1], [1, 1]]}]]}))
    run_wormsim(wormsim, tmp_path / "r", f"schedule.file={sched}")
    run = Run(tmp_path / "r")
    links = run.links.set_index("link")
    taken = [int(l) for l in run.routes["links"][0].split()]
    assert [(int(links.loc[l, "src"]), int(links.loc[l, "dst"])) for l in taken] == [(0, 4), (4, 5)]
    busy = per_step_link_busy(run)
    assert busy["link"].tolist() == sorted(taken)
    assert busy["busy_cycles"].tolist() == [4, 4]
    script("plot.py", "links", tmp_path / "r", "--per-step", "-o", tmp_path / "r.png", check=0)
    check_png(tmp_path / "r.png")
    # a run folder without routes.csv (an older wormsim's, whose manifest does not list it) has no per-step maps
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    del summary["outputs"]["routes.csv"]
    (tmp_path / "r" / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    (tmp_path / "r" / "routes.csv").unlink()
    with pytest.raises(NotDerivable):
        per_step_link_busy(Run(tmp_path / "r"))


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
    check_png(png, min_bytes=15000)
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


# --- what a reviewer reads off a figure: labels, fixed parameters, markers, ticks ---------

def _synthetic_table(folder, rates=(0.001, 0.002, 0.005, 0.01, 0.02)):
    """A results table like a background-load sweep's: two variants whose lines coincide,
    3 seeds per point, a fixed network and message length."""
    import csv
    os.makedirs(folder, exist_ok=True)
    cols = ["point", "tag.variant", "traffic.rate", "repeat", "run.seed", "network.dims", "schedule.flits",
            "status", "exit_code", "error", "metrics.completion_cycles", "metrics.messages",
            "metrics.port_wait.cycles", "metrics.step_contention.cycles", "metrics.depth_contention.cycles",
            "metrics.background_contention.cycles", "metrics.other_delay.cycles", "dir"]
    with open(os.path.join(folder, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        i = 0
        for v in ("eye", "eye-best"):
            for r in rates:
                for rep in range(3):
                    i += 1
                    w.writerow([f"p{i}", v, r, rep, rep + 1, "[16, 16]", 64, "completed", 0, "",
                                int(1000 + 1e5 * r + rep), 255, 3000, 0, 2 + rep, int(1e5 * r), 0, f"points/p{i}"])
    return folder


@pytest.fixture
def captured(monkeypatch):
    """The figures plot.py draws, kept open instead of only saved."""
    from wormsim_py import plotting
    figs = []
    real = plotting.save

    def keep(fig, out):
        figs.append(fig)
        return real(fig, out)
    monkeypatch.setattr(plotting, "save", keep)
    import matplotlib.pyplot as plt
    monkeypatch.setattr(plt, "close", lambda *a, **k: None)
    return figs


def test_labels_units_and_fixed_parameters(tmp_path, captured):
    from wormsim_py import columns
    assert columns.label("metrics.completion_cycles") == "completion time (cycles)"
    assert columns.label("traffic.rate") == "offered background load (packets/node/cycle)"
    assert columns.label("metrics.no_such") == "metrics.no_such"
    t = _synthetic_table(tmp_path / "t")
    proc = inproc("plot.py", "sweep", t, "--x", "traffic.rate", "--y", "metrics.completion_cycles",
                  "-o", tmp_path / "s.svg")
    assert proc.returncode == 0, proc.stderr
    svg = open(tmp_path / "s.svg", encoding="utf-8").read()
    for text in ("completion time (cycles)", "offered background load (packets/node/cycle)",
                 "fixed: network 16x16, message length 64 flits", "mean of 3 rows",
                 "95% bootstrap", "variant", "eye-best"):
        assert text in svg, text
    assert "metrics.completion_cycles" not in svg and "traffic.rate" not in svg


def test_equal_lines_stay_visible_and_ticks_do_not_overlap(tmp_path, captured):
    t = _synthetic_table(tmp_path / "t")
    proc = inproc("plot.py", "sweep", t, "--x", "traffic.rate", "--y", "metrics.completion_cycles",
                  "-o", tmp_path / "s.png")
    assert proc.returncode == 0, proc.stderr
    fig = captured[-1]
    ax = fig.axes[0]
    drawn = [ln for ln in ax.get_lines() if ln.get_marker() not in (None, "None", "") and len(ln.get_xdata())]
    assert len(drawn) == 2   # the two variants give the same values: both must show
    assert drawn[0].get_marker() != drawn[1].get_marker()
    assert drawn[0].get_linestyle() != drawn[1].get_linestyle() or drawn[0].get_dashes() != drawn[1].get_dashes()
    assert all(ln.get_markerfacecolor() == "none" for ln in drawn)
    assert drawn[0].get_markersize() > drawn[1].get_markersize()
    renderer = fig.canvas.get_renderer()
    boxes = sorted((t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()), key=lambda b: b.x0)
    assert len(boxes) >= 3
    assert all(a.x1 <= b.x0 for a, b in zip(boxes, boxes[1:])), [t.get_text() for t in ax.get_xticklabels()]


def test_where_compares_values_and_typos_get_a_suggestion(tmp_path):
    t = _synthetic_table(tmp_path / "t")
    for where in ("network.dims=[16,16]", "network.dims=[16, 16]", "traffic.rate=0.010", "schedule.flits=64.0"):
        proc = inproc("plot.py", "sweep", t, "--x", "traffic.rate", "--y", "metrics.completion_cycles", "--where",
                      where, "-o", tmp_path / "w.png")
        assert proc.returncode == 0, (where, proc.stderr)
    y = ("--y", "metrics.completion_cycles")
    proc = inproc("plot.py", "sweep", t, "--x", "traffic.rate", *y, "--where", "network.dims=[8,8]")
    assert proc.returncode == 1
    assert proc.stderr == f"error: {t}: no row has network.dims = 8x8 (its values: 16x16)\n"
    proc = inproc("plot.py", "sweep", t, "--x", "trafic.rate", *y)
    assert proc.stderr == f"error: {t}: no column trafic.rate (did you mean traffic.rate?)\n"
    proc = inproc("plot.py", "sweep", t, "--x", "traffic.rate", *y, "--where", "netwrk.dims=[16,16]")
    assert proc.stderr == "error: --where netwrk.dims=[16,16]: no column netwrk.dims (did you mean network.dims?)\n"


def test_contention_parts_have_their_own_scale(tmp_path, captured):
    t = _synthetic_table(tmp_path / "t")
    proc = inproc("plot.py", "contention", t, "--where", "traffic.rate=0.001", "-o", tmp_path / "c.svg")
    assert proc.returncode == 0, proc.stderr
    fig = captured[-1]
    # stacked total, then port wait (3000), depth (3) and background (100): the zero parts have no panel
    titles = [ax.get_title(loc="left") for ax in fig.axes]
    assert titles == ["all parts, stacked (zero: step contention, other)", "port wait (own scale)",
                      "depth contention (own scale)", "background (own scale)"]
    depth = fig.axes[2]
    assert depth.get_ylim()[1] < 10   # 3 cycles fill their panel next to 3000 cycles of port wait


def test_written_figures_keep_the_umask(tmp_path):
    import stat
    import subprocess
    t = _synthetic_table(tmp_path / "t")
    from conftest import PYTHON, SCRIPTS
    proc = subprocess.run([PYTHON, os.path.join(SCRIPTS, "plot.py"), "sweep", str(t), "--x", "traffic.rate",
                           "--y", "metrics.completion_cycles", "-o", str(tmp_path / "u")], capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.umask(0o022))
    assert proc.returncode == 0, proc.stderr
    for ext in (".png", ".svg"):
        assert stat.S_IMODE(os.stat(str(tmp_path / "u") + ext).st_mode) == 0o644
