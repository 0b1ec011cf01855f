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

The Projects come from :mod:`checker.projects`; the Shape primitives here
(which Shapes are legal around a landing cell, which of them make the Shape
mandatory) are shared with :mod:`checker.legality`, so the two agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from checker import board
from checker.board import NEIGHBOURS, STEPS, WITHIN_2, Cell
from checker.ending import game_over_reason
from checker.position import Position, other
from checker.projects import legal_projects, project_is_legal
from checker.turn import CAPTURE, CAPTURES, LOCKS, LOWERS, RAISE, RAISES, Move, Place, Project, Shape, Turn

__all__ = [
    "legal_shapes",
    "shape_is_legal",
    "mandating_shapes",
    "echo_capture_cells",
    "echo_lock_cells",
    "legal_turns",
    "tier_after",
    "turn_is_legal",
]

# Every turn legal_turns returns holds the interned parts of checker.turn.


def legal_shapes(tiers: Sequence[int], locked: Sequence[bool], landing: Cell, lowers_left: int) -> list[Shape]:
    """Every legal Shape around ``landing`` on the given board, in the
    documented order (cell by cell, raise before lower)."""
    out = []
    for c in WITHIN_2[landing]:
        if locked[c]:
            continue
        t = tiers[c]
        if t < 2:
            out.append(RAISES[c])
        if t > 0 and lowers_left > 0:
            out.append(LOWERS[c])
    return out


def shape_is_legal(tiers: Sequence[int], locked: Sequence[bool], landing: Cell, lowers_left: int, shape: Shape) -> bool:
    """Whether ``shape`` is one of :func:`legal_shapes` (the same conditions,
    for one Shape: within 2 steps, unlocked, a raise below Tier 2, a lower
    above Tier 0 with the lowering budget not spent)."""
    c = shape.cell
    if STEPS[landing][c] > 2 or locked[c]:
        return False
    return tiers[c] < 2 if shape.kind == RAISE else tiers[c] > 0 and lowers_left > 0


def mandating_shapes(shapes: Sequence[Shape], stones: Sequence[str | None], mover: str) -> list[Shape]:
    """The legal Shapes that make the Shape mandatory: those targeting a cell
    not occupied by the mover's own stone, empty or enemy-held alike (RULES §5,
    ``shape.mandate``), on the board after the Project.  :func:`legal_turns`
    and :mod:`checker.legality` both decide the mandate with this."""
    return [s for s in shapes if stones[s.cell] != mover]


def echo_capture_cells(stones: Sequence[str | None], mover: str) -> list[Cell]:
    """The cells an Echo-Capture may target on this board, the tier aside: an
    enemy stone with no empty neighbouring cell and at least one of the
    mover's stones beside it (``echo-capture.enemy``, ``.sealed``,
    ``.contact``).  The tier (``echo-capture.tier``: 1 or 2) is judged on the
    board after the Shape."""
    enemy = other(mover)
    return [
        c
        for c in board.CELLS
        if stones[c] == enemy
        and all(stones[n] is not None for n in NEIGHBOURS[c])
        and any(stones[n] == mover for n in NEIGHBOURS[c])
    ]


def echo_lock_cells(stones: Sequence[str | None], locked: Sequence[bool], mover: str) -> list[Cell]:
    """The cells an Echo-Lock may target on this board, the tier aside: the
    mover's own stone on an unlocked cell (``echo-lock.own-stone``,
    ``.unlocked``).  The tier (``echo-lock.tier``: 2) is judged on the board
    after the Shape, and ``echo-lock.once`` on the player."""
    return [c for c in board.CELLS if stones[c] == mover and not locked[c]]


def legal_turns(pos: Position, project: Project | None = None, shape: Shape | None = None) -> list[Turn]:
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
        # stands. A Project changes one or two cells, so its Echo-Capture candidates follow from
        # these counts without rescanning the board (_captures_after_place, _captures_after_move).
        # Kept apart from echo_capture_cells for speed; they must give what it gives on the board
        # after the Project (tests/test_pseudo_legal.py compares every turn with check()).
        enemies = [
            (c, sum(base[n] is None for n in NEIGHBOURS[c]), sum(base[n] == me for n in NEIGHBOURS[c]))
            for c in board.CELLS
            if base[c] == enemy
        ]
        own_unlocked = echo_lock_cells(base, locked, me) if can_lock else []
    for p in projects:
        cap_cells: list[Cell] = []
        lock_cells: list[Cell] = []
        if isinstance(p, Place):
            landing = p.cell
            after = list(base)
            after[landing] = me
            if can_echo:
                cap_cells = _captures_after_place(enemies, landing)
                if can_lock:
                    lock_cells = sorted(own_unlocked + [landing])
        elif isinstance(p, Move):
            src, landing = p.src, p.dst
            after = list(base)
            after[src], after[landing] = None, me
            if can_echo:
                cap_cells = _captures_after_move(enemies, src, landing, base[landing] is None)
                if can_lock:
                    lock_cells = sorted([c for c in own_unlocked if c != src] + ([] if locked[landing] else [landing]))
        else:  # the cooldown skip: no Shape, the board as it stands
            landing = None
            if can_echo:
                cap_cells = echo_capture_cells(base, me)
                lock_cells = own_unlocked
        if landing is None:
            shapes: list[Shape | None] = [None]
        else:
            options = legal_shapes(tiers, locked, landing, m.lowers_left)
            # shape.mandate on the board after the Project, with the primitive legality uses too
            shapes = list(options) if mandating_shapes(options, after, me) else [None, *options]
        if shape is not None:
            shapes = [s for s in shapes if s == shape]
        for s in shapes:
            out.append(Turn(p, s, None))
            if can_echo:
                _add_echoes(out, p, s, tiers, cap_cells, lock_cells)
    return out


# Echo-Capture targets after a Project, from each enemy stone's counts on the board before it
# (cell, empty neighbours, neighbouring mover's stones): sealed (no empty neighbour) and in contact.
# They must give what echo_capture_cells gives on the board after the Project.


def _captures_after_place(enemies: list[tuple[Cell, int, int]], landing: Cell) -> list[Cell]:
    near = NEIGHBOURS[landing]
    out = []
    for c, empty, mine in enemies:
        if c in near:
            empty, mine = empty - 1, mine + 1
        if empty == 0 and mine:
            out.append(c)
    return out


def _captures_after_move(
    enemies: list[tuple[Cell, int, int]], src: Cell, landing: Cell, dst_was_empty: bool
) -> list[Cell]:
    near_src, near_dst = NEIGHBOURS[src], NEIGHBOURS[landing]
    out = []
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
            out.append(c)
    return out


def _add_echoes(
    out: list[Turn], p: Project, s: Shape | None, tiers: Sequence[int], cap_cells: list[Cell], lock_cells: list[Cell]
) -> None:
    """The turns of Project ``p`` and Shape ``s`` with each Echo: the targets' tier on the board after
    the Shape (echo-capture.tier 1 or 2, echo-lock.tier 2), judged cell by cell for speed as
    legality's echo checks judge it."""
    sc = None if s is None else s.cell
    new_tier = 0 if s is None else tier_after(tiers, s, s.cell)  # every other cell keeps its tier
    for c in cap_cells:
        if (new_tier if c == sc else tiers[c]) >= 1:
            out.append(Turn(p, s, CAPTURES[c]))
    for c in lock_cells:
        if (new_tier if c == sc else tiers[c]) == 2:
            out.append(Turn(p, s, LOCKS[c]))


def tier_after(tiers: Sequence[int], shape: Shape | None, cell: Cell) -> int:
    """The tier of ``cell`` after ``shape``: what the Echo's tier rules judge
    (``echo-capture.tier`` 1 or 2, ``echo-lock.tier`` 2)."""
    if shape is None or shape.cell != cell:
        return tiers[cell]
    return tiers[cell] + (1 if shape.kind == RAISE else -1)


def turn_is_legal(pos: Position, turn: Turn, *, game_over_checked: bool = False) -> bool:
    """Whether ``turn`` is one of :func:`legal_turns`, decided for it alone
    with the same primitives (no explanation: :func:`checker.legality.check`
    says why).  ``game_over_checked``: the caller knows the game is not over.

    >>> from checker.notation import parse_htn
    >>> turn_is_legal(Position.start(), parse_htn("c3 +d4")), turn_is_legal(Position.start(), parse_htn("d4 +d4"))
    (True, False)
    """
    if not game_over_checked and game_over_reason(pos) is not None:
        return False
    p, s, e = turn
    if not project_is_legal(pos, p):
        return False
    me, m = pos.to_move, pos.mover
    after = list(pos.stones)
    if isinstance(p, Place):
        landing: Cell | None = p.cell
        after[p.cell] = me
    elif isinstance(p, Move):
        landing = p.dst
        after[p.src], after[p.dst] = None, me
    else:  # the cooldown skip: no Shape
        landing = None
    if landing is None:
        if s is not None:
            return False
    else:
        if s is None:
            if mandating_shapes(legal_shapes(pos.tiers, pos.locked, landing, m.lowers_left), after, me):
                return False
        elif not shape_is_legal(pos.tiers, pos.locked, landing, m.lowers_left, s):
            return False
    if e is None:
        return True
    if m.charges <= 0:
        return False
    tier = tier_after(pos.tiers, s, e.cell)
    if e.kind == CAPTURE:
        return tier >= 1 and e.cell in echo_capture_cells(after, me)
    return not m.echo_lock_used and tier == 2 and e.cell in echo_lock_cells(after, pos.locked, me)
