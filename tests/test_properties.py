"""Seeded random games from the start position: the invariants of RULES §2 and
the agreement between enumeration (checker.generate.legal_turns) and judging
(checker.legality.check).

Each game is played with ``random.Random(seed)`` (seeds 0 .. GAMES-1), so every
run plays exactly the same games.  At every position:

* RULES §2: for each player, stones on the board + reserve = 7; the position
  is consistent (``problems() == []``); HPN round-trips; the chosen turn's
  HTN round-trips.
* Every enumerated turn in a sample (all of them at some positions) is legal
  for ``check``; random well-formed turns are legal for ``check`` exactly when
  they are in the enumerated set (Turn equality).
* The end of the game after each turn agrees with RULES §8 (including the
  tiebreak's winner), worked out here independently of the checker's own
  end-of-game code.
* The position after the played turn equals one computed from RULES §4–§7
  by a small reference written here (``expected_after``), and the capture
  events name exactly the cells that reference captures.

The turn actually played is picked uniformly from ``legal_turns``, except that
a fraction of the picks is biased toward turns with an Echo and toward turns
that capture, so those paths are exercised.

Runtime: about 17 s for the whole file on the development machine (2 cores,
under load from other test runs; ~15 s of CPU for the games).  The sample
sizes below are tuned to stay well under a minute on a slow 2-core machine.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from checker import board
from checker.catalogue import RULES
from checker.generate import legal_turns
from checker.legality import check
from checker.notation import parse_hpn, parse_htn, position_to_hpn, turn_to_htn
from checker.position import Position, other
from checker.projects import has_legal_project
from checker.turn import CAPTURE, LOCK, LOWER, RAISE, Echo, Move, Place, Shape, Skip, Turn

# ---------------------------------------------------------------- tuning ---

GAMES = 200  # seeds 0 .. GAMES-1, one game each
SAMPLE_LEGAL = 4  # enumerated turns checked at each position (besides the one played)
SAMPLE_RANDOM = 6  # random well-formed turns checked at each position
FULL_EVERY_POSITION = 10  # every enumerated turn is checked at every 10th position ...
FULL_EVERY_GAME = 20  # ... of every 20th game (a full check costs ~400 checks)
P_ECHO = 0.25  # fraction of picks biased toward a turn with an Echo
P_CAPTURE = 0.25  # fraction of picks biased toward a turn that captures

REASONS = {"takeover", "network", "strangle", "repetition", "threefold", "tiebreak"}
CELLS = board.CELLS  # all 37 cells


# ------------------------------------------------------- independent rules ---


def _neighbours_by_rule(c: int) -> list[int]:
    """RULES §1: the neighbours of (i, j) are (i, j±1), (i±1, j), (i-1, j-1), (i+1, j+1)."""
    name = board.name(c)
    i, j = "abcdefg".index(name[0]) + 1, int(name[1])
    out = []
    for di, dj in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, 1)):
        r, k = i + di, j + dj
        if 1 <= r <= 7 and 1 <= k <= 7 and abs(r - k) <= 3:
            out.append(board.parse_cell("abcdefg"[r - 1] + str(k)))
    return out


NEIGHBOURS_BY_RULE = {c: _neighbours_by_rule(c) for c in CELLS}


def _steps_by_rule(a: int, b: int) -> int:
    """RULES §1: with di, dj the row and column differences, max(|di|, |dj|, |di - dj|)."""
    (i1, j1), (i2, j2) = (("abcdefg".index(board.name(x)[0]), int(board.name(x)[1])) for x in (a, b))
    di, dj = i1 - i2, j1 - j2
    return max(abs(di), abs(dj), abs(di - dj))


WITHIN_2_BY_RULE = {a: [b for b in CELLS if _steps_by_rule(a, b) <= 2] for a in CELLS}


def _largest_tier2_group(pos: Position, who: str) -> int:
    """RULES §8.2: the size of the largest group of ``who``'s stones on tier-2
    cells connected through adjacent such stones (written here from the rule)."""
    cells = {c for c in CELLS if pos.stones[c] == who and pos.tiers[c] == 2}
    best = 0
    while cells:
        todo = [cells.pop()]
        size = 1
        while todo:
            c = todo.pop()
            for n in NEIGHBOURS_BY_RULE[c]:
                if n in cells:
                    cells.remove(n)
                    todo.append(n)
                    size += 1
        best = max(best, size)
    return best


def _has_legal_project(pos: Position) -> bool:
    """RULES §4 and §8.3, from the rule text: with stones in reserve, some
    empty unlocked cell to Place on (not d4 before the first Place; the
    cooldown only turns a Place into the skip, D-4); with an empty reserve,
    some own stone with a neighbour that is empty or holds an enemy stone on
    a strictly lower tier."""
    me = pos.to_move
    m = pos.mover
    if m.reserve > 0:
        return any(pos.stones[c] is None and not pos.locked[c] and (m.placed or board.name(c) != "d4") for c in CELLS)
    for a in CELLS:
        if pos.stones[a] != me:
            continue
        for b in NEIGHBOURS_BY_RULE[a]:
            if pos.stones[b] is None or (pos.stones[b] != me and pos.tiers[b] < pos.tiers[a]):
                return True
    return False


def _is_move_capture(pos: Position, turn: Turn) -> bool:
    p = turn.project
    return isinstance(p, Move) and pos.stones[p.dst] == other(pos.to_move)


# ------------------------------------------------- reference turn (RULES) ---


def expected_after(pos: Position, turn: Turn) -> tuple[Position, list[int]]:
    """The position after a legal turn, and the cells captured, written from
    RULES §4–§7 independently of checker.play:

    * Place: a reserve stone on the cell, ``placed`` true.  Move: the stone
      steps; an enemy stone on the to-cell is captured (Move capture).
    * Shape: the tier changes by one; a raise adds 1 to ``raises``, a lower
      uses one of ``lowers_left``.  Echo: one charge; an Echo-Lock locks.
    * Encirclement: an opponent stone on tier t >= 1 whose six slots are all
      edge or the mover's stones is captured when
      (sum of those stones' tiers) + (t + 1) x edge slots > 6t, all at once.
    * Echo-Capture (D-10), after that, on the target's group (the target and
      the opponent stones connected to it): each member on tier t >= 1 with
      no empty neighbour is captured when
      (sum of mover's neighbouring tiers) + (t + 1) x (edge + opponent slots) > 6t.
    * A capture returns the stone to its owner's reserve, adds 1 to the
      capturer's captures and the cell to the owner's cooldown.  The mover's
      cooldown is empty after the turn (a Place or a skip clears it; a Move
      needs an empty reserve, and then D-3 leaves no cooldown).
    """
    me, enemy = pos.to_move, other(pos.to_move)
    stones, tiers, locked = list(pos.stones), list(pos.tiers), list(pos.locked)
    m, e = pos.player(me), pos.player(enemy)
    reserve, charges, lowers, raises = m.reserve, m.charges, m.lowers_left, m.raises
    placed, lock_used = m.placed, m.echo_lock_used
    captured: list[int] = []
    p, shape, echo = turn
    if isinstance(p, Place):
        stones[p.cell] = me
        reserve -= 1
        placed = True
    elif isinstance(p, Move):
        if stones[p.dst] == enemy:
            captured.append(p.dst)
        stones[p.src], stones[p.dst] = None, me
    if shape is not None:
        if shape.kind == RAISE:
            tiers[shape.cell] += 1
            raises += 1
        else:
            tiers[shape.cell] -= 1
            lowers -= 1
    if echo is not None:
        charges -= 1
        if echo.kind == LOCK:
            locked[echo.cell] = True
            lock_used = True

    def edges(c: int) -> int:
        return 6 - len(NEIGHBOURS_BY_RULE[c])

    encircled = []
    for c in CELLS:
        t = tiers[c]
        if stones[c] != enemy or t < 1:
            continue
        if all(stones[n] == me for n in NEIGHBOURS_BY_RULE[c]):
            total = sum(tiers[n] for n in NEIGHBOURS_BY_RULE[c]) + (t + 1) * edges(c)
            if total > 6 * t:
                encircled.append(c)
    for c in encircled:
        stones[c] = None
    captured += encircled
    if echo is not None and echo.kind == CAPTURE and stones[echo.cell] == enemy:
        group, todo = {echo.cell}, [echo.cell]
        while todo:
            c = todo.pop()
            for n in NEIGHBOURS_BY_RULE[c]:
                if n not in group and stones[n] == enemy:
                    group.add(n)
                    todo.append(n)
        echoed = []
        for c in sorted(group):
            t = tiers[c]
            nbs = NEIGHBOURS_BY_RULE[c]
            if t < 1 or any(stones[n] is None for n in nbs):
                continue
            walls = sum(1 for n in nbs if stones[n] == enemy)
            total = sum(tiers[n] for n in nbs if stones[n] == me) + (t + 1) * (edges(c) + walls)
            if total > 6 * t:
                echoed.append(c)
        for c in echoed:
            stones[c] = None
        captured += echoed
    new_m = m.replace(
        reserve=reserve,
        charges=charges,
        lowers_left=lowers,
        raises=raises,
        placed=placed,
        echo_lock_used=lock_used,
        captures=m.captures + len(captured),
        cooldown=frozenset(),
    )
    new_e = e.replace(reserve=e.reserve + len(captured), cooldown=e.cooldown | frozenset(captured))
    after = Position(tiers, stones, locked, enemy, pos.half_moves + 1, {me: new_m, enemy: new_e})
    return after, sorted(captured)


# ------------------------------------------------------------ random turns ---


def _random_project(rng: random.Random, pos: Position | None = None):
    """A random Project; with ``pos``, often a plausible one (a Place on an
    empty cell, a Move of one of the mover's stones to a neighbour)."""
    k = rng.random()
    if k < 0.45:
        if pos is not None and rng.random() < 0.5:
            empty = [c for c in CELLS if pos.stones[c] is None]
            return Place(rng.choice(empty))
        return Place(rng.choice(CELLS))
    if k < 0.9:
        own = [c for c in CELLS if pos.stones[c] == pos.to_move] if pos is not None else []
        src = rng.choice(own) if own and rng.random() < 0.5 else rng.choice(CELLS)
        # half the time a neighbour (close to legal), else any of the 37 cells
        dst = rng.choice(NEIGHBOURS_BY_RULE[src]) if rng.random() < 0.5 else rng.choice(CELLS)
        return Move(src, dst)
    return Skip()


def _random_shape(rng: random.Random, landing: int | None = None):
    """A random Shape or none; with a landing cell, often one within 2 steps."""
    k = rng.random()
    if k < 0.2:
        return None
    if landing is not None and rng.random() < 0.5:
        cell = rng.choice(WITHIN_2_BY_RULE[landing])
    else:
        cell = rng.choice(CELLS)
    return Shape(RAISE if k < 0.6 else LOWER, cell)


def _random_echo(rng: random.Random, pos: Position | None = None):
    """A random Echo or none; with ``pos``, often an Echo-Capture of an enemy
    stone or an Echo-Lock of one of the mover's stones."""
    k = rng.random()
    if k < 0.4:
        return None
    kind = CAPTURE if k < 0.7 else LOCK
    if pos is not None and rng.random() < 0.5:
        want = other(pos.to_move) if kind == CAPTURE else pos.to_move
        cells = [c for c in CELLS if pos.stones[c] == want]
        if cells:
            return Echo(kind, rng.choice(cells))
    return Echo(kind, rng.choice(CELLS))


def _rule_echoes(pos: Position, p, s) -> list[Echo]:
    """RULES §6, from the text, ignoring only ``echo.charge``: the Echoes whose
    other conditions hold after this Project and Shape (Echo-Capture: enemy
    stone on tier >= 1, no empty neighbour, one of the mover's stones
    adjacent; Echo-Lock: first Echo-Lock, own stone, tier 2, not locked)."""
    me, enemy = pos.to_move, other(pos.to_move)
    stones, tiers = list(pos.stones), list(pos.tiers)
    if isinstance(p, Place):
        stones[p.cell] = me
    elif isinstance(p, Move):
        stones[p.src], stones[p.dst] = None, me
    if s is not None:
        tiers[s.cell] += 1 if s.kind == RAISE else -1
    out = []
    for c in CELLS:
        nbs = NEIGHBOURS_BY_RULE[c]
        if (
            stones[c] == enemy
            and tiers[c] >= 1
            and all(stones[n] is not None for n in nbs)
            and any(stones[n] == me for n in nbs)
        ):
            out.append(Echo(CAPTURE, c))
        if stones[c] == me and tiers[c] == 2 and not pos.locked[c] and not pos.mover.echo_lock_used:
            out.append(Echo(LOCK, c))
    return out


def random_turn(rng: random.Random, pos: Position, legal: list[Turn]) -> Turn:
    """A random well-formed turn, one of four kinds (so that many are
    *nearly* legal):

    * wholly random parts, any of the 37 cells;
    * a legal turn with one part replaced by a random (often plausible) one;
    * the Project, Shape and Echo of three different legal turns, the Echo
      sometimes replaced by a plausible one;
    * a legal turn's Project and Shape with an Echo that RULES §6 allows
      apart from the charge (see ``_rule_echoes``).
    """
    k = rng.random()
    if legal and k < 0.4:
        p, s, e = rng.choice(legal)
        part = rng.randrange(3)
        if part == 0:
            p = _random_project(rng, pos)
        elif part == 1:
            s = _random_shape(rng, Turn(p).landing)
        else:
            e = _random_echo(rng, pos)
        return Turn(p, s, e)
    if legal and k < 0.6:
        p = rng.choice(legal).project
        s = rng.choice(legal).shape
        e = rng.choice(legal).echo if rng.random() < 0.5 else _random_echo(rng, pos)
        return Turn(p, s, e)
    if legal and k < 0.7:
        # a legal turn with an Echo whose conditions (but perhaps not the
        # charge) hold: legal exactly when the mover has a charge
        p, s, _ = rng.choice(legal)
        echoes = _rule_echoes(pos, p, s)
        if echoes:
            return Turn(p, s, rng.choice(echoes))
    return Turn(_random_project(rng), _random_shape(rng), _random_echo(rng))


# ------------------------------------------------------------------- games ---


@dataclass
class GameRecord:
    seed: int
    turns_played: int = 0
    moves: int = 0  # turns whose Project was a Move
    captures: Counter = field(default_factory=Counter)  # capture events by kind
    echo_captures: int = 0  # turns played with an Echo-Capture
    echo_locks: int = 0  # turns played with an Echo-Lock
    reason: str | None = None  # how the game ended
    checked_legal: int = 0
    checked_random: int = 0
    random_legal: int = 0  # random turns that happened to be legal


def _where(seed: int, pos: Position, turn: Turn | None = None) -> str:
    text = f"seed {seed}, position {position_to_hpn(pos)}"
    if turn is not None:
        text += f", turn {turn_to_htn(turn, pos)!r}"
    return text


def _assert_position_invariants(seed: int, pos: Position) -> None:
    # RULES §2: stones on the board + reserve = 7 for each player.
    for who in ("A", "B"):
        on_board = sum(1 for s in pos.stones if s == who)
        assert on_board + pos.player(who).reserve == 7, (
            f"{who}: {on_board} on board + {pos.player(who).reserve} in reserve != 7 ({_where(seed, pos)})"
        )
    assert pos.problems() == [], _where(seed, pos)
    # RULES §10: HPN round trip.
    assert parse_hpn(position_to_hpn(pos)) == pos, _where(seed, pos)


def _assert_end_of_game(
    seed: int, before: Position, turn: Turn, after: Position, game, history: list[Position], after_turns: list[Turn]
) -> None:
    """RULES §8, from the rule text: the reason given is one that holds, and
    when the game goes on, none of the ending conditions holds."""
    me, enemy = before.to_move, other(before.to_move)
    where = _where(seed, before, turn)
    earlier_keys = [p.key() for p in history] + [before.key()]
    repeats = earlier_keys.count(after.key())
    skipped = isinstance(turn.project, Skip)
    takeover = after.player(me).captures >= 6
    network = _largest_tier2_group(after, me) >= 5
    strangled = not _has_legal_project(after)
    assert has_legal_project(after) is not strangled, f"the rules engine's Strangle test disagrees ({where})"
    if not game.over:
        assert game.result is None and game.reason is None, where
        assert not takeover, f"{me} has 6+ captures but the game goes on ({where})"
        assert not network, f"{me} has a Network but the game goes on ({where})"
        assert not strangled, f"{enemy} has no legal Project but the game goes on ({where})"
        assert after_turns, f"{enemy} has no legal turn but the game goes on ({where})"
        assert skipped or repeats == 0, f"the turn recreates an earlier position but the game goes on ({where})"
        assert after.half_moves < 60, where
        return
    assert game.reason in REASONS, where
    if game.reason == "takeover":
        assert takeover and game.result == me, where
    elif game.reason == "network":
        assert not takeover and network and game.result == me, where
    elif game.reason == "strangle":
        assert strangled and game.result == me, where
    elif game.reason == "repetition":
        assert not (takeover or network or strangled), where
        assert repeats >= 1 and not skipped and game.result == enemy, where
    elif game.reason == "threefold":
        assert repeats + 1 >= 3 and game.result == "draw", where
    else:  # tiebreak
        assert not (takeover or network or strangled), where
        assert skipped or repeats == 0, where
        assert after.half_moves == 60, where

        # RULES §8.6: more stones on unlocked tier-2 cells; then the higher sum
        # of tiers under one's stones; then more captures; then more raises.
        def figures(who):
            mine = [c for c in CELLS if after.stones[c] == who]
            return (
                sum(1 for c in mine if after.tiers[c] == 2 and not after.locked[c]),
                sum(after.tiers[c] for c in mine),
                after.player(who).captures,
                after.player(who).raises,
            )

        fa, fb = figures("A"), figures("B")
        expected = "A" if fa > fb else "B" if fb > fa else "draw"  # tuples compare figure by figure
        assert game.result == expected, f"tiebreak {fa} vs {fb}: expected {expected} ({where})"


@functools.cache
def play_game(seed: int) -> GameRecord:
    """Play one seeded random game from the start, asserting as it goes."""
    rng = random.Random(seed)
    rec = GameRecord(seed)
    pos = Position.start()
    turns = legal_turns(pos)
    history: list[Position] = []
    full_game = seed % FULL_EVERY_GAME == 0
    index = 0
    while True:
        _assert_position_invariants(seed, pos)
        legal_set = set(turns)
        assert len(legal_set) == len(turns), f"duplicate turns enumerated ({_where(seed, pos)})"
        # The loop stops after a game-ending turn, so the game is not over here.
        assert turns, f"no legal turn but the previous turn did not end the game ({_where(seed, pos)})"

        # Agreement 1: enumerated turns are legal for check().
        if full_game and index % FULL_EVERY_POSITION == 0:
            sample = list(turns)
        else:
            sample = rng.sample(turns, min(SAMPLE_LEGAL, len(turns)))
        verdicts = {}
        for t in sample:
            v = check(pos, t, history)
            assert v.legal and v.outcome is not None and v.violations == [], (
                f"enumerated turn judged illegal: {v.violations} {v.summary} ({_where(seed, pos, t)})"
            )
            verdicts[t] = v
        rec.checked_legal += len(sample)

        # Agreement 2: random well-formed turns are legal exactly when enumerated.
        for _ in range(SAMPLE_RANDOM):
            t = random_turn(rng, pos, turns)
            v = check(pos, t, history)
            if t in legal_set:
                rec.random_legal += 1
                assert v.legal and v.outcome is not None, (
                    f"enumerated turn judged illegal: {v.violations} ({_where(seed, pos, t)})"
                )
            else:
                assert not v.legal and v.outcome is None, (
                    f"turn not enumerated but judged legal ({_where(seed, pos, t)})"
                )
                assert v.violations, f"illegal verdict with no violation ({_where(seed, pos, t)})"
                assert set(v.violations) <= set(RULES), v.violations
        rec.checked_random += SAMPLE_RANDOM

        # Pick the turn to play: uniform, with a bias toward Echo and captures.
        r = rng.random()
        echo_turns = [t for t in turns if t.echo is not None]
        enemy, stones = other(pos.to_move), pos.stones
        capture_turns = [t for t in turns if type(t.project) is Move and stones[t.project.dst] == enemy]
        capture_turns += [
            t
            for t, v in verdicts.items()
            if not _is_move_capture(pos, t) and any(e.type == "capture" for e in v.outcome.events)
        ]
        if r < P_ECHO and echo_turns:
            turn = rng.choice(echo_turns)
        elif r < P_ECHO + P_CAPTURE and capture_turns:
            turn = rng.choice(capture_turns)
        else:
            turn = rng.choice(turns)

        # RULES §10: HTN round trip of the chosen turn (with and without the position).
        assert parse_htn(turn_to_htn(turn, pos)) == turn, _where(seed, pos, turn)
        assert parse_htn(turn_to_htn(turn)) == turn, _where(seed, pos, turn)
        if isinstance(turn.project, Move):
            sep = "x" if _is_move_capture(pos, turn) else "-"
            assert turn_to_htn(turn, pos).split()[0] == (
                board.name(turn.project.src) + sep + board.name(turn.project.dst)
            ), _where(seed, pos, turn)

        v = verdicts.get(turn) or check(pos, turn, history)
        assert v.legal and v.outcome is not None, f"{v.violations} ({_where(seed, pos, turn)})"
        out = v.outcome
        after = out.position
        # The transition agrees with the reference written from the rules.
        want, want_captured = expected_after(pos, turn)
        assert after == want, (
            f"after {position_to_hpn(after)}, expected {position_to_hpn(want)} ({_where(seed, pos, turn)})"
        )
        got_captured = sorted(board.parse_cell(c) for e in out.events if e.type == "capture" for c in e.cells)
        assert got_captured == want_captured, _where(seed, pos, turn)
        assert after.half_moves == pos.half_moves + 1, _where(seed, pos, turn)
        assert after.to_move == other(pos.to_move), _where(seed, pos, turn)
        assert out.game.repetition == "evaluated", _where(seed, pos, turn)
        after_turns = legal_turns(after)
        _assert_end_of_game(seed, pos, turn, after, out.game, history, after_turns)

        rec.turns_played += 1
        if isinstance(turn.project, Move):
            rec.moves += 1
        if turn.echo is not None:
            if turn.echo.kind == CAPTURE:
                rec.echo_captures += 1
            else:
                rec.echo_locks += 1
        for e in out.events:
            if e.type == "capture":
                rec.captures[e.kind] += len(e.cells)

        history.append(pos)
        pos, turns = after, after_turns
        index += 1
        if out.game.over:
            rec.reason = out.game.reason
            _assert_position_invariants(seed, pos)
            if out.game.reason in ("takeover", "network", "strangle", "tiebreak"):
                # RULES §8: a position in which the game is over accepts no turn.
                assert turns == [], _where(seed, pos)
            return rec


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_game(seed):
    rec = play_game(seed)
    assert rec.reason in REASONS
    assert rec.turns_played >= 1
    assert rec.checked_legal >= rec.turns_played


def test_games_cover_every_phase():
    """Across all games: some Moves (empty reserves), some captures, some
    Echo-Captures and Echo-Locks, and at least two different endings."""
    records = []
    for seed in range(GAMES):
        try:
            records.append(play_game(seed))
        except AssertionError:
            continue  # reported by test_random_game[seed]; the coverage is judged on the rest
    assert len(records) >= GAMES // 2, "most games failed; see test_random_game"
    moves = sum(r.moves for r in records)
    captures = sum((r.captures for r in records), Counter())
    echo_captures = sum(r.echo_captures for r in records)
    echo_locks = sum(r.echo_locks for r in records)
    reasons = Counter(r.reason for r in records)
    summary = (
        f"moves={moves} captures={dict(captures)} echo_captures={echo_captures} "
        f"echo_locks={echo_locks} reasons={dict(reasons)}"
    )
    assert moves > 0, summary
    assert sum(captures.values()) > 0, summary
    assert captures["move"] > 0, summary
    assert echo_captures > 0, summary
    assert captures["echo"] > 0, summary
    assert echo_locks > 0, summary
    # Observed with these seeds: takeover 187, tiebreak 13.  With the capture
    # bias most games end by Takeover; some reach the half-move cap.  A
    # Network (5 connected own stones on tier 2), a Strangle (an empty reserve
    # and every stone blocked) or a repetition (both players Moving with no
    # Shape left but on their own stones) is very unlikely in random play;
    # those endings are tested from constructed positions elsewhere.  RULES
    # §8 note: a threefold cannot arise from the start.
    assert len(reasons) >= 2, summary
    assert {"takeover", "tiebreak"} <= set(reasons), summary
    assert "threefold" not in reasons, summary
    # The random turns really probed both sides of the agreement.
    assert sum(r.random_legal for r in records) > 0, summary
    assert sum(r.checked_random - r.random_legal for r in records) > 0, summary
