"""The gunicorn worker the service runs (``worker_class`` in gunicorn.conf.py):
gunicorn's gevent worker with two more promises to a client.

- **An early answer is read.**  A request whose body the service did not read
  (it was refused before: 413 for a body over the limit, 503 from the work
  budget, 404, 415, a bad ``Host``) has the rest of its body read and
  discarded after the answer is sent, for as long as the body was allowed to
  take (``HEXODIC_BODY_TIMEOUT`` from the request's start) and up to
  :data:`DISCARD_FACTOR` times the body limit.  Closed with the body unread,
  the kernel answers the client's next bytes with a reset, which often
  reaches the client before it has read the answer (ECONNRESET).  gunicorn's
  gevent worker discards a kept-alive request's body itself, but only within
  the keep-alive time (1 s), so a slow client was cut.  What gunicorn refuses
  itself (a bad request line, an unsupported transfer coding) is closed the
  same gentle way: the write side first, then what the client still sends
  read and discarded.
- **Every accepted connection is answered on the way out.**  When the worker
  stops (SIGTERM, after the drain), it first takes every connection the
  kernel has already accepted for it (the listen queue) and serves them, with
  ``Connection: close``, then closes its listening socket in the same step.
  gunicorn's worker closed the socket with connections still queued, and the
  kernel reset them.

May import: gunicorn, gevent and :mod:`checker.web.settings` (the master loads
this class before the app).
"""

from __future__ import annotations

import time
from functools import partial

import gevent
from gevent.pool import Pool
from gevent.server import StreamServer
from gunicorn import util
from gunicorn.workers.ggevent import GeventWorker

from checker.web import settings

DISCARD_FACTOR = 4
"""An unread body is discarded up to this many times the body limit (1 MiB by
default): a body over the limit is still read far enough for a client that
writes it all before it reads the answer."""


LATE_GRACE = 0.05
"""Seconds a body is still read after its deadline (an answer that took longer
than the body timeout): time enough to see that it was read to its end."""


class _Listener:
    """What a connection's handler asks of its listening socket: its address.
    Kept apart from the socket, which may be closed by then (gunicorn's worker
    hands the socket itself, and a connection accepted just before the close
    was reset by the handler's EBADF)."""

    def __init__(self, address):
        self.address = address

    def getsockname(self):
        return self.address


class Worker(GeventWorker):
    """gunicorn's gevent worker, reading what it answered early and answering
    its listen queue before it stops."""

    def init_process(self) -> None:
        app = settings.from_env()
        self.body_seconds = float(app["BODY_TIMEOUT"])
        self.discard_bytes = DISCARD_FACTOR * app["MAX_CONTENT_LENGTH"]
        super().init_process()

    # ----------------------------------------------------------------- an early answer is read

    def handle_request(self, listener_name, req, sock, addr):
        started = time.monotonic()
        try:
            kept = super().handle_request(listener_name, req, sock, addr)
        except StopIteration:  # answered, and the connection is to close
            self.discard_body(req, started + self.body_seconds)
            raise
        if not self.discard_body(req, started + self.body_seconds):
            raise StopIteration  # the rest of the body is still coming: where the next request starts is unknown
        return kept

    def discard_body(self, req, deadline: float) -> bool:
        """Read the rest of ``req``'s body and drop it, until ``deadline``
        (a monotonic time) and up to ``discard_bytes``; True when it ended."""
        body = getattr(req, "body", None)
        if body is None or getattr(body, "failed", False):
            return body is None
        # at least a moment: a body read to its end ends at once, however late the answer
        left = max(deadline - time.monotonic(), LATE_GRACE)
        ended, dropped = False, 0
        with gevent.Timeout(left, False):
            try:
                while dropped <= self.discard_bytes:
                    data = body.read(65536)
                    if not data:
                        ended = True
                        break
                    dropped += len(data)
            except Exception:  # the client went away or broke the framing: nothing more to read
                return False
        return ended

    def handle_error(self, req, client, addr, exc):
        super().handle_error(req, client, addr, exc)
        # gunicorn's refusal is written; close gently so that the client reads it
        util.close_graceful(client, timeout=self.body_seconds, max_drain=self.discard_bytes)

    # ----------------------------------------------------------------- the listen queue answered

    def run(self) -> None:
        """gunicorn's GeventWorker.run (plain HTTP; this service has no TLS of
        its own), except that stopping answers the listen queue first."""
        servers = []
        for s in self.sockets:
            s.setblocking(1)
            name = _Listener(s.getsockname())  # a handler still starting when the socket is closed reads the name
            server = StreamServer(s, handle=partial(self.handle, name), spawn=Pool(self.worker_connections))
            if self.cfg.workers > 1:
                server.max_accept = 1
            server.start()
            servers.append(server)

        while self.alive:
            self.notify()
            gevent.sleep(1.0)

        try:
            for server in servers:
                taken = self.close_listener(server)
                if taken:
                    self.log.info("Stopping: %s connections from the listen queue answered", taken)
            started = time.time()  # gunicorn's own graceful wait: until every handler is done, or its timeout
            while time.time() - started <= self.cfg.graceful_timeout:
                if all(server.pool.free_count() == server.pool.size for server in servers):
                    return
                self.notify()
                gevent.sleep(1.0)
            self.log.warning("Worker graceful timeout (pid:%s)", self.pid)
            for server in servers:
                server.stop(timeout=1)
        except Exception:
            self.log.exception("stopping the worker")

    @staticmethod
    def close_listener(server: StreamServer) -> int:
        """Stop accepting on ``server``, hand every connection still in its
        listen queue to a handler, then close the socket; no switch to another
        greenlet between the last empty accept and the close, so nothing is
        queued behind it.  Returns the connections taken from the queue."""
        server.stop_accepting()
        taken = 0
        while True:
            accepted = server.do_read()  # (socket, address), or None when the queue is empty
            if not accepted:
                break
            server.do_handle(*accepted)  # into the pool; may wait for a free slot, and the queue is read again after
            taken += 1
        server.close()
        return taken
