"""The sweep results table: one row per point, written atomically.

Columns, in order:
  point                      the point's id (folder OUT/points/<point>)
  <swept parameters>         every grid/zip key (and schedule.source, repeat, run.seed)
  status, exit_code, error   wormsim's status (or "error" if no summary.json), its exit code,
                             and for a non-zero exit the stderr tail
  metrics.*                  summary.json metrics, flattened (metrics.latency.mean, ...)
  background.*               summary.json background block (runs with traffic)
  invariants.*               summary.json invariants
  summary.*                  schedule name/algorithm/steps/messages/broadcast/source,
                             number of warnings, wormsim version
  host.*                     host timing (summary.json host block and host.sweep_seconds):
                             varies from run to run; drop host.* to compare tables
  dir                        the point's output folder, relative to the sweep folder
"""

import csv
import io
import json
import os

from . import atomicio, spec as specmod

TABLE_CSV = "results.csv"
TABLE_PARQUET = "results.parquet"
POINTS_DIR = "points"
ERROR_COLUMNS = ("status", "exit_code", "error")
GROUP_ORDER = ("metrics.", "background.", "invariants.", "summary.", "host.")
# statuses whose rows are not final: the point runs again on the next sweep
INCOMPLETE_STATUSES = ("", "error", "interrupted")


def point_dir(output, point_id):
    return os.path.join(output, POINTS_DIR, point_id)


def point_dir_rel(point_id):
    return f"{POINTS_DIR}/{point_id}"


def read_rows(path):
    """Rows of an existing table as {column: text}, keyed by point id (empty if no table)."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            rows = {}
            for r in reader:
                if r.get("point"):
                    rows[r["point"]] = r
            return rows
    except FileNotFoundError:
        return {}


def is_complete(output, row):
    """A point is complete when its row is in the table, its status is final and its summary.json exists."""
    if row is None:
        return False
    if (row.get("status") or "") in INCOMPLETE_STATUSES:
        return False
    return os.path.isfile(os.path.join(point_dir(output, row["point"]), "summary.json"))


def has_error(row):
    return bool(row.get("error"))


def _text(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, float):
        if v != v:  # NaN
            return ""
        return repr(v)
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return str(v)


def columns(param_columns, rows):
    """Column order: point, parameters, status/exit_code/error, summary groups, dir."""
    fixed = ["point", *param_columns, *ERROR_COLUMNS]
    seen = set(fixed) | {"dir"}
    extra = []
    for r in rows:
        for k in r:
            if k not in seen:
                seen.add(k)
                extra.append(k)

    def group(k):
        for i, p in enumerate(GROUP_ORDER):
            if k.startswith(p):
                return i
        return len(GROUP_ORDER)

    extra.sort(key=group)  # stable: first-appearance order within a group
    return fixed + extra + ["dir"]


def render_csv(cols, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([_text(r.get(c)) for c in cols])
    return buf.getvalue()


def make_row(point, result):
    """Table row of a point: its parameters (from the spec) plus the result columns."""
    row = {"point": point.id}
    for k, v in point.params.items():
        row[k] = specmod.cell(v)
    for k, v in result.items():
        if k != "point":
            row[k] = v
    row["dir"] = point_dir_rel(point.id)
    return row


def write(output, param_columns, rows, parquet=True):
    """Write the table (rows already in table order) atomically; Parquet too if pyarrow imports."""
    cols = columns(param_columns, rows)
    text = render_csv(cols, rows)
    atomicio.write_text(os.path.join(output, TABLE_CSV), text)
    if parquet and parquet_available():
        import pandas as pd
        df = pd.read_csv(io.StringIO(text))
        atomicio.write_with(os.path.join(output, TABLE_PARQUET), lambda f: df.to_parquet(f, index=False),
                            binary=True)
    return cols


def parquet_available():
    try:
        import pyarrow  # noqa: F401
        return True
    except ImportError:
        return False


def load_dataframe(path):
    """Read a results table (CSV or Parquet) as a pandas DataFrame."""
    import pandas as pd
    p = os.fspath(path)
    if os.path.isdir(p):
        cand = os.path.join(p, TABLE_CSV)
        if not os.path.exists(cand) and os.path.exists(os.path.join(p, TABLE_PARQUET)):
            cand = os.path.join(p, TABLE_PARQUET)
        p = cand
    if p.endswith(".parquet"):
        return pd.read_parquet(p)
    return pd.read_csv(p)


def drop_host_columns(df):
    return df[[c for c in df.columns if not c.startswith("host.")]]
