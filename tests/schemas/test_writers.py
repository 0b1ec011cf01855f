"""schemas/writers.py writes, byte for byte, the JSON text of what
LegalTurnsSchema dumps (compact, keys in declaration order, as orjson writes
a dict), in both forms, over the positions of seeded random games: Places,
Moves with and without a capture (``x``), the cooldown skip, Echo-Captures and
Echo-Locks, filtered lists, groups made by hand and the empty list of a
finished game."""

import random

import orjson
import pytest

from checker.board import BIT
from checker.generate import Group, legal_turns, turn_groups
from checker.legality import check
from checker.notation import parse_hpn, parse_htn
from checker.position import Position
from checker.turn import Move, Shape
from schemas.responses import LegalTurnsSchema
from schemas.turn import TurnForm
from schemas.writers import legal_turns_json

SCHEMA = LegalTurnsSchema()


def reference(position, groups, form) -> bytes:
    return orjson.dumps(SCHEMA.dump((position, groups, form)))


def _positions(games: int = 12) -> list[Position]:
    """Every position of seeded random games, played to their end."""
    out = []
    for seed in range(games):
        rng, pos = random.Random(seed), Position.start()
        while True:
            out.append(pos)
            turns = legal_turns(pos)
            if not turns:
                break
            pos = check(pos, rng.choice(turns)).outcome.position
    return out


# The cooldown skip (RULES §4, D-4), from the perft table: A's every Place is blocked, so A may only
# skip, skip *g7 or skip #d4 (checker/data/perft.json, "cooldown-skip").
COOLDOWN_SKIP = "0000/00B000/000000/0002A000/00B0000/0B000A0B/0B00B1B A 5:3:6:0:2:P:b2,b4,d2,d6,f5 0:3:6:5:1:P:- 20"
POSITIONS = _positions() + [parse_hpn(COOLDOWN_SKIP)]


def test_the_sample_has_every_kind_of_turn():
    kinds = set()
    for pos in POSITIONS:
        for t in legal_turns(pos):
            kinds.add(type(t.project).__name__)
            if isinstance(t.project, Move) and pos.stones[t.project.dst] not in (None, pos.to_move):
                kinds.add("move capture")
            if t.echo is not None:
                kinds.add(str(t.echo.kind))
    assert {"Place", "Move", "Skip", "move capture", "capture", "lock"} <= kinds
    assert any(not legal_turns(p) for p in POSITIONS)  # games end: the empty list


@pytest.mark.parametrize("form", list(TurnForm))
def test_every_position_of_random_games(form):
    for pos in POSITIONS:
        groups = turn_groups(pos)
        assert legal_turns_json((pos, groups, form)) == reference(pos, groups, form), pos


@pytest.mark.parametrize("form", list(TurnForm))
def test_filtered_lists_and_steps_made_afresh(form):
    """A Project and Shape filter (the turns then hold the request's own Shape object, equal to the
    generator's, not the same object) and hand-made turns."""
    rng = random.Random(7)
    for pos in rng.sample(POSITIONS, 40):
        turns = legal_turns(pos)
        if not turns:
            continue
        first = rng.choice(turns)
        own_shape = None if first.shape is None else Shape(str(first.shape.kind), first.shape.cell)
        assert first in legal_turns(pos, first.project, own_shape)
        filtered = turn_groups(pos, first.project, own_shape)
        assert legal_turns_json((pos, filtered, form)) == reference(pos, filtered, form)
    start = Position.start()
    c3, skip, a1a2 = parse_htn("c3 +d4").project, parse_htn("skip").project, parse_htn("a1-a2").project
    made = [
        Group(c3, [parse_htn("c3 +d4").shape, parse_htn("c3 +e5").shape], BIT[parse_htn("c3 +d4 *e5").echo.cell], 0),
        Group(skip, [None], 0, BIT[parse_htn("skip #b2").echo.cell]),
        Group(a1a2, [Shape("lower", parse_htn("a1-a2 -b2").shape.cell)], 0, 0),
    ]
    assert legal_turns_json((start, made, form)) == reference(start, made, form)
    turns = orjson.loads(legal_turns_json((start, made, TurnForm.HTN)))["turns"]
    assert turns == ["c3 +d4", "c3 +d4 *e5", "c3 +e5", "c3 +e5 *e5", "skip", "skip #b2", "a1-a2 -b2"]


def test_the_forms_by_hand():
    """The cooldown-skip position's three turns, written out from the rules by hand: no Project and
    no Shape, then no Echo, an Echo-Capture of g7, an Echo-Lock of d4 (the documented order)."""
    pos = parse_hpn(COOLDOWN_SKIP)
    groups = turn_groups(pos)
    assert orjson.loads(legal_turns_json((pos, groups, TurnForm.HTN)))["turns"] == ["skip", "skip *g7", "skip #d4"]
    body = orjson.loads(legal_turns_json((pos, groups, TurnForm.OBJECTS)))
    skip = {"kind": "skip"}
    assert body["count"] == 3 and list(body) == ["rules_version", "count", "turns"]
    assert body["turns"] == [
        {"htn": "skip", "turn": {"project": skip, "shape": None, "echo": None}},
        {"htn": "skip *g7", "turn": {"project": skip, "shape": None, "echo": {"kind": "capture", "cell": "g7"}}},
        {"htn": "skip #d4", "turn": {"project": skip, "shape": None, "echo": {"kind": "lock", "cell": "d4"}}},
    ]
