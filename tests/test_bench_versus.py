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
