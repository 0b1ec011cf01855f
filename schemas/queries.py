"""Query strings of the links (docs/api.md): the picture URLs and the permalink
pages.  They only translate text to the checker's types; a value that does
not translate is an error naming its parameter.

Every value is text (HPN, HTN, cell names, numbers).  Parameters a link may
carry besides these (a tracker's ``utm_source``) are ignored.
"""

from __future__ import annotations

import re

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate

from checker import board
from checker.drawing.png import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH
from checker.notation import CELL_PATTERN, HPN_PATTERN, HTN_PATTERN
from checker.scoresheet import SCORE_SHEET_PATTERN
from schemas.fields import QueryInteger
from schemas.position import PositionField
from schemas.requests import MAX_REPLAY
from schemas.turn import MAX_SHEET_LENGTH, ScoreSheetField, TurnField

_ITEM = f"[ \t]*(?:{CELL_PATTERN})?[ \t]*"
CELL_CSV_PATTERN = f"^{_ITEM}(?:,{_ITEM})*$"
MAX_CSV_LENGTH = 8 * board.CELL_COUNT

_HPN_DOC = {
    "type": "string",
    "minLength": 1,
    "pattern": HPN_PATTERN,
    "description": "The position in HPN (the rules reference, /rules#hpn).",
}
_HTN_DOC = {
    "type": "string",
    "minLength": 1,
    "pattern": HTN_PATTERN,
    "description": "A turn in HTN (the rules reference, /rules#htn).",
}


_CELL_RE = re.compile(CELL_PATTERN)


class CellCsvField(fields.Field):
    """Comma-separated cell names (``c3,d4``; spaces and empty items
    allowed, a cell named twice highlighted once) ↔ a frozenset of cells."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or len(value) > MAX_CSV_LENGTH:
            raise ValidationError(f"Expected cell names separated by commas, at most {MAX_CSV_LENGTH} characters.")
        names = [item.strip(" \t") for item in value.split(",")]  # CELL_CSV_PATTERN, item by item
        bad = next((name for name in names if name and _CELL_RE.fullmatch(name) is None), None)
        if bad is not None:
            raise ValidationError(f"{bad!r} is not a cell (a1 … g7).")
        return frozenset(board.parse_cell(name) for name in names if name)


def _embed():
    return fields.Boolean(
        load_default=False,
        metadata={"description": "1: the page without its header and footer, to be framed by an allowed origin."},
    )


class RenderQuerySchema(Schema):
    """``GET /v1/render.svg`` and ``GET /v1/render.png``."""

    class Meta:
        unknown = EXCLUDE

    position = PositionField(required=True, metadata=_HPN_DOC)
    turn = TurnField(
        load_default=None,
        metadata={**_HTN_DOC, "description": "A turn whose verdict is drawn, as POST /v1/render draws it."},
    )
    highlight = CellCsvField(
        load_default=frozenset,
        metadata={
            "type": "string",
            "example": "c3,d4",
            "pattern": CELL_CSV_PATTERN,
            "maxLength": MAX_CSV_LENGTH,
            "description": "Cells to highlight, separated by commas.",
        },
    )
    size = QueryInteger(
        load_default=DEFAULT_WIDTH,
        validate=validate.Range(MIN_WIDTH, MAX_WIDTH),
        metadata={
            "description": f"The PNG's width in px, {MIN_WIDTH} to {MAX_WIDTH} (default {DEFAULT_WIDTH}); "
            "the SVG is 400 px wide and scales."
        },
    )


class CheckPageQuerySchema(Schema):
    """``GET /check``: a verdict permalink."""

    class Meta:
        unknown = EXCLUDE

    position = PositionField(required=True, metadata=_HPN_DOC)
    turn = TurnField(required=True, metadata=_HTN_DOC)
    embed = _embed()


class GamePageQuerySchema(Schema):
    """``GET /game``: a game permalink, from the start position."""

    class Meta:
        unknown = EXCLUDE

    turns = ScoreSheetField(
        required=True,
        metadata={
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_SHEET_LENGTH,
            "pattern": SCORE_SHEET_PATTERN,
            "example": "1. c3 +d4 e5 +d4",
            "description": "The game's score sheet from the start position: HTN turns separated by ';' or "
            "newlines, one or two to an entry, move numbers such as '1.' or '1...' allowed. Turns after "
            f"the game's end (at most {MAX_REPLAY} half-moves) are judged illegal (game.over).",
        },
    )
    at = QueryInteger(
        load_default=None,
        validate=validate.Range(min=1),
        metadata={
            "description": "The turn to open, 1 for the first: the board before it, with its verdict. One more "
            "than the number of turns opens the final position. Default: the first illegal turn, "
            "or the final position."
        },
    )
    embed = _embed()
