"""The OpenAPI 3 document, generated from the marshmallow schemas.

``openapi.yaml`` at the repository root is this document, committed; a test
fails when the two differ.  Regenerate with ``python -m checker.web.openapi``.
"""

from __future__ import annotations

import functools
import sys

import yaml
from marshmallow import fields
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from checker import RULES_VERSION
from checker.notation import START_HPN
from schemas import requests as rq
from schemas import responses as rs
from schemas.fields import CellField, CellListField
from schemas.position import CellStateSchema, PositionField, PositionObjectSchema
from schemas.turn import (EchoSchema, ProjectFilterField, ProjectSchema, ShapeFilterField, ShapeSchema,
                          TurnField, TurnObjectSchema)

_REF = "#/components/schemas/"


def _custom_fields(self, field, **kwargs) -> dict:
    """How the schema layer's own fields look in OpenAPI."""
    if isinstance(field, PositionField):
        return {"oneOf": [{"type": "string", "description": "HPN (RULES §10)", "example": START_HPN,
                           "maxLength": 400},
                          {"$ref": _REF + "PositionObject"}]}
    if isinstance(field, TurnField):
        return {"oneOf": [{"type": "string", "description": "HTN (RULES §10)", "example": "c3 +d4",
                           "maxLength": 64},
                          {"$ref": _REF + "TurnObject"}]}
    if isinstance(field, ProjectFilterField):
        return {"oneOf": [{"type": "string", "example": "c3"}, {"$ref": _REF + "Project"}]}
    if isinstance(field, ShapeFilterField):
        return {"oneOf": [{"type": "string", "example": "+d4"}, {"$ref": _REF + "Shape"}]}
    if isinstance(field, fields.Dict) and "additionalProperties" in field.metadata:
        return {"additionalProperties": field.metadata["additionalProperties"]}
    if isinstance(field, CellField):
        return {"type": "string", "example": "c3"}
    if isinstance(field, CellListField):
        return {"type": "array", "items": {"type": "string", "example": "c3"}}
    return {}


def _problem(description: str) -> dict:
    return {"description": description,
            "content": {"application/problem+json": {"schema": "Problem"}}}


_ERRORS_BODY = {
    "400": _problem("The body is not valid JSON, or not a JSON object, or it ended before its Content-Length."),
    "408": _problem("The body did not arrive within the body timeout (default 5 s)."),
    "413": _problem("The body is larger than the limit (default 256 KiB), chunked or not."),
    "415": _problem("The content type is not JSON."),
    "422": _problem("The body does not match the schema (errors with paths), an HPN or HTN string does not "
                    "parse (the message says where), or the position is not consistent (errors with "
                    "position.* rule ids)."),
}


def _expensive(operations: dict) -> dict:
    """An endpoint under the work budget (checker.web.budget): it may answer 503."""
    operations["post"]["responses"]["503"] = {
        **_problem("This worker is already answering its limit of batches and legal-turn lists at once "
                   "(HEXODIC_EXPENSIVE_LIMIT, default 2); retry after Retry-After seconds."),
        "headers": {"Retry-After": {"description": "Seconds to wait before retrying.",
                                    "schema": {"type": "integer"}}}}
    return operations


def _ok(schema: str, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _post(summary: str, request: str, response: str, description: str) -> dict:
    return {"post": {"summary": summary, "description": description,
                     "requestBody": {"required": True, "content": {"application/json": {"schema": request}}},
                     "responses": {"200": _ok(response, summary), **_ERRORS_BODY}}}


def _get(summary: str, response: dict, description: str = "") -> dict:
    return {"get": {"summary": summary, "description": description or summary,
                    "responses": {"200": response}}}


def _only_null(node):
    """apispec writes a nullable Nested field as ``anyOf: [X, {type: object,
    nullable: true}]``, whose second branch admits any object; pin it to null."""
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


@functools.lru_cache(maxsize=1)
def build() -> dict:
    """The OpenAPI document as a dict."""
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title="Hexodic move-legality checker",
        version=RULES_VERSION,
        openapi_version="3.0.3",
        plugins=[plugin],
        info={"description": "Send a Hexodic position and a proposed turn; get back legal or illegal with a "
                             "rule-by-rule explanation. Rules version " + RULES_VERSION + "."},
    )
    plugin.converter.add_attribute_function(_custom_fields)
    for name, schema in [
        ("Project", ProjectSchema), ("Shape", ShapeSchema), ("Echo", EchoSchema), ("CellState", CellStateSchema),
        ("PositionObject", PositionObjectSchema), ("TurnObject", TurnObjectSchema),
        ("CheckRequest", rq.CheckRequestSchema), ("LegalTurnsRequest", rq.LegalTurnsRequestSchema),
        ("ValidateRequest", rq.ValidateRequestSchema), ("ReplayRequest", rq.ReplayRequestSchema),
        ("BatchRequest", rq.BatchRequestSchema),
        ("RenderRequest", rq.RenderRequestSchema),
        ("Verdict", rs.VerdictSchema), ("LegalTurns", rs.LegalTurnsSchema), ("Validation", rs.ValidateSchema),
        ("Rule", rs.RuleSchema), ("Replay", rs.ReplaySchema), ("Batch", rs.BatchSchema), ("Start", rs.StartSchema), ("Health", rs.HealthSchema),
        ("Problem", rs.ProblemSchema),
    ]:
        spec.components.schema(name, schema=schema)
    spec.path("/v1/check", operations=_post(
        "Check one turn", "CheckRequest", "Verdict",
        "Judge a turn played from a position: legal or illegal, every rule that concerns the turn in turn "
        "order, and for a legal turn the outcome (position, events, capture weighing, end of game)."))
    spec.path("/v1/check/batch", operations=_expensive(_post(
        "Check many turns", "BatchRequest", "Batch",
        f"Each item is judged independently, in order, like POST /v1/check: the answer holds a Verdict, or a "
        f"Problem for a malformed item, per item. At most {rq.MAX_BATCH} items.")))
    spec.path("/v1/replay", operations=_post(
        "Replay a game", "ReplayRequest", "Replay",
        "Each turn checked and applied in order from `start` (default: the start position), the history kept, "
        "so repetition and threefold are judged; stops at the first illegal turn with its full verdict and "
        f"reports the game's end if it ends. At most {rq.MAX_REPLAY} turns."))
    render = _post("Draw the board", "RenderRequest", "Problem",
                   "An SVG picture of the position: the 37 cells shaded by tier, stones, locks, cell names and "
                   "highlighted cells; with `turn`, the verdict drawn on it.")
    render["post"]["responses"]["200"] = {"description": "The board as SVG.",
                                          "content": {"image/svg+xml": {"schema": {"type": "string"}}}}
    spec.path("/v1/render", operations=render)
    spec.path("/v1/legal-turns", operations=_expensive(_post(
        "List the legal turns", "LegalTurnsRequest", "LegalTurns",
        "Every legal turn of the position, in the documented order (Projects in board order; no Shape first "
        "when it may be left out, then Shapes by cell, raise before lower; no Echo first, then Echo-Captures, "
        "then Echo-Locks), or only those beginning with the given Project (and Shape).")))
    spec.path("/v1/validate", operations=_post(
        "Validate a position", "ValidateRequest", "Validation",
        "Every position.* consistency condition (D-3), and for a consistent position its status."))
    spec.path("/v1/rules", operations=_get("The rule catalogue", {
        "description": "Every rule id with its step, title, text, more link and source.",
        "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": _REF + "Rule"}}}}}))
    spec.path("/v1/start", operations=_get("The start position", _ok("Start", "The start position.")))
    spec.path("/v1/vectors", operations=_get("Conformance vectors", {
        "description": "The conformance vectors as JSON Lines: a header line {format, version, rules_version, "
                       "count}, then one vector per line {id, description, position, history, turn, legal, "
                       "violations, after, game}.",
        "content": {"application/x-ndjson": {"schema": {"type": "string"}}}}))
    spec.path("/healthz", operations=_get("Health", _ok("Health", "The service is up.")))
    spec.path("/openapi.yaml", operations=_get("This document", {
        "description": "The OpenAPI 3 document.", "content": {"application/yaml": {"schema": {"type": "object"}}}}))
    spec.path("/", operations=_get("Playground", {
        "description": "The playground: an HTML page that builds a turn on the board and checks it with this API.",
        "content": {"text/html": {"schema": {"type": "string"}}}}))
    spec.path("/docs", operations=_get("Interactive API page", {
        "description": "An HTML page.", "content": {"text/html": {"schema": {"type": "string"}}}}))
    return _only_null(spec.to_dict())


@functools.lru_cache(maxsize=1)
def as_yaml() -> str:
    return yaml.safe_dump(build(), sort_keys=False, allow_unicode=True, width=100)


def main() -> None:
    """Print the document: ``hexodic-checker-openapi > openapi.yaml``."""
    sys.stdout.write(as_yaml())


if __name__ == "__main__":
    main()
