"""Atomic file writes: write a temporary file in the target folder, fsync, rename.

A reader (or a process killed half-way) sees either the old file or the new one,
never a partial file.
"""

import os
import tempfile


def _fsync_dir(folder):
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_with(path, writer, binary=False):
    """Call writer(file_object) on a temporary file next to path, then rename it to path."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        mode = "wb" if binary else "w"
        kwargs = {} if binary else {"encoding": "utf-8", "newline": ""}
        with os.fdopen(fd, mode, **kwargs) as f:
            writer(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)


def write_text(path, text):
    write_with(path, lambda f: f.write(text))


def write_bytes(path, data):
    write_with(path, lambda f: f.write(data), binary=True)


def write_dataframe_csv(path, df):
    write_with(path, lambda f: df.to_csv(f, index=False, lineterminator="\n"))


def write_figure(path, fig, **savefig_kwargs):
    """Save a matplotlib figure atomically; the format follows the file extension."""
    fmt = os.path.splitext(os.fspath(path))[1].lstrip(".").lower() or "png"
    write_with(path, lambda f: fig.savefig(f, format=fmt, **savefig_kwargs), binary=True)
