"""Turns as small immutable values (RULES §3, §11).

A :class:`Turn` is a Project (:class:`Place`, :class:`Move` or :class:`Skip`),
then an optional :class:`Shape`, then an optional :class:`Echo`.  Every part
compares and hashes by value, and parts of different kinds never compare
equal:

>>> from checker import board
>>> from checker.turn import Turn, Place, Shape
>>> t = Turn(Place(board.C3), Shape("raise", board.D4))
>>> t == Turn(Place(board.C3), Shape("raise", board.D4), None)
True
>>> t.landing == board.C3
True

Write and read turns as text with :mod:`checker.notation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Union

from .board import Cell

__all__ = ["Place", "Move", "Skip", "Project", "Shape", "Echo", "Turn",
           "RAISE", "LOWER", "CAPTURE", "LOCK"]

RAISE, LOWER = "raise", "lower"
CAPTURE, LOCK = "capture", "lock"


@dataclass(frozen=True, slots=True)
class Place:
    """Step 1: put a reserve stone on ``cell``."""
    cell: Cell
    kind = "place"


@dataclass(frozen=True, slots=True)
class Move:
    """Step 1: step the stone on ``src`` to the neighbouring cell ``dst``."""
    src: Cell
    dst: Cell
    kind = "move"


@dataclass(frozen=True, slots=True)
class Skip:
    """Step 1: the cooldown skip (RULES §4, D-4): no Project and no Shape."""
    kind = "skip"


Project = Union[Place, Move, Skip]


@dataclass(frozen=True, slots=True)
class Shape:
    """Step 2: ``kind`` is ``'raise'`` or ``'lower'``."""
    kind: str
    cell: Cell


@dataclass(frozen=True, slots=True)
class Echo:
    """Step 3: ``kind`` is ``'capture'`` (Echo-Capture) or ``'lock'`` (Echo-Lock)."""
    kind: str
    cell: Cell


class Turn(NamedTuple):
    """A whole turn.  ``shape`` and ``echo`` are ``None`` when left out."""

    project: Project
    shape: Shape | None = None
    echo: Echo | None = None

    @property
    def landing(self) -> Cell | None:
        """The landing cell: the placed stone's cell or the Move's to-cell;
        ``None`` on a skip."""
        p = self.project
        if isinstance(p, Place):
            return p.cell
        if isinstance(p, Move):
            return p.dst
        return None
