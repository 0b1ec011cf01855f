"""Board geometry: the 37 cells, their names, neighbours, steps and edge slots.

The board is the hexagon of side 4 (RULES §1, D-1).  A cell is named by a row letter ``a``–``g`` and a column digit
``1``–``7``; the name is valid when ``|row - column| <= 3`` with rows numbered a=1 … g=7.

Cells are plain ``int`` indices ``0``–``36`` in *board order* (a1, a2, …, g7), like squares in python-chess, so they
compare and hash for free.  Module constants name every cell:

>>> from checker import board
>>> board.D4 == board.CENTRE
True
>>> board.name(board.D4)
'd4'
>>> board.parse_cell("c3") == board.C3
True
>>> [board.name(n) for n in board.NEIGHBOURS[board.A1]]
['a2', 'b1', 'b2']
>>> board.steps(board.A1, board.G7)
6
>>> board.EDGE_SLOTS[board.A1], board.EDGE_SLOTS[board.A2], board.EDGE_SLOTS[board.D4]
(3, 2, 0)

Sets of cells are also held as 37-bit masks (plain ``int``; bit ``c`` is cell ``c``), the way python-chess packs squares
into 64-bit masks: the rules (:mod:`checker.rules`) are stated on masks, and :func:`cells` lists a mask's cells in board
order:

>>> names(cells(NEIGHBOUR_MASKS[A1]))
['a2', 'b1', 'b2']
>>> WITHIN_2_MASKS[D4].bit_count()
19

Everything here is computed once, at import.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["Cell", "CELLS", "CELL_COUNT", "NAMES", "ROWS", "CENTRE", "NEIGHBOURS", "SLOTS", "EDGE_SLOTS", "STEPS"]
__all__ += ["WITHIN_2", "ROW_CELLS", "name", "parse_cell", "is_cell_name", "steps", "names", "CellError", "BIT", "FULL"]
__all__ += ["NEIGHBOUR_MASKS", "NEAR_MASKS", "WITHIN_2_MASKS", "mask_of", "cells"]

Cell = int
"""A cell is its index in board order, 0 (a1) to 36 (g7)."""

ROWS = "abcdefg"
SIDE = 4

_COORDS: list[tuple[int, int]] = [(r, c) for r in range(1, 8) for c in range(1, 8) if abs(r - c) <= SIDE - 1]
CELL_COUNT = len(_COORDS)
CELLS: tuple[Cell, ...] = tuple(range(CELL_COUNT))
NAMES: tuple[str, ...] = tuple(f"{ROWS[r - 1]}{c}" for r, c in _COORDS)
_INDEX: dict[tuple[int, int], Cell] = {rc: i for i, rc in enumerate(_COORDS)}
_BY_NAME: dict[str, Cell] = {n: i for i, n in enumerate(NAMES)}

ROW_CELLS: tuple[tuple[Cell, ...], ...] = tuple(tuple(c for c in CELLS if NAMES[c][0] == r) for r in ROWS)
"""The cells of each row a … g, in column order."""

# The six neighbouring slots of (i, j), in the order RULES §1 lists them.
_DIRECTIONS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, 1))

SLOTS: tuple[tuple[Cell | None, ...], ...] = tuple(
    tuple(_INDEX.get((r + dr, c + dc)) for dr, dc in _DIRECTIONS) for r, c in _COORDS
)
"""For each cell, its six neighbouring slots: a cell, or ``None`` for edge."""

NEIGHBOURS: tuple[tuple[Cell, ...], ...] = tuple(tuple(sorted(s for s in slots if s is not None)) for slots in SLOTS)
"""For each cell, its neighbouring cells in board order."""

EDGE_SLOTS: tuple[int, ...] = tuple(sum(s is None for s in slots) for slots in SLOTS)
"""For each cell, how many of its six slots are edge (0, 2 or 3)."""


def _steps(a: Cell, b: Cell) -> int:  # pragma: no mutate block (run only at import: docs/testing.md)
    (r1, c1), (r2, c2) = _COORDS[a], _COORDS[b]
    di, dj = r1 - r2, c1 - c2
    return max(abs(di), abs(dj), abs(di - dj))


STEPS: tuple[tuple[int, ...], ...] = tuple(tuple(_steps(a, b) for b in CELLS) for a in CELLS)
"""``STEPS[a][b]`` is the hex distance between cells a and b."""

WITHIN_2: tuple[tuple[Cell, ...], ...] = tuple(tuple(b for b in CELLS if STEPS[a][b] <= 2) for a in CELLS)
"""For each cell, the cells at most 2 steps away (itself included), board order."""


BIT: tuple[int, ...] = tuple(1 << c for c in CELLS)
"""``BIT[c]`` is the mask of cell ``c`` alone."""

FULL = (1 << CELL_COUNT) - 1
"""The mask of every cell."""


def mask_of(cells_: Iterable[Cell]) -> int:
    """The mask of some cells."""
    m = 0
    for c in cells_:
        m |= 1 << c
    return m


NEIGHBOUR_MASKS: tuple[int, ...] = tuple(mask_of(n) for n in NEIGHBOURS)
"""For each cell, the mask of its neighbouring cells."""

NEAR_MASKS: tuple[int, ...] = tuple(mask_of(b for b in CELLS if STEPS[a][b] < 2) for a in CELLS)
"""For each cell, the mask of the cells less than 2 steps away (itself and its neighbours)."""

WITHIN_2_MASKS: tuple[int, ...] = tuple(mask_of(w) for w in WITHIN_2)
"""For each cell, the mask of the cells at most 2 steps away (itself included)."""


# The cells of each 10-bit part of a mask (part k holds cells 10k …), looked up rather than counted out bit by bit.
_CELLS_0, _CELLS_1, _CELLS_2, _CELLS_3 = (
    tuple(tuple(10 * k + i for i in range(10) if m >> i & 1) for m in range(1024)) for k in range(4)
)


def cells(mask: int) -> tuple[Cell, ...]:
    """The cells of ``mask``, in board order."""
    if mask < 1024:
        return _CELLS_0[mask]
    return _CELLS_0[mask & 1023] + _CELLS_1[mask >> 10 & 1023] + _CELLS_2[mask >> 20 & 1023] + _CELLS_3[mask >> 30]


class CellError(ValueError):
    """A text that is not the name of a cell."""


def connected(seed: int, within: int) -> int:
    """The mask of the cells of ``within`` joined to ``seed`` (a mask in it) by neighbouring cells of ``within``."""
    group = frontier = seed
    while frontier:
        near = 0
        for c in cells(frontier):
            near |= NEIGHBOUR_MASKS[c]
        frontier = near & within & ~group
        group |= frontier
    return group


def name(cell: Cell) -> str:
    """The name of a cell, e.g. ``'d4'``."""
    return NAMES[cell]


def is_cell_name(text: str) -> bool:
    """True when ``text`` names a cell (case-insensitive)."""
    return text.lower() in _BY_NAME


def parse_cell(text: str) -> Cell:
    """The cell named by ``text`` (case-insensitive); :class:`CellError` otherwise.

    >>> parse_cell("G7")
    36
    """
    try:
        return _BY_NAME[text.lower()]
    except (KeyError, AttributeError):
        raise CellError(f"{text} is not a cell") from None


def steps(a: Cell, b: Cell) -> int:
    """Hex distance between two cells (RULES §1)."""
    return STEPS[a][b]


def names(cells: Iterable[Cell]) -> list[str]:
    """Names of cells in board order."""
    return [NAMES[c] for c in sorted(cells)]


CENTRE: Cell = _BY_NAME["d4"]

# Module constants A1 … G7, like chess.A1 in python-chess.
globals().update({n.upper(): i for i, n in enumerate(NAMES)})
