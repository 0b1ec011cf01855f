"""The conformance vectors, the OpenAPI document and ``/robots.txt``."""

from __future__ import annotations

import functools
import hashlib
from importlib import resources

from checker.tools.answers import schema
from checker.tools.vectors import SHIPPED
from checker.web import openapi
from checker.web.endpoints import JSON, Blueprint, Content, reply, revalidated

bp = Blueprint("meta", __name__)


@bp.declare(
    "GET",
    "/v1/vectors",
    "Conformance vectors",
    answer=Content(
        "application/x-ndjson",
        {"type": "string"},
        "The conformance vectors as JSON Lines: a header line {format, version, rules_version, count}, then one "
        "vector per line {id, description, position, history, turn, legal, violations, after, game}.",
    ),
    conditional=True,
)
def vectors():
    """The conformance vectors, as shipped (JSON Lines, header first)."""
    body, etag = _vectors()
    resp = revalidated(body, "application/x-ndjson", etag)
    resp.headers["Content-Disposition"] = 'inline; filename="hexodic-vectors.jsonl"'
    return resp


def _versioned(body: bytes) -> tuple[bytes, str]:
    return body, hashlib.sha256(body).hexdigest()[:32]


@functools.cache
def _vectors() -> tuple[bytes, str]:
    return _versioned(resources.files("checker.data").joinpath(SHIPPED).read_bytes())


@functools.cache
def _document() -> tuple[bytes, str]:
    return _versioned(openapi.as_yaml().encode())


@bp.declare(
    "GET",
    "/v1/vectors/schema",
    "JSON Schemas of the vectors and answers files",
    answer=Content(
        JSON,
        {
            "type": "object",
            "required": ["vectors", "answers"],
            "properties": {
                "vectors": {"type": "object", "description": "A JSON Schema."},
                "answers": {"type": "object", "description": "A JSON Schema."},
            },
        },
        "`{vectors, answers}`: the JSON Schema (draft 2020-12) of a line of the vectors file and of a line of an "
        "answers file (hexodic-check vectors --answers).",
    ),
)
def vectors_schema():
    """The JSON Schemas of a line of the vectors file and of an answers file."""
    return reply({"vectors": schema("vectors"), "answers": schema("answers")})


@bp.declare(
    "GET",
    "/openapi.yaml",
    "This document",
    answer=Content("application/yaml", {"type": "object"}, "The OpenAPI 3 document."),
    conditional=True,
)
def openapi_yaml():
    body, etag = _document()
    return revalidated(body, "application/yaml", etag)


ROBOTS = b"""# The pages (the playground, /check and /game permalinks, /rules, /docs) may be crawled;
# the API and the metrics may not.
User-agent: *
Disallow: /v1/
Disallow: /metrics
Allow: /
"""


@bp.declare(
    "GET",
    "/robots.txt",
    "Crawling rules",
    answer=Content(
        "text/plain",
        {"type": "string"},
        "For crawlers: the pages are allowed, /v1/ and /metrics disallowed.",
    ),
    conditional=True,
)
def robots_txt():
    return revalidated(ROBOTS, "text/plain; charset=utf-8")
