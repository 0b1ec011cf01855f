"""Fields that translate JSON values to the checker's types and back.

A position is accepted as the JSON object of the rules reference §11 or as an HPN string;
a turn as the JSON object or an HTN string.  These fields only translate:
a text that does not parse is a :class:`~marshmallow.ValidationError` whose
message says where; judging is left to the checker.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields

from checker import board
from checker.catalogue import RULE_IDS
from checker.ending import EndReason
from checker.notation import NotationError
from schemas.quick import REFUSED, quick

NAMED_ENUMS: dict[str, tuple[str, ...]] = {
    "PlayerId": ("A", "B"),
    "Result": ("A", "B", "draw"),
    "EndReason": tuple(reason.value for reason in EndReason),
    "RuleId": RULE_IDS,
    "CheckStatus": ("passed", "failed", "not_applicable"),
    "CaptureKind": ("move", "encirclement", "echo"),
}
"""The closed sets the contract names once (components of the OpenAPI document, each a string
enum): a field that holds one says so with :func:`named_enum`, and generated clients get one
type for each (``Player``, ``RuleId``, ...) instead of a string or a copy per field."""


def named_enum(name: str, **metadata) -> dict:
    """A field's metadata saying that it holds a value of the closed set ``name``
    (:data:`NAMED_ENUMS`; with ``allow_none`` the field also holds null)."""
    assert name in NAMED_ENUMS, name
    return {"named_enum": name, **metadata}


MAX_HPN_LENGTH = 400  # the longest consistent HPN is well under 200 characters
MAX_HTN_LENGTH = 64  # "c3xc4 -d3 *e5" and some spaces


class StrictBoolean(fields.Boolean):
    """A JSON ``true`` or ``false`` and nothing else (not 0, 1 or "true")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


CELL_INDEX: dict[str, int] = {
    **{n: i for i, n in enumerate(board.NAMES)},
    **{n.upper(): i for i, n in enumerate(board.NAMES)},
}
"""Every spelling of a cell name that :func:`checker.board.parse_cell` accepts
(case-insensitive: ``c3`` and ``C3``), for the quick paths."""


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

    def quick(self, value):
        """:mod:`schemas.quick`: a cell name in one of :data:`CELL_INDEX`'s spellings, or REFUSED."""
        return CELL_INDEX.get(value, REFUSED) if type(value) is str else REFUSED

    def dump_value(self, value):
        """The JSON form of one value (the compiled dumpers call it)."""
        return None if value is None else board.name(value)

    def _serialize(self, value, attr, obj, **kwargs):
        return self.dump_value(value)


def distinct_cells(names) -> frozenset[int]:
    """Cell names, each at most once, as a frozenset of cells."""
    cells: set[int] = set()
    for item in names:
        if not isinstance(item, str) or not board.is_cell_name(item):
            raise ValidationError(f"{item!r} is not a cell (a1 … g7).")
        cell = board.parse_cell(item)
        if cell in cells:
            raise ValidationError(f"{board.name(cell)} is listed twice.")
        cells.add(cell)
    return frozenset(cells)


class CellListField(fields.Field):
    """A list of distinct cell names ↔ a frozenset of cells (board order on output)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list) or len(value) > board.CELL_COUNT:
            raise ValidationError(f"Expected a list of at most {board.CELL_COUNT} distinct cell names.")
        return distinct_cells(value)

    def quick(self, value):
        """:mod:`schemas.quick`: distinct names in :data:`CELL_INDEX`'s spellings, or REFUSED."""
        if type(value) is not list or len(value) > board.CELL_COUNT:
            return REFUSED
        found = frozenset(CELL_INDEX.get(n) if type(n) is str else None for n in value)
        return REFUSED if None in found or len(found) != len(value) else found

    def dump_value(self, value):
        """The JSON form of one value (the compiled dumpers call it)."""
        return board.names(value or ())

    def _serialize(self, value, attr, obj, **kwargs):
        return self.dump_value(value)


class TextOrObject(fields.Field):
    """A value given as text (parsed by ``parse``) or as a JSON object (loaded
    by ``schema``).  Subclasses name the notation and the text's limit."""

    parse: Any = None  # text -> value; raises NotationError
    schema: Any = None  # the Schema class for the object form
    notation = ""  # "HPN" or "HTN", for messages
    text_kind = ""  # "an HPN string", "an HTN Project token", ...
    max_length = 0
    quick_objects = True  # an object loaded by :func:`schemas.quick.quick` when it can (tests switch it off)

    def quick(self, value):
        """:mod:`schemas.quick`: the text parsed, or the object loaded by the schema's quick function;
        REFUSED for anything the field would refuse or word."""
        if type(value) is str:
            if len(value) > self.max_length:
                return REFUSED
            try:
                return type(self).parse(value)
            except NotationError:
                return REFUSED
        if type(value) is dict:
            return quick(type(self).schema, REFUSED)(value)
        return REFUSED

    @classmethod
    def _object_schema(cls):
        """The object form's schema, made once per field class (a Schema is reusable)."""
        made = cls.__dict__.get("_schema_instance")
        if made is None:
            made = cls.schema()
            cls._schema_instance = made
        return made

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if len(value) > self.max_length:
                raise ValidationError(f"{self.notation} text longer than {self.max_length} characters.")
            try:
                return type(self).parse(value)
            except NotationError as exc:
                raise ValidationError(f"{self.notation}: {exc.message}") from exc
        if isinstance(value, dict):
            if self.quick_objects:
                loaded = quick(type(self).schema)(value)
                if loaded is not None:
                    return loaded
            return self._object_schema().load(value)
        raise ValidationError(f"Expected a JSON object or {self.text_kind}.")


class QueryInteger(fields.Integer):
    """A whole number in a query string: ASCII digits only (Python's ``int``
    would also take ``1_600``, ``+800``, `` 800`` and other scripts' digits).

    >>> QueryInteger().deserialize("800")
    800
    >>> try:
    ...     QueryInteger().deserialize("1_600")
    ... except ValidationError as exc:
    ...     exc.messages
    ['Not a valid integer: write it with the digits 0-9 only.']
    """

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not (value.isascii() and value.isdigit()):
            raise ValidationError("Not a valid integer: write it with the digits 0-9 only.")
        return super()._deserialize(value, attr, data, **kwargs)
