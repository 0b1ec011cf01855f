"""Replaying a game: each turn checked and applied in order, the history kept.

>>> from checker.notation import parse_htn, position_to_hpn
>>> r = replay([parse_htn("c3 +d4"), parse_htn("e5 +d4"), parse_htn("e5 +d5")])
>>> r.checked, r.legal, r.first_illegal.index, r.first_illegal.verdict.violations
(3, False, 2, ['place.empty'])
>>> position_to_hpn(r.final)
'0000/00000/000A000/0002000/0000B00/00000/0000 A 6:3:6:0:1:P:- 6:3:6:0:1:P:- 2'

From the start position the whole history is known, so repetition and threefold are judged.  From another ``start`` they
are judged only when the game's positions before it are given as ``history``.  A turn after the game's end is illegal
(``game.over``), the end by a repetition or a threefold included (which the position alone cannot show).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from checker.ending import GameResult, History, end_of_game, game_over_reason, game_status
from checker.generate import turn_is_legal
from checker.legality import Verdict, check
from checker.play import after
from checker.position import Position
from checker.projects import project_is_legal
from checker.turn import Skip, Turn

__all__ = ["FirstIllegal", "Replay", "replay", "replay_quickly"]


@dataclass(frozen=True, slots=True)
class FirstIllegal:
    index: int  # 0-based index of the turn in the list
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class Replay:
    checked: int  # how many turns were checked (up to and including the first illegal one)
    legal: bool  # every turn was legal
    first_illegal: FirstIllegal | None
    final: Position  # the position after the last legal turn
    game: GameResult  # the end of the game, or its state at ``final``
    verdicts: tuple[Verdict, ...]


def replay(turns: Sequence[Turn], start: Position | None = None, history: Iterable[Position] | None = None) -> Replay:
    """Check and apply ``turns`` in order from ``start`` (default: the start position), stopping at the first illegal
    turn."""
    return _replay(turns, start, history, quick=False)


def replay_quickly(
    turns: Sequence[Turn], start: Position | None = None, history: Iterable[Position] | None = None
) -> Replay:
    """:func:`replay` for a whole game when only its first illegal turn needs explaining: each turn is decided
    (:func:`checker.generate.turn_is_legal`) and applied without its events (:func:`checker.play.apply`'s two parts,
    :func:`checker.play.after` and :func:`checker.ending.end_of_game`, with the next turn's Project decided between
    them: a legal one spares the search for a legal Project, Strangle's); the first illegal one is judged by
    :func:`checker.legality.check`, explanation and all.  Equal to :func:`replay` but for ``verdicts``, which holds only
    that verdict.

    >>> from checker.notation import parse_htn
    >>> r = replay_quickly([parse_htn("c3 +d4"), parse_htn("e5 +d4"), parse_htn("e5 +d5")])
    >>> r.checked, r.first_illegal.index, r.first_illegal.verdict.violations
    (3, 2, ['place.empty'])

    B's seven stones boxed in by A's but for c3: A's Place there Strangles B, whatever the next turn holds.

    >>> from checker.notation import parse_hpn
    >>> boxed = parse_hpn("0B0B0B0A/0B0B0B0A0/0B0A00A00/0A0A00000/000000/00000/0000 A 1:3:6:0:0:P:- 0:3:6:0:0:P:- 14")
    >>> r = replay_quickly([parse_htn("c3 +e5"), parse_htn("a1 +a2")], boxed, [])
    >>> str(r.game.reason), r.first_illegal.index, r.first_illegal.verdict.violations[0]
    ('strangle', 1, 'game.over')
    """
    return _replay(turns, start, history, quick=True)


def _replay(turns: Sequence[Turn], start: Position | None, history: Iterable[Position] | None, quick: bool) -> Replay:
    if start is None:
        start = Position.start()
        hist: History | None = History(history or ())
    else:
        hist = History(history) if history is not None else None
    pos = start
    over = quick and game_over_reason(pos) is not None
    verdicts: list[Verdict] = []
    game = None
    known = False  # quick: whether the turn's Project is known to be legal
    first: FirstIllegal | None = None
    for i, turn in enumerate(turns):
        if quick and not over and turn_is_legal(pos, turn, game_over_checked=True, project_checked=known):
            nxt = after(pos, turn)
            # The next turn's Project, decided now: a legal one is a legal Project, so no Strangle to look for.
            known = i + 1 < len(turns) and project_is_legal(nxt, turns[i + 1].project)
            game = end_of_game(pos, nxt, type(turn.project) is Skip, hist, True if known else None)
        else:
            # only the start can be inconsistent: a legal turn's position is consistent by construction
            verdict = check(pos, turn, hist, assume_consistent=quick or i > 0, ended=game)
            verdicts.append(verdict)
            if not verdict.legal:
                first = FirstIllegal(i, verdict)
                break
            assert not quick, "turn_is_legal and check disagree"
            assert verdict.outcome is not None  # a legal verdict carries its outcome
            nxt, game = verdict.outcome.position, verdict.outcome.game
        if hist is not None:
            hist.append(pos)
        pos, over = nxt, game.over
    checked = first.index + 1 if first else len(turns)
    return Replay(checked, first is None, first, pos, game or game_status(pos, hist is not None), tuple(verdicts))
