"""Atomic file writes: write a temporary file in the target folder, fsync, rename.

A reader (or a process killed half-way) sees either the old file or the new one,
never a partial file. Files get the mode of any file the user creates (0666 less the
umask: 0644 by default), so colleagues on a shared file system can read them.
"""

import os
import secrets


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


def _create_temporary(folder, name):
    """A new file next to the target. Unlike mkstemp's 0600, mode 0666 goes through the
    umask (and a default ACL) as for any file the user creates: no umask lookup, no race."""
    while True:
        tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), tmp
        except FileExistsError:
            continue


def write_with(path, writer, binary=False):
    """Call writer(file_object) on a temporary file next to path, then rename it to path."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = _create_temporary(folder, os.path.basename(path))
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
