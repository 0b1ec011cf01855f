"""The ``hexodic-check`` command (checker/tools/cli).

Most tests run ``main([...])`` in-process and read stdout/stderr with
capsys; a few run the installed console script in a subprocess.  Every
``--json`` output is compared with the HTTP service's answer to the same
input (``checker.web.create_app``), and the facts that matter (legality,
resulting HPN, capture arithmetic, counts) are worked out by hand from
RULES.md in the comments.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from checker.tools.cli import main
from checker.web import create_app

START = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
# After A's "c3 +d4": A's stone on c3, d4 raised to Tier 1, A 6 in reserve, 1 raise, first Place made.
AFTER_1 = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"
# After B's "e5 +d4" from AFTER_1: B's stone on e5 (row e is e2..e7, so the 4th cell), d4 now Tier 2.
AFTER_2 = "0000/00000/000A000/0002000/0000B00/00000/0000 A 6:3:6:0:1:P:- 6:3:6:0:1:P:- 2"
# B's Tier-1 stone on the corner a1 (3 edge slots), A's stones on a2 (Tier 1) and b1 (Tier 0).
# Consistent: A 2 on board + 5 = 7, B 1 + 6 = 7; tiers add up to 2 = raises 1 + 1; 4 half-moves, A to move.
CORNER = "1B1A00/0A0000/000000/0000000/000000/00000/0000 A 5:3:6:0:1:P:- 6:3:6:0:1:P:- 4"
# Inconsistent (D-3): A's stone on c3 with 7 in reserve (stone-count), A has not Placed yet but has a
# stone (unplaced), half_moves 1 with A to move (to-move), d4 is Tier 1 with no raise (tier-sum).
BROKEN = "0000/00000/000A000/0001000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 1"
BROKEN_RULES = {"position.stone-count", "position.unplaced", "position.to-move", "position.tier-sum"}

AFTER_1_JSON = {
    "to_move": "B",
    "half_moves": 1,
    "cells": {"c3": {"tier": 0, "stone": "A"}, "d4": {"tier": 1}},
    "players": {
        "A": {
            "reserve": 6,
            "charges": 3,
            "lowers_left": 6,
            "captures": 0,
            "raises": 1,
            "placed": True,
            "echo_lock_used": False,
            "cooldown": [],
        },
        "B": {
            "reserve": 7,
            "charges": 3,
            "lowers_left": 6,
            "captures": 0,
            "raises": 0,
            "placed": False,
            "echo_lock_used": False,
        },
    },
}
E5_RAISE_D4 = {"project": {"kind": "place", "cell": "e5"}, "shape": {"kind": "raise", "cell": "d4"}}

MARKS = {"passed": "✓", "failed": "✗", "not_applicable": "–"}
PREFIX = "hexodic-check: error: "


@pytest.fixture(scope="module")
def http():
    return create_app({"TESTING": True}).test_client()


def post(http, path, body):
    resp = http.post(path, json=body)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def feed_stdin(monkeypatch, text: str):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def check_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line and line[0] in "✓✗–"]


# ------------------------------------------------------------- check ------


def test_check_legal_turn_summary_checklist_and_outcome(capsys, http):
    code, out, err = run(capsys, "check", START, "c3 +d4")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    verdict = post(http, "/v1/check", {"position": START, "turn": "c3 +d4"})
    # the summary comes first
    assert lines[0] == verdict["summary"] and lines[0].startswith("Legal:")
    assert "c3" in lines[0] and "d4" in lines[0]
    # one checklist line per check, in order: mark, step label, rule id, message
    rows = check_lines(out)
    assert len(rows) == len(verdict["checks"])
    for row, c in zip(rows, verdict["checks"]):
        assert row.startswith(MARKS[c["status"]] + " " + c["step"])
        assert f" {c['rule']} " in row and row.endswith(c["message"])
    by_rule = {c["rule"]: row for row, c in zip(rows, verdict["checks"])}
    # A's first Place on c3, 1 step from d4: the opening restriction passes; no cooldown, so N/A.
    assert by_rule["place.opening-restriction"].startswith("✓ Step 1/2: Place")
    assert by_rule["place.cooldown"].startswith("– Step 1/2: Place")
    # a raise does not use the lowering budget
    assert by_rule["shape.lowering-budget"].startswith("– Step 2/2: Shape")
    assert not any(r.startswith("✗") for r in rows)
    # the resulting position, worked by hand
    assert f"Position after the turn: {AFTER_1}" in lines
    assert any("first Place" in line for line in lines)  # the first_place event
    game = next(line for line in lines if line.startswith("Game: "))
    assert "B is to move" in game and "not evaluated" in game  # no --history


def test_check_illegal_turn(capsys):
    code, out, err = run(capsys, "check", START, "d4 +c3")
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0].startswith("Illegal:") and "centre" in lines[0]
    failed = [r for r in check_lines(out) if r.startswith("✗")]
    assert len(failed) == 1
    assert failed[0].startswith("✗ Step 1/2: Place") and "place.opening-restriction" in failed[0]
    assert "d4" in failed[0]
    assert not any(line.startswith("Position after the turn") for line in lines)


def test_check_capture_shows_the_weighing(capsys, http):
    # A Places b2 and raises c3 (1 step from b2).  B's Tier-1 stone on a1 is then sealed: its slots are
    # edge, a2 (A, Tier 1), edge, b1 (A, Tier 0), edge, b2 (A, Tier 0).
    # Sum = 3 edges x (1 + 1) + 1 + 0 + 0 = 7 > 6 x 1 = 6: captured.
    code, out, err = run(capsys, "check", CORNER, "b2 +c3")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    # a1 keeps Tier 1 and is empty; b2 holds A; c3 Tier 1; A 4 in reserve, 1 capture, 2 raises;
    # B's stone back in reserve (7) with a1 in B's cooldown; B to move, half-move 5.
    after = "11A00/0A0A000/001000/0000000/000000/00000/0000 B 4:3:6:1:2:P:- 7:3:6:0:1:P:a1 5"
    assert f"Position after the turn: {after}" in lines
    start = lines.index("Capture check:")
    weighing = lines[start + 1]
    assert "a1" in weighing and "= 7 > 6" in weighing and weighing.rstrip(".").endswith("captured")
    events = lines[lines.index("Events:") + 1 : start]
    assert any("a1" in e and "captur" in e for e in events)
    cli = json.loads(run(capsys, "check", CORNER, "b2 +c3", "--json")[1])
    assert cli == post(http, "/v1/check", {"position": CORNER, "turn": "b2 +c3"})


@pytest.mark.parametrize(
    "position, turn, code",
    [
        (START, "c3 +d4", 0),
        (START, "d4 +c3", 1),
        (AFTER_1, "c3 +d4", 1),  # c3 holds A's stone: place.empty fails
        (CORNER, "b2 +c3", 0),
    ],
)
def test_check_json_is_the_http_verdict(capsys, http, position, turn, code):
    got, out, err = run(capsys, "check", position, turn, "--json")
    assert (got, err) == (code, "")
    assert json.loads(out) == post(http, "/v1/check", {"position": position, "turn": turn})


def test_check_history_from_text_and_json_files(capsys, http, tmp_path):
    # B's "e5 +d4" from AFTER_1 recreates AFTER_2.  A history that holds AFTER_2 already (only keys are
    # compared, RULES §8) makes it a repetition: B loses, A wins.
    text = tmp_path / "history.txt"
    text.write_text(f"# the game so far\n{START}\n\n{AFTER_2}\n", encoding="utf-8")
    code, out, err = run(capsys, "check", AFTER_1, "e5 +d4", "--history", text)
    assert (code, err) == (0, "")  # the turn is legal; it loses the game
    game = next(line for line in out.splitlines() if line.startswith("Game: "))
    assert "repetition" in game and "not evaluated" not in game

    js = tmp_path / "history.json"
    js.write_text(json.dumps([START, AFTER_2]), encoding="utf-8")
    code, out, _ = run(capsys, "check", AFTER_1, "e5 +d4", "--history", js, "--json")
    verdict = json.loads(out)
    assert verdict["outcome"]["game"]["over"] is True
    assert (verdict["outcome"]["game"]["result"], verdict["outcome"]["game"]["reason"]) == ("A", "repetition")
    assert verdict == post(http, "/v1/check", {"position": AFTER_1, "turn": "e5 +d4", "history": [START, AFTER_2]})

    # an empty list is a history: evaluated, and nothing repeats
    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    verdict = json.loads(run(capsys, "check", AFTER_1, "e5 +d4", "--history", empty, "--json")[1])
    assert verdict["outcome"]["game"]["repetition"] == "evaluated" and verdict["outcome"]["game"]["over"] is False


# --------------------------------------------------------- input forms ------


def _forms(tmp_path: Path) -> dict[str, tuple[list[str], str | None]]:
    """argv (POSITION, TURN) and stdin for each input form; all mean AFTER_1 and B's "e5 +d4"."""
    (tmp_path / "pos.hpn").write_text(f"# after c3 +d4\n{AFTER_1}\n", encoding="utf-8")
    (tmp_path / "pos.json").write_text(json.dumps(AFTER_1_JSON), encoding="utf-8")
    (tmp_path / "turn.json").write_text(json.dumps(E5_RAISE_D4), encoding="utf-8")
    return {
        "hpn text": ([AFTER_1, "e5 +d4"], None),
        "hpn file": ([str(tmp_path / "pos.hpn"), "e5 +d4"], None),
        "json file": ([str(tmp_path / "pos.json"), "e5 +d4"], None),
        "inline json position": ([json.dumps(AFTER_1_JSON), "e5 +d4"], None),
        "stdin hpn": (["-", "e5 +d4"], AFTER_1 + "\n"),
        "stdin json": (["-", "e5 +d4"], json.dumps(AFTER_1_JSON)),
        "inline json turn": ([AFTER_1, json.dumps(E5_RAISE_D4)], None),
        "json turn file": ([AFTER_1, str(tmp_path / "turn.json")], None),
        "stdin turn": ([AFTER_1, "-"], "E5  +D4\n"),
    }


@pytest.mark.parametrize(
    "form",
    [
        "hpn text",
        "hpn file",
        "json file",
        "inline json position",
        "stdin hpn",
        "stdin json",
        "inline json turn",
        "json turn file",
        "stdin turn",
    ],
)
def test_every_input_form_gives_the_same_verdict(capsys, monkeypatch, tmp_path, http, form):
    argv, stdin = _forms(tmp_path)[form]
    if stdin is not None:
        feed_stdin(monkeypatch, stdin)
    code, out, err = run(capsys, "check", *argv, "--json")
    assert (code, err) == (0, "")
    verdict = json.loads(out)
    assert verdict["turn"] == "e5 +d4" and verdict["mover"] == "B" and verdict["legal"] is True
    assert verdict["outcome"]["hpn"] == AFTER_2
    assert verdict == post(http, "/v1/check", {"position": AFTER_1_JSON, "turn": E5_RAISE_D4})


# ------------------------------------------------------------- replay ------

GAME_TXT = """\
# A replay with an illegal third turn
c3 +d4

E5 +D4
# A tries e5, where B's stone stands
e5 +d5
"""


def test_replay_text_file(capsys, http, tmp_path):
    game = tmp_path / "game.txt"
    game.write_text(GAME_TXT, encoding="utf-8")
    code, out, err = run(capsys, "replay", game)
    assert (code, err) == (1, "")
    lines = out.splitlines()
    # turns 1 and 2 are legal (see AFTER_1, AFTER_2); turn 3 Places on e5, which holds B's stone
    assert lines[:3] == ["1. A c3 +d4 ✓", "2. B e5 +d4 ✓", "3. A e5 +d5 ✗"]
    failed = [r for r in check_lines(out) if r.startswith("✗")]
    assert len(failed) == 1 and "place.empty" in failed[0] and "e5" in failed[0]
    assert any(line.startswith("Illegal:") for line in lines)  # the illegal turn's summary
    assert any(line.endswith(AFTER_2) and "Final position" in line for line in lines)
    assert lines[-1].startswith("Game: ") and "A is to move" in lines[-1]

    code, out, _ = run(capsys, "replay", game, "--json")
    body = json.loads(out)
    assert code == 1
    assert (body["checked"], body["legal"], body["first_illegal"]["index"]) == (3, False, 2)
    assert body["final"]["hpn"] == AFTER_2
    assert body == post(http, "/v1/replay", {"turns": ["c3 +d4", "e5 +d4", "e5 +d5"]})


def test_replay_json_file_with_start_and_history(capsys, http, tmp_path):
    # From AFTER_1, with the earlier positions START and AFTER_2 (keys only), B's "e5 +d4" recreates
    # AFTER_2: a repetition, B loses.
    body = {"turns": [E5_RAISE_D4], "start": AFTER_1, "history": [START, AFTER_2]}
    game = tmp_path / "game.json"
    game.write_text(json.dumps(body), encoding="utf-8")
    code, out, err = run(capsys, "replay", game)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "1. B e5 +d4 ✓"
    assert any(line == f"Final position: {AFTER_2}" for line in lines)
    assert "repetition" in lines[-1] and lines[-1].startswith("Game: ")
    code, out, _ = run(capsys, "replay", game, "--json")
    got = json.loads(out)
    assert code == 0 and got["legal"] is True and got["first_illegal"] is None
    assert (got["game"]["result"], got["game"]["reason"]) == ("A", "repetition")
    assert got == post(http, "/v1/replay", body)


def test_replay_json_from_stdin(capsys, monkeypatch, http):
    body = {"turns": ["c3 +d4", E5_RAISE_D4]}
    feed_stdin(monkeypatch, json.dumps(body))
    code, out, err = run(capsys, "replay", "-", "--json")
    assert (code, err) == (0, "")
    got = json.loads(out)
    assert (got["checked"], got["legal"], got["final"]["hpn"]) == (2, True, AFTER_2)
    assert got == post(http, "/v1/replay", body)


# ------------------------------------------------------------ validate ------


def test_validate_inconsistent_position(capsys, http):
    code, out, err = run(capsys, "validate", BROKEN)
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0].startswith("Not consistent: 4 conditions broken")
    assert all(rule in lines[0] for rule in BROKEN_RULES)
    failed = {rule for row in check_lines(out) if row.startswith("✗") for rule in BROKEN_RULES if rule in row}
    assert failed == BROKEN_RULES
    # position.range holds (every counter is in range)
    assert any(row.startswith("✓") and "position.range" in row for row in check_lines(out))
    code, out, _ = run(capsys, "validate", BROKEN, "--json")
    assert code == 1 and json.loads(out) == post(http, "/v1/validate", {"position": BROKEN})


def test_validate_consistent_position(capsys, http):
    code, out, err = run(capsys, "validate", START)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("Consistent")
    assert not any(row.startswith("✗") for row in check_lines(out))
    assert "Legal turns: 480." in lines  # see test_legal_lists_every_turn
    code, out, _ = run(capsys, "validate", START, "--json")
    assert code == 0 and json.loads(out) == post(http, "/v1/validate", {"position": START})


# --------------------------------------------------------------- legal ------


def test_legal_lists_every_turn(capsys, http):
    # From the start, A may Place on any of the 36 cells but d4 (opening restriction), then must raise
    # (every tier is 0) one of the cells within 2 steps; no Echo applies (no enemy stone, no Tier 2).
    # Cells within 2 steps: 19 for the 6 cells 1 step from d4; 14 for the 6 cells like b2 and 16 for
    # the 6 like b3 (2 steps out); 9 for the 6 corners and 11 for the other 12 edge cells.
    # 6*19 + 6*14 + 6*16 + 6*9 + 12*11 = 114 + 84 + 96 + 54 + 132 = 480.
    code, out, err = run(capsys, "legal", START)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "480 legal turns"
    turns = lines[1:]
    assert len(turns) == len(set(turns)) == 480
    assert "c3 +d4" in turns and not any(t.startswith("d4 ") for t in turns)
    assert turns == [t["htn"] for t in post(http, "/v1/legal-turns", {"position": START})["turns"]]


def test_legal_filters_and_json(capsys, http):
    code, out, _ = run(capsys, "legal", START, "--project", "c3", "--shape", "+d4")
    assert (code, out.splitlines()) == (0, ["1 legal turn", "c3 +d4"])
    # c3 is 1 step from d4: all 19 cells within 2 steps of it are on the board
    code, out, _ = run(capsys, "legal", START, "--project", "c3")
    assert out.splitlines()[0] == "19 legal turns"
    code, out, _ = run(capsys, "legal", START, "--project", "c3", "--json")
    assert json.loads(out) == post(http, "/v1/legal-turns", {"position": START, "project": "c3"})
    # a lower written as a separate argument (argparse would take "-d4" for an option): from AFTER_1, B
    # Places e5 and lowers d4 (Tier 1, 1 step away, 6 lowers left); no Echo applies (no enemy stone on
    # Tier 1 or 2, no own stone on Tier 2), so exactly one turn.
    for argv in (["--shape", "-d4"], ["--shape=-d4"]):
        code, out, err = run(capsys, "legal", AFTER_1, "--project", "e5", *argv)
        assert (code, out.splitlines(), err) == (0, ["1 legal turn", "e5 -d4"], "")


# -------------------------------------------------------------- render ------


def test_render_writes_an_svg(capsys, tmp_path):
    out_file = tmp_path / "board.svg"
    code, out, err = run(capsys, "render", START, "d4 +c3", "-o", out_file, "--highlight", "e5,a1")
    assert (code, out, err) == (0, "", "")
    root = ET.parse(out_file).getroot()  # well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    cells = {g.get("data-cell"): g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "cell"}
    assert len(cells) == 37
    # the requested cells and the failed check's cell (d4, opening restriction) are highlighted
    lit = {name for name, g in cells.items() if g.get("data-highlight") == "true"}
    assert {"e5", "a1", "d4"} <= lit and "g7" not in lit
    assert "Illegal" in out_file.read_text(encoding="utf-8")


def test_render_to_stdout(capsys):
    code, out, err = run(capsys, "render", AFTER_1, "-o", "-")
    assert (code, err) == (0, "")
    root = ET.fromstring(out)
    stones = {
        g.get("data-cell"): g.get("data-stone")
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if g.get("class") == "cell"
    }
    assert stones["c3"] == "A" and stones["d4"] == "empty"


# ------------------------------------------------------------- rules ------


def test_rules_prints_one_rules_text(capsys):
    code, out, err = run(capsys, "rules", "place.cooldown")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "place.cooldown: Capture cooldown"
    assert lines[1] == "Step 1/2: Place · published rule"
    # RULES §4: while the cooldown is non-empty, the Place must be at least 2 steps from every cell in it
    assert "at least 2 steps from every cell" in lines[2]
    assert lines[3:] == ["More: https://hexodic.com/rules/project", "Reference: /rules#place.cooldown"]


def test_rules_takes_a_decided_reading_in_any_case(capsys):
    code, out, _ = run(capsys, "rules", "d-10")
    assert code == 0 and out.startswith("D-10: ")
    # D-10: enemy neighbours count like edge in the Echo-Capture check
    assert "(t + 1) × (edge slots + opponent-stone slots) > 6 × t" in out


def test_rules_without_an_id_prints_every_entry(capsys, http):
    code, out, _ = run(capsys, "rules")
    assert code == 0
    heads = [block.splitlines()[0].split(":")[0] for block in out.split("\n\n")]
    # 37 rule ids, 3 capture kinds, 6 end-of-game reasons, D-1 … D-15
    assert len(heads) == 37 + 3 + 6 + 15
    assert heads[0] == "game.over" and "capture.echo" in heads and "end.tiebreak" in heads and heads[-1] == "D-15"


def test_rules_json(capsys):
    code, out, _ = run(capsys, "rules", "shape.skipped", "--json")
    entry = json.loads(out)
    assert code == 0
    assert (entry["id"], entry["source"], entry["decision"]) == ("shape.skipped", "decided", "D-7")
    code, out, _ = run(capsys, "rules", "--json")
    assert [e["id"] for e in json.loads(out)][:2] == ["game.over", "project.skip"]


# ----------------------------------------------------------- bad input ------


def _bad_inputs(tmp_path: Path) -> dict[str, tuple[list[str], str | None, list[str]]]:
    """argv, stdin and the words the one-line error must contain."""
    (tmp_path / "bad.json").write_text('{"to_move": "A",', encoding="utf-8")
    (tmp_path / "nan.json").write_text('{"to_move": NaN}', encoding="utf-8")
    (tmp_path / "partial.json").write_text('{"to_move": "A", "half_moves": 0}', encoding="utf-8")
    (tmp_path / "latin1.hpn").write_bytes("0000 é".encode("latin-1"))
    (tmp_path / "two.hpn").write_text(f"{START}\n{AFTER_1}\n", encoding="utf-8")
    (tmp_path / "hist.json").write_text('{"a": 1}', encoding="utf-8")
    (tmp_path / "badline.txt").write_text("c3 +d4\n\n# comment\nc3 +zz\n", encoding="utf-8")
    (tmp_path / "list.json").write_text('["c3 +d4"]', encoding="utf-8")
    bad_row = START.replace("000000/0000000", "003000/0000000", 1)
    return {
        "missing position file": (["check", str(tmp_path / "nope.hpn"), "c3"], None, ["POSITION", "nope.hpn"]),
        "missing turn file": (["check", START, str(tmp_path / "nope.json")], None, ["TURN", "nope.json"]),
        "missing history file": (
            ["check", START, "c3 +d4", "--history", str(tmp_path / "h.txt")],
            None,
            ["--history", "h.txt"],
        ),
        "directory": (["validate", str(tmp_path)], None, ["POSITION", "directory"]),
        "bad json file": (["check", str(tmp_path / "bad.json"), "c3"], None, ["not valid JSON", "line 1"]),
        "NaN in json": (["check", str(tmp_path / "nan.json"), "c3"], None, ["NaN"]),
        "bad inline json turn": (["check", START, '{"project": }'], None, ["TURN", "not valid JSON"]),
        "json missing fields": (["check", str(tmp_path / "partial.json"), "c3"], None, ["players", "required"]),
        "bad hpn row": (["check", bad_row, "c3"], None, ["POSITION", "HPN", "row c", "tier 3"]),
        "bad hpn fields": (["validate", "0000/00000 A"], None, ["HPN", "5 space-separated fields"]),
        "not utf-8": (["validate", str(tmp_path / "latin1.hpn")], None, ["UTF-8"]),
        "two positions in a file": (["validate", str(tmp_path / "two.hpn")], None, ["2 lines"]),
        "bad htn": (["check", START, "c3 +h9"], None, ["TURN", "HTN", "h9 is not a cell"]),
        "bad json turn": (["check", START, '{"project": {"kind": "jump"}}'], None, ["TURN", "project.kind"]),
        "inconsistent position": (
            ["check", BROKEN, "c3"],
            None,
            ["POSITION", "not a consistent position", *sorted(BROKEN_RULES)],
        ),
        "inconsistent for legal": (["legal", BROKEN], None, ["not a consistent position", "position.to-move"]),
        "history not a list": (
            ["check", START, "c3 +d4", "--history", str(tmp_path / "hist.json")],
            None,
            ["--history", "JSON list"],
        ),
        "bad history item": (
            ["check", AFTER_1, "e5 +d4", "--history", str(tmp_path / "badline.txt")],
            None,
            ["--history", "line 1", "HPN"],
        ),
        "replay bad line": (["replay", str(tmp_path / "badline.txt")], None, ["line 4, column 1", "zz is not a cell"]),
        "replay json not an object": (["replay", str(tmp_path / "list.json")], None, ["JSON object"]),
        "replay inconsistent start": (
            ["replay", "-"],
            json.dumps({"turns": [], "start": BROKEN}),
            ["start", "not a consistent position"],
        ),
        "stdin twice": (["check", "-", "-"], START, ["TURN", "stdin", "already"]),
        "bad --project": (["legal", START, "--project", "c3+"], None, ["--project", "HTN"]),
        "bad --highlight": (
            ["render", START, "-o", str(tmp_path / "x.svg"), "--highlight", "c3,h9"],
            None,
            ["--highlight", "h9"],
        ),
        "unwritable output": (["render", START, "-o", str(tmp_path / "no" / "x.svg")], None, ["-o", "x.svg"]),
        "missing argument": (["check", START], None, ["TURN", "required"]),
        "unknown command": (["move", START], None, ["move"]),
        "no command": ([], None, ["required"]),
        "unknown option": (["validate", START, "--pretty"], None, ["--pretty"]),
        "unknown rule id": (["rules", "place.nowhere"], None, ["ID", "place.nowhere", "rule id"]),
    }


BAD = [
    "missing position file",
    "missing turn file",
    "missing history file",
    "directory",
    "bad json file",
    "NaN in json",
    "bad inline json turn",
    "json missing fields",
    "bad hpn row",
    "bad hpn fields",
    "not utf-8",
    "two positions in a file",
    "bad htn",
    "bad json turn",
    "inconsistent position",
    "inconsistent for legal",
    "history not a list",
    "bad history item",
    "replay bad line",
    "replay json not an object",
    "replay inconsistent start",
    "stdin twice",
    "bad --project",
    "bad --highlight",
    "unwritable output",
    "missing argument",
    "unknown command",
    "no command",
    "unknown option",
    "unknown rule id",
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_is_exit_2_with_one_error_line(capsys, monkeypatch, tmp_path, case):
    argv, stdin, words = _bad_inputs(tmp_path)[case]
    if stdin is not None:
        feed_stdin(monkeypatch, stdin)
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(PREFIX), err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


def test_bad_input_lists_every_broken_condition_on_its_line(capsys):
    code, _, err = run(capsys, "check", BROKEN, "c3")
    assert code == 2
    assert "4 broken conditions" in err
    assert "half_moves is 1" in err  # the to-move condition's fact


def test_help_is_exit_0(capsys):
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0 and "POSITION" in out and "--history" in out


# ---------------------------------------------------------- subprocess ------


def _script() -> list[str]:
    exe = Path(sys.executable).with_name("hexodic-check")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("hexodic-check")
    return [found] if found else [sys.executable, "-m", "checker.tools.cli"]


def _env() -> dict[str, str]:
    # a locale and an I/O encoding that cannot write ✓: the output must be UTF-8 all the same
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHON"))}
    env.update(LC_ALL="C", LANG="C", PYTHONIOENCODING="ascii", PYTHONUTF8="0")
    return env


def test_console_script_reads_stdin_and_writes_utf8(tmp_path):
    proc = subprocess.run(
        [*_script(), "check", "-", "d4 +c3"],
        input=START.encode(),
        capture_output=True,
        env=_env(),
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout.decode("utf-8")  # strict: must be valid UTF-8
    assert out.splitlines()[0].startswith("Illegal:")
    assert "✗ Step 1/2: Place" in out and "✓ Before the turn" in out and "– Step 1/2: Place" in out
    assert proc.stderr == b""


def test_console_script_bad_input_and_legal_exit_codes(tmp_path):
    bad = subprocess.run(
        [*_script(), "check", START, "c3 +h9"], capture_output=True, env=_env(), cwd=tmp_path, timeout=60
    )
    assert bad.returncode == 2 and bad.stdout == b""
    err = bad.stderr.decode("utf-8")
    assert err.count("\n") == 1 and err.startswith(PREFIX) and "h9 is not a cell" in err
    ok = subprocess.run(
        [*_script(), "replay", "-"],
        input=b"c3 +d4\ne5 +d4\n",
        capture_output=True,
        env=_env(),
        cwd=tmp_path,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.decode("utf-8").splitlines()[:2] == ["1. A c3 +d4 ✓", "2. B e5 +d4 ✓"]


def test_python_dash_m(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "checker.tools.cli", "validate", BROKEN, "--json"],
        capture_output=True,
        cwd=Path(__file__).resolve().parents[1],
        timeout=60,
    )
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["consistent"] is False


# -- vectors: another implementation's answers checked against the shipped vectors --------------


def _vectors():
    from checker.tools.vectors import read_vectors

    return read_vectors()


def test_vectors_prints_the_shipped_file(capsys):
    from importlib import resources

    assert main(["vectors"]) == 0
    shipped = resources.files("checker.data").joinpath("vectors.jsonl").read_text(encoding="utf-8")
    assert capsys.readouterr().out.splitlines() == shipped.splitlines()


def test_vectors_answers_that_agree_exit_0(tmp_path, capsys):
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "\n".join(json.dumps({k: v[k] for k in ("id", "legal", "violations", "after", "game")}) for v in _vectors()),
        encoding="utf-8",
    )
    assert main(["vectors", "--answers", str(answers)]) == 0
    n = len(_vectors())
    assert capsys.readouterr().out.strip() == f"{n} of {n} vectors agree"


def test_vectors_answers_that_differ_or_are_missing_exit_1(tmp_path, capsys):
    vs = _vectors()
    first, second = vs[0], vs[1]
    wrong = {"id": first["id"], "legal": not first["legal"], "violations": first["violations"]}
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps(wrong) + "\n", encoding="utf-8")
    assert main(["vectors", "--answers", str(answers)]) == 1
    out = capsys.readouterr().out
    assert f"{first['id']}: legal: expected {json.dumps(first['legal'])}" in out
    assert f"{second['id']}: no answer" in out
    assert out.strip().endswith(f"0 of {len(vs)} vectors agree")


def test_vectors_answers_bad_json_is_bad_input(tmp_path, capsys):
    answers = tmp_path / "answers.jsonl"
    answers.write_text("{not json\n", encoding="utf-8")
    assert main(["vectors", "--answers", str(answers)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ANSWERS line 1" in err
