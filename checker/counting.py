"""Perft: how many legal turn sequences of a given length a position has.

Engine authors prove a move generator the way chess programmers do: count the legal turn sequences of each length from a
few positions and compare the counts with a trusted engine's; where they differ, *divide* (the count below each first
turn) and descend to the position whose legal turns differ.

>>> from checker import perft
>>> from checker.position import Position
>>> perft(Position.start(), 1)  # 36 Places (not d4), each with a raise within 2 steps
480
>>> [(turn_to_htn(t), n) for t, n in perft(Position.start(), 2, divide=True)[:2]]
[('a1 +a1', 479), ('a1 +a2', 482)]

What is counted (docs/perft.md):

- ``perft(position, 0)`` is 1 (the empty sequence);
- a position where the game is over has no further turns, so every count from it at depth 1 or more is 0, and a turn
  that ends the game ends its sequence (:func:`checker.generate.legal_turns` is empty there);
- no history is carried: repetition and threefold never end a sequence (a position's turns do not depend on how it was
  reached);
- turns are those of :func:`checker.generate.legal_turns`, one per distinct turn, each applied by
  :func:`checker.play.after` (:func:`checker.play.apply`'s one way, without the events and the end of the game); the
  last ply is counted in bulk by :func:`checker.generate.count_turns` (the legal-turn list's own branches, counted).

The published table of counts is ``checker/data/perft.json`` (and docs/perft.md, made from it:
:mod:`checker.tools.perft_table`, ``make perft``).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from typing import Literal, NamedTuple, overload

from checker.generate import count_turns, legal_turns
from checker.notation import position_to_hpn, turn_to_htn  # noqa: F401 (turn_to_htn: the doctest)
from checker.play import after
from checker.position import Position
from checker.turn import Turn

Pause = Callable[[], None] | None  # called every Budget.PAUSE_EVERY expansions (a server's other requests run)

__all__ = ["perft", "PerftCount", "perft_count", "expansions", "BUDGET", "count_turns", "after"]
__all__ += ["BudgetExceeded", "Budget"]


class BudgetExceeded(Exception):
    """The count needs more positions expanded than its budget allows."""

    def __init__(self, budget: int, estimate: float | None = None):
        about = "" if estimate is None else f" (about {estimate:,.0f} by estimate)"
        super().__init__(f"more than {budget} positions would have to be expanded{about}")
        self.budget, self.estimate = budget, estimate


class Budget:
    """A limit on the work of one count: the number of positions *expanded* (whose legal turns are listed or counted).
    A count to depth ``d`` expands every position at ply 0 … d-1: perft(0) + … + perft(d - 1)."""

    __slots__ = ("limit", "spent", "pause")

    PAUSE_EVERY = 64
    """Expansions between two calls of ``pause`` (a few milliseconds of work)."""

    def __init__(self, limit: int | None, pause: Pause = None):
        self.limit, self.spent, self.pause = limit, 0, pause

    def spend(self) -> None:
        self.spent += 1
        if self.limit is not None and self.spent > self.limit:
            raise BudgetExceeded(self.limit)
        if self.pause is not None and self.spent % self.PAUSE_EVERY == 0:
            self.pause()


@overload
def perft(
    position: Position, depth: int, divide: Literal[False] = ..., budget: int | None = ..., pause: Pause = ...
) -> int: ...
@overload  # noqa: E302
def perft(
    position: Position, depth: int, divide: Literal[True], budget: int | None = ..., pause: Pause = ...
) -> list[tuple[Turn, int]]: ...


def perft(
    position: Position, depth: int, divide: bool = False, budget: int | None = None, pause: Pause = None
) -> int | list[tuple[Turn, int]]:
    """The number of legal turn sequences of length ``depth`` from ``position`` (assumed consistent, D-3);
    with ``divide``, for each legal turn (in the order of :func:`~checker.generate.legal_turns`) the count
    of its subtree, as ``(turn, nodes)`` pairs whose counts add up to the whole.

    ``budget`` limits the positions expanded (:class:`Budget`, calling ``pause`` as the count goes); over
    it, :class:`BudgetExceeded`, on the estimate alone when far over (:func:`estimate_expansions`,
    :data:`FAR_OVER`), else as soon as a shallower count (:func:`expansions`) or the count passes it."""
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
"""A count is refused on its estimate alone when the estimate passes this many times the budget; nearer the budget it is
counted (and stopped at the budget), so a count that needs exactly its budget is answered."""

ESTIMATE_WALKS = 16
"""Random descents of an estimate: a few milliseconds of work."""


def estimate_expansions(position: Position, depth: int, walks: int = ESTIMATE_WALKS) -> float:
    """Knuth's estimate of the positions a count to ``depth`` expands: each of ``walks`` random descents multiplies the
    branching factors it meets, and the level's size is the mean of those products.  Exact for depth 1 and 2.  The
    descents are seeded from the position and the depth, so the same request gets the same estimate in every process
    (Python's ``hash`` of text is not: it is salted per process).

    >>> estimate_expansions(Position.start(), 2)
    481.0
    """
    if depth < 2:
        return 1.0 if depth == 1 else 0.0
    root = legal_turns(position)  # the same for every walk: listed once
    total = 1.0 + len(root)  # levels 0 and 1, exact
    if depth == 2 or not root:
        return total
    rng = random.Random(zlib.crc32(f"{position_to_hpn(position)} {depth}".encode()))
    deeper = 0.0  # levels 2 … depth-1, summed over the walks
    for _ in range(walks):
        pos, weight = after(position, rng.choice(root)), float(len(root))
        for _ in range(depth - 3):  # levels 2 … depth-2: listed, and one turn of them taken
            if not (turns := legal_turns(pos)):
                break
            weight *= len(turns)
            deeper += weight
            pos = after(pos, rng.choice(turns))
        else:  # the deepest level needs only the count
            deeper += weight * count_turns(pos)
    return total + deeper / walks


def expansions(position: Position, depth: int, budget: int | None = None, pause: Pause = None) -> int:
    """How many positions a count to ``depth`` expands, each level counted with the budget; :class:`BudgetExceeded` as
    soon as the sum passes it.  The counts cost about a branching factor less than the count itself, so a count over the
    budget is refused after a fraction of its work."""
    total = 0
    for k in range(depth):
        total += perft(position, k, budget=budget, pause=pause)
        if budget is not None and total > budget:
            raise BudgetExceeded(budget)
    return total


BUDGET = 50_000
"""The work budget of ``POST /v1/perft``: positions expanded.  Depth 2 expands 1 + perft(1) positions, and perft(1) is
at most 42 × 39 × 15 = 24,570 (at most 42 Projects: 36 Places, or 7 stones × 6 Moves; at most 39 Shape choices: a raise
and a lower of each of the 19 cells within 2 steps, or none; at most 15 Echo choices: none, or one of 7 enemy or 7 own
stones), so depth 2 from any position fits."""


class PerftCount(NamedTuple):
    """A count with what it counts: ``divide`` holds ``(turn, nodes)`` pairs, or is ``None`` when not asked for."""

    position: Position
    depth: int
    nodes: int
    divide: tuple[tuple[Turn, int], ...] | None = None


def perft_count(
    position: Position, depth: int, divide: bool = False, budget: int | None = None, pause: Pause = None
) -> PerftCount:
    """:func:`perft` as a :class:`PerftCount` (what ``hexodic-check perft`` and ``POST /v1/perft`` answer)."""
    if not divide:
        return PerftCount(position, depth, perft(position, depth, budget=budget, pause=pause))
    pairs = tuple(perft(position, depth, True, budget, pause))
    return PerftCount(position, depth, sum(n for _, n in pairs) if depth else 1, pairs)


def _nodes(pos: Position, depth: int, spend: Budget) -> int:
    if depth == 0:
        return 1
    spend.spend()
    if depth == 1:
        return count_turns(pos)
    return sum(_nodes(after(pos, t), depth - 1, spend) for t in legal_turns(pos))
