"""The Hexodic rules engine: says whether a turn is legal, and why.

Pure Python, no web framework (but :mod:`checker.web`).  One module per concept:

- :mod:`checker.board`      cells, names, neighbours, steps, edge slots
- :mod:`checker.position`   positions, player states, consistency (D-3)
- :mod:`checker.turn`       Place, Move, Skip, Shape, Echo, Turn
- :mod:`checker.notation`   HPN and HTN, parse and emit
- :mod:`checker.catalogue`  rule ids, capture kinds, end-of-game reasons, D-n: full texts, links
- :mod:`checker.reference`  the rules reference (docs/rules.md, the /rules page)
- :mod:`checker.wording`    words shared by the messages (plurals, lists)
- :mod:`checker.projects`   the legal Projects: Place cells, the cooldown skip, Moves
- :mod:`checker.ending`     how a game ended, and the words for it
- :mod:`checker.generate`   every legal turn of a position
- :mod:`checker.play`       applying a legal turn: events, capture checks
- :mod:`checker.legality`   ``check``: one predicate per rule id, the verdict; ``validate``
- :mod:`checker.replay`     a game's turns checked and applied in order
- :mod:`checker.render`     a position and a verdict drawn as SVG
- :mod:`checker.raster`     a drawing as PNG (resvg)
- :mod:`checker.counting`   perft: legal turn sequences counted (``checker.perft``)
- :mod:`checker.vectors`    the conformance vectors
- :mod:`checker.answers`    another implementation's answers to the vectors, compared
- :mod:`checker.engine`     the engine protocol spoken by the checker
- :mod:`checker.conform`    the driver that tests another engine with it
- :mod:`checker.cli`        the ``hexodic-check`` command
- :mod:`checker.serving`    what gunicorn.conf.py needs: CPUs from the cgroup quota, the metrics directory, the log
- :mod:`checker.web`        the HTTP service (Flask): the API, OpenAPI, the playground
- :mod:`checker.data`       the shipped data: conformance vectors, the perft table, JSON Schemas
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
