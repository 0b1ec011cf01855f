"""An answer sent before the body is read is read by the client (issue 36):
the real gunicorn on loopback (one worker, HEXODIC_EXPENSIVE_LIMIT=1), a
costly request whose body never comes holding the work budget, and clients
that send a 900 KB body to a costly endpoint (the work budget's 503) and to a
cheap one (413: over the 256 KiB limit).  Each writes its whole body before
it reads, at once or slowly (within the body timeout), asking the server to
keep the connection or to close it; each must read its answer, never a reset
or a broken pipe.  checker/web/worker.py reads and discards what it did not
read; gunicorn's gevent worker closed with the body unread."""

from __future__ import annotations

import contextlib
import json
import socket
import time

import pytest

from bench.server import HOST, running_gunicorn
from tests.web.raw_http import read_response

BODY = b" " * 900_000
BODY_TIMEOUT = 8  # HEXODIC_BODY_TIMEOUT here: the holder's slot lasts that long, and the slow writer fits in it
PIECE, EVERY = 45_000, 0.1  # the slow writer: 900 KB in 2 s
ROUNDS = 2  # connections per case, all within one holder's BODY_TIMEOUT
PROBLEM = "urn:hexodic:checker:problem:"


@pytest.fixture(scope="module")
def server():
    with running_gunicorn(
        WEB_CONCURRENCY="1", HEXODIC_EXPENSIVE_LIMIT="1", HEXODIC_BODY_TIMEOUT=str(BODY_TIMEOUT)
    ) as srv:
        yield srv


def _head(path: str, length: int, close: bool) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n{'Connection: close' if close else 'Connection: keep-alive'}\r\n\r\n"
    ).encode()


def _answer(s: socket.socket, timeout: float = 10) -> tuple[int, dict, bytes] | str:
    """The answer on ``s``, or what happened instead: "reset", "closed" (EOF without an answer)."""
    try:
        got = read_response(s, timeout)
    except ConnectionResetError:
        return "reset"
    return "closed" if got is None else got


def _send(port: int, path: str, close: bool, slow: bool) -> tuple[int, dict, bytes] | str:
    """Send the 900 KB body to ``path`` in full (at once or slowly), then read."""
    with contextlib.closing(socket.create_connection((HOST, port), timeout=10)) as s:
        try:
            s.sendall(_head(path, len(BODY), close))
            if slow:
                for i in range(0, len(BODY), PIECE):
                    s.sendall(BODY[i : i + PIECE])
                    time.sleep(EVERY)
            else:
                s.sendall(BODY)
        except (BrokenPipeError, ConnectionResetError) as exc:
            return f"{type(exc).__name__} while sending"
        return _answer(s)


def _answered(s: socket.socket) -> bool:
    """Has the server sent anything on ``s`` (or closed it)?"""
    s.setblocking(False)
    try:
        return bool(s.recv(1, socket.MSG_PEEK)) or True
    except BlockingIOError:
        return False
    finally:
        s.setblocking(True)


@contextlib.contextmanager
def _budget_held(port: int):
    """A batch whose body never comes: admitted, it holds the worker's one
    slot while it waits for the body (up to BODY_TIMEOUT).  Held once a small
    costly request is refused while the holder has had no answer (an earlier
    holder may still be letting go of the slot)."""
    deadline = time.monotonic() + 10
    while True:
        holder = socket.create_connection((HOST, port), timeout=10)
        holder.sendall(_head("/v1/check/batch", 100, close=True))
        time.sleep(0.05)
        with contextlib.closing(socket.create_connection((HOST, port), timeout=10)) as probe:
            body = b'{"items": []}'
            probe.sendall(_head("/v1/check/batch", len(body), close=True) + body)
            got = _answer(probe)
        if not isinstance(got, str) and got[0] == 503 and not _answered(holder):
            break
        holder.close()
        assert time.monotonic() < deadline, f"no holder took the slot: {got}"
    try:
        yield
    finally:
        holder.close()


@pytest.mark.parametrize("close", [False, True], ids=["keep-alive", "close"])
@pytest.mark.parametrize("slow", [False, True], ids=["at-once", "slowly"])
@pytest.mark.parametrize(
    "path, status, slug",
    [("/v1/check/batch", 503, "busy"), ("/v1/check", 413, "body-too-large")],
    ids=["503-busy", "413"],
)
def test_a_client_that_writes_its_whole_body_first_reads_the_early_answer(server, path, status, slug, slow, close):
    with _budget_held(server.port):
        got = [_send(server.port, path, close, slow) for _ in range(ROUNDS)]
    failures = [g if isinstance(g, str) else g[0] for g in got if isinstance(g, str) or g[0] != status]
    assert not failures, f"{len(failures)} of {ROUNDS} clients did not read their {status}: {failures}"
    for _, headers, data in got:  # type: ignore[misc]
        assert headers["content-type"] == "application/problem+json"
        assert json.loads(data)["type"] == PROBLEM + slug
        if status == 503:
            assert headers["retry-after"] == "1"
