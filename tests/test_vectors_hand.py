"""Hand-written conformance vectors: checker/data/vectors_hand.jsonl.

Each line pins one sentence of RULES.md: a position (HPN), the game's earlier
positions (or null), a turn (canonical HTN) and what the rules say about it,
worked out by hand from RULES.md (legal or not, the failed rule ids in the
order the checker reports them, the resulting position and the game state).
This file checks the format of every line, the consistency (D-3) of every
position in it, runs every vector through ``checker.legality.check`` and
asserts that the vectors together cover what the rules require to be shown.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

import checker
from checker import board
from checker.legality import check
from checker.notation import parse_hpn, parse_htn, position_to_hpn, turn_to_htn
from checker.position import other
from checker.turn import Move, Place, Skip

VECTORS_PATH = Path(checker.__file__).parent / "data" / "vectors_hand.jsonl"
KEYS = ("id", "description", "position", "history", "turn", "legal", "violations", "after", "game")
GAME_KEYS = ("over", "result", "reason", "repetition")
REASONS = ("takeover", "network", "strangle", "repetition", "threefold", "tiebreak")

# The order in which the checker reports rule ids (RULES §3, §9 and the brief):
# game.over, Step 1 (Place or Move rules, then project.skip), Step 2, Step 3.
REPORT_ORDER = (
    "game.over",
    "place.reserve",
    "place.empty",
    "place.unlocked",
    "place.opening-restriction",
    "place.cooldown",
    "move.reserve-empty",
    "move.own-stone",
    "move.adjacent",
    "move.destination",
    "project.skip",
    "shape.range",
    "shape.unlocked",
    "shape.tier-limit",
    "shape.lowering-budget",
    "shape.mandate",
    "shape.skipped",
    "echo.charge",
    "echo-capture.enemy",
    "echo-capture.sealed",
    "echo-capture.tier",
    "echo-capture.contact",
    "echo-lock.once",
    "echo-lock.own-stone",
    "echo-lock.tier",
    "echo-lock.unlocked",
)
# Every rule id of RULES §9 that check reports for a turn (position.* are not turn checks).
TURN_RULES = frozenset(REPORT_ORDER)


LINES = [line for line in VECTORS_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
# each line's keys as written (json.loads keeps the order of an object's keys)
RAW_KEYS = [tuple(json.loads(line, object_pairs_hook=lambda pairs: [k for k, _ in pairs])) for line in LINES]
VECTORS = [json.loads(line) for line in LINES]
BY_ID = {v["id"]: v for v in VECTORS}


def _history(v):
    return None if v["history"] is None else [parse_hpn(h) for h in v["history"]]


@cache
def verdict_of(vid: str):
    v = BY_ID[vid]
    return check(parse_hpn(v["position"]), parse_htn(v["turn"]), _history(v))


def legal_verdicts():
    return [(v, verdict_of(v["id"])) for v in VECTORS if verdict_of(v["id"]).legal]


# ------------------------------------------------------------------ format --


def test_there_are_at_least_70_vectors():
    assert len(VECTORS) >= 70


def test_every_line_has_exactly_the_keys_in_order():
    for keys, v in zip(RAW_KEYS, VECTORS):
        assert keys == KEYS, v.get("id")


def test_ids_are_unique_and_start_with_hand():
    ids = [v["id"] for v in VECTORS]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    for i in ids:
        assert isinstance(i, str) and i.startswith("hand-"), i
        assert re.fullmatch(r"hand-[a-z0-9]+-\d{2}", i), i


@pytest.mark.parametrize("vid", list(BY_ID))
def test_line_is_well_formed(vid):
    v = BY_ID[vid]
    desc = v["description"]
    assert isinstance(desc, str) and desc.strip()
    assert re.search(r"§\d+|\bD-\d+\b", desc), "the description cites a § of RULES.md or a D-n"
    assert isinstance(v["legal"], bool)
    assert isinstance(v["violations"], list) and all(isinstance(r, str) for r in v["violations"])
    assert v["legal"] == (v["violations"] == [])
    # every id is a turn rule of §9, each once, in the checker's report order
    assert set(v["violations"]) <= TURN_RULES, v["violations"]
    idx = [REPORT_ORDER.index(r) for r in v["violations"]]
    assert idx == sorted(idx) and len(set(idx)) == len(idx), v["violations"]
    if v["legal"]:
        assert isinstance(v["after"], str)
        g = v["game"]
        assert isinstance(g, dict) and tuple(g) == GAME_KEYS
        assert isinstance(g["over"], bool)
        if g["over"]:
            assert g["result"] in ("A", "B", "draw") and g["reason"] in REASONS
        else:
            assert g["result"] is None and g["reason"] is None
        assert g["repetition"] == ("evaluated" if v["history"] is not None else "not_evaluated")
    else:
        assert v["after"] is None and v["game"] is None
    assert v["history"] is None or (isinstance(v["history"], list) and all(isinstance(h, str) for h in v["history"]))


@pytest.mark.parametrize("vid", list(BY_ID))
def test_positions_parse_and_are_consistent(vid):
    v = BY_ID[vid]
    pos = parse_hpn(v["position"])
    assert pos.problems() == [], [p.rule for p in pos.problems()]
    assert position_to_hpn(pos) == v["position"], "the position is written canonically"
    for h in v["history"] or []:
        hp = parse_hpn(h)
        assert hp.problems() == [], (h, [p.rule for p in hp.problems()])
    if v["after"] is not None:
        after = parse_hpn(v["after"])
        assert after.problems() == [], [p.rule for p in after.problems()]
        assert position_to_hpn(after) == v["after"], "after is canonical HPN"
        assert after.half_moves == pos.half_moves + 1 and after.to_move == other(pos.to_move)
        for who in "AB":  # RULES §2: stones on the board + reserve = 7
            assert after.stones.count(who) + after.player(who).reserve == 7
    # the turn is canonical HTN (x for a Move onto an enemy stone)
    assert turn_to_htn(parse_htn(v["turn"]), pos) == v["turn"]


# ------------------------------------------------------------- the checker --


@pytest.mark.parametrize("vid", list(BY_ID))
def test_checker_agrees_with_the_vector(vid):
    v = BY_ID[vid]
    verdict = verdict_of(vid)
    assert verdict.legal is v["legal"], (verdict.summary, verdict.violations)
    assert verdict.violations == v["violations"], verdict.summary
    assert verdict.turn == v["turn"]
    if not v["legal"]:
        assert verdict.outcome is None
        return
    out = verdict.outcome
    assert position_to_hpn(out.position) == v["after"]
    g = out.game
    assert {"over": g.over, "result": g.result, "reason": g.reason, "repetition": g.repetition} == v["game"], g.message


# ---------------------------------------------------------------- coverage --


def test_every_turn_rule_fails_somewhere_and_passes_in_a_legal_turn():
    failing = {r: 0 for r in TURN_RULES}
    passing = {r: 0 for r in TURN_RULES}
    for v in VECTORS:
        verdict = verdict_of(v["id"])
        for c in verdict.checks:
            if c.status == "failed":
                failing[c.rule] += 1
            elif c.status == "passed" and verdict.legal:
                passing[c.rule] += 1
    assert [r for r in REPORT_ORDER if not failing[r]] == []
    assert [r for r in REPORT_ORDER if not passing[r]] == []


def _capture_events(kind):
    return [
        (v, e)
        for v, verdict in legal_verdicts()
        for e in verdict.outcome.events
        if e.type == "capture" and e.kind == kind
    ]


def test_every_capture_kind_occurs():
    assert _capture_events("move") and all(e.cells for _, e in _capture_events("move"))
    assert [e for _, e in _capture_events("encirclement") if e.cells]
    # Echo-Capture of a sealed group (two stones at once) and D-8 (nothing)
    assert [e for _, e in _capture_events("echo") if len(e.cells) >= 2]
    assert [e for _, e in _capture_events("echo") if not e.cells]


def _encirclements():
    return [w for _, verdict in legal_verdicts() for w in verdict.outcome.capture_check if w.check == "encirclement"]


def test_capture_facts_of_section_7():
    ws = _encirclements()
    edge = [w for w in ws if any(t.kind == "edge" for t in w.terms)]
    inner = [w for w in ws if not any(t.kind == "edge" for t in w.terms)]
    # six tier-1 neighbours do not capture a tier-1 stone (6 is not > 6)
    assert [w for w in inner if w.tier == 1 and sorted(t.value for t in w.terms) == [1] * 6 and not w.captured]
    # one of the six on tier 2 does (7 > 6)
    assert [w for w in inner if w.tier == 1 and sorted(t.value for t in w.terms) == [1] * 5 + [2] and w.captured]
    # an edge stone counts tier + 1 per edge slot: both sides of the threshold occur
    assert all(t.value == w.tier + 1 for w in edge for t in w.terms if t.kind == "edge")
    assert [w for w in edge if w.captured] and [w for w in edge if not w.captured]
    # a tier-2 stone off the edge is weighed and never captured by the normal check
    assert [w for w in inner if w.tier == 2 and w.sum == 12]
    assert not [w for w in inner if w.tier == 2 and w.captured]


def test_tier0_stone_is_never_encircled():
    shown = 0
    for v, verdict in legal_verdicts():
        mover = parse_hpn(v["position"]).to_move
        after = verdict.outcome.position
        for c in board.CELLS:
            if (
                after.stones[c] == other(mover)
                and after.tiers[c] == 0
                and all(s is None or after.stones[s] == mover for s in board.SLOTS[c])
            ):
                assert board.name(c) not in [w.cell for w in verdict.outcome.capture_check]
                shown += 1
    assert shown >= 2


def test_every_game_end_reason_occurs():
    games = [(v, verdict.outcome.game) for v, verdict in legal_verdicts()]
    assert {g.reason for _, g in games if g.over} == set(REASONS)
    # a Strangle on the capping turn beats the tiebreak
    assert [v for v, g in games if g.reason == "strangle" and parse_hpn(v["after"]).half_moves == 60]
    # a threefold reached by a cooldown skip
    assert [v for v, g in games if g.reason == "threefold" and v["turn"] == "skip"]
    assert [v for v, g in games if g.reason == "repetition"]
    assert [v for v, g in games if not g.over and g.repetition == "not_evaluated"]


def test_every_tiebreak_step_decides_somewhere():
    steps = set()
    for _, verdict in legal_verdicts():
        g = verdict.outcome.game
        if g.reason != "tiebreak":
            continue
        a, b = g.tiebreak["A"].as_tuple(), g.tiebreak["B"].as_tuple()
        decisive = next((i for i in range(4) if a[i] != b[i]), None)
        steps.add(decisive)
        assert g.result == ("draw" if decisive is None else "A" if a[decisive] > b[decisive] else "B")
    assert steps == {0, 1, 2, 3, None}


def test_cooldown_skip_cases_occur():
    skips = [(v, verdict_of(v["id"])) for v in VECTORS]
    # a legal skip
    assert [v for v, vd in skips if isinstance(parse_htn(v["turn"]).project, Skip) and vd.legal]
    # a Place refused while the skip applies
    assert [v for v, vd in skips if isinstance(parse_htn(v["turn"]).project, Place) and "project.skip" in vd.violations]
    # a skip refused when it does not apply
    assert [v for v, vd in skips if isinstance(parse_htn(v["turn"]).project, Skip) and "project.skip" in vd.violations]


def test_several_violations_at_once_and_move_onto_a_locked_cell():
    assert [v for v in VECTORS if len(v["violations"]) >= 3]
    locked_moves = []
    for v, verdict in legal_verdicts():
        p = parse_htn(v["turn"]).project
        if isinstance(p, Move) and parse_hpn(v["position"]).locked[p.dst]:
            locked_moves.append(v)
            assert verdict.outcome.position.stones[p.dst] == parse_hpn(v["position"]).to_move
    assert locked_moves


def test_shape_mandate_waived_and_enforced():
    waived = [
        v
        for v, vd in legal_verdicts()
        if parse_htn(v["turn"]).shape is None and not isinstance(parse_htn(v["turn"]).project, Skip)
    ]
    enforced = [v for v in VECTORS if "shape.mandate" in v["violations"]]
    assert waived and enforced
