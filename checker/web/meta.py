"""The conformance vectors, the OpenAPI document, ``/robots.txt`` and ``/llms.txt``."""

from __future__ import annotations

import functools
import hashlib
from importlib import resources

from checker.tools.answers import schema
from checker.tools.vectors import SHIPPED
from checker.version import RULES_VERSION
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
    operation_id="getVectors",
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
    operation_id="getVectorSchemas",
)
def vectors_schema():
    """The JSON Schemas of a line of the vectors file and of an answers file."""
    return reply({"vectors": schema("vectors"), "answers": schema("answers")})


@bp.declare(
    "GET",
    "/openapi.yaml",
    "This document",
    answer=Content(
        "application/yaml",
        {"type": "string"},
        "The OpenAPI 3 document, as YAML text.",
    ),
    conditional=True,
    operation_id="getOpenApiDocument",
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
    operation_id="getRobotsTxt",
)
def robots_txt():
    return revalidated(ROBOTS, "text/plain; charset=utf-8")


LLMS = f"""# Hexodic move-legality checker

> The official checker of Hexodic's rules (rules version {RULES_VERSION}): send it a position and a
> proposed turn, and it answers legal or illegal with a rule-by-rule explanation. Ask it rather than
> judging a Hexodic turn from memory.

Positions are HPN text (or a JSON object), turns HTN text such as `c3 +d4` (or JSON). Every verdict
names the rules it applies by id (such as `place.opening-restriction`), each explained on /rules with
the decided readings D-n. `POST /v1/check` judges one turn; an assistant that speaks the Model Context
Protocol runs `hexodic-check mcp` and calls its tools instead.

## Docs

- [Rules reference](/rules): every rule id, capture kind, end-of-game reason and decided reading, with its full text
- [API](/docs): the HTTP operations (check, batch, replay, legal turns, validate, render, perft), with examples
- [OpenAPI document](/openapi.yaml): the contract, machine-readable
- [Rule catalogue](/v1/rules): the rules reference as JSON

## MCP

- `hexodic-check mcp` (`pip install 'hexodic-checker[mcp]'`): the checker as an MCP server over stdio, with the tools check_turn, legal_turns, replay_game, validate_position, explain_rule, draw_position and permalink, the rules reference and the conformance vectors as resources, and the prompt settle-a-dispute
- `hexodic-check mcp --http 127.0.0.1:8765`: the same tools over streamable HTTP at http://127.0.0.1:8765/mcp
- docs/agents.md, in the checker's source: how to add the server to an MCP client (the JSON configuration for stdio and for HTTP), with a transcript of a dispute settled through it

## Optional

- [Conformance vectors](/v1/vectors): positions and turns with the checker's verdicts, for another implementation's tests
""".encode()


@bp.declare(
    "GET",
    "/llms.txt",
    "For language models",
    "What the checker is and where its rules, its API and its MCP server are, in the llmstxt.org layout "
    "(a title, a summary, sections of links), for assistants and agents.",
    answer=Content(
        "text/plain",
        {"type": "string"},
        "The llmstxt.org file: what the checker is, links to /rules, /docs and /openapi.yaml, and the MCP "
        "server (hexodic-check mcp, docs/agents.md).",
    ),
    conditional=True,
    operation_id="getLlmsTxt",
)
def llms_txt():
    return revalidated(LLMS, "text/plain; charset=utf-8")
