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
from checker.turn import PLACES, Move, Place, Project, Skip

__all__ = [
    "may_place",
    "place_cells",
    "skip_applies",
    "may_move",
    "legal_moves",
    "has_legal_project",
    "legal_projects",
    "project_is_legal",
]

# Interned Projects: every possible Place and Move, made once.
_PLACES = PLACES
_MOVES = {(a, b): Move(a, b) for a in board.CELLS for b in NEIGHBOURS[a]}
_SKIP = Skip()


def may_place(pos: Position, c: Cell, ignore_cooldown: bool = False) -> bool:
    """Whether the player to move may Place on ``c`` (reserve not considered):
    empty, unlocked, off the centre before the first Place, and at least 2
    steps from every cooldown cell unless ``ignore_cooldown``."""
    m = pos.mover
    if pos.stones[c] is not None or pos.locked[c] or (not m.placed and c == CENTRE):
        return False
    steps = board.STEPS[c]
    return ignore_cooldown or not any(steps[k] < 2 for k in m.cooldown)


def place_cells(pos: Position, ignore_cooldown: bool = False) -> list[Cell]:
    """The cells the player to move may Place on (:func:`may_place`), in board order."""
    return [c for c in board.CELLS if may_place(pos, c, ignore_cooldown)]


def skip_applies(pos: Position) -> bool:
    """Whether the cooldown skip applies to the player to move (RULES §4, D-4):
    stones in reserve, a non-empty cooldown, no legal Place with it, and some
    legal Place without it."""
    m = pos.mover
    if m.reserve < 1 or not m.cooldown:
        return False
    return not place_cells(pos) and bool(place_cells(pos, ignore_cooldown=True))


def may_move(pos: Position, a: Cell, b: Cell) -> bool:
    """Whether the player to move may Move from ``a`` to ``b``, ignoring the
    reserve rule: own stone, to a neighbour that is empty or holds an enemy
    stone on a strictly lower tier."""
    stones, me = pos.stones, pos.to_move
    if stones[a] != me or b not in NEIGHBOURS[a]:
        return False
    sb = stones[b]
    return sb is None or (sb != me and pos.tiers[b] < pos.tiers[a])


def legal_moves(pos: Position) -> list[Move]:
    """Every legal Move of the player to move (:func:`may_move`), by from-cell, then to-cell."""
    me, stones = pos.to_move, pos.stones
    return [_MOVES[a, b] for a in board.CELLS if stones[a] == me for b in NEIGHBOURS[a] if may_move(pos, a, b)]


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


def project_is_legal(pos: Position, project: Project) -> bool:
    """Whether ``project`` is among :func:`legal_projects`, decided for it alone."""
    m = pos.mover
    if m.reserve > 0:
        if isinstance(project, Place):
            return may_place(pos, project.cell)  # a legal Place means the skip does not apply
        return isinstance(project, Skip) and bool(m.cooldown) and skip_applies(pos)
    return isinstance(project, Move) and may_move(pos, project.src, project.dst)


def legal_projects(pos: Position) -> Sequence[Project]:
    """The legal Projects of the player to move, in the documented order
    (see :mod:`checker.generate`)."""
    if pos.mover.reserve > 0:
        if skip_applies(pos):
            return [_SKIP]
        return [_PLACES[c] for c in place_cells(pos)]
    return legal_moves(pos)
