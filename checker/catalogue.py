"""The catalogue: the text the checker judges by, as data, in one place.

Every rule id a check names (:data:`RULES`), every kind of capture
(:data:`CAPTURES`), every end-of-game reason (:data:`ENDINGS`) and every
decided reading D-n (:data:`DECISIONS`) is one :class:`RuleEntry`: its id,
where it belongs, a title, its full text, the ``more`` link to the published
page, whether it is a published rule or a decided reading, and its kind.
Verdict messages, the rules reference (:mod:`checker.reference`, which
writes ``docs/rules.md`` and the ``/rules`` page), ``GET /v1/rules`` and
``hexodic-check rules`` all read it from here.

>>> from checker.catalogue import RULES, DECISIONS, ENTRIES, rule_url
>>> RULES["place.opening-restriction"].more
'https://hexodic.com/rules/project'
>>> RULES["project.skip"].decision
'D-4'
>>> DECISIONS["D-10"].title
'The Echo-Capture check weighs the group'
>>> ENTRIES["end.tiebreak"].kind
<Kind.END: 'end'>
>>> rule_url("place.cooldown")
'/rules#place.cooldown'

Texts are plain sentences, ready for a terminal, a JSON answer or a page;
the reference links the ids and D-n they name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "Kind",
    "RuleEntry",
    "RULES",
    "RULE_IDS",
    "CAPTURES",
    "ENDINGS",
    "DECISIONS",
    "ENTRIES",
    "LINKS",
    "REFERENCE_PATH",
    "rule_url",
    "capture_entry",
    "end_entry",
    "STEP_PLACE",
    "STEP_MOVE",
    "STEP_SHAPE",
    "STEP_ECHO",
    "STEP_GAME",
    "STEP_POSITION",
    "STEP_CAPTURE",
    "STEP_END",
    "STEP_DECISION",
]

STEP_PLACE = "Step 1/2: Place"
STEP_MOVE = "Step 1/2: Move"
STEP_SHAPE = "Step 2/2: Shape"
STEP_ECHO = "Step 3: Echo (optional)"
STEP_GAME = "Before the turn"
STEP_POSITION = "Position"
# Where the entries that are not checks belong (no step of the turn).
STEP_CAPTURE = "Capture check"
STEP_END = "End of the game"
STEP_DECISION = "Decided reading"

_SITE = "https://hexodic.com"
LINKS = {
    "game-end": f"{_SITE}/rules/game-end",
    "project": f"{_SITE}/rules/project",
    "shape": f"{_SITE}/rules/shape",
    "echo": f"{_SITE}/rules/echo",
    "echo-capture": f"{_SITE}/rules/echo-capture",
    "lock": f"{_SITE}/rules/lock",
    "glossary": f"{_SITE}/glossary",
    "capture": f"{_SITE}/rules/capture",
    "network": f"{_SITE}/rules/network",
    "takeover": f"{_SITE}/rules/takeover",
    "strangle": f"{_SITE}/rules/strangle",
}

REFERENCE_PATH = "/rules"
"""Where the service serves the rules reference (one HTML page)."""


class Kind(StrEnum):
    """What a catalogue entry is."""

    RULE = "rule"  # a rule id that a check of a verdict names
    CAPTURE = "capture"  # a kind of capture (a capture event's kind, a weighing's check)
    END = "end"  # an end-of-game reason (a game result's reason)
    DECISION = "decision"  # a decided reading D-n


@dataclass(frozen=True, slots=True)
class RuleEntry:
    id: str
    step: str
    title: str
    text: str
    more: str
    source: str = "rule"  # "rule" or "decided"
    decision: str | None = None  # the D-n of a decided reading
    kind: Kind = Kind.RULE

    @property
    def anchor(self) -> str:
        """The entry's anchor on the ``/rules`` page (and in ``docs/rules.md``)."""
        return self.id

    @property
    def rule_url(self) -> str:
        """The service's own text of the entry: ``/rules#<id>``."""
        return f"{REFERENCE_PATH}#{self.id}"


def rule_url(entry_id: str) -> str:
    """``/rules#<id>`` for any catalogue id; ``KeyError`` for an unknown one."""
    return ENTRIES[entry_id].rule_url


def _r(
    id_: str, step: str, title: str, text: str, link: str, decision: str | None = None, kind: Kind = Kind.RULE
) -> RuleEntry:  # pragma: no mutate block (run only at import: docs/testing.md)
    return RuleEntry(id_, step, title, text, LINKS[link], "decided" if decision else "rule", decision, kind)


# ------------------------------------------------------------ rule ids ------
# In turn order; the position.* conditions of D-3 last.

_RULE_ENTRIES = [
    _r(
        "game.over",
        STEP_GAME,
        "The game is not over",
        "A position in which the game is already over accepts no turn: every turn played from it fails "
        "game.over, and the message names the reason. The reasons are looked for in this order: "
        "takeover (a player has captured 6 or more enemy stones), network (the player who just moved, "
        "once half_moves is 1 or more, has a Network; D-13), strangle (the player to move has no legal "
        "Project) and tiebreak (half_moves is 60). A repetition or a threefold is judged only for the "
        "turn being checked, never for the position it is played from. The other checks of the turn are "
        "still judged and reported (D-14).",
        "game-end",
    ),
    _r(
        "project.skip",
        STEP_PLACE,
        "Cooldown skip",
        "If the mover's capture cooldown leaves no cell the mover may Place on, the Project and the Shape "
        "are skipped for that turn and the cooldown clears. The skip applies only when some Place would be "
        "legal if the cooldown were ignored (D-4), and it is declared (skip): this check fails when a "
        "skip is declared that does not apply, and when a Place or a Move is declared while the skip "
        "applies (that Place also fails the Place rule that excludes it; that Move fails "
        "move.reserve-empty). The Echo is still available on a skipped turn (D-5).",
        "project",
        "D-4",
    ),
    _r(
        "place.reserve",
        STEP_PLACE,
        "A stone in reserve",
        "A Place puts one of the mover's reserve stones on the board, so the mover needs at least one "
        "stone in reserve.",
        "project",
    ),
    _r(
        "place.empty",
        STEP_PLACE,
        "Place on an empty cell",
        "The cell of a Place holds no stone, neither the mover's nor the opponent's.",
        "project",
    ),
    _r(
        "place.unlocked",
        STEP_PLACE,
        "Place on an unlocked cell",
        "The cell of a Place is not locked: a locked cell can never be Placed onto.",
        "project",
    ),
    _r(
        "place.opening-restriction",
        STEP_PLACE,
        "Opening restriction",
        "A player's first Place of the game must be at least 1 step from the centre, that is, not on d4. "
        "The restriction never applies again once that player has made their first Place.",
        "project",
    ),
    _r(
        "place.cooldown",
        STEP_PLACE,
        "Capture cooldown",
        "While the mover's capture cooldown is not empty (the cells where the mover's stones were captured "
        "since the mover's last Place), the Place must be at least 2 steps from every cell in it. A Place "
        "clears the mover's cooldown.",
        "project",
    ),
    _r(
        "move.reserve-empty",
        STEP_MOVE,
        "Move only with an empty reserve",
        "A Move is available only once the mover's reserve is empty; while any stone is in reserve the "
        "Project must be a Place.",
        "project",
    ),
    _r(
        "move.own-stone",
        STEP_MOVE,
        "Move one of the mover's own stones",
        "The from-cell of a Move holds one of the mover's stones.",
        "project",
    ),
    _r(
        "move.adjacent",
        STEP_MOVE,
        "Move to a neighbouring cell",
        "A Move steps the stone to one of the six neighbours of its cell (1 step).",
        "project",
    ),
    _r(
        "move.destination",
        STEP_MOVE,
        "Move destination",
        "The to-cell of a Move is empty, or holds an enemy stone on a tier strictly lower than the "
        "from-cell's tier; that enemy stone is then captured (Move capture). A Move never enters a cell "
        "holding one of the mover's own stones. A locked to-cell is allowed: a Move onto a locked cell is "
        "legal.",
        "project",
    ),
    _r(
        "shape.range",
        STEP_SHAPE,
        "Shape within 2 steps",
        "The Shaped cell is at most 2 steps from the landing cell; the landing cell itself (0 steps) may be Shaped.",
        "shape",
    ),
    _r(
        "shape.unlocked",
        STEP_SHAPE,
        "Shape an unlocked cell",
        "The Shaped cell is not locked: a locked cell can never be Shaped.",
        "shape",
    ),
    _r(
        "shape.tier-limit",
        STEP_SHAPE,
        "Tier limits",
        "A Shape changes a tier by one and keeps it within 0–2: a raise needs tier 0 or 1, a lower needs tier 1 or 2.",
        "shape",
    ),
    _r(
        "shape.lowering-budget",
        STEP_SHAPE,
        "Lowering budget",
        "Each player may lower a cell 6 times in a game: a lower needs lowers_left of at least 1 and uses "
        "one. Raises are not budgeted; each raise adds 1 to the mover's raises.",
        "shape",
    ),
    _r(
        "shape.mandate",
        STEP_SHAPE,
        "Shape mandate",
        "The Shape may be left out only when no legal Shape (within 2 steps of the landing cell, unlocked, "
        "within the tier limits and the lowering budget) targets a cell that is not occupied by the mover's "
        "own stone. Not judged on a declared skip.",
        "shape",
    ),
    _r(
        "shape.skipped",
        STEP_SHAPE,
        "No Shape on a skipped turn",
        "When the Project is skipped by the capture cooldown, the Shape is skipped too; a Shape given "
        "anyway fails this check. On a declared skip no other Shape rule and no shape.mandate is judged, "
        "because there is no landing cell.",
        "shape",
        "D-7",
    ),
    _r(
        "echo.charge",
        STEP_ECHO,
        "An Echo spends a charge",
        "An Echo (an Echo-Capture or an Echo-Lock) spends one of the mover's charges, so it needs at least "
        "one. Each player has 3 charges for the whole game; charges never come back.",
        "echo",
    ),
    _r(
        "echo-capture.enemy",
        STEP_ECHO,
        "Echo-Capture targets an enemy stone",
        "The target of an Echo-Capture holds an enemy stone.",
        "echo-capture",
    ),
    _r(
        "echo-capture.sealed",
        STEP_ECHO,
        "Echo-Capture target is sealed",
        "The target of an Echo-Capture has no empty neighbouring cell.",
        "echo-capture",
    ),
    _r(
        "echo-capture.tier",
        STEP_ECHO,
        "Echo-Capture target on tier 1 or 2",
        "The target of an Echo-Capture stands on tier 1 or 2.",
        "echo-capture",
    ),
    _r(
        "echo-capture.contact",
        STEP_ECHO,
        "Echo-Capture needs contact",
        "At least one of the mover's stones is adjacent to the target of an Echo-Capture.",
        "echo-capture",
    ),
    _r(
        "echo-lock.once",
        STEP_ECHO,
        "One Echo-Lock per game",
        "Each player may Echo-Lock once per game: the mover has not used the Echo-Lock before "
        "(echo_lock_used is false).",
        "lock",
    ),
    _r(
        "echo-lock.own-stone",
        STEP_ECHO,
        "Echo-Lock a cell of the mover's own stone",
        "The target of an Echo-Lock holds one of the mover's own stones.",
        "lock",
    ),
    _r("echo-lock.tier", STEP_ECHO, "Echo-Lock a tier-2 cell", "The target of an Echo-Lock is a tier-2 cell.", "lock"),
    _r(
        "echo-lock.unlocked",
        STEP_ECHO,
        "Echo-Lock an unlocked cell",
        "The target of an Echo-Lock is not already locked.",
        "lock",
        "D-9",
    ),
    _r(
        "position.range",
        STEP_POSITION,
        "Counters in range",
        "Each player's reserve is 0–7, charges 0–3 and lowers_left 0–6; captures and raises are 0 "
        "or more; half_moves is 0–60.",
        "glossary",
        "D-3",
    ),
    _r(
        "position.stone-count",
        STEP_POSITION,
        "Seven stones each",
        "For each player, the stones on the board plus the reserve make 7.",
        "glossary",
        "D-3",
    ),
    _r("position.tier", STEP_POSITION, "Tiers 0–2", "Every cell's tier is 0, 1 or 2.", "glossary", "D-3"),
    _r(
        "position.lock-tier",
        STEP_POSITION,
        "Locked cells are tier 2",
        "Every locked cell is tier 2 (only a tier-2 cell can be Echo-Locked, and a locked cell is never Shaped).",
        "glossary",
        "D-3",
    ),
    _r(
        "position.lock-count",
        STEP_POSITION,
        "One lock per Echo-Lock",
        "The number of locked cells equals the number of players with echo_lock_used (each Echo-Lock "
        "locks exactly one cell, once per player).",
        "glossary",
        "D-3",
    ),
    _r(
        "position.lock-charges",
        STEP_POSITION,
        "An Echo-Lock spent a charge",
        "A player with echo_lock_used has at most 2 charges (the Echo-Lock spent one of the 3).",
        "glossary",
        "D-3",
    ),
    _r(
        "position.unplaced",
        STEP_POSITION,
        "Before the first Place",
        "A player whose placed is false has no stone on the board, 7 in reserve, 3 charges, 6 lowers "
        "left, 0 raises, 0 captures, an empty cooldown and no Echo-Lock; and a player who has not had a "
        "turn yet has placed false.",
        "glossary",
        "D-3",
    ),
    _r(
        "position.cooldown",
        STEP_POSITION,
        "Who may have a cooldown",
        "Only the player to move may have a non-empty capture cooldown, and only with at least one stone in "
        "reserve (a captured stone returns to the reserve).",
        "glossary",
        "D-3",
    ),
    _r(
        "position.to-move",
        STEP_POSITION,
        "Whose turn",
        "A is to move when half_moves is even, B when it is odd.",
        "glossary",
        "D-3",
    ),
    _r(
        "position.shape-count",
        STEP_POSITION,
        "One Shape a turn",
        "Each player's raises plus lowers used (6 − lowers_left) is at most the number of turns that "
        "player has had (A has had half of half_moves rounded up, B half rounded down).",
        "glossary",
        "D-3",
    ),
    _r(
        "position.tier-sum",
        STEP_POSITION,
        "Tiers come from Shapes",
        "The tiers of all cells add up to both players' raises minus the lowers both have used (a Shape is "
        "the only thing that changes a tier).",
        "glossary",
        "D-3",
    ),
]

# ----------------------------------------------------------- captures ------

_CAPTURE_ENTRIES = [
    _r(
        "capture.move",
        STEP_CAPTURE,
        "Move capture",
        "During the Project, before the Shape: a Move onto an enemy stone standing on a tier strictly lower "
        "than the from-cell's captures that stone (see move.destination). Only possible with an empty "
        "reserve, since only then is a Move allowed.",
        "capture",
        kind=Kind.CAPTURE,
    ),
    _r(
        "capture.encirclement",
        STEP_CAPTURE,
        "Encirclement (the normal capture check)",
        "After the Echo step, every stone of the opponent is weighed; the mover's own stones are never "
        "captured on the mover's turn. An opponent stone on tier t is captured when all of these hold: "
        "t is 1 or more; each of its six slots is edge or holds one of the mover's stones; and "
        "the sum of the tiers of the neighbouring mover's stones + (t + 1) × edge slots > 6 × t. "
        "Every stone that passes is captured at the same time. An empty neighbouring cell, or a "
        "neighbouring stone of the opponent, saves the stone.",
        "capture",
        kind=Kind.CAPTURE,
    ),
    _r(
        "capture.echo",
        STEP_CAPTURE,
        "The Echo-Capture check",
        "Run by a legal Echo-Capture, after the normal check and on the board it left (D-10). The group is "
        "the target and every opponent stone connected to it through adjacent opponent stones. Every member "
        "of the group on tier t of 1 or more with no empty neighbouring cell is weighed with opponent "
        "neighbours counting like edge: the sum of the tiers of the neighbouring mover's stones + "
        "(t + 1) × (edge slots + opponent-stone slots) > 6 × t. Every member that passes is captured at the "
        "same time. If the normal check already captured the target, the Echo-Capture captures nothing; an "
        "Echo-Capture that captures nothing is still legal and its charge is spent (D-8).",
        "capture",
        "D-10",
        kind=Kind.CAPTURE,
    ),
]

# --------------------------------------------------------- end of game ------

_END_ENTRIES = [
    _r(
        "end.takeover",
        STEP_END,
        "Takeover",
        "Checked first (D-11): the mover has now captured 6 or more enemy stones in the game, by any kind of "
        "capture. The mover wins.",
        "takeover",
        kind=Kind.END,
    ),
    _r(
        "end.network",
        STEP_END,
        "Network",
        "Checked second: 5 or more of the mover's stones stand on tier-2 cells and form one connected group, "
        "connected through adjacent stones of the mover that are themselves on tier 2. One such group of 5 "
        "or more is enough, whatever other tier-2 stones stand elsewhere; locks do not matter. The mover "
        "wins. Only the mover's Takeover and Network are checked at the end of a turn (D-12).",
        "network",
        kind=Kind.END,
    ),
    _r(
        "end.strangle",
        STEP_END,
        "Strangle",
        "Checked third: the opponent, about to begin their turn, has no legal Project at all. With stones "
        "in reserve that means no cell they may Place on and no cooldown skip; with an empty reserve, no "
        "legal Move. The mover wins.",
        "strangle",
        kind=Kind.END,
    ),
    _r(
        "end.repetition",
        STEP_END,
        "Repetition loss",
        "Checked fourth: the turn recreates a position that occurred earlier in the game (the start "
        "position included). The mover loses. A turn whose Project was skipped by the capture cooldown is "
        "exempt. Positions are compared by their repetition key: the stones, tiers and locks, each "
        "player's reserve, charges, captures, raises, lowers left, placed and echo_lock_used, and the "
        "player to move; the key leaves out the cooldowns and the half-move count. Judged only when the "
        "request carries the game's earlier positions (history).",
        "game-end",
        kind=Kind.END,
    ),
    _r(
        "end.threefold",
        STEP_END,
        "Threefold draw",
        "Checked fifth: the same repetition key, with the same player to move, has now occurred three times "
        "in the game. A draw. Judged only with a history, like the repetition loss.",
        "game-end",
        kind=Kind.END,
    ),
    _r(
        "end.tiebreak",
        STEP_END,
        "Half-move cap and tiebreak",
        "Checked last: the turn was half-move 60 and nothing above ended the game. The tiebreak decides, "
        "level by level: more of the player's stones on unlocked tier-2 cells; then the higher sum of the "
        "tiers under the player's stones; then more captures; then more raises. The first level on which "
        "the players differ decides; level on all four, the game is a draw (result draw, reason "
        "tiebreak).",
        "game-end",
        kind=Kind.END,
    ),
]

# ----------------------------------------------------- decided readings ------

_DECISION_ENTRIES = [
    (
        "D-1",
        "The board and the cell names",
        "glossary",
        "The board is the hexagon of side 4: the 37 cells at most 3 steps from the centre. A cell is named "
        "like an Abalone square, by a row letter a–g and a column digit 1–7; the name is valid when "
        "|row − column| ≤ 3, rows counted a = 1 … g = 7. Row a holds a1–a4, b holds b1–b5, c holds c1–c6, d "
        "holds d1–d7, e holds e2–e7, f holds f3–f7 and g holds g4–g7. The centre is d4.",
    ),
    ("D-2", "The players", "glossary", "The players are called A and B, and A moves first."),
    (
        "D-3",
        "Inconsistent positions are bad input",
        "glossary",
        "A position that breaks a consistency condition is refused as bad input, and every broken "
        "condition is listed, each under its id: position.range, position.stone-count, "
        "position.tier, position.lock-tier, position.lock-count, position.lock-charges, "
        "position.unplaced, position.cooldown, position.to-move, position.shape-count and "
        "position.tier-sum.",
    ),
    (
        "D-4",
        "When the cooldown skip applies, and that it is declared",
        "project",
        "The cooldown skip applies only when some Place would be legal if the cooldown were ignored; if no "
        "Place is legal even then, the player has no legal Project (Strangle). In a consistent position "
        "with stones in reserve some Place is always legal ignoring the cooldown (at least 22 cells are "
        "empty and unlocked), so Strangle needs an empty reserve. The skip is declared explicitly, and "
        "project.skip judges it: it fails when a skip is declared but does not apply, and when a Place or "
        "a Move is declared while the skip applies.",
    ),
    (
        "D-5",
        "The Echo on a skipped turn",
        "echo",
        "On a turn whose Project is skipped by the capture cooldown, the Echo is still available.",
    ),
    (
        "D-6",
        "A Shape may target an occupied cell",
        "shape",
        "A Shape may target a cell holding any stone, the mover's own or an enemy's, as well as an empty cell.",
    ),
    (
        "D-7",
        "No Shape on a skipped turn",
        "shape",
        "When the Project is skipped, the Shape is skipped too, and a Shape given anyway fails "
        "shape.skipped. On a declared skip no other Shape rule and no shape.mandate is judged (there is "
        "no landing cell).",
    ),
    (
        "D-8",
        "An Echo-Capture that captures nothing",
        "echo-capture",
        "An Echo-Capture whose preconditions hold is legal even when its capture check then captures "
        "nothing; the charge is spent. The explanation says so and shows the weighing.",
    ),
    (
        "D-9",
        "An Echo-Lock target must be unlocked",
        "lock",
        "The target of an Echo-Lock must not already be locked (echo-lock.unlocked).",
    ),
    (
        "D-10",
        "The Echo-Capture check weighs the group",
        "echo-capture",
        "The Echo-Capture check runs after the normal check, on the board it left. The group is the target "
        "and every opponent stone connected to it through adjacent opponent stones. Every group member on "
        "tier t ≥ 1 with no empty neighbouring cell is weighed with opponent neighbours counting like edge: "
        "the sum of the tiers of the neighbouring mover's stones + (t + 1) × (edge slots + opponent-stone "
        "slots) > 6 × t. All members that pass are captured at once. If the normal check already captured "
        "the target, the Echo-Capture captures nothing.",
    ),
    (
        "D-11",
        "The order of the end-of-game checks",
        "game-end",
        "After the capture checks, the end of the game is checked in this order, and the first that applies "
        "ends it: Takeover, Network, Strangle, repetition loss, threefold draw, half-move cap (where the "
        "published text gives no order, this is the order decided).",
    ),
    (
        "D-12",
        "Only the mover's Takeover and Network",
        "game-end",
        "At the end of a turn only the mover's Takeover and Network are checked, not the opponent's.",
    ),
    (
        "D-13",
        "A Network of the player who just moved ends the game",
        "game-end",
        "A position is over when the player who just moved (the player not to move, once half_moves is 1 "
        "or more) has a Network in it; a turn played from it fails game.over.",
    ),
    (
        "D-14",
        "Every violation at once",
        "glossary",
        "A verdict reports every violation at once, so later steps are judged even when an earlier step is "
        "illegal. Each declared step's physical effect is applied where it can be: a Place puts the stone "
        "only on an empty cell; a Move moves the stone only when the from-cell holds the mover's stone and "
        "the to-cell does not (removing an enemy stone there, whatever the tiers); a Shape changes the tier "
        "only when the cell is unlocked and within the tier limits (a range or budget failure still changes "
        "it). The landing cell is always the declared cell. When the game is already over, game.over "
        "fails and every other check is still judged and reported.",
    ),
    (
        "D-15",
        "The step label follows the reserve",
        "project",
        'The step label follows the mover\'s reserve, as the published labels do: "Step 1/2: Place" while '
        "the mover has stones in reserve (even for a declared Move, which then fails move.reserve-empty), "
        '"Step 1/2: Move" once the reserve is empty.',
    ),
]

RULES: dict[str, RuleEntry] = {e.id: e for e in _RULE_ENTRIES}
"""Every rule id a check names, in turn order (the position.* ids last)."""
RULE_IDS: tuple[str, ...] = tuple(RULES)
CAPTURES: dict[str, RuleEntry] = {e.id: e for e in _CAPTURE_ENTRIES}
"""The kinds of capture: capture.move, capture.encirclement, capture.echo."""
ENDINGS: dict[str, RuleEntry] = {e.id: e for e in _END_ENTRIES}
"""The end-of-game reasons in the order they are checked (D-11): end.<reason>."""
DECISIONS: dict[str, RuleEntry] = {
    d: RuleEntry(d, STEP_DECISION, title, text, LINKS[link], "decided", d, Kind.DECISION)
    for d, title, link, text in _DECISION_ENTRIES
}
"""The decided readings D-1 … D-15 (the project adds any further one here, D-16 on)."""
ENTRIES: dict[str, RuleEntry] = {**RULES, **CAPTURES, **ENDINGS, **DECISIONS}
"""Every entry: the rule ids, the capture kinds, the end-of-game reasons, the decided readings."""


def capture_entry(kind: str) -> RuleEntry:
    """The entry of a capture kind (move, encirclement, echo)."""
    return CAPTURES[f"capture.{kind}"]


def end_entry(reason: str) -> RuleEntry:
    """The entry of an end-of-game reason (takeover … tiebreak)."""
    return ENDINGS[f"end.{reason}"]
