"""Turns as small immutable values (RULES §3, §11).

A :class:`Turn` is a Project (:class:`Place`, :class:`Move` or :class:`Skip`), then an optional :class:`Shape`, then an
optional :class:`Echo`.  Every part compares and hashes by value, and parts of different kinds never compare equal:

>>> from checker import board
>>> from checker.turn import Turn, Place, Shape
>>> t = Turn(Place(board.C3), Shape("raise", board.D4))
>>> t == Turn(Place(board.C3), Shape("raise", board.D4), None)
True
>>> t.landing == board.C3
True

Shape and Echo kinds are closed sets, :class:`ShapeKind` and :class:`EchoKind`; a plain string is stored as the member:

>>> t.shape.kind is ShapeKind.RAISE, t.shape.kind == "raise"
(True, True)

Write and read turns as text with :mod:`checker.notation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from checker.board import CELLS, Cell

__all__ = ["Place", "Move", "Skip", "Project", "ShapeKind", "Shape", "EchoKind", "Echo", "Turn", "RAISE", "LOWER"]
__all__ += ["CAPTURE", "LOCK"]


class ShapeKind(StrEnum):
    """The two Shapes.  A ``StrEnum``: equal to, and written as, its string."""

    RAISE = "raise"
    LOWER = "lower"


class EchoKind(StrEnum):
    """The two Echoes: Echo-Capture and Echo-Lock."""

    CAPTURE = "capture"
    LOCK = "lock"


RAISE, LOWER = ShapeKind.RAISE, ShapeKind.LOWER
CAPTURE, LOCK = EchoKind.CAPTURE, EchoKind.LOCK


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


Project = Place | Move | Skip


@dataclass(frozen=True, slots=True)
class Shape:
    """Step 2: ``kind`` is a :class:`ShapeKind` (``'raise'`` or ``'lower'``)."""

    kind: ShapeKind
    cell: Cell

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", ShapeKind(self.kind))


@dataclass(frozen=True, slots=True)
class Echo:
    """Step 3: ``kind`` is an :class:`EchoKind` (``'capture'``: Echo-Capture, ``'lock'``: Echo-Lock)."""

    kind: EchoKind
    cell: Cell

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", EchoKind(self.kind))


# Interned parts: every possible Place, Shape and Echo, made once.  The parser (checker.notation) and the generator
# (checker.generate) hand out these very objects, so comparing a parsed turn with generated ones mostly meets the same
# object (schemas/writers.py also looks their JSON up by identity).
PLACES = tuple(Place(c) for c in CELLS)
RAISES = tuple(Shape(RAISE, c) for c in CELLS)
LOWERS = tuple(Shape(LOWER, c) for c in CELLS)
CAPTURES = tuple(Echo(CAPTURE, c) for c in CELLS)
LOCKS = tuple(Echo(LOCK, c) for c in CELLS)


class Turn(NamedTuple):
    """A whole turn.  ``shape`` and ``echo`` are ``None`` when left out."""

    project: Project
    shape: Shape | None = None
    echo: Echo | None = None

    @property
    def landing(self) -> Cell | None:
        """The landing cell: the placed stone's cell or the Move's to-cell; ``None`` on a skip."""
        p = self.project
        return p.cell if isinstance(p, Place) else p.dst if isinstance(p, Move) else None
