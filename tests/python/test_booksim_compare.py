"""`scripts/bench --booksim`: the BookSim2 side of each comparison workload simulates the same
network and load as the wormsim side, BookSim2's report is read right, and its flit-hops are
counted as wormsim counts them. BookSim2 itself is never needed: its report below is the real
output of BookSim2 master (28f4329) on the b1_8x8 workload, kept as data."""

import importlib.machinery
import importlib.util
import json
import os
import stat
import statistics
import subprocess

import pytest

from conftest import PYTHON, REPO, SCRIPTS
from wormsim_py import booksim as bs

REPORT = os.path.join(REPO, "tests", "python", "data", "booksim2_b1_8x8_report.txt")
B1 = os.path.join(REPO, "configs", "bench", "b1_uniform_16x16.yaml")


def _bench_module():
    """scripts/bench as a module (it has no .py suffix)."""
    loader = importlib.machinery.SourceFileLoader("wormsim_bench", os.path.join(SCRIPTS, "bench"))
    spec = importlib.util.spec_from_loader("wormsim_bench", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def _workload(name):
    return next(w for w in bs.WORKLOADS if w.name == name)


def _run_wormsim(wormsim, tmp_path, sets, name):
    out = tmp_path / name
    argv = [wormsim, "run", B1, "--quiet", "--out", str(out), "--set", "output.host_timing=false"]
    for s in sets:
        argv += ["--set", s]
    subprocess.run(argv, check=True, timeout=300)
    with open(out / "summary.json") as f:
        return json.load(f)


def test_the_report_is_read_from_its_overall_section():
    with open(REPORT) as f:
        r = bs.parse_booksim_report(f.read())
    # The overall figures, not the per-sample lines above them ("Accepted flit rate average= ...").
    assert r == {"cycles": 40098, "hops_average": 6.24198, "injected_packet_rate": 0.00499141,
                 "accepted_flit_rate": 0.0799305}


@pytest.mark.parametrize("cut_at", ["Time taken", "====== Overall", "Hops average"])
def test_a_report_cut_short_is_an_error_that_shows_its_end(cut_at):
    with open(REPORT) as f:
        text = f.read()
    cut = text[:text.index(cut_at)]
    with pytest.raises(ValueError) as e:
        bs.parse_booksim_report(cut)
    assert "BookSim2 output has no" in str(e.value) and "did the run finish?" in str(e.value)
    assert cut.strip().splitlines()[-1] in str(e.value)


def test_booksim_flit_hops_count_links_as_wormsim_does(wormsim, tmp_path):
    """BookSim2 counts routers passed (links + 1) and sends 1/64 of its 8x8 packets to themselves;
    with that accounted for, its flit-hops and wormsim's on the same work differ by the self-traffic
    alone: wormsim's distinct-pair mean distance is 64/63 of the mean over all pairs."""
    w = _workload("b1_8x8")
    with open(REPORT) as f:
        theirs = bs.booksim_flit_hops(w, bs.parse_booksim_report(f.read()))
    ours = _run_wormsim(wormsim, tmp_path, w.wormsim_sets, "b1_8x8")["metrics"]["flit_hops"]
    expected = ours * 63 / 64
    assert abs(theirs - expected) / expected < 0.01, (theirs, ours)


def _assert_same_network(s, b):
    """wormsim's summary `s` and BookSim2's settings `b` describe one network, router and packet length."""
    net, traffic, timing = s["config"]["network"], s["config"]["traffic"], s["config"]["timing"]
    assert net["topology"] == b["topology"]
    assert net["dims"] == [b["k"]] * b["n"]
    assert bs.ROUTING[net["routing"]] == b["routing_function"]
    assert net["vcs"] == b["num_vcs"] and net["buffer_flits"] == b["vc_buf_size"]
    # wormsim's adaptive VCs wait for the buffer downstream to empty: BookSim2's wait_for_tail_credit.
    assert b["wait_for_tail_credit"] == (1 if net["routing"] == "minimal-adaptive" else 0)
    # BookSim2's pipeline: 3 cycles in the router, 1 on the link, credits after 1.
    assert (timing["router_delay"], timing["link_delay"], timing["credit_delay"]) == (3, 1, 1)
    # One cycle per link on BookSim2's side too: its tori get 2-cycle links unless use_noc_latency is 0.
    assert b["use_noc_latency"] == 0 and b["credit_delay"] == 1
    assert traffic["pattern"] == b["traffic"] == "uniform" and traffic.get("injection", "bernoulli") == "bernoulli"
    assert traffic["rate"] == b["injection_rate"] and b["injection_rate_uses_flits"] == 0
    assert traffic["flits"] == [{"flits": b["packet_size"], "weight": 1.0}]


@pytest.mark.parametrize("w", bs.WORKLOADS, ids=lambda w: w.name)
def test_each_workload_as_a_latency_run_has_the_same_phases_on_both_sides(wormsim, tmp_path, w):
    """--latency: the workload's network at another load, measured the same way: one warm-up period
    and one sample period on BookSim2's side, as many warm-up and measured cycles on wormsim's."""
    sets, b = bs.latency_settings(w, 0.003, 40)
    s = _run_wormsim(wormsim, tmp_path, sets, w.name)
    _assert_same_network(s, b)
    traffic = s["config"]["traffic"]
    assert b["injection_rate"] == 0.003 and b["packet_size"] == w.booksim["packet_size"]
    assert (b["warmup_periods"], b["sample_period"], b["max_samples"]) == (1, 40, 1)
    assert traffic["warmup_cycles"] == traffic["measure_cycles"] == 40 and "cycles" not in traffic
    assert s["load"]["warmup_cycles"] == s["load"]["measure_cycles"] == 40
    # The speed comparison's own settings are untouched.
    assert w.booksim["max_samples"] == 2 and w.booksim["injection_rate"] != 0.003


def test_the_latency_report_is_read_from_its_overall_section():
    with open(REPORT) as f:
        text = f.read()
    # Not the two samples' lines above it (46.792 and 46.6905 cycles).
    assert bs.parse_booksim_latency(text) == {"packet_latency": 46.6845, "network_latency": 45.8313,
                                              "accepted_flit_rate": 0.0799305}
    with pytest.raises(ValueError) as e:
        bs.parse_booksim_latency(text[:text.index("====== Overall")])
    assert "Overall Traffic Statistics" in str(e.value) and "did the run finish?" in str(e.value)


@pytest.mark.parametrize("w", bs.WORKLOADS, ids=lambda w: w.name)
def test_each_workload_simulates_the_same_network_and_load_on_both_sides(wormsim, tmp_path, w):
    b = w.booksim
    # Shortened for the test; the phases themselves are compared from the workload's settings below.
    short = ["traffic.warmup_cycles=20", "traffic.measure_cycles=30"] if w.window else ["traffic.cycles=50"]
    s = _run_wormsim(wormsim, tmp_path, w.wormsim_sets + short, w.name)
    _assert_same_network(s, b)
    assert b["warmup_periods"] == 1 and b["max_samples"] == 2
    if w.window:
        # BookSim2: one warm-up period, then one sample period, then its drain; wormsim the same phases.
        phases = "warmup_cycles: %d, measure_cycles: %d}" % (b["sample_period"], b["sample_period"])
        assert any(phases in x for x in w.wormsim_sets)
    else:
        with open(B1) as f:
            assert "cycles: %d}" % w.injection_cycles() in f.read()


def test_the_windowed_workload_runs_its_phases_and_drains():
    """The load run near saturation is a measured run on both sides: wormsim's window where BookSim2
    measures, and BookSim2's packets counted over every cycle it ran, its drain included."""
    w = _workload("window_near_sat")
    assert w.window and w.booksim["injection_rate"] == 0.007 and w.booksim["sample_period"] == 12500
    report = {"cycles": 26347, "hops_average": 11.7, "injected_packet_rate": 0.007, "accepted_flit_rate": 0.11}
    assert bs.booksim_flit_hops(w, report) == pytest.approx((11.7 - 1) * 16 * 0.007 * 256 * 26347)


def test_the_booksim_config_is_its_key_value_syntax():
    text = bs.booksim_config_text(_workload("short_4vc").booksim)
    lines = text.splitlines()
    assert "num_vcs = 4;" in lines and "vc_buf_size = 4;" in lines and "packet_size = 4;" in lines
    assert all(line.endswith(";") and " = " in line for line in lines)


def _bench(*args, env=None):
    e = dict(os.environ, **(env or {}))
    return subprocess.run([PYTHON, os.path.join(SCRIPTS, "bench"), *args], capture_output=True, text=True,
                          timeout=300, env=e)


def test_a_missing_booksim_binary_is_refused(wormsim, tmp_path):
    p = _bench("--booksim", str(tmp_path / "nope"), "--binary", wormsim, "--json", str(tmp_path / "bench.json"))
    assert p.returncode == 1 and "is not an executable file" in p.stderr
    p = _bench("--booksim", str(tmp_path), "-k", "zzz", "--binary", wormsim)
    assert p.returncode == 1 and "not an executable file" in p.stderr


def _fake_booksim(tmp_path, body):
    fake = tmp_path / "booksim"
    fake.write_text("#!/bin/sh\n" + body)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    return str(fake)


def test_a_booksim_run_without_its_report_is_an_error_naming_the_workload(wormsim, tmp_path):
    fake = _fake_booksim(tmp_path, "echo 'Error: unknown routing function'\nexit 0\n")
    p = _bench("--booksim", fake, "-k", "b1_8x8", "-r", "1", "--binary", wormsim, "--json", str(tmp_path / "b.json"))
    assert p.returncode == 1
    assert "BookSim2" in p.stderr and "b1_8x8" in p.stderr and "Error: unknown routing function" in p.stderr


def test_the_comparison_writes_rates_and_ratios(wormsim, tmp_path):
    """End to end with a stand-in that prints the real report: the table and the JSON agree."""
    fake = _fake_booksim(tmp_path, f"cat '{REPORT}'\n")
    p = _bench("--booksim", fake, "-k", "b1_8x8", "-r", "2", "--binary", wormsim, "--json",
               str(tmp_path / "bench.json"))
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "booksim.json") as f:
        got = json.load(f)
    assert got["repeat"] == 2
    r = got["results"]["b1_8x8"]
    assert r["ratio"] == pytest.approx(r["wormsim_flit_hops_per_cpu_second"] / r["booksim_flit_hops_per_cpu_second"])
    assert r["wormsim_flit_hops_per_cpu_second"] == pytest.approx(r["wormsim_flit_hops"] / r["wormsim_cpu_seconds"])
    assert r["booksim_settings"]["k"] == 8 and "network.dims=[8,8]" in r["wormsim_sets"]
    row = next(line for line in p.stdout.splitlines() if line.startswith("b1_8x8"))
    assert f"{r['ratio']:.1f}x" in row
    # Each interleaved pair's own ratio, from that pair's two runs: the spread the medians hide.
    assert len(r["wormsim_cpu_seconds_each"]) == len(r["booksim_cpu_seconds_each"]) == len(r["pair_ratios"]) == 2
    for cpu_w, cpu_b, pair in zip(r["wormsim_cpu_seconds_each"], r["booksim_cpu_seconds_each"], r["pair_ratios"]):
        if cpu_b == 0:  # the stand-in may take no measurable CPU time: no ratio, not an infinite one
            assert pair is None
            continue
        assert pair == pytest.approx((r["wormsim_flit_hops"] / cpu_w) / (r["booksim_flit_hops"] / cpu_b))
    measured = [x for x in r["pair_ratios"] if x is not None]
    spread = f"{min(measured):.1f}-{max(measured):.1f}x" if measured else "-"
    assert row.split()[-1] == spread
    assert r["wormsim_cpu_seconds"] == pytest.approx(statistics.median(r["wormsim_cpu_seconds_each"]))


@pytest.mark.parametrize("ours,theirs,expected", [
    ((2.0, 100.0), (4.0, 10.0), 20.0),   # 50 flit-hops/s against 2.5
    ((0.0, 100.0), (4.0, 10.0), None),   # a run too short to time
    ((2.0, 100.0), (0.0, 10.0), None),
    ((2.0, 100.0), (4.0, 0.0), None),    # a BookSim2 run that counted no flit-hops
])
def test_a_pair_ratio_is_flit_hops_per_cpu_second_of_each(ours, theirs, expected):
    got = _bench_module().pair_ratio(ours, theirs)
    assert got == (pytest.approx(expected) if expected is not None else None)


def test_the_latency_comparison_writes_both_sides_figures(wormsim, tmp_path):
    """--latency end to end with a stand-in that prints the real report: wormsim's measured run and
    BookSim2's overall means, in the table and the JSON."""
    fake = _fake_booksim(tmp_path, f"cat '{REPORT}'\n")
    p = _bench("--booksim", fake, "--latency", "0.005,0.01", "--latency-cycles", "200", "-k", "b1_8x8",
               "--binary", wormsim, "--json", str(tmp_path / "bench.json"))
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "booksim-latency.json") as f:
        got = json.load(f)
    assert got["rates"] == [0.005, 0.01] and got["cycles"] == 200
    assert sorted(got["results"]) == ["b1_8x8-0.005", "b1_8x8-0.01"]
    for point, r in got["results"].items():
        assert r["booksim"] == {"packet_latency": 46.6845, "network_latency": 45.8313, "accepted_flit_rate": 0.0799305}
        ours = r["wormsim"]
        # An 8x8 mesh at these loads: at least the zero-load latency of a 16-flit packet over one hop.
        assert ours["packet_latency"] >= ours["network_latency"] >= 15 + 2 * 3 + 1
        assert 0 < ours["accepted_flit_rate"] and ours["saturated"] is False
        assert r["booksim_settings"]["injection_rate"] == r["rate"] and r["booksim_settings"]["sample_period"] == 200
        line = next(x for x in p.stdout.splitlines() if x.startswith("b1_8x8") and f"{r['rate']:g}" in x.split()[1])
        assert f"{ours['packet_latency']:.2f}" in line and "46.68" in line


def test_a_saturated_latency_point_is_reported_as_such(wormsim, tmp_path):
    """Past saturation wormsim's run stops as saturated (exit 3): its figures are still written, marked."""
    fake = _fake_booksim(tmp_path, f"cat '{REPORT}'\n")
    p = _bench("--booksim", fake, "--latency", "0.05", "--latency-cycles", "300", "-k", "b1_8x8",
               "--binary", wormsim, "--json", str(tmp_path / "bench.json"))
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "booksim-latency.json") as f:
        ours = json.load(f)["results"]["b1_8x8-0.05"]["wormsim"]
    # 0.8 flits/node/cycle offered to an 8x8 mesh that accepts about a third of that.
    assert ours["saturated"] is True and ours["accepted_flit_rate"] < 0.4
    assert next(x for x in p.stdout.splitlines() if x.startswith("b1_8x8")).endswith("(saturated)")


@pytest.mark.parametrize("args, message", [
    (["--latency", "0.01,abc"], "'abc' is not a load"),
    (["--latency", "0"], "'0' is not a load"),
    (["--latency", "1.5"], "'1.5' is not a load"),
    (["--latency", "0.01", "--latency-cycles", "0"], "--latency-cycles: 0"),
    (["--latency", "0.01", "-r", "3"], "-r does not apply to --latency"),
])
def test_bad_latency_options_are_refused(wormsim, tmp_path, args, message):
    fake = _fake_booksim(tmp_path, f"cat '{REPORT}'\n")
    p = _bench("--booksim", fake, *args, "-k", "b1_8x8", "--binary", wormsim, "--json", str(tmp_path / "b.json"))
    assert p.returncode == 1 and message in p.stderr, p.stderr
    assert not (tmp_path / "booksim-latency.json").exists()


def test_latency_without_booksim_is_refused(wormsim, tmp_path):
    p = _bench("--latency", "0.01", "--binary", wormsim, "--json", str(tmp_path / "b.json"))
    assert p.returncode == 1 and "--latency compares with BookSim2" in p.stderr
