"""checker/data/requests.schema.json: the request bodies' JSON Schemas, as the
OpenAPI document gives them (regenerate with make checker/data/requests.schema.json)."""

from __future__ import annotations

from importlib import resources

import pytest
from jsonschema import Draft202012Validator

from checker.service import pipeline
from checker.service.problems import RequestError
from checker.web import request_schemas
from tests.helpers import START_HPN


def _committed() -> str:
    return resources.files("checker.data").joinpath(request_schemas.PATH).read_text(encoding="utf-8")


def test_the_committed_file_is_the_documents():
    assert _committed() == request_schemas.as_text(), "run make checker/data/requests.schema.json"


def _validator(name: str) -> Draft202012Validator:
    defs = request_schemas.build()["$defs"]
    return Draft202012Validator({**defs[name], "$defs": defs})


BODIES = [
    ("CheckRequest", pipeline.check_request, {"position": START_HPN, "turn": "c3 +d4"}),
    ("CheckRequest", pipeline.check_request, {"position": START_HPN, "turn": "c3 +d4", "history": None}),
    ("CheckRequest", pipeline.check_request, {"position": START_HPN, "turn": "c3 +d4", "history": []}),
    ("CheckRequest", pipeline.check_request, {"position": START_HPN}),
    ("CheckRequest", pipeline.check_request, {"position": START_HPN, "turn": 3}),
    ("CheckRequest", pipeline.check_request, {"position": START_HPN, "turn": "c3 +d4", "colour": "A"}),
    ("ReplayRequest", pipeline.replay_request, {"turns": "1. c3 +d4 e5 +d4", "start": None}),
    ("ReplayRequest", pipeline.replay_request, {"turns": ["c3 +d4"], "history": None}),
    ("ReplayRequest", pipeline.replay_request, {"turns": 7}),
    ("LegalTurnsRequest", pipeline.legal_turns_request, {"position": START_HPN, "project": "c3", "shape": None}),
    ("LegalTurnsRequest", pipeline.legal_turns_request, {"position": START_HPN, "form": "words"}),
    ("ValidateRequest", pipeline.validate_request, {"position": START_HPN}),
    ("ValidateRequest", pipeline.validate_request, {"position": None}),
]


@pytest.mark.parametrize("name, operation, body", BODIES)
def test_the_schema_and_the_service_accept_the_same_bodies(name, operation, body):
    """The JSON Schema admits what the request pipeline loads, and refuses
    what it refuses (nullable fields as null, unknown fields, wrong types)."""
    try:
        operation.load(body)
        loads = True
    except RequestError:
        loads = False
    assert _validator(name).is_valid(body) is loads


def test_nullable_and_refs_are_json_schema():
    defs = request_schemas.build()["$defs"]
    text = str(defs)
    assert "nullable" not in text and "#/components/" not in text and "'example'" not in text
    Draft202012Validator.check_schema({"$defs": defs})
