"""Tests for ``checker.legality.check``: every rule id of RULES §9 that a turn
is judged by, passing and failing, with the facts its message must carry.

Every expected value below is worked out by hand from RULES.md.  Cells are
(row, column) with a=1 … g=7; steps between two cells are
max(|di|, |dj|, |di − dj|) (RULES §1), written out in the comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from checker.catalogue import RULE_IDS, RULES
from checker.legality import InconsistentPosition, check, validate
from checker.position import Position
from checker.turn import Place, Shape, Turn
from tests.helpers import TURN_RULES, C, P, T, build

STEP_PLACE = "Step 1/2: Place"
STEP_MOVE = "Step 1/2: Move"
STEP_SHAPE = "Step 2/2: Shape"
STEP_ECHO = "Step 3: Echo (optional)"


# RULES §9: the `more` link of each family of ids.
MORE = {
    "game.over": "https://hexodic.com/rules/game-end",
    "project.skip": "https://hexodic.com/rules/project",
    "place": "https://hexodic.com/rules/project",
    "move": "https://hexodic.com/rules/project",
    "shape": "https://hexodic.com/rules/shape",
    "echo.charge": "https://hexodic.com/rules/echo",
    "echo-capture": "https://hexodic.com/rules/echo-capture",
    "echo-lock": "https://hexodic.com/rules/lock",
}


def more_for(rule: str) -> str:
    return MORE.get(rule) or MORE[rule.split(".")[0]]


# ------------------------------------------------------------ helpers --


def the(verdict, rule):
    """The one check of ``rule`` in ``verdict`` (it must appear exactly once)."""
    found = [c for c in verdict.checks if c.rule == rule]
    assert len(found) == 1, f"{rule} appears {len(found)} times in {[c.rule for c in verdict.checks]}"
    return found[0]


def has_fact(message: str, fact: str) -> bool:
    """``fact`` (a cell, a number, a word or a phrase) occurs in ``message`` as
    a whole token, case-insensitively."""
    return re.search(r"(?<![\w])" + re.escape(fact) + r"(?![\w])", message, re.IGNORECASE) is not None


def assert_facts(message: str, facts) -> None:
    for f in facts:
        assert has_fact(message, f), f"{f!r} not in message {message!r}"


def rules_of(verdict):
    return [c.rule for c in verdict.checks]


SHAPE_TOKEN = re.compile(r"(?<![\w+-])([+-])([a-g][1-7])(?!\w)")


# ---------------------------------------------------------- positions --

START = Position.start()

# Shape tests.  A to move with 4 lowers left; c4 tier 2 (empty), c5 tier 1,
# b2 tier 0, d4 tier 2 holding B's stone and locked (B's Echo-Lock).
SHAPE_POS = build({"a1": "0A", "c4": "2", "c5": "1", "d4": "2B*"}, A={"lowers_left": 4})
SHAPE_POS_NO_LOWERS = build({"a1": "0A", "c4": "2", "c5": "1", "d4": "2B*"}, A={"lowers_left": 0})

# Move tests.  A has all 7 stones on the board (reserve 0).  d4 is tier 1
# holding A; its neighbours: d3 (A, tier 0), d5 (empty), c4 (B, tier 0),
# e4 (empty), c3 (B, tier 1), e5 (empty, tier 2, locked by B's Echo-Lock).
MOVE_POS = build(
    {
        "d4": "1A",
        "d3": "0A",
        "a1": "0A",
        "a2": "0A",
        "g6": "0A",
        "g7": "0A",
        "f7": "0A",
        "c4": "0B",
        "c3": "1B",
        "b5": "0B",
        "e5": "2*",
    },
    A={"echo_lock_used": False},
    B={"echo_lock_used": True},
)

# Cooldown tests.  A's cooldown is {d4}: the cells closer than 2 steps are
# d4 and its six neighbours c3, c4, d3, d5, e4, e5 (all empty here).
# Cells A may Place on: 37 − 2 stones (a1, g7, both 3 steps from d4) − 7 = 28.
COOLDOWN_D4 = build({"a1": "0A", "g7": "0B"}, A={"cooldown": ["d4"]}, B={"captures": 1}, half_moves=4)

# A's cooldown is {a1, g7}; d4 holds A's stone; B on b2 and e5.
COOLDOWN_CORNERS = build({"d4": "0A", "b2": "0B", "e5": "0B"}, A={"cooldown": ["a1", "g7"]}, B={"captures": 2})

# A cooldown skip (RULES §4, D-4).  The cooldown {a3, c2, d5, f4, g7} excludes
# every cell within 1 step of one of them:
#   a3 -> a2 a3 a4 b3 b4; c2 -> b1 b2 c1 c2 c3 d2 d3; d5 -> c4 c5 d4 d5 d6 e5 e6;
#   f4 -> e3 e4 f3 f4 f5 g4 g5; g7 -> f6 f7 g6 g7
# = 5 + 7 + 7 + 7 + 4 = 30 cells; the other 7 (a1 b5 c6 d1 d7 e2 e7) hold B's
# stones.  So no cell is free for a Place with the cooldown, while e.g. a2 is
# empty and unlocked, so a Place would be legal ignoring it: the skip applies.
# A has 3 stones in reserve; A's d4 is tier 2 (Echo-Lock target); B's e2 is
# tier 1, its neighbours e3 (A), d2 (A), d1 (B), f3 (A): sealed, in contact
# with A (Echo-Capture target).
SKIP_POS = build(
    {
        "a1": "0B",
        "b5": "0B",
        "c6": "0B",
        "d1": "0B",
        "d7": "0B",
        "e2": "1B",
        "e7": "0B",
        "d4": "2A",
        "d2": "0A",
        "e3": "0A",
        "f3": "0A",
    },
    A={"cooldown": ["a3", "c2", "d5", "f4", "g7"]},
    B={"captures": 5},
    half_moves=18,
)

# Echo-Capture tests.  B's d4 is tier 1; its neighbours d3, d5, c4, e4, c3
# hold A's stones and e5 holds B's: sealed, in contact.  B's a1 is tier 1 with
# neighbours a2, b1, b2 all B's: sealed but no A stone adjacent.
_ECHO_CELLS = {
    "d4": "1B",
    "e5": "0B",
    "c3": "0A",
    "c4": "0A",
    "d3": "0A",
    "d5": "0A",
    "e4": "0A",
    "a1": "1B",
    "a2": "0B",
    "b1": "0B",
    "b2": "0B",
}
ECHO_POS = build(_ECHO_CELLS)
ECHO_POS_NO_CHARGES = build(_ECHO_CELLS, A={"charges": 0})
ECHO_POS_OPEN = build({k: v for k, v in _ECHO_CELLS.items() if k != "e4"})  # e4 empty
ECHO_POS_TIER0 = build({**_ECHO_CELLS, "d4": "0B"})  # d4 tier 0

# Echo-Lock tests.  A's c3 is tier 2, A's c4 tier 1, B's d4 tier 2.
_LOCK_CELLS = {"c3": "2A", "c4": "1A", "d4": "2B", "e6": "0B"}
LOCK_POS = build(_LOCK_CELLS)
LOCK_POS_USED = build({**_LOCK_CELLS, "f6": "2A*"})  # A has Echo-Locked f6 already
# f6 holds A's stone and is locked by B's Echo-Lock (A moved onto it, say).
LOCK_POS_LOCKED_BY_B = build({**_LOCK_CELLS, "f6": "2A*"}, A={"echo_lock_used": False}, B={"echo_lock_used": True})

# An empty locked cell c1, for place.unlocked.
LOCKED_EMPTY = build({"c1": "2*", "g7": "0A", "e5": "0B"})

# shape.mandate passes: every cell within 2 steps of a1 (a1 a2 a3 b1 b2 b3 c1
# c2 c3: di, dj in {0, 1, 2}) except a1 is tier 2, c1 is locked, and A has no
# lowers left.  After the Place a1 holds A's own stone.
_MANDATE_CELLS = {
    "a2": "2",
    "a3": "2",
    "b1": "2",
    "b2": "2",
    "b3": "2",
    "c1": "2*",
    "c2": "2",
    "c3": "2",
    "g7": "0A",
    "e5": "0B",
}
MANDATE_FREE = build(_MANDATE_CELLS, A={"lowers_left": 0})
MANDATE_ONE_LOWER = build(_MANDATE_CELLS, A={"lowers_left": 1})

# shape.mandate on the board after a Move.  A's reserve is empty; the cells
# within 2 steps of a1 other than a1 and b2 are tier 2; A has no lowers left.
_AROUND_A1 = {
    "a2": "2",
    "a3": "2",
    "b1": "2",
    "b3": "2",
    "c1": "2",
    "c2": "2",
    "c3": "2",
    "f6": "0A",
    "f7": "0A",
    "g4": "0A",
    "g5": "0A",
    "g6": "0A",
    "g7": "0A",
    "e3": "0B",
    "d7": "0B",
}
# b2 tier 1 with A's stone, a1 empty: after b2-a1, b2 is empty and tier 1.
MOVE_MANDATE = build({**_AROUND_A1, "b2": "1A"}, A={"lowers_left": 0})
# b2 tier 2 with A's stone, a1 tier 0 with B's stone: b2xa1 is a Move capture.
MOVE_CAPTURE_MANDATE = build({**_AROUND_A1, "b2": "2A", "a1": "0B"}, A={"lowers_left": 0})

# Game over.  Takeover: A has captured 6 stones.
OVER_TAKEOVER = build({"c3": "0A", "e5": "0B"}, A={"captures": 6})
# Network: B (who just moved; A is to move) has d2 d3 d4 d5 d6 on tier 2,
# a connected row of 5.
OVER_NETWORK = build({"d2": "2B", "d3": "2B", "d4": "2B", "d5": "2B", "d6": "2B", "a1": "0A"}, to_move="A")
# The same shape for A, the player to move: not a finished game (D-13).
A_NETWORK_TO_MOVE = build({"d2": "2A", "d3": "2A", "d4": "2A", "d5": "2A", "d6": "2A", "g7": "0B"}, to_move="A")
# Strangle: A's 7 stones a1 a2 a3 b1 b2 b3 c1 are surrounded by B's 7 stones
# on their only other neighbours a4 b4 c2 c3 c4 d1 d2 (a1: a2 b1 b2; a2: a1 a3
# b2 b3; a3: a2 a4 b3 b4; b1: a1 b2 c1 c2; b2: a1 a2 b1 b3 c2 c3; b3: a2 a3 b2
# b4 c3 c4; c1: b1 c2 d1 d2), all tier 0: no Move to an empty cell and no
# Move capture (equal tiers); reserve 0 -> no legal Project.
_STRANGLE_CELLS = {
    "a1": "0A",
    "a2": "0A",
    "a3": "0A",
    "b1": "0A",
    "b2": "0A",
    "b3": "0A",
    "c1": "0A",
    "a4": "0B",
    "b4": "0B",
    "c2": "0B",
    "c3": "0B",
    "c4": "0B",
    "d1": "0B",
    "d2": "0B",
}
OVER_STRANGLE = build(_STRANGLE_CELLS)
# Tiebreak: half-move 60 has been played.
OVER_TIEBREAK = build({"c3": "0A", "e5": "0B"}, half_moves=60)


def test_positions_are_as_described():
    """The fixtures say what the comments say (guards the hand arithmetic)."""
    assert SKIP_POS.player("A").reserve == 3 and SKIP_POS.player("A").cooldown
    assert MOVE_POS.player("A").reserve == 0 and MOVE_MANDATE.player("A").reserve == 0
    assert MOVE_CAPTURE_MANDATE.player("A").reserve == 0
    assert OVER_STRANGLE.player("A").reserve == 0 and OVER_STRANGLE.to_move == "A"
    assert OVER_NETWORK.to_move == "A" and OVER_NETWORK.half_moves >= 1
    assert OVER_TIEBREAK.half_moves == 60 and OVER_TIEBREAK.to_move == "A"
    assert LOCK_POS_LOCKED_BY_B.player("B").echo_lock_used and not LOCK_POS_LOCKED_BY_B.player("A").echo_lock_used
    assert MANDATE_FREE.player("A").lowers_left == 0 and MANDATE_FREE.locked[C("c1")]
    for pos in (
        START,
        SHAPE_POS,
        MOVE_POS,
        COOLDOWN_D4,
        COOLDOWN_CORNERS,
        SKIP_POS,
        ECHO_POS,
        LOCK_POS,
        MANDATE_FREE,
        MOVE_MANDATE,
        MOVE_CAPTURE_MANDATE,
        OVER_TAKEOVER,
        OVER_NETWORK,
        OVER_STRANGLE,
        OVER_TIEBREAK,
    ):
        assert pos.problems() == []


# ------------------------------------------------------- the big table --


@dataclass(frozen=True)
class Case:
    name: str
    pos: Position
    htn: str
    rule: str
    status: str
    cells: tuple = ()  # cells the check must name
    facts: tuple = ()  # tokens its message must contain
    legal: bool | None = None  # the whole verdict, when known


PASSED, FAILED, NA = "passed", "failed", "not_applicable"

CASES = [
    # game.over ----------------------------------------------------------
    Case("game.over/start", START, "c3 +d4", "game.over", PASSED, (), ("60",), True),
    Case("game.over/takeover", OVER_TAKEOVER, "b2 +b2", "game.over", FAILED, (), ("takeover", "6"), False),
    Case(
        "game.over/network",
        OVER_NETWORK,
        "g7 +g7",
        "game.over",
        FAILED,
        (),
        ("network", "5", "d2", "d3", "d4", "d5", "d6"),
        False,
    ),
    Case("game.over/strangle", OVER_STRANGLE, "a1-a2", "game.over", FAILED, (), ("strangle",), False),
    Case("game.over/tiebreak", OVER_TIEBREAK, "b2 +b2", "game.over", FAILED, (), ("tiebreak", "60"), False),
    # D-13: only the player who just moved; A is to move here.
    Case("game.over/mover-network-is-not-over", A_NETWORK_TO_MOVE, "a1 +a1", "game.over", PASSED, (), (), True),
    # project.skip -------------------------------------------------------
    Case(
        "project.skip/skip-applies",
        SKIP_POS,
        "skip",
        "project.skip",
        PASSED,
        ("a3", "c2", "d5", "f4", "g7"),
        ("a3", "c2", "d5", "f4", "g7"),
        True,
    ),
    # the cooldown {d4} leaves 28 cells, so a Place is right and the skip is not
    Case("project.skip/place-with-cooldown", COOLDOWN_D4, "b2 +b2", "project.skip", PASSED, ("d4",), ("28",), True),
    Case(
        "project.skip/place-when-skip-applies",
        SKIP_POS,
        "a2 +a2",
        "project.skip",
        FAILED,
        ("a3", "c2", "d5", "f4", "g7"),
        ("skipped",),
        False,
    ),
    Case("project.skip/skip-without-cooldown", START, "skip", "project.skip", FAILED, (), ("cooldown",), False),
    Case(
        "project.skip/skip-with-places-left", COOLDOWN_D4, "skip", "project.skip", FAILED, ("d4",), ("28", "d4"), False
    ),
    # place.* ------------------------------------------------------------
    Case("place.reserve/7", START, "c3 +d4", "place.reserve", PASSED, (), ("7",), True),
    Case("place.reserve/empty-reserve", MOVE_POS, "e4 +e4", "place.reserve", FAILED, (), ("reserve", "empty"), False),
    Case("place.empty/empty", START, "c3 +d4", "place.empty", PASSED, ("c3",), ("c3",), True),
    Case("place.empty/enemy", ECHO_POS, "d4 +d4", "place.empty", FAILED, ("d4",), ("d4",), False),
    Case("place.empty/own", ECHO_POS, "c3 +c3", "place.empty", FAILED, ("c3",), ("c3",), False),
    Case("place.unlocked/unlocked", START, "c3 +d4", "place.unlocked", PASSED, ("c3",), ("c3",), True),
    Case("place.unlocked/locked", LOCKED_EMPTY, "c1 +b1", "place.unlocked", FAILED, ("c1",), ("c1", "locked"), False),
    # c3 (3,3) to d4 (4,4): 1 step
    Case(
        "place.opening-restriction/c3",
        START,
        "c3 +d4",
        "place.opening-restriction",
        PASSED,
        ("c3",),
        ("c3", "1", "d4"),
        True,
    ),
    Case(
        "place.opening-restriction/d4",
        START,
        "d4 +c3",
        "place.opening-restriction",
        FAILED,
        ("d4",),
        ("d4", "centre"),
        False,
    ),
    # b2 (2,2) to d4 (4,4): 2 steps
    Case(
        "place.cooldown/2-steps", COOLDOWN_D4, "b2 +b2", "place.cooldown", PASSED, ("b2", "d4"), ("b2", "2", "d4"), True
    ),
    # c3 to d4: 1 step
    Case(
        "place.cooldown/1-step",
        COOLDOWN_D4,
        "c3 +c3",
        "place.cooldown",
        FAILED,
        ("c3", "d4"),
        ("c3", "1 step", "d4"),
        False,
    ),
    Case("place.cooldown/on-the-cell", COOLDOWN_D4, "d4 +d4", "place.cooldown", FAILED, ("d4",), ("d4",), False),
    # c3 (3,3): a1 (1,1) 2 steps, g7 (7,7) 4 steps
    Case(
        "place.cooldown/two-cells-pass",
        COOLDOWN_CORNERS,
        "c3 +c3",
        "place.cooldown",
        PASSED,
        ("c3",),
        ("a1", "2", "g7", "4"),
        True,
    ),
    # f6 (6,6): g7 1 step (too close), a1 5 steps
    Case(
        "place.cooldown/two-cells-fail",
        COOLDOWN_CORNERS,
        "f6 +f6",
        "place.cooldown",
        FAILED,
        ("f6", "g7"),
        ("f6", "g7", "1 step"),
        False,
    ),
    # move.* -------------------------------------------------------------
    Case("move.reserve-empty/empty", MOVE_POS, "d4-d5 +d4", "move.reserve-empty", PASSED, (), ("reserve",), True),
    Case(
        "move.reserve-empty/2-in-reserve",
        ECHO_POS,
        "c3-b3 +c3",
        "move.reserve-empty",
        FAILED,
        (),
        ("2", "reserve"),
        False,
    ),
    Case("move.own-stone/own", MOVE_POS, "d4-d5 +d4", "move.own-stone", PASSED, ("d4",), ("d4",), True),
    Case("move.own-stone/empty", MOVE_POS, "e4-e3 +e4", "move.own-stone", FAILED, ("e4",), ("e4", "empty"), False),
    Case("move.own-stone/enemy", MOVE_POS, "c4-b4 +c4", "move.own-stone", FAILED, ("c4",), ("c4",), False),
    Case("move.adjacent/neighbour", MOVE_POS, "d4-d5 +d4", "move.adjacent", PASSED, ("d4", "d5"), ("d4", "d5"), True),
    # d4 (4,4) to d6 (4,6): 2 steps
    Case(
        "move.adjacent/2-steps",
        MOVE_POS,
        "d4-d6 +d6",
        "move.adjacent",
        FAILED,
        ("d4", "d6"),
        ("d4", "d6", "2 steps"),
        False,
    ),
    Case("move.destination/empty", MOVE_POS, "d4-d5 +d4", "move.destination", PASSED, ("d5",), ("d5",), True),
    Case("move.destination/locked", MOVE_POS, "d4-e5 +d4", "move.destination", PASSED, ("e5",), ("e5", "locked"), True),
    # c4 tier 0 < d4 tier 1: Move capture
    Case(
        "move.destination/capture",
        MOVE_POS,
        "d4xc4 +d4",
        "move.destination",
        PASSED,
        ("c4",),
        ("c4", "0", "d4", "1"),
        True,
    ),
    # c3 tier 1 = d4 tier 1: not strictly lower
    Case(
        "move.destination/equal-tier",
        MOVE_POS,
        "d4xc3 +d4",
        "move.destination",
        FAILED,
        ("c3",),
        ("c3", "d4", "1"),
        False,
    ),
    Case("move.destination/own-stone", MOVE_POS, "d4-d3 +d4", "move.destination", FAILED, ("d3",), ("d3",), False),
    # shape.* ------------------------------------------------------------
    # c5 (3,5) from c3 (3,3): 2 steps
    Case("shape.range/2", SHAPE_POS, "c3 +c5", "shape.range", PASSED, ("c5",), ("c5", "2", "c3"), True),
    Case("shape.range/landing", SHAPE_POS, "c3 +c3", "shape.range", PASSED, ("c3",), ("c3",), True),
    # c6 (3,6) from c3: 3 steps
    Case("shape.range/3", SHAPE_POS, "c3 +c6", "shape.range", FAILED, ("c6", "c3"), ("c6", "3", "c3"), False),
    Case("shape.unlocked/unlocked", SHAPE_POS, "c3 +c3", "shape.unlocked", PASSED, ("c3",), ("c3",), True),
    # d4 is 1 step from c3 and locked
    Case("shape.unlocked/locked", SHAPE_POS, "c3 +d4", "shape.unlocked", FAILED, ("d4",), ("d4", "locked"), False),
    Case("shape.tier-limit/raise-0", SHAPE_POS, "c3 +c3", "shape.tier-limit", PASSED, ("c3",), ("0", "1"), True),
    Case("shape.tier-limit/lower-1", SHAPE_POS, "c3 -c5", "shape.tier-limit", PASSED, ("c5",), ("1", "0"), True),
    # c4 (3,4), 1 step from c3, is tier 2
    Case("shape.tier-limit/raise-2", SHAPE_POS, "c3 +c4", "shape.tier-limit", FAILED, ("c4",), ("c4", "2"), False),
    # b2 (2,2), 1 step from c3, is tier 0
    Case("shape.tier-limit/lower-0", SHAPE_POS, "c3 -b2", "shape.tier-limit", FAILED, ("b2",), ("b2", "0"), False),
    # 4 lowers left; this lower leaves 4 - 1 = 3
    Case("shape.lowering-budget/4-left", SHAPE_POS, "c3 -c5", "shape.lowering-budget", PASSED, (), ("4", "3"), True),
    Case("shape.lowering-budget/raise", SHAPE_POS, "c3 +c3", "shape.lowering-budget", NA, (), ("4",), True),
    Case(
        "shape.lowering-budget/0-left",
        SHAPE_POS_NO_LOWERS,
        "c3 -c5",
        "shape.lowering-budget",
        FAILED,
        (),
        ("0",),
        False,
    ),
    Case("shape.mandate/nothing-to-shape", MANDATE_FREE, "a1", "shape.mandate", PASSED, ("a1",), (), True),
    Case("shape.mandate/start", START, "c3", "shape.mandate", FAILED, (), (), False),
    # after b2-a1, +b2 (b2 empty, tier 1) is the only legal Shape not on A's stone
    Case("shape.mandate/after-move", MOVE_MANDATE, "b2-a1", "shape.mandate", FAILED, ("b2",), ("+b2",), False),
    Case("shape.skipped/no-shape", SKIP_POS, "skip", "shape.skipped", PASSED, (), (), True),
    Case("shape.skipped/shape-given", SKIP_POS, "skip +d4", "shape.skipped", FAILED, ("d4",), ("+d4",), False),
    # echo.charge --------------------------------------------------------
    # 3 charges, one spent leaves 2
    Case("echo.charge/3", ECHO_POS, "g7 +g7 *d4", "echo.charge", PASSED, (), ("3", "2"), True),
    Case("echo.charge/0", ECHO_POS_NO_CHARGES, "g7 +g7 *d4", "echo.charge", FAILED, (), ("charge",), False),
    Case("echo.charge/no-echo", ECHO_POS, "g7 +g7", "echo.charge", NA, (), (), True),
    # echo-capture.* -----------------------------------------------------
    Case("echo-capture.enemy/enemy", ECHO_POS, "g7 +g7 *d4", "echo-capture.enemy", PASSED, ("d4",), ("d4",), True),
    Case("echo-capture.enemy/own", ECHO_POS, "g7 +g7 *c3", "echo-capture.enemy", FAILED, ("c3",), ("c3",), False),
    Case(
        "echo-capture.enemy/empty",
        ECHO_POS,
        "g7 +g7 *g6",
        "echo-capture.enemy",
        FAILED,
        ("g6",),
        ("g6", "empty"),
        False,
    ),
    Case("echo-capture.sealed/sealed", ECHO_POS, "g7 +g7 *d4", "echo-capture.sealed", PASSED, ("d4",), ("d4",), True),
    # e4 is d4's only empty neighbour
    Case(
        "echo-capture.sealed/e4-empty",
        ECHO_POS_OPEN,
        "g7 +g7 *d4",
        "echo-capture.sealed",
        FAILED,
        ("d4", "e4"),
        ("d4", "e4"),
        False,
    ),
    Case("echo-capture.tier/1", ECHO_POS, "g7 +g7 *d4", "echo-capture.tier", PASSED, ("d4",), ("d4", "1"), True),
    Case("echo-capture.tier/0", ECHO_POS_TIER0, "g7 +g7 *d4", "echo-capture.tier", FAILED, ("d4",), ("d4", "0"), False),
    Case(
        "echo-capture.contact/five",
        ECHO_POS,
        "g7 +g7 *d4",
        "echo-capture.contact",
        PASSED,
        ("d4", "c3", "c4", "d3", "d5", "e4"),
        ("c3", "c4", "d3", "d5", "e4"),
        True,
    ),
    Case("echo-capture.contact/none", ECHO_POS, "g7 +g7 *a1", "echo-capture.contact", FAILED, ("a1",), ("a1",), False),
    # echo-lock.* --------------------------------------------------------
    Case("echo-lock.once/first", LOCK_POS, "g7 +g7 #c3", "echo-lock.once", PASSED, (), (), True),
    Case("echo-lock.once/used", LOCK_POS_USED, "g7 +g7 #c3", "echo-lock.once", FAILED, (), (), False),
    Case("echo-lock.own-stone/own", LOCK_POS, "g7 +g7 #c3", "echo-lock.own-stone", PASSED, ("c3",), ("c3",), True),
    Case("echo-lock.own-stone/enemy", LOCK_POS, "g7 +g7 #d4", "echo-lock.own-stone", FAILED, ("d4",), ("d4",), False),
    Case(
        "echo-lock.own-stone/empty",
        LOCK_POS,
        "g7 +g7 #g6",
        "echo-lock.own-stone",
        FAILED,
        ("g6",),
        ("g6", "empty"),
        False,
    ),
    Case("echo-lock.tier/2", LOCK_POS, "g7 +g7 #c3", "echo-lock.tier", PASSED, ("c3",), ("c3", "2"), True),
    Case("echo-lock.tier/1", LOCK_POS, "g7 +g7 #c4", "echo-lock.tier", FAILED, ("c4",), ("c4", "1"), False),
    Case("echo-lock.unlocked/unlocked", LOCK_POS, "g7 +g7 #c3", "echo-lock.unlocked", PASSED, ("c3",), ("c3",), True),
    Case(
        "echo-lock.unlocked/locked",
        LOCK_POS_LOCKED_BY_B,
        "g7 +g7 #f6",
        "echo-lock.unlocked",
        FAILED,
        ("f6",),
        ("f6", "locked"),
        False,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rule(case: Case):
    v = check(case.pos, T(case.htn))
    c = the(v, case.rule)
    assert c.status == case.status, c.message
    assert set(case.cells) <= set(c.cells), (c.cells, c.message)
    assert_facts(c.message, case.facts)
    assert c.message.strip(), "every check has a message"
    assert c.more == more_for(case.rule)
    if case.status == FAILED:
        assert case.rule in v.violations
        assert v.legal is False and v.outcome is None
        assert v.summary.startswith("Illegal:")
    else:
        assert case.rule not in v.violations
    if case.legal is not None:
        assert v.legal is case.legal, v.violations
        if case.legal:
            assert v.violations == [] and v.outcome is not None and v.summary.startswith("Legal:")


def test_table_covers_every_turn_rule_passing_and_failing():
    assert set(TURN_RULES) <= set(RULE_IDS)
    assert {r for r in RULE_IDS if not r.startswith("position.")} == set(TURN_RULES)
    for rule in TURN_RULES:
        statuses = {c.status for c in CASES if c.rule == rule}
        assert {PASSED, FAILED} <= statuses, rule


# ------------------------------------------------------------ game.over --


@pytest.mark.parametrize(
    "pos,reason",
    [
        (OVER_TAKEOVER, "takeover"),
        (OVER_NETWORK, "network"),
        (OVER_TIEBREAK, "tiebreak"),
    ],
)
def test_game_over_still_judges_every_other_check(pos, reason):
    # b3 is empty in every one of these positions: the other checks are
    # judged as on any turn.
    v = check(pos, T("b3 +b3"))
    assert v.violations == ["game.over"]
    assert has_fact(the(v, "game.over").message, reason)
    for rule in ("place.reserve", "place.empty", "place.unlocked", "shape.range", "shape.unlocked", "shape.tier-limit"):
        assert the(v, rule).status == PASSED
    # and a second, independent violation is reported too: b3 (2,3) to e3
    # (5,3) is 3 steps
    v = check(pos, T("b3 +e3"))
    assert v.violations == ["game.over", "shape.range"]


def test_game_over_strangle_still_judges_the_move():
    # +a4: a4 (1,4) is 2 steps from the landing cell a2 (1,2); a Shape may
    # target a cell holding an enemy stone (D-6)
    v = check(OVER_STRANGLE, T("a1-a2 +a4"))
    go = the(v, "game.over")
    assert go.status == FAILED and has_fact(go.message, "strangle")
    # a2 holds A's own stone: move.destination fails as well
    assert v.violations == ["game.over", "move.destination"]
    assert the(v, "move.reserve-empty").status == PASSED
    assert the(v, "move.own-stone").status == PASSED
    assert the(v, "move.adjacent").status == PASSED
    # a3xa4: a4 holds B's stone on tier 0, a3 is tier 0: not strictly lower
    v = check(OVER_STRANGLE, T("a3xa4 +a4"))
    assert v.violations == ["game.over", "move.destination"]


def test_game_over_reason_order():
    # takeover is named before the half-move cap
    both = build({"c3": "0A", "e5": "0B"}, half_moves=60, A={"captures": 6})
    msg = the(check(both, T("b2 +b2")), "game.over").message
    assert has_fact(msg, "takeover") and not has_fact(msg, "tiebreak")
    # strangle is named before the half-move cap
    both = build(_STRANGLE_CELLS, half_moves=60)
    msg = the(check(both, T("a1-a2")), "game.over").message
    assert has_fact(msg, "strangle") and not has_fact(msg, "tiebreak")
    # B, the player to move, with 6 captures is a takeover too ("a player")
    b6 = build({"c3": "0A", "e5": "0B"}, to_move="B", B={"captures": 6})
    msg = the(check(b6, T("b2 +b2")), "game.over").message
    assert has_fact(msg, "takeover") and has_fact(msg, "6")


def test_game_over_is_the_first_check():
    for pos, htn in ((OVER_TAKEOVER, "b2 +b2"), (START, "c3 +d4"), (OVER_STRANGLE, "a1-a2")):
        assert check(pos, T(htn)).checks[0].rule == "game.over"


# ---------------------------------------------------------- project.skip --


def test_skip_applies_skip_is_legal_and_shape_rules_are_not_judged():
    v = check(SKIP_POS, T("skip"))
    assert v.legal and v.violations == []
    assert the(v, "project.skip").status == PASSED
    assert the(v, "shape.skipped").status == PASSED
    rules = rules_of(v)
    assert "shape.mandate" not in rules
    assert not [r for r in rules if r.startswith("shape.") and r != "shape.skipped"]
    assert not [r for r in rules if r.startswith(("place.", "move."))]


def test_place_while_skip_applies_fails_skip_and_cooldown():
    # a2 (1,2) is 1 step from a3 (1,3); c2 (3,2) is 2 steps away.
    v = check(SKIP_POS, T("a2 +a2"))
    assert "project.skip" in v.violations and "place.cooldown" in v.violations
    msg = the(v, "project.skip").message
    assert has_fact(msg, "skipped")
    cd = the(v, "place.cooldown")
    assert {"a2", "a3"} <= set(cd.cells)
    assert_facts(cd.message, ("a3", "1 step"))
    assert "c2" not in cd.cells


def test_move_while_skip_applies_fails_skip_and_reserve_empty():
    # A has 3 stones in reserve
    v = check(SKIP_POS, T("d4-c4 +d4"))
    assert "project.skip" in v.violations and "move.reserve-empty" in v.violations
    assert has_fact(the(v, "project.skip").message, "skipped")
    assert has_fact(the(v, "move.reserve-empty").message, "3")


def test_skip_with_shape_fails_only_shape_skipped():
    v = check(SKIP_POS, T("skip +d4"))
    assert v.violations == ["shape.skipped"]
    rules = rules_of(v)
    assert "shape.mandate" not in rules
    assert not [r for r in rules if r.startswith("shape.") and r != "shape.skipped"]


def test_declared_skip_without_cooldown_fails():
    v = check(START, T("skip"))
    assert v.violations == ["project.skip"]
    assert has_fact(the(v, "project.skip").message, "cooldown")
    # D-7: no Shape rule but shape.skipped on a declared skip
    assert "shape.mandate" not in rules_of(v)


def test_declared_skip_when_cooldown_leaves_a_place_fails():
    v = check(COOLDOWN_D4, T("skip"))
    assert v.violations == ["project.skip"]
    # 37 cells - a1, g7 - d4 and its 6 neighbours = 28 cells left
    assert_facts(the(v, "project.skip").message, ("d4", "28"))


@pytest.mark.parametrize("htn", ["skip *e2", "skip #d4"])
def test_echo_still_available_on_skipped_turn(htn):
    # D-5.  *e2: e2 holds B's stone on tier 1, neighbours e3 (A), d2 (A),
    # d1 (B), f3 (A): sealed, in contact.  #d4: A's stone on tier 2, unlocked.
    v = check(SKIP_POS, T(htn))
    assert v.legal, v.violations
    assert the(v, "echo.charge").status == PASSED
    assert the(v, "project.skip").status == PASSED
    assert the(v, "shape.skipped").status == PASSED


# ------------------------------------------------------------- Move ---


def test_move_onto_locked_cell_is_legal():
    v = check(MOVE_POS, T("d4-e5 +d4"))
    assert v.legal, v.violations
    assert the(v, "move.destination").status == PASSED


def test_move_capture_needs_strictly_lower_tier():
    # c4: B, tier 0 < d4's tier 1 -> capture; c3: B, tier 1 = 1 -> illegal
    ok = check(MOVE_POS, T("d4xc4 +d4"))
    assert ok.legal
    assert [n for e in ok.outcome.events if e.type == "capture" for n in e.cells] == ["c4"]
    bad = check(MOVE_POS, T("d4xc3 +d4"))
    assert bad.violations == ["move.destination"]
    assert_facts(the(bad, "move.destination").message, ("c3", "d4", "1"))


def test_move_into_own_stone_fails():
    v = check(MOVE_POS, T("d4-d3 +d4"))
    assert v.violations == ["move.destination"]


# ---------------------------------------------------------- shape.mandate --


def _named_shape(message):
    found = SHAPE_TOKEN.findall(message)
    assert found, f"no Shape named in {message!r}"
    sign, cell = found[0]
    return Shape("raise" if sign == "+" else "lower", C(cell))


@pytest.mark.parametrize(
    "pos,htn",
    [
        (START, "c3"),
        (START, "a1"),
        (MOVE_MANDATE, "b2-a1"),
        (MANDATE_ONE_LOWER, "a1"),
        (SHAPE_POS, "c3"),
        (MANDATE_FREE, "a2"),
    ],
)
def test_mandate_names_a_legal_shape_not_on_own_stone(pos, htn):
    turn = T(htn)
    v = check(pos, turn)
    c = the(v, "shape.mandate")
    assert c.status == FAILED and "shape.mandate" in v.violations
    shape = _named_shape(c.message)
    assert board_name(shape.cell) in c.cells
    # the named Shape is legal: the turn with it is legal
    with_shape = check(pos, Turn(turn.project, shape, None))
    assert with_shape.legal, (shape, with_shape.violations)
    # it is within 2 steps of the landing cell and targets a cell that, after
    # the Project, does not hold the mover's own stone
    assert hex_steps(board_name(shape.cell), board_name(turn.landing)) <= 2
    stones = list(pos.stones)
    if isinstance(turn.project, Place):
        stones[turn.project.cell] = pos.to_move
    else:
        stones[turn.project.src] = None
        stones[turn.project.dst] = pos.to_move
    assert stones[shape.cell] != pos.to_move


def board_name(cell):
    from checker.board import name

    return name(cell)


def hex_steps(a: str, b: str) -> int:
    """RULES §1, from the cell names alone."""
    di = ord(a[0]) - ord(b[0])
    dj = int(a[1]) - int(b[1])
    return max(abs(di), abs(dj), abs(di - dj))


def test_mandate_with_one_lower_names_a_lower():
    # everything within 2 of a1 but a1 is tier 2 (c1 locked): with 1 lower
    # left only lowers of a2 a3 b1 b2 b3 c2 c3 are legal and not on A's stone.
    c = the(check(MANDATE_ONE_LOWER, T("a1")), "shape.mandate")
    shape = _named_shape(c.message)
    assert shape.kind == "lower"
    assert board_name(shape.cell) in {"a2", "a3", "b1", "b2", "b3", "c2", "c3"}


def test_mandate_passes_when_only_own_stone_or_tier2_or_locked():
    v = check(MANDATE_FREE, T("a1"))
    assert v.legal and the(v, "shape.mandate").status == PASSED


def test_mandate_judged_after_place_fills_the_landing_cell():
    # Before the Place a1 is empty and +a1 would make the Shape mandatory;
    # after it a1 holds A's own stone, so no Shape is needed.
    v = check(MANDATE_FREE, T("a1"))
    assert the(v, "shape.mandate").status == PASSED
    # contrast: a Place on a2 (1 step from a1) leaves a1 empty on tier 0, so
    # +a1 (among others, e.g. +a4) makes the Shape mandatory
    assert the(check(MANDATE_FREE, T("a2")), "shape.mandate").status == FAILED
    assert check(MANDATE_FREE, T("a2 +a1")).legal


def test_mandate_judged_after_move_empties_the_from_cell():
    # b2-a1 leaves b2 empty on tier 1: +b2 is now legal and not on A's stone.
    v = check(MOVE_MANDATE, T("b2-a1"))
    c = the(v, "shape.mandate")
    assert c.status == FAILED
    assert SHAPE_TOKEN.findall(c.message)[0] == ("+", "b2")
    assert check(MOVE_MANDATE, T("b2-a1 +b2")).legal


def test_mandate_judged_after_move_capture():
    # Before the Move a1 holds B's stone on tier 0 (+a1 would be mandatory);
    # after b2xa1 it holds A's, and b2 (empty) is tier 2 with no lowers left.
    v = check(MOVE_CAPTURE_MANDATE, T("b2xa1"))
    assert v.legal, v.violations
    assert the(v, "shape.mandate").status == PASSED
    assert ["a1"] == [n for e in v.outcome.events if e.type == "capture" for n in e.cells]


# ------------------------------------------------------------ D-14 -----


def test_several_violations_all_reported():
    # A has no charges; c3 holds B's stone.
    pos = build({"c3": "0B", "a1": "0A"}, A={"charges": 0})
    v = check(pos, T("c3 +c6 #c3"))
    # Place on c3 fails (B's stone); c6 is 3 steps from the declared landing
    # cell c3; no charge; c3 still holds B's stone (the Place could not put
    # A's there) on tier 0.
    assert v.violations == ["place.empty", "shape.range", "echo.charge", "echo-lock.own-stone", "echo-lock.tier"]
    assert_facts(the(v, "shape.range").message, ("c6", "3", "c3"))
    assert v.summary.startswith("Illegal:")
    assert v.outcome is None


def test_shape_range_from_declared_landing_when_place_fails():
    pos = build({"c3": "0B", "a1": "0A"})
    v = check(pos, T("c3 +c5"))  # c5 is 2 steps from c3
    assert v.violations == ["place.empty"]
    assert the(v, "shape.range").status == PASSED
    v = check(pos, T("c3 +c6"))  # c6 is 3 steps from c3
    assert v.violations == ["place.empty", "shape.range"]


def test_shape_range_from_declared_landing_when_move_fails():
    # d4-d6 is not a Move to a neighbour; the landing cell is still d6.
    v = check(MOVE_POS, T("d4-d6 +d7"))  # d7 (4,7) is 1 step from d6
    assert the(v, "shape.range").status == PASSED
    v = check(MOVE_POS, T("d4-d6 +a1"))  # a1 (1,1) from d6 (4,6): 5 steps
    assert the(v, "shape.range").status == FAILED
    assert_facts(the(v, "shape.range").message, ("d6", "5"))


def test_echo_lock_after_raise_to_tier_2():
    # c4 is tier 1 with A's stone: raised to 2, then Echo-Locked (c5 is next to c4).
    v = check(LOCK_POS, T("c5 +c4 #c4"))
    assert v.legal, v.violations
    assert the(v, "echo-lock.tier").status == PASSED


def test_echo_lock_of_the_stone_just_placed():
    pos = build({"c5": "2", "a1": "0A", "g7": "0B"})
    v = check(pos, T("c5 +c6 #c5"))
    assert v.legal, v.violations
    assert the(v, "echo-lock.own-stone").status == PASSED


def test_echo_capture_tier_after_raise():
    # d4 (B) tier 0 raised to 1 from e3 (5,3), 2 steps from d4 (4,4).
    v = check(ECHO_POS_TIER0, T("e3 +d4 *d4"))
    assert v.legal, v.violations
    c = the(v, "echo-capture.tier")
    assert c.status == PASSED and has_fact(c.message, "1")
    # without the raise it fails
    assert "echo-capture.tier" in check(ECHO_POS_TIER0, T("e3 +e3 *d4")).violations


def test_echo_capture_sealed_after_place():
    # e4 was d4's only empty neighbour; the Place fills it.
    v = check(ECHO_POS_OPEN, T("e4 +e4 *d4"))
    assert v.legal, v.violations
    assert the(v, "echo-capture.sealed").status == PASSED


def test_shape_out_of_range_still_changes_the_tier():
    # D-14: a range failure still changes the tier.  c6 holds A's stone on
    # tier 1; a1 (1,1) to c6 (3,6) is 5 steps; after +c6 it is tier 2.
    pos = build({"c6": "1A", "g7": "0B"})
    v = check(pos, T("a1 +c6 #c6"))
    assert v.violations == ["shape.range"]
    assert the(v, "echo-lock.tier").status == PASSED


def test_shape_over_budget_still_changes_the_tier():
    # D-14: a budget failure still changes the tier.  c6 is tier 2 with A's
    # stone, A has no lowers left; -c6 from c5 lowers it to 1 anyway.
    pos = build({"c6": "2A", "g7": "0B"}, A={"lowers_left": 0})
    v = check(pos, T("c5 -c6 #c6"))
    assert v.violations == ["shape.lowering-budget", "echo-lock.tier"]
    assert has_fact(the(v, "echo-lock.tier").message, "1")


def test_shape_beyond_tier_limit_does_not_change_the_tier():
    # c6 is tier 2: a raise fails shape.tier-limit and leaves it tier 2.
    pos = build({"c6": "2A", "g7": "0B"})
    v = check(pos, T("c5 +c6 #c6"))
    assert v.violations == ["shape.tier-limit"]
    assert the(v, "echo-lock.tier").status == PASSED


# ------------------------------------------------------ D-15 step labels --


def _steps_of(v, prefix):
    return {c.step for c in v.checks if c.rule.startswith(prefix)}


def test_step_labels_place_with_reserve():
    v = check(START, T("c3 +d4 *e5"))
    assert _steps_of(v, "place.") == {STEP_PLACE}
    assert _steps_of(v, "shape.") == {STEP_SHAPE}
    assert _steps_of(v, "echo") == {STEP_ECHO}


def test_step_label_declared_move_with_reserve_is_place():
    v = check(ECHO_POS, T("c3-b3 +c3"))
    assert _steps_of(v, "move.") == {STEP_PLACE}
    assert the(v, "move.reserve-empty").status == FAILED


def test_step_label_move_with_empty_reserve():
    v = check(MOVE_POS, T("d4-d5 +d4"))
    assert _steps_of(v, "move.") == {STEP_MOVE}
    assert _steps_of(v, "shape.") == {STEP_SHAPE}
    assert _steps_of(v, "echo") == {STEP_ECHO}


def test_step_label_place_with_empty_reserve_is_move():
    v = check(MOVE_POS, T("e4 +e4"))
    assert _steps_of(v, "place.") == {STEP_MOVE}
    assert the(v, "place.reserve").status == FAILED


def test_step_labels_on_skip():
    v = check(SKIP_POS, T("skip +d4 #d4"))
    assert the(v, "project.skip").step == STEP_PLACE  # 3 stones in reserve
    assert the(v, "shape.skipped").step == STEP_SHAPE
    assert _steps_of(v, "echo") == {STEP_ECHO}


def test_step_label_of_shape_mandate():
    assert the(check(START, T("c3")), "shape.mandate").step == STEP_SHAPE


# --------------------------------------------------------- turn order --

RANK = {STEP_PLACE: 1, STEP_MOVE: 1, STEP_SHAPE: 2, STEP_ECHO: 3}


@pytest.mark.parametrize(
    "pos,htn",
    [
        (START, "c3 +d4"),
        (START, "d4"),
        (START, "c3 +c6 *d4"),
        (ECHO_POS, "g7 +g7 *d4"),
        (ECHO_POS, "c3-b3 +c3 #c3"),
        (MOVE_POS, "d4xc4 +d4 #d4"),
        (MOVE_POS, "e4 -e4 *e5"),
        (SKIP_POS, "skip *e2"),
        (SKIP_POS, "a2 +a2 #d4"),
        (COOLDOWN_D4, "c3"),
        (OVER_TAKEOVER, "c3 +g7 *c3"),
        (LOCK_POS, "g7 +g7 #c3"),
    ],
)
def test_checks_in_turn_order(pos, htn):
    turn = T(htn)
    v = check(pos, turn)
    rules = rules_of(v)
    assert rules[0] == "game.over"
    assert len(rules) == len(set(rules)), "each rule once"
    ranks = [RANK[c.step] for c in v.checks[1:]]
    assert ranks == sorted(ranks), [(c.rule, c.step) for c in v.checks]
    # every rule sits under its own step
    for c in v.checks[1:]:
        family = c.rule.split(".")[0]
        want = {"project": 1, "place": 1, "move": 1, "shape": 2}.get(family, 3)
        assert RANK[c.step] == want, (c.rule, c.step)
    # the declared kinds decide which rules are judged (docs/api.md)
    kind = turn.project.kind
    assert bool([r for r in rules if r.startswith("place.")]) == (kind == "place")
    assert bool([r for r in rules if r.startswith("move.")]) == (kind == "move")
    if kind == "place":
        assert {"place.reserve", "place.empty", "place.unlocked", "place.opening-restriction", "place.cooldown"} <= set(
            rules
        )
    if kind == "move":
        assert {"move.reserve-empty", "move.own-stone", "move.adjacent", "move.destination"} <= set(rules)
    if kind != "skip":
        if turn.shape is None:
            assert "shape.mandate" in rules and "shape.range" not in rules
        else:
            assert {"shape.range", "shape.unlocked", "shape.tier-limit"} <= set(rules)
            assert "shape.mandate" not in rules
    assert "echo.charge" in rules
    echo = turn.echo
    assert bool([r for r in rules if r.startswith("echo-capture.")]) == (echo is not None and echo.kind == "capture")
    assert bool([r for r in rules if r.startswith("echo-lock.")]) == (echo is not None and echo.kind == "lock")


# --------------------------------------------------------- summaries ----


def test_api_example_summary_and_message():
    v = check(START, T("d4 +c3"))
    assert v.legal is False
    assert v.turn == "d4 +c3" and v.mover == "A"
    assert v.summary == "Illegal: A's first Place must be at least 1 step from the centre, and d4 is the centre."
    assert v.violations == ["place.opening-restriction"]
    c = the(v, "place.opening-restriction")
    assert c.message == "A's first Place must be at least 1 step from the centre; d4 is the centre."
    assert c.step == STEP_PLACE and c.status == FAILED and list(c.cells) == ["d4"]
    assert c.more == "https://hexodic.com/rules/project"
    assert v.outcome is None


def test_legal_summary():
    v = check(START, T("c3 +d4"))
    assert v.legal and v.summary.startswith("Legal:") and v.outcome is not None


def test_opening_restriction_never_applies_again():
    pos = build({"a1": "0A", "g7": "0B"})
    v = check(pos, T("d4 +d4"))
    assert v.legal, v.violations
    assert the(v, "place.opening-restriction").status == NA


def test_place_cooldown_on_the_captured_cell_itself():
    v = check(COOLDOWN_D4, T("d4 +d4"))
    assert v.violations == ["place.cooldown"]


# ------------------------------------------------------- consistency ----


# inconsistent positions: two D-3 conditions broken with no cell to name (half_moves 1 with A to move,
# position.to-move, and A's reserve 5 with no stone on the board, position.stone-count), and a locked cell on
# Tier 1 with no Echo-Lock used (position.lock-tier, position.lock-count)
INCONSISTENT = {
    "to-move": (START.replace(half_moves=1, A=START.player("A").replace(reserve=5)), {"position.to-move"}),
    "lock": (P("0000/00000/001*000/0000000/000000/00000/0000 A 7:3:6:0:1:-:- 7:3:6:0:0:-:- 0"), {"position.lock-tier"}),
}


def test_inconsistent_position_raises_with_every_problem():
    bad = INCONSISTENT["to-move"][0]
    with pytest.raises(InconsistentPosition) as info:
        check(bad, T("c3 +d4"))
    rules = {p.rule for p in info.value.problems}
    assert {"position.to-move", "position.stone-count"} <= rules
    # the Python API's message: every problem, in order, after one lead
    assert str(info.value) == "the position is not consistent: " + "; ".join(p.message for p in info.value.problems)


@pytest.mark.parametrize("name", INCONSISTENT)
def test_validate_names_every_position_rule_once_and_each_broken_one_with_its_problems(name):
    bad, some = INCONSISTENT[name]
    v = validate(bad)
    assert (v.position, v.consistent, v.game, v.cooldown_skip, v.legal_turns) == (bad, False, None, None, None)
    broken = bad.problems()
    assert some <= {p.rule for p in broken} and any(p.cells for p in broken) == (name == "lock")
    # in catalogue order, each broken condition's problems as failed checks, or else one passed check
    expected = []
    for r in (r for r in RULE_IDS if r.startswith("position.")):
        mine = [("failed", p.cells, p.message) for p in broken if p.rule == r]
        expected += [(r, "Position", *m) for m in mine] or [(r, "Position", "passed", (), RULES[r].text)]
    assert [(c.rule, c.step, c.status, c.cells, c.message) for c in v.checks] == expected


def test_validate_a_consistent_position_gives_its_state():
    v = validate(START)
    assert (v.position, v.consistent, v.cooldown_skip, v.legal_turns) == (START, True, False, 480)
    assert v.game.over is False
    assert all(c.status == "passed" for c in v.checks)


def test_inconsistent_hpn_position_raises():
    pos = INCONSISTENT["lock"][0]
    with pytest.raises(InconsistentPosition) as info:
        check(pos, T("a1 +a1"))
    rules = {p.rule for p in info.value.problems}
    assert {"position.lock-tier", "position.lock-count"} <= rules


# ------------------------------------------------- more D-14 effects ----


def test_illegal_move_still_moves_the_stone():
    # D-14: a Move moves the stone when the from-cell holds the mover's stone
    # and the to-cell does not, removing an enemy stone "whatever the tiers".
    # d4xc3 is illegal (c3 tier 1 = d4 tier 1), yet c3 then holds A's stone:
    # the Echo-Lock of c3 passes own-stone and fails only on the tier (1).
    v = check(MOVE_POS, T("d4xc3 +d4 #c3"))
    assert v.violations == ["move.destination", "echo-lock.tier"]
    assert the(v, "echo-lock.own-stone").status == PASSED
    # d4-d6 is no neighbour, but the stone still lands on d6 (raised 0 -> 1)
    v = check(MOVE_POS, T("d4-d6 +d6 #d6"))
    assert the(v, "echo-lock.own-stone").status == PASSED
    assert v.violations == ["move.adjacent", "echo-lock.tier"]


def test_place_on_locked_empty_cell_still_places_the_stone():
    # D-14: a Place puts the stone on any empty cell, locked or not.  c1 is
    # empty, tier 2, locked by B's Echo-Lock; A then Echo-Locks c1.
    pos = build({"c1": "2*", "g7": "0A", "e5": "0B"}, A={"echo_lock_used": False}, B={"echo_lock_used": True})
    v = check(pos, T("c1 +b1 #c1"))
    assert v.violations == ["place.unlocked", "echo-lock.unlocked"]
    assert the(v, "echo-lock.own-stone").status == PASSED
    assert the(v, "echo-lock.tier").status == PASSED


def test_locked_cell_shape_does_not_change_the_tier():
    # D-14: a Shape changes the tier only when the cell is unlocked.  f6 is
    # tier 2, locked (B's Echo-Lock), holding A's stone; -f6 fails and f6
    # stays tier 2, so the Echo-Lock of f6 passes echo-lock.tier (and fails
    # only because f6 is locked already).  g7 (7,7) is 1 step from f6 (6,6).
    v = check(LOCK_POS_LOCKED_BY_B, T("g7 -f6 #f6"))
    assert v.violations == ["shape.unlocked", "echo-lock.unlocked"]
    c = the(v, "echo-lock.tier")
    assert c.status == PASSED and has_fact(c.message, "2")


def test_echo_capture_contact_and_seal_after_place():
    # B's a1 is tier 1; its neighbours a2 and b1 hold B's stones and b2 is empty.
    pos = build({"a1": "1B", "a2": "0B", "b1": "0B", "g7": "0A"})
    v = check(pos, T("b2 +b2 *a1"))  # the Place on b2 seals a1 and touches it
    assert v.legal, v.violations
    assert "b2" in the(v, "echo-capture.contact").cells
    v = check(pos, T("c3 +c3 *a1"))  # without it: b2 empty, no A stone next to a1
    assert v.violations == ["echo-capture.sealed", "echo-capture.contact"]
    assert "b2" in the(v, "echo-capture.sealed").cells
    assert has_fact(the(v, "echo-capture.sealed").message, "b2")


# ------------------------------------------------------- more checks ----


def test_skip_declared_with_empty_reserve_fails():
    v = check(MOVE_POS, T("skip"))
    assert v.violations == ["project.skip"]
    assert the(v, "project.skip").step == STEP_MOVE
    assert has_fact(the(v, "project.skip").message, "reserve")


def test_cooldown_names_every_cell_too_close():
    # cooldown {c3, d4}: c4 (3,4) is 1 step from c3 (3,3) and 1 from d4 (4,4).
    pos = build({"a1": "0A", "g7": "0B"}, A={"cooldown": ["c3", "d4"]}, B={"captures": 2}, half_moves=6)
    c = the(check(pos, T("c4 +c4")), "place.cooldown")
    assert c.status == FAILED
    assert {"c4", "c3", "d4"} <= set(c.cells)
    assert_facts(c.message, ("c3", "d4", "1 step"))


def test_opening_restriction_for_b():
    pos = build({"c3": "0A"}, to_move="B")
    v = check(pos, T("d4 +d4"))
    assert v.violations == ["place.opening-restriction"]
    assert_facts(the(v, "place.opening-restriction").message, ("d4", "centre"))


def test_network_needs_one_connected_group_and_ignores_locks():
    # Locks do not matter: d4 locked (B's Echo-Lock) is still part of B's Network.
    pos = build({"d2": "2B", "d3": "2B", "d4": "2B*", "d5": "2B", "d6": "2B", "a1": "0A"}, to_move="A")
    c = the(check(pos, T("g7 +g7")), "game.over")
    assert c.status == FAILED and has_fact(c.message, "network")
    # 5 tier-2 stones as 3 + 2 (d2 d3 d4 and d6 d7; d5 tier 1): no Network
    pos = build({"d2": "2B", "d3": "2B", "d4": "2B", "d5": "1B", "d6": "2B", "d7": "2B", "a1": "0A"}, to_move="A")
    assert the(check(pos, T("g7 +g7")), "game.over").status == PASSED


# A mutation run (issue 9) loosened move.adjacent to "at most 1 step" and nothing failed: a Move
# onto its own from-cell.  Rows of 4, 5, 6, 7, 6, 5, 4 cells: A's stones on a1–a4, b1, b2 and c3
# (row c "000A000": c1, c2 empty, c3 A), B's on e5, f5, f6, g4–g7; both reserves empty, no tier.
ONTO_ITSELF = "0A0A0A0A/0A0A000/000A000/0000000/0000B00/000B0B0/0B0B0B0B A 0:3:6:0:0:P:- 0:3:6:0:0:P:- 14"


def test_a_move_onto_its_own_from_cell_fails_adjacency():
    pos = P(ONTO_ITSELF)
    assert pos.problems() == []
    # RULES §4: c3 is 0 steps from c3, not one of its six neighbours (move.adjacent); c3 holds A's
    # own stone, which a Move never enters (move.destination).  With no Shape, c4 (empty, Tier 0,
    # 1 step from c3) could be raised, so leaving the Shape out fails shape.mandate.
    v = check(pos, T("c3-c3"))
    assert v.violations == ["move.adjacent", "move.destination", "shape.mandate"]
    adjacent = the(v, "move.adjacent")
    assert adjacent.cells == ("c3", "c3")
    assert adjacent.message == "A Move goes to one of the six neighbouring cells; c3 is c3 itself."
    assert check(pos, T("c3-c3 +c4")).violations == ["move.adjacent", "move.destination"]


def test_a_locked_empty_cell_is_never_placeable():
    # c1 is empty, Tier 2 and locked (B's Echo-Lock, so the lock count is 1): RULES §4 "A locked
    # cell can never be Placed onto" (place.unlocked), while b1 (empty, unlocked, 1 step from c1)
    # can be, and the Shape +b1 is in range and legal.
    pos = build({"c1": "2*", "g7": "0A", "e5": "0B"}, A={"echo_lock_used": False}, B={"echo_lock_used": True})
    assert check(pos, T("c1 +b1")).violations == ["place.unlocked"]
    assert check(pos, T("b1 +b1")).legal


@pytest.mark.parametrize("htn", ["c3 +d4", "c3 +c3", "c3 +d4 *d4", "d4", "a1 +a1"])
def test_a_checks_message_is_what_the_rule_requires_then_what_the_board_shows(htn):
    checks = [c for c in check(START, T(htn)).checks if not c.rule.startswith("position.")]
    assert any(c.requires for c in checks) and any(not c.requires for c in checks)
    for c in checks:
        assert c.shows and c.message == (f"{c.requires}; {c.shows}." if c.requires else f"{c.shows}."), c
