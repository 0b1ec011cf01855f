"""Health, the OpenAPI document and the offline interactive API page."""

from __future__ import annotations

from importlib import resources

from flask import Blueprint, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path

from checker import RULES_VERSION
from checker.vectors import SHIPPED

from . import openapi
from .io import reply

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


@bp.get("/healthz")
def healthz():
    return reply({"status": "ok", "rules_version": RULES_VERSION})


@bp.get("/openapi.yaml")
def openapi_yaml():
    return Response(openapi.as_yaml(), mimetype="application/yaml")


@bp.get("/v1/vectors")
def vectors():
    """The conformance vectors, as shipped (JSON Lines, header first)."""
    body = resources.files("checker.data").joinpath(SHIPPED).read_bytes()
    return Response(body, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": 'inline; filename="hexodic-vectors.jsonl"'})


@bp.get("/v1/vectors/schema")
def vectors_schema():
    """The JSON Schemas of a line of the vectors file and of an answers file."""
    from checker.answers import schema
    return reply({"vectors": schema("vectors"), "answers": schema("answers")})


@bp.get("/docs")
def docs():
    return Response(_DOCS_PAGE, mimetype="text/html")


@bp.get("/docs/assets/<path:filename>")
def docs_assets(filename: str):
    return send_from_directory(swagger_ui_path, filename, max_age=3600)
