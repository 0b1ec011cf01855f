"""Response bodies of the HTTP contract (docs/api.md), dumped from the checker's
values."""

from __future__ import annotations

from marshmallow import Schema, fields

from checker import board
from checker.catalogue import Kind
from checker.generate import turns_of
from checker.notation import NotationError, position_to_hpn, turn_to_htn
from checker.version import RULES_VERSION
from schemas.compiled import OutSchema
from schemas.fields import named_enum
from schemas.position import PositionObjectSchema
from schemas.turn import TurnForm, turn_to_json


def _hpn(outcome) -> str:
    return position_to_hpn(outcome.position)


def _cell_out(tier: int, stone: str | None, locked: bool) -> dict:
    cell: dict = {"tier": tier}
    if stone:
        cell["stone"] = stone
    if locked:
        cell["locked"] = True
    return cell


# Every cell state's output form, made once (the rules reference §11: tier always, stone only
# when there is one, locked only when true).
_CELL_OUT = {(t, s, lk): _cell_out(t, s, lk) for t in (0, 1, 2) for s in (None, "A", "B") for lk in (False, True)}
_EMPTY = (0, None, False)
_NAMES = board.NAMES


class PositionOutSchema(PositionObjectSchema, OutSchema):
    """A position as output: only the cells that differ from tier 0, no stone, unlocked."""

    cells = fields.Dict(  # type: ignore[assignment]  # output: any cells map, written by finish
        keys=fields.String(),
        values=fields.Raw(),
        required=True,
        metadata={
            "additionalProperties": {"$ref": "#/components/schemas/CellState"},
            "description": "Exactly the cells that differ from tier 0, no stone, unlocked.",
        },
    )

    def prepare(self, pos):
        # The cell dicts of _CELL_OUT are shared between answers: read-only, written out at once.
        cells = {
            _NAMES[c]: _CELL_OUT.get(key) or _cell_out(*key)
            for c, key in enumerate(zip(pos.tiers, pos.stones, pos.locked))
            if key != _EMPTY
        }
        return {"to_move": pos.to_move, "half_moves": pos.half_moves, "cells": cells, "players": pos.players}


class CheckSchema(Schema):
    rule = fields.String(required=True, metadata=named_enum("RuleId"))
    step = fields.String(required=True, metadata={"example": "Step 1/2: Place"})
    status = fields.String(required=True, metadata=named_enum("CheckStatus"))
    cells = fields.List(fields.String(), required=True)
    message = fields.String(required=True)
    more = fields.String(required=True, metadata={"format": "uri", "description": "The published rule."})
    rule_url = fields.String(
        required=True,
        metadata={"example": "/rules#place.opening-restriction", "description": "The service's own text of the rule."},
    )


class TermSchema(Schema):
    kind = fields.String(
        required=True,
        metadata={
            "enum": ["stone", "edge", "wall"],
            "description": "stone: a mover's neighbouring stone, counting its tier; edge: a slot past the board "
            "edge, counting tier + 1; wall: an enemy neighbour counting like edge (Echo-Capture).",
        },
    )
    value = fields.Integer(required=True)
    cell = fields.String(allow_none=True, required=True)


class WeighingSchema(Schema):
    check = fields.String(required=True, metadata={"enum": ["encirclement", "echo"]})
    cell = fields.String(required=True)
    owner = fields.String(required=True, metadata=named_enum("PlayerId"))
    tier = fields.Integer(required=True)
    terms = fields.List(fields.Nested(TermSchema), required=True)
    sum = fields.Integer(required=True)
    threshold = fields.Integer(required=True, metadata={"description": "6 × tier; captured when sum > threshold"})
    captured = fields.Boolean(required=True)
    message = fields.String(required=True)
    rule_url = fields.String(
        required=True,
        metadata={
            "example": "/rules#capture.encirclement",
            "description": "The service's own text of the capture check.",
        },
    )


class EventSchema(Schema):
    type = fields.String(
        required=True, metadata={"enum": ["capture", "lock", "cooldown_set", "cooldown_cleared", "first_place"]}
    )
    kind = fields.String(
        allow_none=True,
        required=True,
        metadata=named_enum("CaptureKind", description="The kind of a capture; null for the other events."),
    )
    player = fields.String(required=True, metadata=named_enum("PlayerId"))
    cells = fields.List(fields.String(), required=True)
    message = fields.String(required=True)
    more = fields.String(required=True)


class TiebreakFiguresSchema(Schema):
    stones_on_unlocked_tier2 = fields.Integer(required=True)
    tier_sum = fields.Integer(required=True)
    captures = fields.Integer(required=True)
    raises = fields.Integer(required=True)


class TiebreakSchema(Schema):
    A = fields.Nested(TiebreakFiguresSchema, required=True)
    B = fields.Nested(TiebreakFiguresSchema, required=True)


class GameSchema(Schema):
    over = fields.Boolean(required=True)
    result = fields.String(
        allow_none=True, required=True, metadata=named_enum("Result", description="null while the game goes on.")
    )
    reason = fields.String(
        allow_none=True, required=True, metadata=named_enum("EndReason", description="null while the game goes on.")
    )
    message = fields.String(required=True)
    repetition = fields.String(required=True, metadata={"enum": ["evaluated", "not_evaluated"]})
    tiebreak = fields.Nested(TiebreakSchema, allow_none=True, required=True)
    more = fields.String(allow_none=True, required=True, metadata={"description": "The published rule."})
    rule_url = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "example": "/rules#end.takeover",
            "description": "The service's own text of the reason the game ended; null while it goes on.",
        },
    )


class OutcomeSchema(Schema):
    position = fields.Nested(PositionOutSchema, required=True)
    hpn = fields.Function(_hpn, required=True, metadata={"type": "string"})
    events = fields.List(fields.Nested(EventSchema), required=True)
    capture_check = fields.List(fields.Nested(WeighingSchema), required=True)
    game = fields.Nested(GameSchema, required=True)


class VerdictSchema(Schema):
    rules_version = fields.Constant(RULES_VERSION, required=True, metadata={"type": "string"})
    legal = fields.Boolean(required=True)
    turn = fields.String(required=True, metadata={"description": "The turn in canonical HTN."})
    mover = fields.String(required=True, metadata=named_enum("PlayerId"))
    summary = fields.String(required=True)
    violations = fields.List(fields.String(metadata=named_enum("RuleId")), required=True)
    checks = fields.List(fields.Nested(CheckSchema), required=True)
    outcome = fields.Nested(
        OutcomeSchema,
        allow_none=True,
        required=True,
        metadata={"description": "Present (not null) exactly when the turn is legal."},
    )


class TurnOutSchema(Schema):
    htn = fields.String(required=True)
    turn = fields.Dict(required=True, metadata={"description": "The turn as a JSON object (the rules reference §11)."})


class TurnListField(fields.Field):
    """The legal turns, already in their output form: each ``{"htn", "turn"}``
    (TurnOut; form ``objects``) or its HTN string (form ``htn``).  In the
    document: one of the two arrays."""

    def dump_value(self, value):
        """The JSON form of one value (the compiled dumpers call it): as it is."""
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return self.dump_value(value)


class LegalTurnsSchema(OutSchema):
    """Dumps ``(position, groups, form)`` (``groups``:
    :func:`checker.generate.turn_groups`): the turns with their HTN in that
    position, as objects or (form ``htn``) as HTN strings only.
    :func:`schemas.writers.legal_turns_json` writes the same as JSON text, faster."""

    rules_version = fields.Constant(RULES_VERSION, required=True, metadata={"type": "string"})
    count = fields.Integer(required=True)
    turns = TurnListField(
        required=True,
        metadata={
            "description": "Each legal turn as {htn, turn} (form objects, the default) or as its HTN string (form htn)."
        },
    )

    def prepare(self, data):
        position, groups, form = data
        turns = turns_of(groups)
        if form is TurnForm.HTN:
            return {"count": len(turns), "turns": [turn_to_htn(t, position) for t in turns]}
        return {
            "count": len(turns),
            "turns": [{"htn": turn_to_htn(t, position), "turn": turn_to_json(t)} for t in turns],
        }


class StatusSchema(Schema):
    to_move = fields.String(required=True, metadata=named_enum("PlayerId"))
    game_over = fields.Boolean(required=True)
    reason = fields.String(allow_none=True, required=True, metadata=named_enum("EndReason"))
    message = fields.String(required=True)
    cooldown_skip = fields.Boolean(required=True)
    legal_turns = fields.Integer(required=True)


class ValidationSchema(OutSchema):
    """Dumps a :class:`checker.legality.Validation`."""

    rules_version = fields.Constant(RULES_VERSION, required=True, metadata={"type": "string"})
    consistent = fields.Boolean(required=True)
    hpn = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The position in HPN; null when HPN cannot express it (a tier outside 0–2 or a "
            "negative counter)."
        },
    )
    checks = fields.List(fields.Nested(CheckSchema), required=True)
    status = fields.Nested(
        StatusSchema,
        allow_none=True,
        required=True,
        metadata={"description": "The position's state; null when the position is not consistent."},
    )

    def prepare(self, v):
        try:
            hpn = position_to_hpn(v.position)
        except NotationError:
            hpn = None  # a tier outside 0–2 or a negative counter has no HPN
        status = None
        if v.consistent:
            status = {
                "to_move": v.position.to_move,
                "game_over": v.game.over,
                "reason": v.game.reason,
                "message": v.game.message,
                "cooldown_skip": v.cooldown_skip,
                "legal_turns": v.legal_turns,
            }
        return {"consistent": v.consistent, "hpn": hpn, "checks": v.checks, "status": status}


class PositionWithHpnSchema(OutSchema):
    """Dumps a position as ``{position, hpn}``."""

    position = fields.Nested(PositionOutSchema, required=True)
    hpn = fields.String(required=True)

    def prepare(self, pos):
        return {"position": pos, "hpn": position_to_hpn(pos)}


class FirstIllegalSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "0-based index of the turn in `turns`."})
    verdict = fields.Nested(VerdictSchema, required=True)


class ReplaySchema(Schema):
    """Dumps a :class:`checker.replay.Replay`."""

    rules_version = fields.Constant(RULES_VERSION, required=True, metadata={"type": "string"})
    checked = fields.Integer(required=True, metadata={"description": "Turns checked, up to the first illegal one."})
    legal = fields.Boolean(required=True, metadata={"description": "Every turn was legal."})
    first_illegal = fields.Nested(FirstIllegalSchema, allow_none=True, required=True)
    final = fields.Nested(
        PositionWithHpnSchema, required=True, metadata={"description": "The position after the last legal turn."}
    )
    game = fields.Nested(
        GameSchema, required=True, metadata={"description": "How the game ended, or its state in the final position."}
    )


class RuleSchema(Schema):
    """One entry of the rules reference (checker.catalogue)."""

    id = fields.String(required=True, metadata={"example": "place.cooldown"})
    kind = fields.String(
        required=True,
        metadata={
            "enum": [k.value for k in Kind],
            "description": "rule: a rule id a check names; capture: a kind of capture; end: an end-of-game reason; "
            "decision: a decided reading D-n.",
        },
    )
    step = fields.String(
        required=True,
        metadata={
            "description": "The step label of a rule id; for the other kinds where the entry belongs (Capture check, "
            "End of the game, Decided reading)."
        },
    )
    title = fields.String(required=True)
    text = fields.String(required=True, metadata={"description": "The entry's full text."})
    more = fields.String(required=True, metadata={"description": "The published page."})
    rule_url = fields.String(
        required=True,
        metadata={"example": "/rules#place.cooldown", "description": "The entry on the service's rules page."},
    )
    source = fields.String(required=True, metadata={"enum": ["rule", "decided"]})
    decision = fields.String(allow_none=True, required=True)


class StartSchema(PositionWithHpnSchema):
    """Dumps the start position as ``{position, hpn}``."""


class HealthSchema(Schema):
    status = fields.String(required=True, metadata={"enum": ["ok"]})
    rules_version = fields.String(required=True)
    version = fields.String(required=True, metadata={"description": "The application's version (its package's)."})


class ReadySchema(HealthSchema):
    status = fields.String(required=True, metadata={"enum": ["ready"]})


class ProblemDetailSchema(Schema):
    path = fields.String(metadata={"description": "Where in the body, dotted (position.players.A.reserve)."})
    rule = fields.String(
        metadata=named_enum("RuleId", description="A position.* rule id, for an inconsistent position.")
    )
    message = fields.String(required=True)


class ProblemSchema(Schema):
    """An RFC 9457 problem (``application/problem+json``)."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    errors = fields.List(fields.Nested(ProblemDetailSchema))


class BatchSchema(Schema):
    """``POST /v1/check/batch``: one Verdict or Problem per item, in order."""

    rules_version = fields.Constant(RULES_VERSION, required=True, metadata={"type": "string"})
    results = fields.List(
        fields.Raw(
            metadata={"oneOf": [{"$ref": "#/components/schemas/Verdict"}, {"$ref": "#/components/schemas/Problem"}]}
        ),
        required=True,
    )


class ViewStepsSchema(Schema):
    project = fields.String(required=True, metadata={"example": "Step 1/2: Place"})
    shape = fields.String(required=True, metadata={"example": "Step 2/2: Shape"})
    echo = fields.String(required=True, metadata={"example": "Step 3: Echo (optional)"})


class ViewPositionSchema(Schema):
    hpn = fields.String(required=True, metadata={"description": "The position shown, in HPN."})
    to_move = fields.String(required=True, metadata=named_enum("PlayerId"))
    reserve = fields.Integer(required=True, metadata={"description": "The mover's stones in reserve."})
    project = fields.String(
        required=True,
        metadata={
            "enum": ["place", "move", "skip"],
            "description": "The mover's Project this turn: a Place, a Move, or the cooldown skip.",
        },
    )
    steps = fields.Nested(ViewStepsSchema, required=True, metadata={"description": "The turn's step labels here."})
    game_over = fields.Boolean(required=True)
    message = fields.String(required=True, metadata={"description": "How the game stands in this position."})
    status_html = fields.String(required=True, metadata={"description": "One line on the position (HTML)."})
    facts_html = fields.String(
        required=True, metadata={"description": "The players' counters and the history, in words (HTML)."}
    )


class ViewTurnSchema(Schema):
    htn = fields.String(required=True, metadata={"description": "The turn in canonical HTN, in this position."})
    turn = fields.Dict(required=True, metadata={"description": "The turn as a JSON object (the rules reference §11)."})


class ViewLegalSchema(Schema):
    count = fields.Integer(
        required=True, metadata={"description": "The legal turns of the position (or of the Project)."}
    )
    cells = fields.List(fields.String(), required=True, metadata={"description": "The cells highlighted."})
    note = fields.String(required=True, metadata={"description": "What the highlight shows, in words."})


class ViewGameTurnSchema(Schema):
    n = fields.Integer(required=True, metadata={"description": "1 for the first turn."})
    htn = fields.String(required=True)
    mover = fields.String(required=True, metadata=named_enum("PlayerId"))
    status = fields.String(required=True, metadata={"enum": ["legal", "illegal", "not_checked"]})


class ViewGameSchema(Schema):
    turns = fields.List(fields.Nested(ViewGameTurnSchema), required=True)
    at = fields.Integer(required=True, metadata={"description": "The turn open (turns + 1: the final position)."})
    last = fields.Integer(
        required=True, metadata={"description": "The last stop: the first illegal turn, or turns + 1."}
    )
    sheet = fields.String(required=True, metadata={"description": "The game's score sheet, one turn per line."})
    message = fields.String(required=True, metadata={"description": "Where the game stands, in words."})


class ViewSchema(Schema):
    """``POST /v1/render/view``: the playground's view of a position (or a game's turn)."""

    rules_version = fields.Constant(RULES_VERSION, required=True, metadata={"type": "string"})
    position = fields.Nested(ViewPositionSchema, required=True)
    history = fields.List(
        fields.String(),
        allow_none=True,
        required=True,
        metadata={"description": "The earlier positions used (HPN, oldest first); null when not known."},
    )
    board = fields.String(required=True, metadata={"description": "The board as SVG, as POST /v1/render draws it."})
    shows = fields.String(
        required=True,
        metadata={
            "enum": ["plain", "turn", "highlight"],
            "description": "What the board shows: the position, the verdict of `turn`, or the legal choices.",
        },
    )
    turn = fields.Nested(ViewTurnSchema, allow_none=True, required=True, metadata={"description": "The turn read."})
    verdict = fields.Nested(VerdictSchema, allow_none=True, required=True, metadata={"description": "With check."})
    verdict_html = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "With check: the verdict as HTML, made by the /check page's template."},
    )
    legal = fields.Nested(ViewLegalSchema, allow_none=True, required=True, metadata={"description": "With legal."})
    game = fields.Nested(
        ViewGameSchema,
        allow_none=True,
        required=True,
        metadata={"description": "A game from the start position (its turns so far), or null for another position."},
    )
    address = fields.String(
        required=True,
        metadata={"description": "The playground's own link to this view, relative to it (empty: the start)."},
    )
    permalink = fields.String(
        required=True,
        metadata={"description": "The permalink of what is shown, relative to the playground: /game, /check or /."},
    )
