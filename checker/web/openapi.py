"""The OpenAPI 3 document, built from the endpoint declarations of the
blueprints (:mod:`checker.web.endpoints`) and the marshmallow schemas they name.

``openapi.yaml`` at the repository root is this document, committed; a test
fails when the two differ.  Regenerate with ``python -m checker.web.openapi``.
"""

from __future__ import annotations

import copy
import functools
import json
import sys
from collections.abc import Iterator

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin, resolver
from marshmallow import Schema, fields

from checker import board
from checker.notation import (
    CELL_PATTERN,
    HPN_PATTERN,
    HTN_PATTERN,
    PROJECT_TOKEN_PATTERN,
    SHAPE_TOKEN_PATTERN,
    START_HPN,
)
from checker.scoresheet import SCORE_SHEET_PATTERN
from checker.version import RULES_VERSION
from checker.web import blueprints
from checker.web.endpoints import Endpoint
from schemas.fields import NAMED_ENUMS, CellField, CellListField
from schemas.position import CellMapField, CellStateSchema, PositionField, PositionObjectSchema
from schemas.responses import ProblemSchema, TurnListField, TurnOutSchema
from schemas.turn import (
    MAX_SHEET_LENGTH,
    PROJECT_KEYS,
    EchoSchema,
    ProjectFilterField,
    ProjectSchema,
    ShapeFilterField,
    ShapeSchema,
    TurnField,
    TurnObjectSchema,
    TurnsField,
)

_REF = "#/components/schemas/"
NULL = {"type": "object", "nullable": True, "enum": [None]}
"""JSON null, the OpenAPI 3.0 way: a field that may be null is ``oneOf`` or
``anyOf`` its forms and this (never ``nullable`` beside a ``oneOf``, which
3.0 reads as nothing)."""
_CELL = f"^{CELL_PATTERN}$"


def _custom_fields(self, field, ret: dict, **kwargs) -> dict:
    """How the schema layer's own fields look in OpenAPI (a position or turn
    field whose metadata gives its ``type`` is described by that alone: a
    query value, always text).  A field that may be null (``allow_none``) and
    is one of several forms has ``{type: 'null'}`` among its ``oneOf``; one
    that holds a closed set (:func:`schemas.fields.named_enum`) refers to the
    set's component, or to it or null."""
    if not field.required and "default" in ret:
        # a field that may be left out: its default said in words, so that generators keep it optional
        # (openapi-typescript makes a property with a default required, in requests and answers alike)
        default = ret.pop("default")
        text = ret.get("description") or field.metadata.get("description") or ""
        if "default" not in text.lower():
            text = text if not text or text.endswith(".") else text + "."
            ret["description"] = f"{text} Default when left out: {json.dumps(default)}.".strip()
    named = field.metadata.get("named_enum") or field.metadata.get("component")  # a component: a batch item
    if named is not None:
        for key in ("type", "enum", "nullable"):
            ret.pop(key, None)
        ref = {"$ref": _REF + named}
        if field.allow_none and "named_enum" in field.metadata:
            return {"anyOf": [ref, dict(NULL)]}
        return {"allOf": [ref]} if "description" in ret else ref  # OpenAPI 3.0: nothing beside a $ref
    doc = _form_fields(field)
    if field.allow_none and "oneOf" in doc:
        ret.pop("nullable", None)
        doc["oneOf"].append(dict(NULL))
    return doc


def _form_fields(field) -> dict:
    if "type" in field.metadata and isinstance(field, (PositionField, TurnField)):
        return {}
    if isinstance(field, PositionField):
        return {
            "oneOf": [
                {
                    "type": "string",
                    "description": "HPN (the rules reference, /rules#hpn)",
                    "example": START_HPN,
                    "pattern": HPN_PATTERN,
                    "minLength": 1,
                    "maxLength": 400,
                },
                {"$ref": _REF + "PositionObject"},
            ]
        }
    if isinstance(field, TurnField):
        return _turn_doc()
    if isinstance(field, TurnsField):
        return {
            "oneOf": [
                {
                    "type": "array",
                    "maxItems": field.max_turns,
                    "items": {"description": "A JSON turn or an HTN string.", **_turn_doc()},
                },
                {
                    "type": "string",
                    "description": "A score sheet: HTN turns separated by ';' or newlines, one or two to an entry, "
                    "move numbers such as '1.' or '1...' allowed.",
                    "example": "1. c3 +d4 e5 +d4",
                    "pattern": SCORE_SHEET_PATTERN,
                    "minLength": 1,
                    "maxLength": MAX_SHEET_LENGTH,
                },
            ]
        }
    if isinstance(field, ProjectFilterField):
        text = {"type": "string", "example": "c3", "pattern": PROJECT_TOKEN_PATTERN, "maxLength": field.max_length}
        return {"oneOf": [text, {"$ref": _REF + "Project"}]}
    if isinstance(field, ShapeFilterField):
        text = {"type": "string", "example": "+d4", "pattern": SHAPE_TOKEN_PATTERN, "maxLength": field.max_length}
        return {"oneOf": [text, {"$ref": _REF + "Shape"}]}
    if isinstance(field, TurnListField):
        # anyOf: the empty list is both
        return {
            "anyOf": [
                {"type": "array", "items": {"$ref": _REF + "TurnOut"}},
                {"type": "array", "items": {"type": "string", "example": "c3 +d4"}},
            ]
        }
    if isinstance(field, CellMapField):
        # every spelling of every cell (OpenAPI 3.0 has no propertyNames); the same cell twice in different case
        # is refused (no schema can say so)
        state = {"$ref": _REF + "CellState"}
        return {
            "properties": {spelling: state for name in board.NAMES for spelling in (name, name.upper())},
            "additionalProperties": False,
        }
    if isinstance(field, fields.Dict) and "additionalProperties" in field.metadata:
        return {"additionalProperties": field.metadata["additionalProperties"]}
    if isinstance(field, CellField):
        return {"type": "string", "example": "c3", "pattern": _CELL}
    if isinstance(field, CellListField):
        return {"type": "array", "uniqueItems": True, "items": {"type": "string", "example": "c3", "pattern": _CELL}}
    return {}


def _turn_doc() -> dict:
    """A turn: HTN text or a JSON turn."""
    return {
        "oneOf": [
            {
                "type": "string",
                "description": "HTN (the rules reference, /rules#htn)",
                "example": "c3 +d4",
                "pattern": HTN_PATTERN,
                "minLength": 1,
                "maxLength": 64,
            },
            {"$ref": _REF + "TurnObject"},
        ]
    }


def _project_component() -> dict:
    """A JSON Project: one object per kind, with exactly that kind's keys
    (:data:`schemas.turn.PROJECT_KEYS`)."""
    cell = {"type": "string", "example": "c3", "description": "A cell name, a1 … g7.", "pattern": _CELL}
    return {
        "description": "Step 1: place (cell), move (from, to) or skip.",
        "oneOf": [
            {
                "type": "object",
                "title": kind,
                "properties": {"kind": {"type": "string", "enum": [kind]}, **{key: dict(cell) for key in keys[1:]}},
                "required": list(keys),
                "additionalProperties": False,
            }
            for kind, keys in PROJECT_KEYS.items()
        ],
    }


def _problem(description: str) -> dict:
    return {"description": description, "content": {"application/problem+json": {"schema": ProblemSchema}}}


# What the HTTP server itself (gunicorn) answers before the app sees a request, on every path.
_ERRORS_SERVER = {
    "400": _problem(
        "The request is not well-formed HTTP (refused by the HTTP server itself), or its Host (or, behind trusted "
        "proxies, X-Forwarded-Host) is not a host name or IP address with an optional port (bad-host)."
    ),
    "414": _problem("The request line is longer than the limit (GUNICORN_LIMIT_REQUEST_LINE, default 4094 bytes)."),
    "431": _problem(
        "A header line, or the number of headers, is over the limit (GUNICORN_LIMIT_REQUEST_FIELD_SIZE, "
        "default 8190 bytes; GUNICORN_LIMIT_REQUEST_FIELDS, default 50)."
    ),
}

# What checker.web.endpoints.body and the request pipeline answer for a JSON body they cannot use.
_ERRORS_BODY = {
    "400": _problem("The body is not valid JSON, or not a JSON object, or it ended before its Content-Length."),
    "408": _problem("The body did not arrive within the body timeout (default 5 s)."),
    "413": _problem("The body is larger than the limit (default 256 KiB), chunked or not."),
    "415": _problem("The content type is not JSON."),
    "422": _problem(
        "The body does not match the schema (errors with paths), an HPN or HTN string does not "
        "parse (the message says where), or the position is not consistent (errors with "
        "position.* rule ids). Beyond what the schema says: a cell named twice in different case "
        "(c3 and C3) in a cell map or a cooldown, or twice in an HPN cooldown, is refused."
    ),
}

# What an expensive endpoint (checker.service.budget) answers beyond its limit.
_ERRORS_EXPENSIVE = {
    "503": {
        **_problem(
            "This worker is already at its limit of expensive requests at once (batches, legal-turn lists, "
            "perft counts, PNG pictures; HEXODIC_EXPENSIVE_LIMIT, default 2), busy; or it is too busy to finish "
            "this one within its deadline (HEXODIC_WORK_DEADLINE, default 5 s from its admission), deadline, and "
            "the work was stopped; retry after Retry-After seconds."
        ),
        "headers": {"Retry-After": {"description": "Seconds to wait before retrying.", "schema": {"type": "integer"}}},
    },
}

# The components _custom_fields refers to by name.
_FIELD_COMPONENTS = (
    ProjectSchema,
    ShapeSchema,
    EchoSchema,
    CellStateSchema,
    PositionObjectSchema,
    TurnObjectSchema,
    TurnOutSchema,
)


def _schema_classes(node) -> Iterator[type[Schema]]:
    """The Schema classes in an answer's schema (a class, or a JSON Schema object holding classes)."""
    if isinstance(node, type) and issubclass(node, Schema):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _schema_classes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schema_classes(value)


# What checker.web.endpoints.load_query answers for a query it cannot use.
_ERROR_QUERY = _problem(
    "A query value does not translate (the errors name each parameter), or the position is not "
    "consistent. Beyond what the schema says: a cell named twice in an HPN cooldown, and a game "
    "link's at past the turns judged. A client that prefers text/html (a browser) gets the same "
    "as an HTML page."
)
_NOT_MODIFIED = {"description": "Not modified: the ETag given in If-None-Match is the answer's."}


TAGS = [
    ("Turns", "Is a turn legal, and why: one, or a batch.", ("/v1/check",)),
    ("Games", "A game's turns checked and applied in order.", ("/v1/replay",)),
    ("Positions", "The start position, and whether a position is consistent.", ("/v1/start", "/v1/validate")),
    (
        "Legal turns and perft",
        "Every legal turn of a position; legal turn sequences counted.",
        ("/v1/legal-turns", "/v1/perft"),
    ),
    ("Pictures", "The board, and a turn's verdict on it, as SVG or PNG.", ("/v1/render",)),
    ("Rules and vectors", "Every rule id and decided reading; the conformance vectors.", ("/v1/rules", "/v1/vectors")),
    (
        "Pages",
        "The pages people read: the playground, the permalinks, the rules reference, this page.",
        ("/", "/check", "/game", "/rules", "/docs"),
    ),
    ("Service", "Health, metrics, this document and the files a browser asks for.", ()),
]
"""The operations' groups, by resource, in the order the API page lists them:
(tag, description, paths).  An operation takes the first tag with a path that
its own equals or extends (``/v1/render`` takes ``/v1/render.png``); a page's
path must be equal; every other operation is the Service's."""


def _tag(path: str) -> str:
    for name, _, paths in TAGS:
        for prefix in paths:
            if path == prefix or (name != "Pages" and path.startswith((prefix + "/", prefix + "."))):
                return name
    return "Service"


def _operation(ep: Endpoint) -> dict:
    """The OpenAPI operation of an endpoint declaration."""
    op: dict = {
        "tags": [_tag(ep.path)],
        "summary": ep.summary,
        "description": ep.description,
        "operationId": ep.operation_id,
        "security": [],  # no operation needs credentials
    }
    if ep.query is not None:
        op["parameters"] = [{"in": "query", "schema": ep.query}]
    if ep.request is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": ep.request}}}
    answer = {
        "description": ep.answer.description,
        "content": {ep.answer.media: {"schema": copy.deepcopy(ep.answer.schema)}},
    }
    if ep.answer.headers:
        answer["headers"] = {
            name: {"description": text, "schema": {"type": "string"}} for name, text in ep.answer.headers.items()
        }
    op["responses"] = {
        "200": answer,
        **copy.deepcopy(_ERRORS_SERVER),
        **(copy.deepcopy(_ERRORS_BODY) if ep.request is not None else {}),
        **({"422": copy.deepcopy(_ERROR_QUERY)} if ep.query is not None else {}),
        **(copy.deepcopy(_ERRORS_EXPENSIVE) if ep.expensive else {}),
        **{status: _problem(description) for status, description in ep.problems},
    }
    if ep.conditional:
        op["responses"]["304"] = dict(_NOT_MODIFIED)
    return {ep.method.lower(): op}


def _only_null(node):
    """apispec writes a nullable Nested field as ``anyOf: [{type: object,
    nullable: true}, X]``, whose first branch admits any object; pin it to null
    (:data:`NULL`)."""
    if isinstance(node, dict):
        branches = node.get("anyOf")
        if isinstance(branches, list):
            for b in branches:
                if b == {"type": "object", "nullable": True}:
                    b["enum"] = [None]
        for value in node.values():
            _only_null(value)
    elif isinstance(node, list):
        for value in node:
            _only_null(value)
    return node


CONTACT = {"name": "The Hexodic checker's maintainers", "url": "https://hexodic.com"}
LICENSE = {"name": "All rights reserved (no licence granted yet)"}
SERVERS = [{"url": "/", "description": "The service that serves this document (GET /openapi.yaml)."}]
"""The document's contact, licence and servers: a relative server, so the
document is right wherever the service runs (generated clients take the base
URL as an argument, docs/clients.md)."""


@functools.lru_cache(maxsize=1)
def build() -> dict:
    """The OpenAPI document as a dict."""
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title="Hexodic move-legality checker",
        version=RULES_VERSION,
        openapi_version="3.0.3",
        plugins=[plugin],
        info={
            "description": "Send a Hexodic position and a proposed turn; get back legal or illegal with a "
            "rule-by-rule explanation. Rules version " + RULES_VERSION + ". The rules the "
            "checker judges by, every rule id and decided reading with its full text: "
            "[the rules reference](/rules) (also as JSON: GET /v1/rules). Every response "
            "carries X-Request-ID: the client's when it sent one (1 to 128 characters from "
            "A-Z a-z 0-9 . _ : + / = @ -), else a new one. Clients generated from this document: "
            "docs/clients.md.",
            "contact": CONTACT,
            "license": LICENSE,
        },
        servers=SERVERS,
        security=[],
    )
    assert plugin.converter is not None  # made by spec.register above
    plugin.converter.add_attribute_function(_custom_fields)
    endpoints = [ep for bp in blueprints() for ep in bp.endpoints]
    # components: the fields' building blocks, then every request, then every answer, then the problem
    components = [
        *_FIELD_COMPONENTS,
        *(ep.request for ep in endpoints if ep.request is not None),
        *(cls for ep in endpoints for cls in _schema_classes(ep.answer.schema)),
        ProblemSchema,
    ]
    for name, values in NAMED_ENUMS.items():
        spec.components.schema(name, {"type": "string", "enum": list(values)})
    for schema in dict.fromkeys(components):
        spec.components.schema(resolver(schema), schema=schema)
    for ep in endpoints:
        spec.path(ep.path, operations=_operation(ep))
    doc = spec.to_dict()
    doc["tags"] = [{"name": name, "description": text} for name, text, _ in TAGS]
    doc["components"]["schemas"][resolver(ProjectSchema)] = _project_component()
    return _only_null(doc)


@functools.lru_cache(maxsize=1)
def as_yaml() -> str:
    return yaml.safe_dump(build(), sort_keys=False, allow_unicode=True, width=100)


def main() -> None:
    """Print the document: ``hexodic-checker-openapi > openapi.yaml``."""
    sys.stdout.write(as_yaml())


if __name__ == "__main__":
    main()
