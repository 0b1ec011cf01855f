"""Legal turns of a position, listed, counted and decided one by one.

The enumeration order is fixed and documented, so clients can compare lists:

1. Projects: every Place in board order of its cell (a1 … g7); or every Move by from-cell, then to-cell, both in
   board order; or the cooldown skip alone when it applies.
2. For each Project: no Shape first (when the Shape may be left out), then Shapes by cell in board order, a raise
   before a lower on the same cell.  A skipped Project has no Shape.
3. For each Shape: no Echo first, then Echo-Captures by target in board order, then Echo-Locks by target in board
   order.

>>> from checker.position import Position
>>> from checker.generate import legal_turns
>>> turns = legal_turns(Position.start())
>>> len(turns)  # 36 Places (not d4), each with a raise of a cell within 2 steps
480

The list (:func:`legal_turns`, built on :func:`turn_groups`), the count (:func:`count_turns`, perft's last ply) and
the quick turn test (:func:`turn_is_legal`) are composed of the rules of :mod:`checker.rules` on the board after each
step, so the three agree with each other and with the judge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from checker import rules
from checker.board import BIT, CELLS, FULL, NEIGHBOUR_MASKS, Cell, cells
from checker.ending import game_over_reason
from checker.position import Bits, Position
from checker.projects import legal_ends, project_is_legal
from checker.turn import CAPTURE, CAPTURES, LOCKS, LOWER, LOWERS, RAISE, RAISES, Move, Place, Project, Shape, Turn

__all__ = ["after_project", "shapes_of", "Group", "turn_groups", "turns_of", "legal_turns", "count_turns"]
__all__ += ["turn_is_legal"]

# Every turn legal_turns returns holds the interned parts of checker.turn, and is made by tuple's own
# constructor (the fields given in order), without NamedTuple's Python-level __new__: a list has hundreds.
_new = tuple.__new__
_RANGE = tuple(rules.shape_range(c) for c in CELLS)


def after_project(bits: Bits, me: str, p: Project) -> tuple[Bits, Cell | None]:
    """The board after the legal Project ``p``, and its landing cell (``None`` on a skip)."""
    if type(p) is Place:
        return rules.placed(bits, me, p.cell), p.cell
    if type(p) is Move:
        return rules.moved(bits, me, p.src, p.dst), p.dst
    return bits, None


_EchoTiers = dict[str | None, tuple[int, int]]  # the Echo tier rules' masks (capture, lock) by Shape kind


def _echo_tiers(bits: Bits) -> _EchoTiers:
    """The Echo tier rules (``echo-capture.tier``, ``echo-lock.tier``) as masks, on the tiers as they stand (key
    ``None``) and on the tiers each cell would have after its own raise, or its own lower (key the Shape's kind).  A
    Shape changes its own cell's tier alone, so after a Shape on ``x`` a tier rule holds off ``x`` as it stands and on
    ``x`` as the Shape leaves it."""
    out: _EchoTiers = {}
    for kind in (None, RAISE, LOWER):
        t1, t2 = (bits.tier1, bits.tier2) if kind is None else rules.shaped(bits.tier1, bits.tier2, kind, FULL)
        out[kind] = rules.echo_capture_tier(t1, t2), rules.echo_lock_tier(t2)
    return out


def _every(bits: Bits, me: str) -> tuple[Bits, Bits]:
    """The board with every cell the mover's stone, and with every cell empty (tiers and locks kept): a rule decided
    cell by cell, asked once on each, says what it decides on a cell that a Project fills with the mover's stone or
    empties."""
    t1, t2, lk = bits.tier1, bits.tier2, bits.locked
    return _new(Bits, (FULL, 0, t1, t2, lk) if me == "A" else (0, FULL, t1, t2, lk)), _new(Bits, (0, 0, t1, t2, lk))


def _branches(pos: Position, project: Project | None = None) -> list[tuple[Project, int, int, bool, int, int]]:
    """For each legal Project (or ``project`` alone; none when the game is over): the Project, the raise and lower
    cells, whether the Shape may be left out, the Echo-Capture and Echo-Lock targets after it (the tier aside; none
    without a charge).

    The rules are asked once for the position, not once per Project: a Project changes the stones of its from-cell and
    landing cell alone (and no tier, no lock), and the Shape's mandate and the Echo-Lock's targets are decided cell by
    cell, so after it they are the position's answers off those two cells and the answers of :func:`_every` board on
    them.  The Echo-Capture's targets are decided on a cell and its neighbouring cells: they are asked again only after
    a Project that changes a cell within one step of a candidate."""
    if game_over_reason(pos) is not None:
        return []
    bits, m, me = pos.bits, pos.mover, pos.to_move
    may_raise, may_lower = rules.shape_targets(bits, m, RAISE), rules.shape_targets(bits, m, LOWER)
    own, empty = _every(bits, me)
    mandate = rules.mandating_cells(bits, me, FULL)
    mandate_own, mandate_empty = rules.mandating_cells(own, me, FULL), rules.mandating_cells(empty, me, FULL)
    can_echo = rules.echo_charge(m)
    lock = lock_own = lock_empty = 0
    if can_echo and rules.echo_lock_once(m):
        lock, lock_own, lock_empty = (
            rules.echo_lock_cells(bits, me, m),
            rules.echo_lock_cells(own, me, m),
            rules.echo_lock_cells(empty, me, m),
        )
    # A Project fills at most one cell beside a stone and empties at most one (a Move's from-cell), so
    # only an enemy stone with at most one empty neighbouring cell can be sealed after it.
    sealable = reach = 0
    empty_cells = bits.empty
    for c in cells(rules.echo_capture_enemy(bits, me)) if can_echo else ():
        if (NEIGHBOUR_MASKS[c] & empty_cells).bit_count() <= 1:
            sealable |= BIT[c]
            reach |= BIT[c] | NEIGHBOUR_MASKS[c]
    capture = rules.echo_capture_cells(bits, me, sealable) if sealable else 0
    out: list[tuple[Project, int, int, bool, int, int]] = []
    ends = legal_ends(pos)
    for p, src, landing in ends if project is None else [e for e in ends if e[0] == project]:
        if landing is None:  # the cooldown skip: no Shape, the board unchanged
            out.append((p, 0, 0, True, capture, lock))
            continue
        dst = BIT[landing]
        keep = ~(src | dst)
        raises, lowers = _RANGE[landing] & may_raise, _RANGE[landing] & may_lower
        optional = not (raises | lowers) & ((mandate & keep) | (mandate_empty & src) | (mandate_own & dst))
        near = (src | dst) & reach  # beside a candidate: the Echo-Capture asked again, on the board after
        echo_capture = rules.echo_capture_cells(after_project(bits, me, p)[0], me, sealable) if near else capture
        out.append((p, raises, lowers, optional, echo_capture, (lock & keep) | (lock_empty & src) | (lock_own & dst)))
    return out


def shapes_of(raises: int, lowers: int) -> list[Shape]:
    """The Shapes on the raise and lower cells, in the documented order."""
    if not lowers:
        return [RAISES[c] for c in cells(raises)]
    if not raises:
        return [LOWERS[c] for c in cells(lowers)]
    out = []
    for c in cells(raises | lowers):
        bit = BIT[c]
        if raises & bit:
            out.append(RAISES[c])
        if lowers & bit:
            out.append(LOWERS[c])
    return out


def _echo_targets(tiers: _EchoTiers, shape: Shape, capture: int, lock: int) -> tuple[int, int]:
    """The Echo-Capture and Echo-Lock targets after ``shape`` (the tier rules on the shaped tiers)."""
    x = BIT[shape.cell]
    (capture_tier, lock_tier), (shaped_capture, shaped_lock) = tiers[None], tiers[shape.kind]
    return capture & ((capture_tier & ~x) | (shaped_capture & x)), lock & ((lock_tier & ~x) | (shaped_lock & x))


class Group(NamedTuple):
    """Legal turns that share a Project and the Echoes after their Shapes, in the documented order: for each of
    ``shapes`` (``None``: the Shape left out), the turn with no Echo, then an Echo-Capture of each cell of the mask
    ``captures``, then an Echo-Lock of each cell of ``locks``, each in board order (both 0 when no Echo is legal)."""

    project: Project
    shapes: Sequence[Shape | None]
    captures: int
    locks: int


def turn_groups(pos: Position, project: Project | None = None, shape: Shape | None = None) -> list[Group]:
    """The legal turns of ``pos`` as :class:`Group` s, in the documented order; with ``project`` (and ``shape``) only
    those that begin with them: a group per Project, or per run of its Shapes with the same Echoes where a Shape changes
    an Echo target's tier.  :func:`legal_turns` lists their turns; the legal-turns answer is written from them
    (schemas/writers.py) without making a turn each."""
    tiers = _echo_tiers(pos.bits)
    capture_tier, lock_tier = tiers[None]
    out: list[Group] = []
    for p, raises, lowers, optional, capture, lock in _branches(pos, project):
        shapes: Sequence[Shape | None] = [None, *shapes_of(raises, lowers)] if optional else shapes_of(raises, lowers)
        if shape is not None:
            shapes = [s for s in shapes if s == shape]
        targets = capture | lock
        unshaped = capture & capture_tier, lock & lock_tier
        if not (raises | lowers) & targets:
            out.append(_new(Group, (p, shapes, *unshaped)))
            continue
        # a Shape changes its own cell's tier alone: off the targets, the Echoes are the unshaped ones;
        # a run of Shapes with the same Echoes is one group
        last, run = None, []  # type: tuple[int, int] | None, list[Shape | None]
        for s in shapes:
            echoes = _echo_targets(tiers, s, capture, lock) if s and BIT[s.cell] & targets else unshaped
            if echoes != last:
                last, run = echoes, [s]
                out.append(_new(Group, (p, run, *echoes)))
            else:
                run.append(s)
    return out


def turns_of(groups: list[Group]) -> list[Turn]:
    """The turns of ``groups``, in order."""
    out: list[Turn] = []
    for p, shapes, caps, locks in groups:
        if not (caps or locks):
            out += [_new(Turn, (p, s, None)) for s in shapes]
            continue
        echoes = [None, *[CAPTURES[c] for c in cells(caps)], *[LOCKS[c] for c in cells(locks)]]
        for s in shapes:
            out += [_new(Turn, (p, s, e)) for e in echoes]
    return out


def legal_turns(pos: Position, project: Project | None = None, shape: Shape | None = None) -> list[Turn]:
    """Every legal turn of ``pos`` in the documented order; with ``project`` (and ``shape``) only the turns that begin
    with them."""
    return turns_of(turn_groups(pos, project, shape))


def count_turns(pos: Position) -> int:
    """``len(legal_turns(pos))``, counted without making the turns: per Project, the Shape choices times (1 + the Echoes
    after no Shape), corrected for the Shapes that change an Echo target's tier."""
    tiers = _echo_tiers(pos.bits)
    (capture_tier, lock_tier), (capture_raised, lock_raised) = tiers[None], tiers[RAISE]
    capture_lowered, lock_lowered = tiers[LOWER]
    total = 0
    for _, raises, lowers, optional, capture, lock in _branches(pos):
        n = raises.bit_count() + lowers.bit_count() + optional
        targets = capture | lock
        if not targets:
            total += n
            continue
        caps, locks = capture & capture_tier, lock & lock_tier
        total += n * (1 + caps.bit_count() + locks.bit_count())
        # Only a Shape on a target can change the Echoes after it: on each such cell, the tier rules
        # as its own Shape leaves it.
        where = raises & targets
        if where:
            total += (where & capture & capture_raised).bit_count() - (where & caps).bit_count()
            total += (where & lock & lock_raised).bit_count() - (where & locks).bit_count()
        where = lowers & targets
        if where:
            total += (where & capture & capture_lowered).bit_count() - (where & caps).bit_count()
            total += (where & lock & lock_lowered).bit_count() - (where & locks).bit_count()
    return total


def turn_is_legal(pos: Position, turn: Turn, *, game_over_checked: bool = False, project_checked: bool = False) -> bool:
    """Whether ``turn`` is one of :func:`legal_turns`, decided for it alone with the same rules (no explanation:
    :func:`checker.legality.check` says why).  ``game_over_checked``: the caller knows the game is not over;
    ``project_checked``: the caller knows the turn's Project is legal.

    >>> from checker.notation import parse_htn
    >>> turn_is_legal(Position.start(), parse_htn("c3 +d4")), turn_is_legal(Position.start(), parse_htn("d4 +d4"))
    (True, False)
    """
    if not game_over_checked and game_over_reason(pos) is not None:
        return False
    p, s, e = turn
    if not (project_checked or project_is_legal(pos, p)):
        return False
    me, m = pos.to_move, pos.mover
    after, landing = after_project(pos.bits, me, p)
    if landing is None:
        if s is not None:
            return False
    elif s is None:
        legal = rules.shape_cells(after, m, landing, RAISE) | rules.shape_cells(after, m, landing, LOWER)
        if rules.mandating_cells(after, me, legal):
            return False
    elif not BIT[s.cell] & rules.shape_cells(after, m, landing, s.kind):
        return False
    if e is None:
        return True
    if not rules.echo_charge(m):
        return False
    t1, t2 = rules.shaped_by(after.tier1, after.tier2, s)
    if e.kind == CAPTURE:
        return bool(BIT[e.cell] & rules.echo_capture_cells(after, me) & rules.echo_capture_tier(t1, t2))
    return bool(BIT[e.cell] & rules.echo_lock_cells(after, me, m) & rules.echo_lock_tier(t2))
