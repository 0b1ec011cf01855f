"""Pictures as PNG: an SVG drawing of :mod:`checker.drawing.svg` rasterised.

Forums and chats embed PNG, not SVG.  :func:`svg_to_png` rasterises with
resvg (the Rust SVG renderer, through the self-contained ``resvg-py`` wheel:
no system library).  resvg finds the text's fonts itself, in the system's
font folders (no fontconfig needed): the drawing asks for "DejaVu Sans,
Verdana, Arial, sans-serif", so a container needs a font package such as
Debian's ``fonts-dejavu-core``.

Why resvg rather than cairosvg (measured on the board with a verdict drawn,
see ``make bench``): about as fast at 400 px, somewhat slower at 800 px;
PNGs about a quarter smaller at 800 px and up; and a container needs 3 MB of
wheel plus a 3 MB font package, where cairosvg needs the system's cairo
(about 13 MB of Debian packages with X11 libraries) and 25 MB of Python
packages (Pillow, cairocffi, cffi, tinycss2, cssselect2, defusedxml).

>>> from checker.position import Position
>>> from checker.drawing.svg import render_svg
>>> png = svg_to_png(render_svg(Position.start()), 200)
>>> png[:8] == PNG_SIGNATURE, png_size(png)[0]
(True, 200)
"""

from __future__ import annotations

import struct

import resvg_py

__all__ = ["MIN_WIDTH", "MAX_WIDTH", "DEFAULT_WIDTH", "PNG_SIGNATURE", "RASTERISER", "svg_to_png", "png_size"]

MIN_WIDTH, MAX_WIDTH, DEFAULT_WIDTH = 100, 1600, 800
"""The widths a PNG may have, in px, and the width when none is asked for."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

RASTERISER = f"resvg-py {resvg_py.__version__} (resvg {resvg_py.__resvg_version__})"
"""What draws the PNGs: part of a picture's identity (its ETag)."""


def svg_to_png(svg: str, width: int) -> bytes:
    """The SVG document ``svg`` as PNG bytes, ``width`` px wide (the height
    keeps the drawing's proportions).  ``ValueError`` for a width outside
    :data:`MIN_WIDTH` … :data:`MAX_WIDTH`."""
    if isinstance(width, bool) or not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"the width must be a whole number of px from {MIN_WIDTH} to {MAX_WIDTH}, not {width!r}")
    return rasterise(svg, width, background="#ffffff")


def rasterise(svg: str, width: int, background: str | None = None) -> bytes:
    """Any SVG document as PNG, ``width`` px wide, on ``background`` (none:
    transparent): the board pictures above, and the service's 32-px icon."""
    if background is None:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width))
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background=background))


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's (width, height) in px, read from its header (IHDR chunk).

    >>> png_size(b"not a png")
    Traceback (most recent call last):
    ...
    ValueError: not a PNG
    """
    if len(data) < 24 or data[:8] != PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return struct.unpack(">II", data[16:24])
