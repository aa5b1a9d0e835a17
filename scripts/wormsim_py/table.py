"""The sweep results table: one row per point, written atomically.

Columns, in order:
  point                      the point's id (folder OUT/points/<point>)
  <swept parameters>         every grid/zip key (and schedule.source, repeat, run.seed)
  <fixed parameters>         every set key, the same value in every row
  status, exit_code, error   wormsim's status (or "error" if no summary.json), its exit code,
                             and for a non-zero exit the stderr tail
  metrics.*                  summary.json metrics, flattened (metrics.latency.mean, ...)
  saturation.*               summary.json saturation block (sweeps with saturate:)
  background.*               summary.json background block (runs with traffic)
  load.*                     summary.json load block (measured load runs)
  repetitions.*              summary.json repetitions block (repeated schedules)
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

import pandas as pd

from . import atomicio, outputs, spec as specmod

TABLE_CSV = "results.csv"
TABLE_PARQUET = "results.parquet"
POINTS_DIR = "points"
ERROR_COLUMNS = ("status", "exit_code", "error")
GROUP_ORDER = ("saturation.", "metrics.", "background.", "load.", "repetitions.", "invariants.", "summary.", "host.")
# statuses whose rows are not final: the point runs again on the next sweep
INCOMPLETE_STATUSES = ("", "error", "interrupted")


def point_dir(output, point_id):
    return os.path.join(output, POINTS_DIR, point_id)


def point_dir_rel(point_id):
    return f"{POINTS_DIR}/{point_id}"


class TableError(Exception):
    """results.csv cannot be read as a table; str() names the file and what is wrong."""


def read_table(path):
    """(rows, damaged) of an existing table: rows {point id: {column: text}}, damaged {point id:
    reason} for rows whose field count is not the header's (cut short or run together).

    No table: ({}, {}). A table that cannot be read at all raises TableError.
    """
    try:
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                return {}, {}
            if "point" not in header:
                raise TableError(f"{path}: no point column in the first line: not a sweep results table")
            rows, damaged = {}, {}
            key = header.index("point")
            for record in reader:
                if not record or len(record) <= key or not record[key]:
                    continue
                point = record[key]
                if len(record) != len(header):
                    damaged[point] = (f"its row in {TABLE_CSV} has {len(record)} fields, the header "
                                      f"{len(header)} (cut short or damaged)")
                    rows.pop(point, None)
                    continue
                damaged.pop(point, None)
                rows[point] = dict(zip(header, record))
            return rows, damaged
    except FileNotFoundError:
        return {}, {}
    except IsADirectoryError:
        raise TableError(f"{path}: is a folder, not a file") from None
    except UnicodeDecodeError as e:
        raise TableError(f"{path}: not valid UTF-8 (byte {e.start}): the file is damaged") from None
    except csv.Error as e:
        raise TableError(f"{path}: not a readable CSV table ({e})") from None
    except OSError as e:
        raise TableError(f"{path}: cannot read ({e.strerror})") from None


def read_rows(path):
    """Rows of an existing table as {column: text}, keyed by point id (empty if no table);
    rows with the wrong number of fields are left out."""
    return read_table(path)[0]


# columns that summary_row() fills: in a complete row they must match summary.json exactly
_SUMMARY_GROUPS = ("saturation.", "metrics.", "background.", "load.", "repetitions.", "invariants.", "summary.")
# summary.json blocks that become column groups (prefix = block name)
_FLAT_BLOCKS = ("saturation", "metrics", "background", "load", "repetitions", "host", "invariants")
_SCHEDULE_KEYS = ("name", "algorithm", "steps", "messages", "broadcast", "source")


def _flatten(block, prefix, out):
    """The flattening pandas.json_normalize does for one record (nested keys joined with dots,
    depth first in key order, lists kept, an empty mapping giving no column), without building
    a DataFrame per row: that cost about 12 ms a point, more than a small point's simulation."""
    for k, v in block.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict):
            _flatten(v, key, out)
        else:
            out[key] = v
    return out


def summary_row(summary):
    """Columns taken from one summary.json (or runner.summary_extract of one): status,
    metrics.*, background.*, load.*, repetitions.*, host.*, invariants.* (nested keys joined with dots, lists kept
    as lists: JSON text in the CSV), and summary.* (schedule name/steps/messages/source,
    warning count, version)."""
    row = {"status": summary.get("status")}
    blocks = {b: summary[b] for b in _FLAT_BLOCKS if isinstance(summary.get(b), dict)}
    _flatten(blocks, "", row)
    sched = summary.get("schedule") or {}
    for k in _SCHEDULE_KEYS:
        if k in sched:
            row[f"summary.schedule.{k}"] = sched[k]
    row["summary.warnings"] = summary["warning_count"] if "warning_count" in summary \
        else len(summary.get("warnings") or [])
    row["summary.wormsim_version"] = summary.get("wormsim_version")
    return row


def point_state(output, row):
    """("complete", None), ("todo", None), or ("damaged", reason) for a point and its table row.

    Complete: the row's status is final (not error/interrupted), the point folder holds one
    consistent output set (outputs.verify), and the row's summary columns equal those of that
    summary.json. Damaged: the row says the point ran, but its files or row do not hold.
    """
    if row is None or (row.get("status") or "") in INCOMPLETE_STATUSES:
        return "todo", None
    folder = point_dir(output, row["point"])
    try:
        summary = outputs.verify(folder)
    except outputs.OutputSetError as e:
        where = point_dir_rel(row["point"]) + (f"/{e.file}" if e.file else "")
        return "damaged", f"{where}: {e.reason}"
    expected = summary_row(summary)
    for k, v in expected.items():
        have = _text(row.get(k))
        if _text(v) != have:
            return "damaged", (f"its row in {TABLE_CSV} does not match {point_dir_rel(row['point'])}/summary.json: "
                               f"{k} is {json.dumps(have)} in the table, {json.dumps(_text(v))} in the summary")
    for k, value in row.items():
        have = _text(value)
        if k not in expected and k.startswith(_SUMMARY_GROUPS) and have:
            return "damaged", (f"its row in {TABLE_CSV} has {k} = {json.dumps(have)}, which "
                               f"{point_dir_rel(row['point'])}/summary.json does not have")
    return "complete", None


def is_complete(output, row):
    """A point is complete when point_state() says so."""
    return point_state(output, row)[0] == "complete"


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
    row.update(point.fixed)
    if result.get("summary") is not None:    # a runner result: flatten its summary here
        result = {**{k: v for k, v in result.items() if k != "summary"}, **summary_row(result["summary"])}
    for k, v in result.items():
        if k not in ("point", "summary") and k not in point.fixed:
            row[k] = v
    row["dir"] = point_dir_rel(point.id)
    return row


def write(output, param_columns, rows, parquet=True):
    """Write the table (rows already in table order) atomically; Parquet too if pyarrow imports."""
    cols = columns(param_columns, rows)
    text = render_csv(cols, rows)
    atomicio.write_text(os.path.join(output, TABLE_CSV), text)
    if parquet and parquet_available():
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
