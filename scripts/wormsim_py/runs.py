"""Reading a wormsim run's output folder, and dimension-order routes for per-step link loads."""

import os

import pandas as pd

from .declarations import columns, summary_fields
from .outputs import OutputSetError, verify

# Column types come from the simulator's declarations (declarations.py, stats.json).
MESSAGE_INT_COLUMNS = columns("messages.csv", ("integer",))
MESSAGE_TEXT_COLUMNS = columns("messages.csv", ("text",))
LINK_INT_COLUMNS = columns("links.csv", ("integer",))
LINK_TEXT_COLUMNS = columns("links.csv", ("text",))
STEP_INT_COLUMNS = columns("steps.csv", ("integer",))


class RunError(Exception):
    """A run folder or file that cannot be used; str() names the path and the problem."""


class Run:
    """One run: folder (None when only a lone messages.csv was given) and its files, loaded lazily.

    A folder (or a messages.csv inside one with a summary.json) must hold one consistent output
    set (outputs.verify): files of two different runs, or a set missing a file, raise RunError.
    """

    def __init__(self, path):
        p = os.fspath(path)
        self.path = p
        self._messages = self._summary = self._links = self._steps = None
        if os.path.isdir(p):
            self.folder = p
            self.messages_path = os.path.join(p, "messages.csv")
        elif os.path.isfile(p):
            _check_messages_file(p)
            self.messages_path = p
            folder = os.path.dirname(os.path.abspath(p))
            # a messages.csv inside a run folder brings its siblings along
            self.folder = folder if os.path.exists(os.path.join(folder, "summary.json")) \
                and os.path.basename(p) == "messages.csv" else None
        else:
            raise RunError(f"{p}: no such file or folder (expected a run output folder or a messages.csv)")
        if self.folder:
            if not os.path.lexists(os.path.join(self.folder, "summary.json")) \
                    and not os.path.lexists(self.messages_path):
                raise RunError(f"{p}: no messages.csv or summary.json in this folder "
                               f"(expected a wormsim run output folder)")
            try:
                self._summary = verify(self.folder)
            except OutputSetError as e:
                raise RunError(str(e)) from None

    def _file(self, name):
        return os.path.join(self.folder, name) if self.folder else None

    @property
    def summary(self):
        return self._summary

    @property
    def messages(self):
        if self._messages is None:
            self._messages = read_messages(self.messages_path)
        return self._messages

    @property
    def links(self):
        if self._links is None and self.folder:
            f = self._file("links.csv")
            if os.path.exists(f):
                self._links = read_links(f)
        return self._links

    @property
    def steps(self):
        if self._steps is None and self.folder:
            f = self._file("steps.csv")
            if os.path.exists(f):
                self._steps = read_steps(f)
        return self._steps

    def network(self):
        """(topology, dims) from summary.json's config echo, or None."""
        s = self.summary
        try:
            net = s["config"]["network"]
            dims = net["dims"]
            return net["topology"], list(dims) if isinstance(dims, list) else [dims]
        except (TypeError, KeyError):
            return None


def _check_messages_file(path):
    """Refuse, saying what it is and what is expected, a file given as a run that cannot be a
    messages.csv (a Perfetto trace, a summary.json, a VCD, another CSV...), rather than let
    the CSV reader fail on it with a tokenizer error."""
    try:
        with open(path, "rb") as f:
            head = f.read(8192)
    except OSError:
        return      # the reader reports it
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    first = text.split("\n", 1)[0].strip()
    columns = [c.strip().strip('"') for c in first.split(",")]
    if "id" in columns and "step" in columns:
        return
    name = os.path.basename(path)
    body = text.lstrip()
    if b"\0" in head:
        what = "a binary file"
    elif body.startswith(("{", "[")):
        if '"traceEvents"' in text or name == "trace.json":
            what = "a Perfetto trace (trace-event JSON from `wormsim run --trace perfetto`), for ui.perfetto.dev"
        elif '"wormsim_version"' in text or name == "summary.json":
            what = "a run's summary.json"
        else:
            what = "a JSON file"
    elif body.startswith("$"):
        what = "a VCD waveform trace (`wormsim run --trace vcd`), for GTKWave"
    elif columns[:1] == ["link"]:
        what = "a links.csv"
    elif columns[:1] == ["step"]:
        what = "a steps.csv"
    elif columns[:1] == ["point"]:
        what = "a sweep results table"
    else:
        what = f"not a wormsim messages.csv (its first line is not the header id,step,...: {first[:60]!r})"
    folder = os.path.dirname(path) or "."  # as the user named it
    hint = f"; the run folder here is {folder}" if os.path.exists(os.path.join(folder, "summary.json")) else ""
    raise RunError(f"{path}: {what}; expected a wormsim run output folder or its messages.csv{hint}")


def _read_csv(path, int_columns, text_columns, required):
    try:
        df = pd.read_csv(path, dtype=str, keep_default_na=False)
    except FileNotFoundError:
        raise RunError(f"{path}: no such file") from None
    except (OSError, ValueError, pd.errors.ParserError) as e:
        raise RunError(f"{path}: not a readable CSV file ({e})") from None
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise RunError(f"{path}: missing column(s) {', '.join(missing)} (is this a wormsim output file?)")
    for c in int_columns:
        if c in df.columns:
            num = pd.to_numeric(df[c].replace("", None), errors="coerce")
            bad = df[c].ne("") & num.isna()
            if bad.any():
                row = int(bad.idxmax()) + 2
                raise RunError(f"{path}: line {row}: column {c}: expected an integer, got \"{df[c][bad.idxmax()]}\"")
            df[c] = num.astype("Int64")
    for c in df.columns:
        if c not in int_columns and c not in text_columns:
            num = pd.to_numeric(df[c].replace("", None), errors="coerce")
            if not (df[c].ne("") & num.isna()).any():
                df[c] = num
    return df


def read_messages(path):
    return _read_csv(path, MESSAGE_INT_COLUMNS, MESSAGE_TEXT_COLUMNS,
                     ("id", "step", "src", "dst", "packet", "release", "delivered", "latency"))


def read_links(path):
    return _read_csv(path, LINK_INT_COLUMNS, LINK_TEXT_COLUMNS,
                     ("link", "src", "dst", "dim", "dir", "wrap", "busy_cycles", "utilisation"))


def read_steps(path):
    return _read_csv(path, STEP_INT_COLUMNS, (), ("step", "start", "end", "duration"))


def flat_metrics(summary, include_host=False):
    """{dotted name: number or text} of a summary's status and its declared metrics, background (and
    host) fields (declarations.py), in declared order; blocks a summary lacks are left out."""
    out = {}
    if not summary:
        return out
    out["status"] = summary.get("status")
    blocks = ["metrics", "background"] + (["host"] if include_host else [])
    for b in blocks:
        if not isinstance(summary.get(b), dict):
            continue
        for name in summary_fields(b):
            v = summary[b]
            for part in name.split("."):
                v = v.get(part) if isinstance(v, dict) else None
            if v is not None:
                out[f"{b}.{name}"] = v
    return out


# --- topology and routes -------------------------------------------------------------

def coords(node, dims):
    c = []
    for d in dims:
        c.append(node % d)
        node //= d
    return c


def node_id(c, dims):
    i, mul = 0, 1
    for x, d in zip(c, dims):
        i += x * mul
        mul *= d
    return i


def dor_route(topology, dims, src, dst):
    """Dimension-order route as [(from_node, dim, dir)], as models/routing.cpp builds it
    (torus: the shorter way round, ties "+"; hypercube: bits from 0 up, dir 1 sets the bit)."""
    links = []
    if topology == "hypercube":
        cur = src
        for d in range(dims[0]):
            bit = 1 << d
            if (cur ^ dst) & bit:
                links.append((cur, d, 1 if dst & bit else -1))
                cur ^= bit
        return links
    torus = topology in ("torus", "ring")
    cur = coords(src, dims)
    to = coords(dst, dims)
    for d, k in enumerate(dims):
        if cur[d] == to[d]:
            continue
        if torus:
            plus = (to[d] - cur[d]) % k
            minus = k - plus
            direction, steps = (1, plus) if plus <= minus else (-1, minus)
        else:
            direction = 1 if to[d] > cur[d] else -1
            steps = abs(to[d] - cur[d])
        for _ in range(steps):
            links.append((node_id(cur, dims), d, direction))
            cur[d] = (cur[d] + direction) % k
    return links


class NotDerivable(Exception):
    pass


def per_step_link_busy(run):
    """Busy cycles per (step, link id) derived from messages.csv by dimension-order routing.

    Exact when every message followed its dimension-order route (checked: each message's hops
    must equal its route length and the steps' sum must equal links.csv where there is no
    background traffic). Raises NotDerivable when the run's messages used explicit routes.
    Returns a DataFrame with columns step, link, busy_cycles (background traffic: step -1).
    """
    net = run.network()
    links = run.links
    if net is None or links is None:
        raise NotDerivable(f"{run.path}: needs summary.json and links.csv next to messages.csv")
    topology, dims = net
    key_to_link = {(int(r.src), int(r.dim), int(r.dir)): int(r.link)
                   for r in links[["src", "dim", "dir", "link"]].itertuples(index=False)}
    msgs = run.messages
    acc = {}
    for m in msgs[["id", "step", "src", "dst", "hops", "inject", "flits"]].itertuples(index=False):
        if pd.isna(m.inject):
            continue  # never injected: carried no flit
        route = dor_route(topology, dims, int(m.src), int(m.dst))
        if len(route) != int(m.hops):
            raise NotDerivable(
                f"{run.path}: message {int(m.id)} ({int(m.src)} -> {int(m.dst)}) has {int(m.hops)} hops but its "
                f"dimension-order route has {len(route)}: the schedule uses explicit routes, so per-step "
                f"link loads cannot be derived from messages.csv (use the per-run map)")
        for hop in route:
            link = key_to_link.get(hop)
            if link is None:
                raise NotDerivable(f"{run.path}: message {int(m.id)}: link {hop} not in links.csv")
            k = (int(m.step), link)
            acc[k] = acc.get(k, 0) + int(m.flits)
    df = pd.DataFrame([(s, l, b) for (s, l), b in sorted(acc.items())], columns=["step", "link", "busy_cycles"])
    # undelivered worms carry only some of their flits: the derivation is exact for completed runs
    if (run.summary or {}).get("status") == "completed":
        total = df.groupby("link")["busy_cycles"].sum()
        ref = links.set_index("link")["busy_cycles"]
        ref = ref[ref > 0]
        if not total.reindex(ref.index, fill_value=0).astype(int).equals(ref.astype(int)) or \
                int(total.sum()) != int(ref.sum()):
            raise NotDerivable(f"{run.path}: link loads derived from messages.csv do not add up to links.csv "
                               f"(messages did not follow dimension-order routes)")
    return df
