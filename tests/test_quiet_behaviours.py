"""Behaviours nothing else guarded (issue 22, item 6): each test fails when
its behaviour changes.  The right answers are the rules reference's (and
today's); each was read off the rules by hand, as the comments say."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import orjson
import pytest

from checker import Position, check, legal_turns, parse_hpn, parse_htn, replay, validate
from checker.counting import BudgetExceeded, perft_count
from checker.notation import START_HPN
from checker.scoresheet import read_score_sheet
from checker.tools.cli import main
from checker.web import create_app
from schemas.position import PositionObjectSchema


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


def _errors(resp) -> list[tuple[str, str]]:
    return [(e["path"], e["message"]) for e in resp.get_json()["errors"]]


# 1 - a Shape object with a key the schema does not know is refused, on the quick path too
def test_an_extra_key_in_a_shape_object_is_refused(client):
    turn = {"project": {"kind": "place", "cell": "c3"}, "shape": {"kind": "raise", "cell": "d4", "note": "x"}}
    resp = client.post("/v1/check", json={"position": START_HPN, "turn": turn})
    assert resp.status_code == 422
    assert _errors(resp) == [("turn.shape.note", "Unknown field.")]


# 2, 3 - the HPN (400) and HTN (64) length limits hold on the quick path
def test_the_hpn_length_limit(client):
    resp = client.post("/v1/check", json={"position": START_HPN + " " * 400, "turn": "c3 +d4"})
    assert resp.status_code == 422 and _errors(resp) == [("position", "HPN text longer than 400 characters.")]


def test_the_htn_length_limit(client):
    resp = client.post("/v1/check", json={"position": START_HPN, "turn": "c3" + " " * 70 + "+d4"})
    assert resp.status_code == 422 and _errors(resp) == [("turn", "HTN text longer than 64 characters.")]


# 4 - the legal-turns writer builds each turn's Shape part afresh for each Project
CROWDED = "102A2/00B11A2A/1112B2B2/0A0212B*01B/0000B12/00B11A0A/122A*0 A 0:1:0:1:23:PL:- 0:2:0:1:23:PL:- 58"


@pytest.mark.parametrize("form", ["htn", "objects"])
def test_the_writer_never_reuses_a_shape_part_across_projects(client, form):
    resp = client.post("/v1/legal-turns", json={"position": CROWDED, "form": form})
    assert resp.status_code == 200
    turns = resp.get_json()["turns"]
    texts = turns if form == "htn" else [t["htn"] for t in turns]
    assert len(texts) == len(set(texts)) == 162
    assert {"b5-a4 +b4", "b5-c6 +b4"} <= set(texts)
    # the same turns as the rules engine's own list (read back: the API may spell a Move "f6xe5")
    assert {parse_htn(t) for t in texts} == set(legal_turns(parse_hpn(CROWDED)))
    if form == "objects":
        by_text = {t["htn"]: t for t in turns}
        assert by_text["b5-a4 +b4"]["turn"]["project"] == {"kind": "move", "from": "b5", "to": "a4"}
        assert by_text["b5-c6 +b4"]["turn"]["project"] == {"kind": "move", "from": "b5", "to": "c6"}
        assert by_text["b5-a4 +b4"]["turn"]["shape"] == by_text["b5-c6 +b4"]["turn"]["shape"]


# 5 - replay's history holds the positions *before* each turn: stepping a stone
# out and back recreates the position two turns earlier (RULES §8: repetition)
EMPTY_RESERVES = "2B20B2/0B0B0B20/0B0B2200/0000000/00220A0A/020A0A0A/20A2A2 B 0:3:0:0:18:P:- 0:3:0:0:18:P:- 55"
STEPS = ["a1-a2", "g6-g7", "a2-a1", "g7-g6"]


def test_replay_finds_a_repetition_through_its_own_history(client):
    start = parse_hpn(EMPTY_RESERVES)
    game = replay([parse_htn(t) for t in STEPS], start=start, history=[])
    ends = [i for i, v in enumerate(game.verdicts) if v.outcome is not None and v.outcome.game.over]
    assert ends, "the repetition should end the game"
    at = ends[0]
    end = game.verdicts[at].outcome.game
    assert end.reason == "repetition"
    # the recreated position is the one before turn at-1 (two half-moves back), and the message names it
    assert "history[" in end.message and "half-move" in end.message
    resp = client.post("/v1/replay", json={"start": EMPTY_RESERVES, "history": [], "turns": STEPS})
    body = resp.get_json()
    assert resp.status_code == 200 and body["game"]["reason"] == "repetition"
    assert body["game"]["message"] == end.message


# 6 - a 19-digit integer in a JSON position is read exactly: an inconsistent position, not a bad integer
def test_a_19_digit_half_move_count_is_read_exactly(client):
    position = PositionObjectSchema().dump(Position.start())
    position["half_moves"] = -9999999999999999999
    resp = client.post("/v1/check", json={"position": position, "turn": "c3 +d4"})
    assert resp.status_code == 422, resp.get_json()
    problem = resp.get_json()
    assert problem["type"].endswith("inconsistent-position")
    assert {e["rule"] for e in problem["errors"]} == {"position.range", "position.to-move", "position.shape-count"}
    # read exactly: the 19 digits come back whole, not as a rounded float
    assert "half_moves is -9999999999999999999; it must be 0–60." in problem["detail"]
    assert "Not a valid integer" not in orjson.dumps(problem).decode()


# 7 - a perft count that needs exactly its budget is allowed, one less is refused
BUDGET_POSITION = "2110/101B01B/0A1A211A0/010B121B0/2A21A12B*1/02*21B1/10A1A1B B 0:2:0:1:24:PL:- 0:2:0:4:23:PL:- 59"


def test_a_perft_count_that_needs_exactly_the_budget():
    position = parse_hpn(BUDGET_POSITION)
    counted = perft_count(position, 3, budget=278)
    assert counted.nodes >= 0
    with pytest.raises(BudgetExceeded):
        perft_count(position, 3, budget=277)


# 8 - Takeover at exactly 6 captures names the capturer (RULES: 6 or more)
def test_takeover_at_six_captures_names_the_capturer(client):
    hpn = "00A0B0/20110A/1A0B20B02/00A01A120B/0B2*2*200/00B00A0/1110A B 0:2:1:6:17:PL:- 1:2:0:5:16:PL:d4 45"
    status = client.post("/v1/validate", json={"position": hpn}).get_json()["status"]
    assert status["game_over"] is True and status["reason"] == "takeover"
    assert status["message"].endswith("A has captured 6 enemy stones (Takeover: 6 or more). A wins.")
    game = validate(parse_hpn(hpn)).game
    assert game.result == "A" and game.reason == "takeover"


# 9 - a Move from a cell that is not the mover's still reports every later failure
def test_a_move_from_a_foreign_stone_reports_every_later_failure():
    position = parse_hpn(
        "0B2*0B0A/02A111A/1001B00/2A001101/0A0B01A11/0200B0B/00A01B A 0:3:6:1:11:P:- 0:2:5:0:10:PL:- 22"
    )
    verdict = check(position, parse_htn("b1-c1 #c1"))
    failed = [c.rule for c in verdict.checks if c.status == "failed"]
    assert failed == ["move.own-stone", "shape.mandate", "echo-lock.own-stone", "echo-lock.tier"]


# 10 - the step label follows the reserve (D-15): a Place is step 1 of 2 when there is no Echo
def test_the_step_label_follows_the_reserve():
    position = parse_hpn("0000B/00002B/011000/00102B0B0A/0002B1A1A/000A1A0B/000A1A B 0:3:6:0:7:P:- 1:3:6:0:6:P:- 13")
    verdict = check(position, parse_htn("a1 +a1"))
    place = [c for c in verdict.checks if c.rule.startswith("place.")]
    assert place and {c.step for c in place} == {"Step 1/2: Place"}


# 11 - validate() without a history says repetition was not evaluated
def test_validate_without_history_leaves_repetition_not_evaluated():
    assert validate(Position.start()).game.repetition == "not_evaluated"


# 12 - the cooldown skip's Echo-Captures still need contact
def test_the_cooldown_skips_echo_captures_need_contact(client):
    hpn = "0000/00B000/000000/0002A000/00B0000/0B000B0B/0A00B1B A 5:3:6:0:2:P:b2,b4,d2,d6,f5 0:3:6:5:1:P:- 20"
    body = client.post("/v1/legal-turns", json={"position": hpn, "form": "htn"}).get_json()
    assert sorted(body["turns"]) == ["skip", "skip #d4"]


# 13 - Network is found before Strangle, and the winner is the Network's owner
NETWORK = "0B0B0B0B/0B0B0B2A0A/2A2A2A2A00/0000000/000000/00000/0000A B 0:3:6:0:10:P:- 0:3:6:0:0:P:- 21"


def test_network_before_strangle(client):
    for game in (validate(parse_hpn(NETWORK)).game, replay([], start=parse_hpn(NETWORK)).game):
        assert game.over and game.reason == "network" and game.result == "A"
    body = client.post("/v1/replay", json={"start": NETWORK, "turns": []}).get_json()
    assert body["game"]["reason"] == "network" and body["game"]["result"] == "A"


# 14 - Takeover at exactly 6 captures in replay
def test_takeover_at_six_in_replay():
    start = parse_hpn("0A0A0A0A/0A0A0A00/000000/0000000/000000/00000/0000 B 0:3:6:6:0:P:- 7:3:6:0:0:P:- 13")
    game = replay([], start=start).game
    assert game.over and game.reason == "takeover" and game.result == "A"


# 15 - a 10-digit reserve is refused on the quick path as on the slow one
TEN_DIGITS = "0000/00000/000000/0000000/000000/00000/0000 A 0000000007:3:6:0:0:-:- 7:3:6:0:0:-:- 0"


def test_a_ten_digit_reserve_is_refused_the_same_way(client, monkeypatch):
    import schemas.requests as sr

    quick = client.post("/v1/check", json={"position": TEN_DIGITS, "turn": "c3 +d4"})
    monkeypatch.setattr(sr, "_QUICK_CHECK_REQUEST", lambda value: None)  # no quick path: the schema reads it
    slow = client.post("/v1/check", json={"position": TEN_DIGITS, "turn": "c3 +d4"})
    assert quick.status_code == slow.status_code == 422
    assert quick.get_json() == slow.get_json()


# 16 - the to-move letter is upper-case only
def test_the_to_move_letter_is_upper_case(client):
    fields = START_HPN.split(" ")
    fields[1] = "a"
    assert client.post("/v1/validate", json={"position": " ".join(fields)}).status_code == 422


# 17 - a score-sheet number "1..." is dropped whole
def test_a_black_move_number_is_dropped_whole(client):
    assert [t.text for t in read_score_sheet("1. c3 +d4\n1... e5 +d4")] == ["c3 +d4", "e5 +d4"]
    resp = client.get("/game", query_string={"turns": "1. c3 +d4; 1... e5 +d4"})
    assert resp.status_code == 200
    page = resp.get_data(as_text=True)
    assert "<title>Game: 2 legal turns · Hexodic checker</title>" in page
    # A's Stone on c3, B's on e5, d4 raised twice (RULES §5)
    assert "<title>c3: Tier 0, A's Stone</title>" in page and "<title>e5: Tier 0, B's Stone</title>" in page
    assert "<title>d4: Tier 2, no Stone</title>" in page


# 18 - an empty cooldown field is an error
def test_an_empty_cooldown_field_is_an_error(client):
    hpn = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-: 7:3:6:0:0:-:- 0"
    assert client.post("/v1/validate", json={"position": hpn}).status_code == 422


# 19 - conform counts a violation an engine adds as a difference
def test_conform_counts_an_added_violation(capsys):
    engine = (
        f"{shlex.quote(sys.executable)} {shlex.quote(str(Path(__file__).parent / 'engines' / 'extra_violation.py'))}"
    )
    code = main(["conform", "--engine", engine, "--vectors", "hand-open-02", "--depth", "0", "--games", "0"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert any("hand-open-02" in line and "extra: shape.range" in line for line in out), out
