"""Drawing: a position, and a verdict on a turn, as a picture.  Every board
the product shows (the API's and the pictures' SVG and PNG, the permalink
pages, the command line's ``render``) is drawn by :func:`draw`.

- :mod:`checker.drawing.svg`  the board as SVG, with the verdict the caller gives drawn on it
- :mod:`checker.drawing.png`  an SVG drawing as PNG (resvg), and the service's icon

It draws only what it is given: the caller judges the turn (``checker.check``).

May import: the rules engine (:mod:`checker`'s own modules) and resvg.  Never
the request handling (:mod:`checker.service`), the tools or the web.

>>> from checker import Position
>>> draw(Position.start()).startswith("<svg")
True
>>> draw(Position.start(), width=100)[1:4]
b'PNG'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import overload

from checker.board import Cell
from checker.legality import Verdict
from checker.position import Position


@overload
def draw(
    position: Position, verdict: Verdict | None = None, highlight: Iterable[Cell] = (), *, width: None = None
) -> str: ...
@overload
def draw(
    position: Position, verdict: Verdict | None = None, highlight: Iterable[Cell] = (), *, width: int
) -> bytes: ...
def draw(
    position: Position, verdict: Verdict | None = None, highlight: Iterable[Cell] = (), *, width: int | None = None
) -> str | bytes:
    """The board with ``verdict`` (a turn's, judged by the caller) and the
    ``highlight`` cells drawn on it: SVG text, or PNG bytes ``width`` pixels wide."""
    from checker.drawing.svg import render_svg

    svg = render_svg(position, highlight, verdict)
    if width is None:
        return svg
    from checker.drawing.png import svg_to_png

    return svg_to_png(svg, width)
