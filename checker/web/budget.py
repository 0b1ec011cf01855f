"""A worker's fair shares: cheap requests are not starved by expensive ones.

Under gunicorn's gevent worker one process serves many connections at once,
switching between them only where one waits for the network.  So

- long loops :func:`pause` between items (under gevent's monkey patching
  ``time.sleep(0)`` is ``gevent.sleep(0)``: the worker's other requests run;
  under threads it lets another thread take the interpreter), and
- an :func:`expensive` endpoint (a 1000-item batch, a list of thousands of
  legal turns) runs at most ``EXPENSIVE_LIMIT`` times at once in a worker;
  one more is answered 503 with ``Retry-After`` at once, so a crowd of them
  cannot stand between a cheap check and the CPU.  An admitted one steps
  aside once before it starts, so those that arrived together are counted
  (a legal-turn list does not yield while it runs).
"""

from __future__ import annotations

import functools
import threading
import time

from flask import current_app

from .errors import APIError

RETRY_AFTER_SECONDS = 1

_lock = threading.Lock()     # held for two lines, never across a switch
_running = 0


def pause() -> None:
    """Let the worker's other requests run."""
    time.sleep(0)


def expensive(view):
    """Run ``view`` only while fewer than ``EXPENSIVE_LIMIT`` expensive
    requests are running in this worker; otherwise answer 503."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        global _running
        limit = current_app.config["EXPENSIVE_LIMIT"]
        with _lock:
            busy = _running >= limit
            if not busy:
                _running += 1
        if busy:
            raise APIError(503, "busy", "Service Unavailable",
                           f"This worker is already answering {limit} batches or legal-turn lists; "
                           f"retry in {RETRY_AFTER_SECONDS} s.",
                           headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
        try:
            pause()     # step aside once: requests that came in meanwhile are counted before this one runs
            return view(*args, **kwargs)
        finally:
            with _lock:
                _running -= 1

    return wrapper
