"""Every setting from the environment, read and checked here and nowhere else.

Each has a safe default; a bad value raises :class:`SettingError`, whose one
line names the variable, the value and what is allowed (gunicorn.conf.py
prints it and exits 2).  :func:`server` holds gunicorn's settings,
:func:`from_env` the app's, :func:`metrics_dir` prometheus_client's.

May import: the standard library and :mod:`checker.extras` (itself the standard
library only; it judges ``HEXODIC_PUBLIC_URL`` for the MCP server too), as
gunicorn.conf.py reads this module before the app.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, MutableMapping

from checker.extras import public_origin

DEFAULT_MAX_BODY = 256 * 1024
DEFAULT_BODY_TIMEOUT = 5  # seconds for a whole request body to arrive
DEFAULT_METRICS_PORT = 9100  # /metrics is served here only, never on the public port
DEFAULT_EXPENSIVE_LIMIT = 2  # expensive requests at once in one worker
DEFAULT_WORK_DEADLINE = 5  # seconds an admitted expensive request may take (under the 8 s graceful timeout)

# A frame-ancestors source (CSP): 'self', or an origin such as https://hexodic.com,
# https://*.hexodic.com or http://localhost:8080 (no path, no quote, no separator).
_ORIGIN = re.compile(r"'self'|https?://(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?")


class SettingError(ValueError):
    """A setting whose value cannot be used; the message is one line."""


def environ() -> MutableMapping[str, str]:
    """The process environment: the one place it is read (and, for the
    metrics directory, written)."""
    return os.environ


def _int(env: Mapping[str, str], name: str, default: int, lo: int = 1) -> int:
    """A whole number of ASCII digits, at least ``lo``; empty or unset: the default.

    >>> _int({"N": "2.5"}, "N", 1)
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: N='2.5' is not allowed: a whole number of at least 1 (default 1)
    """
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or int(text) < lo:
        raise SettingError(f"{name}={raw!r} is not allowed: a whole number of at least {lo} (default {default})")
    return int(text)


def from_env(env: Mapping[str, str] | None = None) -> dict:
    """The app's settings from ``HEXODIC_*`` environment variables.

    - ``HEXODIC_MAX_BODY``: the largest request body in bytes (default 262144, 256 KiB).
    - ``HEXODIC_CORS_ORIGINS``: allowed browser origins, comma-separated, or ``*`` (default).
    - ``HEXODIC_BODY_TIMEOUT``: seconds the whole request body may take to arrive
      (default 5); later, the answer is 408 (enforced under the gevent worker).
    - ``HEXODIC_EXPENSIVE_LIMIT``: batches and legal-turn lists one worker
      works on at once (default 2); one more is answered 503 with Retry-After.
    - ``HEXODIC_WORK_DEADLINE``: the seconds an admitted expensive request may
      take (default 5); one still running then is stopped at its next pause
      and answered 503 with Retry-After.
    - ``HEXODIC_FRAME_ANCESTORS``: the origins whose pages may frame the playground and
      the permalink pages (``/check``, ``/game``), comma- or space-separated, each
      ``'self'`` or ``https://host[:port]`` (a ``*.`` subdomain wildcard allowed).
      Default: none, so no page may frame them.
    - ``HEXODIC_PROXIES``: how many reverse proxies in front of the service set
      ``X-Forwarded-Proto`` and ``X-Forwarded-Host``; the absolute links of the
      permalink pages (``og:image``) are built from those headers only when this
      is at least 1, and gunicorn trusts them only from ``FORWARDED_ALLOW_IPS``
      (gunicorn's own setting; default ``127.0.0.1,::1`` then).  Default 0:
      forwarded headers are ignored, from every address.
    - ``HEXODIC_METRICS_PORT``: the port ``/metrics`` is served on (default 9100),
      on the same host as the public port; ``/metrics`` is a 404 on any other port.
    - ``HEXODIC_PUBLIC_URL``: the service's public origin, such as
      ``https://check.hexodic.example`` (no path).  When set, it is the only
      source of absolute links (``og:image``, the canonical and share links of
      ``/check`` and ``/game``), and those pages are cacheable by shared caches;
      when unset, the links follow the request's host and the pages are
      ``Cache-Control: private`` (no shared cache keeps a page built from a header).

    >>> from_env({"HEXODIC_FRAME_ANCESTORS": "https://hexodic.com, 'self'"})["FRAME_ANCESTORS"]
    ['https://hexodic.com', "'self'"]
    >>> from_env({"HEXODIC_FRAME_ANCESTORS": "https://x.org; script-src *"})
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: HEXODIC_FRAME_ANCESTORS: 'https://x.org;' is not 'self' or an origin such as https://hexodic.com
    """
    env = environ() if env is None else env
    origins = [o.strip() for o in env.get("HEXODIC_CORS_ORIGINS", "*").split(",") if o.strip()]
    return {
        "MAX_CONTENT_LENGTH": _int(env, "HEXODIC_MAX_BODY", DEFAULT_MAX_BODY),
        "CORS_ORIGINS": origins or ["*"],
        "BODY_TIMEOUT": _int(env, "HEXODIC_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT),
        "EXPENSIVE_LIMIT": _int(env, "HEXODIC_EXPENSIVE_LIMIT", DEFAULT_EXPENSIVE_LIMIT),
        "WORK_DEADLINE": _int(env, "HEXODIC_WORK_DEADLINE", DEFAULT_WORK_DEADLINE),
        "FRAME_ANCESTORS": _frame_ancestors(env.get("HEXODIC_FRAME_ANCESTORS", "")),
        "PROXIES": _int(env, "HEXODIC_PROXIES", 0, lo=0),
        "PUBLIC_URL": _public_url(env.get("HEXODIC_PUBLIC_URL", "")),
        "METRICS_PORT": _int(env, "HEXODIC_METRICS_PORT", DEFAULT_METRICS_PORT, lo=0),
    }


def _public_url(raw: str) -> str | None:
    """``HEXODIC_PUBLIC_URL``: an origin, or None when unset (judged by
    :func:`checker.extras.public_origin`, which the MCP server calls too).

    >>> _public_url("https://check.hexodic.example/")
    'https://check.hexodic.example'
    >>> _public_url("https://x.org/path")
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: HEXODIC_PUBLIC_URL='https://x.org/path' is not allowed: an origin such as https://check.hexodic.example (scheme, host, optional port; no path)
    """
    try:
        return public_origin(raw)
    except ValueError as exc:
        raise SettingError(str(exc)) from None


def forwarded_allow_ips(env: Mapping[str, str] | None = None) -> str:
    """gunicorn's ``forwarded_allow_ips``: none unless ``HEXODIC_PROXIES`` is at
    least 1 (gunicorn's own default trusts loopback, which a client on the
    same host could use); then ``FORWARDED_ALLOW_IPS`` (default loopback).

    >>> forwarded_allow_ips({})
    ''
    >>> forwarded_allow_ips({"HEXODIC_PROXIES": "1"})
    '127.0.0.1,::1'
    """
    env = environ() if env is None else env
    if not _int(env, "HEXODIC_PROXIES", 0, lo=0):
        return ""
    return env.get("FORWARDED_ALLOW_IPS", "").strip() or "127.0.0.1,::1"


def _frame_ancestors(raw: str) -> list[str]:
    sources = raw.replace(",", " ").split()
    for s in sources:
        if not _ORIGIN.fullmatch(s):
            raise SettingError(f"HEXODIC_FRAME_ANCESTORS: {s!r} is not 'self' or an origin such as https://hexodic.com")
    return sources


def server(env: Mapping[str, str] | None = None, cpus: int = 1) -> dict:
    """gunicorn's settings (gunicorn.conf.py), ``cpus`` being the CPUs the
    container may use:

    - ``HOST`` (127.0.0.1), ``PORT`` (8000)
    - ``WEB_CONCURRENCY``: workers (one per usable CPU, at most 8)
    - ``GUNICORN_WORKER_CONNECTIONS`` (1000 per worker), ``GUNICORN_TIMEOUT`` (30 s),
      ``GUNICORN_GRACEFUL_TIMEOUT`` (8 s), ``GUNICORN_KEEPALIVE`` (1 s: an idle kept-alive
      connection gives its slot back after a second, so clients that poll cannot
      hold every slot between their polls)
    - ``GUNICORN_LIMIT_REQUEST_LINE`` (4094), ``GUNICORN_LIMIT_REQUEST_FIELDS`` (50),
      ``GUNICORN_LIMIT_REQUEST_FIELD_SIZE`` (8190)
    - ``GUNICORN_CONTROL_SOCKET``: none unless a path is given
    - ``HEXODIC_DRAIN_SECONDS`` (5): after SIGTERM, the seconds the server keeps
      answering while ``/readyz`` answers 503, before gunicorn's graceful stop
    - ``GUNICORN_ACCESS_LOG`` (``-``): where the JSON request lines go: ``-`` for
      standard output, a file, or empty for none

    >>> server({"PORT": "9000"})["bind"]
    ['127.0.0.1:9000', '127.0.0.1:9100']
    >>> server({"WEB_CONCURRENCY": "two"})
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: WEB_CONCURRENCY='two' is not allowed: a whole number of at least 1 (default 1)
    """
    env = environ() if env is None else env
    host = env.get("HOST", "127.0.0.1")
    port = _int(env, "PORT", 8000, lo=0)
    metrics_port = _int(env, "HEXODIC_METRICS_PORT", DEFAULT_METRICS_PORT, lo=0)
    if metrics_port == port:
        raise SettingError(f"HEXODIC_METRICS_PORT={metrics_port} is not allowed: it must differ from PORT ({port})")
    return {
        "bind": [f"{host}:{port}", f"{host}:{metrics_port}"],
        "workers": _int(env, "WEB_CONCURRENCY", min(cpus, 8)),
        "worker_connections": _int(env, "GUNICORN_WORKER_CONNECTIONS", 1000),
        "timeout": _int(env, "GUNICORN_TIMEOUT", 30),
        "graceful_timeout": _int(env, "GUNICORN_GRACEFUL_TIMEOUT", 8),
        "keepalive": _int(env, "GUNICORN_KEEPALIVE", 1),
        "limit_request_line": _int(env, "GUNICORN_LIMIT_REQUEST_LINE", 4094, lo=0),
        "limit_request_fields": _int(env, "GUNICORN_LIMIT_REQUEST_FIELDS", 50, lo=0),
        "limit_request_field_size": _int(env, "GUNICORN_LIMIT_REQUEST_FIELD_SIZE", 8190, lo=0),
        "control_socket": env.get("GUNICORN_CONTROL_SOCKET", ""),
        "access_log": env.get("GUNICORN_ACCESS_LOG", "-"),
        "drain": _int(env, "HEXODIC_DRAIN_SECONDS", 5, lo=0),
    }


METRICS_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus_client's own variable: where the workers' metric files are (multiprocess mode)."""


def metrics_dir(env: Mapping[str, str] | None = None) -> str | None:
    """The metrics directory when one is set (prometheus_client then runs in multiprocess mode)."""
    env = environ() if env is None else env
    return env.get(METRICS_ENV) or None
