"""Reading an HTTP/1.1 answer off a raw socket, for the tests that talk to
gunicorn below ``http.client`` (slow, cut and hostile clients)."""

from __future__ import annotations

import socket


def read_response(s: socket.socket, timeout: float) -> tuple[int, dict, bytes] | None:
    """The response read from ``s`` (status, headers with lower-case names,
    body), or None when the server closed it without one.  A reset raises
    ``ConnectionResetError``; no answer nor close within ``timeout`` raises
    ``TimeoutError`` carrying the bytes read so far."""
    s.settimeout(timeout)
    raw = b""
    try:
        while True:
            head, sep, rest = raw.partition(b"\r\n\r\n")
            if sep:
                lines = head.decode("latin-1").split("\r\n")
                headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
                if len(rest) >= int(headers.get("content-length", 0)):
                    return int(lines[0].split()[1]), headers, rest
            data = s.recv(65536)
            if not data:
                return None
            raw += data
    except TimeoutError:
        raise TimeoutError(raw) from None
