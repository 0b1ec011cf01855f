"""Explanations that settle a dispute on the first read (issue 10, item 6).

Each test pins a wording: the positions are those of the issue, of the hand
vectors (checker/data/vectors_hand.jsonl) or built here, and each expected
fact is worked out by hand from the rules in the comments.
"""

from __future__ import annotations

import re

import pytest

from checker.legality import check, validate
from checker.tools import vectors
from tests.helpers import P, T, build

HAND = {v["id"]: v for v in vectors.hand_vectors()}


def vector_verdict(vid: str):
    v = HAND[vid]
    history = None if v["history"] is None else [P(h) for h in v["history"]]
    return check(P(v["position"]), T(v["turn"]), history)


def message(verdict, rule: str) -> str:
    (c,) = [c for c in verdict.checks if c.rule == rule]
    return c.message


# The first position: A's stones a3, b2, b3, c1 (c1 "1A", c2 "1"); B's a1 (Tier 2), a2, b1 (Tier 1).
TIER_AFTER_SHAPE = "2B1B1A0/1B1A1A00/1A10000/0000000/000000/00000/0000 A 3:3:6:0:4:P:- 4:3:6:0:5:P:- 40"
# The second position: B's stone on a1 (Tier 2); A's on a2 and b1 (Tier 1); b2 empty, Tier 1.
ECHO_AFTER_ENCIRCLEMENT = "2B1A00/1A1000/000000/0000000/000000/00000/0000 A 5:3:6:0:2:P:- 6:3:6:0:3:P:- 40"


# --------------------------------------------- a tier read after the Shape --


def test_a_tier_read_after_this_turns_shape_says_so():
    # b1 is Tier 1 on the board the player sees; the Shape -b1 makes it Tier 0 before the Echo is judged
    v = check(P(TIER_AFTER_SHAPE), T("c2 -b1 *b1"))
    assert v.violations == ["echo-capture.tier"]
    assert message(v, "echo-capture.tier") == (
        "An Echo-Capture target must stand on Tier 1 or 2; after the Shape -b1, b1 is Tier 0."
    )
    assert v.summary == (
        "Illegal: An Echo-Capture target must stand on Tier 1 or 2, and after the Shape -b1, b1 is Tier 0."
    )


def test_a_tier_the_shape_did_not_touch_is_read_plainly():
    # the Shape -b3 leaves a1 alone: a1 is Tier 2 as the player sees it
    v = check(P(TIER_AFTER_SHAPE), T("c2 -b3 *a1"))
    assert message(v, "echo-capture.tier") == "a1 is Tier 2."


def test_an_echo_lock_on_the_cell_just_placed_and_raised_says_both():
    # b2 is empty and Tier 1 before the turn: the Place puts A's stone there, the Shape +b2 makes it Tier 2
    v = check(P(ECHO_AFTER_ENCIRCLEMENT), T("b2 +b2 #b2"))
    assert v.legal
    assert message(v, "echo-lock.own-stone") == "after the Place on b2, b2 holds A's stone."
    assert message(v, "echo-lock.tier") == "after the Shape +b2, b2 is Tier 2."


# ------------------------------------- which capture took the Echo's target --


def test_the_summary_says_encirclement_took_the_target_and_the_echo_found_nothing():
    # a1 (B, Tier 2) after +b2: 3 edge slots × 3 + a2 1 + b1 1 + b2 2 = 13 > 12, so the normal check
    # captures it; the Echo-Capture check then has no target (D-10) and captures nothing (D-8)
    v = check(P(ECHO_AFTER_ENCIRCLEMENT), T("b2 +b2 *a1"))
    assert v.legal
    assert v.summary == (
        "Legal: A Places on b2, raises b2 and Echo-Captures a1: encirclement captures a1 before "
        "the Echo-Capture check, so the Echo-Capture finds nothing and its charge is spent (D-8)."
    )


def test_the_summary_says_the_echo_captured_the_group():
    # hand-cap-14: the Echo-Capture of a2 weighs the group {a1, a2}, each the other's wall (D-10):
    # a1 3 × 2 + wall 2 = 8 > 6, a2 2 × 2 + wall 2 + b3 1 = 7 > 6; the normal check weighed neither
    v = vector_verdict("hand-cap-14")
    assert v.summary == "Legal: A Places on b3, raises d5 and Echo-Captures a2: the Echo-Capture captures a1 and a2."


def test_the_summary_says_why_the_echo_found_nothing():
    # hand-echo-01: the group {d4, e5}; e5 is Tier 0 (not weighed), d4 weighs A's Tier-0 stones 0 and
    # the wall e5 2: 2, not more than 6
    v = vector_verdict("hand-echo-01")
    assert v.summary.endswith(
        "Echo-Captures d4: the Echo-Capture finds nothing (no stone of d4's group meets "
        "the test, see the weighing) and its charge is spent (D-8)."
    )


# ----------------------------------------------- further failures in words --


def test_further_failures_are_named_in_words():
    # hand-skip-02: a2 is 1 step from the cooldown cell a3, and the cooldown leaves no legal Place
    v = vector_verdict("hand-skip-02")
    assert v.violations == ["place.cooldown", "project.skip"]
    assert v.summary.endswith("; also failed: Cooldown skip (project.skip).")


def test_several_further_failures_are_listed():
    v = vector_verdict("hand-echo-03")
    assert v.summary.endswith(
        "; also failed: Echo-Capture target is sealed (echo-capture.sealed) and "
        "Echo-Capture target on tier 1 or 2 (echo-capture.tier)."
    )
    assert not re.search(r"also failed: [a-z-]+\.[a-z-]+[,.]", v.summary), "an id alone"


# ------------------------------------------------------- the half-move cap --


def test_a_position_at_the_cap_names_the_tiebreak_and_what_it_cannot_show():
    # hand-over-05: 60 half-moves; A on c3 and B on e5, both Tier 0, no captures, no raises: level on all four
    v = vector_verdict("hand-over-05")
    assert message(v, "game.over") == (
        "The game is already over; all 60 half-moves have been played (half-move cap), so unless the game "
        "ended otherwise on its last turn (a position alone cannot show a repetition or a threefold), the "
        "tiebreak decides it: level on every figure (stones on unlocked tier-2 cells 0, sum of tiers under "
        "their stones 0, captures 0, raises 0 each): a draw. No turn can be played."
    )
    status = validate(P(HAND["hand-over-05"]["position"])).game
    assert (status.over, status.result, status.reason) == (True, "draw", "tiebreak")
    assert "unless the game ended otherwise on its last turn" in status.message


def test_a_cap_position_with_a_winner_names_the_winner_and_the_figures():
    # A: 5 captures; B: 0; nobody on Tier 2 and every tier 0, so the third level (captures) decides for A
    pos = build({"c3": "0A", "e5": "0B"}, to_move="A", half_moves=60, A={"captures": 5, "reserve": 6}, B={"reserve": 6})
    text = check(pos, T("a1")).checks[0].message
    assert text.endswith(
        "the tiebreak decides it: level on stones on unlocked tier-2 cells (0 each), sum of tiers "
        "under their stones (0 each); then A has more captures (5 to 0). A wins. No turn can be "
        "played."
    )


def test_the_capping_turn_without_a_history_says_the_tiebreak_decides_unless_it_repeated():
    # hand-end-17: the 60th half-move is a cooldown skip; A leads on captures 5 to 0
    g = vector_verdict("hand-end-17").outcome.game
    assert (g.result, g.reason) == ("A", "tiebreak")
    assert g.message == (
        "The half-move cap is reached (60 half-moves): unless the turn recreated an earlier position (repetition "
        "and threefold were not evaluated: the request has no history), the tiebreak decides: level on stones on "
        "unlocked tier-2 cells (0 each), sum of tiers under their stones (0 each); then A has more captures "
        "(5 to 0). A wins."
    )


def test_the_capping_turn_with_a_history_needs_no_caveat():
    v = HAND["hand-end-17"]
    g = check(P(v["position"]), T(v["turn"]), []).outcome.game
    assert g.message.startswith("The half-move cap is reached (60 half-moves) and the tiebreak decides: level on ")
    assert "unless" not in g.message


# ---------------------------------------------- which position was repeated --


def test_a_repetition_loss_names_the_earlier_position():
    # hand-end-12: B's g6-g7 gives back the position of history[1] (half-move 48, A to move)
    v = HAND["hand-end-12"]
    verdict = vector_verdict("hand-end-12")
    g = verdict.outcome.game
    assert (g.result, g.reason) == ("A", "repetition")
    assert P(v["history"][1]).key() == verdict.outcome.position.key()
    assert g.message == (
        "B loses by repetition: the turn recreates an earlier position of the game, history[1] (half-move 48). A wins."
    )


def test_a_threefold_names_the_earlier_occurrences():
    verdict = vector_verdict("hand-end-15")
    v = HAND["hand-end-15"]
    key = verdict.outcome.position.key()
    assert [i for i, h in enumerate(v["history"]) if P(h).key() == key] == [1, 2]
    assert verdict.outcome.game.message.endswith(
        "has now occurred 3 times: history[1] (half-move 27), history[2] (half-move 29) and now."
    )


# ------------------------------------------------ the earlier Echo-Lock's cell --


def test_echo_lock_once_names_the_one_locked_cell_when_only_the_mover_has_locked():
    # hand-lock-04: f6 is the only locked cell and B has not Echo-Locked, so f6 is A's lock
    v = vector_verdict("hand-lock-04")
    assert message(v, "echo-lock.once") == (
        "Each player may Echo-Lock once per game; A has already used the "
        "Echo-Lock, on f6 (the one locked cell; B has not Echo-Locked)."
    )


BOTH_LOCKED = {"c3": "2A*", "e5": "2B*", "a1": "0A", "g7": "0B"}


def test_echo_lock_once_does_not_guess_when_both_have_locked():
    # c3 and e5 are locked and both players have Echo-Locked: the stones on them say nothing (a locked
    # cell's stone can be captured and another can Move onto it), so the position cannot tell
    pos = build(BOTH_LOCKED, to_move="A")
    v = check(pos, T("a2 +a2 #a1"))
    assert message(v, "echo-lock.once") == (
        "Each player may Echo-Lock once per game; A has already used the Echo-Lock, on c3 or e5 (the position "
        "does not record who locked which)."
    )
    v = check(pos, T("a2 +a2 #a1"), [pos])
    assert message(v, "echo-lock.once").endswith(
        "on c3 or e5 (the position does not record who locked which, and the history does not show it)."
    )


def test_echo_lock_once_names_the_cell_the_history_shows():
    # before: only e5 locked (B's); now c3 is locked too and A's Echo-Lock is used: A locked c3
    before = build({"c3": "2A", "e5": "2B*", "a1": "0A", "g7": "0B"}, to_move="A", A={"raises": 4})
    pos = build(BOTH_LOCKED, to_move="A")
    assert not before.player("A").echo_lock_used and pos.player("A").echo_lock_used
    v = check(pos, T("a2 +a2 #a1"), [before])
    assert message(v, "echo-lock.once").endswith("on c3 (the history shows c3 locked on A's turn).")


# -------------------------------------------- the cells that block every Shape --


def test_a_turn_without_a_shape_names_the_cells_that_block_every_shape():
    # hand-mandate-02: A Places on a1 with no lowers left; within 2 steps of a1 are a1–a3, b1–b3 and
    # c1–c3: a1 is A's own stone, c1 is locked, the other seven are Tier 2 (only a lower could change them)
    v = vector_verdict("hand-mandate-02")
    assert message(v, "shape.mandate") == (
        "No legal Shape targets a cell that is not occupied by A's own stone, so the Shape may be left out: of "
        "the 9 cells within 2 steps of a1, a1 holds A's own stone; c1 is locked; a2, a3, b1, b2, b3, c2 and c3 "
        "are Tier 2 with no lowers left (A has 0 of 6)."
    )


# -------------------------------------------------- the player's name throughout --


def test_a_move_onto_the_movers_own_stone_names_the_player():
    v = vector_verdict("hand-move-09")
    assert (
        message(v, "move.destination") == "A Move can never enter a cell holding A's own stone; d3 holds A's own stone."
    )


@pytest.mark.parametrize("vid", sorted(HAND))
def test_no_message_says_you(vid):
    v = vector_verdict(vid)
    texts = [v.summary, *(c.message for c in v.checks)]
    if v.outcome:
        texts += [e.message for e in v.outcome.events] + [w.message for w in v.outcome.capture_check]
        texts.append(v.outcome.game.message)
    for text in texts:
        assert not re.search(r"\byour?\b", text, re.I), text
