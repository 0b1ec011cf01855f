"""The ``/v1`` blueprint: checking turns, listing legal turns, validating
positions, the rule catalogue and the start position.

Each view hands its body to the request pipeline (:mod:`checker.web.pipeline`)
and writes the answer back."""

from __future__ import annotations

from flask import Blueprint, Response

from checker import RULES_VERSION
from checker.render import render_svg
from schemas.requests import RenderRequestSchema

from . import pipeline
from .endpoints import body, reply
from .pipeline import consistent, load

bp = Blueprint("v1", __name__, url_prefix="/v1")

_render_request = RenderRequestSchema()


@bp.post("/check")
def check_turn():
    return reply(pipeline.check_request(body()))


@bp.post("/check/batch")
def check_batch():
    return reply(pipeline.batch_request(body()))


@bp.post("/replay")
def replay_game():
    return reply(pipeline.replay_request(body()))


@bp.post("/render")
def render_board():
    data = load(_render_request, body())
    position = consistent(data["position"], "position")
    svg = render_svg(position, data["highlight"], data["turn"], data["history"])
    return Response(svg, mimetype="image/svg+xml", headers={"Hexodic-Rules-Version": RULES_VERSION})


@bp.post("/legal-turns")
def list_legal_turns():
    return reply(pipeline.legal_turns_request(body()))


@bp.post("/validate")
def validate_position():
    return reply(pipeline.validate_request(body()))


@bp.get("/rules")
def rule_catalogue():
    return reply(pipeline.rule_catalogue())


@bp.get("/start")
def start_position():
    return reply(pipeline.start_position())
