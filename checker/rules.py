"""The rules of a turn, each stated once: one function per rule id (RULES §4–§6, §9).

A rule about a cell says which cells it allows, as a mask (:mod:`checker.board`) of the board as it stands at its step
(:class:`~checker.position.Bits`); a rule about the player alone says whether it holds.  Every door decides with these:

- the judge (:mod:`checker.legality`) tests the declared cell against a rule's mask, one check per rule id, and explains
  with the board's facts;
- the generator and the quick turn test (:mod:`checker.generate`), the legal Projects (:mod:`checker.projects`) and
  perft's counts (:mod:`checker.counting`) intersect the same masks (the compositions below: :func:`place_cells`,
  :func:`move_cells`, :func:`shape_cells`, :func:`mandating_cells`, :func:`echo_capture_cells`,
  :func:`echo_lock_cells`).

>>> from checker import board
>>> from checker.position import Position
>>> start = Position.start()
>>> board.names(board.cells(board.FULL & ~place_opening_restriction(start.mover)))
['d4']
>>> place_cells(start.bits, start.mover).bit_count()
36

The tier rules take the tier masks alone, because the Echo is judged on the board after the Shape: :func:`shaped` gives
them.  ``game.over`` is :mod:`checker.ending`'s; the ``position.*`` conditions (D-3) are :mod:`checker.position`'s.
"""

from __future__ import annotations

from checker.board import BIT, CENTRE, FULL, NEAR_MASKS, NEIGHBOUR_MASKS, WITHIN_2_MASKS, Cell, cells
from checker.position import Bits, PlayerState
from checker.turn import RAISE, Shape, ShapeKind

__all__ = ["place_reserve", "place_empty", "place_unlocked", "place_opening_restriction", "place_cooldown"]
__all__ += ["project_skip", "placed", "moved", "move_reserve_empty", "move_own_stone", "move_adjacent"]
__all__ += ["move_destination", "move_destinations", "shape_range", "shape_unlocked", "shape_tier_limit"]
__all__ += ["shape_lowering_budget", "echo_charge", "echo_capture_enemy", "echo_capture_sealed", "echo_capture_tier"]
__all__ += ["echo_capture_contact", "echo_lock_once", "echo_lock_own_stone", "echo_lock_tier", "echo_lock_unlocked"]
__all__ += ["place_cells", "move_cells", "shape_targets", "shape_cells", "mandating_cells", "shaped", "shaped_by"]
__all__ += ["echo_capture_cells", "echo_lock_cells"]

# A board after a move is made by tuple's own constructor, without NamedTuple's Python-level __new__.
_new = tuple.__new__

# ------------------------------------------------------------- Project ---


def place_reserve(m: PlayerState) -> bool:
    """``place.reserve``: a Place needs a stone in reserve."""
    return m.reserve >= 1


def place_empty(bits: Bits) -> int:
    """``place.empty``: a Place needs an empty cell."""
    return bits.empty


def place_unlocked(bits: Bits) -> int:
    """``place.unlocked``: a locked cell can never be Placed onto."""
    return FULL & ~bits.locked


def place_opening_restriction(m: PlayerState) -> int:
    """``place.opening-restriction``: a player's first Place is at least 1 step from the centre."""
    return FULL if m.placed else FULL & ~BIT[CENTRE]


def place_cooldown(m: PlayerState) -> int:
    """``place.cooldown``: a Place at least 2 steps from every cell of the mover's capture cooldown."""
    near = 0
    for k in m.cooldown:
        near |= NEAR_MASKS[k]
    return FULL & ~near


def place_cells(bits: Bits, m: PlayerState, ignore_cooldown: bool = False) -> int:
    """The cells the mover may Place on: every ``place.*`` rule but the reserve (and but the cooldown with
    ``ignore_cooldown``)."""
    allowed = place_empty(bits) & place_unlocked(bits) & place_opening_restriction(m)
    return allowed if ignore_cooldown or not m.cooldown else allowed & place_cooldown(m)


def project_skip(bits: Bits, m: PlayerState) -> bool:
    """``project.skip`` (RULES §4, D-4): the cooldown skip applies when the mover has stones in reserve and a capture
    cooldown that leaves no cell to Place on, while some cell would be free without it."""
    return (
        place_reserve(m)
        and bool(m.cooldown)
        and not place_cells(bits, m)
        and bool(place_cells(bits, m, ignore_cooldown=True))
    )


def placed(bits: Bits, me: str, c: Cell) -> Bits:
    """The board after the mover's Place on the empty cell ``c``."""
    a, b, t1, t2, lk = bits
    return _new(Bits, (a | BIT[c], b, t1, t2, lk) if me == "A" else (a, b | BIT[c], t1, t2, lk))


def moved(bits: Bits, me: str, a: Cell, b: Cell) -> Bits:
    """The board after the mover's stone Moves from ``a`` to ``b``, taking any enemy stone there."""
    src, dst = BIT[a], BIT[b]
    sa, sb, t1, t2, lk = bits
    if me == "A":
        return _new(Bits, ((sa & ~src) | dst, sb & ~dst, t1, t2, lk))
    return _new(Bits, (sa & ~dst, (sb & ~src) | dst, t1, t2, lk))


def move_reserve_empty(m: PlayerState) -> bool:
    """``move.reserve-empty``: a Move only once the reserve is empty."""
    return m.reserve == 0


def move_own_stone(bits: Bits, me: str) -> int:
    """``move.own-stone``: the from-cells, the mover's own stones."""
    return bits.stones(me)


def move_adjacent(a: Cell) -> int:
    """``move.adjacent``: a Move goes to one of the six neighbouring cells."""
    return NEIGHBOUR_MASKS[a]


def move_destination(bits: Bits, me: str, a: Cell) -> int:
    """``move.destination``: an empty cell, or an enemy stone on a tier strictly lower than the from-cell's (a Move
    capture); never the mover's own stone."""
    return move_destinations(bits, me)[bits.tier(a)]


def move_destinations(bits: Bits, me: str) -> tuple[int, int, int]:
    """:func:`move_destination` for a from-cell on Tier 0, 1 and 2."""
    enemy, empty = bits.b if me == "A" else bits.a, bits.empty
    return empty, empty | (enemy & ~(bits.tier1 | bits.tier2)), empty | (enemy & ~bits.tier2)


def move_cells(bits: Bits, me: str, a: Cell, destinations: tuple[int, int, int] | None = None) -> int:
    """Where the stone on ``a`` may Move: ``move.adjacent`` and ``move.destination`` (``destinations``:
    :func:`move_destinations`, when the caller has it already)."""
    return move_adjacent(a) & (destinations or move_destinations(bits, me))[bits.tier(a)]


# --------------------------------------------------------------- Shape ---


def shape_range(landing: Cell) -> int:
    """``shape.range``: a Shape within 2 steps of the landing cell."""
    return WITHIN_2_MASKS[landing]


def shape_unlocked(bits: Bits) -> int:
    """``shape.unlocked``: a locked cell can never be Shaped."""
    return FULL & ~bits.locked


def shape_tier_limit(kind: ShapeKind, tier1: int, tier2: int) -> int:
    """``shape.tier-limit``: a raise on Tier 0 or 1, a lower on Tier 1 or 2."""
    return FULL & ~tier2 if kind == RAISE else tier1 | tier2


def shape_lowering_budget(kind: ShapeKind, m: PlayerState) -> bool:
    """``shape.lowering-budget``: a lower needs a lower left (a raise needs none)."""
    return kind == RAISE or m.lowers_left >= 1


def shape_targets(bits: Bits, m: PlayerState, kind: ShapeKind) -> int:
    """The cells a Shape of ``kind`` may target, the range aside: every other ``shape.*`` rule.  A Project changes no
    tier and no lock, so these are the same before and after it."""
    if not shape_lowering_budget(kind, m):
        return 0
    return shape_unlocked(bits) & shape_tier_limit(kind, bits.tier1, bits.tier2)


def shape_cells(bits: Bits, m: PlayerState, landing: Cell, kind: ShapeKind) -> int:
    """The cells a Shape of ``kind`` may target after the Project: every ``shape.*`` rule."""
    return shape_range(landing) & shape_targets(bits, m, kind)


def mandating_cells(bits: Bits, me: str, legal: int) -> int:
    """``shape.mandate``: of the cells a legal Shape targets (``legal``), those that make the Shape mandatory, not
    occupied by the mover's own stone; the Shape may be left out only when there is none."""
    return legal & ~bits.stones(me)


def shaped(tier1: int, tier2: int, kind: ShapeKind, where: int) -> tuple[int, int]:
    """The tier masks after a legal Shape of ``kind`` on each cell of ``where`` (each cell's tier as its own Shape
    leaves it: a raise 0 -> 1 -> 2, a lower 2 -> 1 -> 0)."""
    if kind == RAISE:
        return (tier1 & ~where) | (where & ~(tier1 | tier2)), tier2 | (tier1 & where)
    return (tier1 & ~where) | (tier2 & where), tier2 & ~where


def shaped_by(tier1: int, tier2: int, shape: Shape | None) -> tuple[int, int]:
    """The tier masks after a legal ``shape`` (unchanged without one)."""
    return (tier1, tier2) if shape is None else shaped(tier1, tier2, shape.kind, BIT[shape.cell])


# ---------------------------------------------------------------- Echo ---


def echo_charge(m: PlayerState) -> bool:
    """``echo.charge``: an Echo needs a charge."""
    return m.charges >= 1


def echo_capture_enemy(bits: Bits, me: str) -> int:
    """``echo-capture.enemy``: an Echo-Capture targets an enemy stone."""
    return bits.b if me == "A" else bits.a


def echo_capture_sealed(bits: Bits, among: int = FULL) -> int:
    """``echo-capture.sealed``: of ``among``, the cells with no empty neighbouring cell."""
    empty = bits.empty
    out = 0
    for c in cells(among):
        if not NEIGHBOUR_MASKS[c] & empty:
            out |= BIT[c]
    return out


def echo_capture_tier(tier1: int, tier2: int) -> int:
    """``echo-capture.tier``: the target stands on Tier 1 or 2 (after the Shape)."""
    return tier1 | tier2


def echo_capture_contact(bits: Bits, me: str, among: int = FULL) -> int:
    """``echo-capture.contact``: of ``among``, the cells beside at least one of the mover's stones."""
    own = bits.stones(me)
    out = 0
    for c in cells(among):
        if NEIGHBOUR_MASKS[c] & own:
            out |= BIT[c]
    return out


def echo_lock_once(m: PlayerState) -> bool:
    """``echo-lock.once``: each player may Echo-Lock once per game."""
    return not m.echo_lock_used


def echo_lock_own_stone(bits: Bits, me: str) -> int:
    """``echo-lock.own-stone``: an Echo-Lock targets a cell occupied by the mover's own stone."""
    return bits.stones(me)


def echo_lock_tier(tier2: int) -> int:
    """``echo-lock.tier``: an Echo-Lock needs a Tier-2 cell (after the Shape)."""
    return tier2


def echo_lock_unlocked(bits: Bits) -> int:
    """``echo-lock.unlocked``: an Echo-Lock target is not locked already."""
    return FULL & ~bits.locked


def echo_capture_cells(bits: Bits, me: str, among: int = FULL) -> int:
    """The Echo-Capture targets after the Shape, the tier aside (``echo-capture.enemy``, ``.sealed``, ``.contact``), of
    ``among``; and them with :func:`echo_capture_tier`."""
    enemy = echo_capture_enemy(bits, me) & among
    return echo_capture_contact(bits, me, echo_capture_sealed(bits, enemy)) if enemy else 0


def echo_lock_cells(bits: Bits, me: str, m: PlayerState) -> int:
    """The Echo-Lock targets after the Shape, the tier aside (``echo-lock.once``, ``.own-stone``, ``.unlocked``); and
    them with :func:`echo_lock_tier`."""
    if not echo_lock_once(m):
        return 0
    return echo_lock_own_stone(bits, me) & echo_lock_unlocked(bits)
