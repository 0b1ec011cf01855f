"""POST /v1/render/view (issue 35): what the playground shows, answered by the server in one request,
through the test client.  Every answer is checked against openapi.yaml.

Expected values are worked out from RULES.md by hand (see test_playground.py and test_pages.py for the
positions and games used): "c3 +d4; e5 +d4; e5 +d5" from the start has two legal turns, then A's Place
on B's stone on e5 fails place.empty and the replay stops there.
"""

from __future__ import annotations

import re

import pytest

from checker.notation import START_HPN
from tests.web.schema_validation import assert_documented
from tests.web.test_playground import AFTER_C3, ALL_PLACED, TIER_SUM_BROKEN

VIEW = "/v1/render/view"
GAME = "1. c3 +d4 e5 +d4\n2. e5 +d5"
# A to move with 3 stones in reserve and a capture cooldown (a3, c2, d5, f4, g7) that leaves no cell to
# Place on, while some would be free without it (a position of checker/data/vectors.jsonl): the cooldown
# skip (RULES §4, D-4).
SKIP = "0B000/00000B/000000B/0B0A02A000B/1B0A0000B/0A0000/0000 A 3:3:6:0:2:P:a3,c2,d5,f4,g7 0:3:6:5:1:P:- 18"


def view(client, **body) -> dict:
    return assert_documented(client.post(VIEW, json=body), "POST", VIEW)


def problem(client, **body) -> dict:
    resp = client.post(VIEW, json=body)
    assert resp.status_code == 422, resp.get_data(as_text=True)
    return assert_documented(resp, "POST", VIEW)


def test_the_start_is_a_game_with_no_turn_yet(client):
    a = view(client)
    p = a["position"]
    assert (p["hpn"], p["to_move"], p["reserve"], p["project"], p["game_over"]) == (START_HPN, "A", 7, "place", False)
    assert p["steps"] == {"project": "Step 1/2: Place", "shape": "Step 2/2: Shape", "echo": "Step 3: Echo (optional)"}
    assert re.fullmatch(
        r'<strong class="to-move">A to move</strong> · 0 of 60 half-moves played · \d+ legal turns', p["status_html"]
    )
    assert "History: 0 earlier positions" in p["facts_html"] and "A: 7 in reserve, 3 charges" in p["facts_html"]
    assert a["history"] == [] and a["shows"] == "plain" and a["board"].startswith("<svg")
    assert (a["turn"], a["verdict"], a["verdict_html"], a["legal"]) == (None, None, None, None)
    assert a["game"] == {"turns": [], "at": 1, "last": 1, "sheet": "", "message": a["game"]["message"]}
    assert (a["address"], a["permalink"]) == ("", "?position=" + START_HPN.replace(" ", "+"))


def test_the_verdict_is_the_check_pages_own_html(client):
    """One verdict renderer: the view's verdict_html is the /check page's verdict block, but for the ids
    the playground finds and the line on Play on."""
    a = view(client, turn="d4 +c3", check=True)
    assert a["verdict"] == client.post("/v1/check", json={"position": START_HPN, "turn": "d4 +c3"}).get_json()
    assert a["shows"] == "turn" and 'data-highlight="true"' in a["board"]
    page = client.get("/" + a["permalink"]).get_data(as_text=True)
    block = re.search(r'<div class="verdict-box".*?\n</div>', page, re.S)[0]
    mine = re.sub(r' id="(verdict-head|verdict-summary|result-hpn)"', "", a["verdict_html"])
    assert mine == block
    assert 'id="verdict-summary"' in a["verdict_html"]
    assert a["address"] == "?position=" + START_HPN.replace(" ", "+") + "&turn=d4+%2Bc3"
    assert a["permalink"] == "check" + a["address"]


def test_a_legal_turns_html_says_what_play_on_does(client):
    a = view(client, turn="c3 +d4", check=True)
    assert a["verdict"]["outcome"]["hpn"] == AFTER_C3
    assert f'<code class="hpn" id="result-hpn">{AFTER_C3}</code>' in a["verdict_html"]
    assert "Play on loads the resulting position." in a["verdict_html"]
    assert "No stone was weighed." in a["verdict_html"]  # nothing sealed next to c3 or d4


def test_a_game_is_replayed_and_opens_its_first_illegal_turn(client):
    a = view(client, turns=GAME, check=True)
    g = a["game"]
    assert [(t["htn"], t["mover"], t["status"]) for t in g["turns"]] == [
        ("c3 +d4", "A", "legal"),
        ("e5 +d4", "B", "legal"),
        ("e5 +d5", "A", "illegal"),
    ]
    assert (g["at"], g["last"], g["sheet"]) == (3, 3, "c3 +d4\ne5 +d4\ne5 +d5")
    assert g["message"] == "Turn 3 of 3. Turn 3 is illegal: the game stops there."
    assert a["verdict"]["violations"] == ["place.empty"] and len(a["history"]) == 2
    assert a["address"] == "?turns=c3+%2Bd4;e5+%2Bd4;e5+%2Bd5&at=3"
    assert a["permalink"] == "game" + a["address"]
    # another turn at that point is checked with the game's history, and linked as a verdict
    b = view(client, turns=GAME, at=3, turn="c4 +d4", check=True)
    assert b["verdict"]["turn"] == "c4 +d4" and b["address"].endswith("&at=3&turn=c4+%2Bd4")
    assert b["permalink"].startswith("check?position=")
    # the turn before, without check: no verdict, and the game's own turn read back
    c = view(client, turns=GAME, at=2)
    assert c["verdict"] is None and c["turn"]["htn"] == "e5 +d4" and c["position"]["to_move"] == "B"


def test_the_final_position_of_a_game(client):
    a = view(client, turns=["c3 +d4", "e5 +d4"], check=True, embed=True)
    assert (a["game"]["at"], a["game"]["last"], a["turn"], a["verdict"]) == (3, 3, None, None)
    assert a["game"]["message"] == "After the last of 2 turns."
    assert a["address"] == "?turns=c3+%2Bd4;e5+%2Bd4&at=3&embed=1"
    assert a["permalink"] == "game?turns=c3+%2Bd4;e5+%2Bd4&at=3&embed=1"


def test_a_pasted_position_has_no_known_history_and_no_game(client):
    a = view(client, position=AFTER_C3)
    assert a["history"] is None and a["game"] is None
    assert "History not known" in a["position"]["facts_html"]
    assert a["permalink"] == "?position=" + AFTER_C3.replace(" ", "+")
    b = view(client, position=ALL_PLACED)
    assert (b["position"]["project"], b["position"]["reserve"], b["position"]["steps"]["project"]) == (
        "move",
        0,
        "Step 1/2: Move",
    )
    c = view(client, position=SKIP)
    assert c["position"]["project"] == "skip" and "capture cooldown a3, c2, d5, f4, g7" in c["position"]["facts_html"]


def test_the_legal_choices(client):
    a = view(client, legal=True)
    assert a["shows"] == "highlight" and len(a["legal"]["cells"]) == 36 and "d4" not in a["legal"]["cells"]
    assert a["legal"]["note"].startswith(f"{a['legal']['count']} legal turns. Highlighted: the 36 cells where")
    b = view(client, legal=True, turn="c3")
    assert b["legal"]["count"] == 19 and "19 legal turns begin with c3" in b["legal"]["note"]
    assert "+e5" in b["legal"]["note"] and "\u2212" not in b["legal"]["note"]
    c = view(client, position=ALL_PLACED, legal=True, **{"from": "b3"})
    assert "a legal Move from b3 lands" in c["legal"]["note"] and "c3" in c["legal"]["cells"]
    assert set(c["legal"]["cells"]) <= {"b4", "c3", "c4", "a3"}  # b3's empty neighbours: at most these


@pytest.mark.parametrize(
    "body, field, words",
    [
        (
            {"turns": "1. c3 +d4\n2. e5 +d9"},
            "turns",
            "Score sheet: line 2, column 4 ('e5 +d9'): '+d9': d9 is not a cell",
        ),
        ({"turns": GAME, "at": 4}, "at", "Turn 4 was not checked: the replay stops at the first illegal turn, turn 3."),
        ({"turns": GAME, "position": START_HPN}, "position", "Not with turns"),
        ({"turns": GAME, "history": []}, "history", "Not with turns"),
        ({"at": 2}, "at", "Only with turns"),
        ({"turn": "c3 ++d4"}, "turn", "HTN"),
        ({"check": 1}, "check", "boolean"),
        ({"from": "h9", "legal": True}, "from", "h9 is not a cell"),
    ],
)
def test_what_does_not_read_is_a_422_naming_the_field(client, body, field, words):
    p = problem(client, **body)
    assert [e["path"] for e in p["errors"]] == [field]
    assert words in p["errors"][0]["message"]


def test_an_inconsistent_position_lists_each_broken_condition(client):
    p = problem(client, position=TIER_SUM_BROKEN)
    assert [(e["path"], e["rule"]) for e in p["errors"]] == [("position", "position.tier-sum")]
