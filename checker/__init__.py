"""The Hexodic rules engine ("the checker"): says whether a turn is legal, and why.

The front door::

    from checker import check, validate, legal_turns, replay, perft
    from checker import parse_hpn, parse_htn, position_to_hpn, Position

Pure Python, no web framework.  One module per concept:

- :mod:`checker.version`    the rules version and the package version, decided once
- :mod:`checker.extras`     the package's extras (server, audit, mcp) and the line when one is missing
- :mod:`checker.board`      cells, names, neighbours, steps, edge slots
- :mod:`checker.position`   positions, player states, consistency (D-3), the 60 half-move limit
- :mod:`checker.turn`       Place, Move, Skip, Shape, Echo, Turn
- :mod:`checker.notation`   HPN and HTN, parse and emit
- :mod:`checker.scoresheet` score sheets: turns as people write them down, read one way
- :mod:`checker.catalogue`  rule ids, capture kinds, end-of-game reasons, D-n: full texts, links
- :mod:`checker.reference`  the rules reference (docs/rules.md, the /rules page)
- :mod:`checker.wording`    words shared by the messages (plurals, lists)
- :mod:`checker.rules`      the rules of a turn, one function per rule id, stated on 37-bit masks
- :mod:`checker.projects`   the legal Projects: Place cells, the cooldown skip, Moves
- :mod:`checker.ending`     how a game ended, and the words for it
- :mod:`checker.generate`   every legal turn of a position: listed, counted, decided one by one
- :mod:`checker.play`       applying a legal turn: events, capture checks
- :mod:`checker.legality`   ``check``: a check per rule id and its words, the verdict; ``validate``
- :mod:`checker.replay`     a game's turns checked and applied in order
- :mod:`checker.counting`   perft: legal turn sequences counted (``checker.perft``; the module is
  not named ``perft`` so that it cannot hide that function)
- :mod:`checker.data`       the shipped data: conformance vectors, the perft table, JSON Schemas

The packages above it, each importing only downwards:

- :mod:`checker.drawing`    a position and a verdict as SVG or PNG
- :mod:`checker.service`    request handling without a web framework (HTTP, CLI, benchmarks)
- :mod:`checker.tools`      the ``hexodic-check`` command, the engine protocol, conform, vectors
- :mod:`checker.web`        the HTTP service (Flask) and its gunicorn hooks

The rules engine imports none of them (``tests/test_layout.py``).
"""

from checker.counting import perft
from checker.generate import legal_turns
from checker.legality import check, validate
from checker.notation import parse_hpn, parse_htn, position_to_hpn
from checker.position import Position
from checker.replay import replay
from checker.version import RULES_VERSION

__all__ = [
    "RULES_VERSION",
    "Position",
    "check",
    "legal_turns",
    "parse_hpn",
    "parse_htn",
    "perft",
    "position_to_hpn",
    "replay",
    "validate",
]
