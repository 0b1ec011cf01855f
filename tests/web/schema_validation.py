"""Response bodies checked against the committed ``openapi.yaml``.

The OpenAPI 3.0 document is turned into JSON Schema (draft 2020-12) and run
with ``jsonschema_rs`` (the validator schemathesis itself installs):

- ``nullable: true`` becomes a type union with ``"null"`` (and ``null`` joins
  an ``enum``); a ``nullable`` without ``type`` (``oneOf`` fields) becomes
  ``anyOf: [{type: null}, ...]``;
- ``$ref: '#/components/schemas/X'`` resolves against the document's own
  components (they are carried along under ``components`` in every root
  schema);
- apispec writes a nullable ``Nested`` field as
  ``anyOf: [{$ref: X}, {type: object, nullable: true}]``.  Read literally
  (OpenAPI 3.0.3) the second branch admits *any* object, so a drifted
  ``outcome`` or ``status`` would still pass.  Here that bare branch means
  what the field means, "X or null": it becomes ``{type: null}``.

``assert_documented(resp, method, path)`` finds the response the document
declares for the status and content type and validates the body with it; a
status the document does not list for the operation (404, 405, ...) must be
a ``Problem``.

>>> to_json_schema({"type": "string", "enum": ["A", None], "nullable": True})
{'type': ['string', 'null'], 'enum': ['A', None]}
>>> to_json_schema({"anyOf": [{"$ref": "#/components/schemas/X"}, {"type": "object", "nullable": True}]})
{'anyOf': [{'$ref': '#/components/schemas/X'}, {'type': 'null'}]}
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import jsonschema_rs
import yaml

OPENAPI_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
PROBLEM_JSON = "application/problem+json"


@functools.lru_cache(maxsize=1)
def document() -> dict:
    """The committed OpenAPI document."""
    return yaml.safe_load(OPENAPI_PATH.read_text(encoding="utf-8"))


def _bare_nullable_object(node) -> bool:
    return isinstance(node, dict) and node == {"type": "object", "nullable": True}


def to_json_schema(node):
    """An OpenAPI 3.0 schema (fragment) as JSON Schema 2020-12."""
    if isinstance(node, list):
        return [to_json_schema(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "nullable":
            continue
        if key in ("anyOf", "oneOf") and isinstance(value, list):
            out[key] = [{"type": "null"} if _bare_nullable_object(v) else to_json_schema(v) for v in value]
        elif key in ("properties", "patternProperties") and isinstance(value, dict):
            out[key] = {k: to_json_schema(v) for k, v in value.items()}
        else:
            out[key] = to_json_schema(value)
    if node.get("nullable") is True:
        if "type" in out:
            types = out["type"] if isinstance(out["type"], list) else [out["type"]]
            out["type"] = types + (["null"] if "null" not in types else [])
            if "enum" in out and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [{"type": "null"}, out]}
    return out


@functools.lru_cache(maxsize=1)
def _components() -> dict:
    return {"schemas": {name: to_json_schema(s) for name, s in document()["components"]["schemas"].items()}}


@functools.cache
def _validator(schema_json: str):
    schema = json.loads(schema_json)
    return jsonschema_rs.Draft202012Validator({**schema, "components": _components()})


def validator_for(schema: dict):
    """A validator for an OpenAPI schema fragment (``$ref`` into the components allowed)."""
    return _validator(json.dumps(to_json_schema(schema), sort_keys=True))


def component(name: str):
    """The validator of ``#/components/schemas/<name>``."""
    assert name in document()["components"]["schemas"], f"openapi.yaml has no component {name}"
    return validator_for({"$ref": f"#/components/schemas/{name}"})


def errors_of(validator, instance) -> list[str]:
    return [f"{'/'.join(map(str, e.instance_path)) or '(root)'}: {e.message}" for e in validator.iter_errors(instance)]


def assert_valid(validator, instance, what: str = "body") -> None:
    problems = errors_of(validator, instance)
    assert not problems, f"{what} does not match openapi.yaml:\n  " + "\n  ".join(problems[:20])


def assert_component(name: str, instance, what: str = "body") -> None:
    assert_valid(component(name), instance, f"{what} ({name})")


def documented_schema(method: str, path: str, status: int, mimetype: str) -> dict | None:
    """The schema the document declares for this answer, or ``None`` when
    the operation does not list the status.  Fails when the status is listed
    but not with this content type."""
    op = document()["paths"][path][method.lower()]
    answer = op["responses"].get(str(status))
    if answer is None:
        return None
    content = answer.get("content", {})
    assert mimetype in content, (
        f"{method} {path} {status}: content type {mimetype!r} is not among the documented {sorted(content)}"
    )
    return content[mimetype]["schema"]


def assert_documented(resp, method: str, path: str):
    """``resp`` is an answer ``openapi.yaml`` declares for ``method path``;
    returns the parsed JSON body."""
    assert resp.status_code < 500, (
        f"{method} {path}: server error {resp.status_code}: {resp.get_data(as_text=True)[:500]}"
    )
    mimetype = resp.mimetype
    body = json.loads(resp.get_data(as_text=True))
    schema = documented_schema(method, path, resp.status_code, mimetype)
    if schema is None:
        assert resp.status_code >= 400, f"{method} {path}: undocumented success status {resp.status_code}"
        assert mimetype == PROBLEM_JSON, f"{method} {path} {resp.status_code}: content type {mimetype}"
        schema = {"$ref": "#/components/schemas/Problem"}
    assert_valid(
        _answer_validator(method, path, resp.status_code, mimetype), body, f"{method} {path} {resp.status_code} body"
    )
    return body


@functools.cache
def _answer_validator(method: str, path: str, status: int, mimetype: str):
    schema = documented_schema(method, path, status, mimetype) or {"$ref": "#/components/schemas/Problem"}
    return validator_for(schema)
