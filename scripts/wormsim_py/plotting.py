"""Shared matplotlib helpers (Agg backend; PNG and SVG written atomically)."""

import os

import matplotlib

matplotlib.use("Agg")

from . import atomicio  # noqa: E402

FORMATS = (".png", ".svg", ".pdf")
DPI = 130


def outputs(out):
    """Files to write for -o OUT: OUT itself if it ends in .png/.svg/.pdf, else OUT.png and OUT.svg."""
    out = os.fspath(out)
    ext = os.path.splitext(out)[1].lower()
    if ext in FORMATS:
        return [out]
    return [out + ".png", out + ".svg"]


def save(fig, out):
    written = []
    for path in outputs(out):
        # a fixed date keeps SVG output byte-identical from run to run
        meta = {"Date": None} if path.lower().endswith(".svg") else {}
        atomicio.write_figure(path, fig, dpi=DPI, metadata=meta)
        written.append(path)
    return written
