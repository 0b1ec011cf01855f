"""Property-based conformance of the service to the committed openapi.yaml.

schemathesis 4 reads the committed document, generates requests from it (the
documented examples, boundary "coverage" cases, and random valid and invalid
bodies), and sends them in-process through WSGI to ``create_app()``.  Every
answer must be:

- never a 5xx (``not_a_server_error``);
- a status code the document declares for the operation
  (``status_code_conformance``), with a declared content type
  (``content_type_conformance``) and a body matching the declared schema
  (``response_schema_conformance``);
- a 4xx for a body that breaks the documented schema
  (``negative_data_rejection``: docs/api.md, "the body does not match the schema"
  is a 422).

Bounded for CI: 30 examples per operation, no deadline, a fixed seed and
derandomized generation, no example database.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.media_types import YAML_MEDIA_TYPES
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from checker.service.problems import PROBLEM_TYPE
from checker.web import create_app

OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"
MAX_EXAMPLES = 30
SEED = 20260915

# The 422s a schema-valid request may still get: what no JSON Schema can say
# (openapi.yaml describes each under its 422). A problem type, then (for the
# schema errors) the words every error of the problem must hold.
ALLOWED_FOR_VALID_DATA = {
    # the position's numbers and board do not agree (RULES D-3: position.* rule ids)
    PROBLEM_TYPE + "inconsistent-position": (),
    # a perft count over the expansion budget (its size is known only by counting)
    PROBLEM_TYPE + "over-budget": (),
    # one cell named twice in a cooldown or a cell map ("c3" and "C3", or "c3,c3" in HPN):
    # uniqueItems and the properties compare names, not cells; a game link's turn number
    # past the turns it holds (no schema relates two parameters); the same in the playground's
    # view, and its game given with a position or a history, or its turn number without a game
    PROBLEM_TYPE + "invalid-body": ("is listed twice", "was not checked", "final position", "with turns"),
    PROBLEM_TYPE + "invalid-query": ("is listed twice", "was not checked", "final position"),
}


def positive_data_accepted(ctx, response, case):
    """schemathesis's positive_data_acceptance, with the 422s above allowed:
    data the schema allows is answered 2xx, or refused for one of those
    reasons only."""
    if case.meta is None or not case.meta.generation.mode.is_positive or response.status_code < 400:
        return None
    if case.path == "/metrics" and response.status_code == 404:
        return None  # documented: the metrics are served on HEXODIC_METRICS_PORT, not on the app's port
    if response.status_code == 422:
        problem = response.json()
        if problem.get("type") in ALLOWED_FOR_VALID_DATA:
            words = ALLOWED_FOR_VALID_DATA[problem["type"]]
            errors = problem.get("errors") or []
            if not words or (errors and all(any(w in e["message"] for w in words) for e in errors)):
                return None
    raise AssertionError(f"Schema-valid data refused: {response.status_code} {response.text[:600]}")


def negative_data_rejected(ctx, response, case):
    """schemathesis's negative_data_rejection, but for a batch: each item is
    typed as a check request, and an item that is not one is refused on its own
    (its Problem among the results, 200 for the batch; docs/api.md)."""
    if case.path == "/v1/check/batch" and response.status_code == 200:
        results = response.json()["results"]
        if any("status" in result and "legal" not in result for result in results):
            return None
    return negative_data_rejection(ctx, response, case)


@schemathesis.deserializer(*YAML_MEDIA_TYPES)
def _yaml_as_text(ctx, response):
    """GET /openapi.yaml answers YAML text, documented as a string (what generated clients read it as)."""
    return response.content.decode("utf-8")


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejected,
    positive_data_accepted,
]

CONFIG = schemathesis.Config.from_dict(
    {
        "seed": SEED,
        "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True},
        # The coverage phase derives its boundary cases from every pattern by search: with the exact
        # HPN, HTN and score-sheet patterns that search alone takes minutes. The examples and the
        # fuzzing phase (valid and invalid data) run; the pinned cases below keep what coverage found.
        "phases": {"coverage": {"enabled": False}},
    }
)

schema = schemathesis.openapi.from_path(OPENAPI, config=CONFIG)
schema.app = create_app({"TESTING": True})


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
def test_service_conforms_to_openapi(case):
    # In-process WSGI does not undo a content coding (an HTTP client does): ask for none.
    # tests/web/test_compression.py checks the gzip-encoded answers.
    case.call_and_validate(checks=CHECKS, headers={"Accept-Encoding": "identity"})


# --------------------------------------------------------------------------- pinned cases
# What the run above found, as plain requests that fail for one reason each.

START_OBJECT = {
    "to_move": "A",
    "half_moves": 0,
    "cells": {},
    "players": {
        who: {
            "reserve": 7,
            "charges": 3,
            "lowers_left": 6,
            "captures": 0,
            "raises": 0,
            "placed": False,
            "echo_lock_used": False,
            "cooldown": [],
        }
        for who in ("A", "B")
    },
}


def test_the_start_position_object_is_accepted(client):
    resp = client.post("/v1/validate", json={"position": START_OBJECT})
    assert resp.status_code == 200
    assert resp.get_json()["consistent"] is True


@pytest.mark.parametrize(
    "endpoint, where, value",
    [
        ("/v1/validate", ("players", "A", "placed"), 0),
        ("/v1/validate", ("players", "B", "placed"), 1),
        ("/v1/validate", ("players", "A", "echo_lock_used"), 0),
        ("/v1/validate", ("players", "A", "placed"), 0.0),
        ("/v1/validate", ("cells", "c3", "locked"), 0),
        ("/v1/check", ("players", "A", "placed"), 0),
    ],
    ids=[
        "validate-placed-0",
        "validate-placed-1",
        "validate-echo_lock_used-0",
        "validate-placed-0.0",
        "validate-locked-0",
        "check-placed-0",
    ],
)
def test_a_number_is_not_a_boolean(client, endpoint, where, value):
    """openapi.yaml types ``placed``, ``echo_lock_used`` and ``locked`` as
    boolean; JSON 0 / 1 are numbers, so the body does not match the schema:
    422 (docs/api.md), as ``reserve: true`` already is for the integers."""
    position = copy.deepcopy(START_OBJECT)
    if where[0] == "cells":
        position["cells"] = {where[1]: {"tier": 0, where[2]: value}}
    else:
        position["players"][where[1]][where[2]] = value
    body = {"position": position}
    if endpoint == "/v1/check":
        body["turn"] = "c3 +d4"
    resp = client.post(endpoint, json=body)
    assert resp.status_code == 422, f"{'.'.join(where)} = {value!r} accepted: {resp.status_code}"
    assert resp.mimetype == "application/problem+json"
    assert any(e.get("path") == "position." + ".".join(where) for e in resp.get_json()["errors"])


def test_an_integer_field_rejects_a_boolean(client):
    """The converse, which already holds: ``reserve: true`` is a 422."""
    position = copy.deepcopy(START_OBJECT)
    position["players"]["A"]["reserve"] = True
    resp = client.post("/v1/validate", json={"position": position})
    assert resp.status_code == 422
    assert any(e.get("path") == "position.players.A.reserve" for e in resp.get_json()["errors"])


def test_openapi_yaml_answer_matches_its_documented_schema(client):
    """GET /openapi.yaml answers YAML text holding a mapping; the document
    declares that body as what a client receives, a string (``type: object``
    made generated clients refuse the answer)."""
    import yaml

    doc = yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))
    declared = doc["paths"]["/openapi.yaml"]["get"]["responses"]["200"]["content"]
    media = next(iter(declared))
    resp = client.get("/openapi.yaml")
    assert resp.status_code == 200 and resp.mimetype == media
    served = yaml.safe_load(resp.get_data(as_text=True))
    assert isinstance(served, dict)
    assert media == "application/yaml" and declared[media]["schema"] == {"type": "string"}, (
        f"/openapi.yaml is documented as {declared[media]['schema']} but answers YAML text"
    )
