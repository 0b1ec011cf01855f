"""The JSON turn of the rules reference §11 ↔ :class:`checker.turn.Turn`.

Every step is an object with a ``kind``; ``shape`` and ``echo`` may be null
or absent::

    {"project": {"kind": "place", "cell": "c3"},
     "shape": {"kind": "raise", "cell": "d4"},
     "echo": {"kind": "capture", "cell": "e5"}}
"""

from __future__ import annotations

from enum import StrEnum

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from checker import board
from checker.notation import NotationError, parse_htn, parse_project, parse_shape
from checker.position import MAX_HALF_MOVES
from checker.scoresheet import parse_score_sheet
from checker.turn import Echo, Move, Place, Shape, Skip, Turn
from schemas.fields import MAX_HTN_LENGTH, CellField, TextOrObject

_CELL_DOC = {"type": "string", "example": "c3", "description": "A cell name, a1 … g7."}

PROJECT_KEYS = {
    "place": ("kind", "cell"),
    "move": ("kind", "from", "to"),
    "skip": ("kind",),
}
"""The keys of a JSON Project of each kind, all required, no other."""


class ProjectSchema(Schema):
    """Step 1: ``place`` (cell), ``move`` (from, to) or ``skip``."""

    kind = fields.String(required=True, validate=validate.OneOf(["place", "move", "skip"]))
    cell = CellField(metadata=_CELL_DOC)
    from_ = CellField(data_key="from", metadata=_CELL_DOC)
    to = CellField(metadata=_CELL_DOC)

    @validates_schema
    def _fields_of_kind(self, data, **kwargs):
        kind = data.get("kind")
        given = {"from" if name == "from_" else name for name in data}
        allowed = PROJECT_KEYS.get(kind, ("kind",))
        errors = {}
        for name in allowed:
            if name not in given:
                errors[name] = [f"Required for a {kind} Project."]
        for name in sorted(given - set(allowed)):
            errors[name] = [f"Not allowed for a {kind} Project."]
        if errors:
            raise ValidationError(errors)

    @post_load
    def _make(self, data, **kwargs):
        kind = data["kind"]
        if kind == "place":
            return Place(data["cell"])
        if kind == "move":
            return Move(data["from_"], data["to"])
        return Skip()


class ShapeSchema(Schema):
    """Step 2: ``raise`` or ``lower`` a cell."""

    kind = fields.String(required=True, validate=validate.OneOf(["raise", "lower"]))
    cell = CellField(required=True, metadata=_CELL_DOC)

    @post_load
    def _make(self, data, **kwargs):
        return Shape(data["kind"], data["cell"])


class EchoSchema(Schema):
    """Step 3: ``capture`` (Echo-Capture) or ``lock`` (Echo-Lock) a cell."""

    kind = fields.String(required=True, validate=validate.OneOf(["capture", "lock"]))
    cell = CellField(required=True, metadata=_CELL_DOC)

    @post_load
    def _make(self, data, **kwargs):
        return Echo(data["kind"], data["cell"])


class TurnObjectSchema(Schema):
    """A turn as a JSON object (the rules reference §11)."""

    project = fields.Nested(ProjectSchema, required=True)
    shape = fields.Nested(ShapeSchema, allow_none=True, load_default=None)
    echo = fields.Nested(EchoSchema, allow_none=True, load_default=None)

    @post_load
    def _make(self, data, **kwargs):
        return Turn(data["project"], data["shape"], data["echo"])


class TurnField(TextOrObject):
    """A turn: the JSON object of the rules reference §11 or an HTN string."""

    parse = staticmethod(parse_htn)
    schema = TurnObjectSchema
    notation = "HTN"
    text_kind = "an HTN string"
    max_length = MAX_HTN_LENGTH


MAX_SHEET_LENGTH = MAX_HALF_MOVES * (MAX_HTN_LENGTH + 8)
"""The longest score sheet read (a full game of long turns, numbered)."""


class ScoreSheetField(fields.Field):
    """A score sheet (:mod:`checker.scoresheet`: move numbers, one or two
    turns per line, ``;`` or newlines) ↔ a list of turns; an error names the
    line, the column and the text."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or len(value) > MAX_SHEET_LENGTH:
            raise ValidationError(f"Expected a score sheet of at most {MAX_SHEET_LENGTH} characters.")
        try:
            return parse_score_sheet(value)
        except NotationError as exc:
            raise ValidationError(f"Score sheet: {exc.message}") from exc


class TurnsField(fields.Field):
    """A game's turns: a list (each a JSON turn or HTN text) or one score
    sheet (a string, read by :class:`ScoreSheetField`); at most ``max_turns``."""

    def __init__(self, max_turns: int, **kwargs):
        super().__init__(**kwargs)
        self.max_turns = max_turns
        self._list = fields.List(TurnField())
        self._sheet = ScoreSheetField()

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            turns = self._sheet.deserialize(value)
            what = "the score sheet holds"
        elif isinstance(value, list):
            if len(value) > self.max_turns:
                raise ValidationError(f"Longer than maximum length {self.max_turns}.")
            return self._list.deserialize(value)
        else:
            raise ValidationError("Expected a list of turns or a score sheet (a string).")
        if len(turns) > self.max_turns:
            raise ValidationError(
                f"At most {self.max_turns} turns (a game has at most {MAX_HALF_MOVES} half-moves); {what} {len(turns)}."
            )
        return turns


class ProjectFilterField(TextOrObject):
    """A Project: the JSON object or one HTN token (``c3``, ``c3-c4``, ``skip``)."""

    parse = staticmethod(parse_project)
    schema = ProjectSchema
    notation = "HTN"
    text_kind = "an HTN Project token"
    max_length = 16


class ShapeFilterField(TextOrObject):
    """A Shape: the JSON object or one HTN token (``+d4``, ``-d4``)."""

    parse = staticmethod(parse_shape)
    schema = ShapeSchema
    notation = "HTN"
    text_kind = "an HTN Shape token"
    max_length = 16


class TurnForm(StrEnum):
    """How a list of turns is written (``POST /v1/legal-turns``, ``form``)."""

    OBJECTS = "objects"  # each turn {"htn": ..., "turn": {...}}: the default
    HTN = "htn"  # each turn its HTN string only, about a tenth of the bytes


def project_to_json(project) -> dict:
    if isinstance(project, Place):
        return {"kind": "place", "cell": board.name(project.cell)}
    if isinstance(project, Move):
        return {"kind": "move", "from": board.name(project.src), "to": board.name(project.dst)}
    return {"kind": "skip"}


def turn_to_json(turn: Turn) -> dict:
    """The JSON form of a turn (the rules reference §11); ``shape`` and ``echo`` are null when absent."""
    s, e = turn.shape, turn.echo
    return {
        "project": project_to_json(turn.project),
        "shape": None if s is None else {"kind": s.kind, "cell": board.name(s.cell)},
        "echo": None if e is None else {"kind": e.kind, "cell": board.name(e.cell)},
    }
