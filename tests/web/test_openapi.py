"""The committed OpenAPI document: up to date, valid OpenAPI 3, and complete.

- ``openapi.yaml`` at the repository root is exactly what
  :func:`checker.web.openapi.as_yaml` generates (regenerate with
  ``make openapi.yaml``);
- it is a valid OpenAPI 3 document (openapi-spec-validator when installed; the
  OpenAPI 3.0 meta-schema that schemathesis ships; and a structural check of
  our own that needs neither);
- it describes every route of the app (static assets aside), every endpoint
  and request body of the project's own API reference (``docs/api.md``), and
  for every POST the error answers 400, 408, 413, 415 and 422 as
  ``application/problem+json`` (and 503 with ``Retry-After`` for the
  expensive ones, batches and legal-turn lists).
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml

from checker.web.openapi import as_yaml

ROOT = Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "openapi.yaml"
API_MD = ROOT / "docs" / "api.md"

HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
POST_ERRORS = ("400", "408", "413", "415", "422")
PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def doc() -> dict:
    return yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))


def _resolve(doc: dict, node):
    """``node`` with a local ``$ref`` followed (repeatedly)."""
    seen = set()
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), f"non-local $ref {ref!r}"
        assert ref not in seen, f"$ref cycle at {ref!r}"
        seen.add(ref)
        target = doc
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            target = target[part]
        node = target
    return node


# --------------------------------------------------------------------------- up to date


def test_committed_document_is_what_the_generator_makes():
    committed = OPENAPI.read_text(encoding="utf-8")
    generated = as_yaml()
    assert committed == generated, (
        "openapi.yaml is out of date with checker/web/openapi.py and the schemas: "
        "run `make openapi.yaml` and commit the result"
    )


def test_service_serves_the_committed_document(client):
    resp = client.get("/openapi.yaml")
    assert resp.status_code == 200
    assert resp.mimetype in ("application/yaml", "application/x-yaml", "text/yaml")
    assert yaml.safe_load(resp.get_data(as_text=True)) == yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- valid OpenAPI 3


def _structural_problems(doc) -> list[str]:
    """What makes ``doc`` not an OpenAPI 3.0 document, checked by hand (a
    subset of the specification: the parts this service uses)."""
    problems: list[str] = []
    if not isinstance(doc, dict):
        return ["the document is not a mapping"]
    if not re.fullmatch(r"3\.\d+\.\d+", str(doc.get("openapi", ""))):
        problems.append(f"openapi must be a 3.x.y version string, got {doc.get('openapi')!r}")
    info = doc.get("info")
    if not isinstance(info, dict):
        problems.append("info is missing")
    else:
        for key in ("title", "version"):
            if not isinstance(info.get(key), str) or not info[key]:
                problems.append(f"info.{key} must be a non-empty string, got {info.get(key)!r}")
    paths = doc.get("paths")
    if not isinstance(paths, dict) or not paths:
        problems.append("paths must be a non-empty mapping")
        paths = {}

    def check_ref(where: str, node) -> None:
        try:
            _resolve(doc, node)
        except (KeyError, TypeError, AssertionError) as exc:
            problems.append(f"{where}: unresolvable $ref {node.get('$ref')!r} ({exc})")

    def walk_refs(where: str, node) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                check_ref(where, node)
            for k, v in node.items():
                walk_refs(f"{where}.{k}", v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk_refs(f"{where}[{i}]", v)

    for path, item in paths.items():
        if not str(path).startswith("/"):
            problems.append(f"path {path!r} does not start with /")
        if not isinstance(item, dict):
            problems.append(f"{path}: path item is not a mapping")
            continue
        for method, op in item.items():
            if (
                method not in HTTP_METHODS
                and method not in ("summary", "description", "parameters", "servers")
                and not method.startswith("x-")
            ):
                problems.append(f"{path}: unknown path item key {method!r}")
                continue
            if method not in HTTP_METHODS:
                continue
            where = f"{method.upper()} {path}"
            responses = op.get("responses") if isinstance(op, dict) else None
            if not isinstance(responses, dict) or not responses:
                problems.append(f"{where}: responses must be a non-empty mapping")
                continue
            for code, resp in responses.items():
                if not re.fullmatch(r"[1-5](\d\d|XX)|default", str(code)):
                    problems.append(f"{where}: bad response code {code!r}")
                resp = _resolve(doc, resp) if isinstance(resp, dict) else resp
                if not isinstance(resp, dict) or not isinstance(resp.get("description"), str):
                    problems.append(f"{where} {code}: a response needs a description")
                    continue
                for media, mt in (resp.get("content") or {}).items():
                    if "/" not in media or not isinstance(mt, dict):
                        problems.append(f"{where} {code}: bad media type entry {media!r}")
                    elif not isinstance(mt.get("schema"), dict):
                        problems.append(
                            f"{where} {code} {media}: schema must be a Schema Object or $ref, got {mt.get('schema')!r}"
                        )
            body = op.get("requestBody")
            if body is not None:
                body = _resolve(doc, body)
                content = body.get("content") if isinstance(body, dict) else None
                if not isinstance(content, dict) or not content:
                    problems.append(f"{where}: requestBody needs content")
                else:
                    for media, mt in content.items():
                        if not isinstance(mt, dict) or not isinstance(mt.get("schema"), dict):
                            problems.append(
                                f"{where} requestBody {media}: schema must be a Schema Object or $ref, got {mt!r}"
                            )
    schemas = (doc.get("components") or {}).get("schemas") or {}
    if not isinstance(schemas, dict):
        problems.append("components.schemas must be a mapping")
        schemas = {}
    for name, schema in schemas.items():
        if not re.fullmatch(r"[A-Za-z0-9._-]+", name):
            problems.append(f"components.schemas: bad name {name!r}")
        if not isinstance(schema, dict):
            problems.append(f"components.schemas.{name} is not a Schema Object")
    walk_refs("", doc)
    return problems


def test_document_is_openapi_3_structurally(doc):
    assert str(doc["openapi"]).startswith("3.")
    assert _structural_problems(doc) == []


def test_structural_check_catches_broken_documents(doc):
    """The hand-made check above is not vacuous."""
    bad = copy.deepcopy(doc)
    del bad["paths"]["/v1/check"]["post"]["responses"]["200"]["description"]
    bad["paths"]["/v1/validate"]["post"]["requestBody"]["content"]["application/json"]["schema"] = "Validate"
    bad["paths"]["/healthz"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] = {
        "$ref": "#/components/schemas/NoSuchSchema"
    }
    bad["openapi"] = "2.0"
    problems = "\n".join(_structural_problems(bad))
    assert "POST /v1/check 200: a response needs a description" in problems
    assert "POST /v1/validate requestBody application/json" in problems
    assert "NoSuchSchema" in problems
    assert "3.x.y" in problems


def test_document_passes_the_openapi_3_meta_schema(doc):
    """The official OpenAPI 3.0 JSON Schema, as shipped by openapi-spec-validator
    (when installed) or by schemathesis."""
    try:
        from openapi_spec_validator import validate as osv_validate
    except ImportError:
        osv_validate = None
    if osv_validate is not None:
        osv_validate(doc)
    import schemathesis

    schemathesis.openapi.from_path(OPENAPI).validate()  # raises on an invalid document
    broken = copy.deepcopy(doc)
    broken["info"]["version"] = 3
    with pytest.raises(Exception):  # noqa: B017 - schemathesis' error type is not part of its API
        schemathesis.openapi.from_dict(broken).validate()


# --------------------------------------------------------------------------- complete


def _app_endpoints(app) -> set[tuple[str, str]]:
    """(METHOD, OpenAPI path) for every route of the app but static assets."""
    out = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.rule.startswith("/docs/assets") or rule.rule.startswith("/static"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            out.add((method, path))
    return out


def _doc_endpoints(doc) -> set[tuple[str, str]]:
    return {(m.upper(), p) for p, item in doc["paths"].items() for m in item if m in HTTP_METHODS}


def test_every_app_route_is_documented(app, doc):
    routes = _app_endpoints(app)
    # the routes docs/api.md promises and this service has
    for expected in [
        ("POST", "/v1/check"),
        ("POST", "/v1/legal-turns"),
        ("POST", "/v1/validate"),
        ("GET", "/v1/rules"),
        ("GET", "/v1/start"),
        ("GET", "/healthz"),
        ("GET", "/openapi.yaml"),
        ("GET", "/docs"),
    ]:
        assert expected in routes
    missing = sorted(routes - _doc_endpoints(doc))
    assert missing == [], f"routes of the app that openapi.yaml does not describe: {missing}"


def test_every_documented_operation_exists(app, doc):
    extra = sorted(_doc_endpoints(doc) - _app_endpoints(app))
    assert extra == [], f"operations in openapi.yaml that the app does not serve: {extra}"


# Endpoints of docs/api.md built by a later issue (#10 rules page, #11 permalinks and
# pictures by URL, #12 perft, #13 metrics and readiness); remove each from this
# set as it lands.
NOT_YET_BUILT: set = set()


def test_every_endpoint_of_the_contract_is_served_and_documented(app, doc):
    """docs/api.md's endpoint table: each endpoint is a route of the app and an
    operation of openapi.yaml; one not built yet is not served."""
    text = API_MD.read_text(encoding="utf-8")
    promised = set()
    for row in re.findall(r"^\| (`(?:GET|POST|PUT|DELETE|PATCH) /[^|]*)\|", text, flags=re.M):
        promised |= set(re.findall(r"`(GET|POST|PUT|DELETE|PATCH) (/[^` ]*)`", row))
    # the table (22 rows, one of them naming render.svg and render.png) as written by hand
    assert len(promised) == 23 and ("GET", "/v1/render.png") in promised and ("POST", "/v1/check") in promised
    assert NOT_YET_BUILT <= promised
    assert not NOT_YET_BUILT & _app_endpoints(app), "an endpoint is built: remove it from NOT_YET_BUILT"
    promised -= NOT_YET_BUILT
    not_served = sorted(promised - _app_endpoints(app))
    not_documented = sorted(promised - _doc_endpoints(doc))
    assert (not_served, not_documented) == ([], []), (
        f"docs/api.md endpoints the app does not serve: {not_served}; not in openapi.yaml: {not_documented}"
    )


def _operations(doc):
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method in HTTP_METHODS:
                yield method.upper(), path, op


# the request bodies of docs/api.md: every field, and which are required
REQUEST_BODIES = {
    "/v1/check": ({"position", "turn", "history"}, {"position", "turn"}),
    "/v1/legal-turns": ({"position", "history", "project", "shape", "form"}, {"position"}),
    "/v1/validate": ({"position"}, {"position"}),
}


def test_every_request_body_is_described(doc):
    posts = {path: op for method, path, op in _operations(doc) if method == "POST"}
    assert set(REQUEST_BODIES) <= set(posts)
    for path, op in posts.items():
        body = _resolve(doc, op.get("requestBody"))
        assert body, f"POST {path} has no requestBody"
        assert body.get("required") is True, f"POST {path}: the body is required"
        assert list(body["content"]) == ["application/json"], f"POST {path}: bodies are JSON"
        schema = _resolve(doc, body["content"]["application/json"]["schema"])
        assert schema.get("type") == "object" and schema.get("properties"), f"POST {path}: the body is an object"
    for path, (fields, required) in REQUEST_BODIES.items():
        body = _resolve(doc, posts[path]["requestBody"])
        schema = _resolve(doc, body["content"]["application/json"]["schema"])
        assert schema.get("type") == "object", f"POST {path}: the body is an object"
        assert set(schema["properties"]) == fields, f"POST {path}: fields {sorted(schema['properties'])}"
        assert set(schema.get("required", [])) == required, f"POST {path}: required {schema.get('required')}"
        # a position is an HPN string or a JSON position object (docs/api.md)
        position = _resolve(doc, schema["properties"]["position"])
        kinds = position.get("oneOf") or position.get("anyOf") or []
        assert {"string", "object"} <= {_resolve(doc, k).get("type") for k in kinds}, (
            f"POST {path}: position must accept an HPN string or a JSON object"
        )
    turn = _resolve(doc, _resolve(doc, posts["/v1/check"]["requestBody"])["content"]["application/json"]["schema"])
    turn_kinds = turn["properties"]["turn"].get("oneOf") or []
    assert {"string", "object"} <= {_resolve(doc, k).get("type") for k in turn_kinds}


def test_no_get_operation_takes_a_body(doc):
    for method, path, op in _operations(doc):
        if method == "GET":
            assert "requestBody" not in op, f"GET {path} documents a body"


_POSTS = sorted(p for p, item in yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))["paths"].items() if "post" in item)


def test_the_posts_are_the_body_endpoints():
    assert set(REQUEST_BODIES) <= set(_POSTS)


@pytest.mark.parametrize("path", _POSTS)
def test_every_post_documents_the_body_errors_as_problem_json(doc, path):
    op = doc["paths"][path]["post"]
    responses = op["responses"]
    # docs/api.md: every answer is JSON except /v1/render's, which is image/svg+xml
    success = "image/svg+xml" if path == "/v1/render" else "application/json"
    assert "200" in responses and list(responses["200"]["content"]) == [success]
    for code in POST_ERRORS:
        assert code in responses, f"POST {path} does not document {code}"
        resp = _resolve(doc, responses[code])
        assert resp.get("description"), f"POST {path} {code}: no description"
        content = resp.get("content") or {}
        assert list(content) == [PROBLEM], f"POST {path} {code}: content {list(content)}"
        problem = _resolve(doc, content[PROBLEM]["schema"])
        assert problem.get("type") == "object"
        # RFC 9457 members docs/api.md promises
        assert {"type", "title", "status", "detail", "errors"} <= set(problem["properties"])
        assert {"type", "title", "status", "detail"} <= set(problem.get("required", []))
        assert problem["properties"]["status"].get("type") == "integer"


def test_problem_schema_describes_422_error_items(doc):
    """422 ``errors: [{path, message}]`` or ``[{rule: "position.…", message}]``."""
    problem = _resolve(doc, doc["components"]["schemas"]["Problem"])
    errors = _resolve(doc, problem["properties"]["errors"])
    assert errors["type"] == "array"
    item = _resolve(doc, errors["items"])
    assert {"path", "rule", "message"} <= set(item["properties"])
    assert "message" in item.get("required", [])


def test_the_document_is_built_from_the_endpoint_declarations(doc):
    """Each path of openapi.yaml is one declaration of a blueprint (checker/web/endpoints.py), in
    declaration order, with its summary and, for a body endpoint, its request schema's component."""
    from apispec.ext.marshmallow import resolver

    from checker.web import blueprints

    declared = [ep for bp in blueprints() for ep in bp.endpoints]
    assert [(ep.method.lower(), ep.path) for ep in declared] == [
        (m, p) for p, item in doc["paths"].items() for m in item if m in HTTP_METHODS
    ]
    for ep in declared:
        op = doc["paths"][ep.path][ep.method.lower()]
        assert op["summary"] == ep.summary and op["description"] == ep.description
        assert list(op["responses"]["200"]["content"]) == [ep.answer.media]
        if ep.request is not None:
            ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/" + resolver(ep.request)


def test_the_503s_are_documented_where_they_are_answered(doc):
    """Batches, legal-turn lists, perft counts and PNG pictures (and nothing else) are declared
    expensive, and the document gives them a 503 problem with a Retry-After header (the work budget); /readyz
    declares its own 503 problem (the worker cannot answer checks); no other operation has one."""
    from checker.web import blueprints

    expensive = {(ep.method, ep.path) for bp in blueprints() for ep in bp.endpoints if ep.expensive}
    assert expensive == {
        ("POST", "/v1/check/batch"),
        ("POST", "/v1/legal-turns"),
        ("POST", "/v1/perft"),
        ("GET", "/v1/render.png"),
    }
    for method, path, op in _operations(doc):
        responses = op["responses"]
        if (method, path) in expensive:
            busy = _resolve(doc, responses["503"])
            assert list(busy["content"]) == [PROBLEM]
            assert busy["headers"]["Retry-After"]["schema"]["type"] == "integer"
        elif (method, path) == ("GET", "/readyz"):
            assert list(_resolve(doc, responses["503"])["content"]) == [PROBLEM]
            assert "headers" not in responses["503"]
        else:
            assert "503" not in responses, f"{method} {path} documents a 503 it never answers"


def test_the_error_table_of_the_contract_lists_every_documented_error_status(doc):
    """Every 4xx/5xx status an operation of openapi.yaml declares has a row in
    docs/api.md's error table (408 and 503 were once missing), and the table
    names no 5xx the service never sends."""
    text = API_MD.read_text(encoding="utf-8")
    section = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    listed = set()
    for row in re.findall(r"^\| ([0-9, ]+) \|", section, flags=re.M):
        listed |= {s.strip() for s in row.split(",")}
    declared = {status for _, _, op in _operations(doc) for status in op.get("responses", {}) if status[0] in "45"}
    assert declared - listed == set(), f"error statuses missing from docs/api.md: {sorted(declared - listed)}"
    assert {s for s in listed if s[0] == "5"} <= declared


def test_every_operation_is_grouped_by_its_resource():
    from checker.web.openapi import TAGS, build

    doc = build()
    assert [t["name"] for t in doc["tags"]] == [name for name, _, _ in TAGS]
    tags = {path: op["tags"] for path, ops in doc["paths"].items() for op in ops.values()}
    assert all(len(t) == 1 and t[0] in {name for name, _, _ in TAGS} for t in tags.values()), tags
    assert tags["/v1/check/batch"] == ["Turns"] and tags["/v1/render.png"] == ["Pictures"]
    assert tags["/rules"] == ["Pages"] and tags["/v1/rules"] == ["Rules and vectors"]
    assert tags["/healthz"] == ["Service"] and tags["/"] == ["Pages"]
