"""The judge and the enumerator agree exhaustively on fixed positions.

python-chess tests that every pseudo-legal move is legal exactly when it is
in ``legal_moves``.  Here, on three fixed positions: for every legal Project
(:func:`checker.projects.legal_projects`), with no Shape or any Shape (raise
or lower of each of the 37 cells), and with no Echo or any Echo
(Echo-Capture or Echo-Lock of each of the 37 cells), ``check(...).legal``
equals membership in ``legal_turns``.  That covers every turn
``legal_turns`` yields and every near miss around it: the Shape mandate
(``generate.mandating_shapes``) and the Echo targets (the counts in
``legal_turns`` against ``legality``'s rule-by-rule judgement), and perft's
fast count (``counting.count_turns``) against the list's length.

The crowded position is one the random games never reach: every Shape
target that does not hold the mover's own stone holds an enemy stone, so
the mandate rests on enemy-occupied targets alone.  Its legal turns are
derived by hand from RULES.md below.
"""

from __future__ import annotations

import pytest

from checker import board
from checker.counting import count_turns
from checker.generate import legal_turns
from checker.legality import check
from checker.notation import turn_to_htn
from checker.projects import legal_projects
from checker.turn import CAPTURE, LOCK, LOWER, RAISE, Echo, Shape, Turn
from tests.helpers import P, T

SHAPES = [None] + [Shape(k, c) for c in board.CELLS for k in (RAISE, LOWER)]
ECHOES = [None] + [Echo(k, c) for c in board.CELLS for k in (CAPTURE, LOCK)]

# B to move with 1 stone in reserve (so B Places), a capture cooldown on b2, 3 charges and the
# Echo-Lock unused; A has Echo-Locked e4.  From a generated vector.
PLACES = "000B0/11A10A0/001B100/10B1A000A1A/002A*01A0B/0001B0B/0100 B 0:2:3:1:8:PL:- 1:3:5:0:9:P:b2 21"

# A to move with an empty reserve (so A Moves), 3 charges, the Echo-Lock unused.  Cells: a1 0A,
# b3 0B, c3 0A, c4 0B, d3 2A, d4 1B, d5 1A, e4 0B, e5 0A, f5 1A, f6 2B, g7 0A; the rest empty,
# Tier 0.  B's d4 is sealed (c3, c4, d3, d5, e4, e5 all held), on Tier 1 and beside A's stones:
# an Echo-Capture target, until A's d3 (Tier 2) Move-captures it with d3xd4.
MOVES = "0A000/000B00/000A0B00/002A1B1A00/000B0A00/001A2B0/0000A A 0:3:6:0:4:P:- 2:3:6:0:3:P:- 14"

# The crowded position.  A to move, 6 stones in reserve, 3 charges, Echo-Lock unused, a capture
# cooldown on a4, c4, d2, d6, f4 and f6.  Cells: a2 1B; a3, b1, b3, c1, c2, c3 0B; b2 2A; the rest
# empty, Tier 0.  Consistent by D-3 (which does not ask how a position arose; this one cannot
# arise in play, since B has captured 5 stones and the cooldown has 6 cells).
CROWDED = "01B0B0/0B2A0B00/0B0B0B000/0000000/000000/00000/0000 A 6:3:6:0:2:P:a4,c4,d2,d6,f4,f6 0:3:6:5:1:P:- 14"

# Its legal turns, by hand from RULES.md:
# - Project (§4): every empty cell but a1 is within 1 step of a cooldown cell, so the only Place
#   is a1.
# - Shape (§5): the cells within 2 steps of a1 are a1, a2, a3, b1, b2, b3, c1, c2, c3, none
#   locked.  Raises: every one on Tier 0 or 1 (all but b2, Tier 2); lowers (6 left): a2 (Tier 1)
#   and b2 (Tier 2).  After the Place a1 holds A's stone, b2 holds A's stone and every other
#   target holds B's stone: no target is empty, but the enemy-held ones make the Shape
#   mandatory, so there is no turn without a Shape.
# - Echo (§6): Echo-Lock needs A's own stone on an unlocked Tier-2 cell: b2, unless lowered (a1
#   is raised to Tier 1 at most).  Echo-Capture needs B's stone sealed (no empty neighbour), on
#   Tier 1 or 2, beside A's stone: a2 (neighbours a1, a3, b2, b3, all held once A is on a1;
#   Tier 1, or 0 after -a2) and b1 (neighbours a1, b2, c1, c2; Tier 0, so only after +b1).
#   a3 (a4, b4 empty), b3, c1, c2 and c3 have empty neighbours.
_CROWDED_SHAPES = ["+a1", "+a2", "-a2", "+a3", "+b1", "-b2", "+b3", "+c1", "+c2", "+c3"]
CROWDED_TURNS = sorted(
    [f"a1 {s}" for s in _CROWDED_SHAPES]
    + [f"a1 {s} #b2" for s in _CROWDED_SHAPES if s != "-b2"]
    + [f"a1 {s} *a2" for s in _CROWDED_SHAPES if s != "-a2"]
    + ["a1 +b1 *b1"]
)


@pytest.mark.parametrize("hpn", [PLACES, MOVES, CROWDED], ids=["places", "moves", "crowded"])
def test_check_is_legal_exactly_for_the_listed_turns(hpn):
    pos = P(hpn)
    assert pos.problems() == []
    listed = legal_turns(pos)
    assert len(set(listed)) == len(listed)
    legal = set(listed)
    # the positions exercise every kind of step (else the test would prove less than it says)
    assert {t.shape.kind for t in listed if t.shape} == {RAISE, LOWER}
    assert {t.echo.kind for t in listed if t.echo} == {CAPTURE, LOCK}
    seen = 0
    for project in legal_projects(pos):
        for shape in SHAPES:
            for echo in ECHOES:
                turn = Turn(project, shape, echo)
                verdict = check(pos, turn, assume_consistent=True)
                assert verdict.legal == (turn in legal), (turn_to_htn(turn, pos), verdict.summary)
                seen += verdict.legal
    assert seen == len(legal)  # every listed turn was among those judged
    assert count_turns(pos) == len(listed)  # perft's fast count, a third site kept apart for speed


def test_the_crowded_position_by_hand():
    pos = P(CROWDED)
    assert sorted(turn_to_htn(t, pos) for t in legal_turns(pos)) == CROWDED_TURNS
    # leaving the Shape out fails the mandate although no target is empty (RULES §5, D-6)
    v = check(pos, T("a1"))
    assert v.violations == ["shape.mandate"]
    assert check(pos, T("a1 #b2")).violations == ["shape.mandate"]
