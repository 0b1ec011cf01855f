"""Every error status of docs/api.md: ``application/problem+json`` with
``{type, title, status, detail, errors?}``, each body checked against the
committed openapi.yaml; and no input, however malformed, gets a 5xx."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from checker.generate import legal_turns
from checker.notation import parse_hpn, position_to_hpn, turn_to_htn
from checker.web import create_app
from tests.helpers import START_HPN, build
from tests.web.schema_validation import PROBLEM_JSON, assert_component, assert_documented

POSTS = ["/v1/check", "/v1/legal-turns", "/v1/validate"]
GETS = ["/v1/rules", "/v1/start", "/healthz", "/openapi.yaml", "/docs"]

PLAYER0 = {
    "reserve": 7,
    "charges": 3,
    "lowers_left": 6,
    "captures": 0,
    "raises": 0,
    "placed": False,
    "echo_lock_used": False,
    "cooldown": [],
}
START_JSON = {"to_move": "A", "half_moves": 0, "cells": {}, "players": {"A": dict(PLAYER0), "B": dict(PLAYER0)}}

#: a valid body for each POST endpoint (200)
GOOD = {
    "/v1/check": {"position": START_HPN, "turn": "c3 +d4"},
    "/v1/legal-turns": {"position": START_HPN, "project": "c3"},
    "/v1/validate": {"position": START_HPN},
}


def assert_problem(resp, status: int, method: str = "POST", path: str | None = None) -> dict:
    """docs/api.md Errors: the status, problem+json, {type, title, status, detail, errors?}, documented schema."""
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True)[:500])
    assert resp.mimetype == PROBLEM_JSON, resp.content_type
    text = resp.get_data(as_text=True)
    assert "Traceback" not in text and "<html" not in text.lower()
    body = json.loads(text)
    assert {"type", "title", "status", "detail"} <= set(body) <= {"type", "title", "status", "detail", "errors"}
    assert body["status"] == status
    for key in ("type", "title", "detail"):
        assert isinstance(body[key], str) and body[key].strip(), key
    if "errors" in body:
        assert isinstance(body["errors"], list)
        for e in body["errors"]:
            assert isinstance(e.get("message"), str) and e["message"].strip(), e
    assert_component("Problem", body)
    if path is not None:
        assert_documented(resp, method, path)
    return body


def post_raw(client, path, data, content_type="application/json"):
    return client.post(path, data=data, content_type=content_type)


# --- 400 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize(
    "data",
    ["{bad", "", '{"position": 1,}', "[1, 2", "{'position': 'x'}", "nul", b"\xff\xfe{}"],
    ids=["unquoted", "empty", "trailing-comma", "unclosed", "single-quotes", "nul", "not-utf8"],
)
def test_400_invalid_json(client, path, data):
    body = assert_problem(post_raw(client, path, data), 400, path=path)
    assert "errors" not in body or body["errors"] == []


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize(
    "value",
    [[], [GOOD["/v1/check"]], "x", None, 3, 2.5, True],
    ids=["empty-list", "list", "string", "null", "int", "float", "bool"],
)
def test_400_json_that_is_not_an_object(client, path, value):
    assert_problem(post_raw(client, path, json.dumps(value)), 400, path=path)


def test_400_deep_nesting(client):
    assert_problem(post_raw(client, "/v1/check", "[" * 100000 + "]" * 100000), 400, path="/v1/check")


# --- 404, 405 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", "/nope"),
        ("GET", "/v1"),
        ("GET", "/v1/nope"),
        ("POST", "/v1/checks"),
        ("POST", "/v1/check/extra"),
        ("GET", "/docs/assets/no-such-file.js"),
        ("GET", "/docs/assets/../__init__.py"),
    ],
)
def test_404_unknown_path(client, method, path):
    resp = client.open(path, method=method, json={})
    assert_problem(resp, 404)


@pytest.mark.parametrize("path", POSTS)
def test_405_get_on_a_post_endpoint(client, path):
    resp = client.get(path)
    assert_problem(resp, 405)
    allow = {m.strip() for m in resp.headers.get("Allow", "").split(",")}
    assert "POST" in allow and "GET" not in allow


@pytest.mark.parametrize(
    "method, path", [("POST", p) for p in GETS] + [("PUT", "/v1/check"), ("DELETE", "/v1/validate")]
)
def test_405_other_wrong_methods(client, method, path):
    resp = client.open(path, method=method, json=GOOD["/v1/check"])
    assert_problem(resp, 405)
    allow = {m.strip() for m in resp.headers.get("Allow", "").split(",")}
    assert allow and method not in allow
    assert ("GET" in allow) == (path in GETS) and ("POST" in allow) == (path in POSTS)


# --- 413 --------------------------------------------------------------------------------------------


def padded(body: dict, size: int) -> bytes:
    """``body`` as JSON, padded with trailing whitespace (still valid JSON) to exactly ``size`` bytes."""
    raw = json.dumps(body).encode()
    assert len(raw) <= size
    return raw + b" " * (size - len(raw))


@pytest.mark.parametrize("path", POSTS)
def test_413_over_the_default_limit(client, path):
    limit = 256 * 1024  # docs/api.md: default 256 KiB
    assert_problem(post_raw(client, path, padded(GOOD[path], limit + 1)), 413, path=path)
    assert_problem(post_raw(client, path, b"x" * (limit + 1000)), 413, path=path)
    # exactly at the limit is still read and answered
    resp = post_raw(client, path, padded(GOOD[path], limit))
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]


@pytest.mark.parametrize("path", POSTS)
def test_413_configurable_limit(path):
    small = create_app({"MAX_CONTENT_LENGTH": 1000}).test_client()
    assert_problem(post_raw(small, path, padded(GOOD[path], 1001)), 413, path=path)
    resp = post_raw(small, path, padded(GOOD[path], 1000))
    assert resp.status_code == 200
    # a body the default limit accepts is too large here
    # (the start position with all 37 cells written out at their defaults: input may list any cells)
    every_cell = {
        f"{r}{c}": {"tier": 0, "stone": None, "locked": False}
        for i, r in enumerate("abcdefg", 1)
        for c in range(1, 8)
        if abs(i - c) <= 3
    }
    big = {**GOOD[path], "position": {**START_JSON, "cells": every_cell}}
    assert len(json.dumps(big)) > 1000
    assert_problem(post_raw(small, path, json.dumps(big)), 413, path=path)
    assert create_app({"TESTING": True}).test_client().post(path, json=big).status_code == 200


def test_413_limit_from_the_environment(monkeypatch):
    monkeypatch.setenv("HEXODIC_MAX_BODY", "1000")
    client = create_app({"TESTING": True}).test_client()
    assert_problem(post_raw(client, "/v1/check", padded(GOOD["/v1/check"], 1001)), 413, path="/v1/check")
    assert post_raw(client, "/v1/check", padded(GOOD["/v1/check"], 1000)).status_code == 200


# --- 415 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", POSTS)
def test_415_text_plain(client, path):
    assert_problem(post_raw(client, path, json.dumps(GOOD[path]), "text/plain"), 415, path=path)


@pytest.mark.parametrize("path", POSTS)
def test_415_no_content_type(client, path):
    resp = client.post(path, data=json.dumps(GOOD[path]))
    assert "Content-Type" not in resp.request.headers or not resp.request.headers["Content-Type"]
    assert_problem(resp, 415, path=path)


@pytest.mark.parametrize("path", POSTS)
def test_415_form_data(client, path):
    form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in GOOD[path].items()}
    assert_problem(client.post(path, data=form), 415, path=path)  # application/x-www-form-urlencoded
    assert_problem(client.post(path, data=form, content_type="multipart/form-data"), 415, path=path)


@pytest.mark.parametrize("ctype", ["application/xml", "text/json", "application/x-json-stream"])
def test_415_other_non_json_types(client, ctype):
    assert_problem(post_raw(client, "/v1/check", json.dumps(GOOD["/v1/check"]), ctype), 415, path="/v1/check")


def test_json_with_charset_is_accepted(client):
    resp = post_raw(client, "/v1/check", json.dumps(GOOD["/v1/check"]), "application/json; charset=utf-8")
    assert resp.status_code == 200


# --- 422: schema errors with dotted paths -----------------------------------------------------------


def paths_of(body: dict) -> set[str]:
    return {e.get("path") for e in body.get("errors", [])}


def test_422_schema_errors_with_dotted_paths(client):
    position = {**START_JSON, "players": {"A": {**PLAYER0, "reserve": "7"}, "B": dict(PLAYER0)}}
    body = {
        "position": position,
        "turn": {"project": {"kind": "move", "from": "z9", "to": "c3"}},
        "history": [START_HPN, START_JSON, START_HPN, "not an HPN"],
    }
    problem = assert_problem(client.post("/v1/check", json=body), 422, path="/v1/check")
    assert {"position.players.A.reserve", "turn.project.from", "history.3"} <= paths_of(problem)
    assert all(e.get("path") and e.get("message") for e in problem["errors"])


@pytest.mark.parametrize(
    "body, path",
    [
        (
            {**START_JSON, "players": {"A": {**PLAYER0, "reserve": 1.5}, "B": dict(PLAYER0)}},
            "position.players.A.reserve",
        ),
        (
            {**START_JSON, "players": {"A": dict(PLAYER0), "B": {k: v for k, v in PLAYER0.items() if k != "charges"}}},
            "position.players.B.charges",
        ),
        ({**START_JSON, "to_move": "C"}, "position.to_move"),
        ({**START_JSON, "half_moves": "0"}, "position.half_moves"),
        ({**START_JSON, "cells": {"c3": {"tier": "1"}}}, "position.cells.c3.tier"),
        ({k: v for k, v in START_JSON.items() if k != "players"}, "position.players"),
    ],
)
def test_422_position_schema_error_paths(client, body, path):
    for endpoint, extra in [("/v1/check", {"turn": "c3 +d4"}), ("/v1/legal-turns", {}), ("/v1/validate", {})]:
        problem = assert_problem(client.post(endpoint, json={"position": body, **extra}), 422, path=endpoint)
        assert path in paths_of(problem), (endpoint, problem["errors"])


@pytest.mark.parametrize(
    "turn, path",
    [
        ({"project": {"kind": "move", "from": "z9", "to": "c3"}}, "turn.project.from"),
        ({"project": {"kind": "place"}}, "turn.project.cell"),
        ({"project": {"kind": "jump", "cell": "c3"}}, "turn.project.kind"),
        ({"project": {"kind": "place", "cell": "c3"}, "shape": {"kind": "raise", "cell": "h9"}}, "turn.shape.cell"),
        ({"project": {"kind": "place", "cell": "c3"}, "echo": {"kind": "zap", "cell": "d4"}}, "turn.echo.kind"),
        ({"shape": {"kind": "raise", "cell": "d4"}}, "turn.project"),
        (7, "turn"),
    ],
)
def test_422_turn_schema_error_paths(client, turn, path):
    problem = assert_problem(
        client.post("/v1/check", json={"position": START_HPN, "turn": turn}), 422, path="/v1/check"
    )
    assert path in paths_of(problem), problem["errors"]


def test_422_missing_and_unknown_fields(client):
    problem = assert_problem(client.post("/v1/check", json={}), 422, path="/v1/check")
    assert {"position", "turn"} <= paths_of(problem)
    problem = assert_problem(
        client.post("/v1/validate", json={"position": START_HPN, "extra": 1}), 422, path="/v1/validate"
    )
    assert "extra" in paths_of(problem)


def test_422_hpn_parse_error_says_where(client):
    # row c has 6 cells (c1–c6); give it 5
    bad = "0000/00000/00000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
    for endpoint, extra in [("/v1/check", {"turn": "c3 +d4"}), ("/v1/legal-turns", {}), ("/v1/validate", {})]:
        problem = assert_problem(client.post(endpoint, json={"position": bad, **extra}), 422, path=endpoint)
        (err,) = [e for e in problem["errors"] if e.get("path") == "position"]
        assert "row c has 5 cells, expected 6" in err["message"]
        assert "row c has 5 cells, expected 6" in problem["detail"]


@pytest.mark.parametrize(
    "hpn, fragment",
    [
        ("0000/00000/000000/0000000/000000/00000/0000 C 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0", "C"),
        ("0000/00000/000300/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0", "3"),
        ("0000/00000/000000/0000000/000000/00000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0", "rows"),
        ("0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:z9 7:3:6:0:0:-:- 0", "z9"),
    ],
)
def test_422_other_hpn_errors_name_the_culprit(client, hpn, fragment):
    problem = assert_problem(client.post("/v1/validate", json={"position": hpn}), 422, path="/v1/validate")
    assert fragment in problem["errors"][0]["message"], problem


def test_422_htn_parse_error_says_where(client):
    problem = assert_problem(
        client.post("/v1/check", json={"position": START_HPN, "turn": "c3 +h9"}), 422, path="/v1/check"
    )
    (err,) = problem["errors"]
    assert err["path"] == "turn"
    assert "'+h9': h9 is not a cell" in err["message"]


@pytest.mark.parametrize("turn", ["", "   ", "+d4 c3", "c3 +d4 -d5", "c3 *d4 +d5", "c3 *d4 #d5", "c3 %d4"])
def test_422_malformed_htn(client, turn):
    problem = assert_problem(
        client.post("/v1/check", json={"position": START_HPN, "turn": turn}), 422, path="/v1/check"
    )
    assert paths_of(problem) == {"turn"}


@pytest.mark.parametrize(
    "filters, path",
    [
        ({"project": "+d4"}, "project"),
        ({"project": "z9"}, "project"),
        ({"project": "c3", "shape": "d4"}, "shape"),
        ({"project": {"kind": "place", "cell": 3}}, "project.cell"),
    ],
)
def test_422_legal_turns_filters(client, filters, path):
    problem = assert_problem(
        client.post("/v1/legal-turns", json={"position": START_HPN, **filters}), 422, path="/v1/legal-turns"
    )
    assert path in paths_of(problem), problem["errors"]


# --- 422: inconsistent positions --------------------------------------------------------------------

# Start position with d4 at tier 1 and half_moves 1 but A to move: position.to-move (1 is odd → B) and
# position.tier-sum (tiers add up to 1; raises − lowers used = 0).  Nothing else breaks.
TWO_BROKEN = "0000/00000/000000/0001000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 1"
# A's reserve 8 (JSON form): position.range (0–7), position.stone-count (0 + 8 ≠ 7) and position.unplaced
# (placed false needs 7 in reserve).
THREE_BROKEN = {**START_JSON, "players": {"A": {**PLAYER0, "reserve": 8}, "B": dict(PLAYER0)}}


@pytest.mark.parametrize(
    "position, rules",
    [
        (TWO_BROKEN, {"position.to-move", "position.tier-sum"}),
        (THREE_BROKEN, {"position.range", "position.stone-count", "position.unplaced"}),
    ],
    ids=["to-move+tier-sum", "range+stone-count+unplaced"],
)
@pytest.mark.parametrize("endpoint, extra", [("/v1/check", {"turn": "c3 +d4"}), ("/v1/legal-turns", {})])
def test_422_inconsistent_position_lists_every_broken_rule(client, position, rules, endpoint, extra):
    problem = assert_problem(client.post(endpoint, json={"position": position, **extra}), 422, path=endpoint)
    listed = [e.get("rule") for e in problem["errors"]]
    assert set(listed) == rules, problem["errors"]
    assert len(listed) == len(rules)
    for e in problem["errors"]:
        assert e["message"].strip()
    # /v1/validate is the place to ask about it: 200, not consistent
    resp = client.post("/v1/validate", json={"position": position})
    assert resp.status_code == 200
    assert {c["rule"] for c in resp.get_json()["checks"] if c["status"] == "failed"} == rules


# --- 422: history length ----------------------------------------------------------------------------


def test_422_history_longer_than_60(client):
    problem = assert_problem(
        client.post("/v1/check", json={**GOOD["/v1/check"], "history": [START_HPN] * 61}), 422, path="/v1/check"
    )
    assert "history" in paths_of(problem)
    problem = assert_problem(
        client.post("/v1/legal-turns", json={"position": START_HPN, "history": [START_HPN] * 61}),
        422,
        path="/v1/legal-turns",
    )
    assert "history" in paths_of(problem)
    # 60 earlier positions is the most a game can have: accepted
    resp = client.post("/v1/check", json={**GOOD["/v1/check"], "history": [START_HPN] * 60})
    assert resp.status_code == 200 and resp.get_json()["outcome"]["game"]["repetition"] == "evaluated"


@pytest.mark.parametrize("history", [{}, "x", 3, [3], [None]])
def test_422_history_of_the_wrong_type(client, history):
    problem = assert_problem(
        client.post("/v1/check", json={**GOOD["/v1/check"], "history": history}), 422, path="/v1/check"
    )
    assert all(p.startswith("history") for p in paths_of(problem)), problem["errors"]


@pytest.mark.parametrize(
    "text",
    [
        '{"position": NaN}',
        '{"position": Infinity}',
        '{"position": "%s", "turn": "c3 +d4", "history": -Infinity}' % START_HPN,
    ],
    ids=["NaN", "Infinity", "-Infinity"],
)
def test_400_non_json_number_literals(client, text):
    # NaN and Infinity are not JSON (RFC 8259 §6), so the body is not valid JSON: 400, not a schema error
    path = "/v1/check" if "turn" in text else "/v1/validate"
    assert_problem(post_raw(client, path, text), 400, path=path)


# --- nothing is ever a 5xx --------------------------------------------------------------------------


def send(client, path: str, data, content_type: str = "application/json"):
    """POST, turning an exception that escapes the app (TESTING propagates them) into a test failure."""
    try:
        return client.post(path, data=data, content_type=content_type)
    except Exception as exc:  # a 5xx in production
        pytest.fail(f"POST {path} {data!r:.300}: the app raised {type(exc).__name__}: {exc} (a 500 when not testing)")


# "\ud800" is a syntactically valid JSON string escape (RFC 8259 §7, §8.2: a lone surrogate) that
# Python decodes to a string UTF-8 cannot encode; wherever the service echoes the text in an answer it
# must still answer 4xx.  (The random fuzzing below uses hypothesis' default text, which has no
# surrogates, so these are listed here.)
LONE = "\\ud800"
SURROGATE_BODIES = [
    ("/v1/check", '{"position": "%s", "turn": {"project": {"kind": "place", "cell": "%s"}}}' % (START_HPN, LONE)),
    ("/v1/check", '{"position": "%s", "turn": "c3 +%s"}' % (START_HPN, LONE)),
    ("/v1/check", '{"position": "%s", "turn": "c3 +d4", "%s": 1}' % (START_HPN, LONE)),
    ("/v1/validate", '{"position": "%s", "%s": 1}' % (START_HPN, LONE)),
    ("/v1/validate", '{"position": %s}' % json.dumps({**START_JSON, "cells": {"\ud800": {}}})),
    ("/v1/legal-turns", '{"position": "%s", "project": "c%s"}' % (START_HPN, LONE)),
    ("/v1/legal-turns", '{"position": "%s", "project": "c3", "shape": "+%s"}' % (START_HPN, LONE)),
    ("/v1/validate", '{"position": "%s"}' % START_HPN.replace("7:3:6:0:0:-:-", "7:3:6:0:0:-:" + LONE, 1)),
]


@pytest.mark.parametrize("path, text", SURROGATE_BODIES, ids=[f"{p}-{i}" for i, (p, _) in enumerate(SURROGATE_BODIES)])
def test_no_5xx_for_a_lone_surrogate_escape(client, path, text):
    json.loads(text)  # the body is JSON
    resp = send(client, path, text)
    assert resp.status_code in (400, 422), resp.status_code
    assert_problem(resp, resp.status_code, path=path)


FUZZ_CLIENT = create_app({"TESTING": True}).test_client()
FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

CELL_NAMES = ["a1", "a4", "b2", "c3", "c4", "d1", "d3", "d4", "d5", "d7", "e4", "e5", "g4", "g7"]
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-3, 10)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(CELL_NAMES + ["A", "B", "h9", "C3", "", "skip", "place", "raise", "capture"])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
# a wrong value inside an otherwise well-keyed body: a scalar or a small container
junk = (
    json_scalars | st.lists(json_scalars, max_size=3) | st.dictionaries(st.text(max_size=6), json_scalars, max_size=2)
)

# HPN-ish and HTN-ish strings: sometimes valid, usually slightly wrong
hpn_strings = st.sampled_from(
    [
        START_HPN,
        TWO_BROKEN,
        "0000/00000/001A1A00/001A1B1A00/001A100/00000/0000 A 2:3:6:0:4:P:- 6:3:6:0:3:P:- 10",
        "0000/00000/002A000/0000000/0000B00/00000/0000 A 6:3:6:0:1:P:- 6:3:6:0:1:P:- 2",
    ]
) | st.text(alphabet="0123AB*/ :-PLabcdefg,", max_size=90)
htn_strings = st.sampled_from(
    ["c3 +d4", "d4 +c3", "e5 +c3", "a1 +a2 #c3", "skip", "c3-c4", "c3xc4 -d3 *e5", "skip *e5"]
) | st.text(alphabet="abcdefg1234567+-*#x skip", max_size=20)
cells = st.sampled_from(CELL_NAMES) | junk
steps = st.fixed_dictionaries(
    {"kind": st.sampled_from(["place", "move", "skip", "raise", "lower", "capture", "lock"]) | junk},
    optional={"cell": cells, "from": cells, "to": cells},
)
turn_objects = st.fixed_dictionaries(
    {"project": steps | junk}, optional={"shape": st.none() | steps | junk, "echo": st.none() | steps | junk}
)
small = st.integers(-1, 8) | st.booleans() | junk
players = st.fixed_dictionaries(
    {k: small for k in PLAYER0 if k != "cooldown"}, optional={"cooldown": st.lists(cells, max_size=3) | junk}
)
cell_states = st.fixed_dictionaries(
    {},
    optional={
        "tier": st.integers(-1, 3) | junk,
        "stone": st.sampled_from(["A", "B", None]) | junk,
        "locked": st.booleans() | junk,
    },
)
position_objects = st.fixed_dictionaries(
    {
        "to_move": st.sampled_from(["A", "B"]) | junk,
        "half_moves": st.integers(-1, 61) | junk,
        "players": st.fixed_dictionaries({"A": players, "B": players}) | junk,
    },
    optional={
        "cells": st.dictionaries(st.sampled_from(CELL_NAMES) | st.text(max_size=5), cell_states, max_size=5) | junk
    },
)
positions = hpn_strings | position_objects | st.just(START_JSON) | json_values
turns = htn_strings | turn_objects | json_values
histories = st.none() | st.lists(hpn_strings | position_objects | junk, max_size=3) | json_values

BODIES = {
    "/v1/check": st.fixed_dictionaries({"position": positions, "turn": turns}, optional={"history": histories}),
    "/v1/legal-turns": st.fixed_dictionaries(
        {"position": positions},
        optional={
            "history": histories,
            "project": htn_strings | steps | json_values,
            "shape": htn_strings | steps | json_values,
        },
    ),
    "/v1/validate": st.fixed_dictionaries({"position": positions}, optional={"extra": junk}),
}

# Consistent positions (sparse boards made consistent by tests.helpers.build) and turns made of real
# tokens, so that many requests get past the schema into the rules engine.
ALL_CELLS = [f"{r}{c}" for i, r in enumerate("abcdefg", 1) for c in range(1, 8) if abs(i - c) <= 3]


@st.composite
def consistent_hpns(draw):
    chosen = draw(st.lists(st.sampled_from(ALL_CELLS), max_size=9, unique=True))
    board = {}
    for name in chosen:
        tier = draw(st.integers(0, 2))
        stone = draw(st.sampled_from(["", "A", "B"]))
        lock = "*" if tier == 2 and draw(st.integers(0, 4)) == 0 else ""
        board[name] = f"{tier}{stone}{lock}"
    to_move = draw(st.sampled_from("AB"))
    mover = {"lowers_left": draw(st.integers(0, 6)), "captures": draw(st.integers(0, 6))}
    if draw(st.booleans()):
        mover["cooldown"] = draw(st.lists(st.sampled_from(ALL_CELLS), max_size=3, unique=True))
    pos = build(board, to_move=to_move, check=False, **{to_move: mover})
    assume(not pos.problems())
    return position_to_hpn(pos)


cell_tokens = st.sampled_from(ALL_CELLS)
real_htns = st.builds(
    lambda project, shape, echo: " ".join(t for t in (project, shape, echo) if t),
    cell_tokens
    | st.builds("{}-{}".format, cell_tokens, cell_tokens)
    | st.builds("{}x{}".format, cell_tokens, cell_tokens)
    | st.just("skip"),
    st.none() | st.builds("{}{}".format, st.sampled_from("+-"), cell_tokens),
    st.none() | st.builds("{}{}".format, st.sampled_from("*#"), cell_tokens),
)


@st.composite
def check_bodies(draw):
    """A consistent position and, half the time, one of its legal turns (so outcomes get built)."""
    hpn = draw(consistent_hpns())
    turn = draw(real_htns)
    if draw(st.booleans()):
        pos = parse_hpn(hpn)
        legal = legal_turns(pos)
        if legal:
            turn = turn_to_htn(draw(st.sampled_from(legal)), pos)
    body = {"position": hpn, "turn": turn}
    if draw(st.booleans()):
        body["history"] = draw(st.lists(consistent_hpns(), max_size=2))
    return body


ENGINE_BODIES = {
    "/v1/check": check_bodies(),
    "/v1/legal-turns": st.fixed_dictionaries(
        {"position": consistent_hpns()}, optional={"project": real_htns.map(lambda t: t.split()[0])}
    ),
    "/v1/validate": st.fixed_dictionaries({"position": consistent_hpns()}),
}


def assert_not_a_server_error(path: str, body) -> None:
    resp = send(FUZZ_CLIENT, path, json.dumps(body))
    assert resp.status_code < 500, (path, body, resp.get_data(as_text=True)[:500])
    assert resp.mimetype in ("application/json", PROBLEM_JSON), resp.content_type
    assert resp.status_code in (200, 400, 422), (resp.status_code, body)
    assert_documented(resp, "POST", path)
    if resp.status_code != 200:
        assert resp.mimetype == PROBLEM_JSON


@pytest.mark.parametrize("path", POSTS)
@FUZZ
@given(data=st.data())
def test_no_5xx_for_arbitrary_json(path, data):
    assert_not_a_server_error(path, data.draw(json_values, label="body"))


@pytest.mark.parametrize("path", POSTS)
@FUZZ
@given(data=st.data())
def test_no_5xx_for_right_keys_random_values(path, data):
    assert_not_a_server_error(path, data.draw(BODIES[path], label="body"))


@pytest.mark.parametrize("path", POSTS)
@settings(FUZZ, max_examples=100)
@given(data=st.data())
def test_no_5xx_for_consistent_positions_and_real_turns(path, data):
    assert_not_a_server_error(path, data.draw(ENGINE_BODIES[path], label="body"))
