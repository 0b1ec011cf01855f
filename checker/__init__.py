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
"""

RULES_VERSION = "2026-09-15"
