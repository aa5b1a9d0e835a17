"""Shared matplotlib helpers (Agg backend; PNG and SVG written atomically)."""

import io
import os

import matplotlib

matplotlib.use("Agg")
# SVG text stays text: searchable, selectable and editable in a paper's figure
matplotlib.rcParams["svg.fonttype"] = "none"

from . import atomicio  # noqa: E402

FORMATS = (".png", ".svg", ".pdf")
DPI = 110


def outputs(out):
    """Files to write for -o OUT: OUT itself if it ends in .png/.svg/.pdf, else OUT.png and OUT.svg."""
    out = os.fspath(out)
    ext = os.path.splitext(out)[1].lower()
    if ext in FORMATS:
        return [out]
    return [out + ".png", out + ".svg"]


def _png_bytes(fig):
    """The figure as an 8-bit palette PNG: plots have few colours, and a palette keeps files
    with many translucent bands about three times smaller than full RGBA."""
    from PIL import Image
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", pad_inches=0.1)
    buf.seek(0)
    img = Image.open(buf).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                                  dither=Image.Dither.NONE)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def save(fig, out):
    written = []
    for path in outputs(out):
        if path.lower().endswith(".png"):
            atomicio.write_bytes(path, _png_bytes(fig))
        else:
            # a fixed date keeps SVG output byte-identical from run to run; tight: titles above
            # the axes and legends beside them are part of the picture
            meta = {"Date": None} if path.lower().endswith(".svg") else {}
            atomicio.write_figure(path, fig, dpi=DPI, metadata=meta, bbox_inches="tight", pad_inches=0.1)
        written.append(path)
    return written
