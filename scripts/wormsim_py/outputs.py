"""Checking that a wormsim run folder holds one consistent output set.

wormsim writes summary.json last, with an "outputs" block naming every other file
of the set with its size and CRC-32:

    "outputs": {"messages.csv": {"bytes": 1234, "crc32": "0a1b2c3d"}, "links.csv": {...}, ...}

A folder is a consistent set iff summary.json parses, has that block, and every
listed file exists with exactly that size and CRC. Every reader (runs.Run, hence
compare_traces.py and plot.py, and sweep.py's resume) goes through verify(), so a
folder mixing two runs' files, or missing one, is refused the same way everywhere.

Standard library only: sweep.py ships this module to Dask workers by value.
"""

import json
import os
import zlib

SUMMARY = "summary.json"
# files every run writes beside summary.json, whatever its status (docs/reliability.md);
# `wormsim saturate` (summary.json "command": "saturate") writes its curve instead
REQUIRED = ("messages.csv", "links.csv", "steps.csv")
REQUIRED_BY_COMMAND = {"saturate": ("curve.csv", "curve.svg")}
_CHUNK = 1 << 20


class OutputSetError(Exception):
    """The folder is not one consistent output set. folder, file and reason say why;
    str() is "FOLDER/FILE: REASON"."""

    def __init__(self, folder, file, reason):
        self.folder, self.file, self.reason = folder, file, reason
        super().__init__(f"{os.path.join(folder, file) if file else folder}: {reason}")


def crc32_file(path):
    """(size in bytes, CRC-32 as 8 lowercase hex digits) of a file's contents."""
    crc = 0
    size = 0
    with open(path, "rb") as f:
        while True:
            block = f.read(_CHUNK)
            if not block:
                break
            crc = zlib.crc32(block, crc)
            size += len(block)
    return size, f"{crc & 0xFFFFFFFF:08x}"


def manifest_entry(path):
    """The "outputs" entry wormsim writes for a file: {"bytes": N, "crc32": "hhhhhhhh"}."""
    size, crc = crc32_file(path)
    return {"bytes": size, "crc32": crc}


def read_summary(folder):
    """summary.json of a folder as a dict; OutputSetError if missing or unreadable."""
    path = os.path.join(folder, SUMMARY)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise OutputSetError(folder, SUMMARY, "missing (the run did not finish writing its outputs, "
                                              "or this is not a wormsim output folder)") from None
    except IsADirectoryError:
        raise OutputSetError(folder, SUMMARY, "is a folder, not a file") from None
    except OSError as e:
        raise OutputSetError(folder, SUMMARY, f"cannot read ({e.strerror})") from None
    try:
        summary = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise OutputSetError(folder, SUMMARY, f"not valid UTF-8 at byte {e.start} (damaged)") from None
    except ValueError as e:
        raise OutputSetError(folder, SUMMARY, f"not valid JSON ({e}): truncated or damaged") from None
    if not isinstance(summary, dict):
        raise OutputSetError(folder, SUMMARY, "not a JSON object: not a wormsim summary")
    return summary


def verify(folder):
    """Check that folder holds one consistent output set; return its summary (a dict).

    Raises OutputSetError naming the file that does not match and why.
    """
    folder = os.fspath(folder)
    if not os.path.isdir(folder):
        raise OutputSetError(folder, None, "no such folder" if not os.path.exists(folder) else "not a folder")
    summary = read_summary(folder)
    outputs = summary.get("outputs")
    if outputs is None:
        raise OutputSetError(folder, SUMMARY, 'has no "outputs" block: it was written by an older wormsim, so '
                                              "the folder's files cannot be checked as one set; run it again")
    if not isinstance(outputs, dict):
        raise OutputSetError(folder, SUMMARY, '"outputs" is not a JSON object (damaged)')
    for name in REQUIRED_BY_COMMAND.get(summary.get("command"), REQUIRED):
        if name not in outputs:
            raise OutputSetError(folder, SUMMARY, f'"outputs" does not list {name}')
    for name, entry in outputs.items():
        # a plain file name in this folder: a damaged or hostile summary must not make us read elsewhere
        if not isinstance(name, str) or not name or name in (".", "..") or "/" in name or "\0" in name:
            raise OutputSetError(folder, SUMMARY, f'"outputs" lists {json.dumps(name)}, not a file name')
        size = entry.get("bytes") if isinstance(entry, dict) else None
        crc = entry.get("crc32") if isinstance(entry, dict) else None
        if (not isinstance(size, int) or isinstance(size, bool) or size < 0 or not isinstance(crc, str)
                or len(crc) != 8 or any(c not in "0123456789abcdef" for c in crc)):
            raise OutputSetError(folder, SUMMARY, f'"outputs"."{name}" is not {{"bytes": N, "crc32": "8 hex '
                                                  f'digits"}} (damaged)')
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            raise OutputSetError(folder, name, "missing, but summary.json lists it: the set is incomplete")
        if not os.path.isfile(path):
            raise OutputSetError(folder, name, "not a regular file")
        try:
            actual_size, actual_crc = crc32_file(path)
        except OSError as e:
            raise OutputSetError(folder, name, f"cannot read ({e.strerror})") from None
        if actual_size != size:
            raise OutputSetError(folder, name, f"has {actual_size} bytes but summary.json says {size}: "
                                               f"it is not the file of the run that wrote summary.json "
                                               f"(mixed or damaged output set)")
        if actual_crc != crc:
            raise OutputSetError(folder, name, f"CRC-32 {actual_crc} but summary.json says {crc}: "
                                               f"it is not the file of the run that wrote summary.json "
                                               f"(mixed or damaged output set)")
    return summary
