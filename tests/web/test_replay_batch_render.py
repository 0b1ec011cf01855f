"""POST /v1/replay, /v1/check/batch and /v1/render through the test client."""

import xml.etree.ElementTree as ET

import pytest

from checker.web import create_app
from tests.helpers import START_HPN
from tests.web.schema_validation import assert_component

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


# -- replay ---------------------------------------------------------------------------------------


def test_replay_stops_at_the_first_illegal_turn(client):
    # c3 +d4 (A), e5 +d4 (B: d4 now Tier 2), then A Places on e5, which holds B's stone: place.empty.
    r = client.post("/v1/replay", json={"turns": ["c3 +d4", "e5 +d4", "e5 +d5"]})
    assert r.status_code == 200
    body = r.get_json()
    assert_component("Replay", body)
    assert (body["checked"], body["legal"]) == (3, False)
    assert body["first_illegal"]["index"] == 2
    assert body["first_illegal"]["verdict"]["violations"] == ["place.empty"]
    # final = the position after turn 2: A on c3, B on e5, d4 Tier 2, each with one raise and 6 in reserve
    assert body["final"]["hpn"] == ("0000/00000/000A000/0002000/0000B00/00000/0000 A 6:3:6:0:1:P:- 6:3:6:0:1:P:- 2")
    assert body["game"]["over"] is False and body["game"]["repetition"] == "evaluated"


def test_replay_from_the_start_keeps_the_history_and_judges_repetition(client):
    r = client.post("/v1/replay", json={"turns": ["c3 +d4"]})
    body = r.get_json()
    assert body["legal"] is True and body["first_illegal"] is None
    assert body["game"]["repetition"] == "evaluated"


def test_replay_from_another_start_without_history_does_not_evaluate_repetition(client):
    start = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"
    body = client.post("/v1/replay", json={"start": start, "turns": ["e5 +d4"]}).get_json()
    assert body["legal"] is True
    assert body["game"]["repetition"] == "not_evaluated"
    with_history = client.post(
        "/v1/replay", json={"start": start, "history": [START_HPN], "turns": ["e5 +d4"]}
    ).get_json()
    assert with_history["game"]["repetition"] == "evaluated"


def test_replay_reports_the_end_of_the_game_and_then_game_over(client):
    # Half-move 59, B to move: A has c3 (Tier 0) and raised d4 once; B has made no Place (D-3 allows it).
    start = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 59"
    r = client.post("/v1/replay", json={"start": start, "history": [], "turns": ["e5 +e4", "a1 +a2"]})
    assert r.status_code == 200
    body = r.get_json()
    # B's e5 +e4 is half-move 60: the tiebreak decides. Unlocked tier-2 stones 0-0, tiers under stones
    # 0-0 (c3 and e5 are Tier 0), captures 0-0, raises 1-1: level, a draw.
    assert body["game"]["over"] is True
    assert (body["game"]["reason"], body["game"]["result"]) == ("tiebreak", "draw")
    # the next turn is refused: the game is over
    assert body["checked"] == 2 and body["first_illegal"]["index"] == 1
    assert body["first_illegal"]["verdict"]["violations"][0] == "game.over"


def test_replay_limits_and_errors(client):
    assert client.post("/v1/replay", json={"turns": ["c3 +d4"] * 61}).status_code == 422
    r = client.post("/v1/replay", json={"turns": ["c3 +d4", "c3 +h9"]})
    assert r.status_code == 422
    assert r.get_json()["errors"][0]["path"] == "turns.1"
    bad_start = START_HPN[:-1] + "1"  # half_moves 1 with A to move: position.to-move
    r = client.post("/v1/replay", json={"start": bad_start, "turns": []})
    assert r.status_code == 422
    assert [e["rule"] for e in r.get_json()["errors"]] == ["position.to-move"]


# -- batch ----------------------------------------------------------------------------------------


def test_batch_answers_each_item_in_order_and_a_bad_item_does_not_spoil_the_others(client):
    items = [
        {"position": START_HPN, "turn": "c3 +d4"},
        {"position": START_HPN, "turn": "d4 +c3"},
        {"position": START_HPN, "turn": "c3 +h9"},
        7,
        {"position": START_HPN[:-1] + "1", "turn": "c3"},
        {"position": START_HPN, "turn": "b2 +c3"},
    ]
    r = client.post("/v1/check/batch", json={"items": items})
    assert r.status_code == 200
    body = r.get_json()
    assert_component("Batch", body)
    res = body["results"]
    assert len(res) == 6
    assert res[0]["legal"] is True
    assert res[1]["violations"] == ["place.opening-restriction"]
    assert res[2]["status"] == 422 and res[2]["errors"][0]["path"] == "items.2.turn"
    assert "h9 is not a cell" in res[2]["errors"][0]["message"]
    assert res[3]["status"] == 422 and res[3]["errors"][0]["path"] == "items.3"
    assert res[4]["status"] == 422 and res[4]["errors"][0]["rule"] == "position.to-move"
    assert res[4]["errors"][0]["path"] == "items.4.position"
    assert res[5]["legal"] is True
    for problem in (res[2], res[3], res[4]):
        assert_component("Problem", problem)


def test_batch_limits(client):
    assert client.post("/v1/check/batch", json={"items": [{}] * 1001}).status_code == 422
    assert client.post("/v1/check/batch", json={"items": "x"}).status_code == 422
    assert client.post("/v1/check/batch", json={}).status_code == 422
    big = {"items": [{"position": START_HPN, "turn": "c3 +d4"}] * 4000}  # > 256 KiB
    r = client.post("/v1/check/batch", json=big)
    assert r.status_code == 413 and r.mimetype == "application/problem+json"


# -- render ---------------------------------------------------------------------------------------


def _cells(svg: bytes) -> dict:
    root = ET.fromstring(svg)
    return {g.get("data-cell"): g for g in root.iter(f"{SVG}g") if g.get("class") == "cell"}


def test_render_draws_the_verdict_of_a_turn(client):
    r = client.post("/v1/render", json={"position": START_HPN, "turn": "d4 +c3"})
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    cells = _cells(r.data)
    assert len(cells) == 37
    # only place.opening-restriction fails, naming d4
    assert [c for c, g in cells.items() if g.get("data-highlight") == "true"] == ["d4"]


def test_render_highlights_the_cells_asked_for(client):
    r = client.post("/v1/render", json={"position": START_HPN, "highlight": ["c3", "E5"]})
    cells = _cells(r.data)
    assert sorted(c for c, g in cells.items() if g.get("data-highlight") == "true") == ["c3", "e5"]


def test_render_errors_are_problems(client):
    r = client.post("/v1/render", json={"position": START_HPN, "highlight": ["c3", "zz"]})
    assert r.status_code == 422 and r.get_json()["errors"][0]["path"] == "highlight"
    assert "zz" in r.get_json()["errors"][0]["message"]
    r = client.post("/v1/render", json={"position": START_HPN[:-1] + "1"})
    assert r.status_code == 422 and r.get_json()["errors"][0]["rule"] == "position.to-move"


def test_batch_problem_quoting_a_lone_surrogate_is_still_valid_json(client):
    # The item's message quotes the client's text; a lone surrogate cannot be UTF-8, so the answer
    # falls back to ASCII-escaped JSON rather than failing.
    body = '{"items": [{"position": "%s", "turn": "c3 +\\ud800"}]}' % START_HPN
    r = client.post("/v1/check/batch", data=body, content_type="application/json")
    assert r.status_code == 200
    problem = r.get_json()["results"][0]
    assert problem["status"] == 422 and problem["errors"][0]["path"] == "items.0.turn"
    assert "\ud800" in problem["errors"][0]["message"]
