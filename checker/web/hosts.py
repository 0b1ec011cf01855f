"""The ``Host`` a request names, checked before anything else reads it: a host
name or an IP literal, with an optional port.  Anything else
(``evil.example/<x>``, a space, an ``@``, an empty label, no ``Host`` at all
on HTTP/1.1) is answered 400 (problem+json, or a page for a browser) naming
the header, on every path.  When proxies are trusted (``HEXODIC_PROXIES``),
the ``X-Forwarded-Host`` value the app takes in its place is checked too.
The absolute links of the permalink pages are built from this value when no
``HEXODIC_PUBLIC_URL`` is set, so it must be a host and nothing more.

>>> [is_host(h) for h in ("check.hexodic.example", "127.0.0.1:8000", "[::1]:8000", "localhost.")]
[True, True, True, True]
>>> [is_host(h) for h in ("evil.example/<x>", "a b", "user@host", "a..b", "", "host:99999", "[zz]")]
[False, False, False, False, False, False, False]
"""

from __future__ import annotations

import ipaddress
import re

from flask import Flask, request

_LABEL = r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")  # a host name; an IPv4 address is one too
_HOST = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[^:]+)(?::(?P<port>[0-9]{1,5}))?")


def is_host(value: str) -> bool:
    """``value`` is a host name (labels of letters, digits, ``-`` and ``_``, at
    most 253 characters), an IPv4 address or a bracketed IPv6 address,
    optionally followed by ``:port`` (0-65535)."""
    match = _HOST.fullmatch(value)
    if match is None:
        return False
    host, port = match["host"], match["port"]
    if port is not None and int(port) > 65535:
        return False
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return False
        return True
    return len(host) <= 253 and _NAME.fullmatch(host) is not None


def _refused(header: str, value: str):
    from checker.web.errors import problem

    shown = value if len(value) <= 100 else value[:100] + "…"
    what = f"The {header} header {shown!r} is not" if value else f"The {header} header is missing or empty; it must be"
    return problem(
        400,
        "bad-host",
        "Bad Request",
        f"{what} a host name or IP address with an optional port (such as check.hexodic.example or 127.0.0.1:8000).",
    )


def init_app(app: Flask) -> None:
    @app.before_request
    def _host():
        environ = request.environ
        sent = environ.get("werkzeug.proxy_fix.orig", {}).get("HTTP_HOST", environ.get("HTTP_HOST"))
        if sent is None:
            if environ.get("SERVER_PROTOCOL") == "HTTP/1.0":
                return None  # HTTP/1.0 may leave it out
            return _refused("Host", "")
        if not is_host(sent):
            return _refused("Host", sent)
        taken = environ.get("HTTP_HOST")  # the X-Forwarded-Host value when ProxyFix took one
        if taken is not None and taken != sent and not is_host(taken):
            return _refused("X-Forwarded-Host", taken)
        return None
