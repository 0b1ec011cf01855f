"""The end of the game: how a game ended, and the words for it (RULES §8).

:func:`game_over_reason` says why a position accepts no turn (D-13) and :func:`describe_game_over` words it,
:func:`game_status` words a position's state before any turn, :func:`end_of_game` runs the checks after a turn (D-11).

>>> from checker.position import Position
>>> game_over_reason(Position.start()) is None
True
>>> game_status(Position.start()).message
'The game goes on: A is to move (0 of 60 half-moves played).'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from checker import board
from checker.board import Cell, cells, connected
from checker.catalogue import LINKS, end_entry
from checker.position import MAX_HALF_MOVES, Bits, Position, other
from checker.projects import has_legal_project

__all__ = ["EndReason", "TiebreakFigures", "GameResult", "network_group", "game_over_reason", "describe_game_over"]
__all__ += ["game_status", "end_of_game"]

N = board.name


class EndReason(StrEnum):
    """How a game ended (RULES §8).  A ``StrEnum``: equal to, and written as, its string."""

    TAKEOVER = "takeover"
    NETWORK = "network"
    STRANGLE = "strangle"
    REPETITION = "repetition"
    THREEFOLD = "threefold"
    TIEBREAK = "tiebreak"


TAKEOVER, NETWORK, STRANGLE, REPETITION, THREEFOLD, TIEBREAK = EndReason


@dataclass(frozen=True, slots=True)
class TiebreakFigures:
    """A player's four tiebreak figures, in the order they are compared."""

    stones_on_unlocked_tier2: int
    tier_sum: int
    captures: int
    raises: int

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.stones_on_unlocked_tier2, self.tier_sum, self.captures, self.raises)


@dataclass(frozen=True, slots=True)
class GameResult:
    over: bool
    result: str | None  # "A", "B", "draw" or None
    reason: EndReason | None
    message: str
    repetition: str  # "evaluated" or "not_evaluated"
    tiebreak: dict[str, TiebreakFigures] | None = None
    more: str | None = None

    @property
    def rule_url(self) -> str | None:
        """The service's own text of the reason the game ended (``/rules#end.<reason>``); None while it goes on."""
        return None if self.reason is None else end_entry(self.reason).rule_url


NETWORK_STONES = 5
"""A Network is a connected group of at least this many of a player's stones on tier-2 cells."""


def network_group(bits: Bits, who: str) -> list[Cell]:
    """``who``'s Network: the largest connected group of ``who``'s stones on tier-2 cells (cells in board order)
    when it is one, else ``[]``."""
    on2 = bits.stones(who) & bits.tier2
    best = 0
    while on2.bit_count() >= max(best.bit_count() + 1, NETWORK_STONES):
        group = connected(on2 & -on2, on2)
        on2 &= ~group
        if group.bit_count() > best.bit_count():
            best = group
    return list(cells(best)) if best.bit_count() >= NETWORK_STONES else []


def _takeover_winner(pos: Position) -> str:
    return "A" if pos.player("A").captures >= 6 else "B"


def game_over_reason(pos: Position) -> EndReason | None:
    """Why a position accepts no turn, or ``None``: Takeover, Network, Strangle or the half-move cap (D-13)."""
    if pos.player("A").captures >= 6 or pos.player("B").captures >= 6:
        return TAKEOVER
    if pos.half_moves >= 1 and network_group(pos.bits, other(pos.to_move)):
        return NETWORK
    if not has_legal_project(pos):
        return STRANGLE
    if pos.half_moves >= MAX_HALF_MOVES:
        return TIEBREAK
    return None


_TIEBREAK_WORDS = ("stones on unlocked tier-2 cells", "sum of tiers under their stones", "captures", "raises")
_TIEBREAK_WINS = ("more " + _TIEBREAK_WORDS[0], "the higher " + _TIEBREAK_WORDS[1], "more captures", "more raises")
_CAP = f"The half-move cap is reached ({MAX_HALF_MOVES} half-moves)"
# A position alone cannot show how its last turn ended the game: say so whenever it is read alone.
_UNLESS = "unless the game ended otherwise on its last turn (a position alone cannot show a repetition or a threefold)"
_NO_HISTORY = "repetition and threefold were not evaluated: the request has no history"


def _tiebreak(pos: Position) -> tuple[str, str, dict[str, TiebreakFigures]]:
    """The tiebreak's result, its words ("level on …; then A has more captures (5 to 0). A wins.") and figures."""
    figs, bits = {}, pos.bits
    for who, ps in pos.players.items():
        on2 = bits.stones(who) & bits.tier2
        tier_sum = (bits.stones(who) & bits.tier1).bit_count() + 2 * on2.bit_count()
        figs[who] = TiebreakFigures((on2 & ~bits.locked).bit_count(), tier_sum, ps.captures, ps.raises)
    a, b = figs["A"].as_tuple(), figs["B"].as_tuple()
    for i, wins in enumerate(_TIEBREAK_WINS):
        if a[i] != b[i]:
            winner = "A" if a[i] > b[i] else "B"
            level = ", ".join(f"{w} ({a[j]} each)" for j, w in enumerate(_TIEBREAK_WORDS[:i]))
            lead = f"level on {level}; then " if level else ""
            return winner, f"{lead}{winner} has {wins} ({max(a[i], b[i])} to {min(a[i], b[i])}). {winner} wins.", figs
    level = ", ".join(f"{w} {a[j]}" for j, w in enumerate(_TIEBREAK_WORDS))
    return "draw", f"level on every figure ({level} each): a draw.", figs


def _captured_text(who: str, captures: int) -> str:
    return f"{who} has captured {captures} enemy stones"


def _group_text(group: Sequence[Cell]) -> str:
    return f"on tier-2 cells form one connected group ({', '.join(N(c) for c in group)})"


def _no_project_text(pos: Position) -> str:
    who = pos.to_move
    if pos.mover.reserve > 0:
        return f"{who} has {pos.mover.reserve} stones in reserve but no cell they may Place on"
    return f"{who}'s reserve is empty and none of {who}'s stones has a legal Move"


def describe_game_over(pos: Position, reason: EndReason) -> str:
    """Why a position accepts no turn, in words (for ``game.over``)."""
    if reason == TAKEOVER:
        who = _takeover_winner(pos)
        return f"{_captured_text(who, pos.player(who).captures)} (Takeover: 6 or more)"
    if reason == NETWORK:
        who = other(pos.to_move)
        group = network_group(pos.bits, who)
        return f"{who}, who moved last, has a Network: {len(group)} stones {_group_text(group)}"
    if reason == STRANGLE:
        return f"{_no_project_text(pos)} (Strangle)"
    played = f"all {MAX_HALF_MOVES} half-moves have been played (half-move cap)"
    return f"{played}, so {_UNLESS}, the tiebreak decides it: {_tiebreak(pos)[1].rstrip('.')}"


def _earlier(index: int, history: Sequence[Position]) -> str:
    """An earlier position of the game named by its place in the history (0-based)."""
    return f"history[{index}] (half-move {history[index].half_moves})"


@lru_cache(maxsize=1024)
def _going_on(to_move: str, half_moves: int, rep: str, note: str = "") -> GameResult:
    """A game going on: one per player to move, half-move count, repetition flag and note (a replay asks each turn)."""
    message = f"The game goes on: {to_move} is to move ({half_moves} of {MAX_HALF_MOVES} half-moves played).{note}"
    return GameResult(False, None, None, message, rep)


def _over(
    result: str, reason: EndReason, message: str, rep: str, tiebreak: dict[str, TiebreakFigures] | None = None
) -> GameResult:
    """A game over: who won (or ``"draw"``), how, the words, and the rules' page of the reason."""
    return GameResult(True, result, reason, message, rep, tiebreak, LINKS.get(reason, LINKS["game-end"]))


def game_status(pos: Position, history_given: bool = True) -> GameResult:
    """The game's state in ``pos`` before any turn: over (and who won) when it accepts no turn (D-13), else going on."""
    rep = "evaluated" if history_given else "not_evaluated"
    if (reason := game_over_reason(pos)) is None:
        return _going_on(pos.to_move, pos.half_moves, rep)
    if reason == TIEBREAK:
        result, decision, figs = _tiebreak(pos)
        return _over(result, reason, f"{_CAP}: {_UNLESS}, the tiebreak decides: {decision}", rep, figs)
    # Takeover: whoever has 6 captures; Network and Strangle: the player who just moved
    result = _takeover_winner(pos) if reason == TAKEOVER else other(pos.to_move)
    return _over(result, reason, f"The game is over: {describe_game_over(pos, reason)}. {result} wins.", rep)


class History(list[Position]):
    """A game's earlier positions, oldest first (a list), with their repetition keys indexed as they are appended:
    :func:`end_of_game` finds earlier occurrences without going through the list (a replay appends every position)."""

    def __init__(self, positions: Iterable[Position] = ()) -> None:
        super().__init__()
        self._at: dict[tuple[object, ...], list[int]] = {}
        for position in positions:
            self.append(position)

    def append(self, position: Position) -> None:
        self._at.setdefault(position.key(), []).append(len(self))
        super().append(position)

    def occurrences(self, key: tuple[object, ...]) -> list[int]:
        """The indices of the positions with the repetition ``key``."""
        return list(self._at.get(key, ()))


def end_of_game(
    before: Position,
    after: Position,
    skipped: bool,
    history: Sequence[Position] | None,
    has_project: bool | None = None,
) -> GameResult:
    """The end-of-game checks after a turn from ``before`` to ``after``, in the order of RULES §8 (D-11).  ``history``
    is the game's earlier positions (not ``before``); ``None``: repetition and threefold cannot be evaluated.
    ``has_project``: whether the player to move in ``after`` has a legal Project, when the caller knows it."""
    me, enemy = before.to_move, other(before.to_move)
    evaluated = history is not None
    rep = "evaluated" if evaluated else "not_evaluated"

    if (captures := after.player(me).captures) >= 6:
        return _over(me, TAKEOVER, f"{me} wins by Takeover: {_captured_text(me, captures)} (6 or more).", rep)
    if group := network_group(after.bits, me):
        return _over(me, NETWORK, f"{me} wins by Network: {len(group)} of {me}'s stones {_group_text(group)}.", rep)
    if not (has_legal_project(after) if has_project is None else has_project):
        no_project = f"{enemy} begins their turn with no legal Project ({_no_project_text(after)})"
        return _over(me, STRANGLE, f"{me} wins by Strangle: {no_project}.", rep)
    if history is not None:
        # ``before`` has the other player to move, so only the history can hold ``after`` again
        seen = (history if isinstance(history, History) else History(history)).occurrences(after.key())
        if seen and not skipped:
            earlier = f"the turn recreates an earlier position of the game, {_earlier(seen[0], history)}"
            return _over(enemy, REPETITION, f"{me} loses by repetition: {earlier}. {enemy} wins.", rep)
        if len(seen) + 1 >= 3:
            times = f"{len(seen) + 1} times: {', '.join(_earlier(i, history) for i in seen)} and now"
            again = f"this position, with {enemy} to move, has now occurred {times}"
            return _over("draw", THREEFOLD, f"Draw by threefold repetition: {again}.", rep)
    if after.half_moves >= MAX_HALF_MOVES:
        result, decision, figs = _tiebreak(after)
        unless = " and" if evaluated else f": unless the turn recreated an earlier position ({_NO_HISTORY}),"
        return _over(result, TIEBREAK, f"{_CAP}{unless} the tiebreak decides: {decision}", rep, figs)
    return _going_on(after.to_move, after.half_moves, rep, "" if evaluated else f" {_NO_HISTORY.capitalize()}.")
