"""Positions: every field RULES §2 names, as an immutable value.

A :class:`Position` holds each cell's tier, stone and lock, the player to move, the half-move count and a
:class:`PlayerState` for each of ``A`` and ``B``.  Positions compare and hash by value, and give their
repetition key (RULES §8) with :meth:`Position.key`.

A position built from client input may break the conditions of D-3.  Like python-chess's ``Board.status()``,
:meth:`Position.problems` says *every* condition that is broken, each under its ``position.*`` id:

>>> from checker.position import Position
>>> start = Position.start()
>>> start.to_move, start.half_moves, start.player("A").reserve
('A', 0, 7)
>>> start.problems()
[]
>>> bad = start.replace(half_moves=1)
>>> [p.rule for p in bad.problems()]
['position.to-move']

The checker's other functions assume a consistent position; the HTTP layer rejects an inconsistent one first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import eq
from typing import Any, NamedTuple, TypeVar

from checker import board
from checker.board import BIT, Cell
from checker.wording import plural

__all__ = ["PLAYERS", "other", "PlayerState", "Bits", "Position", "Problem", "STONES_PER_PLAYER"]

PLAYERS = ("A", "B")
STONES_PER_PLAYER = 7
START_CHARGES = 3
START_LOWERS = 6
MAX_HALF_MOVES = 60
_V = TypeVar("_V")


def other(player: str) -> str:
    """The other player: ``other('A') == 'B'``."""
    return "B" if player == "A" else "A"


class PlayerState(NamedTuple):
    """One player's counters (RULES §2), the start by default: a named tuple, immutable, hashed by value, cheap."""

    reserve: int = STONES_PER_PLAYER
    charges: int = START_CHARGES
    lowers_left: int = START_LOWERS
    captures: int = 0
    raises: int = 0
    placed: bool = False
    echo_lock_used: bool = False
    cooldown: frozenset[Cell] = frozenset()

    def replace(self, **changes: object) -> PlayerState:
        return self._replace(**changes)  # type: ignore[arg-type]

    @property
    def lowers_used(self) -> int:
        return START_LOWERS - self.lowers_left


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken consistency condition of D-3."""

    rule: str
    message: str
    cells: tuple[str, ...] = ()


_START_PLAYER = PlayerState()


def _mask(values: Iterable[object], want: object) -> int:
    """The cells whose value (in board order) equals ``want``, as a mask."""
    return sum(compress(BIT, map(eq, values, repeat(want))))


def _spread(empty: _V, *masks: tuple[int, _V]) -> tuple[_V, ...]:
    """Each cell's value in board order: ``empty``, or the value of the last of ``masks`` that holds it."""
    out = [empty] * board.CELL_COUNT
    for mask, value in masks:
        for c in board.cells(mask):
            out[c] = value
    return tuple(out)


class Bits(NamedTuple):
    """A board as masks (:mod:`checker.board`): each player's stones, the tier-1 and tier-2 cells, the locked
    cells.  What :mod:`checker.rules` states the rules on."""

    a: int
    b: int
    tier1: int
    tier2: int
    locked: int

    def stones(self, who: str) -> int:
        return self.a if who == "A" else self.b

    @property
    def empty(self) -> int:
        return board.FULL & ~(self.a | self.b)

    def tier(self, c: Cell) -> int:
        return 2 if self.tier2 >> c & 1 else self.tier1 >> c & 1

    @classmethod
    def of(cls, tiers: Sequence[int], stones: Sequence[str | None], locked: Iterable[bool]) -> Bits:
        return cls(_mask(stones, "A"), _mask(stones, "B"), _mask(tiers, 1), _mask(tiers, 2), sum(compress(BIT, locked)))


class Position:
    """An immutable Hexodic position.

    ``tiers``, ``stones`` and ``locked`` are tuples indexed by cell (board order); a stone is ``'A'``, ``'B'``
    or ``None``.  ``players`` maps ``'A'`` and ``'B'`` to their :class:`PlayerState`.

    The board is held two ways, each made from the other when first asked: the tuples (what a client gives, and
    what may break D-3) and the masks, :attr:`bits` (what the rules decide on, and what a turn's position after
    is made as).  The repetition key is made of the masks.
    """

    __slots__ = ("_tiers", "_stones", "_locked", "to_move", "half_moves", "_players", "_hash", "_problems", "_bits")

    def __init__(
        self,
        tiers: Iterable[int],
        stones: Iterable[str | None],
        locked: Iterable[bool],
        to_move: str,
        half_moves: int,
        players: Mapping[str, PlayerState],
    ) -> None:
        self._tiers: tuple[int, ...] | None = tuple(tiers)
        self._stones: tuple[str | None, ...] | None = tuple(stones)
        self._locked: tuple[bool, ...] | None = tuple(map(bool, locked))
        if not (len(self._tiers) == len(self._stones) == len(self._locked) == board.CELL_COUNT):
            raise ValueError(f"a position has exactly {board.CELL_COUNT} cells")
        self.to_move, self.half_moves, self._players = to_move, half_moves, (players["A"], players["B"])
        self._hash: int | None = None
        self._problems: tuple[Problem, ...] | None = None
        self._bits: Bits | None = None

    @classmethod
    def _made(cls, bits: Bits, to_move: str, half_moves: int, players: tuple[PlayerState, PlayerState]) -> Position:
        """A position from the board as masks and the players as (A, B): what :func:`checker.play.apply` makes
        after every turn, without the checks of ``__init__`` (the tuples are made when first asked)."""
        self = object.__new__(cls)
        self._tiers = self._stones = self._locked = None
        self.to_move, self.half_moves, self._players = to_move, half_moves, players
        self._hash = self._problems = None
        self._bits = bits
        return self

    @classmethod
    def start(cls) -> Position:
        """The start position: empty tier-0 board, A to move, full reserves."""
        return _START

    @classmethod
    def from_cells(cls, cells: Mapping[Cell, tuple[int, str | None, bool]] | None = None, **fields: Any) -> Position:
        """The start position with ``{cell: (tier, stone, locked)}`` for the cells that differ from it, and any
        field :meth:`replace` takes.  Handy in tests and examples."""
        tiers, stones, locked = zip(*((cells or {}).get(c, (0, None, False)) for c in board.CELLS))
        return cls(tiers, stones, locked, "A", 0, dict.fromkeys(PLAYERS, _START_PLAYER)).replace(**fields)

    def replace(self, **changes: Any) -> Position:
        """A copy with some of ``tiers``, ``stones``, ``locked``, ``to_move``, ``half_moves`` and ``players``
        changed; ``A=`` / ``B=`` replace one player."""
        players = {**changes.pop("players", self.players), **{w: changes.pop(w) for w in PLAYERS if w in changes}}
        return Position(**{f: getattr(self, f) for f in _FIELDS} | changes, players=players)

    def player(self, who: str) -> PlayerState:
        """The :class:`PlayerState` of ``'A'`` or ``'B'``."""
        return self._players[0] if who == "A" else self._players[1]

    @property
    def players(self) -> dict[str, PlayerState]:
        return {"A": self._players[0], "B": self._players[1]}

    @property
    def bits(self) -> Bits:
        """The board as masks (:class:`Bits`), made once."""
        if self._bits is None:
            self._bits = Bits.of(self.tiers, self.stones, self.locked)
        return self._bits

    @property
    def tiers(self) -> tuple[int, ...]:
        """Each cell's tier, in board order."""
        if self._tiers is None:
            self._tiers = _spread(0, (self.bits.tier1, 1), (self.bits.tier2, 2))
        return self._tiers

    @property
    def stones(self) -> tuple[str | None, ...]:
        """Each cell's stone (``'A'``, ``'B'`` or ``None``), in board order."""
        if self._stones is None:
            self._stones = _spread(None, (self.bits.a, "A"), (self.bits.b, "B"))
        return self._stones

    @property
    def locked(self) -> tuple[bool, ...]:
        """Whether each cell is locked, in board order."""
        if self._locked is None:
            self._locked = _spread(False, (self.bits.locked, True))
        return self._locked

    @property
    def mover(self) -> PlayerState:
        """The state of the player to move."""
        return self.player(self.to_move)

    def stones_of(self, who: str) -> list[Cell]:
        """The cells holding ``who``'s stones, in board order."""
        return [c for c, s in enumerate(self.stones) if s == who]

    def _fields(self) -> tuple[object, ...]:
        return (self.tiers, self.stones, self.locked, self.to_move, self.half_moves, self._players)

    def __eq__(self, other_: object) -> bool:
        return self._fields() == other_._fields() if isinstance(other_, Position) else NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._fields())
        return self._hash

    def key(self) -> tuple[object, ...]:
        """The repetition key (RULES §8): everything but the cooldowns and the half-move count."""
        return (self.bits, self.to_move, self._players[0][:7], self._players[1][:7])

    def __repr__(self) -> str:
        # Not HPN: this module is below the notation (checker.notation imports it).
        stones = (self.bits.a | self.bits.b).bit_count()
        return f"<Position {self.to_move} to move, half-move {self.half_moves}, {stones} stones>"

    def problems(self) -> list[Problem]:
        """Every broken ``position.*`` condition of D-3, in the order D-3 lists them."""
        if self._problems is None:
            self._problems = tuple(Problem(r, m, tuple(board.names(cells))) for r, m, cells in _problems(self))
        return list(self._problems)

    def is_consistent(self) -> bool:
        return not self.problems()


_FIELDS = ("tiers", "stones", "locked", "to_move", "half_moves")
_START = Position.from_cells()


def _problems(pos: Position) -> Iterator[tuple[str, str, Iterable[Cell]]]:
    """Every broken condition of D-3 as ``(rule, message, cells)``, in the order D-3 (and the catalogue) lists them."""
    tiers, stones, h = pos.tiers, pos.stones, pos.half_moves
    # each player's state, stones on the board and turns had (A moves on even half-moves)
    players = [(who, pos.player(who), stones.count(who), (h + (who == "A")) // 2) for who in PLAYERS]
    for who, ps, _, _ in players:
        for field, high, v in zip(PlayerState._fields, (7, 3, 6, None, None), ps[:5]):
            if v < 0 or (high is not None and v > high):
                allowed = "0 or more" if high is None else f"0–{high}"
                yield "position.range", f"{who}'s {field} is {v}; it must be {allowed}.", ()
    if not 0 <= h <= MAX_HALF_MOVES:
        yield "position.range", f"half_moves is {h}; it must be 0–{MAX_HALF_MOVES}.", ()
    for who, ps, n, _ in players:
        if n + ps.reserve != STONES_PER_PLAYER:
            why = f"{who} has {plural(n, 'stone')} on the board and {ps.reserve} in reserve, {n + ps.reserve} in all"
            yield "position.stone-count", f"{why}; stones on the board + reserve must be 7.", ()
    for c in [] if set(tiers) <= {0, 1, 2} else [c for c in board.CELLS if tiers[c] not in (0, 1, 2)]:
        yield "position.tier", f"{board.name(c)} has tier {tiers[c]}; a tier is 0, 1 or 2.", [c]
    locked = [c for c in board.CELLS if pos.locked[c]] if True in pos.locked else []
    for c in (c for c in locked if tiers[c] != 2):
        why = f"{board.name(c)} is locked but has tier {tiers[c]}"
        yield "position.lock-tier", f"{why}; only a tier-2 cell can be locked.", [c]
    users = [who for who, ps, _, _ in players if ps.echo_lock_used]
    if len(locked) != len(users):
        why = f"{' and '.join(users) or 'no player'} {'has' if len(users) == 1 else 'have'} used the Echo-Lock"
        why = f"{len(locked)} cell{'s are' if len(locked) != 1 else ' is'} locked but {why}"
        yield "position.lock-count", f"{why}; each Echo-Lock locks exactly one cell.", locked
    for who, ps, _, _ in players:
        if ps.echo_lock_used and ps.charges > 2:
            why = f"{who} has used the Echo-Lock but still has {ps.charges} charges"
            yield "position.lock-charges", f"{why}; an Echo-Lock spends one, so at most 2 remain.", ()
    for who, ps, n, had in players:
        if ps.placed:
            if had == 0:
                why = f"{who} has not had a turn yet (half_moves {h}) but has made a first Place."
                yield "position.unplaced", why, ()
            continue
        wrong = [f"{plural(n, 'stone')} on the board"] if n else []
        for field in ("reserve", "charges", "lowers_left", "raises", "captures"):
            if (v := getattr(ps, field)) != (want := getattr(_START_PLAYER, field)):
                wrong.append(f"{field} {v} (expected {want})")
        wrong += compress(("a non-empty cooldown", "the Echo-Lock used"), (ps.cooldown, ps.echo_lock_used))
        if wrong:
            why = f"{who} has not made a first Place yet but has " + ", ".join(wrong) + "."
            yield "position.unplaced", why, pos.stones_of(who) + sorted(ps.cooldown)
    for who, ps, _, _ in players:
        if ps.cooldown and (who != pos.to_move or ps.reserve < 1):
            why = "is not the player to move; only the player to move may have one."
            if who == pos.to_move:
                why = "no stone in reserve; a captured stone returns to the reserve."
            cooldown = ", ".join(board.names(ps.cooldown))
            yield "position.cooldown", f"{who} has a capture cooldown ({cooldown}) but {why}", ps.cooldown
    if pos.to_move != (expected := "A" if h % 2 == 0 else "B"):
        yield "position.to-move", f"half_moves is {h}, so {expected} is to move, not {pos.to_move}.", ()
    for who, ps, _, had in players:
        if (shapes := ps.raises + ps.lowers_used) > had:
            why = f"{who} has made {ps.raises} raises and {ps.lowers_used} lowers, {shapes} Shapes"
            yield "position.shape-count", f"{why}, in {plural(had, 'turn')}; a turn has at most one Shape.", ()
    a, b = pos.player("A"), pos.player("B")
    if (total := sum(tiers)) != (want := a.raises + b.raises - a.lowers_used - b.lowers_used):
        why = f"the raises ({a.raises} + {b.raises}) minus the lowers used ({a.lowers_used} + {b.lowers_used})"
        why = f"the tiers add up to {total}, but {why} give {want}"
        yield "position.tier-sum", f"{why}; only a Shape changes a tier.", ()
