"""The request bodies' JSON Schemas (draft 2020-12), taken from the OpenAPI
document: ``checker/data/requests.schema.json``, which the MCP server
(:mod:`checker.tools.mcp_server`) reads its tools' input schemas from.

The document is OpenAPI 3.0 (:mod:`checker.web.openapi`, built with apispec,
which only the server extra installs); the MCP server needs plain JSON Schema
and runs without that extra, so the schemas are written out once, by
``make checker/data/requests.schema.json`` (``python -m
checker.web.request_schemas``), and a test fails when the file and the
document differ.  Each request component (``CheckRequest``, ...) and every
component it refers to is a ``$defs`` entry; the conversion:

- ``$ref: '#/components/schemas/X'`` becomes ``$ref: '#/$defs/X'``;
- ``nullable: true`` becomes ``"null"`` in the ``type`` list (and ``null`` in
  an ``enum``), or ``anyOf`` with ``{"type": "null"}`` where there is no
  ``type`` (a ``oneOf`` field), its description and default kept outside;
- apispec's nullable ``Nested`` branch ``{type: object, nullable: true, enum:
  [null]}`` (:func:`checker.web.openapi._only_null`) is ``{"type": "null"}``;
- ``example`` becomes ``examples: [...]``.

>>> as_json_schema({"oneOf": [{"type": "string"}], "nullable": True, "default": None, "description": "d"})
{'description': 'd', 'default': None, 'anyOf': [{'oneOf': [{'type': 'string'}]}, {'type': 'null'}]}
>>> as_json_schema({"$ref": "#/components/schemas/Shape", "example": "+d4"})
{'$ref': '#/$defs/Shape', 'examples': ['+d4']}
"""

from __future__ import annotations

import json
import sys

from checker.web import openapi

PATH = "requests.schema.json"
"""The file in :mod:`checker.data`."""

REQUESTS = ("CheckRequest", "LegalTurnsRequest", "ReplayRequest", "ValidateRequest", "RenderRequest")
"""The request bodies written out: those the MCP server's tools take."""

_COMPONENTS = "#/components/schemas/"
_DEFS = "#/$defs/"
_OUTSIDE = ("description", "default")  # kept on the outside of a nullable field's anyOf


def as_json_schema(node):
    """An OpenAPI 3.0 schema (or a part of one) as JSON Schema 2020-12."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("nullable") is True and node.get("enum") == [None]:
        return {"type": "null"}
    out: dict = {}
    for key, value in node.items():
        if key == "nullable":
            continue
        if key == "$ref" and value.startswith(_COMPONENTS):
            out[key] = _DEFS + value[len(_COMPONENTS) :]
        elif key == "example":
            out["examples"] = [value]
        elif key in ("properties", "patternProperties"):
            out[key] = {name: as_json_schema(part) for name, part in value.items()}
        else:
            out[key] = as_json_schema(value)
    if node.get("nullable") is not True:
        return out
    if "type" in out:
        kinds = out["type"] if isinstance(out["type"], list) else [out["type"]]
        out["type"] = [*kinds, "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    outside = {key: out.pop(key) for key in _OUTSIDE if key in out}
    return {**outside, "anyOf": [out, {"type": "null"}]}


def _refs(node) -> set[str]:
    """The component names ``node`` refers to (directly)."""
    if isinstance(node, dict):
        found = {node["$ref"][len(_COMPONENTS) :]} if str(node.get("$ref", "")).startswith(_COMPONENTS) else set()
        return found.union(*(_refs(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(value) for value in node))
    return set()


def build() -> dict:
    """The file's content: every request of :data:`REQUESTS` and the components
    they refer to, under ``$defs``."""
    components = openapi.build()["components"]["schemas"]
    wanted: list[str] = []
    todo = list(REQUESTS)
    while todo:
        name = todo.pop(0)
        if name not in wanted:
            wanted.append(name)
            todo += sorted(_refs(components[name]))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:hexodic:checker:requests:1",
        "title": "The request bodies of the checker's operations",
        "description": "The JSON Schemas of the bodies of POST /v1/check, /v1/legal-turns, /v1/replay, "
        "/v1/validate and /v1/render, taken from the OpenAPI document (openapi.yaml) and converted to JSON "
        "Schema 2020-12; the MCP server's tools take their input schemas from here.",
        "$defs": {name: as_json_schema(components[name]) for name in wanted},
    }


def as_text() -> str:
    """The file's text, as committed."""
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    """Print the file: ``python -m checker.web.request_schemas > checker/data/requests.schema.json``."""
    sys.stdout.write(as_text())


if __name__ == "__main__":
    main()
