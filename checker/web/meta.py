"""The conformance vectors, the OpenAPI document and the offline interactive API page."""

from __future__ import annotations

from importlib import resources

from flask import Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path

from checker.answers import schema
from checker.vectors import SHIPPED

from . import openapi
from .endpoints import JSON, Blueprint, Content, reply

bp = Blueprint("meta", __name__)

_DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Hexodic move-legality checker: API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({url: "/openapi.yaml", dom_id: "#swagger-ui", deepLinking: true,
                             validatorUrl: null, tryItOutEnabled: true});
</script>
</body>
</html>
"""


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


@bp.declare("GET", "/docs", "Interactive API page", answer=Content("text/html", {"type": "string"}, "An HTML page."))
def docs():
    return Response(_DOCS_PAGE, mimetype="text/html")


@bp.get("/docs/assets/<path:filename>")
def docs_assets(filename: str):
    return send_from_directory(swagger_ui_path, filename, max_age=3600)
