#!/usr/bin/python3
"""Compare two wormsim runs message by message.

  scripts/compare_traces.py A B                      # report, exit 0
  scripts/compare_traces.py A B --tolerance 0        # regression check: exit 1 on any difference
  scripts/compare_traces.py A B --tolerance 0.02 --abs-tolerance 2 --plot diff.png --json diff.json

A and B are run output folders (or messages.csv files). Messages are matched by
(step, src, dst, packet) (and their order among equal keys). The report gives
per-message and per-step latency deltas, the first divergence, messages found on
one side only, and the deltas of every summary metric. See docs/compare-and-plot.md.

Exit codes: 0 no difference beyond the tolerance (always 0 without --tolerance);
1 differences beyond the tolerance; 2 bad command line or unreadable input.
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

deps.require("compare_traces.py", ["numpy", "pandas"], exit_code=2)

import pandas as pd  # noqa: E402

from wormsim_py import atomicio  # noqa: E402
from wormsim_py.runs import Run, RunError, flat_metrics  # noqa: E402

KEY = ["step", "src", "dst", "packet", "occurrence"]
TIMES = ["release", "inject", "header_arrival", "delivered"]
DELTA_FIELDS = ["latency", "release", "inject", "header_arrival", "delivered", "blocked_cycles",
                "port_wait_cycles", "step_contention_cycles", "depth_contention_cycles", "background_cycles",
                "other_cycles"]
CHECKED_MESSAGE_FIELDS = ["latency", "delivered"]
EXIT_SAME, EXIT_DIFFERENT, EXIT_ERROR = 0, 1, 2


def parse_args(argv):
    p = argparse.ArgumentParser(prog="compare_traces.py",
                                description="Compare two wormsim runs (folders or messages.csv files).")
    p.add_argument("a", metavar="A", help="reference run folder or messages.csv")
    p.add_argument("b", metavar="B", help="run folder or messages.csv to compare with A")
    p.add_argument("--tolerance", type=float, metavar="REL",
                   help="relative tolerance (0.01 = 1%%); with it the exit status is 1 if any latency, "
                        "delivery time, step duration or summary metric differs by more, or a message "
                        "is on one side only")
    p.add_argument("--abs-tolerance", type=float, default=0.0, metavar="N",
                   help="absolute tolerance (cycles, or the metric's unit); a value within either "
                        "tolerance passes (implies the check if --tolerance is not given: then REL = 0)")
    p.add_argument("--top", type=int, default=10, metavar="N", help="list the N largest message deltas (default 10)")
    p.add_argument("--include-host", action="store_true", help="also compare summary.json host timing")
    p.add_argument("--json", metavar="FILE", help="write the full report as JSON")
    p.add_argument("--messages-csv", metavar="FILE", help="write the matched messages with A, B and delta columns")
    p.add_argument("--plot", metavar="FILE",
                   help="draw the per-step comparison (.png or .svg; no extension: both)")
    args = p.parse_args(argv)
    if args.tolerance is not None and (args.tolerance < 0 or math.isnan(args.tolerance)):
        p.error("--tolerance: expected a number >= 0")
    if args.abs_tolerance < 0 or math.isnan(args.abs_tolerance):
        p.error("--abs-tolerance: expected a number >= 0")
    if args.top < 0:
        p.error("--top: expected an integer >= 0")
    args.check = args.tolerance is not None or args.abs_tolerance > 0
    if args.tolerance is None:
        args.tolerance = 0.0
    return args


def within(a, b, rel, abs_tol):
    """Do a and b agree within the tolerances? Missing values agree only with missing values."""
    a_na = a is None or (isinstance(a, float) and math.isnan(a)) or a is pd.NA
    b_na = b is None or (isinstance(b, float) and math.isnan(b)) or b is pd.NA
    if a_na or b_na:
        return a_na and b_na
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
            and not isinstance(b, bool):
        d = abs(float(b) - float(a))
        return d <= abs_tol or d <= rel * max(abs(float(a)), abs(float(b)))
    return a == b


def keyed(msgs):
    m = msgs.copy()
    m["occurrence"] = m.groupby(["step", "src", "dst", "packet"], sort=False).cumcount()
    return m


def key_text(r):
    pkt = f' packet "{r["packet"]}"' if r["packet"] != "" else ""
    occ = f" #{int(r['occurrence']) + 1}" if r["occurrence"] else ""
    src = r.get("src_coord") or r["src"]
    dst = r.get("dst_coord") or r["dst"]
    step = "background" if int(r["step"]) < 0 else f"step {int(r['step'])}"
    return f"{step} {src} -> {dst}{pkt}{occ}"


def _num(v):
    if v is None or v is pd.NA:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    if hasattr(v, "item"):
        v = v.item()
    return v


def compare_messages(a, b, args):
    ka, kb = keyed(a.messages), keyed(b.messages)
    merged = ka.merge(kb, on=KEY, how="outer", suffixes=("_a", "_b"), indicator=True)
    only_a = merged[merged["_merge"] == "left_only"]
    only_b = merged[merged["_merge"] == "right_only"]
    both = merged[merged["_merge"] == "both"].copy()
    for f in DELTA_FIELDS:
        if f"{f}_a" in both.columns and f"{f}_b" in both.columns:
            both[f"{f}_delta"] = both[f"{f}_b"] - both[f"{f}_a"]
    both = both.sort_values(["id_a"]).reset_index(drop=True)

    field_stats = {}
    for f in DELTA_FIELDS:
        col = f"{f}_delta"
        if col not in both.columns:
            continue
        d = both[col]
        differs = both[f"{f}_a"].isna() != both[f"{f}_b"].isna()
        differs |= d.fillna(0).ne(0)
        nz = d[d.fillna(0).ne(0)].dropna()
        field_stats[f] = {
            "differing": int(differs.sum()),
            "max_abs_delta": _num(nz.abs().max()) if len(nz) else 0,
            "mean_delta": _num(d.dropna().mean()) if d.notna().any() else None,
        }

    # messages whose checked fields differ beyond the tolerance
    beyond = []
    for i, r in both.iterrows():
        for f in CHECKED_MESSAGE_FIELDS:
            if not within(_num(r[f"{f}_a"]), _num(r[f"{f}_b"]), args.tolerance, args.abs_tolerance):
                beyond.append(i)
                break

    # first divergence: earliest event (in either run) of a message whose timing differs,
    # or that exists on one side only
    candidates = []
    for _, r in both.iterrows():
        diff_fields = [f for f in TIMES if _num(r[f"{f}_a"]) != _num(r[f"{f}_b"])]
        if diff_fields:
            t = min(_num(r[f"{f}_{s}"]) for f in diff_fields for s in "ab" if _num(r[f"{f}_{s}"]) is not None)
            candidates.append((t, 0, _num(r["id_a"]), r, diff_fields))
    for side, rows in (("a", only_a), ("b", only_b)):
        for _, r in rows.iterrows():
            t = _num(r[f"release_{side}"])
            candidates.append((t if t is not None else math.inf, 1, _num(r[f"id_{side}"]), r, side))
    first = None
    if candidates:
        t, kind, _, r, what = min(candidates, key=lambda c: (c[0], c[1], c[2] if c[2] is not None else -1))
        base = {"cycle": t, "step": int(r["step"]), "src": int(r["src"]), "dst": int(r["dst"]),
                "packet": r["packet"], "occurrence": int(r["occurrence"])}
        rr = {k: r[f"{k}_a"] if f"{k}_a" in r and isinstance(r[f"{k}_a"], str) else r.get(f"{k}_b")
              for k in ("src_coord", "dst_coord")}
        label_row = dict(r)
        label_row.update(rr)
        base["message"] = key_text(label_row)
        if kind == 0:
            base["kind"] = "timing"
            base["id_a"], base["id_b"] = _num(r["id_a"]), _num(r["id_b"])
            base["fields"] = {f: [_num(r[f"{f}_a"]), _num(r[f"{f}_b"])] for f in TIMES}
        else:
            base["kind"] = f"only in {what.upper()}"
            base[f"id_{what}"] = _num(r[f"id_{what}"])
        first = base

    def describe(rows, side):
        out = []
        for _, r in rows.iterrows():
            d = dict(r)
            d["src_coord"], d["dst_coord"] = r.get(f"src_coord_{side}"), r.get(f"dst_coord_{side}")
            out.append({"id": _num(r[f"id_{side}"]), "message": key_text(d), "release": _num(r[f"release_{side}"]),
                        "latency": _num(r[f"latency_{side}"])})
        return out

    top = []
    if "latency_delta" in both.columns and args.top:
        order = both["latency_delta"].abs().fillna(-1).sort_values(ascending=False, kind="stable")
        for i in order.index[: args.top]:
            r = both.loc[i]
            if _num(r["latency_delta"]) in (0, None) and _num(r["latency_a"]) == _num(r["latency_b"]):
                break
            d = dict(r)
            d["src_coord"], d["dst_coord"] = r.get("src_coord_a"), r.get("dst_coord_a")
            top.append({"id_a": _num(r["id_a"]), "id_b": _num(r["id_b"]), "message": key_text(d),
                        "latency_a": _num(r["latency_a"]), "latency_b": _num(r["latency_b"]),
                        "delta": _num(r["latency_delta"])})

    return {
        "matched": int(len(both)),
        "only_a": describe(only_a, "a"),
        "only_b": describe(only_b, "b"),
        "fields": field_stats,
        "beyond_tolerance": len(beyond),
        "largest_latency_deltas": top,
        "first_divergence": first,
    }, both


def step_table(run, keyed_msgs):
    """Per step: start, end, duration, max/mean latency (from steps.csv, else from messages)."""
    if run.steps is not None and len(run.steps):
        s = run.steps.set_index("step")
        out = pd.DataFrame({"start": s["start"], "end": s["end"], "duration": s["duration"],
                            "max_latency": s["max_latency"], "mean_latency": s["mean_latency"].astype(float)})
        return out
    m = keyed_msgs[keyed_msgs["step"] >= 0]
    if not len(m):
        return pd.DataFrame(columns=["start", "end", "duration", "max_latency", "mean_latency"])
    g = m.groupby("step")
    out = pd.DataFrame({"start": g["release"].min(), "end": g["delivered"].max(),
                        "max_latency": g["latency"].max(), "mean_latency": g["latency"].mean().astype(float)})
    out["duration"] = out["end"] - out["start"]
    return out[["start", "end", "duration", "max_latency", "mean_latency"]]


def compare_steps(a, b, args):
    sa = step_table(a, a.messages)
    sb = step_table(b, b.messages)
    steps = sorted(set(sa.index) | set(sb.index))
    rows = []
    beyond = 0
    for s in steps:
        r = {"step": int(s)}
        for f in ("start", "end", "duration", "max_latency", "mean_latency"):
            va = _num(sa[f].get(s)) if s in sa.index else None
            vb = _num(sb[f].get(s)) if s in sb.index else None
            r[f"{f}_a"], r[f"{f}_b"] = va, vb
            r[f"{f}_delta"] = (vb - va) if va is not None and vb is not None else None
        if not within(r["duration_a"], r["duration_b"], args.tolerance, args.abs_tolerance):
            beyond += 1
        rows.append(r)
    return rows, beyond


def compare_summaries(a, b, args):
    fa = flat_metrics(a.summary, args.include_host)
    fb = flat_metrics(b.summary, args.include_host)
    rows = []
    beyond = 0
    for k in list(fa) + [k for k in fb if k not in fa]:
        va, vb = fa.get(k), fb.get(k)
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (va, vb))
        delta = vb - va if numeric else None
        rel = (delta / abs(va)) if numeric and va else None
        ok = within(va, vb, args.tolerance, args.abs_tolerance)
        beyond += not ok
        rows.append({"metric": k, "a": va, "b": vb, "delta": delta, "relative": rel, "within": ok})
    config_diff = []
    ca = (a.summary or {}).get("config") or {}
    cb = (b.summary or {}).get("config") or {}

    def walk(x, y, prefix):
        if isinstance(x, dict) and isinstance(y, dict):
            for k in list(x) + [k for k in y if k not in x]:
                walk(x.get(k), y.get(k), f"{prefix}.{k}" if prefix else k)
        elif x != y:
            config_diff.append({"key": prefix, "a": x, "b": y})

    if a.summary and b.summary:
        walk(ca, cb, "")
    return rows, beyond, config_diff


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return str(int(v))
        return f"{v:.6g}"
    return str(v)


def print_report(rep, out):
    w = out.write
    w(f"A: {rep['a']['path']}  ({rep['a']['status'] or 'no summary.json'}, {rep['a']['messages']} messages)\n")
    w(f"B: {rep['b']['path']}  ({rep['b']['status'] or 'no summary.json'}, {rep['b']['messages']} messages)\n")
    if rep["config_differences"]:
        w("\nconfig differences:\n")
        for d in rep["config_differences"]:
            w(f"  {d['key']}: {json.dumps(d['a'])} -> {json.dumps(d['b'])}\n")

    if rep["summary"]:
        w("\nsummary metrics (B - A):\n")
        width = max(len(r["metric"]) for r in rep["summary"])
        w(f"  {'metric':<{width}}  {'A':>14}  {'B':>14}  {'delta':>12}  {'rel':>9}\n")
        for r in rep["summary"]:
            mark = " " if r["within"] else "*"
            rel = f"{r['relative'] * 100:+.2f}%" if r["relative"] is not None else "-"
            w(f" {mark}{r['metric']:<{width}}  {fmt(r['a']):>14}  {fmt(r['b']):>14}  {fmt(r['delta']):>12}  {rel:>9}\n")

    m = rep["messages"]
    w(f"\nmessages: {m['matched']} matched, {len(m['only_a'])} only in A, {len(m['only_b'])} only in B\n")
    for side in ("a", "b"):
        lst = m[f"only_{side}"]
        for r in lst[:10]:
            w(f"  only in {side.upper()}: id {r['id']} {r['message']} (release {fmt(r['release'])})\n")
        if len(lst) > 10:
            w(f"  ... and {len(lst) - 10} more only in {side.upper()}\n")
    w("  per-message deltas (B - A):\n")
    for f, s in m["fields"].items():
        w(f"    {f:<24} {s['differing']:>7} differ, max |delta| {fmt(s['max_abs_delta'])}, "
          f"mean delta {fmt(s['mean_delta'])}\n")
    if m["largest_latency_deltas"]:
        w("  largest latency deltas:\n")
        for r in m["largest_latency_deltas"]:
            delta = f" ({'+' if r['delta'] > 0 else ''}{fmt(r['delta'])})" if isinstance(r["delta"], (int, float)) \
                else ""
            w(f"    {r['message']}: {fmt(r['latency_a'])} -> {fmt(r['latency_b'])}{delta}\n")

    fd = m["first_divergence"]
    if fd is None:
        w("\nfirst divergence: none (every matched message has the same release, inject, "
          "header arrival and delivery)\n")
    elif fd["kind"] == "timing":
        fields = ", ".join(f"{k} {fmt(v[0])} vs {fmt(v[1])}" for k, v in fd["fields"].items())
        w(f"\nfirst divergence at cycle {fmt(fd['cycle'])}: {fd['message']} (id {fd['id_a']} in A, "
          f"{fd['id_b']} in B): {fields}\n")
    else:
        w(f"\nfirst divergence at cycle {fmt(fd['cycle'])}: {fd['message']} is {fd['kind']}\n")

    if rep["steps"]:
        w("\nper step (B - A):\n")
        w(f"  {'step':>5}  {'duration A':>10}  {'B':>8}  {'delta':>7}  {'max lat A':>9}  {'B':>8}  "
          f"{'delta':>7}  {'mean lat A':>10}  {'B':>8}  {'delta':>8}\n")
        shown = 0
        for r in rep["steps"]:
            same = all(r[f"{f}_delta"] in (0, None) and r[f"{f}_a"] == r[f"{f}_b"]
                       for f in ("duration", "max_latency", "mean_latency"))
            if same and len(rep["steps"]) > 40:
                continue
            shown += 1
            w(f"  {r['step']:>5}  {fmt(r['duration_a']):>10}  {fmt(r['duration_b']):>8}  {fmt(r['duration_delta']):>7}  "
              f"{fmt(r['max_latency_a']):>9}  {fmt(r['max_latency_b']):>8}  {fmt(r['max_latency_delta']):>7}  "
              f"{fmt(r['mean_latency_a']):>10}  {fmt(r['mean_latency_b']):>8}  {fmt(r['mean_latency_delta']):>8}\n")
        if shown < len(rep["steps"]):
            w(f"  ({len(rep['steps']) - shown} identical steps not shown)\n")

    v = rep["verdict"]
    w(f"\nverdict: {v['text']}\n")


def plot(rep, both, path_a, path_b, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from wormsim_py.plotting import save

    steps = rep["steps"]
    has_steps = bool(steps)
    n = 3 if has_steps else 1
    fig, axes = plt.subplots(n, 1, figsize=(9, 3.2 * n + 0.6), squeeze=False)
    axes = axes[:, 0]
    if has_steps:
        xs = [r["step"] for r in steps]
        ax = axes[0]
        width = 0.4
        da = [r["duration_a"] or 0 for r in steps]
        db = [r["duration_b"] or 0 for r in steps]
        ax.bar([x - width / 2 for x in xs], da, width, label="A", color="#4878cf")
        ax.bar([x + width / 2 for x in xs], db, width, label="B", color="#ee854a")
        ax.set_ylabel("step duration (cycles)")
        ax.set_xlabel("step")
        ax.legend(loc="upper right")
        ax.set_title("per-step duration")
        ax = axes[1]
        dd = [r["duration_delta"] or 0 for r in steps]
        dm = [r["max_latency_delta"] or 0 for r in steps]
        ax.bar([x - width / 2 for x in xs], dd, width, label="duration", color="#6acc65")
        ax.bar([x + width / 2 for x in xs], dm, width, label="max latency", color="#d65f5f")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel("B - A (cycles)")
        ax.set_xlabel("step")
        ax.legend(loc="upper right")
        ax.set_title("per-step deltas")
        for a_ in axes[:2]:
            if len(xs) <= 30:
                a_.set_xticks(xs)
    ax = axes[-1]
    if len(both):
        la = both["latency_a"].astype("Float64").to_numpy(dtype=float, na_value=float("nan"))
        lb = both["latency_b"].astype("Float64").to_numpy(dtype=float, na_value=float("nan"))
        step = both["step"].astype(int).to_numpy()
        sc = ax.scatter(la, lb, c=step, s=12, cmap="viridis", alpha=0.8)
        finite = [v for v in list(la) + list(lb) if v == v]
        if finite:
            lo, hi = min(finite), max(finite)
            ax.plot([lo, hi], [lo, hi], color="grey", linewidth=0.8, linestyle="--", label="B = A")
            ax.legend(loc="upper left")
        cb = fig.colorbar(sc, ax=ax)
        cb.set_label("step")
    ax.set_xlabel("latency in A (cycles)")
    ax.set_ylabel("latency in B (cycles)")
    ax.set_title(f"matched messages: {rep['messages']['matched']}, only in A: {len(rep['messages']['only_a'])}, "
                 f"only in B: {len(rep['messages']['only_b'])}")
    fig.suptitle(f"A: {path_a}\nB: {path_b}", fontsize=9)
    fig.tight_layout()
    written = save(fig, out)
    plt.close(fig)
    return written


def run_compare(args):
    a, b = Run(args.a), Run(args.b)
    msg_rep, both = compare_messages(a, b, args)
    step_rows, steps_beyond = compare_steps(a, b, args)
    summ_rows, summ_beyond, config_diff = compare_summaries(a, b, args)
    only = len(msg_rep["only_a"]) + len(msg_rep["only_b"])
    problems = []
    if msg_rep["beyond_tolerance"]:
        problems.append(f"{msg_rep['beyond_tolerance']} matched message(s) differ in latency or delivery")
    if only:
        problems.append(f"{only} message(s) on one side only")
    if steps_beyond:
        problems.append(f"{steps_beyond} step duration(s) differ")
    if summ_beyond:
        problems.append(f"{summ_beyond} summary metric(s) differ")
    tol = f"tolerance {args.tolerance:g} relative / {args.abs_tolerance:g} absolute"
    any_difference = (only > 0 or msg_rep["first_divergence"] is not None
                      or any(s["differing"] for s in msg_rep["fields"].values())
                      or any(r["delta"] not in (0, None) or r["a"] != r["b"] for r in summ_rows)
                      or any(r[f"{f}_a"] != r[f"{f}_b"] for r in step_rows
                             for f in ("duration", "max_latency", "mean_latency")))
    if problems:
        text = f"DIFFERENT beyond {tol}: " + "; ".join(problems)
    elif any_difference:
        text = f"within {tol} (small differences above)"
    else:
        text = "identical"
    rep = {
        "a": {"path": a.path, "status": (a.summary or {}).get("status"), "messages": int(len(a.messages))},
        "b": {"path": b.path, "status": (b.summary or {}).get("status"), "messages": int(len(b.messages))},
        "tolerance": {"relative": args.tolerance, "absolute": args.abs_tolerance, "checked": args.check},
        "config_differences": config_diff,
        "summary": summ_rows,
        "messages": msg_rep,
        "steps": step_rows,
        "verdict": {"identical": not any_difference, "within_tolerance": not problems, "text": text},
    }
    return rep, both


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.plot:
        deps.require("compare_traces.py --plot", ["matplotlib"], exit_code=EXIT_ERROR)
    try:
        rep, both = run_compare(args)
    except RunError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_ERROR
    print_report(rep, sys.stdout)
    try:
        if args.json:
            atomicio.write_text(args.json, json.dumps(rep, indent=2, default=_num) + "\n")
        if args.messages_csv:
            cols = KEY + [c for f in DELTA_FIELDS for c in (f"{f}_a", f"{f}_b", f"{f}_delta") if c in both.columns]
            atomicio.write_dataframe_csv(args.messages_csv, both[["id_a", "id_b"] + cols])
        if args.plot:
            for p in plot(rep, both, args.a, args.b, args.plot):
                print(f"plot: {p}", file=sys.stderr)
    except OSError as e:
        print(f"error: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return EXIT_ERROR
    if args.check and not rep["verdict"]["within_tolerance"]:
        return EXIT_DIFFERENT
    return EXIT_SAME


if __name__ == "__main__":
    sys.exit(main())
