"""The rules reference: the checker's own statement of the rules it judges by.

The rule ids, capture kinds, end-of-game reasons and decided readings are
entries of :mod:`checker.catalogue`; this module holds the rest of the
reference (the board, the position, the turn, the notation, the JSON forms,
the conformance-vector format, the presentation choices) as structured
data, :data:`SECTIONS`, and writes the whole of it as Markdown
(``docs/rules.md``) or as one HTML page (``GET /rules``):

>>> md = markdown()
>>> md.splitlines()[0]
'# Hexodic rules reference'
>>> '<a id="place.cooldown"></a>' in md and '<a id="D-10"></a>' in md
True
>>> 'id="place.cooldown"' in html_page()
True

``python -m checker.reference`` prints the Markdown (``make docs/rules.md``
rewrites the committed file; a test fails while the two differ);
``python -m checker.reference --html`` prints the page.

Prose here uses a little inline markup: ```code```, ``**bold**`` and
``[text](url)``.  Catalogue ids and D-n named in any text are linked to
their entries.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from checker.catalogue import (
    CAPTURES,
    DECISIONS,
    ENDINGS,
    ENTRIES,
    REFERENCE_PATH,
    RULES,
    Kind,
    RuleEntry,
)
from checker.notation import START_HPN
from checker.version import RULES_VERSION

__all__ = [
    "Para",
    "Bullets",
    "Table",
    "Code",
    "Entries",
    "Section",
    "SECTIONS",
    "WorkedFact",
    "CAPTURE_FACTS",
    "FIRST_TURN_HPN",
    "PLAYER_EXAMPLE",
    "RICH_HPN",
    "HTN_EXAMPLES",
    "JSON_POSITION",
    "JSON_TURN",
    "markdown",
    "html_page",
    "inline_html",
    "entry_html",
    "plain_entry",
    "anchors",
    "main",
]


# ----------------------------------------------------------------- blocks ------


@dataclass(frozen=True, slots=True)
class Para:
    text: str


@dataclass(frozen=True, slots=True)
class Bullets:
    items: tuple[str, ...]
    ordered: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Code:
    text: str
    lang: str = ""


@dataclass(frozen=True, slots=True)
class Entries:
    """Catalogue entries, each with its anchor, title, where it belongs and text."""

    ids: tuple[str, ...]


Block = Para | Bullets | Table | Code | Entries


@dataclass(frozen=True, slots=True)
class Section:
    id: str
    title: str
    blocks: tuple[Block, ...] = ()
    sections: tuple[Section, ...] = ()


def _ids(entries: Iterable[str]) -> tuple[str, ...]:
    return tuple(entries)


def _family(prefix: str) -> tuple[str, ...]:
    return tuple(i for i in RULES if i.startswith(prefix))


# --------------------------------------------------------- worked examples ------
# Each is checked against the checker by tests/test_reference.py.

FIRST_TURN_HPN = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"
"""The position after A's first turn ``c3 +d4`` from the start."""

PLAYER_EXAMPLE = "6:3:6:0:1:P:-"
"""A's player field in :data:`FIRST_TURN_HPN`."""

RICH_HPN = "1000/0020A1/1B1A1B11B0A/1122A*11B1/0A2A1B022/02*000/0B01B0 A 1:2:5:0:19:PL:c3 0:2:1:1:15:PL:- 40"
"""A position from a seeded random game (conformance vector gen-10-40-legal):
locks, an Echo-Lock used by both players and a capture cooldown."""

HTN_EXAMPLES = (
    ("c3 +d4", "Place on c3, raise d4."),
    ("c3-c4 -d3 #c4", "Move the stone on c3 to c4, lower d3, Echo-Lock c4."),
    ("b2xa1 +b1", "Move the stone on b2 onto the enemy stone on a1 (a Move capture), raise b1."),
    ("skip *e5", "The cooldown skip (no Project, no Shape), then an Echo-Capture of e5."),
    ("b2", "Place on b2 and leave the Shape and the Echo out."),
)

JSON_POSITION = """{
  "to_move": "B",
  "half_moves": 1,
  "cells": {"c3": {"tier": 0, "stone": "A"}, "d4": {"tier": 1}},
  "players": {
    "A": {"reserve": 6, "charges": 3, "lowers_left": 6, "captures": 0,
          "raises": 1, "placed": true, "echo_lock_used": false, "cooldown": []},
    "B": {"reserve": 7, "charges": 3, "lowers_left": 6, "captures": 0,
          "raises": 0, "placed": false, "echo_lock_used": false, "cooldown": []}
  }
}"""
""":data:`FIRST_TURN_HPN` as a JSON position."""

JSON_TURN = """{"project": {"kind": "place", "cell": "c3"},
 "shape": {"kind": "raise", "cell": "d4"},
 "echo": {"kind": "capture", "cell": "e5"}}"""


@dataclass(frozen=True, slots=True)
class WorkedFact:
    """A fact of the capture weighing, on a board (the board field of an HPN).

    ``check`` is ``encirclement`` or ``echo`` (then ``target`` is the
    Echo-Capture's target); ``total`` and ``captured`` are ``None`` when the
    stone on ``cell`` is not weighed at all."""

    text: str
    board: str
    mover: str
    cell: str
    check: str
    total: int | None
    threshold: int | None
    captured: bool | None
    target: str | None = None


CAPTURE_FACTS = (
    WorkedFact(
        "A tier-1 stone in the middle of the board, surrounded by six of the mover's stones on tier 1: "
        "1 + 1 + 1 + 1 + 1 + 1 = 6, and 6 is not more than 6 × 1. Not captured.",
        "0000/00000/001A1A00/001A1B1A00/001A1A00/00000/0000",
        "A",
        "d4",
        "encirclement",
        6,
        6,
        False,
    ),
    WorkedFact(
        "The same, with one of the six (c3) on tier 2: 7 > 6. Captured.",
        "0000/00000/002A1A00/001A1B1A00/001A1A00/00000/0000",
        "A",
        "d4",
        "encirclement",
        7,
        6,
        True,
    ),
    WorkedFact(
        "A tier-2 stone with no edge slot, surrounded by six of the mover's stones on tier 2: "
        "6 × 2 = 12 at most, and 12 is not more than 6 × 2. The normal check can never capture it.",
        "0000/00000/002A2A00/002A2B2A00/002A2A00/00000/0000",
        "A",
        "d4",
        "encirclement",
        12,
        12,
        False,
    ),
    WorkedFact(
        "A tier-0 stone is never encircled: it is not even weighed, however it is surrounded.",
        "0000/00000/002A2A00/002A0B2A00/002A2A00/00000/0000",
        "A",
        "d4",
        "encirclement",
        None,
        None,
        None,
    ),
    WorkedFact(
        "An empty neighbouring cell (here d5) saves a stone: it is not weighed.",
        "0000/00000/002A2A00/002A1B000/002A2A00/00000/0000",
        "A",
        "d4",
        "encirclement",
        None,
        None,
        None,
    ),
    WorkedFact(
        "Against the edge a stone is easier to take, each edge slot counting tier + 1: B's tier-1 "
        "stone on the corner a1 with the mover's stones on a2 (tier 1), b1 and b2 (tier 0): "
        "2 (edge) + 1 (a2) + 2 (edge) + 0 (b1) + 2 (edge) + 0 (b2) = 7 > 6. Captured.",
        "1B1A00/0A0A000/000000/0000000/000000/00000/0000",
        "A",
        "a1",
        "encirclement",
        7,
        6,
        True,
    ),
    WorkedFact(
        "The same with a2 on tier 0: 2 + 0 + 2 + 0 + 2 + 0 = 6, not more than 6. Not captured.",
        "1B0A00/0A0A000/000000/0000000/000000/00000/0000",
        "A",
        "a1",
        "encirclement",
        6,
        6,
        False,
    ),
    WorkedFact(
        "An Echo-Capture counts enemy neighbours like edge. B's tier-2 stone on d4 has B's own stone "
        "on d5 beside it, so the normal check does not weigh it; an Echo-Capture of d4 weighs it with "
        "d5 as a wall counting 2 + 1 = 3: 2 (d3) + 3 (wall d5) + 2 (c4) + 2 (e4) + 2 (c3) + 2 (e5) "
        "= 13 > 12. Captured. (d5 itself has an empty neighbour, d6, so it is not weighed.)",
        "0000/00000/002A2A00/002A2B2B00/002A2A00/00000/0000",
        "A",
        "d4",
        "echo",
        13,
        12,
        True,
        "d4",
    ),
)


def _board_diagram() -> str:
    from checker import board

    lines = []
    for r, cells in enumerate(board.ROW_CELLS):
        indent = 2 * abs(3 - r)
        lines.append(" " * indent + "  ".join(board.name(c) for c in cells))
    return "\n".join(lines)


def _facts_table() -> Table:
    rows = []
    for f in CAPTURE_FACTS:
        rows.append((f.text, f"`{f.board}`"))
    return Table(("fact", "board (HPN board field; the mover is A)"), tuple(rows))


def _ids_table() -> Table:
    rows = []
    for e in RULES.values():
        source = f"decided, {e.decision}" if e.decision else "rule"
        rows.append((e.id, e.step, e.title, source, f"[{e.more.removeprefix('https://')}]({e.more})"))
    return Table(("id", "step", "title", "source", "published page"), tuple(rows))


def _other_ids_table() -> Table:
    rows = []
    for e in (*CAPTURES.values(), *ENDINGS.values()):
        source = f"decided, {e.decision}" if e.decision else "rule"
        rows.append((e.id, e.kind.value, e.title, source, f"[{e.more.removeprefix('https://')}]({e.more})"))
    return Table(("id", "kind", "title", "source", "published page"), tuple(rows))


# ---------------------------------------------------------------- sections ------

_ABOUT = Section(
    "about",
    "About this reference",
    (
        Para(
            f"This is the Hexodic move-legality checker's own statement of the rules it judges by, rules version "
            f"**{RULES_VERSION}** (the date the published Hexodic rules were last reviewed against the Hexodic "
            f"rules engine; every answer of the service names it as `rules_version`). When a verdict is "
            f"disputed, this text is what the checker applied."
        ),
        Para(
            "Every statement is either a published rule of Hexodic (the glossary, Project and Capture pages of "
            "hexodic.com) or a **decided reading**: where the published text is silent or ambiguous, the reading "
            "the checker implements, numbered D-1, D-2, … so that an answer can cite it. The numbers never "
            "change; a correction names the number it corrects. The list is in [Decided readings](#decisions)."
        ),
        Para(
            "The same texts are served by the checker itself: `GET /rules` (this reference as one HTML page), "
            "`GET /v1/rules` (every entry as JSON) and `hexodic-check rules [ID]` (in a terminal). They are "
            "written from `checker/catalogue.py` (the rule ids, capture kinds, end-of-game reasons and decided "
            "readings) and `checker/reference.py` (everything else). "
            "Sections 1–11 are numbered as in the Hexodic rules team's contract, so a citation such as "
            '"RULES §10" (in the code, or in a conformance vector\'s description) is section 10 here.'
        ),
        Para("Words used throughout:"),
        Bullets(
            (
                "*mover*: the player whose turn is being checked; *opponent*: the other player; *enemy stone*: a "
                "stone of the opponent, from the mover's point of view.",
                "*step*: the hex distance between two cells (a neighbour is 1 step away).",
                "*slot*: one of a cell's six neighbouring places; a slot past the board edge is *edge*.",
                "*landing cell*: the cell of the stone placed by this turn's Place, or the to-cell of its Move.",
            )
        ),
    ),
)

_BOARD = Section(
    "board",
    "1. The board",
    (
        Para(
            "The board has 37 hexagonal cells. Every cell has a **tier**, 0, 1 or 2 (all 0 at the start), and "
            "may be **locked**. Every cell has six neighbouring slots; a slot past the board edge is edge."
        ),
        Para(
            "The board is the hexagon of side 4, the cells at most 3 steps from the centre (D-1). A cell is "
            "named by a row letter `a`–`g` and a column digit `1`–`7`, like a square of Abalone; the name is "
            "valid when |row − column| ≤ 3, counting rows a = 1 … g = 7. The centre is **d4**."
        ),
        Code(_board_diagram()),
        Table(
            ("row", "cells"),
            (
                ("a", "a1–a4"),
                ("b", "b1–b5"),
                ("c", "c1–c6"),
                ("d", "d1–d7"),
                ("e", "e2–e7"),
                ("f", "f3–f7"),
                ("g", "g4–g7"),
            ),
        ),
        Bullets(
            (
                "The neighbours of the cell in row i, column j are (i, j − 1), (i, j + 1), (i − 1, j), (i + 1, j), "
                "(i − 1, j − 1) and (i + 1, j + 1), those that are on the board. In the picture above they are the "
                "two cells beside it in its row and the two touching it in each of the rows above and below: the "
                "neighbours of d4 are d3, d5, c3, c4, e4 and e5.",
                "The steps between (i1, j1) and (i2, j2): with di = i1 − i2 and dj = j1 − j2, the larger of |di| "
                "and |dj| when di and dj have the same sign (or one is 0), otherwise |di| + |dj|; that is, "
                "max(|di|, |dj|, |di − dj|). From a1 to g7 is 6 steps; from c3 to d4, 1.",
                "The corner cells a1, a4, d1, d7, g4 and g7 have 3 edge slots, the 12 other cells 3 steps from the "
                "centre have 2, and the 19 inner cells none.",
            )
        ),
    ),
)

_POSITION = Section(
    "position",
    "2. Players and the position",
    (
        Para(
            "The players are `A` and `B`, and A moves first (D-2). Each starts with 7 stones in reserve, 3 Echo "
            "charges and a lowering budget of 6. A captured stone returns to its owner's reserve, so for each "
            "player the stones on the board plus the reserve always make 7."
        ),
        Para("A position holds:"),
        Table(
            ("what", "JSON", "HPN", "values", "meaning"),
            (
                ("tier of each cell", "`cells.<cell>.tier`", "the digit of the cell", "0–2", "the cell's height"),
                (
                    "stone of each cell",
                    "`cells.<cell>.stone`",
                    "`A` or `B` after the digit",
                    "A, B or none",
                    "whose stone stands there",
                ),
                (
                    "lock of each cell",
                    "`cells.<cell>.locked`",
                    "`*` after the cell",
                    "true or false",
                    "the cell was Echo-Locked; it stays locked for the rest of the game",
                ),
                ("player to move", "`to_move`", "second field", "A or B", "whose turn it is"),
                (
                    "half-moves",
                    "`half_moves`",
                    "last field",
                    "0–60",
                    "the turns played so far (one turn is one half-move)",
                ),
                (
                    "reserve",
                    "`players.<P>.reserve`",
                    "1st part of the player",
                    "0–7",
                    "the player's stones not on the board",
                ),
                ("charges", "`players.<P>.charges`", "2nd part", "0–3", "Echo charges left"),
                ("lowers left", "`players.<P>.lowers_left`", "3rd part", "0–6", "lowers left of the lowering budget"),
                (
                    "captures",
                    "`players.<P>.captures`",
                    "4th part",
                    "0 or more",
                    "enemy stones this player has captured in the game",
                ),
                (
                    "raises",
                    "`players.<P>.raises`",
                    "5th part",
                    "0 or more",
                    "Shapes this player has made that raised a cell",
                ),
                (
                    "placed",
                    "`players.<P>.placed`",
                    "flag `P`",
                    "true or false",
                    "the player has made their first Place",
                ),
                (
                    "Echo-Lock used",
                    "`players.<P>.echo_lock_used`",
                    "flag `L`",
                    "true or false",
                    "the player has used their one Echo-Lock",
                ),
                (
                    "cooldown",
                    "`players.<P>.cooldown`",
                    "last part",
                    "cells",
                    "the cells where this player's stones "
                    "were captured since this player's last "
                    "Place (the capture cooldown); empty "
                    "when none",
                ),
            ),
        ),
    ),
    (
        Section(
            "consistency",
            "Consistency",
            (
                Para(
                    "The checker judges turns only from a consistent position. A position that breaks any of "
                    "these conditions is refused as bad input (an HTTP 422, exit status 2 of the command), with "
                    "every broken condition listed under its id (D-3). `POST /v1/validate` and "
                    "`hexodic-check validate` report each condition."
                ),
                Entries(_family("position.")),
            ),
        ),
    ),
)

_TURN = Section(
    "turn",
    "3. The turn",
    (
        Para("A turn is one player acting once, and one turn is one half-move:"),
        Bullets(
            (
                "**Step 1/2: Project** (mandatory): Place a stone from reserve, or, only once the reserve is empty, "
                "Move a stone; or the cooldown skip.",
                "**Step 2/2: Shape**: raise or lower one cell near the landing cell (mandatory whenever a legal Shape "
                "targets a cell not occupied by the mover's own stone).",
                "**Step 3: Echo (optional)**: spend a charge on an Echo-Capture or an Echo-Lock.",
                "Then the capture checks (encirclement, then the Echo-Capture's own check), then the end of the game.",
            ),
            ordered=True,
        ),
        Para("The step labels, used verbatim in every explanation:"),
        Table(
            ("label", "when"),
            (
                (
                    "Step 1/2: Place",
                    "the Project while the mover has stones in reserve (even for a declared Move, D-15)",
                ),
                ("Step 1/2: Move", "the Project once the mover's reserve is empty"),
                ("Step 2/2: Shape", "the Shape"),
                ("Step 3: Echo (optional)", "the Echo"),
            ),
        ),
        Para(
            'The "/2" counts the steps the rules can make mandatory; the Echo is always optional. Two more '
            'labels name checks that belong to no step: "Before the turn" (`game.over`) and "Position" '
            "(the consistency conditions)."
        ),
        Bullets(
            (
                "Every question of Steps 2 and 3 is judged on the board as it stands after the earlier steps of "
                "the same turn: after the Project (a Move capture included) and after the Shape.",
                "A verdict reports every violation at once: later steps are judged even when an earlier one is "
                "illegal, each declared step's effect applied where it can be, and the landing cell is always the "
                "declared cell (D-14).",
            )
        ),
    ),
)

_PROJECT = Section(
    "project",
    "4. Step 1: Project",
    (
        Para(
            "The Project is mandatory: Place a stone from reserve or, only once the reserve is empty, Move a "
            "stone. The landing cell of the turn is the placed stone's cell or the Move's to-cell."
        ),
    ),
    (
        Section(
            "place",
            "Place",
            (
                Para(
                    "A Place puts one reserve stone on an empty, unlocked cell. After a Place the mover's `placed` "
                    "becomes true and the mover's capture cooldown clears."
                ),
                Entries(_family("place.")),
            ),
        ),
        Section(
            "move",
            "Move",
            (
                Para("A Move steps one of the mover's stones to one of its six neighbours."),
                Entries(_family("move.")),
            ),
        ),
        Section(
            "skip",
            "The cooldown skip",
            (
                Para(
                    "If the capture cooldown leaves the mover no legal Place, the Project and the Shape are "
                    "skipped for that turn and the cooldown clears (written `skip`). The skip applies only when "
                    "some Place would be legal if the cooldown were ignored (D-4); the Echo is still available on "
                    "a skipped turn (D-5); a Shape given anyway fails `shape.skipped` (D-7)."
                ),
                Entries(("project.skip",)),
            ),
        ),
    ),
)

_SHAPE = Section(
    "shape",
    "5. Step 2: Shape",
    (
        Para(
            "The Shape raises or lowers one unlocked cell by one tier, within 2 steps of the landing cell. It "
            "may target a cell holding any stone, the mover's own or an enemy's, or no stone (D-6)."
        ),
        Entries(_family("shape.")),
    ),
)

_ECHO = Section(
    "echo",
    "6. Step 3: Echo (optional)",
    (
        Para("An Echo is an Echo-Capture or an Echo-Lock; it spends a charge."),
        Entries(("echo.charge",)),
    ),
    (
        Section(
            "echo-capture",
            "Echo-Capture",
            (
                Para(
                    "An Echo-Capture names a target; its effect is a second capture check after the normal one "
                    "(`capture.echo`). An Echo-Capture whose preconditions hold is legal even when that check then "
                    "captures nothing: the charge is spent, and the explanation says so and shows the weighing "
                    "(D-8)."
                ),
                Entries(_family("echo-capture.")),
            ),
        ),
        Section(
            "echo-lock",
            "Echo-Lock",
            (
                Para(
                    "An Echo-Lock permanently locks a tier-2 cell occupied by the mover's own stone. A locked cell "
                    "can never be Shaped or Placed onto; the stone on it can still be captured (by any kind of "
                    "capture), and a Move onto a locked cell is legal."
                ),
                Entries(_family("echo-lock.")),
            ),
        ),
    ),
)

_CAPTURE = Section(
    "capture",
    "7. Captures",
    (
        Para(
            "Every capture returns the stone to its owner's reserve, adds 1 to the capturer's `captures` and "
            "adds the cell to its owner's capture cooldown (so the owner must Place again before Moving, and "
            "that Place must be at least 2 steps from the cell). There are three kinds:"
        ),
        Entries(_ids(CAPTURES)),
        Para("The two weighings side by side, for a weighed stone on tier t (1 or 2):"),
        Code(
            "encirclement:   S + (t + 1) × E         > 6 × t\n"
            "Echo-Capture:   S + (t + 1) × (E + W)   > 6 × t\n"
            "\n"
            "S  the sum of the tiers of the neighbouring mover's stones\n"
            "E  the edge slots (past the board edge)\n"
            "W  the slots holding the opponent's stones (walls; the Echo-Capture only)"
        ),
        Para(
            "A legal turn's answer lists every weighed stone in `capture_check`, captured or not, with its "
            "tier, its sum, its threshold (6 × tier) and the terms of the sum (`stone`: a mover's stone and its "
            "tier; `edge`: tier + 1; `wall`: an enemy neighbour counting tier + 1), so a disputed capture can "
            "be read off."
        ),
    ),
    (
        Section(
            "capture-facts",
            "Worked facts",
            (
                Para(
                    "These follow from the weighing (the Capture page states them); the checker's tests weigh each "
                    "board below and get exactly these sums."
                ),
                _facts_table(),
            ),
        ),
    ),
)

_END = Section(
    "end",
    "8. The end of the game",
    (
        Para(
            "After the capture checks the end of the game is checked in this order, and the first that applies "
            "ends it (the order is D-11 where the published text gives none):"
        ),
        Table(
            ("order", "reason", "when", "result"),
            (
                ("1", "`takeover`", "the mover has captured 6 or more enemy stones", "the mover wins"),
                (
                    "2",
                    "`network`",
                    "5 or more of the mover's stones on tier-2 cells form one connected group",
                    "the mover wins",
                ),
                ("3", "`strangle`", "the opponent has no legal Project", "the mover wins"),
                ("4", "`repetition`", "the turn recreates an earlier position", "the mover loses"),
                ("5", "`threefold`", "the same position, same player to move, occurs the third time", "a draw"),
                ("6", "`tiebreak`", "this was half-move 60", "the tiebreak decides"),
            ),
        ),
        Entries(_ids(ENDINGS)),
        Para(
            "The game's result is `{over, result, reason}`, with result `A`, `B` or `draw` and reason one of "
            "`takeover`, `network`, `strangle`, `repetition`, `threefold` and `tiebreak` (a level tiebreak is "
            "result `draw`, reason `tiebreak`). When the tiebreak decided, the answer carries each player's "
            "four figures."
        ),
    ),
    (
        Section(
            "history",
            "Repetition needs the history",
            (
                Para(
                    "Repetition and threefold can only be judged when the request carries the game's earlier "
                    "positions, `history` (oldest first, the start position first, not including the position "
                    "the turn is played from). Without it the answer says they were not evaluated "
                    '(`repetition: "not_evaluated"`); it never guesses. An empty list is a history (the game has '
                    "no earlier positions) and is evaluated. A replay from the start position keeps the history "
                    "itself."
                ),
                Para(
                    "Under these rules a cooldown skip cannot arise in a game played from the start position (an "
                    "encircled or Echo-captured stone had no empty neighbour, so its cooldown excludes no empty "
                    "cell but its own; a Move-captured cell excludes at most its six neighbours; at least 22 cells "
                    "are always empty), and so neither can a threefold draw. Both are implemented all the same: a "
                    "client may send any consistent position. A repetition loss is reachable (both players Moving "
                    "with their lowering budgets spent and no Shape available but on their own stones)."
                ),
            ),
        ),
        Section(
            "game-over",
            "A game that is already over",
            (
                Para("A position in which the game is already over accepts no turn:"),
                Entries(("game.over",)),
            ),
        ),
    ),
)

_IDS = Section(
    "ids",
    "9. Rule ids",
    (
        Para(
            "Every check in an explanation names one of these ids, its step label, a status (`passed`, "
            "`failed` or `not_applicable`), a plain-English message with the concrete cells and numbers, a "
            "`more` link to the published page and a `rule_url` to its entry here (`/rules#<id>`). Capture "
            "weighings link to their capture kind, a game's end to its reason."
        ),
        _ids_table(),
        Para("The entries that are not checks:"),
        _other_ids_table(),
    ),
)

_DECISIONS = Section(
    "decisions",
    "12. Decided readings",
    (
        Para(
            "Where the published text is silent or ambiguous, the checker implements these readings. The "
            "numbers D-1 … D-15 are those of the Hexodic rules team's contract, so answers already given stay "
            "citable. Decided readings the project adds itself continue the numbering after 15; there are none "
            "so far: every legality question the checker answers is settled by the rules and D-1 … D-15."
        ),
        Entries(_ids(DECISIONS)),
    ),
)

_NOTATION = Section(
    "notation",
    "10. Text notation",
    (),
    (
        Section(
            "hpn",
            "Positions: HPN",
            (
                Para("A position in HPN is one line of five fields separated by spaces:"),
                Code(
                    "position   = board SP to-move SP player SP player SP half-moves   (player A, then player B)\n"
                    'board      = row "/" row "/" row "/" row "/" row "/" row "/" row   (rows a to g)\n'
                    "row        = cell ...                    (4, 5, 6, 7, 6, 5, 4 cells, in column order)\n"
                    'cell       = tier [stone] ["*"]           ("*": the cell is locked)\n'
                    'tier       = "0" | "1" | "2"\n'
                    'stone      = "A" | "B"\n'
                    'to-move    = "A" | "B"\n'
                    'player     = reserve ":" charges ":" lowers-left ":" captures ":" raises ":" flags ":" '
                    "cooldown\n"
                    'flags      = "-" | "P" | "L" | "PL"     (P: first Place made; L: Echo-Lock used)\n'
                    'cooldown   = "-" | cell-name *("," cell-name)\n'
                    "half-moves = digits                      (0 to 60)\n"
                    "cell-name  = row-letter column-digit      (a1 … g7, see the board)"
                ),
                Para(
                    "Any other tier digit, a row with the wrong number of cells or a misplaced mark is a parse "
                    "error, and the message says where. Cooldown cells may come in any order but not twice on "
                    "input (in HPN and JSON alike); output lists them in board order, a1 … g7. A position that "
                    "parses must still be consistent ([Consistency](#consistency)) before a turn is judged from "
                    "it."
                ),
                Para("The start position:"),
                Code(START_HPN),
                Para(f"After A's first turn `c3 +d4` it is `{FIRST_TURN_HPN}`: field by field,"),
                Table(
                    ("field", "text", "reads"),
                    (
                        (
                            "board",
                            "`0000/00000/000A000/0001000/000000/00000/0000`",
                            "row c (`000A000`: c1 `0`, c2 `0`, c3 `0A`, c4 `0`, c5 `0`, c6 `0`) has A's stone on c3, tier 0; "
                            "row d (`0001000`) has d4 on tier 1; every other cell is tier 0, empty, unlocked",
                        ),
                        ("to-move", "`B`", "B is to move"),
                        (
                            "player A",
                            f"`{PLAYER_EXAMPLE}`",
                            "reserve 6, charges 3, lowers left 6, captures 0, raises 1, "
                            "flags `P` (first Place made, no Echo-Lock), cooldown `-` "
                            "(none)",
                        ),
                        (
                            "player B",
                            "`7:3:6:0:0:-:-`",
                            "reserve 7, charges 3, lowers left 6, captures 0, raises 0, no "
                            "flag, no cooldown: B has not played yet",
                        ),
                        ("half-moves", "`1`", "one turn has been played"),
                    ),
                ),
                Para(
                    f"A fuller one, from a seeded random game: `{RICH_HPN}`. In row b (`0020A1`), b3 is tier 2 and "
                    "b4 holds A's stone on tier 0; in row d (`1122A*11B1`), d4 is `2A*`: tier 2, A's stone, locked; "
                    "in row f (`02*000`), f4 is `2*`: tier 2, locked, empty. A's `1:2:5:0:19:PL:c3` reads reserve "
                    "1, charges 2, lowers left 5, captures 0, raises 19, first Place made and Echo-Lock used, and a "
                    "capture cooldown on c3 (A's stone was captured there, so A's next Place must be at least 2 "
                    "steps from c3). B's `0:2:1:1:15:PL:-`: an empty reserve (B must Move), 1 lower left, 1 "
                    "capture. 40 half-moves have been played and A is to move."
                ),
                Para(
                    "The repetition key of a position is its HPN without the cooldown parts and without the "
                    "half-move field; for the start position, "
                    "`0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:- 7:3:6:0:0:-`."
                ),
            ),
        ),
        Section(
            "htn",
            "Turns: HTN",
            (
                Para("A turn in HTN is the Project, then the Shape if any, then the Echo if any, separated by spaces:"),
                Code(
                    "turn     = project [SP shape] [SP echo]\n"
                    "project  = cell-name                          (Place)\n"
                    '         | cell-name ("-" | "x") cell-name    (Move; "x" when the to-cell holds an enemy stone)\n'
                    '         | "skip"                             (the cooldown skip)\n'
                    'shape    = "+" cell-name | "-" cell-name      (raise, lower)\n'
                    'echo     = "*" cell-name | "#" cell-name      (Echo-Capture, Echo-Lock)\n'
                    "cell-name = row-letter column-digit            (a1 … g7, see the board)"
                ),
                Table(("HTN", "the turn"), tuple((f"`{t}`", meaning) for t, meaning in HTN_EXAMPLES)),
                Para(
                    "Input may use either Move separator, upper-case letters and any run of spaces. Output is "
                    "canonical: lower-case cells, `x` for a Move capture (`-` otherwise), single spaces."
                ),
            ),
        ),
    ),
)

_JSON = Section(
    "json",
    "11. JSON forms",
    (
        Para(
            "Wherever a position is accepted, its HPN string is accepted too; wherever a turn is accepted, its "
            "HTN string. A position as JSON (the position after A's first turn `c3 +d4`, shown in HPN above):"
        ),
        Code(JSON_POSITION, "json"),
        Bullets(
            (
                '`cells` maps a cell name to `{tier, stone, locked}`: `tier` 0–2 (default 0), `stone` `"A"`, '
                '`"B"` or absent or null (default none), `locked` a boolean (default false). Input may list any '
                "cells; output lists exactly the cells that differ from tier 0, no stone, unlocked, with `tier` "
                "always written, `stone` only when there is one and `locked` only when true.",
                "`players` holds `A` and `B`, each with every field of [the position](#position); `cooldown` is a "
                "list of cell names.",
            )
        ),
        Para("A turn as JSON (every step is an object with a `kind`; `shape` and `echo` may be null or absent):"),
        Code(JSON_TURN, "json"),
        Bullets(
            (
                "Project kinds: `place` (`cell`), `move` (`from`, `to`), `skip`.",
                "Shape kinds: `raise`, `lower` (`cell`).",
                "Echo kinds: `capture`, `lock` (`cell`).",
                "History (for the repetition loss and the threefold draw): a list of the game's earlier positions, "
                "oldest first (the start position first), not including the position the turn is played from; each "
                "item an HPN string or a JSON position. Only their repetition keys are compared.",
            )
        ),
    ),
)

_VECTORS = Section(
    "vectors",
    "13. Conformance vectors",
    (
        Para(
            "`checker/data/vectors.jsonl` (served at `GET /v1/vectors`, printed by `hexodic-check vectors`) "
            "lets another Hexodic implementation check itself against the checker. It is JSON Lines: one JSON "
            "object per line, the first line a header:"
        ),
        Code(
            '{"format": "hexodic-conformance-vectors", "version": 1, "rules_version": "'
            + RULES_VERSION
            + '", "count": N}',
            "json",
        ),
        Para("`count` is the number of vector lines that follow. Each further line is one vector:"),
        Table(
            ("key", "value"),
            (
                (
                    "`id`",
                    "unique; `hand-…` vectors were written by hand from the rules, each description naming the "
                    "rule it pins; `gen-…` vectors come from seeded random games and pin the checker's answers "
                    "(regression vectors)",
                ),
                ("`description`", "what the vector shows"),
                ("`position`", "the position the turn is played from, in HPN"),
                (
                    "`history`",
                    "null (repetition and threefold not evaluated) or the earlier positions, oldest first, in HPN",
                ),
                ("`turn`", "the turn, in canonical HTN"),
                ("`legal`", "true or false"),
                ("`violations`", "the failed rule ids, in the order of the checks (empty when legal)"),
                ("`after`", "the resulting position in HPN when legal, else null"),
                ("`game`", "when legal, `{over, result, reason, repetition}`; else null"),
            ),
        ),
        Para(
            "To check an implementation, run it on each vector and write one answer per line, "
            '`{"id", "legal", "violations", "after", "game"}` (`after` and `game` may be left out), '
            "then `hexodic-check vectors --answers answers.jsonl` lists every difference (exit status 0 when "
            "every answer agrees)."
        ),
    ),
)

_PRESENTATION = Section(
    "presentation",
    "14. Presentation choices",
    (
        Para(
            "How the checker presents what the rules leave to the implementation. None of these changes "
            "whether a turn is legal."
        ),
        Bullets(
            (
                '`game.over` is reported first, under the label "Before the turn" (it is no step of the turn). '
                'Consistency problems carry the label "Position".',
                "`project.skip` is judged on every turn (it fails when a Place or a Move is declared while the skip "
                "applies): on a Place or a Move it is `not_applicable` when the mover has no capture cooldown, "
                "`passed` when the cooldown leaves a legal Place, `failed` when the skip applies. It follows the "
                "rules of the declared Project in Step 1.",
                'A turn with no Echo reports `echo.charge` as `not_applicable` ("No Echo was declared"), so the '
                "Step 3 line of the checklist is never missing.",
                "A raise reports `shape.lowering-budget` as `not_applicable` (raises are not budgeted).",
                "`place.opening-restriction` is `not_applicable` once the mover has made a first Place; "
                "`place.cooldown` is `not_applicable` with an empty cooldown.",
                "The Shape named by a failed `shape.mandate` is the nearest legal Shape (fewest steps from the "
                "landing cell, then board order) that targets a cell not occupied by the mover's own stone; the "
                "message also gives how many there are.",
                "History positions are compared only by their repetition key; they are parsed but not checked for "
                "consistency.",
                "An Echo-Capture always produces a `capture` event of kind `echo`, with no cells when it captured "
                "nothing (D-8), and says why.",
                'A fact read on the board after an earlier step of the same turn says so ("after the Shape -b1, b1 is '
                'Tier 0"; "after the Place on b2, b2 holds A\'s stone"): the board the player sees still shows it as '
                "it was before the turn.",
                "An illegal turn's summary gives the first failed check's requirement and fact, then every other failed "
                'rule by its title and id ("also failed: Cooldown skip (project.skip)").',
                "With an Echo-Capture, a legal turn's summary says which capture took each stone and, when the "
                "Echo-Capture took none, why: the normal check had already taken the target, or no stone of its group "
                "met the test (D-8).",
                "A position at half-move 60 is over, but read alone it cannot show whether its last turn ended the game "
                "by a repetition or a threefold; its messages say that the tiebreak decides unless the game ended "
                "otherwise, and give the tiebreak's figures and result. A capping turn judged without a history says "
                "the same of its own repetition.",
                "A repetition loss names the earlier position it recreates by its place in the history (`history[i]`, "
                "counted from 0) and its half-move count; a threefold names every earlier occurrence.",
                "A failed `echo-lock.once` names the cell the mover locked earlier when it can be known: the one locked "
                "cell when only the mover has Echo-Locked, or the cell the history shows becoming locked on the "
                "mover's turn. Otherwise it names the locked cells it may be and says that it cannot tell; it never "
                "guesses from the stones on them (a stone on a locked cell can be captured, and another can Move "
                "there).",
                "When the Shape may be left out, `shape.mandate` names the cells within 2 steps of the landing cell "
                "and why none of them takes a Shape that counts (the mover's own stone, locked, or Tier 2 with no "
                "lowers left).",
            )
        ),
    ),
)

SECTIONS: tuple[Section, ...] = (
    _ABOUT,
    _BOARD,
    _POSITION,
    _TURN,
    _PROJECT,
    _SHAPE,
    _ECHO,
    _CAPTURE,
    _END,
    _IDS,
    _NOTATION,
    _JSON,
    _DECISIONS,
    _VECTORS,
    _PRESENTATION,
)
TITLE = "Hexodic rules reference"


def _walk(sections: Sequence[Section] = SECTIONS, depth: int = 2) -> Iterator[tuple[Section, int]]:
    for s in sections:
        yield s, depth
        yield from _walk(s.sections, depth + 1)


def anchors() -> list[str]:
    """Every anchor of the reference, in order: sections and entries."""
    out = []
    for s, _ in _walk():
        out.append(s.id)
        for b in s.blocks:
            if isinstance(b, Entries):
                out.extend(b.ids)
    return out


# ----------------------------------------------------------- inline text ------

_INLINE = re.compile(
    r"`(?P<code>[^`]+)`|\*\*(?P<bold>[^*]+)\*\*|\*(?P<em>[^*\s][^*]*)\*"
    r"|\[(?P<label>[^\]]+)\]\((?P<href>[^)\s]+)\)"
    r"|(?P<dn>\bD-\d+\b)|(?P<id>\b[a-z]+(?:-[a-z]+)*\.[a-z]+(?:-[a-z]+)*\b)"
)


def _kind(m: re.Match[str]) -> str:
    return next(k for k in ("code", "bold", "em", "label", "dn", "id") if m[k] is not None)


def _href(anchor: str, base: str) -> str:
    return f"{base}#{anchor}"


def inline_html(text: str, base: str = "") -> str:
    """``text`` (plain, or with the reference's inline markup) as HTML: escaped,
    code and emphasis marked, catalogue ids and D-n linked to ``base#id``
    (``base`` is ``/rules`` for a link from another page)."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos : m.start()], quote=False))
        pos = m.end()
        g = _kind(m)
        if g == "code":
            code = m["code"]
            inner = f"<code>{html.escape(code, quote=False)}</code>"
            out.append(f'<a href="{html.escape(_href(code, base))}">{inner}</a>' if code in ENTRIES else inner)
        elif g == "bold":
            out.append(f"<strong>{inline_html(m['bold'], base)}</strong>")
        elif g == "em":
            out.append(f"<em>{inline_html(m['em'], base)}</em>")
        elif g == "label":
            out.append(f'<a href="{html.escape(m["href"])}">{inline_html(m["label"], base)}</a>')
        else:
            word = m[g]
            if word in ENTRIES:
                inner = html.escape(word) if g == "dn" else f"<code>{html.escape(word)}</code>"
                out.append(f'<a href="{html.escape(_href(word, base))}">{inner}</a>')
            else:
                out.append(html.escape(word, quote=False))
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


def _inline_md(text: str) -> str:
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(text[pos : m.start()])
        pos = m.end()
        g = _kind(m)
        if g == "code":
            out.append(f"[`{m['code']}`](#{m['code']})" if m["code"] in ENTRIES else m[0])
        elif g in ("bold", "em", "label"):
            out.append(m[0])
        else:
            word = m[g]
            if word in ENTRIES:
                out.append(f"[{word}](#{word})" if g == "dn" else f"[`{word}`](#{word})")
            else:
                out.append(word)
    out.append(text[pos:])
    return "".join(out)


def entry_html(entry_id: str, base: str = REFERENCE_PATH) -> str:
    """An entry's text as HTML, the ids and D-n it names linked into the
    reference at ``base`` (for pages other than the reference itself)."""
    return inline_html(ENTRIES[entry_id].text, base)


def _source(e: RuleEntry) -> str:
    if e.kind is Kind.DECISION:
        return "decided reading"
    return f"decided reading {e.decision}" if e.decision else "published rule"


def plain_entry(e: RuleEntry) -> str:
    """An entry as plain text (for a terminal): its id and title, where it
    belongs and its source, the text, and the links."""
    where = "" if e.kind is Kind.DECISION else f"{e.step} · "
    return f"{e.id}: {e.title}\n{where}{_source(e)}\n{e.text}\nMore: {e.more}\nReference: {e.rule_url}"


# --------------------------------------------------------------- Markdown ------


def _md_cell(text: str) -> str:
    return _inline_md(text).replace("|", "\\|")


def _md_block(b: Block, depth: int) -> list[str]:
    if isinstance(b, Para):
        return [_inline_md(b.text), ""]
    if isinstance(b, Bullets):
        return [f"{f'{i}.' if b.ordered else '-'} {_inline_md(t)}" for i, t in enumerate(b.items, 1)] + [""]
    if isinstance(b, Table):
        lines = ["| " + " | ".join(b.header) + " |", "| " + " | ".join("---" for _ in b.header) + " |"]
        lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in b.rows]
        return lines + [""]
    if isinstance(b, Code):
        return [f"```{b.lang}", b.text, "```", ""]
    lines = []
    for i in b.ids:
        e = ENTRIES[i]
        name = e.id if e.kind is Kind.DECISION else f"`{e.id}`"
        where = "" if e.kind is Kind.DECISION else f"{e.step} · "
        lines += [
            f'<a id="{e.anchor}"></a>',
            "",
            f"{'#' * min(depth + 1, 6)} {name}: {e.title}",
            "",
            f"*{_inline_md(where + _source(e))} · [published page]({e.more})*",
            "",
            _inline_md(e.text),
            "",
        ]
    return lines


def markdown() -> str:
    """The whole reference as Markdown (``docs/rules.md``)."""
    lines = [
        f"# {TITLE}",
        "",
        "<!-- Generated by `python -m checker.reference` from checker/catalogue.py and "
        "checker/reference.py; do not edit by hand (make docs/rules.md). -->",
        "",
    ]
    lines.append("Contents: " + " · ".join(f"[{s.title}](#{s.id})" for s in SECTIONS))
    lines.append("")
    for s, depth in _walk():
        lines += [f'<a id="{s.id}"></a>', "", f"{'#' * depth} {s.title}", ""]
        for b in s.blocks:
            lines += _md_block(b, depth)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------- HTML ------


def _plain(text: str) -> str:
    """``text``'s inline markup (backticks, links) reduced to its words."""
    return re.sub(r"<[^>]+>", "", html.unescape(inline_html(text)))


def _html_block(b: Block, depth: int) -> list[str]:
    if isinstance(b, Para):
        return [f"<p>{inline_html(b.text)}</p>"]
    if isinstance(b, Bullets):
        tag = "ol" if b.ordered else "ul"
        return [f"<{tag}>", *(f"<li>{inline_html(t)}</li>" for t in b.items), f"</{tag}>"]
    if isinstance(b, Table):
        head = "".join(f'<th scope="col">{inline_html(h)}</th>' for h in b.header)
        rows = ["<tr>" + "".join(f"<td>{inline_html(c)}</td>" for c in row) + "</tr>" for row in b.rows]
        # a wide table scrolls inside its own box on a narrow screen: a named region the keyboard reaches
        label = html.escape("Table: " + ", ".join(_plain(h) for h in b.header), quote=True)
        return [
            f'<div class="table" tabindex="0" role="region" aria-label="{label}"><table>',
            f"<thead><tr>{head}</tr></thead>",
            "<tbody>",
            *rows,
            "</tbody></table></div>",
        ]
    if isinstance(b, Code):
        return [f"<pre><code>{html.escape(b.text, quote=False)}</code></pre>"]
    out = []
    h = f"h{min(depth + 1, 6)}"
    for i in b.ids:
        e = ENTRIES[i]
        name = html.escape(e.id) if e.kind is Kind.DECISION else f"<code>{html.escape(e.id)}</code>"
        where = "" if e.kind is Kind.DECISION else f"{html.escape(e.step)} · "
        out += [
            f'<article class="entry {e.kind.value}" id="{html.escape(e.anchor)}">',
            f'<{h}><a class="anchor" href="#{html.escape(e.anchor)}">{name}</a> {html.escape(e.title)}</{h}>',
            f'<p class="meta">{where}{inline_html(_source(e))} · '
            f'<a href="{html.escape(e.more)}">published page</a></p>',
            f"<p>{inline_html(e.text)}</p>",
            "</article>",
        ]
    return out


def _html_section(s: Section, depth: int) -> list[str]:
    out = [
        f'<section id="{html.escape(s.id)}">',
        f'<h{depth}><a class="anchor" href="#{html.escape(s.id)}">{html.escape(s.title)}</a></h{depth}>',
    ]
    for b in s.blocks:
        out += _html_block(b, depth)
    for sub in s.sections:
        out += _html_section(sub, depth + 1)
    return out + ["</section>"]


def html_page(stylesheet: str | tuple[str, ...] | None = None) -> str:
    """The whole reference as one HTML page (``GET /rules``): no script, an
    anchor for every section, rule id, capture kind, end-of-game reason and
    decided reading.  ``stylesheet``: one URL or several, linked in order."""
    sheets = (stylesheet,) if isinstance(stylesheet, str) else tuple(stylesheet or ())
    css = "".join(f'<link rel="stylesheet" href="{html.escape(s)}">\n' for s in sheets)
    toc = "\n".join(f'<li><a href="#{html.escape(s.id)}">{html.escape(s.title)}</a></li>' for s in SECTIONS)
    body = "\n".join(line for s in SECTIONS for line in _html_section(s, 2))
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{TITLE} (rules version {RULES_VERSION})</title>\n{css}</head>\n<body>\n"
        f"<header><h1>{TITLE}</h1>\n<p>The rules the Hexodic move-legality checker judges by, rules "
        f'version {RULES_VERSION}. <a href="/">Playground</a> · <a href="/docs">API</a> · '
        f'<a href="/v1/rules">as JSON</a></p>\n'
        f'<nav aria-label="Contents"><ul class="toc">\n{toc}\n</ul></nav></header>\n<main>\n{body}\n</main>\n'
        "</body>\n</html>\n"
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m checker.reference`` prints the Markdown; ``--html`` the page."""
    args = sys.argv[1:] if argv is None else argv
    if args == []:
        sys.stdout.write(markdown())
        return 0
    if args == ["--html"]:
        sys.stdout.write(html_page())
        return 0
    print("usage: python -m checker.reference [--html]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
