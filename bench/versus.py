"""The checker beside an earlier version of itself, in one run.

``python -m bench.versus [--ref REF]`` (and a section of ``make bench``) checks
out REF (default :data:`BASELINE`, the last commit before the rules engine's
rewrite, issue 34) into a temporary git worktree and times the same work with
each version, each in a process of its own on one core, the versions
alternated over :data:`ROUNDS` rounds so that background load touches both
alike; each figure is the best round of its version.  The work, from seeded
random games played from the start (:func:`workload`):

- ``check``: the played turn at every position of the games (µs per call);
- ``legal_turns``: every legal turn at those positions (µs per call);
- ``replay``: the whole games (ms per game);
- ``perft``: depth 2 with divide from positions of the games (nodes/s);
- ``audit``: the archive audit's record judge (``judge_chunk``) over the
  games as score sheets (games/s).

The ratio is REF's time over this version's: above 1 this version is faster.
Only the public API that both versions have is called.  The table's last row
is the judging core's size (:func:`core_lines`) in each tree, against
:data:`CORE_GOAL`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "19eb2ad"  # the corpus recorded: the last commit before the rewrite (issue 34)
ROUNDS = 3
GAMES = 6

GOALS = {"check": 1.0, "legal_turns": 1.0, "replay": 1.0, "perft": 1.5, "audit": 1.5}
CORE_GOAL = 2677  # the judging core's lines at most: 75% of the 3,569 issue 34 counted

# The judging core: every .py under checker/ but these folders and files (the words of the rules
# reference and the catalogue, the notation, the score sheet, the version, the extras, __init__).
NOT_CORE_DIRS = ("drawing", "service", "tools", "web")
NOT_CORE_FILES = (
    "catalogue.py",
    "reference.py",
    "notation.py",
    "scoresheet.py",
    "version.py",
    "extras.py",
    "__init__.py",
)


def core_files(tree: Path) -> list[Path]:
    """The judging core's files in ``tree``."""
    base = tree / "checker"
    return sorted(
        p
        for p in base.rglob("*.py")
        if p.relative_to(base).parts[0] not in NOT_CORE_DIRS and p.name not in NOT_CORE_FILES
    )


def core_lines(tree: Path) -> int:
    """The judging core's size in ``tree``: its files' lines, as ``wc -l`` counts them."""
    return sum(p.read_bytes().count(b"\n") for p in core_files(tree))


# Run in a child process with the version's tree first on sys.path: prints the
# seconds each piece of work took.
_WORKER = r"""
import json, random, sys, time
from checker import check, legal_turns, perft, replay
from checker.notation import turn_to_htn
from checker.position import Position
from checker.tools.audit.records import judge_chunk

def workload(games):
    out = []
    for seed in range(games):
        rng, pos, steps = random.Random(seed), Position.start(), []
        while True:
            turns = legal_turns(pos)
            if not turns:
                break
            turn = rng.choice(turns)
            steps.append((pos, turn))
            v = check(pos, turn)
            if v.outcome.game.over:
                break
            pos = v.outcome.position
        out.append(steps)
    return out

games = workload(int(sys.argv[1]))
steps = [s for g in games for s in g]
positions = [p for p, _ in steps]
sheets = [[turn_to_htn(t, p) for p, t in g] for g in games]
records = [("games.jsonl", i + 1, json.dumps({"id": i, "turns": s})) for i, s in enumerate(sheets)]
deep = positions[:: max(1, len(positions) // 4)][:4]

def timed(fn, repeat=3):
    best = None
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best

nodes = sum(n for p in deep for _, n in perft(p, 2, divide=True))
print(json.dumps({
    "check": timed(lambda: [check(p, t, assume_consistent=True) for p, t in steps]) / len(steps) * 1e6,
    "legal_turns": timed(lambda: [legal_turns(p) for p in positions]) / len(positions) * 1e6,
    "replay": timed(lambda: [replay([t for _, t in g]) for g in games]) / len(games) * 1e3,
    "perft": nodes / timed(lambda: [perft(p, 2, divide=True) for p in deep], repeat=1),
    "audit": len(records) / timed(lambda: judge_chunk(records)),
    "calls": [len(steps), len(positions), len(games), nodes, len(records)],
}))
"""

UNITS = {"check": "µs/call", "legal_turns": "µs/call", "replay": "ms/game", "perft": "nodes/s", "audit": "games/s"}
RATES = {"perft", "audit"}  # higher is better; the others are times


def _run(tree: Path, games: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    cmd = ["taskset", "-c", "0", sys.executable, "-c", _WORKER, str(games)]
    if not _has_taskset():
        cmd = cmd[3:]
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _has_taskset() -> bool:
    return subprocess.run(["sh", "-c", "command -v taskset"], capture_output=True).returncode == 0


def compare(ref: str = BASELINE, rounds: int = ROUNDS, games: int = GAMES) -> dict:
    """Each version's best figures and the ratios."""
    with tempfile.TemporaryDirectory(prefix="hexodic-versus-") as tmp:
        tree = Path(tmp) / "ref"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), ref], cwd=ROOT, check=True)
        try:
            lines = {"ref": core_lines(tree), "head": core_lines(ROOT)}
            results: dict[str, list[dict]] = {"ref": [], "head": []}
            for _ in range(rounds):
                for name, where in (("ref", tree), ("head", ROOT)):
                    results[name].append(_run(where, games))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    best = {}
    for name, runs in results.items():
        best[name] = {k: (max if k in RATES else min)(r[k] for r in runs) for k in UNITS}
    assert results["ref"][0]["calls"] == results["head"][0]["calls"], "the two versions did different work"
    ratios = {
        k: (best["head"][k] / best["ref"][k]) if k in RATES else (best["ref"][k] / best["head"][k]) for k in UNITS
    }
    return {"ref": ref, "best": best, "ratios": ratios, "calls": results["head"][0]["calls"], "lines": lines}


def section(ref: str = BASELINE) -> str:
    """The side-by-side table, as ``make bench`` prints it."""
    r = compare(ref)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    lines = [
        f"Side by side: {r['ref']} (ref) and this tree ({head.strip()}, with its changes), "
        f"one core each, best of {ROUNDS} alternated rounds",
        "",
        "| work | unit | ref | this | ratio | goal |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for k, unit in UNITS.items():
        ratio, goal = r["ratios"][k], GOALS[k]
        mark = "meets" if ratio >= goal else "MISS"
        lines.append(
            f"| {k} | {unit} | {r['best']['ref'][k]:,.1f} | {r['best']['head'][k]:,.1f} | {ratio:.2f}x | "
            f">= {goal:.1f}x {mark} |"
        )
    ref_lines, head_lines = r["lines"]["ref"], r["lines"]["head"]
    share = head_lines / ref_lines
    lines.append(
        f"| judging core | lines | {ref_lines:,} | {head_lines:,} | {share:.2f} of ref | "
        f"<= {CORE_GOAL:,} {'meets' if head_lines <= CORE_GOAL else 'MISS'} |"
    )
    lines.append("")
    lines.append("Rerun: python -m bench.versus --ref REF (any commit, tag or branch).")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", default=BASELINE, help=f"the git ref to compare with (default {BASELINE})")
    args = ap.parse_args(argv)
    started = time.monotonic()
    print(section(args.ref))
    print(f"({time.monotonic() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
