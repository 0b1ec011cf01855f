"""checker.generate: the enumeration of legal turns (RULES §4–§8).

Expected lists and counts are worked out by hand from RULES.md; the order is
the one documented in checker/generate.py's module docstring:

1. Places in board order (a1 … g7); or Moves by from-cell, then to-cell; or
   the cooldown skip alone.
2. Per Project: no Shape first (when it may be left out), then Shapes by cell
   in board order, a raise before a lower on the same cell.
3. Per Shape: no Echo, then Echo-Captures by target, then Echo-Locks by target.
"""

from __future__ import annotations

import random

import pytest

from checker import board
from checker.ending import game_over_reason
from checker.generate import legal_turns
from checker.legality import check
from checker.notation import turn_to_htn
from checker.position import Position
from checker.projects import legal_moves, place_cells, skip_applies
from checker.turn import CAPTURE, LOCK, LOWER, RAISE, Echo, Move, Place, Shape, Skip, Turn
from tests.helpers import C, T, build

ROWS = "abcdefg"


# ----------------------------------------------------------- rule helpers ---


def coords(cell: int) -> tuple[int, int]:
    name = board.name(cell)
    return ROWS.index(name[0]) + 1, int(name[1])


def steps_by_rule(a: int, b: int) -> int:
    """RULES §1: max(|di|, |dj|, |di - dj|)."""
    (i1, j1), (i2, j2) = coords(a), coords(b)
    di, dj = i1 - i2, j1 - j2
    return max(abs(di), abs(dj), abs(di - dj))


def names(cells) -> list[str]:
    return [board.name(c) for c in cells]


def htns(turns, pos=None) -> list[str]:
    return [turn_to_htn(t, pos) for t in turns]


def order_key(t: Turn) -> tuple:
    """The documented order as a sort key."""
    p, s, e = t
    if isinstance(p, Place):
        pk = (0, p.cell, 0)
    elif isinstance(p, Move):
        pk = (1, p.src, p.dst)
    else:
        pk = (2, 0, 0)
    sk = (-1, -1) if s is None else (s.cell, 0 if s.kind == RAISE else 1)
    ek = (0, -1) if e is None else (1 if e.kind == CAPTURE else 2, e.cell)
    return pk + sk + ek


def assert_documented_order(turns: list[Turn]) -> None:
    keys = [order_key(t) for t in turns]
    for i in range(1, len(keys)):
        assert keys[i - 1] < keys[i], (
            f"out of documented order (or repeated): {turn_to_htn(turns[i - 1])!r} then {turn_to_htn(turns[i])!r}"
        )


def projects_in_order(turns: list[Turn]) -> list:
    out = []
    for t in turns:
        if not out or out[-1] != t.project:
            out.append(t.project)
    return out


# -------------------------------------------------------------- positions ---

# A to move, Place phase.  B's stone on a1 (tier 1) is sealed by A's stones on
# a2, b1, b2 (a1's only neighbours): an Echo-Capture target.  A's stone on c3
# stands on tier 2: an Echo-Lock target.
ORDER = build({"a1": "1B", "a2": "0A", "b1": "0A", "b2": "0A", "c3": "2A"}, to_move="A")

# A to move with an empty reserve (Move phase).
#   A: a1 a2 a3(t1) b1 b2 b3(t2) c1 (7 stones)
#   B: a4(t0) b4(t1) c2(t0) c3(t1) c4(t2) d1(t0); d2 empty
MOVES = build(
    {
        "a1": "0A",
        "a2": "0A",
        "a3": "1A",
        "b1": "0A",
        "b2": "0A",
        "b3": "2A",
        "c1": "0A",
        "a4": "0B",
        "b4": "1B",
        "c2": "0B",
        "c3": "1B",
        "c4": "2B",
        "d1": "0B",
    },
    to_move="A",
)

# The cooldown {a3, b1, c6, d4, e2, f7, g5} is a perfect cover of the board:
# each cell covers itself and its neighbours, and
#   a3: a2 a4 b3 b4 | b1: a1 b2 c1 c2 | c6: b5 c5 d6 d7 | d4: c3 c4 d3 d5 e4 e5
#   e2: d1 d2 e3 f3 | f7: e6 e7 f6 g7 | g5: f4 f5 g4 g6
# = 5 + 5 + 5 + 7 + 5 + 5 + 5 = 37 cells, each once.  So every empty cell is
# less than 2 steps from a cooldown cell and A has no legal Place; ignoring
# the cooldown A could Place (e.g. on e4), so the skip applies (RULES §4, D-4).
# B's a4 (tier 1) is sealed by a3 (B), b4 and b5 (A): an Echo-Capture target;
# A's c3 is tier 2: an Echo-Lock target; A's e5 is tier 1: not one.
SKIP_COOLDOWN = ["a3", "b1", "c6", "d4", "e2", "f7", "g5"]
SKIP_CELLS = {"a4": "1B", "a3": "0B", "b4": "0A", "b5": "0A", "c3": "2A", "e5": "1A"}
SKIP = build(SKIP_CELLS, to_move="A", A={"cooldown": SKIP_COOLDOWN})


# ------------------------------------------------------ the start position ---


def test_start_position_count_by_hand():
    """RULES §4/§5 at the start: every Place but d4 (opening restriction), each
    with a mandatory raise of a cell within 2 steps (all cells are tier 0, so
    no lower; the landing cell itself counts, D-6), and no Echo (no enemy stone
    to capture, no tier-2 cell to lock).  So the count is the sum over the 36
    Place cells of how many cells lie within 2 steps.

    By distance from the centre d4 (rings 1, 2, 3 have 6, 12, 18 cells):
      ring 1 (c3 c4 d3 d5 e4 e5): every cell within 2 is within 3 of d4, so all
        1 + 6 + 12 = 19 are on the board                     6 × 19 = 114
      ring 2 on a line through d4 (b2 b4 d2 d6 f4 f6): b2 reaches
        a1-a3, b1-b4, c1-c4, d2-d4 = 3 + 4 + 4 + 3 = 14       6 × 14 =  84
      other ring 2 (b3 c2 c5 e3 e6 f5): b3 reaches
        a1-a4, b1-b5, c2-c5, d3-d5 = 4 + 5 + 4 + 3 = 16       6 × 16 =  96
      corners (a1 a4 d1 d7 g4 g7): a1 reaches a1-a3, b1-b3, c1-c3 = 9
                                                              6 ×  9 =  54
      other ring 3 (12 cells): a2 reaches a1-a4, b1-b4, c2-c4 = 4 + 4 + 3 = 11
                                                             12 × 11 = 132
      total                                                           480
    (d4 itself, not a Place, would reach 19: the whole board but ring 3.)
    """
    by_hand = {
        **{n: 19 for n in ["c3", "c4", "d3", "d5", "e4", "e5"]},
        **{n: 14 for n in ["b2", "b4", "d2", "d6", "f4", "f6"]},
        **{n: 16 for n in ["b3", "c2", "c5", "e3", "e6", "f5"]},
        **{n: 9 for n in ["a1", "a4", "d1", "d7", "g4", "g7"]},
        **{n: 11 for n in ["a2", "a3", "b1", "b5", "c1", "c6", "e2", "e7", "f3", "f7", "g5", "g6"]},
    }
    assert len(by_hand) == 36 and "d4" not in by_hand
    # the ring of each group, by the steps formula of RULES §1
    rings = {19: {1}, 14: {2}, 16: {2}, 9: {3}, 11: {3}}
    for name, n in by_hand.items():
        assert steps_by_rule(C(name), board.D4) in rings[n], name
    assert 6 * 19 + 6 * 14 + 6 * 16 + 6 * 9 + 12 * 11 == 480 == sum(by_hand.values())

    turns = legal_turns(Position.start())
    assert len(turns) == 480

    # Per Place: the count and the exact shapes.
    per_place = {}
    for t in turns:
        assert isinstance(t.project, Place) and t.echo is None
        assert t.shape is not None and t.shape.kind == RAISE
        assert steps_by_rule(t.project.cell, t.shape.cell) <= 2
        per_place[board.name(t.project.cell)] = per_place.get(board.name(t.project.cell), 0) + 1
    assert per_place == by_hand

    # The corner by hand, cell by cell, and board.WITHIN_2 as a cross-check.
    a1 = [t for t in turns if t.project == Place(C("a1"))]
    assert htns(a1) == ["a1 +a1", "a1 +a2", "a1 +a3", "a1 +b1", "a1 +b2", "a1 +b3", "a1 +c1", "a1 +c2", "a1 +c3"]
    assert names(board.WITHIN_2[C("a1")]) == ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
    assert names(board.WITHIN_2[C("a2")]) == ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "c2", "c3", "c4"]
    assert names(board.WITHIN_2[C("b2")]) == [
        "a1",
        "a2",
        "a3",
        "b1",
        "b2",
        "b3",
        "b4",
        "c1",
        "c2",
        "c3",
        "c4",
        "d2",
        "d3",
        "d4",
    ]
    # The centre: 19 cells = every cell at most 2 steps from d4 (not the 18 of ring 3).
    assert len(board.WITHIN_2[board.D4]) == 19 == 37 - 18
    assert all(steps_by_rule(board.D4, c) <= 2 for c in board.WITHIN_2[board.D4])
    for name, n in by_hand.items():
        assert len(board.WITHIN_2[C(name)]) == n, name
    # No Place on d4 (opening restriction), every other cell is a Place.
    places = [p.cell for p in projects_in_order(turns)]
    assert names(places) == [n for n in board.NAMES if n != "d4"]


# --------------------------------------------------------------- the order ---


def test_order_full_list_by_hand_place_b3():
    """ORDER, Place on b3.  Cells within 2 of b3: a1-a4, b1-b5, c2-c5, d3-d5.
    Shapes in board order (raise before lower): a1 is tier 1 (B's stone): +a1,
    -a1; c3 is tier 2: only -c3; every other cell is tier 0: a raise only.
    17 Shapes; the Shape is mandatory (empty cells are in range).
    Echo after each Shape: none; *a1 while a1 stays tier >= 1 (not after -a1);
    #c3 while c3 stays tier 2 (not after -c3).  14 × 3 + 3 (+a1) + 2 + 2 = 49."""
    expected = []
    for shape in [
        "+a1",
        "-a1",
        "+a2",
        "+a3",
        "+a4",
        "+b1",
        "+b2",
        "+b3",
        "+b4",
        "+b5",
        "+c2",
        "-c3",
        "+c4",
        "+c5",
        "+d3",
        "+d4",
        "+d5",
    ]:
        expected.append(f"b3 {shape}")
        if shape != "-a1":
            expected.append(f"b3 {shape} *a1")
        if shape != "-c3":
            expected.append(f"b3 {shape} #c3")
    assert len(expected) == 49
    got = legal_turns(ORDER, project=Place(C("b3")))
    assert htns(got) == expected
    assert got == [T(h) for h in expected]


def test_order_full_list_by_hand_place_g7():
    """ORDER, Place on g7 (far from everything): 9 raises (e5 e6 e7 f5 f6 f7
    g5 g6 g7, board order), each with no Echo, *a1, #c3: 27 turns."""
    expected = [
        f"g7 +{c}{e}" for c in ["e5", "e6", "e7", "f5", "f6", "f7", "g5", "g6", "g7"] for e in ["", " *a1", " #c3"]
    ]
    assert htns(legal_turns(ORDER, project=Place(C("g7")))) == expected


def test_order_places_in_board_order():
    # ORDER: stones on a1 a2 b1 b2 c3; A has placed, so d4 is allowed.
    occupied = {"a1", "a2", "b1", "b2", "c3"}
    places = projects_in_order(legal_turns(ORDER))
    assert [board.name(p.cell) for p in places] == [n for n in board.NAMES if n not in occupied]


def _random_game_positions(seed: int, n: int) -> list[Position]:
    rng = random.Random(seed)
    pos, out = Position.start(), []
    for _ in range(n):
        turns = legal_turns(pos)
        if not turns:
            break
        out.append(pos)
        v = check(pos, rng.choice(turns))
        assert v.legal
        pos = v.outcome.position
        if v.outcome.game.over:
            break
    return out


@pytest.mark.parametrize("label", ["start", "order", "moves", "skip"])
def test_documented_order_holds(label):
    pos = {"start": Position.start(), "order": ORDER, "moves": MOVES, "skip": SKIP}[label]
    turns = legal_turns(pos)
    assert turns
    assert_documented_order(turns)


def test_documented_order_holds_along_random_games():
    seen_lower = seen_capture = seen_lock = seen_move = 0
    for seed in (1, 2, 3):
        for pos in _random_game_positions(seed, 60):
            turns = legal_turns(pos)
            assert_documented_order(turns)
            seen_lower += any(t.shape and t.shape.kind == LOWER for t in turns)
            seen_capture += any(t.echo and t.echo.kind == CAPTURE for t in turns)
            seen_lock += any(t.echo and t.echo.kind == LOCK for t in turns)
            seen_move += any(isinstance(t.project, Move) for t in turns)
    # the games did exercise every part of the order
    assert seen_lower and seen_capture and seen_lock and seen_move


def test_order_moves_by_from_then_to():
    """MOVES: A's Moves, worked out per stone (RULES §4, move.destination):
      a1, a2: every neighbour holds A's stone                  -> none
      a3 (t1): a4 B t0 < 1 yes; b4 B t1, not < 1              -> a3xa4
      b1 (t0): c2 B t0, not < 0                                -> none
      b2 (t0): c2 B t0, c3 B t1                                -> none
      b3 (t2): b4 B t1 yes; c3 B t1 yes; c4 B t2, not < 2      -> b3xb4, b3xc3
      c1 (t0): c2 B t0, d1 B t0 no; d2 empty                   -> c1-d2
    Board order of from-cells: a3 (3rd), b3 (7th), c1 (10th); to-cells b4 before c3."""
    expected = ["a3xa4", "b3xb4", "b3xc3", "c1-d2"]
    turns = legal_turns(MOVES)
    got = projects_in_order(turns)
    assert [turn_to_htn(Turn(p), MOVES) for p in got] == expected
    assert [turn_to_htn(Turn(m), MOVES) for m in legal_moves(MOVES)] == expected
    assert_documented_order(turns)


# --------------------------------------------------------------- filtering ---


@pytest.mark.parametrize("label", ["start", "order", "moves", "skip"])
def test_filter_by_project_and_shape(label):
    pos = {"start": Position.start(), "order": ORDER, "moves": MOVES, "skip": SKIP}[label]
    full = legal_turns(pos)
    for p in projects_in_order(full):
        sub = [t for t in full if t.project == p]
        assert legal_turns(pos, project=p) == sub
        shapes = []
        for t in sub:
            if t.shape is not None and t.shape not in shapes:
                shapes.append(t.shape)
        for s in shapes:
            assert legal_turns(pos, project=p, shape=s) == [t for t in full if t.project == p and t.shape == s]


def test_filter_with_illegal_project_or_shape_is_empty():
    start = Position.start()
    assert legal_turns(start, project=Place(C("d4"))) == []  # opening restriction
    assert legal_turns(ORDER, project=Place(C("a2"))) == []  # occupied
    assert legal_turns(ORDER, project=Move(C("a2"), C("a3"))) == []  # reserve not empty
    assert legal_turns(MOVES, project=Place(C("d2"))) == []  # reserve empty
    assert legal_turns(MOVES, project=Move(C("b3"), C("c4"))) == []  # c4 tier 2, not lower
    assert legal_turns(start, project=Skip()) == []  # no cooldown
    # a Shape out of range (d4 is 3 steps from a1) and a lower of a tier-0 cell
    assert legal_turns(start, project=Place(C("a1")), shape=Shape(RAISE, C("d4"))) == []
    assert legal_turns(start, project=Place(C("a1")), shape=Shape(LOWER, C("a2"))) == []
    # a Shape filter alone keeps every Project that has that Shape
    got = legal_turns(start, shape=Shape(RAISE, C("a1")))
    assert names(p.cell for p in projects_in_order(got)) == ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
    assert all(t.shape == Shape(RAISE, C("a1")) for t in got)


# ----------------------------------------------------------- cooldown skip ---


def test_skip_position_is_what_the_comment_says():
    # independent of the checker: every cell is < 2 steps from the cooldown
    cd = [C(n) for n in SKIP_COOLDOWN]
    assert all(min(steps_by_rule(c, k) for k in cd) < 2 for c in board.CELLS)
    assert sorted(sum(1 for k in cd if steps_by_rule(c, k) <= 1) for c in board.CELLS) == [1] * 37
    assert SKIP.problems() == []
    assert SKIP.to_move == "A" and SKIP.player("A").reserve == 3


def test_skip_applies_turns_are_skip_and_skip_with_each_echo():
    """RULES §4 skip + D-5 (Echo still available) + D-7 (no Shape): no Echo,
    then the Echo-Capture of a4, then the Echo-Lock of c3."""
    assert skip_applies(SKIP)
    assert htns(legal_turns(SKIP)) == ["skip", "skip *a4", "skip #c3"]
    assert legal_turns(SKIP) == [
        Turn(Skip()),
        Turn(Skip(), None, Echo(CAPTURE, C("a4"))),
        Turn(Skip(), None, Echo(LOCK, C("c3"))),
    ]


def test_skip_applies_without_charges_is_skip_alone():
    pos = build(SKIP_CELLS, to_move="A", A={"cooldown": SKIP_COOLDOWN, "charges": 0})
    assert legal_turns(pos) == [Turn(Skip())]


def test_skip_with_echo_lock_used_has_no_lock():
    # A has used the Echo-Lock (on d7, tier 2 and locked): only the Echo-Capture remains.
    cells = dict(SKIP_CELLS, d7="2*")
    pos = build(
        cells,
        to_move="A",
        A={"cooldown": SKIP_COOLDOWN, "echo_lock_used": True, "charges": 2},
        B={"echo_lock_used": False},
    )
    assert htns(legal_turns(pos)) == ["skip", "skip *a4"]


def test_skip_does_not_apply_when_a_place_is_left():
    """Without g5 the cooldown leaves g5 and its neighbours f4 f5 g4 g6
    uncovered (each cell was covered once): those are the only Places, 2+ steps
    from every remaining cooldown cell; there is no skip."""
    cooldown = [n for n in SKIP_COOLDOWN if n != "g5"]
    pos = build(SKIP_CELLS, to_move="A", A={"cooldown": cooldown})
    assert not skip_applies(pos)
    turns = legal_turns(pos)
    assert turns and not any(isinstance(t.project, Skip) for t in turns)
    assert names(p.cell for p in projects_in_order(turns)) == ["f4", "f5", "g4", "g5", "g6"]
    # and every turn has a Shape (empty cells within 2 steps)
    assert all(t.shape is not None for t in turns)


def test_no_skip_without_cooldown():
    pos = build(SKIP_CELLS, to_move="A")
    assert not any(isinstance(t.project, Skip) for t in legal_turns(pos))


# ----------------------------------------------------------- shape mandate ---

# The eight cells around a1 within 2 steps are tier 2 and A has no lowers left:
# no Shape is legal on them (a raise needs tier 0 or 1, a lower needs budget).
_RING_A1 = ["a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]


def test_mandate_waived_lists_turns_without_shape():
    """Place on a1: the only legal Shape is +a1, on A's own new stone, so the
    Shape may be left out (RULES §5 shape.mandate): [a1, a1 +a1]; no Echo
    (no enemy stone, a1 reaches only tier 1)."""
    pos = build({n: "2" for n in _RING_A1}, to_move="A", A={"lowers_left": 0})
    assert htns(legal_turns(pos, project=Place(C("a1")))) == ["a1", "a1 +a1"]


def test_mandate_not_waived_with_lowering_budget():
    """Same, but A has 1 lower left: each tier-2 empty cell may be lowered,
    so the Shape is mandatory; Shapes in board order: +a1 then eight lowers."""
    pos = build({n: "2" for n in _RING_A1}, to_move="A", A={"lowers_left": 1})
    assert htns(legal_turns(pos, project=Place(C("a1")))) == [
        "a1 +a1",
        "a1 -a2",
        "a1 -a3",
        "a1 -b1",
        "a1 -b2",
        "a1 -b3",
        "a1 -c1",
        "a1 -c2",
        "a1 -c3",
    ]


def test_mandate_not_waived_by_an_enemy_stone_target():
    """c3 tier 1 holding B's stone may be raised (D-6): that Shape targets a
    cell not occupied by A's own stone, so the Shape is mandatory."""
    cells = {n: "2" for n in _RING_A1}
    cells["c3"] = "1B"
    pos = build(cells, to_move="A", A={"lowers_left": 0})
    assert htns(legal_turns(pos, project=Place(C("a1")))) == ["a1 +a1", "a1 +c3"]


def test_mandate_no_shape_turn_iff_no_mandating_shape():
    """On every position of a few random games: a Project has a no-Shape turn
    exactly when none of its Shapes targets a cell not holding the mover's
    own stone (after the Project)."""
    for seed in (4, 5):
        for pos in _random_game_positions(seed, 60):
            turns = legal_turns(pos)
            for p in projects_in_order(turns):
                if isinstance(p, Skip):
                    continue
                sub = [t for t in turns if t.project == p]
                stones = list(pos.stones)
                if isinstance(p, Move):
                    stones[p.src] = None
                landing = p.cell if isinstance(p, Place) else p.dst
                stones[landing] = pos.to_move
                mandating = [t.shape for t in sub if t.shape is not None and stones[t.shape.cell] != pos.to_move]
                assert (any(t.shape is None for t in sub)) == (not mandating), (pos, p)


def test_start_every_turn_has_a_shape():
    assert all(t.shape is not None for t in legal_turns(Position.start()))


# ------------------------------------------------------------- game over ---


def _takeover():
    return build({"c3": "1A", "e5": "0B"}, to_move="B", half_moves=21, A={"captures": 6})


def _network():
    # A's c3 c4 d3 d4 d5 on tier 2, connected (c3-c4, c3-d3, c4-d4, d3-d4, d4-d5); B to move.
    return build({"c3": "2A", "c4": "2A", "d3": "2A", "d4": "2A", "d5": "2A"}, to_move="B")


def _strangle():
    # A (to move) has an empty reserve; every neighbour of A's stones holds A's
    # stone or B's stone on the same tier 0, so A has no legal Move.
    #   a3: a4 b4 (B) | b1: c2 (B) | b2: c2 c3 (B) | b3: b4 c3 c4 (B) | c1: c2 d1 d2 (B)
    return build(
        {
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
        },
        to_move="A",
    )


def _tiebreak():
    return build({"c3": "1A", "e5": "1B"}, half_moves=60)


@pytest.mark.parametrize(
    "reason,make", [("takeover", _takeover), ("network", _network), ("strangle", _strangle), ("tiebreak", _tiebreak)]
)
def test_finished_game_has_no_legal_turn(reason, make):
    pos = make()
    assert pos.problems() == []
    assert game_over_reason(pos) == reason
    assert legal_turns(pos) == []
    # any turn fails game.over
    assert "game.over" in check(pos, T("g7 +g6")).violations


def test_not_finished_controls_have_turns():
    # one capture short of Takeover, four stones short of a Network, half-move 58
    assert legal_turns(build({"c3": "1A", "e5": "0B"}, to_move="B", half_moves=21, A={"captures": 5}))
    assert legal_turns(build({"c3": "2A", "c4": "2A", "d3": "2A", "d4": "2A", "d5": "1A"}, to_move="B"))
    assert legal_turns(build({"c3": "1A", "e5": "1B"}, half_moves=58))
    # the strangle board with d2 empty: A may Move c1-d2
    cells = {
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
    }
    pos = build(cells, to_move="A")
    assert [turn_to_htn(Turn(p)) for p in projects_in_order(legal_turns(pos))] == ["c1-d2"]


# ------------------------------------------------------------ empty reserve ---


def test_empty_reserve_gives_moves_only():
    turns = legal_turns(MOVES)
    assert MOVES.player("A").reserve == 0
    assert turns and all(isinstance(t.project, Move) for t in turns)


def test_move_capture_only_onto_strictly_lower_enemy():
    enemy = "B"  # A (to move) has an empty reserve; B's stones are the enemy
    captures = []
    for p in projects_in_order(legal_turns(MOVES)):
        if MOVES.stones[p.dst] is not None:
            assert MOVES.stones[p.dst] == enemy
            assert MOVES.tiers[p.dst] < MOVES.tiers[p.src]
            captures.append(turn_to_htn(Turn(p), MOVES))
    assert captures == ["a3xa4", "b3xb4", "b3xc3"]
    # equal tiers are not enough (b3 t2 -> c4 t2, a3 t1 -> b4 t1), nor higher (b2 t0 -> c3 t1)
    for src, dst in [("b3", "c4"), ("a3", "b4"), ("b2", "c3"), ("b1", "c2")]:
        assert legal_turns(MOVES, project=Move(C(src), C(dst))) == []


def test_move_capture_turns_judged_after_the_capture():
    """b3xc3: the landing cell c3 now holds A's stone, so after +c3 (tier 2)
    the Echo-Lock of c3 is offered (A's own stone on tier 2)."""
    sub = legal_turns(MOVES, project=Move(C("b3"), C("c3")))
    texts = htns(sub, MOVES)
    assert "b3xc3 +c3 #c3" in texts
    assert "b3xc3 #c3" not in texts  # c3 is still tier 1 without the raise
    for t in sub:
        assert check(MOVES, t).legal


def test_a_locked_empty_cell_is_not_among_the_place_cells():
    # c1 is empty, Tier 2 and locked (B's Echo-Lock; the lock count is 1): RULES §4, a locked cell
    # can never be Placed onto, with or without the cooldown; every other empty cell can.
    pos = build({"c1": "2*", "g7": "0A", "e5": "0B"}, A={"echo_lock_used": False}, B={"echo_lock_used": True})
    free = [c for c in range(37) if c not in (C("c1"), C("g7"), C("e5"))]
    assert place_cells(pos) == place_cells(pos, ignore_cooldown=True) == free
    assert not any(t.project == Place(C("c1")) for t in legal_turns(pos))
