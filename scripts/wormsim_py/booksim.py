"""Side-by-side speed comparison with a BookSim2 binary the user built (`scripts/bench --booksim PATH`).

Each comparison workload is B1 (configs/bench/b1_uniform_16x16.yaml) with a few overrides, and
the BookSim2 configuration that simulates the same work: the same topology and size, routing
(dimension order), VCs, buffer depth, packet length, uniform Bernoulli load in packets per node
and cycle, and cycles of injection (two 20,000-cycle sample periods, as B1's `traffic.cycles`).
BookSim2's pipeline is matched too: a hop costs 3 cycles in its router and 1 on the link, so
wormsim runs with `timing.router_delay: 3` (docs/performance.md, "Against BookSim2"); on a torus
too, where BookSim2 must be told (`use_noc_latency = 0`, below).

Two workloads go beyond B1's: minimal adaptive routing (wormsim's `minimal-adaptive`, Duato's
protocol with a dimension-order escape VC, against BookSim2's `min_adapt`, the same scheme, with
`wait_for_tail_credit = 1` as wormsim's adaptive VCs wait for an empty buffer downstream), and a
measured load run near saturation, with the same phases on both sides: BookSim2's warm-up period
and one sample period, wormsim's `traffic.warmup_cycles` and `traffic.measure_cycles`, then each
one's drain (both keep offering traffic until the measured packets are delivered).

Self-traffic: BookSim2's uniform pattern may pick the source as the destination (1/N of its
packets, zero hops; it has no option to exclude it), wormsim's never does. So the rates compare
flit-hops per CPU second, each simulator's own: wormsim's `metrics.flit_hops` (flits times the
links they crossed), and for BookSim2 (its "Hops average" - 1) x packet length x the packets it
injected (the configured rate x nodes x the cycles it ran, "Time taken": it offers traffic until
its measured packets have drained): BookSim2 counts the routers a packet passes, one more than
its links (a self-addressed packet passes one router, no link), and its average takes in the
self-addressed packets.

Interface VCs: BookSim2's channels between a router and its node have `num_vcs` VCs (two packets may
eject into one node at once, interleaved), wormsim's one-port interface one ejection channel and one
injection buffer; BookSim2 has no setting for it, so the 2-VC workloads keep the difference
(docs/performance.md: it is most of the 2-VC mesh's latency gap at moderate load).

`scripts/bench --booksim PATH --latency RATES` compares what the two simulate rather than how fast:
each workload's network as a measured load run at each rate, on both sides (latency_settings), and
the mean packet and network latencies and accepted flit rates of each.

Standard library only. BookSim2 is never vendored or needed by tests: this module writes its
configuration, runs the binary it is given and reads its report.
"""

import os
import re
import subprocess

# BookSim2 settings that make its router the one B1 describes (see ../shared notes in the docs):
# one-cycle allocation stages, no speedup, separable input-first allocators, credit delay 1.
BOOKSIM_BASE = {
    "topology": "mesh", "k": 16, "n": 2, "routing_function": "dim_order",
    "num_vcs": 1, "vc_buf_size": 8, "wait_for_tail_credit": 0,
    "vc_allocator": "separable_input_first", "sw_allocator": "separable_input_first", "alloc_iters": 1,
    "credit_delay": 1, "routing_delay": 0, "vc_alloc_delay": 1, "sw_alloc_delay": 1, "st_final_delay": 1,
    "input_speedup": 1, "output_speedup": 1, "internal_speedup": "1.0",
    "traffic": "uniform", "packet_size": 16, "injection_rate": 0.005, "injection_rate_uses_flits": 0,
    "sim_type": "latency", "warmup_periods": 1, "sample_period": 20000, "max_samples": 2,
    "latency_thres": "-1.0", "priority": "none", "seed": 1,
    # One cycle on every link, as wormsim's timing.link_delay: by default (use_noc_latency = 1)
    # BookSim2's k-ary n-cube gives a torus's links 2 cycles each, channels and credits (a folded
    # torus's links are twice a mesh's), which adds a cycle per hop and one to the credit loop.
    "use_noc_latency": 0,
}

# wormsim's side: B1 with BookSim2's pipeline.
WORMSIM_BASE_SETS = ["timing.router_delay=3", "timing.link_delay=1", "timing.credit_delay=1"]


# network.routing on wormsim's side -> routing_function on BookSim2's.
ROUTING = {"dimension-order": "dim_order", "minimal-adaptive": "min_adapt"}


class Workload:
    """One comparison point: wormsim overrides of B1 and the matching BookSim2 overrides.

    `window`: a measured load run, BookSim2's warm-up period then its one sample period (each
    `sample_period` cycles), as wormsim's warm-up and measurement window."""

    def __init__(self, name, what, wormsim_sets, booksim, window=False):
        self.name, self.what, self.window = name, what, window
        self.booksim = dict(BOOKSIM_BASE, **booksim)
        phases = []
        if window:
            period = self.booksim["sample_period"]
            assert self.booksim["warmup_periods"] == 1 and self.booksim["max_samples"] == 2
            phases = [f"traffic={{pattern: uniform, rate: {self.booksim['injection_rate']}, "
                      f"flits: {self.booksim['packet_size']}, warmup_cycles: {period}, measure_cycles: {period}}}"]
        self.wormsim_sets = WORMSIM_BASE_SETS + phases + wormsim_sets

    def nodes(self):
        return self.booksim["k"] ** self.booksim["n"]

    def injection_cycles(self):
        """BookSim2's warm-up and sample periods: the cycles before its drain."""
        return self.booksim["sample_period"] * self.booksim["max_samples"]


def _load(rate, flits):
    return [f"traffic.rate={rate}", f"traffic.flits={flits}"]


WORKLOADS = [
    Workload("b1_16x16", "B1: 16x16 mesh, 1 VC, 8-flit buffers, 16-flit packets, uniform 0.005", [], {}),
    Workload("b1_8x8", "B1 at 8x8", ["network.dims=[8,8]"], {"k": 8}),
    Workload("torus_16x16_2vc", "16x16 torus, 2 VCs", ["network.topology=torus", "network.vcs=2"],
             {"topology": "torus", "num_vcs": 2}),
    Workload("mesh_16x16_2vc", "16x16 mesh, 2 VCs", ["network.vcs=2"], {"num_vcs": 2}),
    Workload("short_4vc", "16x16, 4-flit packets, 4 VCs x 4 flits, 0.02",
             _load(0.02, 4) + ["network.vcs=4", "network.buffer_flits=4"],
             {"packet_size": 4, "injection_rate": 0.02, "num_vcs": 4, "vc_buf_size": 4}),
    Workload("short_1vc", "16x16, 4-flit packets, 1 VC, 0.02", _load(0.02, 4),
             {"packet_size": 4, "injection_rate": 0.02}),
    Workload("mesh_8x8x8", "8x8x8 mesh", ["network.dims=[8,8,8]"], {"k": 8, "n": 3}),
    Workload("mesh_64x64", "64x64 mesh at 0.001", ["network.dims=[64,64]", "traffic.rate=0.001"],
             {"k": 64, "injection_rate": 0.001}),
    Workload("adaptive_2vc", "16x16 mesh, 2 VCs, minimal adaptive (escape VC)",
             ["network.vcs=2", "network.routing=minimal-adaptive"],
             {"num_vcs": 2, "routing_function": "min_adapt", "wait_for_tail_credit": 1}),
    # 0.007 packets/node/cycle: BookSim2's latency doubles its zero-load value there and it saturates
    # just above 0.0072 (docs/performance.md); wormsim's router saturates a little higher.
    Workload("window_near_sat", "B1's network near saturation (0.007), 12,500 warm-up + 12,500 measured cycles",
             [], {"injection_rate": 0.007, "sample_period": 12500}, window=True),
]


def booksim_config_text(settings):
    """BookSim2's configuration file for `settings` (its `key = value;` syntax)."""
    return "".join(f"{k} = {v};\n" for k, v in settings.items())


_REPORT = {
    "cycles": r"Time taken is (\d+) cycles",
    "hops_average": r"Hops average = ([0-9.eE+-]+)",
    "injected_packet_rate": r"Injected packet rate average = ([0-9.eE+-]+)",
    "accepted_flit_rate": r"Accepted flit rate average = ([0-9.eE+-]+)",
}


# The overall means of a measured run, read after its overall heading (parse_booksim_latency).
_LATENCY_REPORT = {
    "packet_latency": r"Packet latency average = ([0-9.eE+-]+)",
    "network_latency": r"Network latency average = ([0-9.eE+-]+)",
    "accepted_flit_rate": r"Accepted flit rate average = ([0-9.eE+-]+)",
}


def _last_lines(text):
    return "\n".join(text.strip().splitlines()[-5:])


def parse_booksim_report(text, patterns=None):
    """The figures of BookSim2's overall report; ValueError naming what is missing.

    Its exit status is not a verdict (it exits 0 after some failures), so the report decides."""
    out = {}
    for key, pattern in (patterns or _REPORT).items():
        found = re.findall(pattern, text)
        if not found:
            tail = _last_lines(text)
            raise ValueError(f"BookSim2 output has no \"{pattern.split('(')[0].strip()}\" line "
                             f"(did the run finish?); its last lines:\n{tail}")
        out[key] = float(found[-1])
    return out


_OVERALL = "====== Overall Traffic Statistics ======"


def parse_booksim_latency(text):
    """BookSim2's overall mean packet and network latencies (cycles) and accepted flit rate.

    Read after the overall heading only: each sample's report above it prints the same latency lines."""
    at = text.find(_OVERALL)
    if at < 0:
        raise ValueError(f"BookSim2 output has no \"{_OVERALL}\" section (did the run finish?); "
                         f"its last lines:\n{_last_lines(text)}")
    return parse_booksim_report(text[at:], _LATENCY_REPORT)


def latency_settings(workload, rate, cycles):
    """A measured load run of `workload` at `rate` packets/node/cycle on both sides: `cycles` of
    warm-up, then `cycles` measured, then each one's drain. Returns wormsim's --set list (the
    workload's, its traffic replaced by the phases) and BookSim2's settings (one warm-up period and
    one sample period)."""
    flits = workload.booksim["packet_size"]
    phases = (f"traffic={{pattern: uniform, rate: {rate}, flits: {flits}, "
              f"warmup_cycles: {cycles}, measure_cycles: {cycles}}}")
    booksim = dict(workload.booksim, injection_rate=rate, warmup_periods=1, sample_period=cycles, max_samples=1)
    return workload.wormsim_sets + [phases], booksim


def booksim_flit_hops(workload, report):
    """BookSim2's flit-hops over the cycles it ran (see the module text for why this way)."""
    packets = workload.booksim["injection_rate"] * workload.nodes() * report["cycles"]
    return (report["hops_average"] - 1) * workload.booksim["packet_size"] * packets


def cpu_seconds(argv, cwd=None):
    """Runs argv; returns (CPU seconds of the child, user + system, its stdout, its exit code)."""
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.stdout.close()
    return usage.ru_utime + usage.ru_stime, out, os.waitstatus_to_exitcode(status)
