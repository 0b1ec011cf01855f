"""Request bodies of the HTTP contract (docs/api.md).  Every list has a maximum,
so no request can make a worker spin."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from checker.position import MAX_HALF_MOVES
from schemas.fields import CellField, CellListField, StrictBoolean
from schemas.position import PositionField
from schemas.quick import quick
from schemas.turn import ProjectFilterField, ShapeFilterField, TurnField, TurnForm, TurnsField

MAX_HISTORY = MAX_HALF_MOVES  # a game has no more earlier positions than half-moves
MAX_BATCH = 1000
MAX_REPLAY = MAX_HALF_MOVES

_POSITION_DOC = {"description": "A position: the JSON object of the rules reference §11, or an HPN string."}
_TURN_DOC = {"description": "A turn: the JSON object of the rules reference §11, or an HTN string."}
_HISTORY_DOC = {
    "description": "The game's earlier positions, oldest first (the start position first), not "
    "including the position the turn is played from; each a JSON position or an HPN "
    "string. Without it repetition and threefold are reported as not evaluated; an "
    "empty list is a history and is evaluated."
}


def _history():
    return fields.List(
        PositionField(metadata=_POSITION_DOC),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=MAX_HISTORY),
        metadata=_HISTORY_DOC,
    )


class CheckRequestSchema(Schema):
    """``POST /v1/check``: a position, a turn and optionally the history."""

    position = PositionField(required=True, metadata=_POSITION_DOC)
    turn = TurnField(required=True, metadata=_TURN_DOC)
    history = _history()


_CHECK_REQUEST = CheckRequestSchema()
_QUICK_CHECK_REQUEST = quick(CheckRequestSchema)


def load_check_request(data) -> dict:
    """A check request loaded: by the schema's quick function (:mod:`schemas.quick`) when it can,
    else by :class:`CheckRequestSchema` itself (which raises ``ValidationError``)."""
    loaded = _QUICK_CHECK_REQUEST(data)
    return loaded if loaded is not None else _CHECK_REQUEST.load(data)


class LegalTurnsRequestSchema(Schema):
    """``POST /v1/legal-turns``: every legal turn, or those beginning with
    ``project`` (and ``shape``)."""

    position = PositionField(required=True, metadata=_POSITION_DOC)
    history = _history()
    project = ProjectFilterField(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Only turns beginning with this Project: a JSON Project or an HTN token (c3, c3-c4, skip)."
        },
    )
    shape = ShapeFilterField(
        load_default=None,
        allow_none=True,
        metadata={"description": "With project: only turns with this Shape: a JSON Shape or an HTN token (+d4, -d4)."},
    )
    form = fields.Enum(
        TurnForm,
        by_value=True,
        load_default=TurnForm.OBJECTS,
        metadata={
            "description": "How each turn is written: objects ({htn, turn}, the default) or htn (the HTN string only, "
            "about a tenth of the bytes)."
        },
    )


class ValidateRequestSchema(Schema):
    """``POST /v1/validate``: a position to check for consistency (D-3)."""

    position = PositionField(required=True, metadata=_POSITION_DOC)


class ReplayRequestSchema(Schema):
    """``POST /v1/replay``: turns checked and applied in order from ``start``."""

    turns = TurnsField(
        MAX_REPLAY,
        required=True,
        metadata={
            "description": f"At most {MAX_REPLAY} turns (a game has at most {MAX_HALF_MOVES} half-moves): a list, "
            "each a JSON turn or HTN text, or one score sheet (HTN turns separated by ';' or newlines, one or two "
            "to an entry, move numbers such as '1.' or '1...' allowed)."
        },
    )
    start = PositionField(
        load_default=None,
        allow_none=True,
        metadata={"description": "The position to start from (JSON or HPN); default: the start position."},
    )
    history = fields.List(
        PositionField(metadata=_POSITION_DOC),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=MAX_HISTORY),
        metadata={
            "description": "The game's positions before `start`, oldest first. From the start "
            "position the history is known (empty); from another `start` "
            "without it, repetition and threefold are not evaluated."
        },
    )


class BatchRequestSchema(Schema):
    """``POST /v1/check/batch``: independent checks, answered in order."""

    items = fields.List(
        fields.Raw(
            allow_none=True,  # every item is answered on its own, null included
            metadata={
                "component": "CheckRequest",
                "description": "A check request {position, turn, history?}; a malformed item gets its own Problem.",
            },
        ),
        required=True,
        validate=validate.Length(max=MAX_BATCH),
        metadata={"description": f"At most {MAX_BATCH} items."},
    )


class RenderRequestSchema(Schema):
    """``POST /v1/render``: a picture of a position, optionally with a turn's verdict."""

    position = PositionField(required=True, metadata=_POSITION_DOC)
    highlight = CellListField(
        load_default=frozenset,
        metadata={
            "type": "array",
            "items": {"type": "string", "example": "c3"},
            "maxItems": 37,
            "description": "Cells to highlight.",
        },
    )
    turn = TurnField(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "A turn to draw the verdict of: the cells its failing checks name are highlighted and "
            "its Project, Shape and Echo are marked."
        },
    )
    history = _history()


class ViewRequestSchema(Schema):
    """``POST /v1/render/view``: what the playground shows, for a position or a game's turn.

    Either a position (``position``, ``history``; default: the start position) or a game from
    the start position (``turns``, ``at``); ``turn`` is read (and with ``check`` judged) there."""

    position = PositionField(
        load_default=None,
        allow_none=True,
        metadata={"description": "The position shown (JSON or HPN); default: the start position. Not with `turns`."},
    )
    history = fields.List(
        PositionField(metadata=_POSITION_DOC),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=MAX_HISTORY),
        metadata={
            "description": "The game's earlier positions, oldest first, as for POST /v1/check. Default: known "
            "(empty) for the start position, not known for another. Not with `turns`."
        },
    )
    turns = TurnsField(
        MAX_REPLAY,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "A game from the start position, replayed with its history like POST /v1/replay: a list "
            "of turns or one score sheet (as pasted). The view is of the position before turn `at`."
        },
    )
    at = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1),
        metadata={
            "description": "With `turns`: the turn to open, 1 for the first; one more than the number of turns is "
            "the final position. Default: the first illegal turn, or the final position."
        },
    )
    turn = TurnField(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "A turn to read back (its canonical HTN and JSON form) and, with `check`, to judge. With "
            "`turns` the default is the game's turn at `at`."
        },
    )
    check = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Judge `turn`: its verdict, as JSON and as the /check page's HTML, drawn on the board."
        },
    )
    legal = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Highlight the legal choices: without a Project in `turn`, the cells where a legal "
            "Project lands (from `from` when given); with one, the cells the legal Shapes of the turns beginning "
            "with it target."
        },
    )
    from_ = CellField(
        data_key="from",
        load_default=None,
        allow_none=True,
        metadata={
            "type": "string",
            "example": "b3",
            "description": "With `legal` and no Project: a Move's chosen stone, whose destinations are highlighted.",
        },
    )
    embed = StrictBoolean(
        load_default=False,
        metadata={"description": "The links of the answer (`address`, `permalink`) carry embed=1."},
    )

    @validates_schema
    def _one_place(self, data, **kwargs):
        if data.get("turns") is None:
            if data.get("at") is not None:
                raise ValidationError("Only with turns.", "at")
            return
        for name in ("position", "history"):
            if data.get(name) is not None:
                raise ValidationError("Not with turns: a game is replayed from the start position.", name)
