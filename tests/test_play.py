"""Applying legal turns: checker.play.apply and check(...).outcome (RULES §4, §6, §7, §8).

Every position is built with ``tests.helpers.build`` (which asserts D-3
consistency) and every turn is first judged legal by ``check``; the outcome
is then read off the verdict.  Expected values are worked out by hand from
RULES.md; the arithmetic is in the comments.

Board reminders (RULES §1): the neighbours of (row i, column j) are
(i, j-1), (i, j+1), (i-1, j), (i+1, j), (i-1, j-1), (i+1, j+1).
d4 = (4, 4): neighbours d3, d5, c4, e4, c3, e5 (no edge slot).
a1 = (1, 1): neighbours a2, b1, b2 and 3 edge slots.
a2 = (1, 2): neighbours a1, a3, b2, b3 and 2 edge slots.
a3 = (1, 3): neighbours a2, a4, b3, b4 and 2 edge slots.
"""

from __future__ import annotations

from collections import Counter

from checker import board
from checker.ending import game_over_reason
from checker.generate import legal_turns
from checker.legality import check
from checker.play import apply
from tests.helpers import C, T, build

CAPTURE_LINK = "https://hexodic.com/rules/capture"
GAME_END_LINK = "https://hexodic.com/rules/game-end"


# ------------------------------------------------------------ helpers ------


def play(pos, htn, history=()):
    """Check ``htn`` from ``pos`` (it must be legal) and return the outcome.

    ``history`` defaults to an empty list (evaluated); pass ``None`` for no
    history.  Also asserts what holds after every turn: the new position is
    consistent (D-3), stones on the board + reserve = 7 for both players
    (§2), one half-move was played and the other player is to move (§3)."""
    assert pos.problems() == []
    hist = None if history is None else list(history)
    verdict = check(pos, T(htn), hist)
    assert verdict.legal, (verdict.summary, verdict.violations)
    out = verdict.outcome
    assert out is not None
    after = out.position
    assert after.problems() == [], after.problems()
    for who in "AB":
        assert after.stones.count(who) + after.player(who).reserve == 7
    assert after.half_moves == pos.half_moves + 1
    assert after.to_move == ("B" if pos.to_move == "A" else "A")
    return out


def stone(pos, name):
    return pos.stones[C(name)]


def weighing(out, name, kind="encirclement"):
    found = [w for w in out.capture_check if w.cell == name and w.check == kind]
    assert len(found) == 1, out.capture_check
    return found[0]


def terms(w):
    """The terms of a weighing as a multiset of (kind, value, cell)."""
    return Counter((t.kind, t.value, t.cell) for t in w.terms)


def event_types(out):
    return [e.type for e in out.events]


def events_of(out, type_, kind=None):
    return [e for e in out.events if e.type == type_ and (kind is None or e.kind == kind)]


def cooldown(pos, who):
    return set(board.names(pos.player(who).cooldown))


# The ring of six cells around d4 (all on the board, no edge slot).
RING = ("d3", "d5", "c4", "e4", "c3", "e5")


def ring_position(centre, ring, empty_ring_cell="e5", empty_tier="1"):
    """d4 holds ``centre``; the ring cells hold ``ring`` except the empty
    ``empty_ring_cell`` (tier ``empty_tier``) that A fills this turn."""
    cells = {"d4": centre}
    for n in RING:
        cells[n] = empty_tier if n == empty_ring_cell else ring
    return cells


# ------------------------------------------- §7 encirclement, the facts ----


def test_tier1_stone_surrounded_by_six_tier1_stones_is_not_captured():
    # B on d4 (tier 1); A on d3, d5, c4, e4, c3 (tier 1); A Places the sixth
    # on e5 (tier 1) and raises e7 (2 steps from e5, touches nothing).
    pos = build(ring_position("1B", "1A"), to_move="A")
    out = play(pos, "e5 +e7")
    w = weighing(out, "d4")
    # 1 + 1 + 1 + 1 + 1 + 1 = 6, threshold 6 x 1 = 6; 6 is not > 6.
    assert (w.owner, w.tier, w.sum, w.threshold, w.captured) == ("B", 1, 6, 6, False)
    assert terms(w) == Counter({("stone", 1, n): 1 for n in RING})
    assert "d4" in w.message and "6" in w.message
    assert stone(out.position, "d4") == "B"
    assert events_of(out, "capture") == []
    assert out.position.player("A").captures == 0


def test_tier1_stone_captured_when_the_shape_raises_one_neighbour_to_tier2():
    # Same ring; A Places e5 and raises d3 (A's own stone, D-6) from 1 to 2.
    pos = build(ring_position("1B", "1A"), to_move="A")
    out = play(pos, "e5 +d3")
    w = weighing(out, "d4")
    # d3 2 + d5 1 + c4 1 + e4 1 + c3 1 + e5 1 = 7 > 6 x 1 = 6: captured.
    assert (w.tier, w.sum, w.threshold, w.captured) == (1, 7, 6, True)
    assert terms(w)[("stone", 2, "d3")] == 1
    after = out.position
    assert stone(after, "d4") is None
    assert after.player("B").reserve == pos.player("B").reserve + 1 == 7
    assert after.player("A").captures == 1
    assert cooldown(after, "B") == {"d4"}
    cap = events_of(out, "capture", "encirclement")
    assert len(cap) == 1 and cap[0].cells == ("d4",) and cap[0].player == "A"
    assert cap[0].more == CAPTURE_LINK


def test_tier1_stone_captured_when_the_sixth_stone_is_placed_on_tier2():
    # The empty ring cell e5 is tier 2; A Places there and raises e7.
    pos = build(ring_position("1B", "1A", empty_tier="2"), to_move="A")
    out = play(pos, "e5 +e7")
    w = weighing(out, "d4")
    # 1 x 5 + 2 = 7 > 6: captured.
    assert (w.sum, w.threshold, w.captured) == (7, 6, True)
    assert stone(out.position, "d4") is None


def test_tier2_stone_with_no_edge_slot_is_never_captured():
    # B on d4 (tier 2); all six ring stones of A on tier 2 after A Places e5.
    pos = build(ring_position("2B", "2A", empty_tier="2"), to_move="A")
    out = play(pos, "e5 +e7")
    w = weighing(out, "d4")
    # 2 x 6 = 12, threshold 6 x 2 = 12; 12 is not > 12: not captured.
    assert (w.tier, w.sum, w.threshold, w.captured) == (2, 12, 12, False)
    assert stone(out.position, "d4") == "B"
    assert events_of(out, "capture") == []
    # The six A stones on tier 2 form a ring: a connected group of 6 (Network).
    assert (out.game.over, out.game.result, out.game.reason) == (True, "A", "network")


def test_edge_slots_count_tier_plus_one_not_captured_at_six():
    # B on a2 (tier 1, 2 edge slots); A on a1 (1), a3 (1), b2 (0); A Places b3
    # (tier 0) and raises a4 (2 steps from b3? b3=(2,3), a4=(1,4): di=1,
    # dj=-1, opposite signs -> 2 steps).
    pos = build({"a2": "1B", "a1": "1A", "a3": "1A", "b2": "0A", "b3": "0"}, to_move="A")
    out = play(pos, "b3 +a4")
    w = weighing(out, "a2")
    # edges 2 x (1 + 1) = 4; a1 1 + a3 1 + b2 0 + b3 0 = 2; 4 + 2 = 6, not > 6.
    assert (w.sum, w.threshold, w.captured) == (6, 6, False)
    assert terms(w) == Counter(
        {
            ("edge", 2, None): 2,
            ("stone", 1, "a1"): 1,
            ("stone", 1, "a3"): 1,
            ("stone", 0, "b2"): 1,
            ("stone", 0, "b3"): 1,
        }
    )
    assert stone(out.position, "a2") == "B"


def test_edge_slots_count_tier_plus_one_captured_at_seven():
    # As above, but the Shape raises b2 (A's stone) from 0 to 1.
    pos = build({"a2": "1B", "a1": "1A", "a3": "1A", "b2": "0A", "b3": "0"}, to_move="A")
    out = play(pos, "b3 +b2")
    w = weighing(out, "a2")
    # edges 2 x 2 = 4; a1 1 + a3 1 + b2 1 + b3 0 = 3; 7 > 6: captured.
    assert (w.sum, w.threshold, w.captured) == (7, 6, True)
    assert stone(out.position, "a2") is None
    assert cooldown(out.position, "B") == {"a2"}


def test_corner_stone_three_edge_slots():
    # B on a1 (tier 1, 3 edge slots); A on a2 (0), b1 (0); A Places b2.
    base = {"a1": "1B", "a2": "0A", "b1": "0A"}
    # b2 tier 0: 3 x 2 = 6 + 0 + 0 + 0 = 6, not > 6.
    out = play(build({**base, "b2": "0"}, to_move="A"), "b2 +d4")
    w = weighing(out, "a1")
    assert (w.sum, w.threshold, w.captured) == (6, 6, False)
    assert terms(w)[("edge", 2, None)] == 3
    # b2 tier 1: 6 + 1 = 7 > 6, captured.
    out = play(build({**base, "b2": "1"}, to_move="A"), "b2 +d4")
    w = weighing(out, "a1")
    assert (w.sum, w.threshold, w.captured) == (7, 6, True)
    assert stone(out.position, "a1") is None


def test_tier2_stone_with_edge_slots_can_be_captured():
    # B on a2 (tier 2); A on a1 (2), a3 (2), b2 (2); A Places b3 (tier 1).
    pos = build({"a2": "2B", "a1": "2A", "a3": "2A", "b2": "2A", "b3": "1"}, to_move="A")
    out = play(pos, "b3 +a4")
    w = weighing(out, "a2")
    # edges 2 x (2 + 1) = 6; a1 2 + a3 2 + b2 2 + b3 1 = 7; 13 > 6 x 2 = 12.
    assert (w.tier, w.sum, w.threshold, w.captured) == (2, 13, 12, True)
    assert terms(w)[("edge", 3, None)] == 2
    assert stone(out.position, "a2") is None


def test_tier2_edge_stone_not_captured_at_twelve():
    # As above with b3 on tier 0: 6 + 2 + 2 + 2 + 0 = 12, not > 12.
    pos = build({"a2": "2B", "a1": "2A", "a3": "2A", "b2": "2A", "b3": "0"}, to_move="A")
    out = play(pos, "b3 +a4")
    w = weighing(out, "a2")
    assert (w.sum, w.threshold, w.captured) == (12, 12, False)
    assert stone(out.position, "a2") == "B"


def test_tier0_stone_is_never_encircled_nor_weighed():
    # B on d4 (tier 0); A Places e5 and completes the ring of six tier-1
    # stones.  Were d4 weighed: 6 > 6 x 0 = 0; but encirclement needs t >= 1.
    pos = build(ring_position("0B", "1A"), to_move="A")
    out = play(pos, "e5 +e7")
    assert out.capture_check == ()
    assert stone(out.position, "d4") == "B"
    assert out.position.player("A").captures == 0
    # A corner tier-0 stone with 3 edge slots: 3 x (0 + 1) = 3 > 0 if weighed.
    pos = build({"d1": "0B", "c1": "1A", "e2": "1A", "d2": "0"}, to_move="A")
    out = play(pos, "d2 +d4")
    assert out.capture_check == ()
    assert stone(out.position, "d1") == "B"


def test_only_opponent_stones_are_weighed_mover_stone_placed_into_a_trap():
    # A Places on a1 (tier 1) next to B's a2, b1, b2 (tier 1).  Were A's
    # stone weighed: 3 x 2 + 1 + 1 + 1 = 9 > 6.  It is A's turn: A's own
    # stones are never captured on A's turn.
    pos = build({"a1": "1", "a2": "1B", "b1": "1B", "b2": "1B", "g7": "0A"}, to_move="A")
    out = play(pos, "a1 +c1")
    assert stone(out.position, "a1") == "A"
    assert all(w.owner == "B" for w in out.capture_check)
    assert "a1" not in [w.cell for w in out.capture_check]
    assert out.position.player("B").captures == 0
    assert out.position.player("A").reserve == pos.player("A").reserve - 1


def test_all_stones_meeting_the_test_are_captured_at_once():
    # B on a1 (1) and a3 (1); A on b1 (0), b2 (0), a4 (1), b3 (1), b4 (0);
    # A Places a2 (tier 1), the common neighbour, and raises c2.
    pos = build(
        {"a1": "1B", "a3": "1B", "b1": "0A", "b2": "0A", "a4": "1A", "b3": "1A", "b4": "0A", "a2": "1"}, to_move="A"
    )
    out = play(pos, "a2 +c2")
    # a1: 3 edges x 2 = 6 + a2 1 + b1 0 + b2 0 = 7 > 6.
    assert (weighing(out, "a1").sum, weighing(out, "a1").captured) == (7, True)
    # a3: 2 edges x 2 = 4 + a2 1 + a4 1 + b3 1 + b4 0 = 7 > 6.
    assert (weighing(out, "a3").sum, weighing(out, "a3").captured) == (7, True)
    caps = events_of(out, "capture")
    assert len(caps) == 1 and caps[0].kind == "encirclement" and caps[0].cells == ("a1", "a3")
    after = out.position
    assert after.player("A").captures == 2
    assert after.player("B").reserve == pos.player("B").reserve + 2 == 7
    assert cooldown(after, "B") == {"a1", "a3"}
    assert event_types(out) == ["capture", "cooldown_set"]
    assert events_of(out, "cooldown_set")[0].cells == ("a1", "a3")
    assert events_of(out, "cooldown_set")[0].player == "B"


# ------------------------------------------------ capture_check contents ----


def test_capture_check_lists_every_weighed_stone_captured_or_not():
    # B on a1 (1): A on a2 (1), b1 (0), A Places b2 (0): 6 + 1 + 0 + 0 = 7 > 6.
    # B on g7 (1, corner: neighbours g6, f6, f7): A on all three at tier 0:
    #   3 x 2 + 0 = 6, not > 6 (weighed though far from the landing cell).
    # B on d4 (1) has empty neighbours: not weighed.
    pos = build(
        {"a1": "1B", "a2": "1A", "b1": "0A", "b2": "0", "g7": "1B", "g6": "0A", "f6": "0A", "f7": "0A", "d4": "1B"},
        to_move="A",
    )
    out = play(pos, "b2 +c1")
    assert sorted(w.cell for w in out.capture_check) == ["a1", "g7"]
    a1, g7 = weighing(out, "a1"), weighing(out, "g7")
    assert (a1.owner, a1.tier, a1.sum, a1.threshold, a1.captured) == ("B", 1, 7, 6, True)
    assert terms(a1) == Counter(
        {("edge", 2, None): 3, ("stone", 1, "a2"): 1, ("stone", 0, "b1"): 1, ("stone", 0, "b2"): 1}
    )
    assert (g7.owner, g7.tier, g7.sum, g7.threshold, g7.captured) == ("B", 1, 6, 6, False)
    assert terms(g7) == Counter(
        {("edge", 2, None): 3, ("stone", 0, "g6"): 1, ("stone", 0, "f6"): 1, ("stone", 0, "f7"): 1}
    )
    assert len(a1.terms) == len(g7.terms) == 6
    assert "captured" in a1.message and "not captured" in g7.message
    assert stone(out.position, "a1") is None and stone(out.position, "g7") == "B"
    assert stone(out.position, "d4") == "B"


def test_stone_next_to_its_own_colour_is_not_weighed_by_the_normal_check():
    # B on a4 (1) and b5 (1) touch each other; every other slot is edge or A:
    # a4 = (1,4): a3, b4, b5 + 3 edges; b5 = (2,5): b4, a4, c5, c6 + 2 edges.
    # A on a3 (2), b4 (2), c5 (2); A Places c6 (tier 2).  Neither B stone is
    # weighed (each has a B neighbour), so nothing is captured.
    pos = build({"a4": "1B", "b5": "1B", "a3": "2A", "b4": "2A", "c5": "2A", "c6": "2"}, to_move="A")
    out = play(pos, "c6 +d5")
    assert out.capture_check == ()
    assert stone(out.position, "a4") == "B" and stone(out.position, "b5") == "B"


# ----------------------------------------------------------- Move -----------


def move_capture_position():
    # A: c3 (tier 2) and six tier-0 corner stones: 7 on the board, reserve 0.
    # B: c4 (tier 1), f5 (tier 0).
    return build(
        {"c3": "2A", "a1": "0A", "a4": "0A", "d1": "0A", "d7": "0A", "g4": "0A", "g7": "0A", "c4": "1B", "f5": "0B"},
        to_move="A",
    )


def test_move_capture_onto_a_strictly_lower_enemy_stone():
    pos = move_capture_position()
    assert pos.player("A").reserve == 0
    verdict = check(pos, T("c3xc4 +e5"), [])
    assert verdict.legal and verdict.turn == "c3xc4 +e5"
    out = play(pos, "c3-c4 +e5")
    after = out.position
    assert stone(after, "c3") is None and stone(after, "c4") == "A"
    assert after.tiers[C("c3")] == 2 and after.tiers[C("c4")] == 1
    assert after.player("B").reserve == pos.player("B").reserve + 1 == 6
    assert after.player("A").captures == pos.player("A").captures + 1 == 1
    assert cooldown(after, "B") == {"c4"}
    cap = events_of(out, "capture")
    assert len(cap) == 1 and cap[0].kind == "move" and cap[0].cells == ("c4",) and cap[0].player == "A"
    assert cap[0].more == CAPTURE_LINK
    assert event_types(out) == ["capture", "cooldown_set"]
    # f5 is tier 0: nothing is weighed.
    assert out.capture_check == ()


def test_move_capture_then_encirclement_in_one_turn():
    # A: c3 (2), a2 (1), b1 (0), d7, g4, g7, e2 (0): 7 stones, reserve 0.
    # B: b2 (0), a1 (1), f5 (0).  A Moves c3xb2 (b2 tier 0 < c3 tier 2),
    # raises d4 (b2=(2,2) to d4=(4,4): 2 steps).  Then a1 is sealed:
    # 3 x 2 + a2 1 + b1 0 + b2 0 = 7 > 6: captured.
    pos = build(
        {
            "c3": "2A",
            "a2": "1A",
            "b1": "0A",
            "d7": "0A",
            "g4": "0A",
            "g7": "0A",
            "e2": "0A",
            "b2": "0B",
            "a1": "1B",
            "f5": "0B",
        },
        to_move="A",
    )
    out = play(pos, "c3xb2 +d4")
    after = out.position
    assert stone(after, "b2") == "A" and stone(after, "a1") is None and stone(after, "c3") is None
    assert weighing(out, "a1").sum == 7 and weighing(out, "a1").captured
    assert [(e.type, e.kind, e.cells) for e in out.events] == [
        ("capture", "move", ("b2",)),
        ("capture", "encirclement", ("a1",)),
        ("cooldown_set", None, ("a1", "b2")),
    ]
    assert after.player("A").captures == 2
    assert after.player("B").reserve == pos.player("B").reserve + 2 == 6
    assert cooldown(after, "B") == {"a1", "b2"}


def test_move_onto_a_locked_cell_is_legal_and_the_stone_stands_there():
    # d4 is an empty locked tier-2 cell (A used the Echo-Lock); A Moves d3-d4.
    pos = build(
        {"d3": "0A", "d4": "2*", "a1": "0A", "a4": "0A", "d1": "0A", "g4": "0A", "g7": "0A", "d7": "0A", "f5": "0B"},
        to_move="A",
    )
    assert pos.player("A").reserve == 0 and pos.player("A").echo_lock_used
    verdict = check(pos, T("d3-d4 +b3"), [])
    assert verdict.legal
    assert [c.status for c in verdict.checks if c.rule == "move.destination"] == ["passed"]
    out = play(pos, "d3-d4 +b3")
    after = out.position
    assert stone(after, "d4") == "A" and stone(after, "d3") is None
    assert after.locked[C("d4")] and after.tiers[C("d4")] == 2
    assert events_of(out, "capture") == []


# ------------------------------------------------------ Echo-Capture --------


def test_echo_capture_of_a_sealed_group_captures_every_member_meeting_the_test():
    # B group a1 (1), a2 (1); A on b1 (0), b2 (0), a3 (0); A Places b3 (tier 1),
    # raises d5 (b3=(2,3) to d5=(4,5): 2 steps) and Echo-Captures a2.
    pos = build({"a1": "1B", "a2": "1B", "b1": "0A", "b2": "0A", "a3": "0A", "b3": "1"}, to_move="A")
    out = play(pos, "b3 +d5 *a2")
    # The normal check weighs neither (each has a B neighbour).
    assert [w for w in out.capture_check if w.check == "encirclement"] == []
    w1, w2 = weighing(out, "a1", "echo"), weighing(out, "a2", "echo")
    # a1: edges 3 x 2 + wall a2 (1 + 1 = 2) + b1 0 + b2 0 = 8 > 6.
    assert (w1.sum, w1.threshold, w1.captured) == (8, 6, True)
    assert terms(w1) == Counter(
        {("edge", 2, None): 3, ("wall", 2, "a2"): 1, ("stone", 0, "b1"): 1, ("stone", 0, "b2"): 1}
    )
    # a2: edges 2 x 2 + wall a1 2 + a3 0 + b2 0 + b3 1 = 7 > 6.
    assert (w2.sum, w2.threshold, w2.captured) == (7, 6, True)
    assert terms(w2) == Counter(
        {
            ("edge", 2, None): 2,
            ("wall", 2, "a1"): 1,
            ("stone", 0, "a3"): 1,
            ("stone", 0, "b2"): 1,
            ("stone", 1, "b3"): 1,
        }
    )
    after = out.position
    assert stone(after, "a1") is None and stone(after, "a2") is None
    assert after.player("A").captures == 2
    assert after.player("A").charges == pos.player("A").charges - 1 == 2
    assert after.player("B").reserve == 7
    assert cooldown(after, "B") == {"a1", "a2"}
    cap = events_of(out, "capture")
    assert len(cap) == 1 and cap[0].kind == "echo" and cap[0].cells == ("a1", "a2")
    assert event_types(out) == ["capture", "cooldown_set"]


def test_echo_capture_captures_only_the_members_meeting_the_test():
    # As above with b3 on tier 0: a1 is still 8 > 6; a2 is 2 + 2 + 2 + 0 + 0 + 0 = 6, not > 6.
    pos = build({"a1": "1B", "a2": "1B", "b1": "0A", "b2": "0A", "a3": "0A", "b3": "0"}, to_move="A")
    out = play(pos, "b3 +d5 *a2")
    assert weighing(out, "a1", "echo").captured and weighing(out, "a1", "echo").sum == 8
    assert not weighing(out, "a2", "echo").captured and weighing(out, "a2", "echo").sum == 6
    after = out.position
    assert stone(after, "a1") is None and stone(after, "a2") == "B"
    assert after.player("A").captures == 1
    assert cooldown(after, "B") == {"a1"}
    assert events_of(out, "capture", "echo")[0].cells == ("a1",)


def test_echo_capture_wall_counts_the_weighed_stones_tier_plus_one_and_skips_tier0_members():
    # B group a1 (tier 0), a2 (tier 2).  A on a3 (2), b2 (1); A Places b3 (1)
    # and raises d5; Echo-Capture a2.  a1 is tier 0: not weighed.
    # a2: edges 2 x (2 + 1) = 6 + wall a1 (2 + 1 = 3, not a1's tier + 1) + a3 2 + b2 1 + b3 1 = 13 > 12.
    pos = build({"a1": "0B", "a2": "2B", "a3": "2A", "b2": "1A", "b3": "1", "b1": "0A"}, to_move="A")
    out = play(pos, "b3 +d5 *a2")
    assert [w.cell for w in out.capture_check] == ["a2"]
    w = weighing(out, "a2", "echo")
    assert terms(w)[("wall", 3, "a1")] == 1
    assert (w.tier, w.sum, w.threshold, w.captured) == (2, 13, 12, True)
    assert stone(out.position, "a1") == "B" and stone(out.position, "a2") is None


def test_echo_capture_that_captures_nothing_is_legal_and_spends_the_charge():
    # D-8.  B group a2 (1), a3 (1); A on a1, a4, b2, b3 (0); A Places b4 (0),
    # raises d6 (b4=(2,4) to d6=(4,6): 2 steps), Echo-Captures a3.
    # a2: a1 0 + wall a3 2 + edge 2 + b2 0 + edge 2 + b3 0 = 6, not > 6.
    # a3: wall a2 2 + a4 0 + edge 2 + b3 0 + edge 2 + b4 0 = 6, not > 6.
    pos = build({"a2": "1B", "a3": "1B", "a1": "0A", "a4": "0A", "b2": "0A", "b3": "0A", "b4": "0"}, to_move="A")
    verdict = check(pos, T("b4 +d6 *a3"), [])
    assert verdict.legal
    assert {c.rule: c.status for c in verdict.checks if c.rule.startswith("echo")} == {
        "echo.charge": "passed",
        "echo-capture.enemy": "passed",
        "echo-capture.sealed": "passed",
        "echo-capture.tier": "passed",
        "echo-capture.contact": "passed",
    }
    out = play(pos, "b4 +d6 *a3")
    ws = [w for w in out.capture_check if w.check == "echo"]
    assert sorted(w.cell for w in ws) == ["a2", "a3"]
    assert all((w.sum, w.threshold, w.captured) == (6, 6, False) for w in ws)
    after = out.position
    assert after.player("A").charges == 2
    assert after.player("A").captures == 0
    assert stone(after, "a2") == "B" and stone(after, "a3") == "B"
    cap = events_of(out, "capture", "echo")
    assert len(cap) == 1 and cap[0].cells == ()
    assert "nothing" in cap[0].message and "a3" in cap[0].message
    assert events_of(out, "cooldown_set") == []


def test_echo_capture_captures_nothing_when_the_normal_check_took_the_target():
    # B on a1 (1) alone; A on a2, b1 (0); A Places b2 (tier 1), raises d4,
    # Echo-Captures a1.  Normal check: 3 x 2 + 0 + 0 + 1 = 7 > 6, captured.
    pos = build({"a1": "1B", "a2": "0A", "b1": "0A", "b2": "1"}, to_move="A")
    out = play(pos, "b2 +d4 *a1")
    assert weighing(out, "a1").captured
    assert [w for w in out.capture_check if w.check == "echo"] == []
    after = out.position
    assert after.player("A").captures == 1  # only the one encirclement
    assert after.player("A").charges == 2  # the charge is spent
    assert cooldown(after, "B") == {"a1"}
    assert [(e.type, e.kind, e.cells) for e in out.events] == [
        ("capture", "encirclement", ("a1",)),
        ("capture", "echo", ()),
        ("cooldown_set", None, ("a1",)),
    ]
    assert "already" in events_of(out, "capture", "echo")[0].message


def test_echo_capture_event_links_to_the_capture_page():
    # RULES §9: "Capture events link to https://hexodic.com/rules/capture".
    pos = build({"a1": "1B", "a2": "1B", "b1": "0A", "b2": "0A", "a3": "0A", "b3": "1"}, to_move="A")
    out = play(pos, "b3 +d5 *a2")
    assert [e.more for e in events_of(out, "capture")] == [CAPTURE_LINK]


# --------------------------------------------------------- Echo-Lock --------


def test_echo_lock():
    # A Places c3 (tier 1), raises it to 2 and Echo-Locks it.
    pos = build({"c3": "1", "e5": "0A", "f5": "0B"}, to_move="A")
    out = play(pos, "c3 +c3 #c3")
    after = out.position
    assert after.locked[C("c3")] and after.tiers[C("c3")] == 2 and stone(after, "c3") == "A"
    assert after.player("A").echo_lock_used
    assert after.player("A").charges == pos.player("A").charges - 1 == 2
    assert after.player("A").raises == pos.player("A").raises + 1
    locks = events_of(out, "lock")
    assert len(locks) == 1 and locks[0].cells == ("c3",) and locks[0].player == "A"
    assert event_types(out) == ["lock"]


# ------------------------------------------- events, cooldown, first Place --


def test_events_order_capture_lock_cooldown_set_cooldown_cleared():
    # A to move with cooldown {g7} (B captured A's stone there).  B on a1 (1);
    # A on b1 (1), b2 (0), c5 (2).  A Places a2 (0; 6 steps from g7), raises
    # a4, Echo-Locks c5.  a1: 3 x 2 + a2 0 + b1 1 + b2 0 = 7 > 6: captured.
    pos = build(
        {"a1": "1B", "b1": "1A", "b2": "0A", "c5": "2A", "a2": "0"},
        to_move="A",
        A={"cooldown": ["g7"]},
        B={"captures": 1},
    )
    out = play(pos, "a2 +a4 #c5")
    assert [(e.type, e.player, e.cells) for e in out.events] == [
        ("capture", "A", ("a1",)),
        ("lock", "A", ("c5",)),
        ("cooldown_set", "B", ("a1",)),
        ("cooldown_cleared", "A", ("g7",)),
    ]
    after = out.position
    assert cooldown(after, "A") == set() and cooldown(after, "B") == {"a1"}
    assert after.player("A").captures == 1 and after.player("B").reserve == 7


def test_events_order_lock_before_first_place():
    # Half-move 1: A has Placed c3 and raised e5.  B's first Place is e5
    # (tier 1), raised to 2, then Echo-Locked.
    pos = build({"c3": "0A", "e5": "1"}, to_move="B")
    assert pos.half_moves == 1 and not pos.player("B").placed
    out = play(pos, "e5 +e5 #e5")
    assert [(e.type, e.player, e.cells) for e in out.events] == [("lock", "B", ("e5",)), ("first_place", "B", ("e5",))]
    assert out.position.player("B").placed and out.position.player("B").echo_lock_used


def test_a_place_clears_the_movers_cooldown():
    pos = build({"c3": "0A", "e5": "0B"}, to_move="A", A={"cooldown": ["g7", "g6"]}, B={"captures": 2})
    out = play(pos, "a1 +a2")
    assert cooldown(out.position, "A") == set()
    cleared = events_of(out, "cooldown_cleared")
    assert len(cleared) == 1 and cleared[0].player == "A" and cleared[0].cells == ("g6", "g7")
    # Without a cooldown there is nothing to clear.
    out = play(build({"c3": "0A", "e5": "0B"}, to_move="A"), "a1 +a2")
    assert events_of(out, "cooldown_cleared") == []


def test_first_place_event_exactly_once():
    pos = build({}, to_move="A")
    out1 = play(pos, "c3 +d4")
    assert [(e.type, e.player, e.cells) for e in out1.events] == [("first_place", "A", ("c3",))]
    out2 = play(out1.position, "e5 +e4", [pos])
    assert [(e.type, e.player, e.cells) for e in out2.events] == [("first_place", "B", ("e5",))]
    out3 = play(out2.position, "c5 +c4", [pos, out1.position])
    assert events_of(out3, "first_place") == []
    assert out3.position.player("A").placed


# ---------------------------------------------------------- cooldown skip ---

# Cooldown b2, b4, d2, d6, f5: every cell is within 1 step of one of them
# except d4, f3, f7, g4, g7 (checked by hand: e.g. c6 touches d6, e4 touches
# f5, g5 and g6 touch f5, a3 and a4 touch b4, c1 and e2 touch d2), and those
# five hold stones.  So no Place is 2 or more steps from every cooldown cell,
# yet ignoring the cooldown 32 empty cells are free: the skip applies (D-4).
SKIP_COOLDOWN = ["b2", "b4", "d2", "d6", "f5"]


def skip_cells(mover):
    enemy = "B" if mover == "A" else "A"
    return {"d4": "0" + mover, "g4": "0" + mover, "f3": "0" + enemy, "f7": "0" + enemy, "g7": "0" + enemy}


def skip_position(mover="A", half_moves=30):
    enemy = "B" if mover == "A" else "A"
    return build(
        skip_cells(mover),
        to_move=mover,
        half_moves=half_moves,
        **{mover: {"cooldown": SKIP_COOLDOWN}, enemy: {"captures": 5}},
    )


def skip_result_key_position(mover="A", half_moves=29):
    """The position a skip leads to, built by hand: same board, same
    counters, the other player to move; cooldown and half-moves differ
    (they are not part of the key)."""
    enemy = "B" if mover == "A" else "A"
    return build(skip_cells(mover), to_move=enemy, half_moves=half_moves, **{enemy: {"captures": 5}})


def test_cooldown_skip_clears_the_cooldown_and_makes_no_shape():
    pos = skip_position()
    out = play(pos, "skip")
    after = out.position
    assert cooldown(after, "A") == set()
    assert after.half_moves == 31
    assert after.tiers == pos.tiers and after.stones == pos.stones
    assert after.player("A").raises == pos.player("A").raises
    assert after.player("A").lowers_left == pos.player("A").lowers_left
    assert after.player("A").reserve == pos.player("A").reserve == 5
    cleared = events_of(out, "cooldown_cleared")
    assert len(cleared) == 1 and cleared[0].cells == tuple(SKIP_COOLDOWN)
    assert event_types(out) == ["cooldown_cleared"]
    assert not out.game.over


def test_cooldown_skip_is_exempt_from_the_repetition_loss():
    pos = skip_position()
    earlier = skip_result_key_position()
    assert earlier.key() == pos.replace(to_move="B").replace(A=pos.player("A").replace(cooldown=frozenset())).key()
    out = play(pos, "skip", [earlier])
    # Seen once before + now = 2 occurrences: neither a loss (exempt) nor a threefold.
    assert out.game.over is False and out.game.result is None
    assert out.game.repetition == "evaluated"


def test_cooldown_skip_can_produce_a_threefold_draw():
    pos = skip_position()
    earlier = skip_result_key_position()
    out = play(pos, "skip", [earlier, skip_result_key_position(half_moves=27)])
    # Twice before + now = 3 times with B to move: draw.
    assert (out.game.over, out.game.result, out.game.reason) == (True, "draw", "threefold")
    assert out.game.more == GAME_END_LINK
    assert "3" in out.game.message


def test_threefold_on_the_capping_turn_beats_the_tiebreak():
    # B skips at half-move 59 -> 60 (all tiers 0, no raises).  Without
    # history the tiebreak decides: A (0, 0, 5, 0), B (0, 0, 0, 0): level on
    # tier-2 stones (0 each) and tier sums (0 each), A has 5 captures to 0: A.
    pos = skip_position("B", 59)
    out = play(pos, "skip")
    assert (out.game.result, out.game.reason) == ("A", "tiebreak")
    assert out.game.tiebreak["A"].as_tuple() == (0, 0, 5, 0)
    assert out.game.tiebreak["B"].as_tuple() == (0, 0, 0, 0)
    # Seen once before: the skip is exempt from repetition, so still the tiebreak.
    out = play(pos, "skip", [skip_result_key_position("B", 58)])
    assert (out.game.result, out.game.reason) == ("A", "tiebreak")
    # Seen twice before: threefold draw comes first (D-11 order 5 before 6).
    out = play(pos, "skip", [skip_result_key_position("B", 56), skip_result_key_position("B", 58)])
    assert (out.game.result, out.game.reason) == ("draw", "threefold")
    assert out.game.tiebreak is None


# ------------------------------------------------------- end of game --------


def test_takeover_when_the_mover_reaches_six_captures():
    # A has 5 captures.  B on a1 (1); A on a2, b1 (0); A Places b2 (tier 1):
    # 3 x 2 + 0 + 0 + 1 = 7 > 6, a1 captured: 5 + 1 = 6 captures.
    pos = build({"a1": "1B", "a2": "0A", "b1": "0A", "b2": "1", "g7": "0B"}, to_move="A", A={"captures": 5})
    out = play(pos, "b2 +d4")
    assert out.position.player("A").captures == 6
    g = out.game
    assert (g.over, g.result, g.reason) == (True, "A", "takeover")
    assert "6" in g.message
    assert g.more == "https://hexodic.com/rules/takeover"


def test_five_captures_is_not_a_takeover():
    pos = build({"a1": "1B", "a2": "0A", "b1": "0A", "b2": "1", "g7": "0B"}, to_move="A", A={"captures": 4})
    out = play(pos, "b2 +d4")
    assert out.position.player("A").captures == 5
    assert not out.game.over


def test_network_five_connected_tier2_stones():
    # A on tier-2 cells c2, c3, c4, c5 (a row, each adjacent to the next) and
    # f6 (alone, elsewhere).  A Places c6 (tier 2): c2-c3-c4-c5-c6 = 5 connected;
    # the lone f6 does not spoil it.  Shape: raise e6 (c6=(3,6), e6=(5,6): 2 steps).
    pos = build({"c2": "2A", "c3": "2A", "c4": "2A", "c5": "2A", "f6": "2A", "c6": "2", "g4": "0B"}, to_move="A")
    out = play(pos, "c6 +e6")
    g = out.game
    assert (g.over, g.result, g.reason) == (True, "A", "network")
    for n in ("c2", "c3", "c4", "c5", "c6"):
        assert n in g.message
    assert g.more == "https://hexodic.com/rules/network"


def test_network_locks_do_not_matter():
    # As above with c3 locked (A's Echo-Lock): still 5 connected tier-2 stones.
    pos = build({"c2": "2A", "c3": "2A*", "c4": "2A", "c5": "2A", "c6": "2", "g4": "0B"}, to_move="A")
    out = play(pos, "c6 +e6")
    assert (out.game.result, out.game.reason) == ("A", "network")


def test_four_connected_tier2_stones_are_not_a_network():
    pos = build({"c2": "2A", "c3": "2A", "c4": "2A", "c5": "2", "g4": "0B"}, to_move="A")
    out = play(pos, "c5 +e5")
    # c2-c3-c4-c5: 4 < 5.
    assert not out.game.over and out.game.reason is None


def test_five_tier2_stones_not_connected_are_not_a_network():
    # c2, c3, c4 (3 connected) and e6, e7 (2 connected; A Places e7): 5 on tier 2, groups 3 + 2.
    pos = build({"c2": "2A", "c3": "2A", "c4": "2A", "e6": "2A", "e7": "2", "g4": "0B"}, to_move="A")
    out = play(pos, "e7 +g7")
    assert not out.game.over


def test_tier2_stones_joined_only_through_a_tier1_stone_are_not_a_network():
    # c1, c2, c3 on tier 2, c4 on tier 1, c5 and (placed) c6 on tier 2:
    # 5 stones on tier 2 but connected only through c4 (tier 1): groups 3 + 2.
    pos = build({"c1": "2A", "c2": "2A", "c3": "2A", "c4": "1A", "c5": "2A", "c6": "2", "g4": "0B"}, to_move="A")
    out = play(pos, "c6 +e6")
    assert not out.game.over


def test_only_the_movers_network_is_checked_d12():
    # B on tier-2 cells f3, f4, f5, f6 and on f7 (tier 1).  A Places d7
    # (d7=(4,7), f7=(6,7): 2 steps) and raises f7 under B's stone: B now has
    # f3-f4-f5-f6-f7 on tier 2, 5 connected, but only A's Network is checked.
    pos = build({"f3": "2B", "f4": "2B", "f5": "2B", "f6": "2B", "f7": "1B", "a1": "0A"}, to_move="A")
    out = play(pos, "d7 +f7")
    assert out.position.tiers[C("f7")] == 2
    assert not out.game.over
    assert game_over_reason(out.position) is None


# B's seven stones fill the corner cluster a1, a2, a3, b1, b2, b3, c1; every
# empty neighbour of the cluster is one of a4, b4, c2, c3, c4, d1, d2
# (a3: a4, b4; b1: c2; b2: c2, c3; b3: b4, c3, c4; c1: c2, d1, d2).
CLUSTER = ("a1", "a2", "a3", "b1", "b2", "b3", "c1")
BOUNDARY = ("a4", "b4", "c2", "c3", "c4", "d1", "d2")


def strangle_cells(boxed, boxer, boxer_tier="0", leave="c3"):
    cells = {n: "0" + boxed for n in CLUSTER}
    for n in BOUNDARY:
        cells[n] = boxer_tier if n == leave else boxer_tier + boxer
    return cells


def test_strangle_opponent_has_no_legal_project():
    # A Places the last boundary stone on c3 and raises e5 (c3=(3,3) to
    # e5=(5,5): 2 steps).  B: reserve 0; each B stone's neighbours are B's or
    # A's tier-0 stones, and B's stones are on tier 0 (no strictly lower
    # enemy stone to Move onto): no legal Move.
    pos = build(strangle_cells("B", "A"), to_move="A")
    assert pos.player("B").reserve == 0 and pos.player("A").reserve == 1
    out = play(pos, "c3 +e5")
    g = out.game
    assert (g.over, g.result, g.reason) == (True, "A", "strangle")
    assert g.more == "https://hexodic.com/rules/strangle"


def test_no_strangle_while_a_boxed_stone_can_move_capture():
    # As above with b3 on tier 1: b3 may Move onto A's tier-0 stone on b4,
    # c3 or c4 (strictly lower), so B has a legal Project.
    cells = strangle_cells("B", "A")
    cells["b3"] = "1B"
    out = play(build(cells, to_move="A"), "c3 +e5")
    assert not out.game.over


def test_strangle_on_the_capping_turn_wins_instead_of_the_tiebreak():
    # Half-move 59: B boxes A's seven stones in and the turn is half-move 60.
    pos = build(strangle_cells("A", "B"), to_move="B", half_moves=59)
    out = play(pos, "c3 +e5")
    assert out.position.half_moves == 60
    assert (out.game.over, out.game.result, out.game.reason) == (True, "B", "strangle")
    assert out.game.tiebreak is None


def test_network_beats_strangle():
    # The boundary a4-b4-c4-c3-c2-d2-d1 is a connected path.  With A's boundary
    # stones on tier 2 (c3 left empty: groups a4,b4,c4 and c2,d2,d1 of 3),
    # A Places c3 (tier 2): 7 connected tier-2 stones AND B is boxed in
    # (B's tier-0 stones cannot Move onto tier-2 stones).  Network comes first.
    pos = build(strangle_cells("B", "A", boxer_tier="2"), to_move="A")
    out = play(pos, "c3 +e5")
    assert (out.game.result, out.game.reason) == ("A", "network")


def test_takeover_beats_network():
    # A has 5 captures.  B on a1 (1); A on tier-2 cells a2, b1, b3, c3; A
    # Places b2 (tier 2), raises c1 (b2=(2,2), c1=(3,1): 2 steps).
    # a1: 3 x 2 + a2 2 + b1 2 + b2 2 = 12 > 6: captured, captures 6.
    # Network: b2 joins b1, a2, b3, c3 (a2-b3 and b3-c3 adjacent) = 5 connected.
    pos = build(
        {"a1": "1B", "a2": "2A", "b1": "2A", "b3": "2A", "c3": "2A", "b2": "2", "g7": "0B"},
        to_move="A",
        A={"captures": 5},
    )
    out = play(pos, "b2 +c1")
    assert weighing(out, "a1").sum == 12
    assert (out.game.result, out.game.reason) == ("A", "takeover")


def test_strangle_beats_repetition():
    pos = build(strangle_cells("B", "A"), to_move="A")
    # The position the turn makes, by hand: c3 filled, e5 tier 1, A raises 1.
    made = build({**strangle_cells("B", "A", leave=None), "e5": "1"}, to_move="B", A={"raises": 1}, B={"raises": 0})
    out = play(pos, "c3 +e5", [made])
    assert (out.game.result, out.game.reason) == ("A", "strangle")


def repetition_setup():
    pos = build({"c3": "0A", "e5": "0B"}, to_move="A")
    # A Places c5 and raises c5: the position made, built by hand:
    # c3 A, c5 A (tier 1), e5 B; A reserve 5, raises 1; B to move.
    made = build({"c3": "0A", "c5": "1A", "e5": "0B"}, to_move="B", A={"raises": 1}, B={"raises": 0})
    return pos, made


def test_repetition_loss_the_mover_loses():
    pos, made = repetition_setup()
    out = play(pos, "c5 +c5", [build({}, to_move="A"), made])
    g = out.game
    assert (g.over, g.result, g.reason) == (True, "B", "repetition")
    assert g.more == GAME_END_LINK
    # Without that earlier position the game goes on.
    out = play(pos, "c5 +c5", [build({}, to_move="A")])
    assert not out.game.over


def test_repetition_comes_before_threefold():
    pos, made = repetition_setup()
    out = play(pos, "c5 +c5", [made, made])
    assert (out.game.result, out.game.reason) == ("B", "repetition")


def test_repetition_key_ignores_cooldown_and_half_moves():
    pos, made = repetition_setup()
    # The earlier position differs only in half-moves: still the same key.
    made_other_count = build(
        {"c3": "0A", "c5": "1A", "e5": "0B"}, to_move="B", half_moves=7, A={"raises": 1}, B={"raises": 0}
    )
    out = play(pos, "c5 +c5", [made_other_count])
    assert out.game.reason == "repetition"
    # But a different counter (B's charges) is a different key.
    made_other_charges = build(
        {"c3": "0A", "c5": "1A", "e5": "0B"}, to_move="B", A={"raises": 1}, B={"raises": 0, "charges": 2}
    )
    out = play(pos, "c5 +c5", [made_other_charges])
    assert not out.game.over


def test_history_none_is_not_evaluated_and_empty_list_is():
    pos, made = repetition_setup()
    out = play(pos, "c5 +c5", None)
    assert out.game.repetition == "not_evaluated"
    assert not out.game.over  # it never guesses
    assert "not evaluated" in out.game.message.lower()
    assert "repetition" in out.game.message.lower()
    out = play(pos, "c5 +c5", [])
    assert out.game.repetition == "evaluated"
    assert "not evaluated" not in out.game.message.lower()
    # With history None, even a repeating turn is not judged a repetition.
    out = play(pos, "c5 +c5", None)
    assert out.game.reason is None


def test_check_outcome_matches_apply():
    pos, made = repetition_setup()
    for hist in (None, [], [made]):
        verdict = check(pos, T("c5 +c5"), hist)
        assert verdict.outcome == apply(pos, T("c5 +c5"), hist)


# ------------------------------------------------------------- tiebreak -----
# Half-move 59, B to move: B Places g7 (tier 0) and raises g6 (empty), so
# the turn is half-move 60 and B's raises go up by 1.  No stone is sealed.


def tiebreak_out(cells, A, B, turn="g7 +g6", half_moves=59):
    pos = build(cells, to_move="B", half_moves=half_moves, A=A, B=B)
    return play(pos, turn)


def figures(out):
    return {w: out.game.tiebreak[w].as_tuple() for w in "AB"}


def test_tiebreak_step1_unlocked_tier2_stones():
    # A: c3 (2), e5 (2); B: c5 (2), e3 (1), g7 (0).  Tier sum 7 = 4 + 3 raises.
    # A: 2 stones on unlocked tier 2, tier sum 4, 0 captures, 4 raises.
    # B: 1, tier sum 2 + 1 + 0 = 3, 0 captures, 3 + 1 = 4 raises.  2 > 1: A.
    out = tiebreak_out({"c3": "2A", "e5": "2A", "c5": "2B", "e3": "1B"}, {"raises": 4}, {"raises": 3})
    g = out.game
    assert (g.over, g.result, g.reason) == (True, "A", "tiebreak")
    assert figures(out) == {"A": (2, 4, 0, 4), "B": (1, 3, 0, 4)}
    assert g.more == GAME_END_LINK


def test_tiebreak_step2_sum_of_tiers_locked_stone_counts_here_only():
    # A: c3 (2), e5 (1); B: c5 (2), e3 (2, locked by B), g7 (0).  Raises 4 + 3 = 7.
    # Step 1: A 1 (c3), B 1 (c5; e3 is locked): level.
    # Step 2: A 2 + 1 = 3, B 2 + 2 + 0 = 4: B.
    out = tiebreak_out({"c3": "2A", "e5": "1A", "c5": "2B", "e3": "2B*"}, {"raises": 4}, {"raises": 3})
    assert (out.game.result, out.game.reason) == ("B", "tiebreak")
    assert figures(out) == {"A": (1, 3, 0, 4), "B": (1, 4, 0, 4)}


def test_tiebreak_step3_captures():
    # A: c3 (2), e5 (1); B: c5 (2), e3 (1), g7 (0).  Raises 3 + 3 = 6.
    # Level: 1 / 1 and 3 / 3.  Captures A 2, B 1: A (B's 4 raises to 3 do not count).
    out = tiebreak_out(
        {"c3": "2A", "e5": "1A", "c5": "2B", "e3": "1B"}, {"raises": 3, "captures": 2}, {"raises": 3, "captures": 1}
    )
    assert (out.game.result, out.game.reason) == ("A", "tiebreak")
    assert figures(out) == {"A": (1, 3, 2, 3), "B": (1, 3, 1, 4)}


def test_tiebreak_step4_raises():
    # As step 3 with captures 1 / 1 and an empty tier-2 cell a4: tier sum 8
    # = A 3 + B 5 raises.  B raises g6: 6.  Level on 1, 3, 1; raises 3 vs 6: B.
    out = tiebreak_out(
        {"c3": "2A", "e5": "1A", "c5": "2B", "e3": "1B", "a4": "2"},
        {"raises": 3, "captures": 1},
        {"raises": 5, "captures": 1},
    )
    assert (out.game.result, out.game.reason) == ("B", "tiebreak")
    assert figures(out) == {"A": (1, 3, 1, 3), "B": (1, 3, 1, 6)}


def test_tiebreak_level_is_a_draw():
    # Tier sum 2 + 1 + 2 + 1 + 1 (a4) = 7 = A 4 + B 3 raises; B raises g6: 4.
    # Every figure level (1, 3, 1, 4): draw, reason tiebreak.
    out = tiebreak_out(
        {"c3": "2A", "e5": "1A", "c5": "2B", "e3": "1B", "a4": "1"},
        {"raises": 4, "captures": 1},
        {"raises": 3, "captures": 1},
    )
    assert (out.game.over, out.game.result, out.game.reason) == (True, "draw", "tiebreak")
    assert figures(out) == {"A": (1, 3, 1, 4), "B": (1, 3, 1, 4)}


def test_no_tiebreak_before_half_move_60():
    # The same position two half-moves earlier (57 -> 58): the game goes on.
    out = tiebreak_out({"c3": "2A", "e5": "2A", "c5": "2B", "e3": "1B"}, {"raises": 4}, {"raises": 3}, half_moves=57)
    assert not out.game.over and out.game.tiebreak is None


def test_the_last_echo_charge_can_be_spent():
    # RULES §6: an Echo needs at least one charge and spends one.  A has 1 charge, the Echo-Lock
    # unused and its own stone on b2, Tier 2: a1 +a2 #b2 is legal and leaves A 0 charges, b2 locked.
    pos = build({"b2": "2A", "e5": "0B"}, A={"charges": 1})
    turn = T("a1 +a2 #b2")
    assert turn in legal_turns(pos)
    v = check(pos, turn)
    assert v.legal, v.summary
    after = v.outcome.position.player("A")
    assert (after.charges, after.echo_lock_used) == (0, True)
    assert v.outcome.position.locked[C("b2")]


def test_lowers_left_after_a_lower():
    # RULES §5: a lower needs at least 1 lower left and uses one.  A has 1 lower left; c4 is Tier 1
    # and 1 step from c3, so c3 -c4 is legal, leaves A 0 lowers and c4 on Tier 0.
    pos = build({"c4": "1", "g7": "0A", "e5": "0B"}, A={"lowers_left": 1})
    turn = T("c3 -c4")
    assert turn in legal_turns(pos)
    v = check(pos, turn)
    assert v.legal, v.summary
    assert v.outcome.position.player("A").lowers_left == 0
    assert v.outcome.position.tiers[C("c4")] == 0
