"""The statistics wormsim declares (decl/stat.hpp), as `wormsim stats --json` prints them.

stats.json beside this file is that output, regenerated with
`wormsim stats --json > scripts/wormsim_py/stats.json`; a test fails when it differs from the
binary's, so the column types the readers use cannot drift from what the simulator writes.
"""

import json
import os

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stats.json")

with open(_PATH, encoding="utf-8") as _f:
    STATS = json.load(_f)


def columns(file, types=None):
    """Names of the declared columns of a CSV file (e.g. "messages.csv"), in order; only those of
    the given types ("integer", "number", "text") when `types` is given."""
    return tuple(s["name"] for s in STATS
                 if s["file"] == file and (types is None or s["type"] in types))


def summary_fields(block):
    """Dotted names of the declared fields of a summary.json block ("metrics", "host", ...)."""
    return tuple(s["name"] for s in STATS if s["file"] == "summary.json" and s["block"] == block)
