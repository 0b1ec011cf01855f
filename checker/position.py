"""Positions: every field RULES §2 names, as an immutable value.

A :class:`Position` holds each cell's tier, stone and lock, the player to
move, the half-move count and a :class:`PlayerState` for each of ``A`` and
``B``.  Positions compare and hash by value, and give their repetition key
(RULES §8) with :meth:`Position.key`.

A position built from client input may break the conditions of D-3.
Like python-chess's ``Board.status()``, :meth:`Position.problems` says
*every* condition that is broken, each under its ``position.*`` id:

>>> from checker.position import Position
>>> start = Position.start()
>>> start.to_move, start.half_moves, start.player("A").reserve
('A', 0, 7)
>>> start.problems()
[]
>>> bad = start.replace(half_moves=1)
>>> [p.rule for p in bad.problems()]
['position.to-move']

The checker's other functions assume a consistent position; the HTTP layer
rejects an inconsistent one before it gets that far.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from checker import board
from checker.board import Cell
from checker.wording import plural

__all__ = ["PLAYERS", "other", "PlayerState", "Bits", "Position", "Problem", "STONES_PER_PLAYER"]

PLAYERS = ("A", "B")
STONES_PER_PLAYER = 7
START_CHARGES = 3
START_LOWERS = 6
MAX_HALF_MOVES = 60


def other(player: str) -> str:
    """The other player: ``other('A') == 'B'``."""
    return "B" if player == "A" else "A"


class PlayerState(NamedTuple):
    """One player's counters (RULES §2).  The defaults are the start.  A named
    tuple: immutable, compared and hashed by value, and cheap to make."""

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

    def key(self) -> tuple[object, ...]:
        """The player's part of the repetition key: everything but the cooldown."""
        return self[:7]


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken consistency condition of D-3."""

    rule: str
    message: str
    cells: tuple[str, ...] = ()


_START_PLAYER = PlayerState()


class Bits(NamedTuple):
    """A board as masks (:mod:`checker.board`): each player's stones, the
    tier-1 and tier-2 cells, the locked cells.  What :mod:`checker.rules`
    states the rules on."""

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
        bit = 1 << c
        return 2 if self.tier2 & bit else 1 if self.tier1 & bit else 0

    def tier_tuple(self) -> tuple[int, ...]:
        """Each cell's tier, in board order."""
        out = [0] * board.CELL_COUNT
        for c in board.cells(self.tier1):
            out[c] = 1
        for c in board.cells(self.tier2):
            out[c] = 2
        return tuple(out)

    def stone_tuple(self) -> tuple[str | None, ...]:
        """Each cell's stone, in board order."""
        out: list[str | None] = [None] * board.CELL_COUNT
        for c in board.cells(self.a):
            out[c] = "A"
        for c in board.cells(self.b):
            out[c] = "B"
        return tuple(out)

    def locked_tuple(self) -> tuple[bool, ...]:
        """Whether each cell is locked, in board order."""
        out = [False] * board.CELL_COUNT
        for c in board.cells(self.locked):
            out[c] = True
        return tuple(out)

    @classmethod
    def of(cls, tiers: Iterable[int], stones: Iterable[str | None], locked: Iterable[bool]) -> Bits:
        a = b = t1 = t2 = lk = 0
        bit = 1
        for t, s, k in zip(tiers, stones, locked):
            if s == "A":
                a |= bit
            elif s == "B":
                b |= bit
            if t == 1:
                t1 |= bit
            elif t == 2:
                t2 |= bit
            if k:
                lk |= bit
            bit <<= 1
        return cls(a, b, t1, t2, lk)


class Position:
    """An immutable Hexodic position.

    ``tiers``, ``stones`` and ``locked`` are tuples indexed by cell (board
    order); a stone is ``'A'``, ``'B'`` or ``None``.  ``players`` maps
    ``'A'`` and ``'B'`` to their :class:`PlayerState`.

    The board is held two ways, each made from the other when first asked:
    the tuples (what a client gives, and what may break D-3) and the masks,
    :attr:`bits` (what the rules decide on, and what a turn's position after
    is made as).  The repetition key is made of the masks.
    """

    __slots__ = (
        "_tiers",
        "_stones",
        "_locked",
        "to_move",
        "half_moves",
        "_players",
        "_hash",
        "_key",
        "_problems",
        "_bits",
    )

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
        self.to_move = to_move
        self.half_moves = half_moves
        self._players = (players["A"], players["B"])
        self._hash: int | None = None
        self._key: tuple[object, ...] | None = None
        self._problems: tuple[Problem, ...] | None = None
        self._bits: Bits | None = None

    # -- construction ----------------------------------------------------

    @classmethod
    def _made(cls, bits: Bits, to_move: str, half_moves: int, players: tuple[PlayerState, PlayerState]) -> Position:
        """A position from the board as masks and the players as (A, B): what
        :func:`checker.play.apply` makes after every turn, without the checks of
        ``__init__`` (the tuples are made when first asked)."""
        self = object.__new__(cls)
        self._tiers = self._stones = self._locked = None
        self.to_move, self.half_moves, self._players = to_move, half_moves, players
        self._hash = self._key = self._problems = None
        self._bits = bits
        return self

    @classmethod
    def start(cls) -> Position:
        """The start position: empty tier-0 board, A to move, full reserves."""
        return _START

    @classmethod
    def from_cells(
        cls,
        cells: Mapping[Cell, tuple[int, str | None, bool]] | None = None,
        to_move: str = "A",
        half_moves: int = 0,
        players: Mapping[str, PlayerState] | None = None,
    ) -> Position:
        """Build a position from ``{cell: (tier, stone, locked)}`` for the cells
        that differ from the start.  Handy in tests and examples."""
        tiers = [0] * board.CELL_COUNT
        stones: list[str | None] = [None] * board.CELL_COUNT
        locked = [False] * board.CELL_COUNT
        for cell, (tier, stone, lock) in (cells or {}).items():
            tiers[cell], stones[cell], locked[cell] = tier, stone, lock
        players = players or {"A": _START_PLAYER, "B": _START_PLAYER}
        return cls(tiers, stones, locked, to_move, half_moves, players)

    def replace(
        self,
        *,
        tiers: Iterable[int] | None = None,
        stones: Iterable[str | None] | None = None,
        locked: Iterable[bool] | None = None,
        to_move: str | None = None,
        half_moves: int | None = None,
        players: Mapping[str, PlayerState] | None = None,
        **player_changes: PlayerState,
    ) -> Position:
        """A copy with some fields changed; ``A=`` / ``B=`` replace one player."""
        ps = dict(players) if players is not None else {"A": self._players[0], "B": self._players[1]}
        ps.update(player_changes)
        return Position(
            self.tiers if tiers is None else tiers,
            self.stones if stones is None else stones,
            self.locked if locked is None else locked,
            self.to_move if to_move is None else to_move,
            self.half_moves if half_moves is None else half_moves,
            ps,
        )

    # -- access ------------------------------------------------------------

    def player(self, who: str) -> PlayerState:
        """The :class:`PlayerState` of ``'A'`` or ``'B'``."""
        return self._players[0] if who == "A" else self._players[1]

    @property
    def players(self) -> dict[str, PlayerState]:
        return {"A": self._players[0], "B": self._players[1]}

    @property
    def bits(self) -> Bits:
        """The board as masks (:class:`Bits`), made once."""
        b = self._bits
        if b is None:
            b = self._bits = Bits.of(self.tiers, self.stones, self.locked)
        return b

    @property
    def tiers(self) -> tuple[int, ...]:
        """Each cell's tier, in board order."""
        t = self._tiers
        if t is None:
            t = self._tiers = self.bits.tier_tuple()
        return t

    @property
    def stones(self) -> tuple[str | None, ...]:
        """Each cell's stone (``'A'``, ``'B'`` or ``None``), in board order."""
        s = self._stones
        if s is None:
            s = self._stones = self.bits.stone_tuple()
        return s

    @property
    def locked(self) -> tuple[bool, ...]:
        """Whether each cell is locked, in board order."""
        k = self._locked
        if k is None:
            k = self._locked = self.bits.locked_tuple()
        return k

    @property
    def mover(self) -> PlayerState:
        """The state of the player to move."""
        return self.player(self.to_move)

    def stones_of(self, who: str) -> list[Cell]:
        """The cells holding ``who``'s stones, in board order."""
        return [c for c, s in enumerate(self.stones) if s == who]

    def turns_had(self, who: str) -> int:
        """How many turns ``who`` has had: A moves on even half-moves."""
        return (self.half_moves + 1) // 2 if who == "A" else self.half_moves // 2

    # -- value semantics -------------------------------------------------

    def _fields(self) -> tuple[object, ...]:
        return (self.tiers, self.stones, self.locked, self.to_move, self.half_moves, self._players)

    def __eq__(self, other_: object) -> bool:
        if not isinstance(other_, Position):
            return NotImplemented
        return self._fields() == other_._fields()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash(self._fields())
        return h

    def key(self) -> tuple[object, ...]:
        """The repetition key (RULES §8): everything but the cooldowns and the
        half-move count."""
        key = self._key
        if key is None:
            key = self._key = (
                self.bits,
                self.to_move,
                self._players[0].key(),
                self._players[1].key(),
            )
        return key

    def __repr__(self) -> str:
        # Not HPN: this module is below the notation (checker.notation imports it).
        stones = sum(s is not None for s in self.stones)
        return f"<Position {self.to_move} to move, half-move {self.half_moves}, {stones} stones>"

    # -- consistency (D-3) ---------------------------------------------------

    def problems(self) -> list[Problem]:
        """Every broken ``position.*`` condition of D-3, in the order D-3 lists them."""
        found = self._problems
        if found is None:
            found = self._problems = tuple(_problems(self))
        return list(found)

    def is_consistent(self) -> bool:
        return not self.problems()


_START = Position(
    [0] * board.CELL_COUNT,
    [None] * board.CELL_COUNT,
    [False] * board.CELL_COUNT,
    "A",
    0,
    {"A": _START_PLAYER, "B": _START_PLAYER},
)


def _locked_cells(pos: Position) -> list[Cell]:
    return [c for c in board.CELLS if pos.locked[c]] if True in pos.locked else []


def _lock_users(pos: Position) -> list[str]:
    return [who for who in PLAYERS if pos.player(who).echo_lock_used]


_Bad = Callable[..., None]
"""Records one broken condition: ``bad(rule, message, cells=())``."""


def _problems(pos: Position) -> list[Problem]:
    out: list[Problem] = []

    def bad(rule: str, message: str, cells: Iterable[Cell] = ()) -> None:
        out.append(Problem(rule, message, tuple(board.names(cells))))

    for condition in _CONDITIONS:
        condition(pos, bad)
    return out


def _range(pos: Position, bad: _Bad) -> None:
    """``position.range``."""
    limits = (("reserve", 0, 7), ("charges", 0, 3), ("lowers_left", 0, 6), ("captures", 0, None), ("raises", 0, None))
    for who in PLAYERS:
        ps = pos.player(who)
        if (
            0 <= ps.reserve <= 7
            and 0 <= ps.charges <= 3
            and 0 <= ps.lowers_left <= 6
            and ps.captures >= 0
            and ps.raises >= 0
        ):
            continue  # the common case, without the per-field loop below
        for fname, lo, hi in limits:
            v = getattr(ps, fname)
            if v < lo or (hi is not None and v > hi):
                allowed = f"{lo}–{hi}" if hi is not None else f"{lo} or more"
                bad("position.range", f"{who}'s {fname} is {v}; it must be {allowed}.")
    if not 0 <= pos.half_moves <= MAX_HALF_MOVES:
        bad("position.range", f"half_moves is {pos.half_moves}; it must be 0–{MAX_HALF_MOVES}.")


def _stone_count(pos: Position, bad: _Bad) -> None:
    """``position.stone-count``."""
    for who in PLAYERS:
        on_board = pos.stones.count(who)
        reserve = pos.player(who).reserve
        if on_board + reserve != STONES_PER_PLAYER:
            bad(
                "position.stone-count",
                f"{who} has {plural(on_board, 'stone')} on the board and {reserve} in reserve, "
                f"{on_board + reserve} in all; stones on the board + reserve must be 7.",
            )


def _tier(pos: Position, bad: _Bad) -> None:
    """``position.tier``."""
    wrong = [] if set(pos.tiers) <= {0, 1, 2} else [c for c in board.CELLS if pos.tiers[c] not in (0, 1, 2)]
    for c in wrong:
        bad("position.tier", f"{board.name(c)} has tier {pos.tiers[c]}; a tier is 0, 1 or 2.", [c])


def _lock_tier(pos: Position, bad: _Bad) -> None:
    """``position.lock-tier``."""
    for c in _locked_cells(pos):
        if pos.tiers[c] != 2:
            bad(
                "position.lock-tier",
                f"{board.name(c)} is locked but has tier {pos.tiers[c]}; only a tier-2 cell can be locked.",
                [c],
            )


def _lock_count(pos: Position, bad: _Bad) -> None:
    """``position.lock-count``."""
    locked, users = _locked_cells(pos), _lock_users(pos)
    if len(locked) != len(users):
        used = " and ".join(users) if users else "no player"
        bad(
            "position.lock-count",
            f"{len(locked)} cell{'s are' if len(locked) != 1 else ' is'} locked but {used} "
            f"{'has' if len(users) == 1 else 'have'} used the Echo-Lock; each Echo-Lock locks exactly one cell.",
            locked,
        )


def _lock_charges(pos: Position, bad: _Bad) -> None:
    """``position.lock-charges``."""
    for who in _lock_users(pos):
        ch = pos.player(who).charges
        if ch > 2:
            bad(
                "position.lock-charges",
                f"{who} has used the Echo-Lock but still has {ch} charges; an Echo-Lock spends one, so at most 2 remain.",
            )


def _unplaced(pos: Position, bad: _Bad) -> None:
    """``position.unplaced``."""
    for who in PLAYERS:
        ps = pos.player(who)
        if not ps.placed:
            wrong_fields = []
            on_board = pos.stones.count(who)
            if on_board:
                wrong_fields.append(f"{plural(on_board, 'stone')} on the board")
            for fname, want in (("reserve", 7), ("charges", 3), ("lowers_left", 6), ("raises", 0), ("captures", 0)):
                if getattr(ps, fname) != want:
                    wrong_fields.append(f"{fname} {getattr(ps, fname)} (expected {want})")
            if ps.cooldown:
                wrong_fields.append("a non-empty cooldown")
            if ps.echo_lock_used:
                wrong_fields.append("the Echo-Lock used")
            if wrong_fields:
                bad(
                    "position.unplaced",
                    f"{who} has not made a first Place yet but has " + ", ".join(wrong_fields) + ".",
                    pos.stones_of(who) + sorted(ps.cooldown),
                )
        elif pos.turns_had(who) == 0:
            bad(
                "position.unplaced",
                f"{who} has not had a turn yet (half_moves {pos.half_moves}) but has made a first Place.",
            )


def _cooldown(pos: Position, bad: _Bad) -> None:
    """``position.cooldown``."""
    for who in PLAYERS:
        ps = pos.player(who)
        if ps.cooldown:
            if who != pos.to_move:
                bad(
                    "position.cooldown",
                    f"{who} has a capture cooldown ({', '.join(board.names(ps.cooldown))}) but is not "
                    f"the player to move; only the player to move may have one.",
                    ps.cooldown,
                )
            elif ps.reserve < 1:
                bad(
                    "position.cooldown",
                    f"{who} has a capture cooldown ({', '.join(board.names(ps.cooldown))}) but no stone "
                    f"in reserve; a captured stone returns to the reserve.",
                    ps.cooldown,
                )


def _to_move(pos: Position, bad: _Bad) -> None:
    """``position.to-move``."""
    expected = "A" if pos.half_moves % 2 == 0 else "B"
    if pos.to_move != expected:
        bad("position.to-move", f"half_moves is {pos.half_moves}, so {expected} is to move, not {pos.to_move}.")


def _shape_count(pos: Position, bad: _Bad) -> None:
    """``position.shape-count``."""
    for who in PLAYERS:
        ps = pos.player(who)
        shapes = ps.raises + ps.lowers_used
        had = pos.turns_had(who)
        if shapes > had:
            bad(
                "position.shape-count",
                f"{who} has made {ps.raises} raises and {ps.lowers_used} lowers, {shapes} Shapes, "
                f"in {plural(had, 'turn')}; a turn has at most one Shape.",
            )


def _tier_sum(pos: Position, bad: _Bad) -> None:
    """``position.tier-sum``."""
    total = sum(pos.tiers)
    a, b = pos.player("A"), pos.player("B")
    want = a.raises + b.raises - a.lowers_used - b.lowers_used
    if total != want:
        bad(
            "position.tier-sum",
            f"the tiers add up to {total}, but the raises ({a.raises} + {b.raises}) minus the lowers "
            f"used ({a.lowers_used} + {b.lowers_used}) give {want}; only a Shape changes a tier.",
        )


# Every condition of D-3, in the order D-3 lists them (and the catalogue).
_CONDITIONS = (
    _range,
    _stone_count,
    _tier,
    _lock_tier,
    _lock_count,
    _lock_charges,
    _unplaced,
    _cooldown,
    _to_move,
    _shape_count,
    _tier_sum,
)
