"""What the columns of run outputs and sweep tables mean, and their units: the one place every
plot takes its axis labels, legend titles and captions from (docs/metrics.md defines them).

A column not declared here is shown by its raw name.
"""

import json

# column -> (name, unit); unit None for counts and categories
COLUMNS = {
    # swept or fixed config keys (docs/config-reference.md)
    "network.dims": ("network", "nodes"),
    "network.topology": ("topology", None),
    "network.port_model": ("port model", None),
    "network.ports": ("ports per node", None),
    "network.vcs": ("virtual channels per link", None),
    "network.buffer_flits": ("buffer depth", "flits per VC"),
    "timing.router_delay": ("router delay t_r", "cycles"),
    "timing.link_delay": ("link delay t_l", "cycles"),
    "timing.startup": ("startup t_s", "cycles"),
    "timing.credit_delay": ("credit delay", "cycles"),
    "schedule.algorithm": ("algorithm", None),
    "schedule.orientation": ("orientation", None),
    "schedule.flits": ("message length", "flits"),
    "schedule.mode": ("step release", None),
    "schedule.source": ("source node", None),
    "traffic.pattern": ("background pattern", None),
    "traffic.rate": ("offered background load", "packets/node/cycle"),
    "traffic.flits": ("background message length", "flits"),
    "traffic.cycles": ("background injection window", "cycles"),
    "run.seed": ("seed", None),
    "repeat": ("repeat", None),
    # summary.json metrics (docs/metrics.md)
    "metrics.completion_cycles": ("completion time", "cycles"),
    "metrics.messages": ("messages", None),
    "metrics.delivered": ("messages delivered", None),
    "metrics.tcd": ("TCD", "hops"),
    "metrics.flit_hops": ("flit-hops", None),
    "metrics.latency.mean": ("mean message latency", "cycles"),
    "metrics.latency.p50": ("median message latency", "cycles"),
    "metrics.latency.p99": ("99th percentile message latency", "cycles"),
    "metrics.latency.max": ("maximum message latency", "cycles"),
    "metrics.span_cycles": ("span", "cycles"),
    "metrics.simulated_cycles": ("simulated cycles", None),
    "metrics.flits_injected": ("flits injected", None),
    "metrics.flits_ejected": ("flits ejected", None),
    "metrics.link_utilisation.mean": ("mean link utilisation", "busy fraction"),
    "metrics.link_utilisation.max": ("maximum link utilisation", "busy fraction"),
    "metrics.link_utilisation.links_used": ("links used", None),
    "metrics.port_wait.cycles": ("port wait", "cycles, sum over messages"),
    "metrics.step_contention.cycles": ("step contention", "cycles, sum over messages"),
    "metrics.depth_contention.cycles": ("depth contention", "cycles, sum over messages"),
    "metrics.background_contention.cycles": ("background contention", "cycles, sum over messages"),
    "metrics.other_delay.cycles": ("other delay", "cycles, sum over messages"),
    "metrics.port_wait.messages": ("messages with port wait", None),
    "metrics.step_contention.messages": ("messages with step contention", None),
    "metrics.depth_contention.messages": ("messages with depth contention", None),
    "metrics.background_contention.messages": ("messages with background contention", None),
    "metrics.other_delay.messages": ("messages with other delay", None),
    "background.latency.mean": ("mean background latency", "cycles"),
    "background.latency.p99": ("99th percentile background latency", "cycles"),
    "background.latency.max": ("maximum background latency", "cycles"),
    "background.accepted_flits_per_node_cycle": ("accepted background load", "flits/node/cycle"),
    "background.offered_rate": ("offered background load", "packets/node/cycle"),
    "background.messages": ("background messages", None),
    "load.offered.mean": ("offered load (window)", "flits/node/cycle"),
    "load.accepted.mean": ("accepted load (window)", "flits/node/cycle"),
    "repetitions.completion_cycles.mean": ("mean completion per repetition", "cycles"),
    "repetitions.completion_cycles.p95": ("95th percentile completion per repetition", "cycles"),
    "repetitions.background_contention_cycles.mean": ("background contention per repetition", "cycles, mean"),
    "summary.schedule.steps": ("schedule steps", None),
    "host.wall_seconds": ("wall time", "s"),
    "host.simulation_seconds": ("simulation time", "s"),
    "host.sweep_seconds": ("wall time per point", "s"),
    # messages.csv / steps.csv / links.csv columns
    "port_wait_cycles": ("port wait", "cycles"),
    "step_contention_cycles": ("step contention", "cycles"),
    "depth_contention_cycles": ("depth contention", "cycles"),
    "background_cycles": ("background contention", "cycles"),
    "other_cycles": ("other delay", "cycles"),
    "latency": ("message latency", "cycles"),
    "utilisation": ("link utilisation", "busy cycles / cycles of the run"),
}


def name(col):
    """Short name of a column (legend titles, captions): 'message length'; a tag is its NAME."""
    if col in COLUMNS:
        return COLUMNS[col][0]
    if col.startswith("tag."):
        return col[4:]
    return col


def label(col, extra=None):
    """Axis label with the unit: 'completion time (cycles)'; `extra` (e.g. 'mean per message')
    joins the unit in the parentheses."""
    if col not in COLUMNS:
        return col if extra is None else f"{col} ({extra})"
    n, unit = COLUMNS[col]
    parts = [p for p in (unit, extra) if p]
    return f"{n} ({', '.join(parts)})" if parts else n


def value_text(value):
    """A parameter value as a reader writes it: [8, 8, 8] -> 8x8x8, 0.004 -> 0.004, None -> none."""
    if value is None or (isinstance(value, float) and value != value):
        return "none"
    v = value
    if isinstance(v, str) and v[:1] in "[{":
        try:
            v = json.loads(v)
        except ValueError:
            return value
    if isinstance(v, list) and v and all(isinstance(e, int) and not isinstance(e, bool) for e in v):
        return "x".join(str(e) for e in v) if len(v) > 1 else str(v[0])
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def setting(col, value):
    """'network 8x8x8', 'message length 64 flits': a fixed parameter for a caption."""
    unit = COLUMNS.get(col, (None, None))[1]
    text = value_text(value)
    if col == "network.dims" or unit is None:
        return f"{name(col)} {text}" if col in COLUMNS or col.startswith("tag.") else f"{col} = {text}"
    return f"{name(col)} {text} {unit}"
