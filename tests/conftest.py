"""Fixtures shared by test modules: the archive audit's spoilt archive and its
rows (tests/test_audit.py, tests/test_audit_behaviours.py; helpers in
tests/audit_helpers.py).  Under mutmut, the quickest tests run first
(docs/testing.md).  A test marked ``alone`` has the machine to itself while
it runs: the other xdist workers start no test until it is done."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from checker.tools.audit.selfplay import write_archive
from tests.audit_helpers import judged

# what mutmut sets MUTANT_UNDER_TEST to when no mutant is active (its stats run, its forced failure, ...)
NOT_A_MUTANT = {"", "stats", "fail", "list_all_tests", "mutant_generation"}


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "alone: its timing assertions need the machine's cores: while it runs, no other xdist worker "
        "runs a test (make test runs a worker more than there are cores)",
    )


def pytest_collection_modifyitems(config, items) -> None:
    """The tests marked ``alone`` first: each worker's first test is quick, so the others wait for
    one little while at the start, not for a long test that is running when an ``alone`` test comes.

    Under a mutant, the tests that reach it in the order of their time in mutmut's stats run,
    quickest first: mutmut stops at the first failure, so a mutant a quick test kills is not kept
    waiting for the slow property tests.  Every test still runs for a mutant that survives."""
    items.sort(key=lambda item: item.get_closest_marker("alone") is None)  # stable: the rest as collected
    if os.environ.get("MUTANT_UNDER_TEST", "") in NOT_A_MUTANT:
        return
    stats = Path("mutmut-stats.json")  # mutmut runs the tests in its mutants/ folder
    if not stats.exists():
        return
    took = json.loads(stats.read_text())["duration_by_test"]
    items.sort(key=lambda item: took.get(item.nodeid, 0.0))


_LOCKS: list = []  # this worker's (gate, machine) lock files, opened once


@contextlib.contextmanager
def _the_machine(alone: bool) -> Iterator[None]:
    """Under xdist, a readers-writer lock over this run's workers (two flock files): a test holds the
    machine shared, an ``alone`` test exclusively.  The gate, held by an ``alone`` test while it waits,
    keeps new tests from starting meanwhile, so it is not starved by workers that follow each other."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:
        yield
        return
    if not _LOCKS:
        folder = Path(tempfile.gettempdir())
        _LOCKS.extend(open(folder / f"hexodic-tests-{run}.{name}", "a") for name in ("gate", "machine"))
    gate, machine = _LOCKS
    fcntl.flock(gate, fcntl.LOCK_EX)
    try:
        fcntl.flock(machine, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
    finally:
        if not alone:
            fcntl.flock(gate, fcntl.LOCK_UN)
    try:
        yield
    finally:
        fcntl.flock(machine, fcntl.LOCK_UN)
        if alone:
            fcntl.flock(gate, fcntl.LOCK_UN)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Each test's whole protocol (its fixtures' set-up and teardown too) under :func:`_the_machine`."""
    with _the_machine(alone=item.get_closest_marker("alone") is not None):
        yield


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
