"""The ``alone`` mark's lock (tests/conftest.py): an ``alone`` test waits for the
tests running beside it to end, and no test starts while it waits or runs.

Three processes take the lock as three xdist workers of one run would (spawned,
each opening the run's lock files): a test holding it shared, then an ``alone``
test, then another test; each says when it got the lock and when it let it go."""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import time
import uuid

HOLD = 0.5  # how long the alone test and the test after it hold the lock, s
SETTLE = 0.5  # time for a process that said it is ready to be waiting at the lock, s


def _hold(run: str, alone: bool, ready, entered, release, spans) -> None:
    os.environ["PYTEST_XDIST_TESTRUNUID"] = run
    from tests.conftest import _the_machine

    ready.set()
    with _the_machine(alone):
        came = time.monotonic()
        entered.set()
        if release is None:
            time.sleep(HOLD)
        else:
            release.wait(60)
        spans.put((alone, came, time.monotonic()))


def test_an_alone_test_waits_for_the_running_tests_and_holds_off_new_ones():
    ctx = multiprocessing.get_context("spawn")
    run = f"selftest-{uuid.uuid4().hex}"
    spans, release = ctx.Queue(), ctx.Event()
    procs = []
    for alone in (False, True, False):  # a test running, the alone test, a test after it
        ready, entered = ctx.Event(), ctx.Event()
        first = not procs
        proc = ctx.Process(
            target=_hold, args=(run, alone, ready, entered, release if first else None, spans), daemon=True
        )
        proc.start()
        procs.append(proc)
        assert ready.wait(60)
        if first:
            assert entered.wait(60)  # the first test holds the lock ...
        else:
            time.sleep(SETTLE)
            assert not entered.is_set(), "the alone test, or the test after it, did not wait"
    release.set()  # ... until the other two wait at it
    got = [spans.get(timeout=60) for _ in procs]
    for proc in procs:
        proc.join(timeout=60)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    (first, after), alone = [s[1:] for s in got if not s[0]], next(s[1:] for s in got if s[0])
    assert alone[0] >= first[1], "the alone test began while a test beside it ran"
    assert after[0] >= alone[1], "a test began while the alone test ran"
    for name in ("gate", "machine"):
        os.unlink(os.path.join(tempfile.gettempdir(), f"hexodic-tests-{run}.{name}"))
