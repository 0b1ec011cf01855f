"""``POST /v1/perft``: the request and the answer (docs/perft.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from checker.counting import BUDGET
from checker.notation import position_to_hpn, turn_to_htn
from checker.position import MAX_HALF_MOVES
from checker.version import RULES_VERSION
from schemas.compiled import OutSchema
from schemas.fields import StrictBoolean
from schemas.position import PositionField

MAX_DEPTH = MAX_HALF_MOVES  # no longer sequence exists


class PerftRequestSchema(Schema):
    """``POST /v1/perft``: a position, a depth and whether to divide."""

    position = PositionField(
        required=True,
        metadata={"description": "A position: the JSON object of the rules reference §11, or an HPN string."},
    )
    depth = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=MAX_DEPTH),
        metadata={
            "description": f"The length of the turn sequences counted, 0–{MAX_DEPTH}. The count may expand at most "
            f"{BUDGET:,} positions (each position at ply 0 … depth-1 is expanded once); depth 2 from "
            "any position fits, deeper counts only from positions with few turns. Over the budget: "
            "422 naming `depth`."
        },
    )
    divide = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Also give each legal turn's own count (the counts of its subtree), in the order of "
            "POST /v1/legal-turns."
        },
    )


class DivideSchema(Schema):
    turn = fields.String(required=True, metadata={"description": "A legal turn, HTN.", "example": "c3 +d4"})
    nodes = fields.Integer(required=True, metadata={"description": "The sequences that begin with it."})


class PerftSchema(OutSchema):
    """Dumps a :class:`checker.counting.PerftCount` (``divide`` left out
    when it was not asked for)."""

    rules_version = fields.Constant(RULES_VERSION, required=True, metadata={"type": "string"})
    position = fields.String(required=True, metadata={"description": "The position, HPN."})
    depth = fields.Integer(required=True)
    nodes = fields.Integer(
        required=True,
        metadata={
            "description": "The number of legal turn sequences of that length; a game-ending turn ends its "
            "sequence, and no history is carried (no repetition or threefold)."
        },
    )
    divide = fields.List(
        fields.Nested(DivideSchema),
        metadata={"description": "With divide: every legal turn and its count; the counts add up to nodes."},
    )

    def prepare(self, count):
        pos, divide = count.position, count.divide
        return {
            "position": position_to_hpn(pos),
            "depth": count.depth,
            "nodes": count.nodes,
            "divide": None if divide is None else [{"turn": turn_to_htn(t, pos), "nodes": n} for t, n in divide],
        }

    def finish(self, data):
        if data.get("divide") is None:
            data.pop("divide", None)
        return data
