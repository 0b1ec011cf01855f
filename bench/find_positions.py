"""Where the positions of bench/bench.py come from (run from the repository root).

    python bench/find_positions.py games [FIRST LAST]
        Plays seeded random games (seeds FIRST..LAST-1, default 0..40) from the
        start and prints candidate positions: CROWD (all 14 stones on the board
        by half-move 22 with tiers 0, 1 and 2), END (both reserves empty from
        half-move 44 on) and COOLDOWN (the player to move has a cooldown and a
        stone in reserve), each with its seed, half-move and legal-turn count.

    python bench/find_positions.py placing [SEED ITERATIONS]
        A seeded simulated-annealing search for a placing position (B to move
        at half-move 13 with one stone in reserve) with as many legal turns as
        it can find.  The positions it visits look reachable from the start
        without captures: A has Placed 7 stones in 7 turns and B 6 in 6; each
        player made at most one Shape a turn (raises only); no stone on the
        board meets the encirclement test of the other player.

Not part of ``make bench``; it only documents and reproduces the choice.
"""

from __future__ import annotations

import math
import random
import sys

from checker import board
from checker.ending import game_over_reason
from checker.generate import legal_turns
from checker.notation import position_to_hpn
from checker.play import apply, weigh_encirclement
from checker.position import PlayerState, Position


def random_game(seed: int, max_half_moves: int = 60) -> list[Position]:
    """The positions of one seeded random game: legal turns drawn uniformly,
    preferring (85 %) a turn without an Echo so charges last."""
    rng = random.Random(seed)
    pos, history, out = Position.start(), [], [Position.start()]
    for _ in range(max_half_moves):
        turns = legal_turns(pos)
        if not turns:
            break
        plain = [t for t in turns if t.echo is None]
        turn = rng.choice(plain if plain and rng.random() < 0.85 else turns)
        outcome = apply(pos, turn, history)
        history.append(pos)
        pos = outcome.position
        out.append(pos)
        if outcome.game.over:
            break
    return out


def games(first: int, last: int) -> None:
    for seed in range(first, last):
        for i, p in enumerate(random_game(seed)):
            a, b = p.player("A"), p.player("B")
            n = len(legal_turns(p))
            if p.mover.cooldown and p.mover.reserve:
                print("COOLDOWN", seed, i, position_to_hpn(p), n)
            if a.reserve == b.reserve == 0 and i <= 22 and set(p.tiers) == {0, 1, 2}:
                print("CROWD", seed, i, position_to_hpn(p), n)
            if a.reserve == b.reserve == 0 and i >= 44 and n:
                print("END", seed, i, position_to_hpn(p), n)


def _placing(tiers: list[int], stones: list, h: int = 13) -> Position | None:
    """B to move at half-move ``h``; None unless consistent, not over, and
    plausible as described in the module docstring."""
    turns_a, turns_b = (h + 1) // 2, h // 2
    total = sum(tiers)
    if total > turns_a + turns_b or max(tiers) > 2:
        return None
    raises_a = min(turns_a, total)
    players = {
        "A": PlayerState(reserve=7 - stones.count("A"), raises=raises_a, placed=True),
        "B": PlayerState(reserve=7 - stones.count("B"), raises=total - raises_a, placed=True),
    }
    pos = Position(tiers, stones, [False] * board.CELL_COUNT, "B", h, players)
    if pos.problems() or pos.mover.reserve < 1 or game_over_reason(pos) is not None:
        return None
    for who in "AB":
        if any(w.captured for w in weigh_encirclement(pos.bits, who)):
            return None
    return pos


def placing(seed: int, iterations: int) -> None:
    rng = random.Random(seed)
    cells = list(board.CELLS)
    rng.shuffle(cells)
    stones: list = [None] * board.CELL_COUNT
    for c in cells[:7]:
        stones[c] = "A"
    for c in cells[7:13]:
        stones[c] = "B"
    tiers = [0] * board.CELL_COUNT
    pos = _placing(tiers, stones)
    cur = len(legal_turns(pos))
    best = (cur, position_to_hpn(pos))
    temperature = 100.0
    for _ in range(iterations):
        t2, s2 = list(tiers), list(stones)
        for _ in range(rng.choice([1, 1, 2, 3])):
            k, a, b = rng.random(), rng.randrange(37), rng.randrange(37)
            if k < 0.4:
                s2[a], s2[b] = s2[b], s2[a]
            elif k < 0.7:
                if t2[a] > 0 and t2[b] < 2:
                    t2[a] -= 1
                    t2[b] += 1
            elif k < 0.85:
                t2[a] = min(2, t2[a] + 1)
            else:
                t2[a] = max(0, t2[a] - 1)
        p = _placing(t2, s2)
        if p is None:
            continue
        n = len(legal_turns(p))
        if n >= cur or rng.random() < math.exp((n - cur) / temperature):
            tiers, stones, cur = t2, s2, n
            if n > best[0]:
                best = (n, position_to_hpn(p))
                print(*best, flush=True)
        temperature = max(2.0, temperature * 0.999)
    print("best:", *best)


if __name__ == "__main__":
    what, args = (sys.argv[1] if len(sys.argv) > 1 else "games"), [int(x) for x in sys.argv[2:]]
    if what == "games":
        games(*(args or [0, 40]))
    elif what == "placing":
        placing(*(args or [1, 40000]))
    else:
        sys.exit(__doc__)
