"""Fixtures shared by test modules: the archive audit's spoilt archive and its
rows (tests/test_audit.py, tests/test_audit_behaviours.py; helpers in
tests/audit_helpers.py).  Under mutmut, the quickest tests run first
(docs/testing.md)."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest

from checker.tools.audit.selfplay import write_archive
from tests.audit_helpers import judged

# what mutmut sets MUTANT_UNDER_TEST to when no mutant is active (its stats run, its forced failure, ...)
NOT_A_MUTANT = {"", "stats", "fail", "list_all_tests", "mutant_generation"}


def pytest_collection_modifyitems(config, items) -> None:
    """Under a mutant, the tests that reach it in the order of their time in mutmut's stats run,
    quickest first: mutmut stops at the first failure, so a mutant a quick test kills is not kept
    waiting for the slow property tests.  Every test still runs for a mutant that survives."""
    if os.environ.get("MUTANT_UNDER_TEST", "") in NOT_A_MUTANT:
        return
    stats = Path("mutmut-stats.json")  # mutmut runs the tests in its mutants/ folder
    if not stats.exists():
        return
    took = json.loads(stats.read_text())["duration_by_test"]
    items.sort(key=lambda item: took.get(item.nodeid, 0.0))


@pytest.fixture(scope="session")
def archive(tmp_path_factory) -> Path:
    """240 self-play records, 30% spoilt (every status), with two blank lines
    after the third.  Made once per run (about 6 s): the xdist workers share
    it, in the folder above their own (this run's), under a lock."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        folder = tmp_path_factory.mktemp("archive")
    else:
        folder = tmp_path_factory.getbasetemp().parent / "archive"
        folder.mkdir(exist_ok=True)
    path = folder / "games.jsonl"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            made = folder / "games.jsonl.making"
            write_archive(str(made), 240, seed=5, spoil=0.3)
            # blank lines are skipped, their numbers counted
            lines = made.read_bytes().split(b"\n")
            made.write_bytes(b"\n".join([*lines[:3], b"", b"   ", *lines[3:]]))
            made.replace(path)
    return path


@pytest.fixture(scope="session")
def expected(archive) -> list[dict]:
    """The archive judged in this process, record by record."""
    return judged(archive)
