"""The engine protocol spoken by the checker (checker/tools/protocol.py,
``hexodic-check engine``): each op, each refusal, and the line loop."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from checker.generate import legal_turns
from checker.notation import parse_htn
from checker.position import Position
from checker.tools.protocol import handle, serve

START = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
# After A's "c3 +d4" (RULES §4, §5): A's stone on c3 (row c, 3rd cell), d4 raised to Tier 1, A has 6 in
# reserve, 1 raise and the first Place made; B to move at half-move 1.
AFTER_C3_D4 = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"
# Inconsistent: A has a stone on c3 and still 7 in reserve (position.stone-count, position.unplaced ...).
BROKEN = "0000/00000/000A000/0001000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 1"


def test_hello():
    answer = handle({"id": 1, "op": "hello"})
    assert answer["id"] == 1 and answer["protocol"] == 1
    assert answer["ops"] == ["legal-turns", "play", "check"]
    assert "hexodic-checker" in answer["name"]


def test_legal_turns_of_the_start():
    answer = handle({"id": "a", "op": "legal-turns", "position": START})
    # 36 Places (not the centre d4) with a raise of a cell within 2 steps: 480 (tests/test_perft.py)
    assert answer["id"] == "a" and len(answer["turns"]) == 480 == len(set(answer["turns"]))
    assert {parse_htn(t) for t in answer["turns"]} == set(legal_turns(Position.start()))
    assert "d4 +d4" not in answer["turns"] and "c3 +d4" in answer["turns"]


def test_play():
    assert handle({"id": 2, "op": "play", "position": START, "turn": "C3  +D4"}) == {"id": 2, "position": AFTER_C3_D4}
    refused = handle({"id": 3, "op": "play", "position": START, "turn": "d4 +c3"})
    assert refused == {"id": 3, "error": "the turn d4 +c3 is not legal (place.opening-restriction)"}


def test_check_with_and_without_history():
    assert handle({"id": 4, "op": "check", "position": START, "turn": "c3 +d4", "history": []}) == {
        "id": 4,
        "legal": True,
        "violations": [],
    }
    # a Place on d4 that is also out of Shape range: both violations reported (D-14)
    answer = handle({"id": 5, "op": "check", "position": START, "turn": "d4 +a1", "history": None})
    assert answer == {"id": 5, "legal": False, "violations": ["place.opening-restriction", "shape.range"]}


def test_refusals_name_what_is_wrong():
    assert (
        handle({"id": 6, "op": "fly"})["error"] == "unknown op 'fly'; the ops are hello, legal-turns, play, check, quit"
    )
    assert handle({"id": 7, "op": "legal-turns"})["error"] == "position: expected an HPN string, not null"
    assert handle({"id": 8, "op": "legal-turns", "position": "0000 A"})["error"].startswith(
        "position: an HPN position has 5"
    )
    broken = handle({"id": 9, "op": "legal-turns", "position": BROKEN})["error"]
    assert broken.startswith("position: not a consistent position: [position.stone-count]")
    assert (
        handle({"id": 10, "op": "play", "position": START, "turn": 5})["error"]
        == "turn: expected an HTN string, not a number"
    )
    assert (
        handle({"id": 11, "op": "check", "position": START, "turn": "c3 +d4", "history": "x"})["error"]
        == "history: expected a list of HPN strings or null, not a string"
    )
    assert handle([1, 2]) == {"id": None, "error": "a request is a JSON object with an id and an op"}
    assert handle({"op": "hello"}) == {"id": None, "error": "a request is a JSON object with an id and an op"}


def test_serve_answers_line_by_line_until_quit():
    lines = [
        json.dumps({"id": 1, "op": "hello"}),
        "",
        "not json",
        json.dumps({"id": 2, "op": "play", "position": START, "turn": "c3 +d4"}),
        json.dumps({"id": 3, "op": "quit"}),
        json.dumps({"id": 4, "op": "hello"}),
    ]
    out = io.StringIO()
    assert serve(io.StringIO("\n".join(lines) + "\n"), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, None, 2]  # the blank line unanswered, nothing after quit
    assert answers[1]["error"].startswith("not a JSON line:")
    assert answers[2]["position"] == AFTER_C3_D4


def test_the_command_ends_at_the_end_of_input():
    proc = subprocess.run(
        [sys.executable, "-m", "checker.tools.cli", "engine"],
        timeout=60,
        capture_output=True,
        input=(json.dumps({"id": 1, "op": "legal-turns", "position": AFTER_C3_D4}) + "\n").encode(),
    )
    assert proc.returncode == 0 and proc.stderr == b""
    (answer,) = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert answer["id"] == 1 and "e5 +e4" in answer["turns"]
