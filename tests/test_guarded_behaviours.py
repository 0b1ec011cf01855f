"""Behaviours of the notation, the score sheet, the Shape mandate's message and
the perft estimate that no other test held (issue 33): each test here fails
when its behaviour is broken."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from checker import board
from checker.counting import estimate_expansions
from checker.extras import public_origin
from checker.legality import check
from checker.notation import START_HPN, NotationError, parse_hpn, parse_htn
from checker.scoresheet import ScoreSheetError, read_score_sheet
from tests.helpers import build

ROOT = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------- HPN numbers ---

LARGEST = "9" * 9  # the parser reads a number of at most 9 digits (checker/notation.py)
PAST = "1" + "0" * 9  # the least number with 10 digits

_START_PLAYER = "7:3:6:0:0:-:-"  # a player of the start position
_NAMES = ("reserve", "charges", "lowers_left", "captures", "raises")


def _player(n: int, value: str) -> str:
    parts = _START_PLAYER.split(":")
    parts[n] = value
    return ":".join(parts)


def _hpn_with(field: tuple[str, int], value: str) -> str:
    who, n = field
    board_, to_move, a, b, half = START_HPN.split(" ")
    if who == "half-moves":
        half = value
    elif who == "A":
        a = _player(n, value)
    else:
        b = _player(n, value)
    return " ".join((board_, to_move, a, b, half))


FIELDS = [(who, n) for who in ("A", "B") for n in range(5)] + [("half-moves", 0)]
"""Every number of an HPN position: a player's n-th number, or the half-move count."""


def _value(position, field: tuple[str, int]) -> int:
    who, n = field
    if who == "half-moves":
        return position.half_moves
    return getattr(position.player(who), _NAMES[n])


@pytest.mark.parametrize("field", FIELDS, ids=lambda f: f"{f[0]}-{f[1]}")
def test_an_hpn_number_of_nine_digits_is_read_and_ten_digits_are_explained(field):
    position = parse_hpn(_hpn_with(field, LARGEST))
    assert _value(position, field) == int(LARGEST)
    for past in (PAST, "0" * 9 + "1"):  # ten digits, also when the number they write is small
        with pytest.raises(NotationError) as caught:
            parse_hpn(_hpn_with(field, past))
        who, n = field
        if who == "half-moves":
            assert caught.value.message == f"the half-move count {past} has 10 digits; a number has at most 9"
            assert caught.value.where == "half-moves"
        else:
            assert caught.value.message == f"{who}'s {_NAMES[n]} {past} has 10 digits; a number has at most 9"
            assert caught.value.where == f"player {who}"


def test_a_nine_digit_count_that_parses_is_then_explained_by_consistency():
    """Read, a number too large for a game is a D-3 problem naming it (RULES §2: a reserve is 0–7)."""
    position = parse_hpn(_hpn_with(("A", 0), LARGEST))
    problems = {p.rule: p.message for p in position.problems()}
    assert "position.range" in problems and LARGEST in problems["position.range"]
    assert "reserve" in problems["position.range"]


# ---------------------------------------------------------------- score sheet ---


@pytest.mark.parametrize(
    "sheet, line, text",
    [
        ("1. c3 +d4 e5 +d4 b2 +b3", 1, "b2 +b3"),
        ("1. c3 +d4 e5 +d4 b2 +b3 c1 +c2", 1, "b2 +b3"),  # a fourth turn too: the first turn too many
        ("1. c3 +d4 e5 +d4\n2. b2 +b3 c1 +c2 c5 -c5 *d4", 2, "c5 -c5 *d4"),
        ("1. c3 e5; 2... b2 c1 c5", 1, "c5"),
    ],
)
def test_an_entry_with_one_turn_too_many_names_that_turn(sheet, line, text):
    """An entry holds at most two turns (A's and B's); the error names the third, where it starts."""
    with pytest.raises(ScoreSheetError) as caught:
        read_score_sheet(sheet)
    err = caught.value
    row = sheet.split("\n")[line - 1]
    assert (err.line, err.text) == (line, text)
    assert err.column == row.rindex(text) + 1 if sheet.count(text) == 1 else row.index(text) + 1
    assert err.message.startswith(f"line {line}, column {err.column} ({text!r}): an entry holds at most two turns")


# -------------------------------------------------------- the Shape mandate ---


def _axial(name: str) -> tuple[int, int]:
    return "abcdefg".index(name[0]), int(name[1]) - 1


def _steps(a: str, b: str) -> int:
    """Hex distance on the board's coordinates (RULES §1: row and column, |row − column| ≤ 3): the
    neighbours differ by one row, one column, or one of each in the same direction."""
    (r1, c1), (r2, c2) = _axial(a), _axial(b)
    dr, dc = r2 - r1, c2 - c1
    return max(abs(dr), abs(dc), abs(dr - dc))


def _nearest(cells: dict[str, str], landing: str, me: str) -> tuple[str, int, int]:
    """The mandating Shape the message must name, by docs/rules.md: fewest steps from the landing cell,
    then board order (a1 … g7); and how many mandating Shapes there are (all raises here: tier 0)."""
    free = []
    for name in board.NAMES:
        d = _steps(landing, name)
        state = cells.get(name, "0")
        if name != landing and d <= 2 and me not in state and "*" not in state and state[0] in "01":
            free.append((d, board.NAMES.index(name), name))
    d, _, name = min(free)
    return name, d, len(free)


@pytest.mark.parametrize(
    "cells",
    [
        # every neighbour of d4 holds A's stone: the nearest mandating Shapes are 2 steps away
        {"c3": "0A", "c4": "0A", "d3": "0A", "d5": "0A", "e4": "0A", "e5": "0A"},
        # e5 is free: 1 step beats the earlier cells of the board 2 steps away
        {"c3": "0A", "c4": "0A", "d3": "0A", "d5": "0A", "e4": "0A", "e6": "0B"},
        # the first cells 2 steps away in board order are locked or A's: the next one is named
        {"c3": "0A", "c4": "0A", "d3": "0A", "d5": "0A", "e4": "0A", "e5": "0A", "b2": "0A", "b3": "2*"},
    ],
)
def test_the_shape_mandate_names_the_nearest_mandating_shape(cells):
    position = build(cells, to_move="A", A={"placed": True})
    verdict = check(position, parse_htn("d4"))
    assert "shape.mandate" in verdict.violations
    mandate = next(c for c in verdict.checks if c.rule == "shape.mandate")
    name, d, count = _nearest(cells, "d4", "A")
    steps = "1 step" if d == 1 else f"{d} steps"
    assert mandate.shows.startswith(f"+{name} is legal ({name}: {steps} from the landing cell d4, Tier 0, ")
    assert mandate.shows.endswith(f"; {count} such Shapes in all") and mandate.cells == (name,)


# ------------------------------------------------------------- perft estimate ---

MIDGAME = "1000/0020A1/1B1A1B11B0A/1122A*11B1/0A2A1B022/02*000/0B01B0 A 1:2:5:0:19:PL:c3 0:2:1:1:15:PL:- 40"


def _estimate_elsewhere(hpn: str, depth: int, hash_seed: str) -> float:
    code = (
        "from checker.counting import estimate_expansions; from checker.notation import parse_hpn; "
        f"print(repr(estimate_expansions(parse_hpn({hpn!r}), {depth})))"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout)


def test_the_perft_estimate_is_the_same_for_the_same_position_and_depth():
    """Seeded from the position and the depth: the same in this process, again, from an equal position
    parsed afresh, and in processes whose string hashes are salted differently; another depth or
    position is another estimate."""
    start = parse_hpn(START_HPN)
    for hpn in (MIDGAME, START_HPN):
        first = estimate_expansions(parse_hpn(hpn), 4)
        assert estimate_expansions(parse_hpn(hpn), 4) == first
    here = estimate_expansions(parse_hpn(MIDGAME), 5)
    assert {_estimate_elsewhere(MIDGAME, 5, seed) for seed in ("1", "2")} == {here}
    assert estimate_expansions(start, 3) != estimate_expansions(start, 4)


# ---------------------------------------------------------- HEXODIC_PUBLIC_URL ---

NOT_AN_ORIGIN = "is not allowed: an origin such as https://check.hexodic.example (scheme, host, optional port; no path)"


@pytest.mark.parametrize(
    "raw, origin",
    [
        ("https://check.hexodic.example", "https://check.hexodic.example"),
        (" https://check.hexodic.example/ ", "https://check.hexodic.example"),  # spaces and one trailing '/' dropped
        ("http://localhost:8080/", "http://localhost:8080"),
        ("\thttp://127.0.0.1:5000\n", "http://127.0.0.1:5000"),
        ("", None),
        ("  \t ", None),
    ],
)
def test_the_public_url_is_read_as_an_origin(raw, origin):
    assert public_origin(raw) == origin


@pytest.mark.parametrize(
    "raw",
    [
        "https://x.org/path",
        "https://x.org//",  # one trailing '/' is dropped, not two
        "/https://x.org",
        "ftp://x.org",
        "https://",
        "check.hexodic.example",
        "https://x.org:123456",
        "https://x.org?q=1",
    ],
)
def test_a_public_url_that_is_not_an_origin_is_refused_in_one_line_naming_the_variable(raw):
    with pytest.raises(ValueError) as caught:
        public_origin(raw)
    assert str(caught.value) == f"HEXODIC_PUBLIC_URL={raw!r} {NOT_AN_ORIGIN}"
