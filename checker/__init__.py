"""The Hexodic rules engine: says whether a turn is legal, and why.

Pure Python, no web framework.  One module per concept:

- :mod:`checker.board`     cells, names, neighbours, steps, edge slots
- :mod:`checker.position`  positions, player states, consistency (D-3)
- :mod:`checker.turn`      Place, Move, Skip, Shape, Echo, Turn
- :mod:`checker.notation`  HPN and HTN, parse and emit
- :mod:`checker.catalogue` rule ids, step labels, titles, texts, links, D-n
- :mod:`checker.legality`  ``check``: one predicate per rule id, the verdict
- :mod:`checker.play`      applying a legal turn, capture checks, end of game
- :mod:`checker.generate`  every legal turn of a position
- :mod:`checker.counting`  perft: legal turn sequences counted (``checker.perft``)
- :mod:`checker.engine`    the engine protocol spoken by the checker
- :mod:`checker.conform`   the driver that tests another engine with it
"""

RULES_VERSION = "2026-09-15"


def __getattr__(name: str):
    """``checker.perft``, imported on first use: the submodules import this
    package (for RULES_VERSION), so importing them here would make a cycle
    in which a submodule can see the package half made."""
    if name == "perft":
        from .counting import perft
        return perft
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
