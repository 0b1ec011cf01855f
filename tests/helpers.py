"""Test helpers: positions and turns from short descriptions.

``build`` makes a *consistent* position from a sparse board, filling in the
counters RULES §2 ties together (reserve from the stones on the board, raises
from the tier sum, Echo-Lock use from the locks, half_moves from the Shapes
made), unless a test gives them:

>>> pos = build({"c3": "1A", "d4": "2B*"}, to_move="A")
>>> pos.player("A").reserve, pos.player("B").echo_lock_used, pos.half_moves
(6, True, 4)
"""

from __future__ import annotations

from checker import board
from checker.notation import parse_hpn, parse_htn
from checker.position import PlayerState, Position

# The rule ids of RULES.md, written out from its text (not read from the catalogue,
# which the tests check against them): those ``check`` reports for a turn, in
# turn order, and the position.* conditions of D-3.
TURN_RULES = (
    "game.over",
    "project.skip",
    "place.reserve",
    "place.empty",
    "place.unlocked",
    "place.opening-restriction",
    "place.cooldown",
    "move.reserve-empty",
    "move.own-stone",
    "move.adjacent",
    "move.destination",
    "shape.range",
    "shape.unlocked",
    "shape.tier-limit",
    "shape.lowering-budget",
    "shape.mandate",
    "shape.skipped",
    "echo.charge",
    "echo-capture.enemy",
    "echo-capture.sealed",
    "echo-capture.tier",
    "echo-capture.contact",
    "echo-lock.once",
    "echo-lock.own-stone",
    "echo-lock.tier",
    "echo-lock.unlocked",
)
POSITION_RULES = (
    "position.range",
    "position.stone-count",
    "position.tier",
    "position.lock-tier",
    "position.lock-count",
    "position.lock-charges",
    "position.unplaced",
    "position.cooldown",
    "position.to-move",
    "position.shape-count",
    "position.tier-sum",
)

START_HPN = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"


def P(hpn: str) -> Position:
    """A position from HPN."""
    return parse_hpn(hpn)


def T(htn: str):
    """A turn from HTN."""
    return parse_htn(htn)


def C(name: str) -> int:
    """A cell from its name."""
    return board.parse_cell(name)


def build(
    cells: dict[str, str] | None = None,
    to_move: str = "A",
    half_moves: int | None = None,
    A: dict | None = None,
    B: dict | None = None,
    check: bool = True,
) -> Position:
    """A position from ``{"c3": "1A", "d4": "2B*", "e5": "2"}`` (tier digit,
    optional stone, optional ``*`` lock).  Player fields given in ``A`` / ``B``
    win; the rest are derived so the position is consistent.  With
    ``check=True`` (default) the result must have no D-3 problem."""
    tiers = [0] * board.CELL_COUNT
    stones: list[str | None] = [None] * board.CELL_COUNT
    locked = [False] * board.CELL_COUNT
    for name, text in (cells or {}).items():
        c = C(name)
        tiers[c] = int(text[0])
        stones[c] = next((ch for ch in text[1:] if ch in "AB"), None)
        locked[c] = "*" in text
    given = {"A": dict(A or {}), "B": dict(B or {})}
    fields: dict[str, dict] = {}
    lockers = [stones[c] or "A" for c in board.CELLS if locked[c]]
    if len(lockers) == 2 and lockers[0] == lockers[1]:
        lockers = ["A", "B"]
    for who in ("A", "B"):
        f = dict(given[who])
        on_board = stones.count(who)
        f.setdefault("reserve", 7 - on_board)
        f.setdefault("echo_lock_used", who in lockers)
        f.setdefault("charges", 2 if f["echo_lock_used"] else 3)
        f.setdefault("lowers_left", 6)
        f.setdefault("captures", 0)
        f["cooldown"] = frozenset(C(n) if isinstance(n, str) else n for n in f.get("cooldown", ()))
        fields[who] = f
    # raises: whatever the tier sum needs beyond the other player's given raises
    need = sum(tiers) + sum(6 - fields[w]["lowers_left"] for w in ("A", "B"))
    if "raises" not in fields["A"] and "raises" not in fields["B"]:
        fields["A"]["raises"] = need - need // 2
        fields["B"]["raises"] = need // 2
    elif "raises" not in fields["A"]:
        fields["A"]["raises"] = max(0, need - fields["B"]["raises"])
    elif "raises" not in fields["B"]:
        fields["B"]["raises"] = max(0, need - fields["A"]["raises"])
    if half_moves is None:
        shapes = {w: fields[w]["raises"] + 6 - fields[w]["lowers_left"] for w in ("A", "B")}
        played = {
            w: max(
                shapes[w],
                7 - fields[w]["reserve"] if stones.count(w) else 0,
                1 if fields[w].get("placed") or stones.count(w) else 0,
            )
            for w in ("A", "B")
        }
        # A has had ceil(h/2) turns, B floor(h/2)
        h = max(2 * played["A"] - 1, 2 * played["B"], 0)
        if (h % 2 == 0) != (to_move == "A"):
            h += 1
        half_moves = h
    for who in ("A", "B"):
        f = fields[who]
        f.setdefault(
            "placed",
            stones.count(who) > 0
            or (who == "A" and half_moves > 0 and f["reserve"] < 7)
            or f["raises"] > 0
            or f["lowers_left"] < 6
            or f["captures"] > 0
            or bool(f["cooldown"])
            or f["echo_lock_used"]
            or f["reserve"] < 7,
        )
    pos = Position(tiers, stones, locked, to_move, half_moves, {w: PlayerState(**fields[w]) for w in ("A", "B")})
    if check:
        problems = pos.problems()
        assert not problems, f"build() made an inconsistent position: {problems}"
    return pos
