"""Legal Projects: where the player to move may Place, whether the cooldown skip applies, which Moves are legal, and
whether any Project is legal at all (without one, the player is Strangled: RULES §4, §8).

>>> from checker.position import Bits, Position
>>> from checker.projects import place_cells, has_legal_project
>>> len(place_cells(Position.start()))  # every cell but the centre d4
36
>>> has_legal_project(Position.start())
True

Each is composed of the rules of :mod:`checker.rules`; :mod:`checker.generate` builds every legal turn on these,
:mod:`checker.ending` asks :func:`has_legal_project` for Strangle, and :mod:`checker.legality` names the same cells in
its messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from checker import board, rules
from checker.board import BIT, NEIGHBOURS, Cell, cells
from checker.position import Bits, Position
from checker.turn import PLACES, Move, Place, Project, Skip

__all__ = ["place_cells", "skip_applies", "legal_moves", "has_legal_project", "legal_projects", "legal_ends"]
__all__ += ["project_is_legal", "MOVES", "SKIP"]

# Interned Projects: every possible Place and Move, made once.
MOVES = {(a, b): Move(a, b) for a in board.CELLS for b in NEIGHBOURS[a]}
SKIP = Skip()


def place_cells(pos: Position, ignore_cooldown: bool = False) -> list[Cell]:
    """The cells the player to move may Place on (:func:`checker.rules.place_cells`), in board order."""
    return list(cells(rules.place_cells(pos.bits, pos.mover, ignore_cooldown)))


def skip_applies(pos: Position) -> bool:
    """Whether the cooldown skip applies to the player to move (``project.skip``)."""
    return rules.project_skip(pos.bits, pos.mover)


def legal_moves(pos: Position) -> list[Move]:
    """Every legal Move of the player to move, by from-cell, then to-cell (the reserve aside: ``move.own-stone``,
    ``move.adjacent``, ``move.destination``)."""
    return [p for p, _, _ in _move_ends(pos.bits, pos.to_move)]


def has_legal_project(pos: Position) -> bool:
    """Whether the player to move has any legal Project (else: Strangle).  With stones in reserve, a Place or the
    cooldown skip (some cell to Place on without the cooldown); otherwise a Move."""
    bits, m = pos.bits, pos.mover
    if rules.place_reserve(m):
        return bool(rules.place_cells(bits, m, True))  # the cooldown aside
    me = pos.to_move
    to = rules.move_destinations(bits, me)
    for a in cells(rules.move_own_stone(bits, me)):
        if rules.move_cells(bits, me, a, to):
            return True
    return False


def project_is_legal(pos: Position, project: Project) -> bool:
    """Whether ``project`` is among :func:`legal_projects`, decided for it alone."""
    bits, m = pos.bits, pos.mover
    if rules.place_reserve(m):
        if type(project) is Place:
            return bool(BIT[project.cell] & rules.place_cells(bits, m))  # a legal Place: no skip
        return type(project) is Skip and rules.project_skip(bits, m)
    if not (type(project) is Move and rules.move_reserve_empty(m)):
        return False
    me = pos.to_move
    return bool(
        BIT[project.src] & rules.move_own_stone(bits, me) and BIT[project.dst] & rules.move_cells(bits, me, project.src)
    )


def legal_projects(pos: Position) -> Sequence[Project]:
    """The legal Projects of the player to move, in the documented order (see :mod:`checker.generate`)."""
    return [p for p, _, _ in legal_ends(pos)]


# Each Project with its ends: the from-cell as a mask (none but a Move's) and the landing cell (none on a skip).
_PLACE_ENDS = tuple((PLACES[c], 0, c) for c in board.CELLS)
_MOVE_ENDS = tuple({b: (MOVES[a, b], BIT[a], b) for b in NEIGHBOURS[a]} for a in board.CELLS)


def legal_ends(pos: Position) -> Sequence[tuple[Project, int, Cell | None]]:
    """:func:`legal_projects`, each with its from-cell as a mask (0 but for a Move) and its landing cell (``None`` on
    the cooldown skip): what a Project changes on the board."""
    bits, m = pos.bits, pos.mover
    if rules.place_reserve(m):
        if rules.project_skip(bits, m):
            return [(SKIP, 0, None)]
        return [_PLACE_ENDS[c] for c in cells(rules.place_cells(bits, m))]
    if not rules.move_reserve_empty(m):
        return []
    return _move_ends(bits, pos.to_move)


def _move_ends(bits: Bits, me: str) -> list[tuple[Move, int, Cell]]:
    to = rules.move_destinations(bits, me)
    return [
        _MOVE_ENDS[a][b]
        for a in cells(rules.move_own_stone(bits, me))
        for b in cells(rules.move_cells(bits, me, a, to))
    ]
