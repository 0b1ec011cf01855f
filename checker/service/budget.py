"""A worker's fair shares: cheap requests are not starved by expensive ones.

Under gunicorn's gevent worker one process serves many connections at once,
switching between them only where one waits for the network.  So

- long loops :func:`pause` between items (the request pipeline's batch loop,
  :mod:`checker.service.pipeline`, and a perft count every 64 positions: under
  gevent the event loop polls and the worker's other requests run; under
  threads another thread takes the interpreter), and
- an expensive endpoint (a 1000-item batch, a list of thousands of legal
  turns, a perft count; declared ``expensive=True`` in
  :mod:`checker.web.endpoints`; and a PNG picture, costed by its size) runs
  only while it is :func:`admitted`: at most ``limit`` units of cost at once
  in a worker (``HEXODIC_EXPENSIVE_LIMIT``; a request costs 1 unless its
  cost is known up front); one more is answered 503 with ``Retry-After`` at
  once, so a crowd of them cannot stand between a cheap check and the CPU.
  One request costing more than the limit is admitted only alone.  An admitted one steps aside once before it starts, so
  those that arrived together are counted (a legal-turn list does not yield
  while it runs).
- an admitted request meets its deadline (``deadline`` seconds from its
  admission, ``HEXODIC_WORK_DEADLINE``): each :func:`pause` checks it, so
  a batch or a perft count that a crowd of others has slowed is stopped at
  its next pause and answered 503 with ``Retry-After``, not a minute later.
  A legal-turn list and a PNG drawing do not pause while they run (each
  takes well under a second); they are stopped before they start.

Like the pipeline, this module knows no web framework: the limit is the
caller's, and a refusal is a :class:`~checker.service.problems.RequestError`.

>>> with admitted(1):
...     with admitted(1):
...         pass
Traceback (most recent call last):
...
checker.service.problems.RequestError: This worker is already at its limit of 1 expensive requests (batches, legal-turn lists, perft counts, PNG pictures); retry in 1 s.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
import time
from collections.abc import Iterator

from checker.service.problems import RequestError

RETRY_AFTER_SECONDS = 1
LONGEST_PAUSE = 0.05
"""Seconds one :func:`pause` waits for the event loop to be idle, at most."""

_lock = threading.Lock()  # held for two lines, never across a switch
_running = 0
_deadline: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar("deadline", default=None)
"""The admitted request's (monotonic deadline, its seconds); a greenlet or thread of its own each."""


def pause() -> None:
    """Let the worker's other requests run.

    Under gevent (gunicorn's gevent worker has monkey-patched ``time``),
    ``gevent.idle()``: it waits until the event loop has polled for network
    events and run every other ready greenlet, so a request that arrived meanwhile
    is read and answered.  (``time.sleep(0)``, which is ``gevent.sleep(0)`` there,
    only runs the greenlets already ready: measured with a perft count running, a
    10-ms timer then waited up to 340 ms; with ``idle``, 22 ms.)  The wait is
    at most :data:`LONGEST_PAUSE`: beside a stream of cheap requests (a crowd
    refused by the cap) the loop is never idle, and a perft count, which
    pauses every 64 positions, was answered after a minute.  Without gevent,
    ``time.sleep(0)`` lets another thread take the interpreter.

    Past the admitted request's deadline, the 503 ``deadline`` problem."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("time"):
        import gevent

        with gevent.Timeout(LONGEST_PAUSE, False):
            gevent.idle()
    else:
        time.sleep(0)
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline[0]:
        raise RequestError(
            503,
            "deadline",
            "Service Unavailable",
            f"This worker is too busy to finish this expensive request within its deadline of {deadline[1]:g} s; "
            f"it was stopped. Retry in {RETRY_AFTER_SECONDS} s.",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )


@contextlib.contextmanager
def admitted(limit: int, cost: int = 1, deadline: float | None = None) -> Iterator[None]:
    """The block runs while the expensive requests running in this worker
    cost less than ``limit`` together with this one (``cost`` units; one
    that costs more than the limit runs only alone); otherwise a 503
    :class:`RequestError` with ``Retry-After``.  With a ``deadline`` (seconds),
    a :func:`pause` in the block after that time raises the 503 ``deadline``
    problem, with ``Retry-After``."""
    global _running
    with _lock:
        busy = _running > 0 and _running + cost > limit
        if not busy:
            _running += cost
    if busy:
        raise RequestError(
            503,
            "busy",
            "Service Unavailable",
            f"This worker is already at its limit of {limit} expensive requests (batches, legal-turn lists, "
            f"perft counts, PNG pictures); retry in {RETRY_AFTER_SECONDS} s.",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    token = _deadline.set(None if deadline is None else (time.monotonic() + deadline, deadline))
    try:
        pause()  # step aside once: requests that came in meanwhile are counted before this one runs
        yield
    finally:
        _deadline.reset(token)
        with _lock:
            _running -= cost
