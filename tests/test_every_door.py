"""Every door that decides legality gives the judge's answer.

The judge is :func:`checker.legality.check`.  For one (position, turn, history)
every other door that decides legality on its own must give the same answer —
legal or not, the violated rule ids where the door names them, and the
position after (with how the game stands) where the door makes it:

* membership in :func:`checker.generate.legal_turns`;
* the quick turn test, :func:`checker.generate.turn_is_legal`;
* the appliers: :func:`checker.play.apply` without events and perft's
  :func:`checker.counting.after`;
* :func:`checker.replay.replay` and the audit's quick replay,
  :func:`checker.replay.replay_quickly`, from the position with its history;
* the audit's record judge (:func:`checker.tools.audit.records.judge`), whose
  record starts at the position;
* the engine protocol's ``check``, ``play`` and ``legal-turns``;
* perft: depth 1 is the length of the legal-turn list and
  :func:`checker.counting.count_turns`; depth 2 with divide is, turn by turn,
  the length of the legal-turn list of the judge's position after.

The cases: seeded random games, some picks biased toward Echoes and captures;
at sampled positions every legal turn and the same turns with one part
changed (an Echo added, dropped or of the other kind, a cell moved, a Shape
flipped, dropped or added, the Project replaced); and the same positions with
the mover's Echo charges or lowering budget set to 0, with the turns that
needed them.  A disagreement fails with the position in HPN and the turn in
HTN, and what each door said.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from checker import board
from checker.counting import after, count_turns, perft
from checker.generate import legal_turns, turn_is_legal
from checker.legality import check
from checker.notation import parse_htn, position_to_hpn, turn_to_htn
from checker.play import apply
from checker.position import Position
from checker.replay import replay, replay_quickly
from checker.tools import protocol
from checker.tools.audit.records import judge
from checker.turn import CAPTURE, LOCK, LOWER, RAISE, Echo, Move, Place, Shape, Skip, Turn

GAMES = 12  # seeds 0 .. GAMES-1
SAMPLED_TURNS = 40  # legal turns, and their changes, tried at a second sampled position of each game
MUTATIONS_PER_TURN = 2  # changed turns made from each legal turn tried
P_ECHO = P_CAPTURE = 0.3  # picks biased toward a turn with an Echo, toward a capture


@dataclass(frozen=True)
class Answer:
    """What a door said.  ``None`` where the door does not say it."""

    legal: bool
    violations: tuple[str, ...] | None = None
    after: str | None = None  # HPN of the position after a legal turn
    game: tuple | None = None  # (over, result, reason) after a legal turn


def _game_of(result) -> tuple:
    return (result.over, result.result, None if result.reason is None else str(result.reason))


def _where(pos: Position, turn: Turn, history: tuple[Position, ...] | None) -> str:
    told = "no history" if history is None else f"a history of {len(history)} positions"
    return f"position {position_to_hpn(pos)!r}, turn {turn_to_htn(turn, pos)!r}, {told}"


# ------------------------------------------------------------- the doors ---


def judge_answer(pos: Position, turn: Turn, history) -> Answer:
    verdict = check(pos, turn, history)
    if not verdict.legal:
        return Answer(False, tuple(verdict.violations))
    outcome = verdict.outcome
    return Answer(True, (), position_to_hpn(outcome.position), _game_of(outcome.game))


@functools.lru_cache(maxsize=4096)
def _hpn(pos: Position) -> str:
    return position_to_hpn(pos)


@functools.lru_cache(maxsize=256)
def _legal_set(pos: Position) -> frozenset[Turn]:
    return frozenset(legal_turns(pos))


@functools.lru_cache(maxsize=256)
def _protocol_list(hpn: str) -> frozenset[str]:
    answer = protocol.handle({"id": 1, "op": "legal-turns", "position": hpn})
    return frozenset(answer["turns"])


def _replayed(r) -> Answer:
    if r.first_illegal is not None:
        return Answer(False, tuple(r.first_illegal.verdict.violations))
    return Answer(True, (), position_to_hpn(r.final), _game_of(r.game))


def doors(pos: Position, turn: Turn, history) -> list[tuple[str, Callable[[], Answer]]]:
    """Each door, as a call that gives its answer for the case."""
    hpn, htn = _hpn(pos), turn_to_htn(turn, pos)
    hist_list = None if history is None else list(history)
    hist_hpn = None if history is None else [_hpn(h) for h in history]

    def engine_check() -> Answer:
        answer = protocol.handle({"id": 1, "op": "check", "position": hpn, "turn": htn, "history": hist_hpn})
        return Answer(answer["legal"], tuple(answer["violations"]))

    def engine_play() -> Answer:
        played = protocol.handle({"id": 2, "op": "play", "position": hpn, "turn": htn})
        if "position" in played:
            return Answer(True, None, played["position"])
        refused = re.fullmatch(r"the turn .+ is not legal \((.+)\)", played["error"])
        assert refused, played["error"]
        return Answer(False, tuple(refused.group(1).split(", ")))

    return [
        ("legal_turns membership", lambda: Answer(turn in _legal_set(pos))),
        ("turn_is_legal", lambda: Answer(turn_is_legal(pos, turn))),
        ("replay", lambda: _replayed(replay([turn], pos, hist_list))),
        ("replay_quickly", lambda: _replayed(replay_quickly([turn], pos, hist_list))),
        ("engine check", engine_check),
        ("engine play", engine_play),
        ("engine legal-turns", lambda: Answer(htn in _protocol_list(hpn))),
    ]


def appliers(pos: Position, turn: Turn, history) -> list[tuple[str, Callable[[], Answer]]]:
    """The doors that apply a turn already judged legal."""

    def applied() -> Answer:
        outcome = apply(pos, turn, None if history is None else list(history), events=False)
        return Answer(True, None, position_to_hpn(outcome.position), _game_of(outcome.game))

    return [
        ("apply(events=False)", applied),
        ("counting.after", lambda: Answer(True, None, position_to_hpn(after(pos, turn)))),
    ]


def audit_door(pos: Position, turn: Turn) -> Answer:
    """The audit's judge of a one-turn record from the position (its history is
    the record's own: empty)."""
    row = judge({"id": 1, "start": position_to_hpn(pos), "turns": [turn_to_htn(turn, pos)]}, "cases.jsonl", 1)
    assert row["status"] in ("ok", "illegal"), row
    if row["status"] == "illegal":
        assert row["first_illegal"] == 0, row
        return Answer(False, tuple(row["violations"]))
    return Answer(True, (), None, (row["result"] is not None, row["result"], row["reason"]))


def assert_one_answer(pos: Position, turn: Turn, history) -> Answer:
    """Every door agrees with the judge on the case; returns the judge's answer."""
    assert parse_htn(turn_to_htn(turn, pos)) == turn, f"HTN does not round-trip: {_where(pos, turn, history)}"
    ref = judge_answer(pos, turn, history)
    calls = doors(pos, turn, history)
    if ref.legal:
        calls += appliers(pos, turn, history)
    if history is not None and not history:
        calls.append(("audit judge", lambda: audit_door(pos, turn)))
    said = []
    for name, call in calls:
        try:
            said.append((name, call()))
        except Exception as exc:  # a door that breaks disagrees, and says how
            said.append((name, f"raised {type(exc).__name__}: {exc}"))
    wrong = [(name, a) for name, a in said if not _agrees(a, ref)]
    assert not wrong, f"doors disagree with check at {_where(pos, turn, history)}:\n  check: {ref}\n" + "\n".join(
        f"  {name}: {a}" for name, a in wrong
    )
    return ref


def _agrees(a, ref: Answer) -> bool:
    if not isinstance(a, Answer) or a.legal != ref.legal:
        return False
    if a.violations is not None and a.violations != ref.violations:
        return False
    if a.after is not None and a.after != ref.after:
        return False
    return a.game is None or a.game == ref.game


def assert_perft_agrees(pos: Position, depth2: bool) -> None:
    turns = legal_turns(pos)
    where = f"position {position_to_hpn(pos)!r}"
    assert perft(pos, 1) == len(turns) == count_turns(pos), where
    assert [t for t, _ in perft(pos, 1, divide=True)] == turns, where
    if depth2:
        expected = [(t, len(legal_turns(check(pos, t).outcome.position))) for t in turns]
        assert perft(pos, 2, divide=True) == expected, where


# ------------------------------------------------------------- the cases ---


def _bias(rng: random.Random, turns: list[Turn], pos: Position) -> Turn:
    r = rng.random()
    if r < P_ECHO:
        echoes = [t for t in turns if t.echo is not None]
        if echoes:
            return rng.choice(echoes)
    elif r < P_ECHO + P_CAPTURE:
        enemy = "B" if pos.to_move == "A" else "A"
        captures = [t for t in turns if isinstance(t.project, Move) and pos.stones[t.project.dst] == enemy]
        captures += [t for t in turns if t.echo is not None and t.echo.kind == CAPTURE]
        if captures:
            return rng.choice(captures)
    return rng.choice(turns)


@functools.cache
def game(seed: int) -> tuple[tuple[Position, tuple[Position, ...], Turn | None], ...]:
    """(position, history before it, the turn played there) along a seeded game;
    the last position has no turn (the game is over or at its limit)."""
    rng = random.Random(seed)
    pos, history, out = Position.start(), (), []
    while True:
        turns = legal_turns(pos)
        if not turns:
            out.append((pos, history, None))
            return tuple(out)
        turn = _bias(rng, turns, pos)
        out.append((pos, history, turn))
        verdict = check(pos, turn, history)
        if verdict.outcome.game.over:
            out.append((verdict.outcome.position, (*history, pos), None))
            return tuple(out)
        history, pos = (*history, pos), verdict.outcome.position


def _other_cell(rng: random.Random, cell: int) -> int:
    near = [c for c in board.CELLS if c != cell and board.STEPS[cell][c] <= 3]
    return rng.choice(near if rng.random() < 0.7 else [c for c in board.CELLS if c != cell])


def mutations(rng: random.Random, pos: Position, turn: Turn) -> list[Turn]:
    """Turns with one part changed."""
    p, s, e = turn
    out: list[Turn] = []
    # the Echo: added (of either kind, on an enemy stone or anywhere), dropped, of the other kind, moved
    if e is None:
        enemy = [c for c in board.CELLS if pos.stones[c] not in (None, pos.to_move)]
        target = rng.choice(enemy) if enemy and rng.random() < 0.8 else rng.choice(board.CELLS)
        out.append(Turn(p, s, Echo(rng.choice((CAPTURE, LOCK)), target)))
    else:
        out += [Turn(p, s, None), Turn(p, s, Echo(LOCK if e.kind == CAPTURE else CAPTURE, e.cell))]
        out.append(Turn(p, s, Echo(e.kind, _other_cell(rng, e.cell))))
    # the Shape: dropped, flipped, moved, or added
    if s is None:
        landing = turn.landing
        out.append(
            Turn(p, Shape(rng.choice((RAISE, LOWER)), landing if landing is not None else rng.choice(board.CELLS)), e)
        )
    else:
        out += [Turn(p, None, e), Turn(p, Shape(LOWER if s.kind == RAISE else RAISE, s.cell), e)]
        out.append(Turn(p, Shape(s.kind, _other_cell(rng, s.cell)), e))
    # the Project: a cell moved, or another kind of Project
    if isinstance(p, Place):
        out.append(Turn(Place(_other_cell(rng, p.cell)), s, e))
        mine = pos.stones_of(pos.to_move)
        if mine:
            src = rng.choice(mine)
            out.append(Turn(Move(src, _other_cell(rng, src)), s, e))
    elif isinstance(p, Move):
        out.append(Turn(Move(p.src, _other_cell(rng, p.src)), s, e))  # often not a neighbour
        out.append(Turn(Move(_other_cell(rng, p.dst), p.dst), s, e))
        out.append(Turn(Place(p.dst), s, e))
    else:
        out.append(Turn(Place(rng.choice(board.CELLS)), s, e))
    if not isinstance(p, Skip):
        out.append(Turn(Skip(), s, e))
    return [t for t in out if not (isinstance(t.project, Move) and t.project.src == t.project.dst)]


def spent(pos: Position) -> list[Position]:
    """The position with the mover's Echo charges, and with its lowering
    budget, set to 0, where that can be a consistent position (D-3): the
    lowers spent on cells raised again, in turns added to the game."""
    out = []
    m = pos.mover
    if m.charges:
        out.append(pos.replace(**{pos.to_move: m.replace(charges=0)}))
    k = m.lowers_left
    if k:
        state = m.replace(lowers_left=0, raises=m.raises + k)
        out.append(pos.replace(half_moves=pos.half_moves + 4 * k, **{pos.to_move: state}))
    return [p for p in out if not p.problems()]


# ------------------------------------------------------------- the tests ---


@pytest.mark.parametrize("seed", range(GAMES))
def test_every_door_agrees_along_a_game(seed):
    """The turn played at each position of a game, through every door, with and
    without the game's history; every legal turn and its changes at sampled
    positions; and perft at those positions."""
    rng = random.Random(1000 + seed)
    steps = game(seed)
    every, some = rng.sample(range(len(steps)), 2)
    for i, (pos, history, played) in enumerate(steps):
        if played is not None:
            assert assert_one_answer(pos, played, history).legal
            assert_one_answer(pos, played, None)
            for changed in mutations(rng, pos, played):
                assert_one_answer(pos, changed, history)
        if i not in (every, some):
            continue
        assert_perft_agrees(pos, depth2=i == every)
        turns = legal_turns(pos)
        for turn in turns if i == every else rng.sample(turns, min(SAMPLED_TURNS, len(turns))):
            assert_one_answer(pos, turn, ())
            for changed in rng.sample(mutations(rng, pos, turn), MUTATIONS_PER_TURN):
                assert_one_answer(pos, changed, ())


@pytest.mark.parametrize("seed", range(GAMES))
def test_whole_games_agree_through_replay_quick_replay_and_the_audit(seed):
    """The whole game, and the game cut at a random turn by a changed turn that
    the judge finds illegal there: replay, the quick replay and the audit's
    record judge from the start give the judge's answer turn by turn (the
    index and rule ids of the first illegal turn, the final position, how the
    game ended)."""
    rng = random.Random(3000 + seed)
    steps = game(seed)
    played = [(pos, history, turn) for pos, history, turn in steps if turn is not None]
    turns = [turn for _, _, turn in played]
    pos, history, turn = played[-1]
    last = judge_answer(pos, turn, history)
    for name, r in (("replay", replay(turns)), ("replay_quickly", replay_quickly(turns))):
        assert (r.legal, _hpn(r.final), _game_of(r.game)) == (True, last.after, last.game), f"{name}, seed {seed}"
    sheet = [turn_to_htn(t, pos) for pos, _, t in played]
    row = judge({"id": seed, "turns": sheet}, "games.jsonl", 1)
    assert (row["status"], row["checked"]) == ("ok", len(turns)), row
    assert (row["result"] is not None, row["result"], row["reason"]) == last.game, row
    k = rng.randrange(len(played))
    pos, history, turn = played[k]
    bad = next((m for m in mutations(rng, pos, turn) if not check(pos, m, history).legal), None)
    if bad is None:
        return
    expected = (k, tuple(check(pos, bad, history).violations))
    spoilt = [*turns[:k], bad, *turns[k + 1 :]]
    for name, r in (("replay", replay(spoilt)), ("replay_quickly", replay_quickly(spoilt))):
        said = (r.first_illegal.index, tuple(r.first_illegal.verdict.violations)) if r.first_illegal else None
        assert said == expected, f"{name}, seed {seed}: {_where(pos, bad, history)}"
        assert _hpn(r.final) == _hpn(pos), f"{name} stops at the position before the first illegal turn"
    row = judge({"id": seed, "turns": [*sheet[:k], turn_to_htn(bad, pos), *sheet[k + 1 :]]}, "games.jsonl", 1)
    assert (row["status"], row["first_illegal"], tuple(row["violations"])) == ("illegal", *expected), row


@pytest.mark.parametrize("seed", range(GAMES))
def test_every_door_agrees_without_charges_or_lowering_budget(seed):
    """At positions of a game with the mover's Echo charges or lowering budget
    set to 0: the turns that were legal before (those with an Echo or a lower
    among them now illegal) and their changes, through every door."""
    rng = random.Random(2000 + seed)
    steps = [s for s in game(seed) if s[2] is not None]
    for pos, _, _ in rng.sample(steps, min(6, len(steps))):
        before = legal_turns(pos)
        needing = [t for t in before if t.echo is not None or (t.shape is not None and t.shape.kind == LOWER)]
        for changed_pos in spent(pos):
            assert_perft_agrees(changed_pos, depth2=False)
            for turn in needing + rng.sample(before, min(20, len(before))):
                assert_one_answer(changed_pos, turn, ())
                for changed in mutations(rng, changed_pos, turn)[:2]:
                    assert_one_answer(changed_pos, changed, ())


def test_the_cases_reach_every_kind_of_answer():
    """The cases are not all alike: among them are legal turns with each Echo,
    turns that capture, turns illegal for lack of an Echo charge and of the
    lowering budget, and a Move to a cell that is not a neighbour."""
    seen: set[str] = set()
    for seed in range(GAMES):
        for pos, history, played in game(seed):
            if played is None:
                continue
            if played.echo is not None:
                seen.add(f"legal {played.echo.kind}")
            verdict = check(pos, played, history)
            if any(e.type == "capture" for e in verdict.outcome.events):
                seen.add("capture")
        pos = next(p for p, _, t in game(seed) if t is not None and p.half_moves > 20)
        for changed_pos in spent(pos):
            for turn in legal_turns(pos):
                v = check(changed_pos, turn)
                seen.update(r for r in v.violations if r in ("echo.charge", "shape.lowering-budget"))
        mine = pos.stones_of(pos.to_move)
        far = [Turn(Move(s, d)) for s in mine for d in board.CELLS if board.STEPS[s][d] > 1]
        if far:
            seen.update(r for r in check(pos, far[0]).violations if r == "move.adjacent")
    assert seen >= {
        "legal capture",
        "legal lock",
        "capture",
        "echo.charge",
        "shape.lowering-budget",
        "move.adjacent",
    }, seen
