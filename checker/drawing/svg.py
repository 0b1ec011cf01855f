"""Drawing a position, and optionally a turn's verdict, as a self-contained SVG.

:func:`render_svg` returns an SVG document as a string: the 37 hex cells of
RULES §1 (pointy-top hexes, row ``a`` at the top), each shaded by its tier
*and* labelled with the tier digit, the stones of A and B (distinct fills
*and* a letter), locked cells (a dashed inner border and a padlock), the
cell names, highlighted cells (a thick solid outline), a header with the
player to move and the half-move count, and a legend.

>>> from checker.position import Position
>>> svg = render_svg(Position.start())
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> svg.count('class="cell"')
37

Given a turn's verdict (made by the caller with :func:`checker.legality.check`:
the picture draws what it is given and never judges), the drawing shows it:
the cells named by the failed checks are highlighted; the Project (a ring on
the Place cell, or an arrow for a Move), the Shape (a ``+`` or ``−`` badge)
and the Echo (``*`` Echo-Capture, ``#`` Echo-Lock badge) are marked; a
caption says "Legal" or "Illegal", the turn's HTN and the verdict's
explanation.

>>> from checker.legality import check
>>> from checker.notation import parse_htn
>>> svg = render_svg(Position.start(), verdict=check(Position.start(), parse_htn("d4 +c3")))
>>> 'id="cell-d4"' in svg and 'Illegal' in svg
True

Each cell is a ``<g id="cell-c3" class="cell">`` carrying ``data-cell``,
``data-tier``, ``data-stone`` (``A``, ``B`` or ``empty``), ``data-locked``
and ``data-highlight`` (``true``/``false``), with a ``<title>`` such as
"c3: Tier 1, A's Stone, locked".  The marks carry ``data-cell`` (or
``data-from``/``data-to`` for a Move).  The output uses no script, no
external reference and no web font, escapes all text, and is deterministic:
the same input gives the same string.

Pure standard library: no web framework, no drawing library.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable
from html import escape

from checker import board
from checker.board import Cell
from checker.legality import Verdict
from checker.notation import NotationError, position_to_hpn
from checker.position import MAX_HALF_MOVES, Position
from checker.turn import CAPTURE, RAISE, Move, Place, Turn

__all__ = ["render_svg", "WIDTH"]

WIDTH = 400
SIZE = 30.0  # hex radius (centre to vertex), in px
# Where a cell's labels and its marks go, from the cell's centre: the marks never cover a label
# (tests/test_render.py measures it for every mark on every cell).
LABEL_SIZE = 9.5  # the tier digit and the cell name
TIER_Y = -13.0  # the tier digit's baseline (above the stone)
NAME_Y = 22.5  # the cell name's baseline (below the stone, above the hex's lower vertex)
RING_R, RING_HALO = 11.5, 3.2  # the Place ring around the stone (r 9.5), and its white halo
BADGE_DX, BADGE_R = 17.5, 6.8  # the Shape (right) and Echo (left) badges beside the stone
_SQRT3 = math.sqrt(3.0)
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

_HEADER_H = 30.0
_BOARD_TOP = _HEADER_H + 4.0
_BOARD_H = 11 * SIZE  # 6 row gaps of 1.5 * SIZE, plus a hex height
_CAPTION_FONT = 11.5
_CAPTION_LINE = 15.0
_CAPTION_CHARS = 62  # characters per caption line at 400 px
_CAPTION_MAX_LINES = 4

# Tier 0 light, 1 mid, 2 dark; the ink on each stays readable.
_TIER_FILL = {0: "#f3ecdc", 1: "#cdb68a", 2: "#7d5c38"}
_TIER_INK = {0: "#3b3024", 1: "#2e2418", 2: "#ffffff"}
_UNKNOWN_FILL, _UNKNOWN_INK = "#bbbbbb", "#000000"
_STONE_FILL = {"A": "#1c1c1c", "B": "#ffffff"}
_STONE_INK = {"A": "#ffffff", "B": "#1c1c1c"}
_GRID = "#5a4a38"
_LOCK = "#111111"
_HIGHLIGHT = "#e0177a"  # magenta: differs from the lock's black dashes
_MARK = "#1565c0"  # blue: Project, Shape and Echo marks
_LEGAL, _ILLEGAL = "#1b7a2f", "#c62828"


# ------------------------------------------------------------ helpers --


def _n(v: float) -> str:
    """A coordinate, rounded to 0.1 px, without ``-0`` or a trailing ``.0``."""
    r = round(v, 1)
    if r == 0:
        r = 0.0
    return f"{r:.1f}".rstrip("0").rstrip(".")


def _attr(value) -> str:
    return escape(str(value), quote=True)


def _text(
    x: float,
    y: float,
    content: str,
    size: float,
    *,
    fill: str = "#000000",
    anchor: str = "middle",
    weight: str | None = None,
    extra: str = "",
) -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}" '
        f'fill="{fill}"{bold}{extra}>{escape(content, quote=False)}</text>'
    )


def _hex_points(cx: float, cy: float, r: float) -> str:
    """A pointy-top hexagon's six vertices, from the top clockwise."""
    pts = []
    for k in range(6):
        a = math.radians(-90 + 360 // 6 * k)  # the six corners
        pts.append(f"{_n(cx + r * math.cos(a))},{_n(cy + r * math.sin(a))}")
    return " ".join(pts)


def _coords(cell: Cell) -> tuple[int, int]:
    name = board.name(cell)
    return board.ROWS.index(name[0]) + 1, int(name[1:])


_X0 = WIDTH / 2 - SIZE * _SQRT3 * 2.0  # puts d4 (row 4, column 4) mid-width
_Y0 = _BOARD_TOP + SIZE - SIZE * 1.5  # puts row a's top vertex at _BOARD_TOP


def _centre(cell: Cell) -> tuple[float, float]:
    """x = size·√3·(col − row/2), y = size·1.5·row, shifted onto the canvas."""
    row, col = _coords(cell)
    return _X0 + SIZE * _SQRT3 * (col - row / 2), _Y0 + SIZE * 1.5 * row


CENTRES: tuple[tuple[float, float], ...] = tuple(_centre(c) for c in board.CELLS)
"""The centre of each cell on the canvas, in px."""


def _cell_arg(c) -> Cell:
    if isinstance(c, str):
        return board.parse_cell(c)
    if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < board.CELL_COUNT:
        raise ValueError(f"{c!r} is not a cell (an int 0–{board.CELL_COUNT - 1} or a cell name)")
    return c


def _padlock(x: float, y: float, ink: str) -> str:
    """A small padlock whose body's top-left corner is at (x, y)."""
    return (
        f'<g class="lock-glyph" fill="none" stroke="{ink}" stroke-width="1.4">'
        f'<path d="M{_n(x + 1.5)} {_n(y)} v-2.2 a2.5 2.5 0 0 1 5 0 v2.2"/>'
        f'<rect x="{_n(x)}" y="{_n(y)}" width="8" height="5.6" rx="1" fill="{ink}"/></g>'
    )


# -------------------------------------------------------------- cells --


def _stone_text(stone) -> str:
    return "empty" if stone is None else str(stone)


def _cell_title(pos: Position, c: Cell, lit: bool) -> str:
    stone = pos.stones[c]
    parts = [f"Tier {pos.tiers[c]}", "no Stone" if stone is None else f"{stone}'s Stone"]
    if pos.locked[c]:
        parts.append("locked")
    if lit:
        parts.append("highlighted")
    return f"{board.name(c)}: " + ", ".join(parts)


def _cell_svg(pos: Position, c: Cell, lit: bool) -> str:
    name = board.name(c)
    cx, cy = CENTRES[c]
    tier, stone, locked = pos.tiers[c], pos.stones[c], pos.locked[c]
    fill = _TIER_FILL.get(tier, _UNKNOWN_FILL)
    ink = _TIER_INK.get(tier, _UNKNOWN_INK)
    out = [
        f'<g id="cell-{name}" class="cell" data-cell="{name}" data-tier="{_attr(tier)}" '
        f'data-stone="{_attr(_stone_text(stone))}" data-locked="{str(locked).lower()}" '
        f'data-highlight="{str(lit).lower()}">',
        f"<title>{escape(_cell_title(pos, c, lit), quote=False)}</title>",
        f'<polygon class="hex" points="{_hex_points(cx, cy, SIZE * 0.94)}" fill="{fill}" '
        f'stroke="{_GRID}" stroke-width="1"/>',
    ]
    if locked:
        out.append(
            f'<polygon class="lock" points="{_hex_points(cx, cy, SIZE * 0.82)}" fill="none" '
            f'stroke="{_LOCK if tier != 2 else "#ffffff"}" stroke-width="2.2" '
            f'stroke-dasharray="4 2.5"/>'
        )
        out.append(_text(cx - 4.5, cy + TIER_Y, str(tier), LABEL_SIZE, fill=ink, weight="bold", extra=' class="tier"'))
        out.append(_padlock(cx + 0.5, cy + TIER_Y - 4, ink))
    else:
        out.append(_text(cx, cy + TIER_Y, str(tier), LABEL_SIZE, fill=ink, weight="bold", extra=' class="tier"'))
    if stone is not None:
        sf = _STONE_FILL.get(stone, "#888888")
        si = _STONE_INK.get(stone, "#000000")
        out.append(
            f'<circle class="stone" cx="{_n(cx)}" cy="{_n(cy + 1)}" r="9.5" fill="{sf}" '
            f'stroke="#000000" stroke-width="1.2"/>'
        )
        out.append(_text(cx, cy + 5.2, str(stone), 12, fill=si, weight="bold"))
    out.append(_text(cx, cy + NAME_Y, name, LABEL_SIZE, fill=ink, extra=' class="name"'))
    if lit:
        out.append(
            f'<polygon class="highlight" points="{_hex_points(cx, cy, SIZE * 0.95)}" fill="none" '
            f'stroke="{_HIGHLIGHT}" stroke-width="3.6" stroke-linejoin="round"/>'
        )
    out.append("</g>")
    return "".join(out)


# -------------------------------------------------------------- marks --


def _badge(cell: Cell, dx: float, symbol: str, mark_id: str, kind: str, title: str) -> str:
    cx, cy = CENTRES[cell]
    x, y = cx + dx, cy + 1
    return (
        f'<g id="{mark_id}" class="mark" data-kind="{kind}" data-cell="{board.name(cell)}">'
        f"<title>{escape(title, quote=False)}</title>"
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(BADGE_R)}" fill="#ffffff" stroke="{_MARK}" stroke-width="1.8"/>'
        + _text(x, y + 4.2, symbol, 12, fill=_MARK, weight="bold")
        + "</g>"
    )


def _project_mark(turn: Turn) -> str:
    p = turn.project
    if isinstance(p, Place):
        cx, cy = CENTRES[p.cell]
        return (
            f'<g id="project-mark" class="mark" data-kind="place" data-cell="{board.name(p.cell)}">'
            f"<title>{escape('Project: Place on ' + board.name(p.cell), quote=False)}</title>"
            f'<circle cx="{_n(cx)}" cy="{_n(cy + 1)}" r="{_n(RING_R)}" fill="none" stroke="#ffffff" '
            f'stroke-width="{_n(RING_HALO)}"/>'
            f'<circle cx="{_n(cx)}" cy="{_n(cy + 1)}" r="{_n(RING_R)}" fill="none" stroke="{_MARK}" '
            f'stroke-width="2.6" stroke-dasharray="3.5 2"/></g>'
        )
    if isinstance(p, Move):
        title = f"Project: Move {board.name(p.src)} to {board.name(p.dst)}"
        head = (
            f'<g id="project-mark" class="mark" data-kind="move" data-from="{board.name(p.src)}" '
            f'data-to="{board.name(p.dst)}"><title>{escape(title, quote=False)}</title>'
        )
        (x1, y1), (x2, y2) = CENTRES[p.src], CENTRES[p.dst]
        dist = math.hypot(x2 - x1, y2 - y1)
        if dist == 0:  # a Move onto its own cell: a ring, not an arrow
            return (
                head + f'<circle cx="{_n(x1)}" cy="{_n(y1 + 1)}" r="{_n(RING_R)}" fill="none" stroke="{_MARK}" '
                f'stroke-width="2.6"/></g>'
            )
        ux, uy = (x2 - x1) / dist, (y2 - y1) / dist
        sx, sy = x1 + ux * 10.5, y1 + uy * 10.5  # start at the edge of the from-cell's stone
        tx, ty = x2 - ux * 9, y2 - uy * 9  # the arrow's tip
        bx, by = tx - ux * 11, ty - uy * 11  # the arrowhead's base
        px, py = -uy, ux
        headpts = f"{_n(tx)},{_n(ty)} {_n(bx + px * 6)},{_n(by + py * 6)} {_n(bx - px * 6)},{_n(by - py * 6)}"
        line = f"M{_n(sx)} {_n(sy)} L{_n(bx)} {_n(by)}"
        return (
            head
            + f'<path d="{line}" stroke="#ffffff" stroke-width="6.5" stroke-linecap="round" fill="none"/>'
            + f'<polygon points="{headpts}" fill="#ffffff" stroke="#ffffff" stroke-width="3" '
            f'stroke-linejoin="round"/>'
            + f'<path d="{line}" stroke="{_MARK}" stroke-width="3.2" stroke-linecap="round" fill="none"/>'
            + f'<polygon points="{headpts}" fill="{_MARK}"/></g>'
        )
    return ""  # a skip has no cell


def _marks_svg(turn: Turn) -> str:
    parts = [_project_mark(turn)]
    if turn.shape is not None:
        s = turn.shape
        raise_ = s.kind == RAISE
        parts.append(
            _badge(
                s.cell,
                BADGE_DX,
                "+" if raise_ else "\u2212",
                "shape-mark",
                "raise" if raise_ else "lower",
                f"Shape: {'raise' if raise_ else 'lower'} {board.name(s.cell)}",
            )
        )
    if turn.echo is not None:
        e = turn.echo
        cap = e.kind == CAPTURE
        parts.append(
            _badge(
                e.cell,
                -BADGE_DX,
                "*" if cap else "#",
                "echo-mark",
                "capture" if cap else "lock",
                f"{'Echo-Capture' if cap else 'Echo-Lock'} {board.name(e.cell)}",
            )
        )
    return '<g id="marks">' + "".join(parts) + "</g>"


# ------------------------------------------------------------- legend --


def _legend_svg(y: float, with_marks: bool) -> tuple[str, float]:
    out = ['<g id="legend" font-size="10">']
    r = 9.0
    x = 14.0
    for tier in (0, 1, 2):
        out.append(
            f'<polygon points="{_hex_points(x, y, r)}" fill="{_TIER_FILL[tier]}" stroke="{_GRID}" stroke-width="1"/>'
        )
        out.append(_text(x, y + 3.3, str(tier), 9, fill=_TIER_INK[tier], weight="bold"))
        out.append(_text(x + r + 3, y + 3.5, f"Tier {tier}", 10, anchor="start"))
        x += 57
    for stone in ("A", "B"):
        out.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="7.5" fill="{_STONE_FILL[stone]}" stroke="#000000" '
            f'stroke-width="1.2"/>'
        )
        out.append(_text(x, y + 3.6, stone, 10, fill=_STONE_INK[stone], weight="bold"))
        out.append(_text(x + 11, y + 3.5, f"{stone}'s Stone", 10, anchor="start"))
        x += 72
    out.append(
        f'<polygon points="{_hex_points(x, y, r)}" fill="{_TIER_FILL[2]}" stroke="{_LOCK}" '
        f'stroke-width="1.8" stroke-dasharray="3 2"/>'
    )
    out.append(_padlock(x - 4, y - 1, "#ffffff"))
    out.append(_text(x + r + 3, y + 3.5, "locked", 10, anchor="start"))
    y2 = y + 22
    x = 14.0
    out.append(
        f'<polygon points="{_hex_points(x, y2, r)}" fill="{_TIER_FILL[0]}" stroke="{_HIGHLIGHT}" stroke-width="3"/>'
    )
    out.append(
        _text(x + r + 3, y2 + 3.5, "highlighted" + (" (failed check)" if with_marks else ""), 10, anchor="start")
    )
    if with_marks:
        x = 190.0
        out.append(
            f'<circle cx="{_n(x)}" cy="{_n(y2)}" r="7" fill="none" stroke="{_MARK}" stroke-width="2.2" '
            f'stroke-dasharray="3 1.6"/>'
        )
        out.append(_text(x + 10, y2 + 3.5, "Place", 10, anchor="start"))
        x += 56
        out.append(
            f'<path d="M{_n(x - 8)} {_n(y2)} L{_n(x + 3)} {_n(y2)}" stroke="{_MARK}" stroke-width="2.6"/>'
            f'<polygon points="{_n(x + 9)},{_n(y2)} {_n(x + 2)},{_n(y2 - 4.5)} {_n(x + 2)},{_n(y2 + 4.5)}" '
            f'fill="{_MARK}"/>'
        )
        out.append(_text(x + 12, y2 + 3.5, "Move", 10, anchor="start"))
        y2 += 22
        x = 14.0
        for symbol, label, step in (
            ("+", None, 17),
            ("\u2212", "Shape", 66),
            ("*", "Echo-Capture", 100),
            ("#", "Echo-Lock", 0),
        ):
            out.append(
                f'<circle cx="{_n(x)}" cy="{_n(y2)}" r="6.3" fill="#ffffff" stroke="{_MARK}" stroke-width="1.6"/>'
            )
            out.append(_text(x, y2 + 4, symbol, 11, fill=_MARK, weight="bold"))
            if label:
                out.append(_text(x + 10, y2 + 3.5, label, 10, anchor="start"))
            x += step
    out.append("</g>")
    return "".join(out), y2 + 14


# ------------------------------------------------------------ caption --


def _wrap(text: str) -> list[str]:
    lines = textwrap.wrap(text, width=_CAPTION_CHARS, break_long_words=True, break_on_hyphens=False)
    if len(lines) > _CAPTION_MAX_LINES:
        lines = lines[:_CAPTION_MAX_LINES]
        last = lines[-1]
        if len(last) > _CAPTION_CHARS - 1:
            last = last[: _CAPTION_CHARS - 1].rstrip()
        lines[-1] = last + "\u2026"
    return lines


# --------------------------------------------------------------- main --


def render_svg(position: Position, highlight: Iterable = (), verdict: Verdict | None = None) -> str:
    """The position as an SVG document (a string), 400 px wide.

    ``highlight``: cells (ints, or cell names) to outline.  ``verdict``: a
    :class:`~checker.legality.Verdict` of a turn played from ``position``
    (the caller judges it with :func:`checker.legality.check`); the cells of
    its failed checks are highlighted too, its turn's Project, Shape and Echo
    are marked, and a caption gives the verdict.
    """
    lit: set[Cell] = {_cell_arg(c) for c in highlight}
    if verdict is not None:
        for chk in verdict.checks:
            if chk.failed:
                lit.update(board.parse_cell(n) for n in chk.cells)

    header = f"{position.to_move} to move \u00b7 {position.half_moves} of {MAX_HALF_MOVES} half-moves played"
    caption_head: str | None = None
    caption_lines: list[str] = []
    caption_colour = "#000000"
    if verdict is not None:
        caption_head = f"{'Legal' if verdict.legal else 'Illegal'} \u00b7 turn {verdict.turn}"
        caption_colour = _LEGAL if verdict.legal else _ILLEGAL
        caption_lines = _wrap(verdict.explanation)

    y = _BOARD_TOP + _BOARD_H + 8
    caption_svg = ""
    if caption_head is not None:
        y += 12
        parts = [
            '<g id="caption">',
            _text(
                12, y, caption_head, 13, fill=caption_colour, anchor="start", weight="bold", extra=' class="verdict"'
            ),
        ]
        for line in caption_lines:
            y += _CAPTION_LINE
            parts.append(_text(12, y, line, _CAPTION_FONT, anchor="start", extra=' class="summary"'))
        parts.append("</g>")
        caption_svg = "".join(parts)
        y += 10
    legend_svg, y = _legend_svg(y + 12, verdict is not None)
    height = math.ceil(y + 4)

    try:
        hpn = position_to_hpn(position)
    except NotationError:  # a position that cannot be written as HPN (values out of range)
        hpn = "(not expressible in HPN)"
    title = f"Hexodic board: {header}"
    desc = f"The 37-cell Hexodic board, position {hpn}."
    if verdict is not None:
        desc += f" Turn {verdict.turn}: {verdict.summary}"
    if lit:
        desc += " Highlighted: " + ", ".join(board.names(lit)) + "."

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="board-title board-desc" '
        f'font-family="{_FONT}">',
        f'<title id="board-title">{escape(title, quote=False)}</title>',
        f'<desc id="board-desc">{escape(desc, quote=False)}</desc>',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        '<g id="header">' + _text(12, 20, header, 13, anchor="start", weight="bold") + "</g>",
        '<g id="board">',
    ]
    out.extend(_cell_svg(position, c, c in lit) for c in board.CELLS)
    out.append("</g>")
    if verdict is not None:
        out.append(_marks_svg(verdict.declared))
    out.append(caption_svg)
    out.append(legend_svg)
    out.append("</svg>")
    return "".join(out)
