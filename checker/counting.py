"""Perft: how many legal turn sequences of a given length a position has.

Engine authors prove a move generator the way chess programmers do: count
the legal turn sequences of each length from a few positions and compare the
counts with a trusted engine's; where they differ, *divide* (the count below
each first turn) and descend to the position whose legal turns differ.

>>> from checker import perft
>>> from checker.position import Position
>>> perft(Position.start(), 1)  # 36 Places (not d4), each with a raise within 2 steps
480
>>> [(turn_to_htn(t), n) for t, n in perft(Position.start(), 2, divide=True)[:2]]
[('a1 +a1', 479), ('a1 +a2', 482)]

What is counted (docs/perft.md):

- ``perft(position, 0)`` is 1 (the empty sequence);
- a position where the game is over has no further turns, so every count
  from it at depth 1 or more is 0, and a turn that ends the game ends its
  sequence (:func:`checker.generate.legal_turns` is empty there);
- no history is carried: repetition and threefold never end a sequence (a
  position's turns do not depend on how it was reached);
- turns are those of :func:`checker.generate.legal_turns`, one per distinct
  turn, and the last ply is counted in bulk.

The last ply is counted by :func:`checker.generate.count_turns` (the
legal-turn list's own branches, counted), and each turn is applied by
:func:`checker.play.after` (:func:`checker.play.apply`'s one way, without
the events and the end of the game).  The published table of counts is
``checker/data/perft.json`` (and docs/perft.md, made from it); rebuild both
with ``make perft`` (``python -m checker.counting build``).
"""

from __future__ import annotations

import json
import random
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from operator import itemgetter
from pathlib import Path
from typing import Literal, NamedTuple, overload

from checker import board
from checker.board import WITHIN_2
from checker.generate import count_turns, legal_turns
from checker.notation import parse_hpn, position_to_hpn, turn_to_htn  # noqa: F401 (turn_to_htn: the doctest)
from checker.play import after
from checker.position import Position
from checker.turn import Turn
from checker.version import RULES_VERSION

__all__ = [
    "perft",
    "PerftCount",
    "perft_count",
    "expansions",
    "BUDGET",
    "count_turns",
    "after",
    "BudgetExceeded",
    "Budget",
    "TableEntry",
    "load_table",
    "build_table",
    "table_markdown",
    "main",
]


# ------------------------------------------------------------ the budget ---


class BudgetExceeded(Exception):
    """The count needs more positions expanded than its budget allows."""

    def __init__(self, budget: int, estimate: float | None = None):
        about = "" if estimate is None else f" (about {estimate:,.0f} by estimate)"
        super().__init__(f"more than {budget} positions would have to be expanded{about}")
        self.budget = budget
        self.estimate = estimate


class Budget:
    """A limit on the work of one count: the number of positions *expanded*
    (whose legal turns are listed or counted).  A count to depth ``d``
    expands every position at ply 0 … d-1, so depth 1 expands one position
    and depth 2 one plus the root's legal-turn count."""

    __slots__ = ("limit", "spent", "pause")

    PAUSE_EVERY = 64
    """Expansions between two calls of ``pause`` (a few milliseconds of work)."""

    def __init__(self, limit: int | None, pause: Callable[[], None] | None = None):
        self.limit = limit
        self.spent = 0
        self.pause = pause

    def spend(self) -> None:
        self.spent += 1
        if self.limit is not None and self.spent > self.limit:
            raise BudgetExceeded(self.limit)
        if self.pause is not None and self.spent % self.PAUSE_EVERY == 0:
            self.pause()


# ------------------------------------------------------------------ perft ---


@overload
def perft(
    position: Position,
    depth: int,
    divide: Literal[False] = False,
    budget: int | None = None,
    pause: Callable[[], None] | None = None,
) -> int: ...
@overload  # noqa: E302
def perft(
    position: Position,
    depth: int,
    divide: Literal[True],
    budget: int | None = None,
    pause: Callable[[], None] | None = None,
) -> list[tuple[Turn, int]]: ...


def perft(
    position: Position,
    depth: int,
    divide: bool = False,
    budget: int | None = None,
    pause: Callable[[], None] | None = None,
) -> int | list[tuple[Turn, int]]:
    """The number of legal turn sequences of length ``depth`` from
    ``position``; with ``divide``, for each legal turn (in the order of
    :func:`~checker.generate.legal_turns`) the count of its subtree, as
    ``(turn, nodes)`` pairs whose counts add up to the whole.

    ``budget`` limits the positions expanded (see :class:`Budget`); over it,
    :class:`BudgetExceeded`, raised before the work when a shallower count
    shows it (see :func:`expansions`).  The position is assumed consistent
    (D-3).  With a ``budget``, a count whose estimate (:func:`estimate_expansions`)
    is more than :data:`FAR_OVER` times the budget is refused at once, before
    any counting.  ``pause`` is called every :attr:`Budget.PAUSE_EVERY`
    expansions (a server lets its other requests run there)."""
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise ValueError(f"depth must be an integer 0 or more, not {depth!r}")
    if budget is not None and depth >= 3:
        estimate = estimate_expansions(position, depth)
        if estimate > FAR_OVER * budget:
            raise BudgetExceeded(budget, estimate)
        expansions(position, depth, budget, pause)
    spend = Budget(budget, pause)
    if not divide:
        return _nodes(position, depth, spend)
    if depth == 0:
        return []
    spend.spend()
    return [(t, _nodes(after(position, t), depth - 1, spend)) for t in legal_turns(position)]


FAR_OVER = 4
"""A count is refused on its estimate alone when the estimate passes this many
times the budget; nearer the budget it is counted (and stopped at the budget),
so a count that needs exactly its budget is answered."""

ESTIMATE_WALKS = 16
"""Random descents of an estimate: a few milliseconds of work."""


def estimate_expansions(position: Position, depth: int, walks: int = ESTIMATE_WALKS) -> float:
    """Knuth's estimate of the positions a count to ``depth`` expands
    (perft(0) + … + perft(depth - 1)): each of ``walks`` random descents
    multiplies the branching factors it meets, and the level's size is the mean
    of those products.  Exact for depth 1 and 2.  The descents are seeded from
    the position and the depth, so the same request gets the same estimate in
    every process (Python's ``hash`` of text is not: it is salted per process).

    >>> from checker.notation import START_HPN
    >>> estimate_expansions(parse_hpn(START_HPN), 2)
    481.0
    """
    if depth <= 0:
        return 0.0
    seed = zlib.crc32(f"{position_to_hpn(position)} {depth}".encode())
    rng = random.Random(seed)
    if depth == 1:
        return 1.0
    root = legal_turns(position)  # the same for every walk: listed once
    total = 1.0 + len(root)  # levels 0 and 1, exact
    if depth == 2 or not root:
        return total
    deeper = 0.0  # levels 2 … depth-1, summed over the walks
    for _ in range(walks):
        pos, weight = after(position, rng.choice(root)), float(len(root))
        for k in range(2, depth):
            if k + 1 < depth:
                turns = legal_turns(pos)
                n = len(turns)
            else:  # the deepest level needs only the count
                n = count_turns(pos)
            if not n:
                break
            weight *= n
            deeper += weight
            if k + 1 < depth:
                pos = after(pos, rng.choice(turns))
    return total + deeper / walks


def expansions(
    position: Position, depth: int, budget: int | None = None, pause: Callable[[], None] | None = None
) -> int:
    """How many positions a count to ``depth`` expands: perft(0) + … +
    perft(depth - 1), each counted with the budget; :class:`BudgetExceeded`
    as soon as the sum passes it.  The counts cost about a branching factor
    less than the count itself, so a count over the budget is refused after
    a fraction of its work."""
    total = 0
    for k in range(depth):
        total += perft(position, k, budget=budget, pause=pause)
        if budget is not None and total > budget:
            raise BudgetExceeded(budget)
    return total


BUDGET = 50_000
"""The work budget of ``POST /v1/perft``: positions expanded.  Depth 2
expands 1 + perft(1) positions, and perft(1) is at most 42 × 39 × 15 =
24,570 (at most 42 Projects: 36 Places, or 7 stones × 6 Moves; at most 39
Shape choices: a raise and a lower of each of the 19 cells within 2 steps,
or none; at most 15 Echo choices: none, or one of 7 enemy or 7 own stones),
so depth 2 from any position fits."""


class PerftCount(NamedTuple):
    """A count with what it counts: ``divide`` holds ``(turn, nodes)`` pairs,
    or is ``None`` when not asked for."""

    position: Position
    depth: int
    nodes: int
    divide: tuple[tuple[Turn, int], ...] | None = None


def perft_count(
    position: Position,
    depth: int,
    divide: bool = False,
    budget: int | None = None,
    pause: Callable[[], None] | None = None,
) -> PerftCount:
    """:func:`perft` as a :class:`PerftCount` (what ``hexodic-check perft``
    and ``POST /v1/perft`` answer)."""
    if not divide or depth == 0:
        return PerftCount(position, depth, perft(position, depth, budget=budget, pause=pause), () if divide else None)
    pairs = tuple(perft(position, depth, divide=True, budget=budget, pause=pause))
    return PerftCount(position, depth, sum(n for _, n in pairs), pairs)


def _nodes(pos: Position, depth: int, spend: Budget) -> int:
    if depth == 0:
        return 1
    spend.spend()
    if depth == 1:
        return count_turns(pos)
    return sum(_nodes(after(pos, t), depth - 1, spend) for t in legal_turns(pos))


# ------------------------------------------------------- the fast paths ---

_NEAR = tuple(itemgetter(*WITHIN_2[c]) for c in board.CELLS)  # a board list -> its values within 2 steps
WITHIN_2_SETS = tuple(frozenset(WITHIN_2[c]) for c in board.CELLS)


# ------------------------------------------------------------- the table ---

TABLE = "perft.json"
FORMAT = "hexodic-perft"
VERSION = 1
DOC = Path("docs") / "perft.md"


@dataclass(frozen=True, slots=True)
class TableEntry:
    """One position of the published table: ``nodes[d - 1]`` is perft(d)."""

    name: str
    description: str
    hpn: str
    nodes: tuple[int, ...]

    @property
    def position(self) -> Position:
        return parse_hpn(self.hpn)


# The positions of the table and how deep each is counted.  Where each comes from is in its description; a
# "uniform random game N" is played from the start with random.Random(N), each turn rng.choice(legal_turns(pos)).
TABLE_POSITIONS: tuple[tuple[str, str, str, int], ...] = (
    (
        "start",
        "The start position: empty tier-0 board, A to move, both reserves full.",
        "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0",
        3,
    ),
    (
        "early",
        "Early game (bench/run.py `early`): seeded random game 0 after 6 half-moves; three stones "
        "each, six tier-1 cells, A to move with 4 in reserve.",
        "100B0/00100/000A00B0/00100A00/100010/01A000/000B0 A 4:3:6:0:3:P:- 4:3:6:0:3:P:- 6",
        2,
    ),
    (
        "crowded",
        "Crowded midgame (bench/run.py `crowded`): seeded random game 4 after 22 half-moves; all 14 "
        "stones on the board, both reserves empty (Moves only), stones on every tier, a2 Echo-Locked "
        "by B.",
        "0B2*0B0A/02A111A/1001B00/2A001101/0A0B01A11/0200B0B/00A01B A 0:3:6:1:11:P:- 0:2:5:0:10:PL:- 22",
        2,
    ),
    (
        "placing",
        "Placing midgame (bench/run.py `placing`): B to move at half-move 13 with one stone in "
        "reserve, the most legal turns a search found (24 cells to Place on, many Shapes, up to 7 "
        "Echoes each).",
        "0000B/00002B/011000/00102B0B0A/0002B1A1A/000A1A0B/000A1A B 0:3:6:0:7:P:- 1:3:6:0:6:P:- 13",
        2,
    ),
    (
        "endgame",
        "Endgame of Moves (bench/run.py `endgame`): seeded random game 0 after 49 half-moves; both "
        "reserves empty, both lowering budgets spent, f4 Echo-Locked by A.",
        "2100/001B01B/00A21A00/00A01B210/21A1B0B2B0/0A2A*110/101A1B B 0:2:0:0:19:PL:- 0:3:0:4:18:P:- 49",
        2,
    ),
    (
        "cooldown-skip",
        "The cooldown skip (RULES §4, D-4), built by hand: A to move with 5 stones in reserve "
        "and a capture cooldown on b2, b4, d2, d6 and f5; every empty cell is within 1 step of "
        "one of them, so A's Project and Shape are skipped. A may still Echo: skip, skip *g7 "
        "(B's sealed tier-1 stone beside A's f6) or skip #d4 (A's tier-2 stone).",
        "0000/00B000/000000/0002A000/00B0000/0B000A0B/0B00B1B A 5:3:6:0:2:P:b2,b4,d2,d6,f5 0:3:6:5:1:P:- 20",
        2,
    ),
    (
        "locks",
        "Locks and spent Echo charges: uniform random game 33 after 34 half-moves; both players have "
        "used their Echo-Lock (b3 and d7 are locked), B has no charge left, A has a capture cooldown "
        "on g7.",
        "0100A/002A*00/00A00B0B2/02110B02*/00B0210A/00B00A0B/11B0A2 A 1:2:3:2:14:PL:g7 0:0:1:3:12:PL:- 34",
        2,
    ),
    (
        "takeover-threat",
        "One capture from a Takeover: uniform random game 3 after 53 half-moves; B "
        "has captured 5 stones, and the turns that capture a sixth end the game, so nothing "
        "follows them at depth 2.",
        "0A1A0A0/11A1B11/112B0A22/00A0B2B20B1A/00012*1B/212*00/010B0 B 0:2:0:0:21:PL:- 0:2:0:5:20:PL:- 53",
        2,
    ),
    (
        "last-half-move",
        "Half-move 59 of 60: seeded random game 0 (bench/find_positions.py) before its last "
        "turn; every turn reaches the half-move cap and ends the game, so perft(2) is 0.",
        "2110/101B01B/0A1A211A0/010B121B0/2A21A12B*1/02*21B1/10A1A1B B 0:2:0:1:24:PL:- 0:2:0:4:23:PL:- 59",
        2,
    ),
    (
        "game-over",
        "The game is over: uniform random game 30 after 53 half-moves, just ended by A's Network "
        "(five of A's stones on tier-2 cells form one group: a3, b2, b3, b4, c4); no legal turn.",
        "012A0/1B2A2A*2A0/0B102A11A/200220A0/0B01B010/1B2*1B00/2B000 B 0:2:0:0:21:PL:- 0:2:0:5:20:PL:- 53",
        2,
    ),
)


def load_table() -> list[TableEntry]:
    """The published table, from the package data."""
    data = json.loads(resources.files("checker.data").joinpath(TABLE).read_text(encoding="utf-8"))
    return [TableEntry(e["name"], e["description"], e["position"], tuple(e["nodes"])) for e in data["positions"]]


def build_table() -> list[TableEntry]:
    """The table counted afresh from :data:`TABLE_POSITIONS`."""
    out = []
    for name, description, hpn, depth in TABLE_POSITIONS:
        pos = parse_hpn(hpn)
        assert pos.problems() == [], (name, pos.problems())
        out.append(
            TableEntry(name, description, position_to_hpn(pos), tuple(perft(pos, d) for d in range(1, depth + 1)))
        )
    return out


def table_json(entries: list[TableEntry]) -> str:
    data = {
        "format": FORMAT,
        "version": VERSION,
        "rules_version": RULES_VERSION,
        "positions": [
            {"name": e.name, "description": e.description, "position": e.hpn, "nodes": list(e.nodes)} for e in entries
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def table_markdown(entries: list[TableEntry]) -> str:
    """docs/perft.md, made from the table."""
    deepest = max(len(e.nodes) for e in entries)
    head = "| position | " + " | ".join(f"depth {d}" for d in range(1, deepest + 1)) + " |"
    rule = "| --- | " + " | ".join("---:" for _ in range(deepest)) + " |"
    rows = [
        f"| `{e.name}` | " + " | ".join(f"{e.nodes[d]:,}" if d < len(e.nodes) else "" for d in range(deepest)) + " |"
        for e in entries
    ]
    positions = []
    for e in entries:
        positions += [f"### `{e.name}`", "", e.description, "", "```", e.hpn, "```", ""]
    return "\n".join(PREAMBLE + [head, rule] + rows + ["", "## The positions", ""] + positions)


PREAMBLE = [
    "# Perft: counts of legal turn sequences",
    "",
    "<!-- Generated by `make perft` from checker/data/perft.json; do not edit. -->",
    "",
    "perft(*d*) of a position is the number of legal turn sequences of length *d* from it, the way chess",
    "programmers prove a move generator. An engine whose counts agree with this table at every depth",
    "generates the same turns as the checker; where a count differs, `hexodic-check conform` (README,",
    '"Testing your engine in CI") descends to the position whose legal turns differ.',
    "",
    "What is counted:",
    "",
    "- perft(0) is 1: the empty sequence.",
    "- A position where the game is over (Takeover, Network, Strangle, the half-move cap) has no legal",
    "  turn, so a turn that ends the game ends its sequence.",
    "- No history is carried: a repetition or a threefold never ends a sequence (without a history",
    "  they cannot be judged; a position's legal turns never depend on it).",
    "- Each distinct legal turn counts once (the turns of `POST /v1/legal-turns`).",
    "",
    "Check them yourself: `hexodic-check perft POSITION --depth 2 [--divide]`, or",
    '`POST /v1/perft {"position": ..., "depth": 2, "divide": true}`.',
    "",
    "## The table",
    "",
]


def doc_path(root: Path | None = None) -> Path:
    """docs/perft.md of the checkout this module runs from."""
    return (root or Path(__file__).resolve().parents[1]) / DOC


def main(argv: list[str] | None = None) -> int:
    """``python -m checker.counting build`` recounts the table and rewrites
    checker/data/perft.json and docs/perft.md."""
    args = sys.argv[1:] if argv is None else argv
    if args != ["build"]:
        print("usage: python -m checker.counting build", file=sys.stderr)
        return 2
    entries = build_table()
    target = resources.files("checker.data").joinpath(TABLE)
    with resources.as_file(target) as path:
        path.write_text(table_json(entries), encoding="utf-8")
    doc_path().write_text(table_markdown(entries), encoding="utf-8")
    for e in entries:
        print(e.name, *e.nodes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
