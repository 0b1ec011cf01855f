"""Score sheets: a game's turns as people write them down, read one way
everywhere (the API's text form of ``turns``, ``/game``, the command line,
the archive audit and, through a table of shared cases, the playground).

A score sheet is lines (or ``;``-separated entries); each entry may start
with a move number (``12.`` or ``12...``) and holds one or two HTN turns (a
new turn starts at every token that is a Project); blank entries are
skipped.

>>> [turn_to_htn(t) for t in parse_score_sheet("1. c3 +d4 e5 +d4\\n2. e5 +d5")]
['c3 +d4', 'e5 +d4', 'e5 +d5']
>>> read_score_sheet("1. c3 +d4; 1... e5 +d4")[1]
SheetTurn(text='e5 +d4', line=1, column=17)

A sheet that does not read raises :class:`ScoreSheetError`, which says the
line, the column and the text:

>>> parse_score_sheet("1. c3 +d4\\n2. e5 +d9")
Traceback (most recent call last):
...
checker.scoresheet.ScoreSheetError: line 2, column 4 ('e5 +d9'): '+d9': d9 is not a cell
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from checker.notation import (
    CELL_PATTERN,
    PROJECT_PATTERN,
    NotationError,
    parse_htn,
    turn_to_htn,  # noqa: F401 (the doctest)
)
from checker.turn import Turn

__all__ = ["SCORE_SHEET_PATTERN", "ScoreSheetError", "SheetTurn", "parse_score_sheet", "read_score_sheet"]

_SP = "[ \t]"
_NUMBER = f"[0-9]+{_SP}*\\.+{_SP}*"
_TURN = f"{PROJECT_PATTERN}(?:{_SP}+[-+]{CELL_PATTERN})?(?:{_SP}+[*#]{CELL_PATTERN})?"
_BLANK = f"{_SP}*(?:{_NUMBER})?{_SP}*"
_TURNS = f"{_SP}*(?:{_NUMBER})?{_TURN}(?:{_SP}+{_TURN})?{_SP}*"
_BREAK = "(?:;|\r\n|\r|\n)"

SCORE_SHEET_PATTERN = f"^(?:{_BLANK}{_BREAK})*{_TURNS}(?:{_BREAK}(?:{_TURNS}|{_BLANK}))*$"
"""Every score sheet :func:`read_score_sheet` takes, and no other: entries
that may be blank, at least one of them with a turn."""

_LINES_RE = re.compile("\r\n|\r|\n")
_NUMBER_RE = re.compile(_NUMBER)
_TOKEN_RE = re.compile("[^ \t]+")


class ScoreSheetError(NotationError):
    """A score sheet that does not read: ``line`` and ``column`` (1-based) and
    ``text`` (the entry at fault) say where."""

    def __init__(self, message: str, line: int, column: int, text: str):
        super().__init__(f"line {line}, column {column} ({text!r}): {message}", f"line {line}")
        self.line, self.column, self.text, self.reason = line, column, text, message


@dataclass(frozen=True)
class SheetTurn:
    """One turn's HTN text as written, where it starts (1-based), and the turn."""

    text: str
    line: int
    column: int
    turn: Turn = field(repr=False)


def _entries(text: str):
    """``(line, column, entry)`` for every ``;``-separated entry of every line."""
    for number, line in enumerate(_LINES_RE.split(text), 1):
        column = 1
        for entry in line.split(";"):
            yield number, column, entry
            column += len(entry) + 1


def _turns_of(line: int, column: int, entry: str) -> list[SheetTurn]:
    """The turns of one entry, a move number dropped; raises
    :class:`ScoreSheetError` for any token that does not belong."""
    number = _NUMBER_RE.match(entry, len(entry) - len(entry.lstrip(" \t")))
    start = number.end() if number else 0
    groups: list[list[re.Match[str]]] = []
    for token in _TOKEN_RE.finditer(entry, start):
        if token[0][0] in "+-*#" and groups:
            groups[-1].append(token)
        else:
            groups.append([token])
    turns = []
    for group in groups:
        first, last = group[0], group[-1]
        where = column + first.start()
        body = entry[first.start() : last.end()]
        try:
            turn = parse_htn(body)
        except NotationError as exc:
            raise ScoreSheetError(exc.message, line, where, body) from None
        turns.append(SheetTurn(body, line, where, turn))
    if len(turns) > 2:
        third = turns[2]
        raise ScoreSheetError(
            "an entry holds at most two turns (A's and B's); start a new line or write ';'",
            line,
            third.column,
            third.text,
        )
    return turns


def read_score_sheet(text: str) -> list[SheetTurn]:
    """The turns of a score sheet as written, in order, with where each starts.
    Raises :class:`ScoreSheetError` (or :class:`NotationError` for a text
    that is not a string)."""
    if not isinstance(text, str):
        raise NotationError("a score sheet must be a string", "turns")
    turns = [turn for line, column, entry in _entries(text) for turn in _turns_of(line, column, entry)]
    if not turns:
        raise NotationError(
            "no turn: write HTN turns one per line or separated by ';', such as c3 +d4; e5 +d4", "turns"
        )
    return turns


def parse_score_sheet(text: str) -> list[Turn]:
    """The turns of a score sheet, parsed.  Raises :class:`ScoreSheetError`."""
    return [written.turn for written in read_score_sheet(text)]
