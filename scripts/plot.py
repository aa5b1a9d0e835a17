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
import difflib
import json
import math
import os
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from wormsim_py import deps  # noqa: E402

deps.require("plot.py", ["yaml", "numpy", "pandas", "matplotlib", "seaborn"])

from wormsim_py import plotting  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402
import yaml  # noqa: E402
from matplotlib import colors as mcolors  # noqa: E402
from matplotlib import ticker as mticker  # noqa: E402

from wormsim_py import columns  # noqa: E402
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


# --- sweep tables: columns, rows, fixed parameters ---------------------------------------

def _need_columns(df, cols, where):
    """Each of cols must be a column of df; a typo is answered with the nearest column."""
    names = [str(c) for c in df.columns]
    for c in cols:
        if c not in df.columns:
            close = difflib.get_close_matches(c, names, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]}?)" if close else " (see the header of results.csv)"
            raise PlotError(f"{where}: no column {c}{hint}")


def _yaml_value(text):
    """A value as the config reads it: '[8,8,8]' and '[8, 8, 8]' are the same list, '64' and
    '64.0' the same number."""
    try:
        v = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return float(v) if isinstance(v, int) and not isinstance(v, bool) else v


def _cell_values(series):
    """The table's cells parsed as YAML (lists are JSON text in the table), None for empty ones."""
    parsed = {}
    for v in series.unique():
        parsed[v] = None if pd.isna(v) else _yaml_value(str(v)) if isinstance(v, str) else \
            (float(v) if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) else v)
    return series.map(parsed)


def _parse_where(items, df, path):
    mask = pd.Series(True, index=df.index)
    for item in items or []:
        if "=" not in item:
            raise PlotError(f"--where {item}: expected COLUMN=VALUE")
        col, text = item.split("=", 1)
        _need_columns(df, [col], f"--where {item}")
        want = _yaml_value(text)
        have = _cell_values(df[col])
        match = have.map(lambda v: v == want)
        if not match.any():
            values = ", ".join(columns.value_text(v) for v in list(dict.fromkeys(df[col].dropna()))[:12])
            raise PlotError(f"{path}: no row has {col} = {columns.value_text(want)} "
                            f"(its values: {values or 'none'})")
        mask &= match
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


def _fixed_settings(df, leave_out):
    """'network 8x8x8, message length 64 flits, ...': the parameter columns with one value in
    the rows plotted (the sweep's set: values, and swept ones that --where pinned)."""
    out = []
    for c in _param_columns(df):
        if c in leave_out or c in SWEEP_NUISANCE:
            continue
        vals = df[c].dropna().astype(str).unique()
        if len(vals) == 1:
            out.append(columns.setting(c, vals[0]))
        elif len(vals) == 0 and c in df.columns:
            out.append(f"{columns.name(c)} none")
    return out


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


def _description(path):
    """The sweep's description (its spec.yaml, next to the table), or None."""
    folder = os.path.dirname(os.path.abspath(path)) if os.path.isfile(path) else path
    try:
        with open(os.path.join(folder, "spec.yaml"), encoding="utf-8") as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return None
    d = doc.get("description") if isinstance(doc, dict) else None
    return d if isinstance(d, str) and d.strip() else None


def _ok_rows(df, path):
    ok = df["status"].astype(str).eq("completed") & df.get("error", pd.Series("", index=df.index)).isna()
    dropped = int((~ok).sum())
    if dropped:
        print(f"plot: leaving out {dropped} row(s) of {path} that did not complete", file=sys.stderr)
    return df[ok]


def _caption(parts, width=110):
    return "\n".join(textwrap.wrap("; ".join(p for p in parts if p), width))


def _readable_ticks(fig, ax, positions, labels):
    """Ticks at the swept values, labelled as given, unless the labels would overlap: then
    rotate them, and if even that overlaps, let matplotlib thin the ticks."""
    ax.set_xticks(positions)
    ax.set_xticklabels(labels)
    ax.minorticks_off()
    renderer = fig.canvas.get_renderer()

    def overlap():
        boxes = sorted((t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()),
                       key=lambda b: b.x0)
        return any(a.x1 + 2 > b.x0 for a, b in zip(boxes, boxes[1:]))

    if not overlap():
        return
    ax.tick_params(axis="x", labelrotation=35)
    for t in ax.get_xticklabels():
        t.set_horizontalalignment("right")
    if not overlap():
        return
    ax.tick_params(axis="x", labelrotation=0)
    for t in ax.get_xticklabels():
        t.set_horizontalalignment("center")
    if ax.get_xscale() == "log":
        ax.xaxis.set_major_locator(mticker.LogLocator(base=ax.xaxis.get_transform().base, numticks=8))
    else:
        ax.xaxis.set_major_locator(mticker.MaxNLocator(nbins=6))
    ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))


def _wrap_label(text, width=30):
    """A long axis label on two lines, the unit on the second."""
    if len(text) <= width or " (" not in text:
        return text
    head, unit = text.split(" (", 1)
    return f"{head}\n({unit}"


def _hollow_markers(handles, order):
    """Open markers, each line's a little smaller than the one before: where lines coincide,
    every marker shape stays visible around the ones drawn over it (and the dash patterns
    interleave)."""
    k = 0
    for h in handles:
        if not hasattr(h, "get_marker") or h.get_marker() in (None, "None", "", " "):
            continue
        h.set_markeredgecolor(h.get_color())
        h.set_markerfacecolor("none")
        h.set_markeredgewidth(1.4)
        h.set_markersize(max(4.0, 10.0 - 1.5 * (k % max(1, len(order)))))
        k += 1


BANDS = {"ci": ("ci", 95), "range": ("pi", 100), "sd": "sd", "none": None}
BAND_TEXT = {"ci": "band: 95% bootstrap confidence interval", "range": "band: min..max",
             "sd": "band: ±1 standard deviation", "none": ""}


def plot_sweep(args):
    df = _load_table(args.table)
    ys = args.y or DEFAULT_Y
    lines = args.line if args.line is not None else _default_line(df)
    facets = [args.facet] if args.facet else []
    _need_columns(df, [args.x] + ys + lines + facets, args.table)
    df = df[_parse_where(args.where, df, args.table)]
    df = _ok_rows(df, args.table)
    if not len(df):
        raise PlotError(f"{args.table}: no completed rows to plot")
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
    line_title = " / ".join(columns.name(c) for c in lines)
    df["_line"] = df[lines].apply(lambda r: " / ".join(columns.value_text(v) for v in r), axis=1) if lines else "all"
    # lines in table order: the order the spec gives the values in
    line_order = list(dict.fromkeys(df["_line"]))
    facet_order = None
    if facets:
        fpos, flabels, _ = _axis_values(df[args.facet])
        df["_facet"] = [f"{columns.name(args.facet)} {flabels[p] if flabels else columns.value_text(v)}"
                        for p, v in zip(fpos, df[args.facet])]
        facet_order = [df["_facet"][fpos == p].iloc[0] for p in sorted(fpos.unique())]
    long = df.melt(id_vars=[c for c in ("_x", "_line", "_facet") if c in df.columns], value_vars=ys,
                   var_name="_metric", value_name="_value")
    long["_value"] = pd.to_numeric(long["_value"], errors="coerce")

    per_point = df.groupby(["_line", "_x"] + (["_facet"] if facets else [])).size()
    n_rows = int(per_point.max())
    g = sns.relplot(data=long, kind="line", x="_x", y="_value", hue="_line", style="_line", hue_order=line_order,
                    style_order=line_order, markers=True, dashes=True, estimator=args.agg,
                    errorbar=BANDS[args.band] if n_rows > 1 else None, seed=0,
                    row="_metric" if len(ys) > 1 else None, row_order=ys if len(ys) > 1 else None,
                    col="_facet" if facets else None, col_order=facet_order,
                    height=3.0, aspect=1.45, markersize=7, linewidth=1.6, palette="colorblind",
                    facet_kws={"sharey": "row", "sharex": True, "margin_titles": False},
                    legend="auto" if lines else False)
    fig = g.figure
    g.set_titles(template="{col_name}" if facets else "")
    xt = sorted(set(df["_x"]))
    for (row, col), ax in np.ndenumerate(g.axes):
        y = ys[row]
        ax.set_ylabel(_wrap_label(columns.label(y, "log scale" if args.logy else None)) if col == 0 else "")
        _hollow_markers(ax.get_lines(), line_order)
        if args.logx or xkind == "nodes":
            ax.set_xscale("log", base=2)
        if args.logy:
            ax.set_yscale("log")
            # 100, 200, 500, 1000 ... written out: a narrow log range otherwise shows one label
            ax.yaxis.set_major_locator(mticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))
            ax.yaxis.set_minor_formatter(mticker.NullFormatter())
        ax.grid(True, alpha=0.3)
        ax.set_xlabel(columns.label(args.x, "log scale" if ax.get_xscale() == "log" else None)
                      if row == len(ys) - 1 else "")
    for ax in g.axes[-1]:
        if xlabels:
            _readable_ticks(fig, ax, xt, [xlabels[v] for v in xt])
        elif len(xt) <= 12:
            _readable_ticks(fig, ax, xt, [f"{v:g}" for v in xt])
    if lines and g.legend is not None:
        g.legend.set_title(line_title)
        _hollow_markers(g.legend.legend_handles if hasattr(g.legend, "legend_handles")
                        else g.legend.legendHandles, line_order)
    how = {"mean": "mean", "median": "median", "min": "minimum", "max": "maximum"}[args.agg]
    reps = f"each point: {how} of {n_rows} rows" if n_rows > 1 else ""
    if n_rows > 1 and BAND_TEXT[args.band]:
        reps += f" ({BAND_TEXT[args.band]})"
    fixed = _fixed_settings(df, used | set(ys))
    title = args.title or _description(args.table) or "sweep " + os.path.basename(os.path.abspath(args.table))
    fig.suptitle(title + "\n" + _caption(["fixed: " + ", ".join(fixed) if fixed else "", reps]), fontsize=9,
                 y=1.0, va="bottom")
    base = os.path.dirname(os.path.abspath(args.table)) if os.path.isfile(args.table) else args.table
    out = args.out or os.path.join(base, "plot_" + "_".join(y.split(".")[-1] if y.count(".") < 2 else
                                                             "_".join(y.split(".")[1:]) for y in ys)
                                   + "_vs_" + args.x.split(".")[-1])
    return _finish(fig, out)


# --- contention breakdown ---------------------------------------------------------------

def _breakdown(fig, labels, parts, names, unit, xlabel):
    """The delay split as small multiples: the stacked total, then one panel per non-zero part
    with a y scale of its own, so a part a hundred times smaller than the others is still seen."""
    shown = [i for i, v in enumerate(parts) if np.nansum(v) > 0]
    zero = [names[i] for i in range(len(parts)) if i not in shown]
    axes = fig.subplots(len(shown) + 1, 1, sharex=True, squeeze=False)[:, 0]
    x = np.arange(len(labels))
    bottom = np.zeros(len(labels))
    ax = axes[0]
    for vals, nm, colour in zip(parts, names, CONTENTION_COLOURS):
        ax.bar(x, vals, bottom=bottom, label=nm, color=colour, width=0.75)
        bottom += np.nan_to_num(vals)
    top = float(np.nanmax(bottom, initial=0))
    ax.set_ylim(0, top * 1.1 if top > 0 else 1)
    ax.set_title("all parts, stacked" + (f" (zero: {', '.join(zero)})" if zero and shown else ""),
                 fontsize=9, loc="left")
    ax.legend(fontsize=7, ncol=len(names), loc="lower left", bbox_to_anchor=(0, 1.12), frameon=False)
    if not shown:
        ax.text(0.5, 0.5, "no delay beyond the zero-load latency", transform=ax.transAxes, ha="center",
                va="center", color="#555555")
    for ax, i in zip(axes[1:], shown):
        ax.bar(x, parts[i], color=CONTENTION_COLOURS[i], width=0.75)
        ax.set_ylim(0, float(np.nanmax(parts[i])) * 1.1)
        ax.set_title(f"{names[i]} (own scale)", fontsize=9, loc="left")
    for ax in axes:
        ax.grid(True, axis="y", alpha=0.3)
        ax.yaxis.set_major_locator(mticker.MaxNLocator(nbins=3))
        ax.tick_params(labelsize=8)
    fig.supylabel(unit, fontsize=9)
    axes[-1].set_xlim(-0.6, len(labels) - 0.4)
    axes[-1].set_xticks(x)
    rot = 0 if len(labels) <= 8 and max((len(str(s)) for s in labels), default=0) <= 12 else 40
    axes[-1].set_xticklabels(labels, rotation=rot, ha="right" if rot else "center", fontsize=8)
    axes[-1].set_xlabel(xlabel)
    return axes


def _contention_figure(parts, n_groups, longest):
    panels = 1 + sum(1 for v in parts if np.nansum(v) > 0)
    width = max(6.5, 0.45 * n_groups + 3)
    height = 1.35 * panels + 1.5 + (0.07 * longest if n_groups > 8 or longest > 12 else 0)
    return plt.figure(figsize=(width, height), layout="constrained")


def plot_contention(args):
    p = args.input
    # a run folder (even one whose set is incomplete: Run says what is wrong), not a sweep folder
    is_run = os.path.isdir(p) and not os.path.exists(os.path.join(p, tablemod.TABLE_CSV)) and any(
        os.path.lexists(os.path.join(p, f)) for f in ("messages.csv", "summary.json"))
    unit = "cycles per message" if args.per_message else "cycles, sum over messages"
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
        fig = _contention_figure(parts, len(groups), 2)
        _breakdown(fig, labels, parts, [n for _, n in CONTENTION_RUN], unit,
                   "step" + (" (bg = background traffic)" if any(g < 0 for g in groups) else ""))
        fig.suptitle("delay beyond the zero-load latency, per step\n" + _run_title(run), fontsize=9)
        return _finish(fig, args.out or os.path.join(run.folder or os.path.dirname(run.messages_path), "contention"))

    df = _load_table(p)
    _need_columns(df, args.by or [], p)
    df = df[_parse_where(args.where, df, p)]
    df = _ok_rows(df, p)
    if not len(df):
        raise PlotError(f"{p}: no completed rows to plot")
    _need_columns(df, [c for c, _ in CONTENTION_TABLE], p)
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
    if by:
        keyframe = df[by].apply(lambda col: col.map(columns.value_text))
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
    fig = _contention_figure(parts, len(order), max((len(k) for k in order), default=0))
    rows = df.groupby("_k").size()
    per_bar = (f", mean of {rows.min()} rows per bar" if rows.min() == rows.max()
               else f", mean of {rows.min()}..{rows.max()} rows per bar") if rows.max() > 1 else ""
    _breakdown(fig, order, parts, [n for _, n in CONTENTION_TABLE], unit + per_bar,
               " / ".join(columns.name(b) for b in by) if by else "")
    fixed = _fixed_settings(df, set(by))
    title = args.title or _description(p) or "delay breakdown"
    fig.suptitle(title + "\ndelay beyond the zero-load latency" +
                 ("\n" + _caption(["fixed: " + ", ".join(fixed)], 100) if fixed else ""), fontsize=9)
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
    ps.add_argument("--where", action="append", metavar="COL=VALUE",
                    help="keep only rows with COL = VALUE (compared as YAML values: [8,8] matches [8, 8])")
    ps.add_argument("--agg", choices=("mean", "median", "min", "max"), default="mean",
                    help="how rows with the same line and x are combined (default mean)")
    ps.add_argument("--band", choices=tuple(BANDS), default="ci",
                    help="band around each line where several rows make a point: ci (95%% bootstrap confidence "
                         "interval of --agg, default), range (min..max), sd, none")
    ps.add_argument("--logx", action="store_true")
    ps.add_argument("--logy", action="store_true")
    ps.add_argument("--title")
    ps.add_argument("-o", "--out", help="output file (.png/.svg/.pdf) or stem for both PNG and SVG")

    pc = sub.add_parser("contention", help="stacked bars of the delay breakdown (per step, or per sweep group)")
    pc.add_argument("input", help="run output folder, or sweep folder / results table")
    pc.add_argument("--by", action="append", metavar="COL", help="table: group rows by COL (repeatable; default: "
                    "every swept column that varies)")
    pc.add_argument("--where", action="append", metavar="COL=VALUE",
                    help="table: keep only rows with COL = VALUE (compared as YAML values)")
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
