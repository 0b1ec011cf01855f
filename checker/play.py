"""Applying a legal turn: the new position, the events and the capture checks'
weighing (RULES §4–§7); the end of the game is :mod:`checker.ending`'s.

>>> from checker.position import Position
>>> from checker.notation import parse_htn, position_to_hpn
>>> out = apply(Position.start(), parse_htn("c3 +d4"), history=[])
>>> position_to_hpn(out.position)
'0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1'
>>> [str(e.type) for e in out.events]
['first_place']
>>> out.game.over, out.game.repetition
(False, 'evaluated')

:func:`apply` assumes the turn is legal (see :func:`checker.legality.check`, which calls it for a legal turn).
There is one way to apply a turn, :func:`_play`, on the board's masks (:class:`~checker.position.Bits`, changed
by the moves of :mod:`checker.rules`): :func:`apply` adds the events and the end of the game, :func:`after`
(perft's and conform's) is the position alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from checker import board, rules
from checker.board import BIT, FULL, NEIGHBOUR_MASKS, SLOTS, Cell, cells, connected, mask_of
from checker.catalogue import LINKS, capture_entry
from checker.ending import GameResult, end_of_game
from checker.position import Bits, PlayerState, Position, other
from checker.turn import CAPTURE, LOCK, RAISE, Move, Place, Skip, Turn

__all__ = ["TermKind", "Term", "CaptureKind", "Weighing", "EventType", "Event", "Outcome", "apply", "after"]
__all__ += ["weigh_encirclement", "weigh_echo_capture"]

N = board.name
_new = tuple.__new__  # the positions' parts made by tuple's own constructor (no NamedTuple __new__)
_NONE: frozenset[Cell] = frozenset()


class TermKind(StrEnum):
    """What a slot adds to a capture sum (see :class:`Term`)."""

    STONE = "stone"
    EDGE = "edge"
    WALL = "wall"


class CaptureKind(StrEnum):
    """How a stone was captured: a Move capture, encirclement (the normal capture check) or the Echo-Capture
    check.  A :class:`Weighing` names its check with the last two."""

    MOVE = "move"
    ENCIRCLEMENT = "encirclement"
    ECHO = "echo"


STONE, EDGE, WALL = TermKind


class EventType(StrEnum):
    """What an :class:`Event` records."""

    CAPTURE = "capture"
    LOCK = "lock"
    COOLDOWN_SET = "cooldown_set"
    COOLDOWN_CLEARED = "cooldown_cleared"
    FIRST_PLACE = "first_place"


@dataclass(frozen=True, slots=True)
class Term:
    """One slot's part in a capture sum.  ``kind`` is ``'stone'`` (a mover's stone, counting its tier), ``'edge'``
    (counting tier + 1) or ``'wall'`` (an enemy stone counting like edge, in an Echo-Capture check)."""

    kind: TermKind
    value: int
    cell: str | None = None

    def text(self) -> str:
        where = {STONE: self.cell, EDGE: "edge"}.get(self.kind, f"wall {self.cell}")
        return f"{self.value} ({where})"


@dataclass(frozen=True, slots=True)
class Weighing:
    """A sealed stone on tier >= 1, weighed by a capture check."""

    check: CaptureKind  # ENCIRCLEMENT or ECHO
    cell: str
    owner: str
    tier: int
    terms: tuple[Term, ...]
    sum: int
    threshold: int
    captured: bool

    @property
    def rule_url(self) -> str:
        """The service's own text of the capture check: ``/rules#capture.<check>``."""
        return capture_entry(self.check).rule_url

    @property
    def message(self) -> str:
        what = "encirclement" if self.check == CaptureKind.ENCIRCLEMENT else "the Echo-Capture check"
        arith = " + ".join(t.text() for t in self.terms)
        verdict = f"> {self.threshold}" if self.captured else f"is not more than {self.threshold}"
        verdict = f"{self.sum} {verdict} (6 × Tier {self.tier}): {'' if self.captured else 'not '}captured"
        return f"{self.owner}'s stone on {self.cell} (Tier {self.tier}), weighed by {what}: {arith} = {verdict}."


@dataclass(frozen=True, slots=True)
class Event:
    """Something a turn did: its :class:`EventType`, and for a capture its :class:`CaptureKind`."""

    type: EventType
    player: str
    cells: tuple[str, ...]
    message: str
    more: str
    kind: CaptureKind | None = None


class Outcome(NamedTuple):
    """A legal turn played: the position after it, its events, the capture checks' weighings and the
    end of the game.  A named tuple: made once per turn of a replay, it costs a plain tuple's making."""

    position: Position
    events: tuple[Event, ...]
    capture_check: tuple[Weighing, ...]
    game: GameResult


def weigh_encirclement(bits: Bits, mover: str) -> list[Weighing]:
    """The normal capture check (RULES §7): every opponent stone on tier >= 1 whose six slots are all edge or the
    mover's stones, weighed on this board."""
    own, foe = (bits.a, bits.b) if mover == "A" else (bits.b, bits.a)
    return _weigh(bits, mover, CaptureKind.ENCIRCLEMENT, foe, FULL & ~own, 0)


def weigh_echo_capture(bits: Bits, mover: str, target: Cell) -> list[Weighing]:
    """The Echo-Capture check (D-10) on the board the normal check left: every member of the target's group (the
    target and the stones of its owner joined to it) on tier >= 1 with no empty neighbouring cell, enemy
    neighbours counting like edge.  Empty when the target is gone."""
    foe = bits.stones(other(mover))
    if not foe & BIT[target]:
        return []
    return _weigh(bits, mover, CaptureKind.ECHO, connected(BIT[target], foe), bits.empty, foe)


def _weigh(bits: Bits, mover: str, check: CaptureKind, stones: int, open_: int, walls: int) -> list[Weighing]:
    """Every stone of ``stones`` on tier >= 1 with no neighbouring cell in ``open_``, weighed: an edge slot
    counts the stone's tier + 1, and so does a stone of ``walls``; any other stone counts its own tier."""
    out = []
    for c in cells(stones & (bits.tier1 | bits.tier2)):
        if NEIGHBOUR_MASKS[c] & open_:
            continue
        t = bits.tier(c)
        edge = Term(EDGE, t + 1)  # an edge slot's term, the same for all of them
        terms = tuple(
            edge if s is None else Term(WALL, t + 1, N(s)) if walls & BIT[s] else Term(STONE, bits.tier(s), N(s))
            for s in SLOTS[c]
        )
        total = sum(x.value for x in terms)
        out.append(Weighing(check, N(c), other(mover), t, terms, total, 6 * t, total > 6 * t))
    return out


def apply(pos: Position, turn: Turn, history: Sequence[Position] | None = None, *, events: bool = True) -> Outcome:
    """Play a legal ``turn`` from ``pos``: the new position, the events in order, every weighing of the capture
    checks and the end of the game.  ``events=False`` leaves the events out (no message is composed): a replay
    that needs only the positions and the end."""
    after, told, weighings = _play(pos, turn, events)
    return _new(Outcome, (after, told, weighings, end_of_game(pos, after, type(turn.project) is Skip, history)))


def after(pos: Position, turn: Turn) -> Position:
    """The position after the legal ``turn``: :func:`apply`'s, without the events or the end (what perft needs)."""
    return _play(pos, turn, False)[0]


def _play(pos: Position, turn: Turn, events: bool) -> tuple[Position, tuple[Event, ...], tuple[Weighing, ...]]:
    """The one way a turn is applied, on the masks: the position after it, the events if asked, the weighings."""
    me, enemy, bits, (p, shape, echo) = pos.to_move, other(pos.to_move), pos.bits, turn
    m, e = pos.player(me), pos.player(enemy)
    m_reserve, m_charges, m_lowers, m_captures, m_raises, m_placed, m_lock, _ = m
    moved: list[Cell] = []

    # Step 1: Project
    if type(p) is Place:
        bits = rules.placed(bits, me, p.cell)
        m_reserve -= 1
        m_placed = True
    elif type(p) is Move:
        moved = [p.dst] if bits.stones(enemy) & BIT[p.dst] else []
        bits = rules.moved(bits, me, p.src, p.dst)
    # Step 2: Shape
    if shape is not None:
        a, b, t1, t2, locked = bits
        bits = _new(Bits, (a, b, *rules.shaped_by(t1, t2, shape), locked))
        m_raises += shape.kind == RAISE
        m_lowers -= shape.kind != RAISE
    # Step 3: Echo
    if echo is not None:
        m_charges -= 1
        if echo.kind == LOCK:
            bits = bits._replace(locked=bits.locked | BIT[echo.cell])
            m_lock = True
    # The capture checks: the normal one, then the Echo-Capture's, each on the board the one before left.
    weighings = weigh_encirclement(bits, me)
    bits, encircled = _taken(bits, enemy, weighings)
    echoed: list[Cell] = []
    if echo is not None and echo.kind == CAPTURE:
        echo_weighings = weigh_echo_capture(bits, me, echo.cell)
        bits, echoed = _taken(bits, enemy, echo_weighings)
        weighings += echo_weighings
    caught = moved + encircled + echoed
    n = len(caught)
    new_m = _new(PlayerState, (m_reserve, m_charges, m_lowers, m_captures + n, m_raises, m_placed, m_lock, _NONE))
    new_e = e if not n else e._replace(reserve=e.reserve + n, cooldown=e.cooldown | frozenset(caught))
    after = Position._made(bits, enemy, pos.half_moves + 1, (new_m, new_e) if me == "A" else (new_e, new_m))
    told = tuple(_events(me, turn, m, new_e.cooldown if n else _NONE, moved, encircled, echoed)) if events else ()
    return after, told, tuple(weighings)


def _taken(bits: Bits, who: str, weighings: list[Weighing]) -> tuple[Bits, list[Cell]]:
    """The board with ``who``'s stones that ``weighings`` captured taken off, and their cells."""
    captured = [board.parse_cell(w.cell) for w in weighings if w.captured]
    if captured:
        gone = FULL & ~mask_of(captured)
        bits = bits._replace(a=bits.a & gone) if who == "A" else bits._replace(b=bits.b & gone)
    return bits, captured


def _events(me: str, turn: Turn, m: PlayerState, cooldown: frozenset[Cell], *caught: list[Cell]) -> Iterator[Event]:
    """What the turn did, in order: the captures (Move, encirclement, Echo-Capture: ``caught``), the lock, the
    capture cooldown set on the opponent (``cooldown``, empty when nothing was captured), the mover's (``m``,
    before the turn) cleared by a Place or a skip, and the first Place."""
    enemy, (p, _, echo), (moved, encircled, echoed) = other(me), turn, caught
    if moved:
        assert isinstance(p, Move)  # only a Move captures by moving
        c = N(p.dst)
        said = f"Move capture: {me}'s stone moved from {N(p.src)} onto {enemy}'s stone on {c}, on a strictly lower "
        said += f"tier; it returns to {enemy}'s reserve."
        yield Event(EventType.CAPTURE, me, (c,), said, LINKS["capture"], CaptureKind.MOVE)
    if encircled:
        names = tuple(board.names(encircled))
        said = f"Encirclement: {_captured_text(enemy, names)}"
        yield Event(EventType.CAPTURE, me, names, said, LINKS["capture"], CaptureKind.ENCIRCLEMENT)
    if echo is not None and echo.kind == CAPTURE:
        names, t = tuple(board.names(echoed)), N(echo.cell)
        said = f"Echo-Capture of {t}: {_captured_text(enemy, names)}"
        if not names:
            why = "no stone of its group met the test (see the weighing)"
            if echo.cell in moved + encircled:  # the target was gone before the Echo-Capture check
                why = f"the normal capture check had already captured {t}"
            said = f"Echo-Capture of {t} captured nothing: {why}. The charge is spent (D-8)."
        yield Event(EventType.CAPTURE, me, names, said, LINKS["capture"], CaptureKind.ECHO)
    if echo is not None and echo.kind == LOCK:
        said = f"{me} Echo-Locks {N(echo.cell)}: the cell can never be Shaped or Placed onto again."
        yield Event(EventType.LOCK, me, (N(echo.cell),), said, LINKS["lock"])
    if cooldown:
        names = tuple(board.names(cooldown))
        said = f"Capture cooldown: {enemy}'s next Place must be at least 2 steps from {', '.join(names)}."
        yield Event(EventType.COOLDOWN_SET, enemy, names, said, LINKS["project"])
    if m.cooldown and type(p) is not Move:
        names = tuple(board.names(m.cooldown))
        why = f"{me} Placed on {N(p.cell)}" if isinstance(p, Place) else "the Project was skipped"
        said = f"{me}'s capture cooldown ({', '.join(names)}) clears: {why}."
        yield Event(EventType.COOLDOWN_CLEARED, me, names, said, LINKS["project"])
    if type(p) is Place and not m.placed:
        said = f"{me} made their first Place, on {N(p.cell)}; the opening restriction no longer applies to them."
        yield Event(EventType.FIRST_PLACE, me, (N(p.cell),), said, LINKS["project"])


def _captured_text(owner: str, names: Sequence[str]) -> str:
    """The capture of ``owner``'s stones on ``names``, as a sentence."""
    s, are, returns = ("s", "are", "return") if len(names) > 1 else ("", "is", "returns")
    said = f"{owner}'s stone{s} on {', '.join(names)} {are} captured"
    return f"{said} and {returns} to {owner}'s reserve (see the weighing)."
