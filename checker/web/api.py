"""The ``/v1`` blueprint: checking turns, listing legal turns, validating
positions, the rule catalogue and the start position."""

from __future__ import annotations

from flask import Blueprint, Response

from checker import RULES_VERSION
from checker.catalogue import RULES
from checker.generate import legal_turns
from checker.legality import check, validate
from checker.position import Position
from checker.render import render_svg
from checker.replay import replay
from marshmallow import ValidationError
from schemas.compiled import dumper
from schemas.requests import (BatchRequestSchema, CheckRequestSchema, LegalTurnsRequestSchema,
                              RenderRequestSchema, ReplayRequestSchema, ValidateRequestSchema)
from schemas.responses import (BatchSchema, LegalTurnsSchema, ReplaySchema, RuleSchema, StartSchema, ValidateSchema,
                               VerdictSchema)

from .budget import expensive, pause
from .errors import APIError, api_problem, schema_problem
from .io import consistent, load, reply

bp = Blueprint("v1", __name__, url_prefix="/v1")

_check_request = CheckRequestSchema()
_legal_request = LegalTurnsRequestSchema()
_validate_request = ValidateRequestSchema()
# Answers are dumped by the response schemas compiled once (schemas.compiled):
# the same dicts as Schema().dump, without marshmallow's per-field cost.
_verdict = dumper(VerdictSchema)
_legal = dumper(LegalTurnsSchema)
_validate = dumper(ValidateSchema)
_rule = dumper(RuleSchema)
_start = dumper(StartSchema)
_batch_request = BatchRequestSchema()
_replay_request = ReplayRequestSchema()
_replay = dumper(ReplaySchema)
_batch = dumper(BatchSchema)
_render_request = RenderRequestSchema()


def _judge(data: dict, path: str = "") -> dict:
    """A loaded check request's verdict, dumped."""
    position = consistent(data["position"], f"{path}position")
    return _verdict(check(position, data["turn"], data["history"], validate=False))


@bp.post("/check")
def check_turn():
    return reply(_judge(load(_check_request)))


@bp.post("/check/batch")
@expensive
def check_batch():
    results = []
    for i, item in enumerate(load(_batch_request)["items"]):
        pause()     # between items, the worker's other requests run
        prefix = f"items.{i}."
        try:
            if not isinstance(item, dict):
                raise ValidationError({"_schema": [f"An item must be a JSON object, not {type(item).__name__}."]})
            results.append(_judge(_check_request.load(item), prefix))
        except ValidationError as exc:
            results.append(schema_problem(exc, prefix.rstrip(".")))
        except APIError as exc:
            results.append(api_problem(exc))
    return reply(_batch({"results": results}))


@bp.post("/replay")
def replay_game():
    data = load(_replay_request)
    start = None if data["start"] is None else consistent(data["start"], "start")
    return reply(_replay(replay(data["turns"], start, data["history"])))


@bp.post("/render")
def render_board():
    data = load(_render_request)
    position = consistent(data["position"], "position")
    svg = render_svg(position, data["highlight"], data["turn"], data["history"])
    return Response(svg, mimetype="image/svg+xml", headers={"Hexodic-Rules-Version": RULES_VERSION})


@bp.post("/legal-turns")
@expensive
def list_legal_turns():
    data = load(_legal_request)
    position = consistent(data["position"], "position")
    return reply(_legal((position, legal_turns(position, data["project"], data["shape"]))))


@bp.post("/validate")
def validate_position():
    return reply(_validate(validate(load(_validate_request)["position"])))


@bp.get("/rules")
def rule_catalogue():
    return reply([_rule(r) for r in RULES.values()])


@bp.get("/start")
def start_position():
    return reply(_start(Position.start()))
