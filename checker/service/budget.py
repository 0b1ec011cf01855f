"""A worker's fair shares: cheap requests are not starved by expensive ones.

Under gunicorn's gevent worker one process serves many connections at once,
switching between them only where one waits for the network.  So

- long loops :func:`pause` between items (the request pipeline's batch loop,
  :mod:`checker.service.pipeline`; under gevent's monkey patching
  ``time.sleep(0)`` is ``gevent.sleep(0)``: the worker's other requests run;
  under threads it lets another thread take the interpreter), and
- an expensive endpoint (a 1000-item batch, a list of thousands of legal
  turns; declared ``expensive=True`` in :mod:`checker.web.endpoints`) runs
  only while it is :func:`admitted`: at most ``limit`` of them at once in a
  worker (``HEXODIC_EXPENSIVE_LIMIT``); one more is answered 503 with
  ``Retry-After`` at once, so a crowd of them cannot stand between a cheap
  check and the CPU.  An admitted one steps aside once before it starts, so
  those that arrived together are counted (a legal-turn list does not yield
  while it runs).

Like the pipeline, this module knows no web framework: the limit is the
caller's, and a refusal is a :class:`~checker.service.problems.RequestError`.

>>> with admitted(1):
...     with admitted(1):
...         pass
Traceback (most recent call last):
...
checker.service.problems.RequestError: This worker is already answering 1 batches or legal-turn lists; retry in 1 s.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

from checker.service.problems import RequestError

RETRY_AFTER_SECONDS = 1

_lock = threading.Lock()  # held for two lines, never across a switch
_running = 0


def pause() -> None:
    """Let the worker's other requests run."""
    time.sleep(0)


@contextlib.contextmanager
def admitted(limit: int) -> Iterator[None]:
    """The block runs while fewer than ``limit`` expensive requests are
    running in this worker; otherwise a 503 :class:`RequestError` with
    ``Retry-After``."""
    global _running
    with _lock:
        busy = _running >= limit
        if not busy:
            _running += 1
    if busy:
        raise RequestError(
            503,
            "busy",
            "Service Unavailable",
            f"This worker is already answering {limit} batches or legal-turn lists; retry in {RETRY_AFTER_SECONDS} s.",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    try:
        pause()  # step aside once: requests that came in meanwhile are counted before this one runs
        yield
    finally:
        with _lock:
            _running -= 1
