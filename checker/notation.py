"""Text notation (RULES §10): HPN for positions, HTN for turns.

Parse and emit, with canonical output:

>>> from checker.notation import parse_hpn, position_to_hpn, parse_htn, turn_to_htn
>>> start = parse_hpn("0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0")
>>> position_to_hpn(start)
'0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0'
>>> turn_to_htn(parse_htn("C3  +D4"))
'c3 +d4'

A text that does not parse raises :class:`NotationError`, whose message says
what was expected and where:

>>> parse_htn("c3 +h9")
Traceback (most recent call last):
...
checker.notation.NotationError: '+h9': h9 is not a cell
"""

from __future__ import annotations

import functools
import re

from checker import board
from checker.board import Cell, CellError
from checker.position import PLAYERS, PlayerState, Position, other
from checker.turn import (
    CAPTURE,
    CAPTURES,
    LOCKS,
    LOWERS,
    PLACES,
    RAISE,
    RAISES,
    Echo,
    Move,
    Place,
    Project,
    Shape,
    Skip,
    Turn,
)

__all__ = [
    "NotationError",
    "parse_hpn",
    "position_to_hpn",
    "key_hpn",
    "parse_htn",
    "parse_project",
    "parse_shape",
    "turn_to_htn",
    "project_to_htn",
    "shape_to_htn",
    "echo_to_htn",
    "parse_cell_list",
    "START_HPN",
]

START_HPN = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
_MAX_DIGITS = 9  # larger numbers are refused as text; no count in a game comes close


class NotationError(ValueError):
    """An HPN or HTN text that does not parse.

    ``message`` says what was expected; ``where`` names the part of the text
    (a field, a row, a token) at fault.
    """

    def __init__(self, message: str, where: str = ""):
        super().__init__(message)
        self.message = message
        self.where = where


# ---------------------------------------------------------------- HPN ------

_PLAYER_FIELDS = ("reserve", "charges", "lowers_left", "captures", "raises", "flags", "cooldown")


def _number(text: str, what: str, where: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise NotationError(f"{what} must be a whole number, not {text!r}", where)
    if len(text) > _MAX_DIGITS:
        raise NotationError(f"{what} {text} has {len(text)} digits; a number has at most {_MAX_DIGITS}", where)
    return int(text)


def parse_cell_list(text: str, where: str) -> frozenset[Cell]:
    """``-`` or comma-separated cells, no repeats (a cooldown)."""
    if text == "-":
        return frozenset()
    cells: list[Cell] = []
    for part in text.split(","):
        try:
            cell = board.parse_cell(part)
        except CellError:
            raise NotationError(f"{part!r} in the cooldown {text!r} is not a cell", where) from None
        if cell in cells:
            raise NotationError(f"{board.name(cell)} is listed twice in the cooldown {text!r}", where)
        cells.append(cell)
    return frozenset(cells)


_FLAGS = {"-": (False, False), "P": (True, False), "L": (False, True), "PL": (True, True)}


def _explain_player(text: str, who: str) -> PlayerState:
    where = f"player {who}"
    parts = text.split(":")
    if len(parts) != 7:
        raise NotationError(
            f"player {who} {text!r} has {len(parts)} ':'-separated parts, expected 7 "
            "(reserve:charges:lowers_left:captures:raises:flags:cooldown)",
            where,
        )
    numbers = [_number(p, f"{who}'s {name}", where) for p, name in zip(parts[:5], _PLAYER_FIELDS)]
    flags = parts[5]
    if flags not in ("-", "P", "L", "PL"):
        raise NotationError(f"{who}'s flags {flags!r} must be '-', 'P', 'L' or 'PL' (P before L)", where)
    cooldown = parse_cell_list(parts[6], where)
    reserve, charges, lowers_left, captures, raises = numbers
    return PlayerState(reserve, charges, lowers_left, captures, raises, "P" in flags, "L" in flags, cooldown)


# ------------------------------------------------- the grammar as patterns --
# One grammar, written once as regular expressions in the subset that Python
# and ECMA-262 (JSON Schema's ``pattern``) read alike: the parsers below take
# exactly the texts these patterns match, and openapi.yaml publishes them.

_WS = "[ \t\r\n]"
"""What separates fields and tokens (and may stand around a text)."""

CELL_PATTERN = (
    "(?:"
    + "|".join(
        f"[{row}{row.upper()}][{board.NAMES[cells[0]][1:]}-{board.NAMES[cells[-1]][1:]}]"
        for row, cells in zip(board.ROWS, board.ROW_CELLS)
    )
    + ")"
)
"""A cell name, either case: ``c3``, ``C3``."""

_NUMBER = "[0-9]{1,%d}" % _MAX_DIGITS
_BOARD = "/".join(f"(?:[012][AB]?\\*?){{{len(r)}}}" for r in board.ROW_CELLS)
_COOLDOWN = f"(?:-|{CELL_PATTERN}(?:,{CELL_PATTERN})*)"
_PLAYER = ":".join([_NUMBER] * 5) + ":(?:-|P|L|PL):" + _COOLDOWN

HPN_PATTERN = f"^{_WS}*{_BOARD}{_WS}+[AB]{_WS}+{_PLAYER}{_WS}+{_PLAYER}{_WS}+{_NUMBER}{_WS}*$"
"""Every HPN text the parser takes, and those only, but for one thing no
pattern says plainly: a cell named twice in one cooldown (``c3,C3``)."""

PROJECT_PATTERN = f"(?:[sS][kK][iI][pP]|{CELL_PATTERN}(?:[-xX]{CELL_PATTERN})?)"
"""A Project token (``c3``, ``c3-c4``, ``c3xc4``, ``skip``), either case."""
HTN_PATTERN = f"^{_WS}*{PROJECT_PATTERN}(?:{_WS}+[-+]{CELL_PATTERN})?(?:{_WS}+[*#]{CELL_PATTERN})?{_WS}*$"
"""Every HTN text the parser takes, and no other."""
PROJECT_TOKEN_PATTERN = f"^{_WS}*{PROJECT_PATTERN}{_WS}*$"
"""One Project token alone (a filter of the legal turns)."""
SHAPE_TOKEN_PATTERN = f"^{_WS}*[-+]{CELL_PATTERN}{_WS}*$"
"""One Shape token alone."""

# The same grammar with groups, for parsing (the repeat check is parse_cell_list's).
_HPN_RE = re.compile(
    f"{_WS}*({_BOARD}){_WS}+([AB]){_WS}+"
    + f"{_WS}+".join([f"({_NUMBER}):({_NUMBER}):({_NUMBER}):({_NUMBER}):({_NUMBER}):(-|P|L|PL):({_COOLDOWN})"] * 2)
    + f"{_WS}+({_NUMBER}){_WS}*"
)
_PROJECT_RE = re.compile(f"{_WS}*({PROJECT_PATTERN}){_WS}*")
_SHAPE_RE = re.compile(f"{_WS}*([-+])({CELL_PATTERN}){_WS}*")
_HTN_RE = re.compile(f"{_WS}*({PROJECT_PATTERN})(?:{_WS}+([-+]{CELL_PATTERN}))?(?:{_WS}+([*#]{CELL_PATTERN}))?{_WS}*")


def _player_from(groups: tuple[str, ...], who: str) -> PlayerState:
    placed, lock = _FLAGS[groups[5]]
    reserve, charges, lowers_left, captures, raises = map(int, groups[:5])
    cooldown = parse_cell_list(groups[6], f"player {who}")
    return PlayerState(reserve, charges, lowers_left, captures, raises, placed, lock, cooldown)


_CELL_RE = re.compile(r"([012])([AB]?)(\*?)")
_CELL_PARSE = {
    (str(t), s or "", "*" if lk else ""): (t, s, lk)
    for t in (0, 1, 2)
    for s in (None, "A", "B")
    for lk in (False, True)
}


def _explain_board(text: str) -> None:
    rows = text.split("/")
    if len(rows) != 7:
        raise NotationError(f"the board has {len(rows)} rows, expected 7 (rows a to g separated by '/')", "board")
    for row_letter, row_text, row_cells in zip(board.ROWS, rows, board.ROW_CELLS):
        where = f"row {row_letter}"
        n = 0
        i = 0
        while i < len(row_text):
            ch = row_text[i]
            if ch not in "012":
                cell_hint = f" (cell {board.name(row_cells[n])})" if n < len(row_cells) else ""
                if ch.isdigit():
                    raise NotationError(f"row {row_letter}{cell_hint}: tier {ch} is not 0, 1 or 2", where)
                raise NotationError(
                    f"row {row_letter}{cell_hint}: expected a tier digit 0, 1 or 2, found {ch!r}", where
                )
            i += 1
            if i < len(row_text) and row_text[i] in "AB":
                i += 1
            if i < len(row_text) and row_text[i] == "*":
                i += 1
            n += 1
        if n != len(row_cells):
            raise NotationError(f"row {row_letter} has {n} cells, expected {len(row_cells)}", where)


def _explain_hpn(text: str) -> NotationError:
    """Why ``text`` is not HPN: the first fault found, field by field."""
    fields = text.split()
    if len(fields) != 5:
        return NotationError(
            f"an HPN position has 5 space-separated fields (board, to-move, A, B, half-moves); found {len(fields)}",
            "position",
        )
    try:
        _explain_board(fields[0])
        if fields[1] not in PLAYERS:
            raise NotationError(f"the player to move must be A or B, not {fields[1]!r}", "to-move")
        _explain_player(fields[2], "A")
        _explain_player(fields[3], "B")
        _number(fields[4], "the half-move count", "half-moves")
    except NotationError as exc:
        return exc
    return NotationError("the fields of an HPN position are separated by spaces", "position")


def parse_hpn(text: str) -> Position:
    """Parse an HPN position.  Raises :class:`NotationError`.

    The result is not checked for consistency: see :meth:`Position.problems`.
    """
    if not isinstance(text, str):
        raise NotationError("an HPN position must be a string", "position")
    m = _HPN_RE.fullmatch(text)
    if m is None:
        raise _explain_hpn(text)
    groups = m.groups()
    tiers, stones, locked = zip(*map(_CELL_PARSE.__getitem__, _CELL_RE.findall(groups[0])))
    return Position(
        list(tiers),
        list(stones),
        list(locked),
        groups[1],
        int(groups[16]),
        {"A": _player_from(groups[2:9], "A"), "B": _player_from(groups[9:16], "B")},
    )


_CELL_TEXT = {
    (t, s, lk): f"{t}{s or ''}{'*' if lk else ''}" for t in (0, 1, 2) for s in (None, "A", "B") for lk in (False, True)
}
_ROW_SLICES = tuple(slice(row[0], row[-1] + 1) for row in board.ROW_CELLS)


def _board_to_hpn(pos: Position) -> str:
    cells = list(map(_CELL_TEXT.__getitem__, zip(pos.tiers, pos.stones, pos.locked)))
    return "/".join("".join(cells[r]) for r in _ROW_SLICES)


def _player_to_hpn(ps: PlayerState, with_cooldown: bool = True) -> str:
    flags = ("P" if ps.placed else "") + ("L" if ps.echo_lock_used else "") or "-"
    head = f"{ps.reserve}:{ps.charges}:{ps.lowers_left}:{ps.captures}:{ps.raises}:{flags}"
    if not with_cooldown:
        return head
    cooldown = ",".join(board.names(ps.cooldown)) or "-"
    return f"{head}:{cooldown}"


def _writable(pos: Position) -> None:
    if not set(pos.tiers) <= {0, 1, 2}:
        raise NotationError("a tier outside 0–2 cannot be written in HPN", "board")
    for who in PLAYERS:
        ps = pos.player(who)
        if min(ps.reserve, ps.charges, ps.lowers_left, ps.captures, ps.raises) < 0:
            raise NotationError(f"{who}'s negative counter cannot be written in HPN", f"player {who}")
    if pos.half_moves < 0:
        raise NotationError("a negative half-move count cannot be written in HPN", "half-moves")


def position_to_hpn(pos: Position) -> str:
    """The canonical HPN of a position (cooldown cells in board order).
    Raises :class:`NotationError` for a position HPN cannot express (a tier
    outside 0–2 or a negative counter: see :meth:`Position.problems`)."""
    _writable(pos)
    return (
        f"{_board_to_hpn(pos)} {pos.to_move} {_player_to_hpn(pos.player('A'))} "
        f"{_player_to_hpn(pos.player('B'))} {pos.half_moves}"
    )


def key_hpn(pos: Position) -> str:
    """The repetition key as text: the HPN without the cooldowns and the
    half-move field (RULES §10)."""
    return (
        f"{_board_to_hpn(pos)} {pos.to_move} {_player_to_hpn(pos.player('A'), False)} "
        f"{_player_to_hpn(pos.player('B'), False)}"
    )


# ---------------------------------------------------------------- HTN ------

_PROJECT_HELP = "a Project: a cell such as c3 (Place), c3-c4 or c3xc4 (Move), or skip"


def _cell(token: str, text: str) -> Cell:
    try:
        return board.parse_cell(text)
    except CellError:
        if not text:  # a sign with no cell after it: "+", "*"
            raise NotationError(f"{token!r}: a cell must follow it, such as {token}d4", token) from None
        raise NotationError(f"{token!r}: {text} is not a cell", token) from None


def _parse_project(token: str) -> Project:
    low = token.lower()
    if low == "skip":
        return Skip()
    if low[0] in "+-*#":
        raise NotationError(f"{token!r}: a turn starts with {_PROJECT_HELP}", token)
    cut = next((i for i, ch in enumerate(low) if ch in "-x"), None)
    if cut is None:
        if not (low[0].isalpha() and low[1:].isdigit()):
            raise NotationError(f"{token!r}: expected {_PROJECT_HELP}", token)
        return PLACES[_cell(token, low)]
    src, dst = low[:cut], low[cut + 1 :]
    if not src or not dst:
        raise NotationError(f"{token!r}: a Move names two cells, such as c3-c4", token)
    return Move(_cell(token, src), _cell(token, dst))


def parse_project(text: str) -> Project:
    """Parse one Project token (``c3``, ``c3-c4``, ``c3xc4`` or ``skip``)."""
    m = _PROJECT_RE.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise NotationError(f"expected one Project token: {_PROJECT_HELP}", "project")
    return _parse_project(m[1])


def parse_shape(text: str) -> Shape:
    """Parse one Shape token (``+d4`` raise, ``-d4`` lower)."""
    m = _SHAPE_RE.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise NotationError("expected one Shape token: +cell (raise) or -cell (lower)", "shape")
    return (RAISES if m[1] == "+" else LOWERS)[board.parse_cell(m[2])]


def _explain_htn(text: str) -> NotationError:
    """Why ``text`` is not HTN: the first fault found, token by token."""
    tokens = text.split()
    if not tokens:
        return NotationError(f"the turn is empty: expected {_PROJECT_HELP}", "turn")
    try:
        _parse_project(tokens[0])
        shape = echo = False
        for token in tokens[1:]:
            mark, rest = token[0], token[1:]
            if mark in "+-":
                if echo:
                    raise NotationError(f"{token!r}: the Shape comes before the Echo", token)
                if shape:
                    raise NotationError(f"{token!r}: a turn has at most one Shape", token)
                shape = _cell(token, rest) is not None
            elif mark in "*#":
                if echo:
                    raise NotationError(f"{token!r}: a turn has at most one Echo", token)
                echo = _cell(token, rest) is not None
            else:
                raise NotationError(
                    f"{token!r}: expected a Shape (+cell raise, -cell lower) or an Echo "
                    "(*cell Echo-Capture, #cell Echo-Lock)",
                    token,
                )
    except NotationError as exc:
        return exc
    return NotationError("the tokens of an HTN turn are separated by spaces", "turn")


def parse_htn(text: str) -> Turn:
    """Parse an HTN turn: the Project, then the Shape if any, then the Echo if
    any.  Raises :class:`NotationError`.  A turn is an immutable value, and a
    game archive writes the same few thousand turns again and again, so the
    last HTN_CACHE_SIZE texts read are remembered."""
    if not isinstance(text, str):
        raise NotationError("an HTN turn must be a string", "turn")
    return _parse_htn(text)


HTN_CACHE_SIZE = 8192


@functools.lru_cache(maxsize=HTN_CACHE_SIZE)
def _parse_htn(text: str) -> Turn:
    m = _HTN_RE.fullmatch(text)
    if m is None:
        raise _explain_htn(text)
    project_text, shape_text, echo_text = m.groups()
    shape = echo = None
    if shape_text is not None:
        shape = (RAISES if shape_text[0] == "+" else LOWERS)[board.parse_cell(shape_text[1:])]
    if echo_text is not None:
        echo = (CAPTURES if echo_text[0] == "*" else LOCKS)[board.parse_cell(echo_text[1:])]
    return Turn(_parse_project(project_text), shape, echo)


def project_to_htn(project: Project, pos: Position | None = None) -> str:
    if isinstance(project, Place):
        return board.name(project.cell)
    if isinstance(project, Move):
        capture = pos is not None and pos.stones[project.dst] == other(pos.to_move)
        return f"{board.name(project.src)}{'x' if capture else '-'}{board.name(project.dst)}"
    return "skip"


def shape_to_htn(shape: Shape) -> str:
    return ("+" if shape.kind == RAISE else "-") + board.name(shape.cell)


def echo_to_htn(echo: Echo) -> str:
    return ("*" if echo.kind == CAPTURE else "#") + board.name(echo.cell)


def turn_to_htn(turn: Turn, pos: Position | None = None) -> str:
    """Canonical HTN.  Given the position the turn is played from, a Move onto
    an enemy stone is written with ``x``.  (Written out rather than joined from
    :func:`shape_to_htn` and :func:`echo_to_htn`: every legal turn listed goes
    through here; ``tests/test_notation.py`` holds the two ways equal.)"""
    project, shape, echo = turn
    text = _NAMES[project.cell] if type(project) is Place else project_to_htn(project, pos)
    if shape is not None:
        text += (" +" if shape.kind is RAISE else " -") + _NAMES[shape.cell]
    if echo is not None:
        text += (" *" if echo.kind is CAPTURE else " #") + _NAMES[echo.cell]
    return text


_NAMES = board.NAMES
