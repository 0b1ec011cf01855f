"""Legal Projects and legal turns of a position.

The enumeration order is fixed and documented, so clients can compare lists:

1. Projects: every Place in board order of its cell (a1 … g7); or every
   Move by from-cell, then to-cell, both in board order; or the cooldown
   skip alone when it applies.
2. For each Project: no Shape first (when the Shape may be left out), then
   Shapes by cell in board order, a raise before a lower on the same cell.
   A skipped Project has no Shape.
3. For each Shape: no Echo first, then Echo-Captures by target in board
   order, then Echo-Locks by target in board order.

>>> from checker.position import Position
>>> from checker.generate import legal_turns
>>> turns = legal_turns(Position.start())
>>> len(turns)  # 36 Places (not d4), each with a raise of a cell within 2 steps
480

The primitives here (which cells a Place may use, whether the cooldown skip
applies, which Shapes are legal around a landing cell) are shared with
:mod:`checker.legality` and :mod:`checker.play`, so the three agree.
"""

from __future__ import annotations

from typing import Sequence

from . import board
from .board import CENTRE, NEIGHBOURS, WITHIN_2, Cell
from .position import Position, other
from .turn import CAPTURE, LOCK, LOWER, RAISE, Echo, Move, Place, Shape, Skip, Turn

__all__ = ["place_cells", "skip_applies", "legal_moves", "has_legal_project", "legal_projects",
           "legal_shapes", "mandating_shapes", "legal_turns", "game_over_reason", "network_group"]

# Interned parts: every possible Place, Shape and Echo, made once.
_PLACES = tuple(Place(c) for c in board.CELLS)
_RAISES = tuple(Shape(RAISE, c) for c in board.CELLS)
_LOWERS = tuple(Shape(LOWER, c) for c in board.CELLS)
_CAPTURES = tuple(Echo(CAPTURE, c) for c in board.CELLS)
_LOCKS = tuple(Echo(LOCK, c) for c in board.CELLS)
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
    With stones in reserve, a Place or the cooldown skip; otherwise a Move."""
    if pos.mover.reserve > 0:
        return bool(place_cells(pos, ignore_cooldown=True))
    return bool(legal_moves(pos))


def legal_projects(pos: Position) -> list:
    """The legal Projects of the player to move, in the documented order."""
    if pos.mover.reserve > 0:
        if skip_applies(pos):
            return [_SKIP]
        return [_PLACES[c] for c in place_cells(pos)]
    return legal_moves(pos)


def legal_shapes(tiers: Sequence[int], locked: Sequence[bool], landing: Cell,
                 lowers_left: int) -> list[Shape]:
    """Every legal Shape around ``landing`` on the given board, in the
    documented order (cell by cell, raise before lower)."""
    out = []
    for c in WITHIN_2[landing]:
        if locked[c]:
            continue
        t = tiers[c]
        if t < 2:
            out.append(_RAISES[c])
        if t > 0 and lowers_left > 0:
            out.append(_LOWERS[c])
    return out


def mandating_shapes(shapes: Sequence[Shape], stones: Sequence[str | None], mover: str) -> list[Shape]:
    """The legal Shapes that make the Shape mandatory: those targeting a cell
    not occupied by the mover's own stone (RULES §5, ``shape.mandate``)."""
    return [s for s in shapes if stones[s.cell] != mover]


def network_group(stones: Sequence[str | None], tiers: Sequence[int], who: str) -> list[Cell]:
    """The largest connected group of ``who``'s stones on tier-2 cells (cells
    in board order); a Network when it has 5 or more."""
    on2 = {c for c in board.CELLS if stones[c] == who and tiers[c] == 2}
    best: list[Cell] = []
    while on2:
        start = on2.pop()
        group, todo = [start], [start]
        while todo:
            c = todo.pop()
            for n in NEIGHBOURS[c]:
                if n in on2:
                    on2.discard(n)
                    group.append(n)
                    todo.append(n)
        if len(group) > len(best):
            best = group
    return sorted(best)


def game_over_reason(pos: Position) -> str | None:
    """Why a position accepts no turn (RULES §8, D-13), or ``None``:
    ``'takeover'``, ``'network'``, ``'strangle'`` or ``'tiebreak'``."""
    a, b = pos.player("A"), pos.player("B")
    if a.captures >= 6 or b.captures >= 6:
        return "takeover"
    if pos.half_moves >= 1 and len(network_group(pos.stones, pos.tiers, other(pos.to_move))) >= 5:
        return "network"
    if not has_legal_project(pos):
        return "strangle"
    if pos.half_moves >= 60:
        return "tiebreak"
    return None


def legal_turns(pos: Position, project=None, shape: Shape | None = None) -> list[Turn]:
    """Every legal turn of ``pos`` in the documented order; with ``project``
    (and ``shape``) only the turns that begin with them."""
    if game_over_reason(pos) is not None:
        return []
    me = pos.to_move
    enemy = other(me)
    m = pos.mover
    can_echo = m.charges > 0
    can_lock = can_echo and not m.echo_lock_used
    tiers, locked = pos.tiers, pos.locked
    out: list[Turn] = []
    projects = legal_projects(pos)
    if project is not None:
        projects = [p for p in projects if p == project]
    base = pos.stones
    if can_echo:
        # Each enemy stone's empty neighbours and neighbouring mover's stones, on the board as it
        # stands. A Project changes one or two cells, so its Echo candidates follow from these
        # counts without rescanning the board: a candidate target is sealed (no empty neighbour)
        # and in contact (a mover's stone beside it); its tier is judged after the Shape.
        enemies = [(c, sum(base[n] is None for n in NEIGHBOURS[c]), sum(base[n] == me for n in NEIGHBOURS[c]))
                   for c in board.CELLS if base[c] == enemy]
        own_unlocked = [c for c in board.CELLS if base[c] == me and not locked[c]] if can_lock else []
    for p in projects:
        cap_cells: list[Cell] = []
        lock_cells: list[Cell] = []
        if isinstance(p, Place):
            landing = p.cell
            near = NEIGHBOURS[landing]
            if can_echo:
                for c, empty, mine in enemies:
                    if c in near:
                        empty, mine = empty - 1, mine + 1
                    if empty == 0 and mine:
                        cap_cells.append(c)
                if can_lock:
                    lock_cells = sorted(own_unlocked + [landing])
            # the Shape mandate, on the board after the Place (the landing cell is the mover's own)
            def not_own(x, landing=landing):
                return x != landing and base[x] != me
        elif isinstance(p, Move):
            src, landing = p.src, p.dst
            near_src, near_dst = NEIGHBOURS[src], NEIGHBOURS[landing]
            dst_was_empty = base[landing] is None
            if can_echo:
                for c, empty, mine in enemies:
                    if c == landing:
                        continue  # Move-captured
                    if c in near_src:
                        empty, mine = empty + 1, mine - 1
                    if c in near_dst:
                        mine += 1
                        if dst_was_empty:
                            empty -= 1
                    if empty == 0 and mine:
                        cap_cells.append(c)
                if can_lock:
                    lock_cells = sorted([c for c in own_unlocked if c != src]
                                        + ([] if locked[landing] else [landing]))
            def not_own(x, src=src, landing=landing):
                return x != landing and (x == src or base[x] != me)
        else:  # the cooldown skip: no Shape, the board as it stands
            landing = None
            if can_echo:
                cap_cells = [c for c, empty, mine in enemies if empty == 0 and mine]
                lock_cells = own_unlocked
        if landing is None:
            shapes: list[Shape | None] = [None]
        else:
            options = legal_shapes(tiers, locked, landing, m.lowers_left)
            if any(not_own(sh.cell) for sh in options):
                shapes = list(options)
            else:
                shapes = [None, *options]
        if shape is not None:
            shapes = [s for s in shapes if s == shape]
        for s in shapes:
            out.append(Turn(p, s, None))
            if not can_echo:
                continue
            if s is None:
                for c in cap_cells:
                    if tiers[c] >= 1:
                        out.append(Turn(p, s, _CAPTURES[c]))
                for c in lock_cells:
                    if tiers[c] == 2:
                        out.append(Turn(p, s, _LOCKS[c]))
            else:
                sc = s.cell
                new_tier = tiers[sc] + (1 if s.kind == RAISE else -1)
                for c in cap_cells:
                    if (new_tier if c == sc else tiers[c]) >= 1:
                        out.append(Turn(p, s, _CAPTURES[c]))
                for c in lock_cells:
                    if (new_tier if c == sc else tiers[c]) == 2:
                        out.append(Turn(p, s, _LOCKS[c]))
    return out
