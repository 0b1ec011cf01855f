"""The ``/v1`` blueprint: checking turns, listing legal turns, validating
positions, the rule catalogue and the start position."""

from __future__ import annotations

from flask import Blueprint

from checker.catalogue import RULES
from checker.generate import game_over_reason, legal_turns, skip_applies
from checker.legality import check, consistency_checks
from checker.notation import NotationError, position_to_hpn, turn_to_htn
from checker.play import describe_game_over
from checker.position import Position
from schemas.requests import CheckRequestSchema, LegalTurnsRequestSchema, ValidateRequestSchema
from schemas.responses import LegalTurnsSchema, RuleSchema, StartSchema, ValidateSchema, VerdictSchema
from schemas.turn import turn_to_json

from .io import consistent, load, reply

bp = Blueprint("v1", __name__, url_prefix="/v1")

_check_request = CheckRequestSchema()
_legal_request = LegalTurnsRequestSchema()
_validate_request = ValidateRequestSchema()
_verdict = VerdictSchema()
_legal = LegalTurnsSchema()
_validate = ValidateSchema()
_rules = RuleSchema(many=True)
_start = StartSchema()


@bp.post("/check")
def check_turn():
    data = load(_check_request)
    position = consistent(data["position"], "position")
    verdict = check(position, data["turn"], data["history"], validate=False)
    return reply(_verdict.dump(verdict))


@bp.post("/legal-turns")
def list_legal_turns():
    data = load(_legal_request)
    position = consistent(data["position"], "position")
    turns = legal_turns(position, data["project"], data["shape"])
    return reply(_legal.dump({"count": len(turns),
                              "turns": [{"htn": turn_to_htn(t, position), "turn": turn_to_json(t)}
                                        for t in turns]}))


@bp.post("/validate")
def validate_position():
    position = load(_validate_request)["position"]
    checks = consistency_checks(position)
    ok = position.is_consistent()
    status = None
    if ok:
        reason = game_over_reason(position)
        status = {"to_move": position.to_move, "game_over": reason is not None, "reason": reason,
                  "message": (f"The game is over: {describe_game_over(position, reason)}." if reason
                              else f"{position.to_move} is to move."),
                  "cooldown_skip": skip_applies(position),
                  "legal_turns": len(legal_turns(position))}
    try:
        hpn = position_to_hpn(position)
    except NotationError:
        hpn = None  # a tier outside 0–2 or a negative counter has no HPN
    return reply(_validate.dump({"consistent": ok, "hpn": hpn, "checks": checks, "status": status}))


@bp.get("/rules")
def rule_catalogue():
    return reply(_rules.dump(RULES.values()))


@bp.get("/start")
def start_position():
    return reply(_start.dump({"position": Position.start()}))
