"""The shipped study of broadcasts under steady load (configs/sweeps/bcast_under_load_8x8.yaml,
docs/load-studies.md "Broadcasts under steady load"), shrunk to seconds: the same base config,
algorithms and plot, with a shorter window, fewer repetitions and two loads. Every point completes
every repetition, the near-saturation load slows every algorithm down, and plot.py draws the
study's figure from the table."""

import os

import pandas as pd
import yaml

from conftest import REPO, script

SPEC = os.path.join(REPO, "configs", "sweeps", "bcast_under_load_8x8.yaml")
# the figure's columns, as in the spec's header and docs/load-studies.md
Y = ["repetitions.completion_cycles.mean", "repetitions.completion_cycles.p95",
     "repetitions.background_contention_cycles.mean"]


def test_shrunken_study_runs_and_plots(wormsim, tmp_path):
    with open(SPEC, encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    spec["base"] = os.path.join(os.path.dirname(SPEC), spec["base"])
    spec["output"] = str(tmp_path / "study")
    spec["set"] = {"traffic.warmup_cycles": 300, "traffic.measure_cycles": 600, "schedule.repeat.count": 4}
    spec["grid"]["traffic.rate"] = [0.001, 0.03]
    spec["repeats"] = 1
    small = tmp_path / "spec.yaml"
    small.write_text(yaml.safe_dump(spec))
    script("sweep.py", small, "--workers", "1", "--wormsim", wormsim, "--no-progress", check=0, timeout=120)

    table = pd.read_csv(tmp_path / "study" / "results.csv")
    algorithms = spec["grid"]["schedule.algorithm"]
    assert sorted(table["schedule.algorithm"]) == sorted(algorithms * 2)
    assert set(table["status"]) == {"completed"}
    assert set(table["repetitions.completed"]) == {4}
    assert set(table["repetitions.start_cycle"]) == {300}  # after the warm-up
    for algorithm in algorithms:
        rows = table[table["schedule.algorithm"] == algorithm].set_index("traffic.rate")
        light, heavy = rows.loc[0.001], rows.loc[0.03]
        assert heavy["repetitions.completion_cycles.mean"] > light["repetitions.completion_cycles.mean"], algorithm
        assert heavy["repetitions.background_contention_cycles.mean"] > \
            light["repetitions.background_contention_cycles.mean"], algorithm
        # the background offered is the configured one (8-flit packets); the broadcasts come on top
        assert abs(heavy["load.offered.mean"] - 8 * 0.03) < 0.02, algorithm
        assert heavy["load.accepted.mean"] > heavy["load.offered.mean"], algorithm

    args = ["sweep", tmp_path / "study", "--x", "traffic.rate", "--line", "schedule.algorithm",
            "--where", "status=completed", "--logy"]
    for y in Y:
        args += ["--y", y]
    script("plot.py", *args, "-o", tmp_path / "figure.png", check=0)
    assert (tmp_path / "figure.png").stat().st_size > 10000
