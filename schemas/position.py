"""The JSON position of the rules reference §11 ↔ :class:`checker.position.Position`.

Input may list any cells (each at most once); output lists exactly the cells
that differ from tier 0, no stone, unlocked, with ``tier`` always written,
``stone`` only when there is one and ``locked`` only when true.
"""

from __future__ import annotations

import functools

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from checker import board
from checker.notation import parse_hpn
from checker.position import PlayerState, Position
from schemas.compiled import OutSchema
from schemas.fields import CELL_INDEX, MAX_HPN_LENGTH, CellListField, StrictBoolean, TextOrObject, named_enum


class CellMapField(fields.Dict):
    """Cell name → its state (the names are checked by the schema that holds it)."""


class CellStateSchema(OutSchema):
    tier = fields.Integer(strict=True, load_default=0, metadata={"description": "0, 1 or 2"})
    stone = fields.String(
        validate=validate.OneOf(["A", "B"]), allow_none=True, load_default=None, metadata=named_enum("PlayerId")
    )
    locked = StrictBoolean(load_default=False)

    def finish(self, data):
        if data.get("stone") is None:
            data.pop("stone", None)
        if not data.get("locked"):
            data.pop("locked", None)
        return data


class PlayerSchema(Schema):
    reserve = fields.Integer(strict=True, required=True)
    charges = fields.Integer(strict=True, required=True)
    lowers_left = fields.Integer(strict=True, required=True)
    captures = fields.Integer(strict=True, required=True)
    raises = fields.Integer(strict=True, required=True)
    placed = StrictBoolean(required=True)
    echo_lock_used = StrictBoolean(required=True)
    cooldown = CellListField(
        load_default=frozenset,
        metadata={
            "type": "array",
            "items": {"type": "string", "example": "c3"},
            "maxItems": board.CELL_COUNT,
            "description": "Cells where this player's stones were captured since their last Place; "
            "no repeats, any order on input, board order on output.",
        },
    )

    @post_load
    def _make(self, data, **kwargs):
        return PlayerState(**data)


class PlayersSchema(Schema):
    A = fields.Nested(PlayerSchema, required=True)
    B = fields.Nested(PlayerSchema, required=True)


class PositionObjectSchema(Schema):
    """A position as a JSON object (the rules reference §11)."""

    to_move = fields.String(required=True, validate=validate.OneOf(["A", "B"]), metadata=named_enum("PlayerId"))
    half_moves = fields.Integer(strict=True, required=True)
    cells = CellMapField(
        keys=fields.String(validate=validate.Length(max=4)),
        values=fields.Nested(CellStateSchema),
        load_default=dict,
        metadata={
            "maxProperties": board.CELL_COUNT,
            "description": "Cell name → its state; cells not listed are tier 0, empty and unlocked.",
        },
    )
    players = fields.Nested(PlayersSchema, required=True)

    @validates_schema
    def _cell_names(self, data, **kwargs):
        seen: set[int] = set()
        if len(data.get("cells", {})) > board.CELL_COUNT:
            raise ValidationError(f"At most {board.CELL_COUNT} cells.", "cells")
        for name in data.get("cells", {}):
            c = CELL_INDEX.get(name)  # the usual spellings, else the board's own reading
            if c is None and not board.is_cell_name(name):
                raise ValidationError(f"{name} is not a cell (a1 … g7).", "cells")
            c = board.parse_cell(name) if c is None else c
            if c in seen:
                raise ValidationError(f"{board.name(c)} is listed twice.", "cells")
            seen.add(c)

    @post_load
    def _make(self, data, **kwargs):
        tiers = [0] * board.CELL_COUNT
        stones: list[str | None] = [None] * board.CELL_COUNT
        locked = [False] * board.CELL_COUNT
        for name, cell in data["cells"].items():
            c = CELL_INDEX.get(name)
            c = board.parse_cell(name) if c is None else c
            tiers[c], stones[c], locked[c] = cell["tier"], cell["stone"], cell["locked"]
        return Position(
            tiers,
            stones,
            locked,
            data["to_move"],
            data["half_moves"],
            {"A": data["players"]["A"], "B": data["players"]["B"]},
        )


HPN_CACHE_SIZE = 2048


@functools.lru_cache(maxsize=HPN_CACHE_SIZE)
def cached_hpn(text: str) -> Position:
    """:func:`checker.notation.parse_hpn`, remembered for the last
    HPN_CACHE_SIZE distinct texts of this process (a Position is immutable, so
    requests may share one, with its consistency verdict once found).
    Players send the same position again and again (each turn they try, each
    item of a batch); text that does not parse raises as parse_hpn does and
    is not remembered.  About 3 MB at most."""
    return parse_hpn(text)


class PositionField(TextOrObject):
    """A position: the JSON object of the rules reference §11 or an HPN string."""

    parse = staticmethod(cached_hpn)
    schema = PositionObjectSchema
    notation = "HPN"
    text_kind = "an HPN string"
    max_length = MAX_HPN_LENGTH
