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
            if not board.is_cell_name(name):
                raise ValidationError(f"{name} is not a cell (a1 … g7).", "cells")
            c = board.parse_cell(name)
            if c in seen:
                raise ValidationError(f"{board.name(c)} is listed twice.", "cells")
            seen.add(c)

    @post_load
    def _make(self, data, **kwargs):
        tiers = [0] * board.CELL_COUNT
        stones: list[str | None] = [None] * board.CELL_COUNT
        locked = [False] * board.CELL_COUNT
        for name, cell in data["cells"].items():
            c = board.parse_cell(name)
            tiers[c], stones[c], locked[c] = cell["tier"], cell["stone"], cell["locked"]
        return Position(
            tiers,
            stones,
            locked,
            data["to_move"],
            data["half_moves"],
            {"A": data["players"]["A"], "B": data["players"]["B"]},
        )


_PLAYER_INTS = ("reserve", "charges", "lowers_left", "captures", "raises")
_PLAYER_KEYS = frozenset(_PLAYER_INTS + ("placed", "echo_lock_used", "cooldown"))
_PLAYER_REQUIRED = _PLAYER_KEYS - {"cooldown"}
_POSITION_KEYS = frozenset(("to_move", "half_moves", "cells", "players"))
_CELL_KEYS = frozenset(("tier", "stone", "locked"))


def _fast_player(p) -> PlayerState | None:
    if type(p) is not dict or not _PLAYER_REQUIRED <= p.keys() or not p.keys() <= _PLAYER_KEYS:
        return None
    if any(type(p[k]) is not int for k in _PLAYER_INTS):
        return None
    if type(p["placed"]) is not bool or type(p["echo_lock_used"]) is not bool:
        return None
    names = p.get("cooldown", ())
    if type(names) not in (list, tuple) or len(names) > board.CELL_COUNT:
        return None
    found = frozenset(CELL_INDEX.get(n) if type(n) is str else None for n in names)
    if None in found or len(found) != len(names):
        return None
    cooldown = frozenset(c for c in found if c is not None)
    return PlayerState(
        p["reserve"],
        p["charges"],
        p["lowers_left"],
        p["captures"],
        p["raises"],
        p["placed"],
        p["echo_lock_used"],
        cooldown,
    )


def fast_position(value) -> Position | None:
    """The position of a plainly well-formed JSON object, without marshmallow's
    per-field machinery; ``None`` whenever anything is unusual (unknown keys,
    other types, a cell named twice (``c3`` and ``C3``), …), and then the declarative
    :class:`PositionObjectSchema` judges and words the errors.  Accepts only
    what the schema accepts, with the same result (tests/schemas/test_position.py)."""
    if type(value) is not dict or not value.keys() <= _POSITION_KEYS:
        return None
    to_move, half_moves, players = value.get("to_move"), value.get("half_moves"), value.get("players")
    if to_move not in ("A", "B") or type(half_moves) is not int or type(players) is not dict:
        return None
    cells = value.get("cells", {})
    if type(cells) is not dict or len(cells) > board.CELL_COUNT or players.keys() != {"A", "B"}:
        return None
    tiers = [0] * board.CELL_COUNT
    stones: list[str | None] = [None] * board.CELL_COUNT
    locked = [False] * board.CELL_COUNT
    for name, cell in cells.items():
        c = CELL_INDEX.get(name)
        if c is None or type(cell) is not dict or not cell.keys() <= _CELL_KEYS:
            return None
        tier, stone, lock = cell.get("tier", 0), cell.get("stone"), cell.get("locked", False)
        if type(tier) is not int or stone not in (None, "A", "B") or type(lock) is not bool:
            return None
        tiers[c], stones[c], locked[c] = tier, stone, lock
    if len(cells) > 1 and len({CELL_INDEX[name] for name in cells}) != len(cells):
        return None  # a cell named twice, in two cases: the schema words it
    a, b = _fast_player(players["A"]), _fast_player(players["B"])
    if a is None or b is None:
        return None
    return Position(tiers, stones, locked, to_move, half_moves, {"A": a, "B": b})


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

    fast = staticmethod(fast_position)
    parse = staticmethod(cached_hpn)
    schema = PositionObjectSchema
    notation = "HPN"
    text_kind = "an HPN string"
    max_length = MAX_HPN_LENGTH
