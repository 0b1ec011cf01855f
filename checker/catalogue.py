"""The rule catalogue: every rule id of RULES §9, as data, in one place.

Each :class:`RuleEntry` has its id, the step it belongs to, a title, the
rule's text, its ``more`` link, and whether it is a published rule or a
decided reading (with its D-n).  Verdict messages and the HTTP layer read
titles and links from here.

>>> from checker.catalogue import RULES
>>> RULES["place.opening-restriction"].more
'https://hexodic.com/rules/project'
>>> RULES["project.skip"].decision
'D-4'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RuleEntry", "RULES", "RULE_IDS", "DECISIONS", "LINKS", "STEP_PLACE", "STEP_MOVE",
           "STEP_SHAPE", "STEP_ECHO", "STEP_GAME", "STEP_POSITION"]

STEP_PLACE = "Step 1/2: Place"
STEP_MOVE = "Step 1/2: Move"
STEP_SHAPE = "Step 2/2: Shape"
STEP_ECHO = "Step 3: Echo (optional)"
STEP_GAME = "Before the turn"
STEP_POSITION = "Position"

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

# The decided readings of RULES.md (and of docs/rules.md for any the project adds).
DECISIONS = {
    "D-1": "The board is the hexagon of side 4; cells a1 … g7 with |row − column| ≤ 3; the centre is d4.",
    "D-2": "The players are A and B; A moves first.",
    "D-3": "An inconsistent position is rejected as bad input, with every broken position.* condition listed.",
    "D-4": "The cooldown skip applies only when some Place would be legal if the cooldown were ignored; "
           "the skip is declared explicitly.",
    "D-5": "On a skipped turn the Echo is still available.",
    "D-6": "A Shape may target a cell holding any stone, the mover's own or an enemy's, or no stone.",
    "D-7": "When the Project is skipped the Shape is skipped too; a Shape given anyway fails shape.skipped.",
    "D-8": "An Echo-Capture whose preconditions hold is legal even when its check captures nothing; "
           "the charge is spent.",
    "D-9": "An Echo-Lock target must not already be locked.",
    "D-10": "The Echo-Capture check runs after the normal check on the group of the target, enemy "
            "neighbours counting like edge.",
    "D-11": "The end-of-game checks run in the order Takeover, Network, Strangle, repetition, threefold, "
            "half-move cap.",
    "D-12": "Only the mover's Takeover and Network are checked at the end of a turn.",
    "D-13": "A position whose player who just moved has a Network is over.",
    "D-14": "Every violation is reported at once; each declared step's physical effect is applied where it can be.",
    "D-15": "The step label follows the mover's reserve: Step 1/2: Place with stones in reserve, "
            "Step 1/2: Move with an empty reserve.",
}


@dataclass(frozen=True, slots=True)
class RuleEntry:
    id: str
    step: str
    title: str
    text: str
    more: str
    source: str = "rule"          # "rule" or "decided"
    decision: str | None = None   # the D-n of a decided reading


def _r(id_, step, title, text, link, decision=None):
    return RuleEntry(id_, step, title, text, LINKS[link],
                     "decided" if decision else "rule", decision)


_ENTRIES = [
    _r("game.over", STEP_GAME, "The game is not over",
       "A position in which the game is already over (Takeover, Network of the player who just moved, "
       "Strangle of the player to move, or the half-move cap) accepts no turn.", "game-end"),
    _r("project.skip", STEP_PLACE, "Cooldown skip",
       "If the capture cooldown leaves the mover no legal Place, the Project and the Shape are skipped "
       "for that turn and the cooldown clears. The skip is declared, and is declared exactly when it applies; "
       "it applies only when some Place would be legal if the cooldown were ignored.", "project", "D-4"),
    _r("place.reserve", STEP_PLACE, "A stone in reserve",
       "A Place puts one reserve stone on the board: the mover needs at least one stone in reserve.", "project"),
    _r("place.empty", STEP_PLACE, "Place on an empty cell",
       "A Place puts the stone on a cell that holds no stone.", "project"),
    _r("place.unlocked", STEP_PLACE, "Place on an unlocked cell",
       "A locked cell can never be Placed onto.", "project"),
    _r("place.opening-restriction", STEP_PLACE, "Opening restriction",
       "A player's first Place of the game must be at least 1 step from the centre cell (not on d4). "
       "It never applies again after that first Place.", "project"),
    _r("place.cooldown", STEP_PLACE, "Capture cooldown",
       "After a player's stone is captured, that player's next Place must be at least 2 steps from every "
       "cell where their stones were captured.", "project"),
    _r("move.reserve-empty", STEP_MOVE, "Move only with an empty reserve",
       "A Move is only available when the mover's reserve is empty; while any stone is in reserve the "
       "Project must be a Place.", "project"),
    _r("move.own-stone", STEP_MOVE, "Move one of your own stones",
       "The from-cell holds the mover's stone.", "project"),
    _r("move.adjacent", STEP_MOVE, "Move to a neighbouring cell",
       "A Move steps the stone to one of the six neighbours of its cell.", "project"),
    _r("move.destination", STEP_MOVE, "Move destination",
       "The to-cell is empty, or holds an enemy stone on a tier strictly lower than the from-cell's tier, "
       "which is then captured (Move capture). Never a cell holding the mover's own stone. A Move onto a "
       "locked cell is legal.", "project"),
    _r("shape.range", STEP_SHAPE, "Shape within 2 steps",
       "The Shaped cell is at most 2 steps from the landing cell (the landing cell itself may be Shaped).",
       "shape"),
    _r("shape.unlocked", STEP_SHAPE, "Shape an unlocked cell",
       "A locked cell can never be Shaped.", "shape"),
    _r("shape.tier-limit", STEP_SHAPE, "Tier limits",
       "A raise needs tier 0 or 1; a lower needs tier 1 or 2.", "shape"),
    _r("shape.lowering-budget", STEP_SHAPE, "Lowering budget",
       "Each player may lower a cell 6 times in a game: a lower needs at least 1 lower left and uses one. "
       "Raises are not budgeted.", "shape"),
    _r("shape.mandate", STEP_SHAPE, "Shape mandate",
       "The Shape may be left out only when no legal Shape targets a cell that is not occupied by the "
       "mover's own stone.", "shape"),
    _r("shape.skipped", STEP_SHAPE, "No Shape on a skipped turn",
       "When the Project is skipped by the capture cooldown, the Shape is skipped too; a Shape given "
       "anyway is illegal.", "shape", "D-7"),
    _r("echo.charge", STEP_ECHO, "An Echo spends a charge",
       "An Echo spends one of the mover's charges and needs at least one. Charges never come back.", "echo"),
    _r("echo-capture.enemy", STEP_ECHO, "Echo-Capture targets an enemy stone",
       "The Echo-Capture target holds an enemy stone.", "echo-capture"),
    _r("echo-capture.sealed", STEP_ECHO, "Echo-Capture target is sealed",
       "The Echo-Capture target has no empty neighbouring cell.", "echo-capture"),
    _r("echo-capture.tier", STEP_ECHO, "Echo-Capture target on tier 1 or 2",
       "The Echo-Capture target stands on tier 1 or 2.", "echo-capture"),
    _r("echo-capture.contact", STEP_ECHO, "Echo-Capture needs contact",
       "At least one of the mover's stones is adjacent to the Echo-Capture target.", "echo-capture"),
    _r("echo-lock.once", STEP_ECHO, "One Echo-Lock per game",
       "Each player may Echo-Lock once per game.", "lock"),
    _r("echo-lock.own-stone", STEP_ECHO, "Echo-Lock your own stone's cell",
       "The Echo-Lock target holds the mover's own stone.", "lock"),
    _r("echo-lock.tier", STEP_ECHO, "Echo-Lock a tier-2 cell",
       "The Echo-Lock target is a tier-2 cell.", "lock"),
    _r("echo-lock.unlocked", STEP_ECHO, "Echo-Lock an unlocked cell",
       "The Echo-Lock target is not already locked.", "lock", "D-9"),
    _r("position.range", STEP_POSITION, "Counters in range",
       "reserve 0–7, charges 0–3, lowers_left 0–6, half_moves 0–60, captures and raises 0 or more.",
       "glossary", "D-3"),
    _r("position.stone-count", STEP_POSITION, "Seven stones each",
       "For each player, stones on the board + reserve = 7.", "glossary", "D-3"),
    _r("position.tier", STEP_POSITION, "Tiers 0–2", "Every tier is 0, 1 or 2.", "glossary", "D-3"),
    _r("position.lock-tier", STEP_POSITION, "Locked cells are tier 2",
       "Every locked cell is tier 2.", "glossary", "D-3"),
    _r("position.lock-count", STEP_POSITION, "One lock per Echo-Lock",
       "The number of locked cells equals the number of players who have used the Echo-Lock.",
       "glossary", "D-3"),
    _r("position.lock-charges", STEP_POSITION, "An Echo-Lock spent a charge",
       "A player who has used the Echo-Lock has at most 2 charges.", "glossary", "D-3"),
    _r("position.unplaced", STEP_POSITION, "Before the first Place",
       "A player who has not made their first Place has no stone on the board, 7 in reserve, 3 charges, "
       "6 lowers left, 0 raises, 0 captures, an empty cooldown and no Echo-Lock; a player who has not had "
       "a turn yet has not made their first Place.", "glossary", "D-3"),
    _r("position.cooldown", STEP_POSITION, "Who may have a cooldown",
       "Only the player to move may have a non-empty capture cooldown, and only with a stone in reserve.",
       "glossary", "D-3"),
    _r("position.to-move", STEP_POSITION, "Whose turn",
       "A is to move when half_moves is even, B when it is odd.", "glossary", "D-3"),
    _r("position.shape-count", STEP_POSITION, "One Shape a turn",
       "Each player's raises + lowers used is at most the number of turns that player has had.",
       "glossary", "D-3"),
    _r("position.tier-sum", STEP_POSITION, "Tiers come from Shapes",
       "The tiers of all cells add up to both players' raises minus the lowers both have used.",
       "glossary", "D-3"),
]

RULES: dict[str, RuleEntry] = {e.id: e for e in _ENTRIES}
RULE_IDS: tuple[str, ...] = tuple(RULES)
