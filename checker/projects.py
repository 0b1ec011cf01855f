"""Legal Projects: where the player to move may Place, whether the cooldown
skip applies, which Moves are legal, and whether any Project is legal at all
(without one, the player is Strangled: RULES §4, §8).

>>> from checker.position import Position
>>> from checker.projects import place_cells, has_legal_project
>>> len(place_cells(Position.start()))  # every cell but the centre d4
36
>>> has_legal_project(Position.start())
True

:mod:`checker.generate` builds every legal turn on these, :mod:`checker.ending`
asks :func:`has_legal_project` for Strangle, and :mod:`checker.legality` names
the same cells in its messages, so the three agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from checker import board
from checker.board import CENTRE, NEIGHBOURS, Cell
from checker.position import Position
from checker.turn import Move, Place, Project, Skip

__all__ = ["place_cells", "skip_applies", "legal_moves", "has_legal_project", "legal_projects"]

# Interned Projects: every possible Place and Move, made once.
_PLACES = tuple(Place(c) for c in board.CELLS)
_MOVES = {(a, b): Move(a, b) for a in board.CELLS for b in NEIGHBOURS[a]}
_SKIP = Skip()


def place_cells(pos: Position, ignore_cooldown: bool = False) -> list[Cell]:
    """The cells the player to move may Place on, in board order (reserve not
    considered).  Empty, unlocked, off the centre before the first Place, and
    at least 2 steps from every cooldown cell unless ``ignore_cooldown``."""
    m = pos.mover
    stones, locked = pos.stones, pos.locked
    cooldown = () if ignore_cooldown else tuple(m.cooldown)
    steps = board.STEPS
    out = []
    for c in board.CELLS:
        if stones[c] is not None or locked[c]:
            continue
        if not m.placed and c == CENTRE:
            continue
        if cooldown and any(steps[c][k] < 2 for k in cooldown):
            continue
        out.append(c)
    return out


def skip_applies(pos: Position) -> bool:
    """Whether the cooldown skip applies to the player to move (RULES §4, D-4):
    stones in reserve, a non-empty cooldown, no legal Place with it, and some
    legal Place without it."""
    m = pos.mover
    if m.reserve < 1 or not m.cooldown:
        return False
    return not place_cells(pos) and bool(place_cells(pos, ignore_cooldown=True))


def legal_moves(pos: Position) -> list[Move]:
    """Every legal Move of the player to move, ignoring the reserve rule:
    own stone, to a neighbour that is empty or holds an enemy stone on a
    strictly lower tier."""
    me = pos.to_move
    stones, tiers = pos.stones, pos.tiers
    out = []
    for a in board.CELLS:
        if stones[a] != me:
            continue
        ta = tiers[a]
        for b in NEIGHBOURS[a]:
            sb = stones[b]
            if sb is None or (sb != me and tiers[b] < ta):
                out.append(_MOVES[a, b])
    return out


def has_legal_project(pos: Position) -> bool:
    """Whether the player to move has any legal Project (else: Strangle).
    With stones in reserve, a Place or the cooldown skip (some cell
    :func:`place_cells` would give without the cooldown); otherwise a Move
    (one :func:`legal_moves` would give).  Stops at the first one found."""
    stones = pos.stones
    if pos.mover.reserve > 0:
        locked, first_place = pos.locked, not pos.mover.placed
        return any(stones[c] is None and not locked[c] and not (first_place and c == CENTRE) for c in board.CELLS)
    me, tiers = pos.to_move, pos.tiers
    return any(
        stones[b] is None or (stones[b] != me and tiers[b] < tiers[a])
        for a in board.CELLS
        if stones[a] == me
        for b in NEIGHBOURS[a]
    )


def legal_projects(pos: Position) -> Sequence[Project]:
    """The legal Projects of the player to move, in the documented order
    (see :mod:`checker.generate`)."""
    if pos.mover.reserve > 0:
        if skip_applies(pos):
            return [_SKIP]
        return [_PLACES[c] for c in place_cells(pos)]
    return legal_moves(pos)
