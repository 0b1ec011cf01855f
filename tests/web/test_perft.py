"""POST /v1/perft and GET /v1/vectors/schema through Flask's test client;
every success checked against its schema in the committed openapi.yaml."""

from __future__ import annotations

import time

from checker.counting import BUDGET
from checker.tools.perft_table import load_table
from tests.web.schema_validation import assert_documented

TABLE = {e.name: e for e in load_table()}
START = TABLE["start"].hpn


def _post(client, body):
    resp = client.post("/v1/perft", json=body)
    assert_documented(resp, "post", "/v1/perft")
    return resp


def test_depth_1_and_2_from_the_start(client):
    # 480: 36 Places (not d4) x the cells within 2 steps they may raise (tests/test_perft.py has the sum)
    body = _post(client, {"position": START, "depth": 1}).get_json()
    assert body == {"rules_version": body["rules_version"], "position": START, "depth": 1, "nodes": 480}
    two = _post(client, {"position": START, "depth": 2}).get_json()
    assert two["nodes"] == TABLE["start"].nodes[1] and "divide" not in two


def test_divide(client):
    body = _post(client, {"position": START, "depth": 2, "divide": True}).get_json()
    divide = {d["turn"]: d["nodes"] for d in body["divide"]}
    assert len(divide) == 480 and sum(divide.values()) == body["nodes"]
    # after "a1 +a1", B has 479 turns and after "a1 +a2" 482 (derived in tests/test_perft.py)
    assert divide["a1 +a1"] == 479 and divide["a1 +a2"] == 482
    assert body["divide"][0]["turn"] == "a1 +a1"  # the order of POST /v1/legal-turns


def test_depth_0_and_a_position_where_the_game_is_over(client):
    assert _post(client, {"position": START, "depth": 0, "divide": True}).get_json()["nodes"] == 1
    over = _post(client, {"position": TABLE["game-over"].hpn, "depth": 2}).get_json()
    assert over["nodes"] == 0


def test_depth_2_from_the_placing_midgame_fits_the_budget(client):
    # 3,097 legal turns: 1 + 3,097 positions expanded, well inside the budget
    assert 1 + TABLE["placing"].nodes[0] < BUDGET
    body = _post(client, {"position": TABLE["placing"].hpn, "depth": 2}).get_json()
    assert body["nodes"] == TABLE["placing"].nodes[1]


def test_over_the_budget_is_a_422_naming_depth_and_refused_early(client):
    started = time.monotonic()
    resp = _post(client, {"position": START, "depth": 3})
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    problem = resp.get_json()
    # depth 3 expands 1 + 480 + 230,100 positions > 50,000
    assert problem["errors"] == [{"path": "depth", "message": problem["errors"][0]["message"]}]
    assert "expands more than 50,000 positions" in problem["detail"] and problem["detail"].startswith("depth: ")
    # found from the counts of depth 1 and 2 (481 positions), not by spending the budget; generous bound
    assert time.monotonic() - started < 20


def test_bad_bodies_name_the_field(client):
    for body, path in [
        ({"position": START}, "depth"),
        ({"position": START, "depth": "2"}, "depth"),
        ({"position": START, "depth": 61}, "depth"),
        ({"position": START, "depth": -1}, "depth"),
        ({"position": START, "depth": 1, "divide": 1}, "divide"),
        ({"depth": 1}, "position"),
        ({"position": "0000 A", "depth": 1}, "position"),
    ]:
        resp = _post(client, body)
        assert resp.status_code == 422, body
        assert [e["path"] for e in resp.get_json()["errors"]] == [path], body
    broken = "0000/00000/000A000/0001000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 1"
    resp = _post(client, {"position": broken, "depth": 1})
    assert resp.status_code == 422 and "position.stone-count" in {e["rule"] for e in resp.get_json()["errors"]}


def test_the_vectors_schema(client):
    resp = client.get("/v1/vectors/schema")
    assert_documented(resp, "get", "/v1/vectors/schema")
    body = resp.get_json()
    assert set(body) == {"vectors", "answers"}
    assert body["answers"]["required"] == ["id", "legal", "violations"]
    assert body["vectors"]["$defs"]["header"]["properties"]["format"] == {"const": "hexodic-conformance-vectors"}
