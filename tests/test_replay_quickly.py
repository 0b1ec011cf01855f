"""The audit's fast path agrees with the full checker.

``checker.generate.turn_is_legal`` decides one turn with the generator's
primitives; ``checker.replay.replay_quickly`` replays a game with it and
``apply(..., events=False)``, judging only the first illegal turn with
``check``.  Property tests hold them equal to ``check`` and ``replay``: on
random games (legal, with a turn spoilt at a random point, and with turns
after the end), on the hand-written vectors' positions and on near misses
around every position the games pass through."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from checker import board
from checker.ending import game_over_reason, game_status
from checker.generate import legal_turns, turn_is_legal
from checker.legality import check
from checker.notation import parse_hpn, parse_htn
from checker.play import apply
from checker.position import Position
from checker.replay import replay, replay_quickly
from checker.turn import CAPTURES, LOCKS, LOWERS, PLACES, RAISES, Move, Skip, Turn

GAMES = 30


def _game(seed: int) -> list[Turn]:
    rng = random.Random(f"quick {seed}")
    pos, turns = Position.start(), []
    while moves := legal_turns(pos):
        turn = rng.choice(moves)
        turns.append(turn)
        pos = apply(pos, turn).position
    return turns


def _near_misses(pos: Position, rng: random.Random, n: int = 60) -> list[Turn]:
    """Random well-formed turns around the position: any Project, any or no Shape, any or no Echo."""
    projects = [*PLACES, Skip(), *(Move(a, b) for a in board.CELLS for b in board.NEIGHBOURS[a])]
    shapes = [None, *RAISES, *LOWERS]
    echoes = [None, None, *CAPTURES, *LOCKS]
    legal = legal_turns(pos)
    out = rng.sample(legal, min(len(legal), n // 3))
    out += [Turn(rng.choice(projects), rng.choice(shapes), rng.choice(echoes)) for _ in range(n)]
    # a legal turn with a changed Shape or Echo: the near misses that matter
    for turn in rng.sample(legal, min(len(legal), n // 3)):
        out.append(Turn(turn.project, rng.choice(shapes), turn.echo))
        out.append(Turn(turn.project, turn.shape, rng.choice(echoes)))
    return out


def _same(a, b) -> None:
    assert (a.checked, a.legal, a.final, a.game) == (b.checked, b.legal, b.final, b.game)
    if a.first_illegal is None:
        assert b.first_illegal is None
    else:
        assert a.first_illegal.index == b.first_illegal.index
        assert a.first_illegal.verdict == b.first_illegal.verdict  # the same explanation, every check


@pytest.mark.parametrize("seed", range(GAMES))
def test_turn_is_legal_is_check_on_near_misses_along_a_game(seed):
    rng = random.Random(seed)
    pos = Position.start()
    for turn in _game(seed):
        for candidate in _near_misses(pos, rng, 20):
            assert turn_is_legal(pos, candidate) == check(pos, candidate).legal, candidate
        pos = apply(pos, turn).position
    assert legal_turns(pos) == [] and not turn_is_legal(pos, Turn(PLACES[0], RAISES[1]))  # the game is over


@pytest.mark.parametrize("seed", range(GAMES))
def test_replay_quickly_is_replay_on_random_games(seed):
    rng = random.Random(seed)
    turns = _game(seed)
    _same(replay_quickly(turns), replay(turns))
    # a turn past the end (game.over), and a random turn put in at a random point
    _same(replay_quickly([*turns, turns[-1]]), replay([*turns, turns[-1]]))
    i = rng.randrange(len(turns))
    spoilt = [*turns[:i], Turn(rng.choice(PLACES), rng.choice([None, *RAISES])), *turns[i + 1 :]]
    _same(replay_quickly(spoilt), replay(spoilt))


def _hand_vectors() -> list[dict]:
    text = resources.files("checker.data").joinpath("vectors_hand.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_the_hand_written_vectors_positions():
    """From each consistent hand-written position: every legal turn, near misses,
    and a short replay from it (a given start, with an empty history and without one)."""
    rng = random.Random(7)
    seen = set()
    for vector in _hand_vectors():
        hpn = vector.get("position")
        if not isinstance(hpn, str) or hpn in seen:
            continue
        seen.add(hpn)
        try:
            pos = parse_hpn(hpn)
        except ValueError:
            continue
        if pos.problems():
            continue
        for candidate in legal_turns(pos) + _near_misses(pos, rng):
            assert turn_is_legal(pos, candidate) == check(pos, candidate).legal, (hpn, candidate)
        line = []
        at = pos
        for _ in range(4):
            moves = legal_turns(at)
            if not moves:
                break
            line.append(rng.choice(moves))
            at = apply(at, line[-1]).position
        line.append(rng.choice(_near_misses(pos, rng, 6)))
        _same(replay_quickly(line, pos, []), replay(line, pos, []))
        _same(replay_quickly(line, pos), replay(line, pos))
    assert len(seen) > 50


@pytest.mark.parametrize("vector_id", ["hand-end-12", "hand-end-15", "hand-end-18", "hand-end-25"])
def test_repetition_and_threefold_are_found_by_both(vector_id):
    """The History index finds the earlier occurrences replay finds by going
    through the list: the vectors' repetitions and threefold draws, played
    from their position with their history, then a turn after the end."""
    (vector,) = [v for v in _hand_vectors() if v["id"] == vector_id]
    start = parse_hpn(vector["position"])
    history = [parse_hpn(h) for h in vector["history"]]
    turns = [parse_htn(vector["turn"])]
    quick, full = replay_quickly(turns, start, history), replay(turns, start, history)
    _same(quick, full)
    assert quick.game.over and quick.game.reason == vector["game"]["reason"]
    more = [*turns, Turn(PLACES[0])]
    _same(replay_quickly(more, start, history), replay(more, start, history))


def _over_starts(monkeypatch) -> list[tuple[Position, Turn]]:
    """Positions where random games ended, each with a turn that would be legal
    there were the game going on (the generator's, told it is)."""
    from checker import generate

    out = []
    for seed in range(GAMES):
        pos = Position.start()
        for turn in _game(seed):
            pos = apply(pos, turn).position
        with monkeypatch.context() as going_on:
            going_on.setattr(generate, "game_over_reason", lambda pos: None)
            otherwise = legal_turns(pos)
        if otherwise:
            out.append((pos, random.Random(seed).choice(otherwise)))
    return out


def test_a_start_already_over_makes_the_first_turn_illegal(monkeypatch):
    """game.over, though the turn would be legal were the game going on; the
    game's state is the start's, and nothing after the first turn is judged."""
    starts = _over_starts(monkeypatch)
    assert len(starts) >= GAMES // 2
    for pos, turn in starts:
        assert game_over_reason(pos) is not None and check(pos, turn).violations == ["game.over"]
        for history in ([], None):
            quick = replay_quickly([turn, turn], pos, history)
            _same(quick, replay([turn, turn], pos, history))
            assert (quick.checked, quick.legal, quick.first_illegal.index) == (1, False, 0)
            assert quick.first_illegal.verdict.violations == ["game.over"]
            assert quick.final is pos and quick.game == game_status(pos, history is not None)


def test_a_history_given_with_the_start_position_is_honoured():
    """From the start position (not given, or given) with earlier positions:
    a turn that recreates one of them loses by repetition, as replay says."""
    turn = parse_htn("c3 +d4")
    after = apply(Position.start(), turn).position
    for start in (None, Position.start()):
        for history in ([after], (p for p in [after])):
            quick = replay_quickly([turn], start, history)
            assert quick.legal and (quick.game.over, quick.game.reason, quick.game.result) == (True, "repetition", "B")
            _same(quick, replay([turn], start, [after]))
    # without it, nothing to recreate
    assert replay_quickly([turn]).game.over is False
    assert replay_quickly([turn], Position.start()).game.repetition == "not_evaluated"


def _vector(vector_id: str) -> dict:
    (vector,) = [v for v in _hand_vectors() if v["id"] == vector_id]
    return vector


# hand-end-12: A and B Move back and forth from its position at half-move 48; B's fourth turn recreates it.
DANCE = [parse_htn(t) for t in ("a1-a2", "g7-g6", "a2-a1", "g6-g7")]


def test_each_position_enters_the_history_after_its_turn_is_applied():
    """The position a turn is played from is in the history of the turns after
    it (the given start included), not of its own: the dance repeats the start
    at its fourth turn, and no sooner."""
    start = parse_hpn(_vector("hand-end-12")["history"][1])
    for n in range(1, len(DANCE) + 1):
        quick = replay_quickly(DANCE[:n], start, [])
        _same(quick, replay(DANCE[:n], start, []))
        assert quick.legal and quick.game.over == (n == len(DANCE))
    assert (quick.game.reason, quick.game.result) == ("repetition", "A")
    assert "the turn recreates an earlier position of the game, history[0] (half-move 48)" in quick.game.message
    # the same from the start of a longer history: the start is history[3]
    earlier = [parse_hpn(h) for h in _vector("hand-end-12")["history"][:1]] * 3
    quick = replay_quickly(DANCE, start, earlier)
    _same(quick, replay(DANCE, start, earlier))
    assert "history[3] (half-move 48)" in quick.game.message


@pytest.mark.parametrize("vector_id", ["hand-end-12", "hand-end-15", "hand-end-25"])
def test_a_turn_after_a_repetition_or_a_threefold_is_illegal(vector_id):
    """The game is over though the position alone cannot show it: the next
    turn fails game.over in both replays (the quick one used to stop on its
    own assertion), and the game's end is the repetition or threefold."""
    vector = _vector(vector_id)
    start, history = parse_hpn(vector["position"]), [parse_hpn(h) for h in vector["history"]]
    after = parse_hpn(vector["after"])
    assert game_over_reason(after) is None
    for next_turn in legal_turns(after)[:5]:
        turns = [parse_htn(vector["turn"]), next_turn]
        quick, full = replay_quickly(turns, start, history), replay(turns, start, history)
        _same(quick, full)
        assert (quick.checked, quick.first_illegal.index, quick.first_illegal.verdict.violations) == (
            2,
            1,
            ["game.over"],
        )
        assert quick.game.reason == vector["game"]["reason"] and quick.final == after
        assert f"ended the game by a {'threefold ' if vector_id == 'hand-end-15' else ''}repetition" in (
            quick.first_illegal.verdict.explanation
        )


# B's seven stones boxed in by A's but for c3 (the replay doctest's position): A's Place on c3 Strangles B.
BOXED = "0B0B0B0A/0B0B0B0A0/0B0A00A00/0A0A00000/000000/00000/0000 A 1:3:6:0:0:P:- 0:3:6:0:0:P:- 14"


@pytest.mark.parametrize(
    "turns",
    [["c3 +e5"], ["c3 +e5", "a1 +a2"], ["e5 +e6"], ["e5 +e6", "c3 +e4"]],
    ids=["strangle", "strangle-then-a-turn", "no-strangle", "no-strangle-then-a-turn"],
)
def test_a_game_ending_in_strangle_is_replayed_quickly_as_replay_does(turns):
    """The quick replay decides the next turn's Project as it judges the end of the game, sparing
    Strangle's search when one is legal: it must still find the Strangle where there is one."""
    played = [parse_htn(t) for t in turns]
    quick, full = replay_quickly(played, parse_hpn(BOXED), []), replay(played, parse_hpn(BOXED), [])
    _same(quick, full)
    assert (str(quick.game.reason) == "strangle") == (turns[0] == "c3 +e5")
