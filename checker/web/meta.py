"""The conformance vectors and the OpenAPI document."""

from __future__ import annotations

from importlib import resources

from flask import Response

from checker.answers import schema
from checker.vectors import SHIPPED

from . import openapi
from .endpoints import JSON, Blueprint, Content, reply

bp = Blueprint("meta", __name__)


@bp.declare("GET", "/v1/vectors", "Conformance vectors", answer=Content(
    "application/x-ndjson", {"type": "string"},
    "The conformance vectors as JSON Lines: a header line {format, version, rules_version, count}, then one "
    "vector per line {id, description, position, history, turn, legal, violations, after, game}."))
def vectors():
    """The conformance vectors, as shipped (JSON Lines, header first)."""
    body = resources.files("checker.data").joinpath(SHIPPED).read_bytes()
    return Response(body, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": 'inline; filename="hexodic-vectors.jsonl"'})


@bp.declare("GET", "/v1/vectors/schema", "JSON Schemas of the vectors and answers files", answer=Content(
    JSON, {"type": "object", "required": ["vectors", "answers"],
           "properties": {"vectors": {"type": "object", "description": "A JSON Schema."},
                          "answers": {"type": "object", "description": "A JSON Schema."}}},
    "`{vectors, answers}`: the JSON Schema (draft 2020-12) of a line of the vectors file and of a line of an "
    "answers file (hexodic-check vectors --answers)."))
def vectors_schema():
    """The JSON Schemas of a line of the vectors file and of an answers file."""
    return reply({"vectors": schema("vectors"), "answers": schema("answers")})


@bp.declare("GET", "/openapi.yaml", "This document",
            answer=Content("application/yaml", {"type": "object"}, "The OpenAPI 3 document."))
def openapi_yaml():
    return Response(openapi.as_yaml(), mimetype="application/yaml")
