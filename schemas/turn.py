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
from checker.notation import parse_htn, parse_project, parse_shape
from checker.turn import Echo, Move, Place, Shape, Skip, Turn

from .fields import MAX_HTN_LENGTH, CellField, TextOrObject

_CELL_DOC = {"type": "string", "example": "c3", "description": "A cell name, a1 … g7."}


class ProjectSchema(Schema):
    """Step 1: ``place`` (cell), ``move`` (from, to) or ``skip``."""

    kind = fields.String(required=True, validate=validate.OneOf(["place", "move", "skip"]))
    cell = CellField(metadata=_CELL_DOC)
    from_ = CellField(data_key="from", metadata=_CELL_DOC)
    to = CellField(metadata=_CELL_DOC)

    @validates_schema
    def _fields_of_kind(self, data, **kwargs):
        kind = data.get("kind")
        need = {"place": ("cell",), "move": ("from_", "to"), "skip": ()}.get(kind, ())
        allowed = set(need) | {"kind"}
        errors = {}
        for name in need:
            if name not in data:
                errors["from" if name == "from_" else name] = [f"Required for a {kind} Project."]
        for name in data:
            if name not in allowed:
                errors["from" if name == "from_" else name] = [f"Not allowed for a {kind} Project."]
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

    OBJECTS = "objects"   # each turn {"htn": ..., "turn": {...}}: the default
    HTN = "htn"           # each turn its HTN string only, about a tenth of the bytes


def project_to_json(project) -> dict:
    if isinstance(project, Place):
        return {"kind": "place", "cell": board.name(project.cell)}
    if isinstance(project, Move):
        return {"kind": "move", "from": board.name(project.src), "to": board.name(project.dst)}
    return {"kind": "skip"}


def turn_to_json(turn: Turn) -> dict:
    """The JSON form of a turn (the rules reference §11); ``shape`` and ``echo`` are null when absent."""
    s, e = turn.shape, turn.echo
    return {"project": project_to_json(turn.project),
            "shape": None if s is None else {"kind": s.kind, "cell": board.name(s.cell)},
            "echo": None if e is None else {"kind": e.kind, "cell": board.name(e.cell)}}
