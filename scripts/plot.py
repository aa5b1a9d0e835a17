#!/usr/bin/python3
"""Pictures of wormsim runs and sweeps (matplotlib, Agg; PNG and SVG).

  scripts/plot.py links RUN [-o OUT]                  # link-utilisation heat map of a 2-D mesh/torus run
  scripts/plot.py links RUN --per-step [-o OUT]       # one map per schedule step (derived from messages.csv)
  scripts/plot.py links RUN --step 3 [-o OUT]
  scripts/plot.py sweep TABLE --x schedule.flits [--y metrics.completion_cycles ...] [--line tag.variant]
                    [--facet network.dims] [--where key=value ...] [-o OUT]
  scripts/plot.py contention RUN|TABLE [--by COL ...] [--per-message] [-o OUT]

-o OUT ending in .png, .svg or .pdf writes that file; without an extension OUT.png and
OUT.svg are both written. Each command has a default OUT (next to its input).
See docs/compare-and-plot.md. Exit codes: 0 written; 1 bad input; 2 bad command line.
"""

import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from wormsim_py import deps  # noqa: E402

deps.require("plot.py", ["yaml", "numpy", "pandas", "matplotlib", "seaborn"])

from wormsim_py import plotting  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib import colors as mcolors  # noqa: E402

from wormsim_py import table as tablemod  # noqa: E402
from wormsim_py.runs import NotDerivable, Run, RunError, coords, per_step_link_busy  # noqa: E402

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2

CONTENTION_RUN = [("port_wait_cycles", "port wait"), ("step_contention_cycles", "step contention"),
                  ("depth_contention_cycles", "depth contention"), ("background_cycles", "background"),
                  ("other_cycles", "other")]
CONTENTION_TABLE = [("metrics.port_wait.cycles", "port wait"),
                    ("metrics.step_contention.cycles", "step contention"),
                    ("metrics.depth_contention.cycles", "depth contention"),
                    ("metrics.background_contention.cycles", "background"),
                    ("metrics.other_delay.cycles", "other")]
CONTENTION_COLOURS = ["#8c8c8c", "#d65f5f", "#4878cf", "#ee854a", "#b47cc7"]
DEFAULT_Y = ["metrics.completion_cycles", "metrics.latency.mean"]
SWEEP_NUISANCE = ("repeat", "run.seed", "schedule.source")


class PlotError(Exception):
    pass


# --- link heat maps --------------------------------------------------------------------

def _grid_dims(run):
    net = run.network()
    if net is None:
        raise PlotError(f"{run.path}: needs summary.json (the network) and links.csv: give a run output folder")
    topology, dims = net
    if topology not in ("mesh", "torus", "line", "ring") or len(dims) not in (1, 2):
        shape = "x".join(str(d) for d in dims)
        raise PlotError(f"{run.path}: link heat maps cover 1-D and 2-D meshes and tori; this run is a "
                        f"{topology} {shape}")
    if run.links is None:
        raise PlotError(f"{run.path}: no links.csv in the run folder")
    return topology, (dims + [1])[:2]


def _link_geometry(links, dims):
    """Arrow start points and vectors (in grid units) for every directed link."""
    X, Y = dims
    offset = 0.11      # the two directions of a channel sit side by side
    shrink = 0.2       # gap at each node
    xs, ys, us, vs = [], [], [], []
    for r in links.itertuples(index=False):
        sx, sy = (coords(int(r.src), dims) + [0])[:2]
        d, direction = int(r.dim), int(r.dir)
        ex, ey = sx + (direction if d == 0 else 0), sy + (direction if d == 1 else 0)
        # perpendicular offset: to the right of the direction of travel (y grows downward)
        px, py = (0, offset * direction) if d == 0 else (-offset * direction, 0)
        if int(r.wrap):
            # wrap-around link: an arrow leaving the edge, and one entering the opposite edge
            k = X if d == 0 else Y
            t = ((sx if d == 0 else sy) + direction) % k
            if d == 0:
                xs += [sx + shrink * direction + px, t - 0.55 * direction + px]
                ys += [sy + py, sy + py]
                us += [0.35 * direction] * 2
                vs += [0.0, 0.0]
            else:
                xs += [sx + px, sx + px]
                ys += [sy + shrink * direction + py, t - 0.55 * direction + py]
                us += [0.0, 0.0]
                vs += [0.35 * direction] * 2
        else:
            xs.append(sx + shrink * (ex - sx) + px)
            ys.append(sy + shrink * (ey - sy) + py)
            us.append((1 - 2 * shrink) * (ex - sx))
            vs.append((1 - 2 * shrink) * (ey - sy))
    return np.array(xs), np.array(ys), np.array(us), np.array(vs)


def _expand_values(links, values):
    """Wrap links are drawn as two arrows: repeat their values accordingly."""
    out = []
    for w, v in zip(links["wrap"].astype(int), values):
        out += [v, v] if w else [v]
    return np.array(out, dtype=float)


def draw_link_map(ax, links, dims, values, norm, cmap, title, node_labels):
    X, Y = dims
    xs, ys, us, vs = _link_geometry(links, dims)
    vals = _expand_values(links, values)
    used = vals > 0
    width = max(0.0012, 0.045 / max(X, Y, 2))   # shaft width, a fraction of the axes width
    # unused links: thin grey; used links: coloured by utilisation
    if (~used).any():
        ax.quiver(xs[~used], ys[~used], us[~used], vs[~used], color="#d9d9d9", angles="xy", scale_units="xy",
                  scale=1, width=width * 0.6, headwidth=3.5, headlength=4, headaxislength=3.5, zorder=1)
    q = None
    if used.any():
        q = ax.quiver(xs[used], ys[used], us[used], vs[used], vals[used], cmap=cmap, norm=norm, angles="xy",
                      scale_units="xy", scale=1, width=width, headwidth=3.5, headlength=4, headaxislength=3.5,
                      zorder=2)
    gx, gy = np.meshgrid(np.arange(X), np.arange(Y))
    ax.scatter(gx.ravel(), gy.ravel(), s=max(2, 120 / max(X, Y)), color="black", zorder=3)
    if node_labels and max(X, Y) <= 8:
        for x in range(X):
            for y in range(Y):
                ax.annotate(f"({x},{y})" if Y > 1 else f"({x})", (x, y), textcoords="offset points",
                            xytext=(3, 3), fontsize=6, color="#444444", zorder=4)
    ax.set_xlim(-0.75, X - 0.25)
    ax.set_ylim(Y - 0.25, -0.75)  # y downward, (0,0) top-left as in `wormsim schedule draw`
    ax.set_aspect("equal")
    ticks = lambda n: list(range(n)) if n <= 16 else list(range(0, n, max(1, n // 8)))  # noqa: E731
    ax.set_xticks(ticks(X))
    ax.set_yticks(ticks(Y) if Y > 1 else [0])
    ax.set_xlabel("x")
    ax.set_ylabel("y" if Y > 1 else "")
    ax.set_title(title, fontsize=9)
    ax.tick_params(labelsize=7)
    return q


def _run_title(run):
    s = run.summary or {}
    name = (s.get("schedule") or {}).get("name") or os.path.basename(os.path.abspath(run.path))
    m = s.get("metrics") or {}
    return f"{name}\n{s.get('status', '?')}, completion {m.get('completion_cycles', '?')} cycles"


def plot_links(args):
    run = Run(args.run)
    topology, dims = _grid_dims(run)
    links = run.links
    cmap = plt.get_cmap(args.cmap).copy()

    if not args.per_step and args.step is None:
        values = links["utilisation"].astype(float).to_numpy()
        vmax = args.vmax or max(float(values.max()), 1e-9)
        norm = mcolors.Normalize(vmin=0, vmax=vmax)
        X, Y = dims
        fig, ax = plt.subplots(figsize=(min(14, 2 + 0.6 * X) + 1.2, min(14, 1.6 + 0.6 * Y) + 0.8),
                               layout="constrained")
        q = draw_link_map(ax, links, dims, values, norm, cmap, _run_title(run), not args.no_labels)
        sm = q if q is not None else plt.cm.ScalarMappable(norm=norm, cmap=cmap)
        cb = fig.colorbar(sm, ax=ax, shrink=0.85)
        cb.set_label("link utilisation (links.csv: busy cycles / cycles of the run)")
        out = args.out or os.path.join(run.folder, "link_utilisation")
        return _finish(fig, out)

    status = (run.summary or {}).get("status")
    if status != "completed":
        raise PlotError(f"{run.path}: per-step maps need a completed run (status {status}): worms still in "
                        f"the network carried only part of their flits; use the per-run map")
    try:
        busy = per_step_link_busy(run)
    except NotDerivable as e:
        raise PlotError(f"per-step maps not available: {e}") from None
    steps_df = run.steps
    if steps_df is None or not len(steps_df):
        raise PlotError(f"{run.path}: no schedule steps (steps.csv is empty): use the per-run map")
    durations = {int(r.step): (int(r.duration) if not pd.isna(r.duration) else None)
                 for r in steps_df.itertuples(index=False)}
    wanted = sorted(durations) if args.step is None else args.step
    for s in wanted:
        if s not in durations:
            raise PlotError(f"--step {s}: the run has steps 0..{max(durations)}")
    link_ids = links["link"].astype(int).to_numpy()
    per = {}
    for s in wanted:
        b = busy[busy["step"] == s].set_index("link")["busy_cycles"]
        d = durations[s]
        vals = b.reindex(link_ids, fill_value=0).to_numpy(dtype=float)
        per[s] = vals / d if d else vals * 0
    vmax = args.vmax or max([float(v.max()) for v in per.values()] + [1e-9])
    norm = mcolors.Normalize(vmin=0, vmax=vmax)
    n = len(wanted)
    ncols = min(n, max(1, int(math.ceil(math.sqrt(n)))))
    nrows = int(math.ceil(n / ncols))
    X, Y = dims
    cell_w = min(6.0, 1.2 + 0.35 * X)
    cell_h = min(6.0, 1.2 + 0.35 * Y) + 0.4
    fig, axes = plt.subplots(nrows, ncols, figsize=(cell_w * ncols + 1.4, cell_h * nrows + 0.9), squeeze=False,
                             layout="constrained")
    q = None
    for i, s in enumerate(wanted):
        ax = axes[i // ncols][i % ncols]
        start = steps_df.set_index("step")["start"].get(s)
        qq = draw_link_map(ax, links, dims, per[s], norm, cmap,
                           f"step {s}: cycles {start}..{start + durations[s] if durations[s] is not None else '?'}",
                           False)
        q = q or qq
    for j in range(n, nrows * ncols):
        axes[j // ncols][j % ncols].axis("off")
    sm = q if q is not None else plt.cm.ScalarMappable(norm=norm, cmap=cmap)
    cb = fig.colorbar(sm, ax=axes.ravel().tolist(), shrink=0.8)
    cb.set_label("utilisation within the step (busy cycles / step duration)")
    fig.suptitle(_run_title(run), fontsize=10)
    out = args.out or os.path.join(run.folder, "link_utilisation_steps" if args.step is None
                                   else "link_utilisation_step" + "_".join(str(s) for s in wanted))
    return _finish(fig, out)


# --- sweep line plots -------------------------------------------------------------------

def _parse_where(items, df):
    mask = pd.Series(True, index=df.index)
    for item in items or []:
        if "=" not in item:
            raise PlotError(f"--where {item}: expected COLUMN=VALUE")
        col, val = item.split("=", 1)
        if col not in df.columns:
            raise PlotError(f"--where {item}: no column {col} in the table")
        mask &= df[col].astype(str) == val
    return mask


def _axis_values(series):
    """Numeric x positions and tick labels: numbers as they are; lists like [8, 8] by node count."""
    def as_list(v):
        if isinstance(v, str) and v.startswith("["):
            try:
                x = json.loads(v)
                if isinstance(x, list) and all(isinstance(e, int) for e in x):
                    return x
            except ValueError:
                pass
        return None

    lists = series.map(as_list)
    if lists.notna().all() and len(series):
        if lists.map(len).max() == 1:   # [d] (hypercube dimension, ring size): the number itself
            pos = lists.map(lambda x: float(x[0]))
            return pos, {float(x[0]): str(x[0]) for x in lists}, None
        pos = lists.map(lambda x: float(np.prod(x)))
        labels = {float(np.prod(x)): "x".join(str(e) for e in x) for x in lists}
        return pos, labels, "nodes"
    num = pd.to_numeric(series, errors="coerce")
    if num.notna().all():
        return num.astype(float), None, None
    cats = sorted(series.astype(str).unique())
    idx = {c: float(i) for i, c in enumerate(cats)}
    return series.astype(str).map(idx), {v: k for k, v in idx.items()}, "category"


def _param_columns(df):
    cols = list(df.columns)
    if "point" in cols and "status" in cols:
        return cols[cols.index("point") + 1: cols.index("status")]
    return []


def _default_line(df):
    params = _param_columns(df)
    tags = [c for c in params if c.startswith("tag.")]
    if tags:
        return [tags[0]]
    if "schedule.algorithm" in params:
        return ["schedule.algorithm"]
    return []


def _load_table(path):
    try:
        df = tablemod.load_dataframe(path)
    except FileNotFoundError:
        raise PlotError(f"{path}: no such table (expected a sweep folder or its results.csv)") from None
    except (ValueError, OSError, pd.errors.ParserError) as e:
        raise PlotError(f"{path}: cannot read the table ({e})") from None
    if "status" not in df.columns or "point" not in df.columns:
        raise PlotError(f"{path}: not a sweep results table (no point/status columns)")
    return df


def _ok_rows(df, path):
    ok = df["status"].astype(str).eq("completed") & df.get("error", pd.Series("", index=df.index)).isna()
    dropped = int((~ok).sum())
    if dropped:
        print(f"plot: leaving out {dropped} row(s) of {path} that did not complete", file=sys.stderr)
    return df[ok]


def plot_sweep(args):
    df = _load_table(args.table)
    df = df[_parse_where(args.where, df)]
    df = _ok_rows(df, args.table)
    if not len(df):
        raise PlotError(f"{args.table}: no completed rows to plot")
    ys = args.y or DEFAULT_Y
    lines = args.line if args.line is not None else _default_line(df)
    facets = [args.facet] if args.facet else []
    for c in [args.x] + ys + lines + facets:
        if c not in df.columns:
            raise PlotError(f"{args.table}: no column {c} (columns: {', '.join(df.columns)})")
    for c in ys:
        if pd.to_numeric(df[c], errors="coerce").isna().all():
            raise PlotError(f"--y {c}: not a numeric column")

    used = set([args.x] + lines + facets)
    groups = [args.x] + lines + facets
    varying = [c for c in _param_columns(df) if c not in used and c not in SWEEP_NUISANCE
               and df[c].astype(str).groupby([df[g].astype(str) for g in groups]).nunique().max() > 1]
    if varying:
        print(f"plot: averaging over {', '.join(varying)} within each line "
              f"(use --line, --facet or --where to separate them)", file=sys.stderr)

    xpos, xlabels, xkind = _axis_values(df[args.x])
    df = df.assign(_x=xpos.to_numpy())
    facet_vals = [None]
    if facets:
        fpos, flabels, _ = _axis_values(df[args.facet])
        df = df.assign(_f=fpos.to_numpy())
        facet_vals = sorted(df["_f"].unique())
    nrows, ncols = len(ys), len(facet_vals)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols + (2.8 if lines else 0.4), 3.6 * nrows + 0.6),
                             squeeze=False, layout="constrained")
    colours = plt.get_cmap("tab10")
    keys = sorted(df.groupby(lines).groups.keys(), key=str) if lines else [None]
    handles = {}
    for fi, fv in enumerate(facet_vals):
        sub = df if fv is None else df[df["_f"] == fv]
        for yi, y in enumerate(ys):
            ax = axes[yi][fi]
            for li, key in enumerate(keys):
                part = sub
                if lines:
                    kt = key if isinstance(key, tuple) else (key,)
                    for c, v in zip(lines, kt):
                        part = part[part[c] == v]
                if not len(part):
                    continue
                vals = pd.to_numeric(part[y], errors="coerce")
                g = vals.groupby(part["_x"])
                agg = getattr(g, args.agg)()
                label = " / ".join(str(v) for v in (key if isinstance(key, tuple) else (key,))) if lines else y
                h, = ax.plot(agg.index, agg.to_numpy(), marker="o", markersize=4, label=label,
                             color=colours(li % 10))
                if g.size().max() > 1:
                    ax.fill_between(agg.index, g.min().to_numpy(), g.max().to_numpy(), color=colours(li % 10),
                                    alpha=0.15, linewidth=0)
                handles.setdefault(label, h)
            if args.logx or xkind == "nodes":
                ax.set_xscale("log", base=2)
            if args.logy:
                ax.set_yscale("log")
            xt = sorted(set(df["_x"]))
            if xlabels:
                ax.set_xticks(xt)
                ax.set_xticklabels([xlabels[v] for v in xt], rotation=30 if len(xt) > 6 else 0)
                ax.minorticks_off()
            elif len(xt) <= 12:   # the swept values themselves, written plainly (also on a log axis)
                ax.set_xticks(xt)
                ax.set_xticklabels([f"{v:g}" for v in xt], rotation=30 if len(xt) > 8 else 0)
                ax.minorticks_off()
            ax.set_xlabel(args.x)
            ax.set_ylabel(y)
            ax.grid(True, alpha=0.3)
            if fv is not None:
                ax.set_title(f"{args.facet} = {flabels[fv] if flabels else fv:g}"
                             if not flabels and isinstance(fv, float) else f"{args.facet} = {flabels[fv]}",
                             fontsize=10)
    if lines:
        axes[0][-1].legend(list(handles.values()), list(handles.keys()), title=" / ".join(lines),
                           loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, title_fontsize=8)
    band = " (band: min..max over the rows behind each point)" if df.groupby(
        [*lines, "_x"] + (["_f"] if facets else [])).size().max() > 1 else ""
    fig.suptitle(args.title or f"{args.agg} over the rows of each line and x{band}", fontsize=10)
    base = os.path.dirname(os.path.abspath(args.table)) if os.path.isfile(args.table) else args.table
    out = args.out or os.path.join(base, "plot_" + "_".join(y.split(".")[-1] if y.count(".") < 2 else
                                                             "_".join(y.split(".")[1:]) for y in ys)
                                   + "_vs_" + args.x.split(".")[-1])
    return _finish(fig, out)


# --- contention breakdown ---------------------------------------------------------------

def _stacked(ax, labels, parts, names, ylabel):
    x = np.arange(len(labels))
    bottom = np.zeros(len(labels))
    for vals, name, colour in zip(parts, names, CONTENTION_COLOURS):
        ax.bar(x, vals, bottom=bottom, label=name, color=colour, width=0.75)
        bottom += vals
    top = float(np.nanmax(bottom)) if len(bottom) else 0.0
    if top > 0:
        ax.set_ylim(0, top * 1.08)
    else:
        ax.set_ylim(0, 1)
        ax.text(0.5, 0.5, "no delay beyond the zero-load latency", transform=ax.transAxes, ha="center",
                va="center", color="#555555")
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_xticks(x)
    rot = 0 if len(labels) <= 8 and max((len(str(s)) for s in labels), default=0) <= 12 else 45
    ax.set_xticklabels(labels, rotation=rot, ha="right" if rot else "center", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)


def plot_contention(args):
    p = args.input
    # a run folder (even one whose set is incomplete: Run says what is wrong), not a sweep folder
    is_run = os.path.isdir(p) and not os.path.exists(os.path.join(p, tablemod.TABLE_CSV)) and any(
        os.path.lexists(os.path.join(p, f)) for f in ("messages.csv", "summary.json"))
    if is_run:
        run = Run(p)
        m = run.messages
        missing = [c for c, _ in CONTENTION_RUN if c not in m.columns]
        if missing:
            raise PlotError(f"{run.messages_path}: missing column(s) {', '.join(missing)}")
        m = m.assign(_g=m["step"].astype(int))
        groups = sorted(m["_g"].unique())
        labels = [("bg" if g < 0 else str(g)) for g in groups]
        sums = m.groupby("_g")[[c for c, _ in CONTENTION_RUN]].sum().reindex(groups).fillna(0)
        counts = m.groupby("_g").size().reindex(groups)
        parts = []
        for c, _ in CONTENTION_RUN:
            v = sums[c].to_numpy(dtype=float)
            parts.append(v / counts.to_numpy(dtype=float) if args.per_message else v)
        fig, ax = plt.subplots(figsize=(max(6, 0.45 * len(groups) + 3), 4.2), layout="constrained")
        _stacked(ax, labels, parts, [n for _, n in CONTENTION_RUN],
                 "cycles per message" if args.per_message else "cycles (sum over messages)")
        ax.set_xlabel("step" + (" (bg = background traffic)" if any(g < 0 for g in groups) else ""))
        ax.set_title("delay breakdown per step\n" + _run_title(run), fontsize=9)
        return _finish(fig, args.out or os.path.join(run.folder or os.path.dirname(run.messages_path), "contention"))

    df = _load_table(p)
    df = df[_parse_where(args.where, df)]
    df = _ok_rows(df, p)
    if not len(df):
        raise PlotError(f"{p}: no completed rows to plot")
    missing = [c for c, _ in CONTENTION_TABLE if c not in df.columns]
    if missing:
        raise PlotError(f"{p}: missing column(s) {', '.join(missing)}")
    if args.by:
        by = args.by
    else:
        # every varying parameter, leaving out those that follow from the ones already chosen
        # (e.g. schedule.algorithm next to the tag.variant that names it)
        by = []
        for c in _param_columns(df):
            if c in SWEEP_NUISANCE or df[c].astype(str).nunique() <= 1:
                continue
            if by and df[c].astype(str).groupby([df[b].astype(str) for b in by]).nunique().max() <= 1:
                continue
            by.append(c)
    for c in by:
        if c not in df.columns:
            raise PlotError(f"{p}: no column {c}")
    if by:
        keyframe = df[by].astype(str)
        df = df.assign(_k=keyframe.agg(" / ".join, axis=1))
        order = list(dict.fromkeys(df["_k"]))  # table order
    else:
        df = df.assign(_k="all")
        order = ["all"]
    cols = [c for c, _ in CONTENTION_TABLE]
    vals = df[cols].apply(pd.to_numeric, errors="coerce")
    if args.per_message:
        vals = vals.div(pd.to_numeric(df["metrics.messages"], errors="coerce"), axis=0)
    means = vals.groupby(df["_k"]).mean().reindex(order)
    parts = [means[c].to_numpy(dtype=float) for c in cols]
    longest = max((len(k) for k in order), default=0)
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(order) + 3), 3.6 + (0.07 * longest if len(order) > 8 or
                                                                          longest > 12 else 0.3)),
                           layout="constrained")
    _stacked(ax, order, parts, [n for _, n in CONTENTION_TABLE],
             ("mean cycles per message" if args.per_message else "cycles (sum over messages)") +
             (", mean over rows" if len(df) > len(order) else ""))
    ax.set_xlabel(" / ".join(by) if by else "")
    ax.set_title(args.title or "delay breakdown", fontsize=10)
    base = os.path.dirname(os.path.abspath(p)) if os.path.isfile(p) else p
    return _finish(fig, args.out or os.path.join(base, "plot_contention"))


def _finish(fig, out):
    written = plotting.save(fig, out)
    plt.close(fig)
    return written


def parse_args(argv):
    p = argparse.ArgumentParser(prog="plot.py", description="Pictures of wormsim runs and sweep tables.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    pl = sub.add_parser("links", help="link-utilisation heat map of a 1-D/2-D mesh or torus run")
    pl.add_argument("run", help="run output folder")
    g = pl.add_mutually_exclusive_group()
    g.add_argument("--per-step", action="store_true", help="one map per schedule step")
    g.add_argument("--step", type=int, action="append", metavar="S", help="map of step S (repeatable)")
    pl.add_argument("--vmax", type=float, help="utilisation at the top of the colour scale (default: the maximum)")
    pl.add_argument("--cmap", default="viridis", help="matplotlib colour map (default viridis)")
    pl.add_argument("--no-labels", action="store_true", help="no node labels on small meshes")
    pl.add_argument("-o", "--out", help="output file (.png/.svg/.pdf) or stem for both PNG and SVG")

    ps = sub.add_parser("sweep", help="metrics vs a swept parameter, one line per algorithm")
    ps.add_argument("table", help="sweep folder, or its results.csv / results.parquet")
    ps.add_argument("--x", required=True, metavar="COL", help="x axis column, e.g. schedule.flits or network.dims")
    ps.add_argument("--y", action="append", metavar="COL",
                    help=f"y column (repeatable; default {' and '.join(DEFAULT_Y)})")
    ps.add_argument("--line", action="append", metavar="COL",
                    help="one line per value of COL (repeatable; default: the first tag.* column, else "
                         "schedule.algorithm)")
    ps.add_argument("--facet", metavar="COL", help="one column of panels per value of COL")
    ps.add_argument("--where", action="append", metavar="COL=VALUE", help="keep only rows with COL = VALUE")
    ps.add_argument("--agg", choices=("mean", "median", "min", "max"), default="mean",
                    help="how rows with the same line and x are combined (default mean)")
    ps.add_argument("--logx", action="store_true")
    ps.add_argument("--logy", action="store_true")
    ps.add_argument("--title")
    ps.add_argument("-o", "--out", help="output file (.png/.svg/.pdf) or stem for both PNG and SVG")

    pc = sub.add_parser("contention", help="stacked bars of the delay breakdown (per step, or per sweep group)")
    pc.add_argument("input", help="run output folder, or sweep folder / results table")
    pc.add_argument("--by", action="append", metavar="COL", help="table: group rows by COL (repeatable; default: "
                    "every swept column that varies)")
    pc.add_argument("--where", action="append", metavar="COL=VALUE", help="table: keep only rows with COL = VALUE")
    pc.add_argument("--per-message", action="store_true", help="divide by the number of messages")
    pc.add_argument("--title")
    pc.add_argument("-o", "--out", help="output file (.png/.svg/.pdf) or stem for both PNG and SVG")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.command == "links":
            written = plot_links(args)
        elif args.command == "sweep":
            written = plot_sweep(args)
        else:
            written = plot_contention(args)
    except (PlotError, RunError) as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except OSError as e:
        print(f"error: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return EXIT_INPUT
    for w in written:
        print(w)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
