"""bench/versus.py: the checker beside a git ref, each version in its own process."""

from __future__ import annotations

import subprocess

from bench import versus


def test_a_ref_beside_itself_does_the_same_work_and_reads_as_a_table():
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=versus.ROOT, capture_output=True, text=True).stdout.strip()
    r = versus.compare(head, rounds=1, games=1)
    assert set(r["ratios"]) == set(versus.UNITS) == set(versus.GOALS)
    assert all(0.2 < ratio < 5 for ratio in r["ratios"].values()), r  # the same code: near 1, whatever the noise
    assert r["calls"][2] == 1 and r["calls"][0] == r["calls"][1] > 10  # one game: a check and a listing per turn
    worktrees = subprocess.run(["git", "worktree", "list"], cwd=versus.ROOT, capture_output=True, text=True).stdout
    assert "hexodic-versus-" not in worktrees, "the ref's worktree is removed"


def test_the_baseline_is_a_commit_of_this_repository():
    out = subprocess.run(["git", "cat-file", "-t", versus.BASELINE], cwd=versus.ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "commit", out.stderr


def test_the_judging_core_is_what_issue_34_counts():
    """Every .py under checker/ but drawing/, service/, tools/, web/, the catalogue and the rules
    reference's texts, notation, scoresheet, version, extras and __init__; counted as wc -l does."""
    files = versus.core_files(versus.ROOT)
    assert {p.name for p in files} == {
        "board.py",
        "counting.py",
        "ending.py",
        "generate.py",
        "legality.py",
        "play.py",
        "position.py",
        "projects.py",
        "replay.py",
        "rules.py",
        "turn.py",
        "wording.py",
    }
    assert versus.core_lines(versus.ROOT) == sum(len(p.read_text().splitlines()) for p in files)
