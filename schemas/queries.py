"""Query strings of the links (docs/api.md): the picture URLs and the permalink
pages.  They only translate text to the checker's types; a value that does
not translate is an error naming its parameter.

Every value is text (HPN, HTN, cell names, numbers).  Parameters a link may
carry besides these (a tracker's ``utm_source``) are ignored.
"""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate

from checker import board
from checker.drawing.png import DEFAULT_WIDTH, MAX_WIDTH, MIN_WIDTH
from checker.notation import NotationError, parse_htn, split_turns
from schemas.fields import MAX_HTN_LENGTH, QueryInteger, distinct_cells
from schemas.position import PositionField
from schemas.requests import MAX_REPLAY
from schemas.turn import TurnField

_HPN_DOC = {"type": "string", "minLength": 1, "description": "The position in HPN (the rules reference, /rules#hpn)."}
_HTN_DOC = {"type": "string", "minLength": 1, "description": "A turn in HTN (the rules reference, /rules#htn)."}


class CellCsvField(fields.Field):
    """Comma-separated distinct cell names (``c3,d4``) ↔ a frozenset of cells;
    an empty value is no cell."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or len(value) > 4 * board.CELL_COUNT:
            raise ValidationError(f"Expected at most {board.CELL_COUNT} cell names separated by commas.")
        return distinct_cells(filter(None, (v.strip() for v in value.split(","))))


class TurnListField(fields.Field):
    """A score sheet: HTN turns separated by ``;`` (or one per line), move
    numbers such as ``1.`` allowed (:func:`checker.notation.split_turns`) ↔
    a list of turns."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or len(value) > MAX_REPLAY * (MAX_HTN_LENGTH + 8):
            raise ValidationError(f"Expected at most {MAX_REPLAY} HTN turns separated by ';'.")
        texts = split_turns(value)
        if not texts:
            raise ValidationError("No turn: expected HTN turns separated by ';', such as c3 +d4;e5 +d4.")
        if len(texts) > MAX_REPLAY:
            raise ValidationError(f"{len(texts)} turns: a game has at most {MAX_REPLAY} half-moves.")
        turns, errors = [], {}
        for i, text in enumerate(texts):
            try:
                if len(text) > MAX_HTN_LENGTH:
                    raise NotationError(f"longer than {MAX_HTN_LENGTH} characters")
                turns.append(parse_htn(text))
            except NotationError as exc:
                errors[i] = [f"turn {i + 1} ({text[:MAX_HTN_LENGTH]!r}): HTN: {exc.message}"]
        if errors:
            raise ValidationError(errors)
        return turns


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
        metadata={"type": "string", "example": "c3,d4", "description": "Cells to highlight, separated by commas."},
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

    turns = TurnListField(
        required=True,
        metadata={
            "type": "string",
            "minLength": 1,
            "example": "c3 +d4;e5 +d4",
            "description": f"The game's turns in HTN, separated by ';', from the start position (at most "
            f"{MAX_REPLAY}; move numbers such as '1.' are allowed).",
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
