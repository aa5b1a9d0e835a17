"""Sweep specs: load, validate and expand into points.

A spec is a YAML mapping (docs/sweeps.md):

  base: ../default.yaml            # wormsim config, relative to the spec file (required)
  output: out/sweeps/NAME          # result folder, relative to the working directory
  description: free text
  set:   {key.path: value}         # fixed overrides for every point
  grid:  {key.path: [v1, v2, ...]} # cartesian product
  zip:   {key.path: [...], other.path: [...]}   # varied together (same lengths);
                                   # or a list of such groups (each group is crossed with the rest)
  sources: all | sample N | {sample: N, seed: S}   # schedule.source over the network's nodes
  repeats: N                       # N runs per point with run.seed = seed, seed+1, ...
  seed: S                          # first seed for repeats and for source sampling (default 1)
  exclude: [{key.path: value, ...}]  # drop points matching every pair of an entry
  timeout: SECONDS                 # per-point time limit
  saturate: {points: 6, ...}       # run `wormsim saturate` per point instead of `run`, with these options

Key paths are wormsim config keys (network.dims, schedule.flits, traffic.rate, ...)
passed to `wormsim run --set`, or tag.NAME: a label that goes into the table only.
"""

import copy
import hashlib
import itertools
import json
import os
import random
import re
from dataclasses import dataclass, field

from . import specyaml

SECTIONS = ("network", "timing", "schedule", "traffic", "run", "output")
TOP_KEYS = ("base", "output", "description", "set", "grid", "zip", "sources", "repeats",
            "seed", "exclude", "timeout", "saturate")
# `saturate:` options: spec key -> (wormsim saturate option, type, check, expectation)
SATURATE_OPTIONS = {
    "criterion": ("--criterion", str, lambda v: _criteria_ok(v),
                  "a comma-separated list of throughput, latency, drain"),
    "tolerance": ("--tolerance", float, lambda v: 0 < v < 1, "a number in (0, 1)"),
    "latency_multiple": ("--latency-multiple", float, lambda v: 1 < v <= 1000, "a number in (1, 1000]"),
    "low": ("--low", float, lambda v: 0 < v <= 1, "a rate in (0, 1] packets per node per cycle"),
    "high": ("--high", float, lambda v: 0 < v <= 1, "a rate in (0, 1] packets per node per cycle"),
    "resolution": ("--resolution", float, lambda v: 0.001 <= v < 1, "a number in [0.001, 1)"),
    "points": ("--points", int, lambda v: 0 <= v <= 100, "an integer from 0 to 100"),
    "curve_to": ("--curve-to", float, lambda v: 1 <= v <= 10, "a number in [1, 10]"),
}
CRITERIA = ("throughput", "latency", "drain")
SEED_KEY = "run.seed"
SOURCE_KEY = "schedule.source"
MAX_POINTS = 1_000_000


class SpecError(Exception):
    """A problem with a sweep spec; str() is the full one-line message."""

    def __init__(self, file, key, what):
        self.file, self.key, self.what = file, key, what
        where = f"{file}: {key}: " if key else f"{file}: "
        super().__init__(where + what)


@dataclass
class Point:
    index: int                      # position in expansion order (the table's row order)
    id: str                         # deterministic hash of the point's parameters
    params: dict                    # column -> value, in column order (tags included)
    sets: list                      # [(key, value)] passed to wormsim --set, in order
    repeat: int = None              # 0-based repeat number, when the spec has repeats
    fixed: dict = field(default_factory=dict)   # set key -> table cell (Spec.fixed_cells)


@dataclass
class Spec:
    path: str                       # the spec file as given
    base: str                       # absolute path of the base config
    output: str                     # output folder (absolute)
    description: str = ""
    fixed: list = field(default_factory=list)       # [(key, value)] from set
    grid: list = field(default_factory=list)        # [(key, [values])]
    zips: list = field(default_factory=list)        # [[(key, [values]), ...], ...]
    sources: dict = None            # None | {"mode": "all"} | {"mode": "sample", "n": N, "seed": S}
    repeats: int = None
    seed: int = 1
    exclude: list = field(default_factory=list)     # [{key: value}]
    timeout: float = None
    base_sha256: str = ""
    saturate: dict = None           # None: points run `wormsim run`; else `wormsim saturate` with these options
    text: str = ""                  # the spec's text as read (copied to OUT/spec.yaml)
    base_doc: dict = None           # the base config as read (for sources)

    def saturate_args(self):
        """The `wormsim saturate` options of every point, in SATURATE_OPTIONS order."""
        args = []
        for key, (option, _, _, _) in SATURATE_OPTIONS.items():
            if key in (self.saturate or {}):
                args += [option, str(self.saturate[key])]
        return args

    def swept_columns(self):
        """Columns of the swept parameters, in table order."""
        cols = [k for group in self.zips for k, _ in group]
        cols += [k for k, _ in self.grid]
        if self.sources is not None:
            cols.append(SOURCE_KEY)
        if self.repeats is not None:
            cols += ["repeat", SEED_KEY]
        return cols

    def param_columns(self):
        """Parameter columns of the table: the swept ones, then the fixed `set` keys (the same
        value in every row, so the table alone says what the points ran with)."""
        return self.swept_columns() + [k for k, _ in self.fixed]

    def fixed_cells(self):
        """{set key: table cell} of the fixed overrides, as written in the spec."""
        return {k: cell(v) for k, v in self.fixed}


def _type_name(v):
    if v is None:
        return "nothing"
    if isinstance(v, bool):
        return f"a boolean ({str(v).lower()})"
    if isinstance(v, int):
        return f"a number ({v})"
    if isinstance(v, float):
        return f"a number ({v})"
    if isinstance(v, str):
        return f'a string ("{v}")'
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return type(v).__name__


def check_key_path(file, where, key):
    """A swept/fixed key must be SECTION.key[.sub...] or tag.NAME."""
    if not isinstance(key, str) or not key:
        raise SpecError(file, where, f"expected a key path like network.dims, got {_type_name(key)}")
    parts = key.split(".")
    if any(p == "" for p in parts):
        raise SpecError(file, f"{where}.{key}", "empty part in key path")
    head = parts[0]
    if head == "tag":
        if len(parts) != 2:
            raise SpecError(file, f"{where}.{key}", "a tag is tag.NAME (one level)")
        return
    if head not in SECTIONS:
        raise SpecError(file, f"{where}.{key}",
                        f"unknown config section \"{head}\" (expected a key path starting with one of: "
                        f"{', '.join(SECTIONS)}, or tag.NAME)")
    # a whole section is allowed (schedule: null makes a traffic-only sweep), except output,
    # which would set output.dir
    if head == "output" and (len(parts) == 1 or parts[1] == "dir"):
        raise SpecError(file, f"{where}.{key}", "the sweep chooses each point's output folder itself")


def canonical(value):
    """Stable text of a parameter value (for ids, matching and table cells)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def cell(value):
    """Table cell for a parameter value: scalars as they are, lists/mappings as JSON."""
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return value


def set_text(value):
    """The YAML text given to `wormsim run --set key=TEXT` (JSON is valid YAML)."""
    return json.dumps(value)


def _load_yaml(file, text):
    try:
        return specyaml.load(text)
    except specyaml.Refused as e:
        raise SpecError(file, e.key, e.what) from None
    except specyaml.yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise SpecError(file, None, f"not valid YAML{line}: {problem}") from None


def _int(file, key, v, lo, hi=None):
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        rng = f"from {lo} to {hi}" if hi is not None else f">= {lo}"
        raise SpecError(file, key, f"expected an integer {rng}, got {_type_name(v)}{_leading_zero_hint(v)}")
    return v


def _leading_zero_hint(v):
    # 010 stays text (specyaml): say why, since YAML 1.1 would read octal 8 and wormsim 10
    if isinstance(v, str) and re.fullmatch(r"[-+]?0[0-9]+", v):
        return " (a number with a leading zero is kept as text; write it without the zero)"
    return ""


def _mapping(file, key, v):
    if not isinstance(v, dict):
        raise SpecError(file, key, f"expected a mapping of key.path: value, got {_type_name(v)}")
    return v


def _parse_sources(file, v, default_seed):
    if v is None:
        return None
    if v == "all":
        return {"mode": "all"}
    n = None
    seed = default_seed
    if isinstance(v, str) and v.split()[:1] == ["sample"] and len(v.split()) == 2:
        try:
            n = int(v.split()[1])
        except ValueError:
            n = None
        if n is None or n < 1:
            raise SpecError(file, "sources", f'expected "sample N" with N >= 1, got "{v}"')
    elif isinstance(v, dict):
        unknown = sorted(set(v) - {"sample", "seed"})
        if unknown:
            raise SpecError(file, f"sources.{unknown[0]}", "unknown key (expected sample, seed)")
        if "sample" not in v:
            raise SpecError(file, "sources.sample", "missing (how many source nodes to draw)")
        n = _int(file, "sources.sample", v["sample"], 1)
        if "seed" in v:
            seed = _int(file, "sources.seed", v["seed"], 0)
    else:
        raise SpecError(file, "sources",
                        f"expected all, \"sample N\" or {{sample: N, seed: S}}, got {_type_name(v)}")
    return {"mode": "sample", "n": n, "seed": seed}


def _criteria_ok(text):
    """As `wormsim saturate --criterion` splits it (std::getline on ","): no spaces, no empty
    item but a final one."""
    names = text.split(",")
    if names[-1] == "" and len(names) > 1:
        names.pop()
    return all(n in CRITERIA for n in names)


def _parse_saturate(file, v):
    """The `saturate:` options: a mapping (possibly empty) of SATURATE_OPTIONS keys."""
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise SpecError(file, "saturate", f"expected a mapping of wormsim saturate options "
                                          f"({', '.join(SATURATE_OPTIONS)}), got {_type_name(v)}")
    out = {}
    for k, value in v.items():
        if k not in SATURATE_OPTIONS:
            raise SpecError(file, f"saturate.{k}",
                            f"unknown option (expected one of: {', '.join(SATURATE_OPTIONS)})")
        _, kind, ok, expected = SATURATE_OPTIONS[k]
        good_type = isinstance(value, str) if kind is str else \
            (not isinstance(value, bool) and isinstance(value, (int,) if kind is int else (int, float)))
        if not good_type or not ok(value):
            raise SpecError(file, f"saturate.{k}", f"expected {expected}, got {_type_name(value)}")
        out[k] = value
    # wormsim saturate refuses this too, but only once each point runs
    if "low" in out and "high" in out and not out["low"] < out["high"]:
        raise SpecError(file, "saturate.low",
                        f"expected a rate below saturate.high ({out['high']}), got {out['low']}")
    return out


def load(path, output_override=None):
    """Read and validate a spec file. Raises SpecError with file, key and what was expected."""
    file = os.fspath(path)
    try:
        with open(file, "rb") as f:
            text = f.read().decode("utf-8")  # decoded whole: e.start is then the file's byte offset
    except IsADirectoryError:
        raise SpecError(file, None, "is a folder, expected a sweep spec YAML file") from None
    except OSError as e:
        raise SpecError(file, None, f"cannot open sweep spec ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise SpecError(file, None, f"not UTF-8 text (byte {e.start}): expected a sweep spec YAML file "
                                    "in UTF-8") from None
    doc = _load_yaml(file, text)
    if doc is None:
        raise SpecError(file, None, "empty spec (expected a mapping with base, grid, ...)")
    if not isinstance(doc, dict):
        raise SpecError(file, "(top level)", f"expected a mapping with base, grid, ..., got {_type_name(doc)}")
    for k in doc:
        if k not in TOP_KEYS:
            raise SpecError(file, str(k), f"unknown key (expected one of: {', '.join(TOP_KEYS)})")

    spec_dir = os.path.dirname(os.path.abspath(file))

    if "base" not in doc:
        raise SpecError(file, "base", "missing (the wormsim config the points start from, relative to the spec)")
    if not isinstance(doc["base"], str) or not doc["base"]:
        raise SpecError(file, "base", f"expected a config file path, got {_type_name(doc['base'])}")
    base = os.path.normpath(os.path.join(spec_dir, doc["base"]))
    try:
        with open(base, "rb") as f:
            base_bytes = f.read()
    except IsADirectoryError:
        raise SpecError(file, "base", f"{base} is a folder, expected a wormsim config file") from None
    except OSError as e:
        raise SpecError(file, "base", f"cannot open {base} ({e.strerror})") from None
    base_doc = _load_yaml(base, base_bytes.decode("utf-8", "replace"))
    if not isinstance(base_doc, dict):
        raise SpecError(file, "base", f"{base} is not a wormsim config (expected a mapping with network, ...)")

    if output_override is not None:
        output = output_override
    elif "output" in doc:
        output = doc["output"]
        if not isinstance(output, str) or not output:
            raise SpecError(file, "output", f"expected a folder path, got {_type_name(output)}")
    else:
        raise SpecError(file, "output", "missing (the result folder; or give --out)")
    output = os.path.abspath(output)

    description = doc.get("description", "") or ""
    if not isinstance(description, str):
        raise SpecError(file, "description", f"expected text, got {_type_name(description)}")

    seed = _int(file, "seed", doc["seed"], 0, 2**62) if "seed" in doc else 1
    repeats = _int(file, "repeats", doc["repeats"], 1, 100000) if "repeats" in doc else None
    timeout = None
    if "timeout" in doc and doc["timeout"] is not None:
        t = doc["timeout"]
        if isinstance(t, bool) or not isinstance(t, (int, float)) or t <= 0:
            raise SpecError(file, "timeout", f"expected a positive number of seconds, got {_type_name(t)}")
        timeout = float(t)

    saturate = _parse_saturate(file, doc["saturate"]) if "saturate" in doc else None

    seen = {}  # key -> where it was defined

    def claim(key, where):
        if key in seen:
            raise SpecError(file, f"{where}.{key}", f"already given in {seen[key]}")
        seen[key] = where

    fixed = []
    for k, v in _mapping(file, "set", doc.get("set") or {}).items():
        check_key_path(file, "set", k)
        if str(k).startswith("tag."):
            raise SpecError(file, f"set.{k}", "tags are for swept values (grid or zip); a fixed tag says nothing")
        claim(k, "set")
        fixed.append((k, v))

    grid = []
    for k, v in _mapping(file, "grid", doc.get("grid") or {}).items():
        check_key_path(file, "grid", k)
        claim(k, "grid")
        if not isinstance(v, list) or not v:
            raise SpecError(file, f"grid.{k}", f"expected a non-empty list of values, got {_type_name(v)}")
        grid.append((k, v))

    zraw = doc.get("zip") or []
    if isinstance(zraw, dict):
        zraw = [zraw]
        zwhere = ["zip"]
    elif isinstance(zraw, list):
        zwhere = [f"zip[{i}]" for i in range(len(zraw))]
    else:
        raise SpecError(file, "zip", f"expected a mapping of key.path: [values] (or a list of them), got {_type_name(zraw)}")
    zips = []
    for group, where in zip(zraw, zwhere):
        _mapping(file, where, group)
        if not group:
            raise SpecError(file, where, "empty group (expected key.path: [values])")
        items = []
        length = None
        first = None
        for k, v in group.items():
            check_key_path(file, where, k)
            claim(k, where)
            if not isinstance(v, list) or not v:
                raise SpecError(file, f"{where}.{k}", f"expected a non-empty list of values, got {_type_name(v)}")
            if length is None:
                length, first = len(v), k
            elif len(v) != length:
                raise SpecError(file, f"{where}.{k}",
                                f"has {len(v)} values but {first} has {length}: zipped lists must have the same length")
            items.append((k, v))
        zips.append(items)

    sources = _parse_sources(file, doc.get("sources"), seed)
    if sources is not None and SOURCE_KEY in seen:
        raise SpecError(file, "sources", f"schedule.source is already given in {seen[SOURCE_KEY]}")
    if repeats is not None and SEED_KEY in seen:
        raise SpecError(file, "repeats", f"repeats sets run.seed, which is already given in {seen[SEED_KEY]}")

    exclude = []
    swept = {k for k in seen if seen[k] != "set"}
    if sources is not None:
        swept.add(SOURCE_KEY)
    if repeats is not None:
        swept.add(SEED_KEY)
    ex = doc.get("exclude") or []
    if not isinstance(ex, list):
        raise SpecError(file, "exclude", f"expected a list of mappings key.path: value, got {_type_name(ex)}")
    for i, entry in enumerate(ex):
        where = f"exclude[{i}]"
        _mapping(file, where, entry)
        if not entry:
            raise SpecError(file, where, "empty entry would exclude every point")
        for k in entry:
            if k not in swept:
                raise SpecError(file, f"{where}.{k}",
                                f"not a swept key (expected one of: {', '.join(sorted(swept)) or 'none'})")
        exclude.append({k: canonical(v) for k, v in entry.items()})

    return Spec(path=file, base=base, output=output, description=description, fixed=fixed, grid=grid,
                zips=zips, sources=sources, repeats=repeats, seed=seed, exclude=exclude, timeout=timeout,
                base_sha256=hashlib.sha256(base_bytes).hexdigest(), saturate=saturate, text=text,
                base_doc=base_doc)


def _set_path(tree, key, value):
    """Apply `--set key=value` semantics to a config tree (dict)."""
    parts = key.split(".")
    node = tree
    for p in parts[:-1]:
        if not isinstance(node.get(p), dict):
            node[p] = {}
        node = node[p]
    last = parts[-1]
    if value is None:
        node.pop(last, None)
    else:
        node[last] = copy.deepcopy(value)
    if parts == ["schedule", "file"] and value is not None:
        node.pop("algorithm", None)
    if parts == ["schedule", "algorithm"] and value is not None:
        node.pop("file", None)


def _resolve_value(spec_dir, key, value):
    """schedule.file paths in a spec are relative to the spec; wormsim gets them absolute."""
    if key == "schedule.file" and isinstance(value, str) and value and not os.path.isabs(value):
        return os.path.normpath(os.path.join(spec_dir, value))
    return value


def _nodes(spec, config, where):
    """Source nodes of a point's network: [x, y, ...] lists for meshes/tori, ids for hypercubes."""
    net = config.get("network") if isinstance(config.get("network"), dict) else {}
    topo = net.get("topology")
    dims = net.get("dims")
    if isinstance(dims, int) and not isinstance(dims, bool):
        dims = [dims]
    if topo not in ("mesh", "torus", "line", "ring", "hypercube") or not isinstance(dims, list) or not dims \
            or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in dims):
        raise SpecError(spec.path, "sources",
                        f"needs network.topology and network.dims of each point ({where}: got topology "
                        f"{topo!r}, dims {dims!r})")
    if topo == "hypercube":
        if len(dims) != 1 or dims[0] > 24:
            raise SpecError(spec.path, "sources", f"hypercube dims must be [d] ({where}: got {dims!r})")
        count = 1 << dims[0]
        return count, (lambda i: i)
    count = 1
    for d in dims:
        count *= d
    if count > 1 << 24:
        raise SpecError(spec.path, "sources", f"network too large ({where}: {count} nodes)")

    def coord(i):
        c = []
        for d in dims:
            c.append(i % d)
            i //= d
        return c

    return count, coord


def _source_values(spec, config, where):
    count, name = _nodes(spec, config, where)
    if spec.sources["mode"] == "all":
        ids = range(count)
    else:
        n = spec.sources["n"]
        dims = config["network"]["dims"]
        rng = random.Random(f"{spec.sources['seed']}|{config['network']['topology']}|{canonical(dims)}")
        ids = sorted(rng.sample(range(count), n)) if n < count else range(count)
    return [name(i) for i in ids]


def point_id(spec, params):
    """Deterministic id: hash of the base config's content, the fixed overrides and the point's values."""
    payload = {
        "base_sha256": spec.base_sha256,
        "set": [[k, v] for k, v in spec.fixed],
        "params": {k: v for k, v in params.items()},
    }
    if spec.saturate is not None:  # a saturation search per point: another result, another id
        payload["saturate"] = spec.saturate
    return hashlib.sha256(canonical(payload).encode()).hexdigest()[:16]


def expand(spec):
    """All points of the spec, in table order (zip groups, then grid keys in spec order,
    the last varying fastest; then sources; then repeats)."""
    spec_dir = os.path.dirname(os.path.abspath(spec.path))
    fixed = [(k, _resolve_value(spec_dir, k, v)) for k, v in spec.fixed]
    fixed_cells = spec.fixed_cells()

    base_doc = None
    if spec.sources is not None:
        base_doc = copy.deepcopy(spec.base_doc)
        for k, v in fixed:
            _set_path(base_doc, k, v)

    zip_axes = [[list(zip([k for k, _ in group], values)) for values in zip(*[v for _, v in group])]
                for group in spec.zips]
    grid_axes = [[[(k, v)] for v in values] for k, values in spec.grid]

    points = []
    ids = {}
    index = 0
    for combo in itertools.product(*zip_axes, *grid_axes):
        params = {}
        for pairs in combo:
            for k, v in pairs:
                params[k] = v
        variants = [dict(params)]
        if spec.sources is not None:
            config = copy.deepcopy(base_doc)
            for k, v in params.items():
                if not k.startswith("tag."):
                    _set_path(config, k, _resolve_value(spec_dir, k, v))
            where = ", ".join(f"{k}={canonical(v)}" for k, v in params.items()) or "base config"
            variants = [dict(params, **{SOURCE_KEY: s}) for s in _source_values(spec, config, where)]
        for p in variants:
            reps = [None] if spec.repeats is None else list(range(spec.repeats))
            for r in reps:
                q = dict(p)
                if r is not None:
                    q["repeat"] = r
                    q[SEED_KEY] = spec.seed + r
                if any(all(canonical(q.get(k)) == v for k, v in entry.items()) for entry in spec.exclude):
                    continue
                pid = point_id(spec, q)
                if pid in ids:
                    raise SpecError(spec.path, None,
                                    f"two points run the same parameters ({', '.join(f'{k}={canonical(v)}' for k, v in q.items())}); "
                                    f"make them differ (e.g. with a tag.NAME column)")
                ids[pid] = True
                sets = list(fixed)
                sets += [(k, _resolve_value(spec_dir, k, v)) for k, v in q.items()
                         if not k.startswith("tag.") and k != "repeat"]
                points.append(Point(index=index, id=pid, params=q, sets=sets, repeat=r, fixed=fixed_cells))
                index += 1
                if index > MAX_POINTS:
                    raise SpecError(spec.path, None, f"more than {MAX_POINTS} points; split the sweep")
    return points
