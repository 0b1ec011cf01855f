"""Fields that translate JSON values to the checker's types and back.

A position is accepted as the JSON object of RULES §11 or as an HPN string;
a turn as the JSON object or an HTN string.  These fields only translate:
a text that does not parse is a :class:`~marshmallow.ValidationError` whose
message says where; judging is left to the checker.
"""

from __future__ import annotations

from marshmallow import ValidationError, fields

from checker import board
from checker.notation import NotationError, parse_hpn, parse_htn, parse_cell_list

MAX_HPN_LENGTH = 400   # the longest consistent HPN is well under 200 characters
MAX_HTN_LENGTH = 64    # "c3xc4 -d3 *e5" and some spaces


class StrictBoolean(fields.Boolean):
    """A JSON ``true`` or ``false`` and nothing else (not 0, 1 or "true")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class CellField(fields.Field):
    """A cell name (``"c3"``, case-insensitive) ↔ a cell index."""

    default_error_messages = {"invalid": "Not a cell: expected a name such as c3 (a1 … g7)."}

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or len(value) > 4:
            raise self.make_error("invalid")
        try:
            return board.parse_cell(value)
        except board.CellError as exc:
            raise ValidationError(f"{value} is not a cell (a1 … g7).") from exc

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else board.name(value)


class CellListField(fields.Field):
    """A list of distinct cell names ↔ a frozenset of cells (board order on output)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list) or len(value) > board.CELL_COUNT:
            raise ValidationError(f"Expected a list of at most {board.CELL_COUNT} distinct cell names.")
        if not all(isinstance(v, str) and 0 < len(v) <= 4 for v in value):
            raise ValidationError("Every item must be a cell name such as c3.")
        try:
            return parse_cell_list(",".join(value) if value else "-", "cooldown")
        except NotationError as exc:
            raise ValidationError(exc.message) from exc

    def _serialize(self, value, attr, obj, **kwargs):
        return board.names(value or ())


class _TextOrObject(fields.Field):
    """Accepts a string (parsed by ``parse``) or an object (loaded by ``schema``)."""

    parse = None
    max_length = 0
    notation = ""
    schema_name = ""

    def _schema(self):
        from . import position, turn  # the object schemas live beside these fields
        return {"PositionObject": position.PositionObjectSchema,
                "TurnObject": turn.TurnObjectSchema}[self.schema_name]()

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if len(value) > self.max_length:
                raise ValidationError(f"{self.notation} text longer than {self.max_length} characters.")
            try:
                return type(self).parse(value)
            except NotationError as exc:
                raise ValidationError(f"{self.notation}: {exc.message}") from exc
        if isinstance(value, dict):
            return self._schema().load(value)
        raise ValidationError(f"Expected a JSON object or an {self.notation} string.")


class PositionField(_TextOrObject):
    """A position: the JSON object of RULES §11 or an HPN string."""

    parse = staticmethod(parse_hpn)
    max_length = MAX_HPN_LENGTH
    notation = "HPN"
    schema_name = "PositionObject"


class TurnField(_TextOrObject):
    """A turn: the JSON object of RULES §11 or an HTN string."""

    parse = staticmethod(parse_htn)
    max_length = MAX_HTN_LENGTH
    notation = "HTN"
    schema_name = "TurnObject"
