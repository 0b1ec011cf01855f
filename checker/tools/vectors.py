"""Conformance vectors: positions, turns and the checker's answers, for other
Hexodic implementations to run in their CI.

The file ``checker/data/vectors.jsonl`` is JSON Lines.  Its first line is a
header::

    {"format": "hexodic-conformance-vectors", "version": 1, "rules_version": "2026-09-15", "count": N}

and each further line one vector::

    {"id", "description", "position" (HPN), "history" (null or [HPN, ...]),
     "turn" (HTN), "legal", "violations" (failed rule ids, in order),
     "after" (HPN when legal, else null),
     "game" (when legal: {over, result, reason, repetition}, else null)}

Vectors whose id starts with ``hand-`` were written by hand from RULES.md
(``vectors_hand.jsonl``); those starting with ``gen-`` are generated from
seeded random games by :func:`generated_vectors` and pin the checker's answers as
regression vectors.

Rebuild the file with ``python -m checker.tools.vectors build``; check an
implementation's answers with :func:`run_vector`.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable, Iterator
from importlib import resources

from checker import board
from checker.generate import legal_turns
from checker.legality import check
from checker.notation import parse_hpn, parse_htn, position_to_hpn, turn_to_htn
from checker.position import MAX_HALF_MOVES, Position
from checker.turn import (
    CAPTURE,
    LOCK,
    LOWER,
    RAISE,
    Echo,
    Move,
    Place,
    Project,
    Shape,
    Skip,
    Turn,
)
from checker.version import RULES_VERSION

__all__ = [
    "FORMAT",
    "VERSION",
    "KEYS",
    "header",
    "read_vectors",
    "hand_vectors",
    "generated_vectors",
    "build",
    "expected",
    "run_vector",
    "main",
]

FORMAT = "hexodic-conformance-vectors"
VERSION = 1
KEYS = ("id", "description", "position", "history", "turn", "legal", "violations", "after", "game")
SHIPPED = "vectors.jsonl"
HAND = "vectors_hand.jsonl"

# Generation: seeded random games; per rule id at most this many failing vectors.
GEN_SEEDS = range(40)
GEN_FAIL_TARGET = 6
GEN_LEGAL_EVERY = 10  # a legal vector every 10th position of a game, and its last turn


def _read_lines(name: str) -> list[str]:
    return resources.files("checker.data").joinpath(name).read_text(encoding="utf-8").splitlines()


def header(count: int) -> dict:
    return {"format": FORMAT, "version": VERSION, "rules_version": RULES_VERSION, "count": count}


def read_vectors(lines: Iterable[str] | None = None) -> list[dict]:
    """The shipped vectors (or those in ``lines``), header skipped."""
    lines = _read_lines(SHIPPED) if lines is None else list(lines)
    out = [json.loads(line) for line in lines if line.strip()]
    if out and out[0].get("format") == FORMAT:
        out = out[1:]
    return out


def hand_vectors() -> list[dict]:
    """The vectors written by hand from RULES.md."""
    return read_vectors(_read_lines(HAND))


def expected(position: Position, turn: Turn, history: list[Position] | None) -> dict:
    """The answer fields of a vector, from the checker."""
    v = check(position, turn, history)
    if not v.legal:
        return {"legal": False, "violations": v.violations, "after": None, "game": None}
    outcome = v.outcome
    assert outcome is not None  # a legal verdict carries its outcome
    g = outcome.game
    return {
        "legal": True,
        "violations": [],
        "after": position_to_hpn(outcome.position),
        "game": {"over": g.over, "result": g.result, "reason": g.reason, "repetition": g.repetition},
    }


def run_vector(vector: dict) -> list[str]:
    """What the checker answers differently from ``vector`` (empty: it agrees)."""
    position = parse_hpn(vector["position"])
    history = None if vector["history"] is None else [parse_hpn(h) for h in vector["history"]]
    got = expected(position, parse_htn(vector["turn"]), history)
    return [f"{key}: expected {vector[key]!r}, got {got[key]!r}" for key in got if got[key] != vector[key]]


def _vector(id_: str, description: str, position: Position, history: list[Position] | None, turn: Turn) -> dict:
    v = {
        "id": id_,
        "description": description,
        "position": position_to_hpn(position),
        "history": None if history is None else [position_to_hpn(h) for h in history],
        "turn": turn_to_htn(turn, position),
    }
    v.update(expected(position, turn, history))
    return v


def _random_turn(rng: random.Random) -> Turn:
    cells = board.CELLS
    kind = rng.random()
    project: Project
    if kind < 0.45:
        project = Place(rng.choice(cells))
    elif kind < 0.9:
        a = rng.choice(cells)
        b = rng.choice(board.NEIGHBOURS[a]) if rng.random() < 0.7 else rng.choice(cells)
        project = Move(a, b)
    else:
        project = Skip()
    shape = None if rng.random() < 0.2 else Shape(rng.choice((RAISE, LOWER)), rng.choice(cells))
    echo = None if rng.random() < 0.6 else Echo(rng.choice((CAPTURE, LOCK)), rng.choice(cells))
    return Turn(project, shape, echo)


def _near_miss(rng: random.Random, legal: list[Turn]) -> Turn:
    """A legal turn with one part changed at random."""
    p, s, e = rng.choice(legal)
    part = rng.randrange(3)
    c = rng.choice(board.CELLS)
    if part == 0:
        p = Place(c) if isinstance(p, Place) or rng.random() < 0.5 else Move(c, rng.choice(board.NEIGHBOURS[c]))
    elif part == 1:
        s = None if s is not None and rng.random() < 0.3 else Shape(rng.choice((RAISE, LOWER)), c)
    else:
        e = Echo(rng.choice((CAPTURE, LOCK)), c)
    return Turn(p, s, e)


def generated_vectors() -> list[dict]:
    """Regression vectors from seeded random games: legal turns along each
    game, and illegal turns chosen so that every rule id fails a few times."""
    out: list[dict] = []
    fails: dict[str, int] = {}
    seen: set[tuple[str, str]] = set()
    for seed in GEN_SEEDS:
        rng = random.Random(seed)
        pos, history = Position.start(), list[Position]()
        for ply in range(MAX_HALF_MOVES):
            turns = legal_turns(pos)
            if not turns:
                break
            where = f"seeded random game {seed}, after {ply} half-moves"
            if ply % GEN_LEGAL_EVERY == seed % GEN_LEGAL_EVERY:
                t = rng.choice(turns)
                out.append(
                    _vector(
                        f"gen-{seed:02d}-{ply:02d}-legal",
                        f"Generated from {where}: a legal turn (regression vector; the answer is the checker's).",
                        pos,
                        list(history),
                        t,
                    )
                )
                seen.add((out[-1]["position"], out[-1]["turn"]))
            legal_set = set(turns)
            for k in range(12):
                t = _random_turn(rng) if k % 2 else _near_miss(rng, turns)
                if t in legal_set:
                    continue
                violations = check(pos, t, history).violations
                if not violations or all(fails.get(r, 0) >= GEN_FAIL_TARGET for r in violations):
                    continue
                key = (position_to_hpn(pos), turn_to_htn(t, pos))
                if key in seen:
                    continue
                seen.add(key)
                for r in violations:
                    fails[r] = fails.get(r, 0) + 1
                out.append(
                    _vector(
                        f"gen-{seed:02d}-{ply:02d}-illegal-{k:02d}",
                        f"Generated from {where}: an illegal turn failing {', '.join(violations)} "
                        "(regression vector; the answer is the checker's).",
                        pos,
                        list(history),
                        t,
                    )
                )
            t = rng.choice(turns)
            verdict = check(pos, t, history)
            outcome = verdict.outcome
            assert outcome is not None  # t is one of the legal turns
            if outcome.game.over:
                out.append(
                    _vector(
                        f"gen-{seed:02d}-{ply:02d}-end",
                        f"Generated from {where}: the turn that "
                        f"ends the game ({outcome.game.reason}) (regression vector; the answer "
                        "is the checker's).",
                        pos,
                        list(history),
                        t,
                    )
                )
                history.append(pos)
                after = outcome.position
                late = _random_turn(rng)
                out.append(
                    _vector(
                        f"gen-{seed:02d}-{ply + 1:02d}-over",
                        f"Generated from {where}: a turn "
                        "after the game has ended (regression vector; the answer is the checker's).",
                        after,
                        list(history),
                        late,
                    )
                )
                break
            history.append(pos)
            pos = outcome.position
    return out


def build() -> list[str]:
    """The lines of the shipped file: header, hand vectors, generated vectors."""
    vectors = hand_vectors() + generated_vectors()
    lines = [json.dumps(header(len(vectors)), ensure_ascii=False)]
    lines += [json.dumps({k: v[k] for k in KEYS}, ensure_ascii=False) for v in vectors]
    return lines


def _iter_problems(vectors: list[dict]) -> Iterator[str]:
    for v in vectors:
        for problem in run_vector(v):
            yield f"{v['id']}: {problem}"


def main(argv: list[str] | None = None) -> int:
    """``python -m checker.tools.vectors build`` rewrites the shipped file;
    ``python -m checker.tools.vectors check`` runs every shipped vector."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["build"]:
        target = resources.files("checker.data").joinpath(SHIPPED)
        lines = build()
        with resources.as_file(target) as path:
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"wrote {len(lines) - 1} vectors")
        return 0
    if args == ["check"]:
        vectors = read_vectors()
        problems = list(_iter_problems(vectors))
        for p in problems:
            print(p)
        print(f"{len(vectors) - len({p.split(':')[0] for p in problems})} of {len(vectors)} vectors agree")
        return 1 if problems else 0
    print("usage: python -m checker.tools.vectors build|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
