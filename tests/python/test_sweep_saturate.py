"""Sweeps whose points are saturation searches (`saturate:` in the spec, docs/sweeps.md): each
point runs `wormsim saturate`, its saturation block becomes saturation.* columns, and a second
sweep finds every point complete."""

import json
import os

from conftest import REPO, read_csv_rows, script, write_spec
from wormsim_py import spec as specmod

CONFIG = os.path.join(REPO, "configs", "saturate_8x8_uniform.yaml")

# Two mesh sizes, short windows, a coarse resolution and no extra curve points: a few
# seconds in all. The bound of uniform traffic on a k x k mesh is 4/k x (N-1)/N.
SPEC = f"""
base: {CONFIG}
output: OUT
set:
  traffic.measure_cycles: 1000
grid:
  network.dims: [[4, 4], [6, 6]]
saturate: {{resolution: 0.1, points: 0}}
"""


def test_a_sweep_of_saturation_searches_collects_the_saturation_throughput(wormsim, tmp_path):
    spec = write_spec(tmp_path / "sat.yaml", SPEC.replace("OUT", str(tmp_path / "out")))
    proc = script("sweep.py", spec, "--workers", "2", "--wormsim", wormsim, "--no-progress", timeout=300, check=0)
    rows = read_csv_rows(tmp_path / "out" / "results.csv")
    assert [r["network.dims"] for r in rows] == ["[4, 4]", "[6, 6]"]
    for r in rows:
        k = json.loads(r["network.dims"])[0]
        n = k * k
        bound = 4 / k * (n - 1) / n
        assert r["status"] == "found" and r["error"] == "", r
        assert float(r["saturation.bound"]) == bound
        # Accepted throughput flattens (peak_accepted) above half the bound and below it: with one VC,
        # head-of-line blocking caps an input-queued switch near 59% of capacity under uniform traffic
        # (Karol et al. 1987); the latency criterion (3 x zero-load) fires on the way up to that plateau.
        throughput, peak = float(r["saturation.throughput"]), float(r["saturation.peak_accepted"])
        assert 0.5 * bound < peak < bound, r
        assert 0.75 * peak < throughput <= peak, r
        assert float(r["saturation.rate.low"]) < float(r["saturation.rate.high"])
        # the row is the point's own summary.json
        with open(os.path.join(tmp_path / "out", r["dir"], "summary.json")) as f:
            s = json.load(f)
        assert s["command"] == "saturate"
        assert s["saturation"]["throughput"] == throughput
        assert os.path.exists(os.path.join(tmp_path / "out", r["dir"], "curve.svg"))
        with open(os.path.join(tmp_path / "out", r["dir"], "command.sh")) as f:
            assert " saturate " in f.read()
    # the larger mesh saturates lower (its middle cut carries more)
    assert float(rows[1]["saturation.throughput"]) < float(rows[0]["saturation.throughput"])
    again = script("sweep.py", spec, "--wormsim", wormsim, "--no-progress", timeout=300, check=0)
    assert "2 complete, 0 to run" in again.stderr, again.stderr


def test_saturate_options_in_a_spec_are_checked(tmp_path):
    for text, key, what in (
            ("{tolerance: 2}", "saturate.tolerance", "expected a number in (0, 1), got a number (2)"),
            ("{points: 1.5}", "saturate.points", "expected an integer from 0 to 100, got a number (1.5)"),
            # wormsim saturate splits --criterion at commas, spaces included, and refuses other names
            ("{criterion: foo}", "saturate.criterion",
             'expected a comma-separated list of throughput, latency, drain, got a string ("foo")'),
            ("{criterion: 'throughput, latency'}", "saturate.criterion",
             'expected a comma-separated list of throughput, latency, drain, got a string ("throughput, latency")'),
            ("{criterion: ',drain'}", "saturate.criterion",
             'expected a comma-separated list of throughput, latency, drain, got a string (",drain")'),
            ("{criterion: ''}", "saturate.criterion",
             'expected a comma-separated list of throughput, latency, drain, got a string ("")'),
            ("{low: 0.5, high: 0.1}", "saturate.low", "expected a rate below saturate.high (0.1), got 0.5"),
            ("{low: 0.2, high: 0.2}", "saturate.low", "expected a rate below saturate.high (0.2), got 0.2"),
            ("{speed: 1}", "saturate.speed", "unknown option (expected one of: criterion, tolerance"),
            ("[1]", "saturate", "expected a mapping")):
        path = write_spec(tmp_path / "s.yaml", f"base: {CONFIG}\noutput: out\nsaturate: {text}\n")
        try:
            specmod.load(path)
        except specmod.SpecError as e:
            assert str(e).startswith(f"{path}: {key}: {what}"), str(e)
        else:
            raise AssertionError(f"saturate: {text} was accepted")
    path = write_spec(tmp_path / "s.yaml", f"base: {CONFIG}\noutput: out\nsaturate: {{points: 4, low: 0.001}}\n")
    sp = specmod.load(path)
    assert sp.saturate_args() == ["--low", "0.001", "--points", "4"]
    for criterion in ("throughput,latency", "drain,", "latency"):
        path = write_spec(tmp_path / "s.yaml",
                          f"base: {CONFIG}\noutput: out\nsaturate: {{criterion: '{criterion}'}}\n")
        assert specmod.load(path).saturate_args() == ["--criterion", criterion]


def test_a_bad_saturate_option_stops_the_sweep_before_any_point_runs(wormsim, tmp_path):
    # before, every point ran and failed with wormsim saturate's own error (exit 3)
    out = tmp_path / "out"
    spec = write_spec(tmp_path / "sat.yaml", f"base: {CONFIG}\noutput: {out}\nsaturate: {{criterion: foo}}\n")
    proc = script("sweep.py", spec, "--workers", "1", "--wormsim", wormsim, "--no-progress", check=1)
    assert proc.stderr == (f"error: {spec}: saturate.criterion: expected a comma-separated list of throughput, "
                           'latency, drain, got a string ("foo")\n'), proc.stderr
    assert not out.exists()
