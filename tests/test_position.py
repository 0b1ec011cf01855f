"""Positions: the start, value semantics, the repetition key and the D-3
consistency conditions (RULES §2, §8, D-3).

Positions are built explicitly here (``mk``), with every counter written out,
so each test states by hand which D-3 conditions hold.
"""

from __future__ import annotations

import random
import re

import pytest

from checker import board
from checker.position import Bits, PlayerState, Position, Problem

D3_IDS = [
    "position.range",
    "position.stone-count",
    "position.tier",
    "position.lock-tier",
    "position.lock-count",
    "position.lock-charges",
    "position.unplaced",
    "position.cooldown",
    "position.to-move",
    "position.shape-count",
    "position.tier-sum",
]


def C(name: str) -> int:
    return board.parse_cell(name)


def ps(
    reserve=7, charges=3, lowers_left=6, captures=0, raises=0, placed=False, echo_lock_used=False, cooldown=()
) -> PlayerState:
    return PlayerState(
        reserve, charges, lowers_left, captures, raises, placed, echo_lock_used, frozenset(C(n) for n in cooldown)
    )


def mk(cells: dict[str, tuple], to_move: str, half_moves: int, A: PlayerState, B: PlayerState) -> Position:
    """``cells`` maps a name to (tier, stone, locked)."""
    return Position.from_cells(
        {C(n): v for n, v in cells.items()}, to_move=to_move, half_moves=half_moves, players={"A": A, "B": B}
    )


def rules(pos: Position) -> list[str]:
    return [p.rule for p in pos.problems()]


def problems_of(pos: Position, rule: str) -> list[Problem]:
    return [p for p in pos.problems() if p.rule == rule]


def has_number(text: str, n: int) -> bool:
    return re.search(rf"(?<![\d-]){re.escape(str(n))}(?!\d)", text) is not None


# BASE: after 2 half-moves. A placed c3 and raised it; B placed e5 and raised it.
# tiers 1 + 1 = 2 = raises 1 + 1 − lowers 0; A has had 1 turn ((2+1)//2), B 1 turn (2//2).
BASE_CELLS = {"c3": (1, "A", False), "e5": (1, "B", False)}
BASE_A = ps(reserve=6, raises=1, placed=True)
BASE_B = ps(reserve=6, raises=1, placed=True)


def base(**kw) -> Position:
    cells = dict(BASE_CELLS)
    cells.update(kw.pop("cells", {}))
    args = dict(to_move="A", half_moves=2, A=BASE_A, B=BASE_B)
    args.update(kw)
    return mk(cells, **args)


# AFTER1: after half-move 1. A placed c3 and raised it; B has not had a turn.
AFTER1_CELLS = {"c3": (1, "A", False)}
AFTER1_A = ps(reserve=6, raises=1, placed=True)


def after1(B: PlayerState, cells=None, half_moves=1, to_move="B", A=AFTER1_A) -> Position:
    c = dict(AFTER1_CELLS)
    c.update(cells or {})
    return mk(c, to_move, half_moves, A, B)


# ------------------------------------------------------------------ start ----


def test_start_position_counters():
    s = Position.start()
    assert s.to_move == "A"  # D-2: A moves first
    assert s.half_moves == 0
    assert s.tiers == (0,) * 37
    assert s.stones == (None,) * 37
    assert s.locked == (False,) * 37
    for who in "AB":
        p = s.player(who)
        assert (p.reserve, p.charges, p.lowers_left) == (7, 3, 6)
        assert (p.captures, p.raises) == (0, 0)
        assert p.placed is False
        assert p.echo_lock_used is False
        assert p.cooldown == frozenset()


def test_start_position_is_consistent():
    assert Position.start().problems() == []
    assert Position.start().is_consistent()


def test_hand_built_positions_are_consistent():
    assert base().problems() == []
    assert after1(ps()).problems() == []


# -------------------------------------------------------- value semantics ----


def test_equality_and_hash_by_value():
    s = Position.start()
    again = Position([0] * 37, [None] * 37, [False] * 37, "A", 0, {"A": PlayerState(), "B": PlayerState()})
    assert again == s
    assert hash(again) == hash(s)
    assert base() == base()
    assert hash(base()) == hash(base())
    assert len({base(), base(), s, again}) == 2
    assert base() != s
    # every field takes part in equality, the cooldown and half-moves too
    assert base(half_moves=4) != base()
    assert base(A=BASE_A.replace(cooldown=frozenset({C("a1")}))) != base()
    assert base(cells={"g7": (1, None, False)}) != base()


def test_replace_makes_a_new_position_and_leaves_the_old_one():
    b = base()
    r = b.replace(half_moves=4)
    assert r.half_moves == 4 and b.half_moves == 2
    assert r.tiers == b.tiers and r.stones == b.stones
    r2 = b.replace(B=BASE_B.replace(charges=2))
    assert r2.player("B").charges == 2 and b.player("B").charges == 3
    assert r2.player("A") == b.player("A")


# ------------------------------------------------------- repetition key ----


def test_key_ignores_cooldowns_and_half_moves():
    b = base()
    assert b.replace(half_moves=4).key() == b.key()
    assert b.replace(half_moves=0).key() == b.key()
    assert b.replace(A=BASE_A.replace(cooldown=frozenset({C("a1"), C("g7")}))).key() == b.key()
    assert b.replace(B=BASE_B.replace(cooldown=frozenset({C("d4")}))).key() == b.key()
    both = b.replace(
        half_moves=6, A=BASE_A.replace(cooldown=frozenset({C("a1")})), B=BASE_B.replace(cooldown=frozenset({C("b2")}))
    )
    assert both.key() == b.key()
    assert hash(both.key()) == hash(b.key())


def _with_cell(pos, cell, tier=None, stone="keep", locked=None):
    tiers, stones, locks = list(pos.tiers), list(pos.stones), list(pos.locked)
    c = C(cell)
    if tier is not None:
        tiers[c] = tier
    if stone != "keep":
        stones[c] = stone
    if locked is not None:
        locks[c] = locked
    return pos.replace(tiers=tiers, stones=stones, locked=locks)


KEY_CHANGES = {
    "stone added": lambda b: _with_cell(b, "g7", stone="A"),
    "stone removed": lambda b: _with_cell(b, "c3", stone=None),
    "stone owner": lambda b: _with_cell(b, "c3", stone="B"),
    "stone moved": lambda b: _with_cell(_with_cell(b, "c3", stone=None), "c4", stone="A"),
    "tier": lambda b: _with_cell(b, "g7", tier=1),
    "tier of a stone's cell": lambda b: _with_cell(b, "c3", tier=2),
    "lock": lambda b: _with_cell(b, "c3", locked=True),
    "A reserve": lambda b: b.replace(A=BASE_A.replace(reserve=5)),
    "B reserve": lambda b: b.replace(B=BASE_B.replace(reserve=5)),
    "A charges": lambda b: b.replace(A=BASE_A.replace(charges=2)),
    "B charges": lambda b: b.replace(B=BASE_B.replace(charges=2)),
    "A captures": lambda b: b.replace(A=BASE_A.replace(captures=1)),
    "B captures": lambda b: b.replace(B=BASE_B.replace(captures=1)),
    "A raises": lambda b: b.replace(A=BASE_A.replace(raises=2)),
    "B raises": lambda b: b.replace(B=BASE_B.replace(raises=2)),
    "A lowers_left": lambda b: b.replace(A=BASE_A.replace(lowers_left=5)),
    "B lowers_left": lambda b: b.replace(B=BASE_B.replace(lowers_left=5)),
    "A placed": lambda b: b.replace(A=BASE_A.replace(placed=False)),
    "B placed": lambda b: b.replace(B=BASE_B.replace(placed=False)),
    "A echo_lock_used": lambda b: b.replace(A=BASE_A.replace(echo_lock_used=True)),
    "B echo_lock_used": lambda b: b.replace(B=BASE_B.replace(echo_lock_used=True)),
    "to_move": lambda b: b.replace(to_move="B"),
}


@pytest.mark.parametrize("what", list(KEY_CHANGES))
def test_every_key_field_changes_the_key(what):
    # RULES §8: the key is stones, tiers, locks, each player's reserve, charges, captures,
    # raises, lowers left, placed and echo_lock_used, and the player to move.
    b = base()
    changed = KEY_CHANGES[what](b)
    assert changed != b
    assert changed.key() != b.key()
    # and the difference survives ignoring cooldowns and half-moves
    assert changed.replace(half_moves=9).key() != b.key()


def test_key_tells_the_players_apart():
    # the same change made to A or to B gives different keys
    b = base()
    a5 = b.replace(A=BASE_A.replace(reserve=5))
    b5 = b.replace(B=BASE_B.replace(reserve=5))
    assert a5.key() != b5.key()
    ac = b.replace(A=BASE_A.replace(captures=1))
    bc = b.replace(B=BASE_B.replace(captures=1))
    assert ac.key() != bc.key()


# -------------------------------------------------- D-3: one id at a time ----
# Each case: an inconsistent position breaking exactly one D-3 condition, the id,
# and numbers/cells the message must name.


def _charges4():
    # A charges 4 (> 3); A is placed and has not Echo-Locked, so nothing else cares.
    return base(A=BASE_A.replace(charges=4))


def _lowers7():
    # A lowers_left 7 (> 6). lowers used = 6 − 7 = −1. To keep the tier sum:
    # A raises 0: 0 + 1 − (−1) − 0 = 2 = tiers 1 + 1. Shape count: 0 + (−1) ≤ 1.
    return base(A=BASE_A.replace(lowers_left=7, raises=0))


def _half61():
    # half_moves 61 (> 60), odd so B to move; shape counts 1 ≤ 31 and 1 ≤ 30.
    return base(to_move="B", half_moves=61)


def _captures_neg():
    return base(A=BASE_A.replace(captures=-1))


def _raises_neg():
    # A raises −1: tier sum must be −1 + 1 = 0, so c3 and e5 stand on tier 0.
    return base(cells={"c3": (0, "A", False), "e5": (0, "B", False)}, A=BASE_A.replace(raises=-1))


def _reserve_neg():
    # A reserve −1 with 8 A stones on the board: 8 + (−1) = 7.
    cells = {n: (0, "A", False) for n in ["a1", "a2", "a3", "a4", "b1", "b2", "b3"]}
    return base(cells=cells, A=BASE_A.replace(reserve=-1))


def _stone_count():
    # A: 1 stone on the board + 5 in reserve = 6, not 7.
    return base(A=BASE_A.replace(reserve=5))


def _tier3():
    # c3 on tier 3 (A stone) and e5 on tier 1: sum 4. After 6 half-moves (A 3 turns, B 3 turns)
    # A raises 3, B raises 1: 3 + 1 = 4. Shape counts 3 ≤ 3, 1 ≤ 3.
    return base(cells={"c3": (3, "A", False)}, half_moves=6, A=BASE_A.replace(raises=3), B=BASE_B.replace(raises=1))


def _tier_neg():
    # c3 tier 2, e5 tier 1, d1 tier −1: sum 2 = raises 1 + 1.
    return base(cells={"c3": (2, "A", False), "d1": (-1, None, False)})


def _lock_tier():
    # c3 (tier 1, A) locked; A has Echo-Locked and has 2 charges; 1 lock, 1 user.
    return base(cells={"c3": (1, "A", True)}, A=BASE_A.replace(charges=2, echo_lock_used=True))


def _lock_count_lock_without_user():
    # c3 tier 2 locked, nobody has Echo-Locked. After 4 half-moves: A raises 2, B 1: tiers 2 + 1 = 3.
    return base(cells={"c3": (2, "A", True)}, half_moves=4, A=BASE_A.replace(raises=2))


def _lock_count_user_without_lock():
    # A has Echo-Locked (2 charges left) but no cell is locked.
    return base(A=BASE_A.replace(charges=2, echo_lock_used=True))


def _lock_charges():
    # c3 tier 2 locked by A, but A still has 3 charges.
    return base(cells={"c3": (2, "A", True)}, half_moves=4, A=BASE_A.replace(raises=2, echo_lock_used=True))


def _unplaced_stone():
    # B (not placed) has a stone on e5 and 6 in reserve (1 + 6 = 7).
    return after1(ps(reserve=6), cells={"e5": (0, "B", False)})


def _unplaced_placed_too_early():
    # half_moves 1: B has had no turn yet but is marked placed.
    return after1(ps(placed=True))


def _cooldown_not_mover():
    # B has a cooldown but A is to move.
    return base(B=BASE_B.replace(cooldown=frozenset({C("d4")})))


def _cooldown_no_reserve():
    # A to move with a cooldown but all 7 stones on the board (reserve 0).
    cells = {n: (0, "A", False) for n in ["a1", "a2", "a3", "a4", "b1", "b2"]}
    return base(cells=cells, A=BASE_A.replace(reserve=0, cooldown=frozenset({C("d4")})))


def _to_move():
    # half_moves 2 is even, so A is to move, not B.
    return base(to_move="B")


def _shape_count_raises():
    # A raised twice in 1 turn: c3 tier 2, e5 tier 1: 2 + 1 = 3 = raises 2 + 1.
    return base(cells={"c3": (2, "A", False)}, A=BASE_A.replace(raises=2))


def _shape_count_lowers():
    # A: 1 raise + 1 lower = 2 Shapes in 1 turn. Tier sum: 1 + 1 − 1 − 0 = 1 = c3 0 + e5 1.
    return base(cells={"c3": (0, "A", False)}, A=BASE_A.replace(raises=1, lowers_left=5))


def _tier_sum():
    # g7 tier 1 too: tiers 1 + 1 + 1 = 3, raises 1 + 1 − lowers 0 = 2.
    return base(cells={"g7": (1, None, False)})


ONE_ID_CASES = {
    # name: (builder, rule, numbers the message names, cells of the problem or None)
    "range charges": (_charges4, "position.range", [4], None),
    "range lowers_left": (_lowers7, "position.range", [7], None),
    "range half_moves": (_half61, "position.range", [61], None),
    "range captures": (_captures_neg, "position.range", [-1], None),
    "range raises": (_raises_neg, "position.range", [-1], None),
    "range reserve": (_reserve_neg, "position.range", [-1], None),
    "stone-count": (_stone_count, "position.stone-count", [1, 5, 6], None),
    "tier 3": (_tier3, "position.tier", [3], ["c3"]),
    "tier -1": (_tier_neg, "position.tier", [-1], ["d1"]),
    "lock-tier": (_lock_tier, "position.lock-tier", [1], ["c3"]),
    "lock-count lock": (_lock_count_lock_without_user, "position.lock-count", [1], None),
    "lock-count user": (_lock_count_user_without_lock, "position.lock-count", [0], None),
    "lock-charges": (_lock_charges, "position.lock-charges", [3], None),
    "unplaced stone": (_unplaced_stone, "position.unplaced", [1], None),
    "unplaced too early": (_unplaced_placed_too_early, "position.unplaced", [], None),
    "cooldown not mover": (_cooldown_not_mover, "position.cooldown", [], ["d4"]),
    "cooldown no reserve": (_cooldown_no_reserve, "position.cooldown", [], ["d4"]),
    "to-move": (_to_move, "position.to-move", [2], None),
    "shape-count raises": (_shape_count_raises, "position.shape-count", [2, 1], None),
    "shape-count lowers": (_shape_count_lowers, "position.shape-count", [2, 1], None),
    "tier-sum": (_tier_sum, "position.tier-sum", [3, 2], None),
}


@pytest.mark.parametrize("case", list(ONE_ID_CASES))
def test_position_breaking_exactly_one_condition(case):
    builder, rule, numbers, cells = ONE_ID_CASES[case]
    pos = builder()
    got = rules(pos)
    assert got and set(got) == {rule}, got
    assert not pos.is_consistent()
    msgs = " ".join(p.message for p in problems_of(pos, rule))
    for n in numbers:
        assert has_number(msgs, n), (n, msgs)
    if cells is not None:
        named = {c for p in problems_of(pos, rule) for c in p.cells}
        assert set(cells) <= named
        for c in cells:
            assert c in msgs


def test_every_d3_id_has_a_breaking_case():
    assert {v[1] for v in ONE_ID_CASES.values()} == set(D3_IDS)


def test_range_messages_name_player_and_counter():
    (p,) = _charges4().problems()
    assert "A" in p.message and "charges" in p.message
    (p,) = _half61().problems()
    assert "half_moves" in p.message and "60" in p.message


def test_stone_count_message_names_the_player():
    (p,) = _stone_count().problems()
    assert "A" in p.message and "7" in p.message


def test_cooldown_messages_name_the_player():
    (p,) = _cooldown_not_mover().problems()
    assert "B" in p.message
    (p,) = _cooldown_no_reserve().problems()
    assert "A" in p.message and "reserve" in p.message


def test_to_move_message_names_the_expected_player():
    (p,) = _to_move().problems()
    assert "A" in p.message and "B" in p.message


def test_tier_problems_are_one_per_cell():
    # c3 tier 3 and e5 tier −1: sum 2 = raises 1 + 1, so only position.tier, twice
    pos = base(cells={"c3": (3, "A", False), "e5": (-1, "B", False)})
    probs = pos.problems()
    assert [p.rule for p in probs] == ["position.tier", "position.tier"]
    assert {c for p in probs for c in p.cells} == {"c3", "e5"}


# --------------------------------------- D-3: consistent positions pass ----


def _consistent_cases():
    yield "base", base()
    yield "start", Position.start()
    # range: counters at the limits. A: reserve 0 (7 on board), charges 0, lowers_left 0,
    # raises 0; 6 lowers used in A's 30 turns, B raises 6 + tiers: 0 + 6 − 6 − 0 = 0.
    full = {n: (0, "A", False) for n in ["a1", "a2", "a3", "a4", "b1", "b2", "b3"]}
    full["g7"] = (0, "B", False)
    yield (
        "range limits",
        mk(
            full,
            "A",
            60,
            ps(reserve=0, charges=0, lowers_left=0, raises=0, captures=12, placed=True),
            ps(reserve=6, charges=3, raises=6, placed=True),
        ),
    )
    # lock-tier / lock-count / lock-charges: c3 tier 2 locked, A Echo-Locked with 2 charges.
    # After 4 half-moves A raises 2, B 1: tiers 2 + 1 = 3.
    yield (
        "one lock",
        base(cells={"c3": (2, "A", True)}, half_moves=4, A=BASE_A.replace(raises=2, charges=2, echo_lock_used=True)),
    )
    # two locks, both players used the Echo-Lock; a locked cell may have lost its stone.
    # tiers: c3 2, e5 2, d4 2 = 6; half 6 (3 turns each): A raises 3, B raises 3.
    yield (
        "two locks",
        mk(
            {"c3": (2, "A", True), "e5": (2, "B", False), "d4": (2, None, True)},
            "A",
            6,
            ps(reserve=6, raises=3, charges=2, echo_lock_used=True, placed=True),
            ps(reserve=6, raises=3, charges=1, echo_lock_used=True, placed=True),
        ),
    )
    # cooldown: the player to move with a stone in reserve.
    yield "mover cooldown", base(A=BASE_A.replace(cooldown=frozenset({C("d4"), C("g7")})))
    # unplaced: B to move, not placed, all at start values.
    yield "B unplaced", after1(ps())
    # B to move at half 1 with a cooldown is still "unplaced"-broken — not here; this one
    # has B placed at half 3 (B had 1 turn).
    yield (
        "B placed after a turn",
        mk(
            {"c3": (1, "A", False), "e5": (1, "B", False)},
            "B",
            3,
            ps(reserve=6, raises=1, placed=True),
            ps(reserve=6, raises=1, placed=True),
        ),
    )
    # shape-count at the limit: A 1 raise + 1 lower in 2 turns (half 4).
    # tiers: c3 0, e5 1, g7 1 = 2 = A 1 + B 2 − A 1 lower.
    yield (
        "shape-count limit",
        mk(
            {"c3": (0, "A", False), "e5": (1, "B", False), "g7": (1, None, False)},
            "A",
            4,
            ps(reserve=6, raises=1, lowers_left=5, placed=True),
            ps(reserve=6, raises=2, placed=True),
        ),
    )


CONSISTENT = dict(_consistent_cases())


@pytest.mark.parametrize("name", list(CONSISTENT))
def test_consistent_position_passes_every_condition(name):
    assert CONSISTENT[name].problems() == []


# ------------------------------------------ D-3: several broken at once ----


def test_every_broken_condition_is_listed():
    # A charges 4 (range), B reserve 5 with 1 stone (stone-count: 1 + 5 = 6),
    # B to move at half 2 (to-move), g7 tier 1 (tier-sum: 3 vs 2).
    pos = base(A=BASE_A.replace(charges=4), B=BASE_B.replace(reserve=5), to_move="B", cells={"g7": (1, None, False)})
    got = rules(pos)
    assert set(got) == {"position.range", "position.stone-count", "position.to-move", "position.tier-sum"}
    assert len(got) == 4


def test_many_broken_conditions_are_all_listed():
    # c3 tier 1 locked (lock-tier); nobody Echo-Locked (lock-count: 1 lock, 0 users);
    # B has a cooldown while A is to move (cooldown); A reserve 9 (range, and stone-count 1 + 9 = 10);
    # A raised 3 times in 1 turn (shape-count), and the tiers 1 + 1 = 2 ≠ 3 + 1 (tier-sum);
    # d1 tier 5 (tier; tiers now 1 + 1 + 5 = 7 ≠ 4, still tier-sum).
    pos = base(
        cells={"c3": (1, "A", True), "d1": (5, None, False)},
        A=BASE_A.replace(reserve=9, raises=3),
        B=BASE_B.replace(cooldown=frozenset({C("a1")})),
    )
    assert set(rules(pos)) == {
        "position.range",
        "position.stone-count",
        "position.tier",
        "position.lock-tier",
        "position.lock-count",
        "position.cooldown",
        "position.shape-count",
        "position.tier-sum",
    }


def test_both_players_broken_gives_a_problem_for_each():
    # A reserve 5 and B reserve 4: stone-count for both (1 + 5 = 6, 1 + 4 = 5)
    pos = base(A=BASE_A.replace(reserve=5), B=BASE_B.replace(reserve=4))
    probs = problems_of(pos, "position.stone-count")
    assert len(probs) == 2
    text = " ".join(p.message for p in probs)
    assert "A" in text and "B" in text
    assert has_number(text, 6) and has_number(text, 5)


def test_all_eleven_conditions_at_once():
    # A: reserve 8 with 1 stone on c3 (range; stone-count 1 + 8 = 9), raises 4 in 1 turn
    #    (shape-count), Echo-Lock used with 3 charges (lock-charges).
    # c3 tier 1 locked (lock-tier); two locked cells (c3, e5) but only A used the Echo-Lock (lock-count).
    # d1 tier 7 (tier); tiers 1 + 1 + 7 = 9 ≠ raises 4 + 1 (tier-sum).
    # B: not placed but has a stone on e5 (unplaced), and a cooldown while A is to move (cooldown).
    # to_move A at half 3 (to-move).
    pos = mk(
        {"c3": (1, "A", True), "e5": (1, "B", True), "d1": (7, None, False)},
        "A",
        3,
        ps(reserve=8, raises=4, charges=3, echo_lock_used=True, placed=True),
        ps(reserve=6, raises=1, cooldown=["g7"]),
    )
    assert set(rules(pos)) == set(D3_IDS)


# --------------------------------------------- D-3: position.unplaced ----


@pytest.mark.parametrize(
    "case, B, extra_cells, half, a_state, words",
    [
        # B has 2 charges before any Place
        ("charges", ps(charges=2), {}, 1, AFTER1_A, ["charges", "2"]),
        # B has 1 capture
        ("captures", ps(captures=1), {}, 1, AFTER1_A, ["captures", "1"]),
        # B has a cooldown (B to move, 7 in reserve, so position.cooldown holds)
        ("cooldown", ps(cooldown=["d4"]), {}, 1, AFTER1_A, ["cooldown"]),
        # B lowered once: half 3 (B has had 1 turn, shape count 1 ≤ 1);
        # A raises 2 (2 turns): tiers c3 1 = 2 − 1.
        ("lowers_left", ps(lowers_left=5), {}, 3, AFTER1_A.replace(raises=2), ["lowers_left", "5"]),
        # B raised once: half 3; tiers c3 1 + g7 1 = A 1 + B 1.
        ("raises", ps(raises=1), {"g7": (1, None, False)}, 3, AFTER1_A, ["raises", "1"]),
        # B Echo-Locked (2 charges) with a lock on c3 tier 2: half 3, A raises 2 (tiers 2).
        (
            "echo-lock",
            ps(charges=2, echo_lock_used=True),
            {"c3": (2, "A", True)},
            3,
            AFTER1_A.replace(raises=2),
            ["Echo-Lock"],
        ),
    ],
)
def test_unplaced_sub_conditions(case, B, extra_cells, half, a_state, words):
    pos = after1(B, cells=extra_cells, half_moves=half, A=a_state)
    assert rules(pos) == ["position.unplaced"], pos.problems()
    (p,) = pos.problems()
    assert "B" in p.message
    for w in words:
        assert w in p.message, (w, p.message)


def test_unplaced_with_everything_wrong_is_listed_once_with_all_fields():
    # B not placed; stone on e5 (reserve 6), charges 2 — both named
    pos = after1(ps(reserve=6, charges=2), cells={"e5": (0, "B", False)})
    assert rules(pos) == ["position.unplaced"]
    msg = pos.problems()[0].message
    assert "charges" in msg and "reserve" in msg


def test_player_without_a_turn_has_placed_false():
    # At half 0 A has had no turn: A placed is a problem.
    pos = Position.start().replace(A=PlayerState(placed=True))
    assert rules(pos) == ["position.unplaced"]
    assert "A" in pos.problems()[0].message
    # At half 1 B has had no turn (A had 1): B placed is a problem, A placed is not.
    assert rules(_unplaced_placed_too_early()) == ["position.unplaced"]
    assert "B" in _unplaced_placed_too_early().problems()[0].message
    # At half 2 B has had 1 turn: both placed is fine (BASE).
    assert base().problems() == []


# --------------------------------------------- D-3: position.cooldown ----


def test_cooldown_only_for_the_player_to_move():
    # A to move: A's cooldown is fine, B's is not
    assert base(A=BASE_A.replace(cooldown=frozenset({C("a1")}))).problems() == []
    assert rules(base(B=BASE_B.replace(cooldown=frozenset({C("a1")})))) == ["position.cooldown"]
    # B to move (half 3): B's is fine, A's is not
    b_to_move = mk(BASE_CELLS, "B", 3, BASE_A, BASE_B)
    assert b_to_move.problems() == []
    assert b_to_move.replace(B=BASE_B.replace(cooldown=frozenset({C("a1")}))).problems() == []
    assert rules(b_to_move.replace(A=BASE_A.replace(cooldown=frozenset({C("a1")})))) == ["position.cooldown"]


def test_cooldown_only_with_a_stone_in_reserve():
    assert rules(_cooldown_no_reserve()) == ["position.cooldown"]
    # the same position with the cooldown cleared is consistent
    pos = _cooldown_no_reserve()
    assert pos.replace(A=pos.player("A").replace(cooldown=frozenset())).problems() == []
    # one stone in reserve is enough: 6 on the board + 1 in reserve
    cells = {n: (0, "A", False) for n in ["a1", "a2", "a3", "a4", "b1"]}
    ok = base(cells=cells, A=BASE_A.replace(reserve=1, cooldown=frozenset({C("d4")})))
    assert ok.problems() == []


# ------------------------------------------- the board held two ways ----


@pytest.mark.parametrize("seed", range(4))
def test_the_masks_and_the_tuples_say_the_same_along_a_game(seed):
    """A position after a turn is made as masks and its tuples are made from them;
    a position given as tuples makes its masks from them. Along seeded games (the
    Echoes and captures preferred) the two views agree both ways, and so do
    equality, hash and the repetition key."""
    from checker.generate import legal_turns
    from checker.play import apply

    rng, pos = random.Random(seed), Position.start()
    while turns := legal_turns(pos):
        again = Position(pos.tiers, pos.stones, pos.locked, pos.to_move, pos.half_moves, pos.players)
        assert again.bits == pos.bits == Bits.of(pos.tiers, pos.stones, pos.locked)
        assert (again.tiers, again.stones, again.locked) == (pos.tiers, pos.stones, pos.locked)
        assert again == pos and hash(again) == hash(pos) and again.key() == pos.key()
        assert sum(pos.tiers) == pos.bits.tier1.bit_count() + 2 * pos.bits.tier2.bit_count()
        assert (pos.stones.count("A"), pos.stones.count("B")) == (pos.bits.a.bit_count(), pos.bits.b.bit_count())
        assert sum(pos.locked) == pos.bits.locked.bit_count()
        echoes = [t for t in turns if t.echo is not None]
        pos = apply(pos, rng.choice(echoes if echoes and rng.random() < 0.5 else turns)).position
