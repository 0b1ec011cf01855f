"""Request bodies of the HTTP contract (API.md).  Every list has a maximum,
so no request can make a worker spin."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from checker.notation import NotationError, parse_project, parse_shape

from .fields import PositionField, TurnField
from .turn import ProjectSchema, ShapeSchema

MAX_HISTORY = 60      # a game has at most 60 half-moves
MAX_BATCH = 1000
MAX_REPLAY = 60

_POSITION_DOC = {"description": "A position: the JSON object of RULES §11, or an HPN string."}
_TURN_DOC = {"description": "A turn: the JSON object of RULES §11, or an HTN string."}
_HISTORY_DOC = {"description": "The game's earlier positions, oldest first (the start position first), not "
                               "including the position the turn is played from; each a JSON position or an HPN "
                               "string. Without it repetition and threefold are reported as not evaluated; an "
                               "empty list is a history and is evaluated."}


def _history():
    return fields.List(PositionField(metadata=_POSITION_DOC), load_default=None, allow_none=True,
                       validate=validate.Length(max=MAX_HISTORY), metadata=_HISTORY_DOC)


class _StepField(fields.Field):
    """A Project or Shape filter: the JSON object or one HTN token."""

    schema = None
    parse = None
    notation = ""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if len(value) > 16:
                raise ValidationError(f"{self.notation} token longer than 16 characters.")
            try:
                return type(self).parse(value)
            except NotationError as exc:
                raise ValidationError(f"HTN: {exc.message}") from exc
        if isinstance(value, dict):
            return self.schema().load(value)
        raise ValidationError(f"Expected a JSON object or an HTN {self.notation} token.")


class ProjectFilterField(_StepField):
    schema = ProjectSchema
    parse = staticmethod(parse_project)
    notation = "Project"


class ShapeFilterField(_StepField):
    schema = ShapeSchema
    parse = staticmethod(parse_shape)
    notation = "Shape"


class CheckRequestSchema(Schema):
    """``POST /v1/check``: a position, a turn and optionally the history."""

    position = PositionField(required=True, metadata=_POSITION_DOC)
    turn = TurnField(required=True, metadata=_TURN_DOC)
    history = _history()


class LegalTurnsRequestSchema(Schema):
    """``POST /v1/legal-turns``: every legal turn, or those beginning with
    ``project`` (and ``shape``)."""

    position = PositionField(required=True, metadata=_POSITION_DOC)
    history = _history()
    project = ProjectFilterField(load_default=None, allow_none=True, metadata={
        "description": "Only turns beginning with this Project: a JSON Project or an HTN token "
                       "(c3, c3-c4, skip)."})
    shape = ShapeFilterField(load_default=None, allow_none=True, metadata={
        "description": "With project: only turns with this Shape: a JSON Shape or an HTN token (+d4, -d4)."})


class ValidateRequestSchema(Schema):
    """``POST /v1/validate``: a position to check for consistency (D-3)."""

    position = PositionField(required=True, metadata=_POSITION_DOC)
