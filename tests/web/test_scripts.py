"""The page scripts (checker/web/static/*.js), issue 35, points 3 and 4.

- Their pure parts have tests of their own under tests/js/, run here with Node's
  built-in runner (``node --test``); each file must report every test passed.
- Nothing the rules decide is written in a script: no rule id, no decided reading
  (D-n), no pattern that reads a cell, a turn or a position (a regular expression
  with a character class of letters or digits), and none of the rules' numbers
  (stones per player, charges, lowering budget, the half-move limit, the
  notation's lengths, the batch limit).  The server reads notation and says
  whether a turn is legal; the scripts send what the user did.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from checker import board
from checker.catalogue import RULES
from checker.position import MAX_HALF_MOVES, START_CHARGES, START_LOWERS, STONES_PER_PLAYER
from schemas.fields import MAX_HPN_LENGTH, MAX_HTN_LENGTH
from schemas.requests import MAX_BATCH
from tests.helpers import POSITION_RULES, TURN_RULES
from tests.web.test_contract_lints import ROOT, node_tool

STATIC = ROOT / "checker" / "web" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))
JS_TESTS = sorted((ROOT / "tests" / "js").glob("*.test.mjs"))
DRAWING = {"board.js"}  # the board's drawing code: label sizes and offsets in SVG units
DISPLAY = ("SHOWN_IDS", "TYPING_MS")  # the page's own named numbers: how many ids a line shows, a pause


def _node() -> str:
    node_tool("tsc")  # skips (or fails under HEXODIC_REQUIRE_NODE) when the Node tools are missing
    found = shutil.which("node")
    assert found
    return found


def test_there_are_scripts_and_script_tests():
    assert {p.name for p in SCRIPTS} >= {"playground.js", "board.js", "calls.js", "game.js", "share.js", "turn.js"}
    assert {p.name for p in JS_TESTS} >= {"board.test.mjs", "calls.test.mjs", "game.test.mjs", "turn.test.mjs"}


@pytest.mark.parametrize("test_file", JS_TESTS, ids=lambda p: p.name)
def test_node_test_runner_passes(test_file: Path):
    """``node --test`` on one file of tests/js, reporting in TAP: some tests ran, none failed."""
    proc = subprocess.run(
        [_node(), "--test", "--test-reporter=tap", str(test_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    counts = dict(re.findall(r"^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$", proc.stdout, re.M))
    assert proc.returncode == 0 and counts.get("fail") == "0", proc.stdout[-4000:] + proc.stderr[-2000:]
    assert int(counts["tests"]) > 0 and counts["tests"] == counts["pass"], counts
    assert "MODULE_TYPELESS_PACKAGE_JSON" not in proc.stderr, "package.json should say the scripts are ES modules"


def test_package_json_says_the_scripts_are_modules():
    assert json.loads((ROOT / "package.json").read_text())["type"] == "module"


def _code(path: Path) -> str:
    """The script without its comments and its DISPLAY constants' declarations: what it does, not
    what it says about the server."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(rf"(?m)^export const (?:{'|'.join(DISPLAY)}) = \d+;", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?m)(^|[^:\\])//.*$", r"\1", text)


def _rule_ids() -> set[str]:
    return set(TURN_RULES) | set(POSITION_RULES) | set(RULES)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_rule_id_or_decided_reading_in_a_script(script: Path):
    text = script.read_text(encoding="utf-8")
    named = sorted(i for i in _rule_ids() if re.search(rf"(?<![\w.-]){re.escape(i)}(?![\w-])", text))
    assert not named, f"{script.name} names rule ids {named}: the server names the rules"
    assert not re.search(r"\bD-\d+\b", text), f"{script.name} cites a decided reading"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_notation_pattern_in_a_script(script: Path):
    """No regular expression with a character class or escape that reads letters or digits: a cell
    (``[a-g][1-7]``), an HTN turn or an HPN field would need one."""
    code = _code(script)
    literals = re.findall(
        r"(?:^|[=(,:!&|?;{}]|return)\s*/((?:\\.|\[(?:\\.|[^\]])*\]|[^/\n\\])+)/[dgimsuvy]*", code, re.M
    )
    literals += re.findall(r"RegExp\(\s*(\"[^\"]*\"|'[^']*'|`[^`]*`)", code)
    reading = [p for p in literals if re.search(r"\[[^\]]*(a-|[0-9]-|\\d|\\w)|\\d|\\w|\\b", p)]
    assert not reading, f"{script.name} has patterns that read notation: {reading}"


def _limits() -> set[int]:
    return {
        STONES_PER_PLAYER,
        START_CHARGES,
        START_LOWERS,
        MAX_HALF_MOVES,
        board.CELL_COUNT,
        MAX_HPN_LENGTH,
        MAX_HTN_LENGTH,
        MAX_BATCH,
    }


@pytest.mark.parametrize("script", [p for p in SCRIPTS if p.name not in DRAWING], ids=lambda p: p.name)
def test_no_rule_number_in_a_script(script: Path):
    """The rules' numbers come from the server (the position's view, the problem's words); the
    drawing's code (board.js) is left out, as its numbers are SVG sizes."""
    numbers = {int(n) for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", _code(script))}
    found = sorted(numbers & _limits() - {0, 1, 2})
    assert not found, f"{script.name} writes the rules' numbers {found}"


def test_the_number_check_sees_a_limit(tmp_path):
    """The checks above find what they look for (each fed a script that breaks it)."""
    bad = tmp_path / "bad.js"
    bad.write_text(
        'const LIMIT = 60; // the half-move limit\nconst CELL = /^[a-g][1-7]$/;\nif (x === "place.cooldown") y();\n'
    )
    numbers = {int(n) for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", _code(bad))}
    assert MAX_HALF_MOVES in numbers & _limits()
    with pytest.raises(AssertionError, match="read notation"):
        test_no_notation_pattern_in_a_script(bad)
    with pytest.raises(AssertionError, match="names rule ids"):
        test_no_rule_id_or_decided_reading_in_a_script(bad)
