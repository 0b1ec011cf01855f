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

import ipaddress
import os
import re
from collections.abc import Mapping, MutableMapping

from checker.extras import public_origin

DEFAULT_MAX_BODY = 256 * 1024
DEFAULT_BODY_TIMEOUT = 5  # seconds for a whole request body to arrive
DEFAULT_METRICS_PORT = 9100  # /metrics is served here only, never on the public port
DEFAULT_EXPENSIVE_LIMIT = 2  # expensive requests at once in one worker
DEFAULT_WORK_DEADLINE = 5  # seconds an admitted expensive request may take (under the 8 s graceful timeout)
DEFAULT_PORT = 8000
DEFAULT_HOST = "127.0.0.1"
DEFAULT_DRAIN = 5  # seconds after SIGTERM the server still answers while /readyz answers 503
DEFAULT_GRACEFUL_TIMEOUT = 8  # seconds a worker then has to finish what it holds
DEFAULT_KEEPALIVE = 1  # seconds an idle kept-alive connection is kept
DEFAULT_TIMEOUT = 30  # seconds of silence before the master kills a worker
MAX_REQUEST_LINE, MAX_REQUEST_FIELDS = 8190, 32768  # gunicorn's own caps: a larger limit is silently these

# A frame-ancestors source (CSP): 'self', or an origin such as https://hexodic.com,
# https://*.hexodic.com or http://localhost:8080 (no path, no quote, no separator).
_ORIGIN = re.compile(r"'self'|https?://(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?")


class SettingError(ValueError):
    """A setting whose value cannot be used; the message is one line."""


def environ() -> MutableMapping[str, str]:
    """The process environment: the one place it is read (and, for the
    metrics directory, written)."""
    return os.environ


def _int(env: Mapping[str, str], name: str, default: int, lo: int = 1, hi: int | None = None) -> int:
    """A whole number of ASCII digits, at least ``lo`` (and at most ``hi``);
    empty or unset: the default.

    >>> _int({"N": "2.5"}, "N", 1)
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: N='2.5' is not allowed: a whole number of at least 1 (default 1)
    """
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or int(text) < lo or (hi is not None and int(text) > hi):
        allowed = f"of at least {lo}" if hi is None else f"from {lo} to {hi}"
        raise SettingError(f"{name}={raw!r} is not allowed: a whole number {allowed} (default {default})")
    return int(text)


def _port(env: Mapping[str, str], name: str, default: int) -> int:
    """A TCP port, 1 to 65535.

    >>> _port({"PORT": "99999"}, "PORT", 8000)
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: PORT='99999' is not allowed: a whole number from 1 to 65535 (default 8000)
    """
    return _int(env, name, default, lo=1, hi=65535)


_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")


def _host(raw: str | None) -> str:
    """``HOST``: an IP address or a host name to listen on, as gunicorn's bind
    writes it (an IPv6 address in brackets); empty or unset: 127.0.0.1.

    >>> _host("::"), _host("[::1]"), _host("0.0.0.0"), _host("localhost")
    ('[::]', '[::1]', '0.0.0.0', 'localhost')
    >>> _host("0.0.0.0:80")
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: HOST='0.0.0.0:80' is not allowed: an IP address or a host name, no port (PORT is the port; default 127.0.0.1)
    """
    text = (raw or "").strip()
    if not text:
        return DEFAULT_HOST
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        if bare == text and len(text) <= 253 and _HOST_NAME.fullmatch(text):
            return text
        raise SettingError(
            f"HOST={raw!r} is not allowed: an IP address or a host name, no port (PORT is the port; default {DEFAULT_HOST})"
        ) from None
    return f"[{address}]" if address.version == 6 else str(address)


def _path(env: Mapping[str, str], name: str, default: str, what: str, made: bool = False) -> str:
    """A file the server writes (``what``): the file, if there, one it may
    write, in a folder it may write (``made``: a folder gunicorn makes when it
    is missing, under one it may write).  ``-`` and empty are kept as they are.

    >>> _path({"LOG": "/etc/hostname/requests.log"}, "LOG", "-", "the log")
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: LOG='/etc/hostname/requests.log' is not allowed: /etc/hostname is not a folder (the log)
    """
    raw = env.get(name, default)
    text = raw.strip()
    if text in ("", "-"):
        return text
    if os.path.isdir(text):
        problem: str | None = "it is a folder"
    elif os.path.exists(text) and not os.access(text, os.W_OK):
        problem = "it is not writable"
    else:
        folder = os.path.dirname(os.path.abspath(text))
        problem = writable_folder_problem(folder) if made or os.path.exists(folder) else f"{folder} does not exist"
    if problem is None:
        return text
    raise SettingError(f"{name}={raw!r} is not allowed: {problem} ({what})")


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
    checker.web.settings.SettingError: HEXODIC_FRAME_ANCESTORS='https://x.org; script-src *' is not allowed: 'https://x.org;' is not 'self' or an origin such as https://hexodic.com
    """
    env = environ() if env is None else env
    origins = _cors_origins(env.get("HEXODIC_CORS_ORIGINS", "*"))
    return {
        "MAX_CONTENT_LENGTH": _int(env, "HEXODIC_MAX_BODY", DEFAULT_MAX_BODY),
        "CORS_ORIGINS": origins or ["*"],
        "BODY_TIMEOUT": _int(env, "HEXODIC_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT),
        "EXPENSIVE_LIMIT": _int(env, "HEXODIC_EXPENSIVE_LIMIT", DEFAULT_EXPENSIVE_LIMIT),
        "WORK_DEADLINE": _int(env, "HEXODIC_WORK_DEADLINE", DEFAULT_WORK_DEADLINE),
        "FRAME_ANCESTORS": _frame_ancestors(env.get("HEXODIC_FRAME_ANCESTORS", "")),
        "PROXIES": _int(env, "HEXODIC_PROXIES", 0, lo=0),
        "PUBLIC_URL": _public_url(env.get("HEXODIC_PUBLIC_URL", "")),
        "METRICS_PORT": _port(env, "HEXODIC_METRICS_PORT", DEFAULT_METRICS_PORT),
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


_CORS_ORIGIN = re.compile(r"https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?")


def _cors_origins(raw: str) -> list[str]:
    """``HEXODIC_CORS_ORIGINS``: ``*`` or origins, comma-separated.

    >>> _cors_origins("https://a.example, http://localhost:5173")
    ['https://a.example', 'http://localhost:5173']
    >>> _cors_origins("a.example")
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: HEXODIC_CORS_ORIGINS='a.example' is not allowed: 'a.example' is not * or an origin such as https://hexodic.com (scheme, host, optional port; no path)
    """
    origins = [o.strip() for o in raw.split(",") if o.strip()]
    for origin in origins:
        if origin != "*" and not _CORS_ORIGIN.fullmatch(origin):
            raise SettingError(
                f"HEXODIC_CORS_ORIGINS={raw!r} is not allowed: {origin!r} is not * or an origin such as "
                "https://hexodic.com (scheme, host, optional port; no path)"
            )
    return origins


def _allowed_ips(env: Mapping[str, str]) -> str:
    """``FORWARDED_ALLOW_IPS`` as gunicorn reads it: ``*`` or addresses and
    networks (``10.0.0.0/8``), comma-separated; checked whenever it is set,
    as gunicorn does.

    >>> _allowed_ips({"FORWARDED_ALLOW_IPS": "10.0.0.0/8, 192.168.1.1"})
    '10.0.0.0/8, 192.168.1.1'
    >>> _allowed_ips({"FORWARDED_ALLOW_IPS": "10.0.0.1/8"})
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: FORWARDED_ALLOW_IPS='10.0.0.1/8' is not allowed: '10.0.0.1/8' is not * or an IP address or network such as 10.0.0.0/8
    """
    raw = env.get("FORWARDED_ALLOW_IPS", "")
    for item in (i.strip() for i in raw.split(",") if i.strip()):
        try:
            if item != "*":
                ipaddress.ip_network(item)
        except ValueError:
            raise SettingError(
                f"FORWARDED_ALLOW_IPS={raw!r} is not allowed: {item!r} is not * or an IP address or network "
                "such as 10.0.0.0/8"
            ) from None
    return raw.strip()


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
    allowed = _allowed_ips(env)
    if not _int(env, "HEXODIC_PROXIES", 0, lo=0):
        return ""
    return allowed or "127.0.0.1,::1"


def _frame_ancestors(raw: str) -> list[str]:
    sources = raw.replace(",", " ").split()
    for s in sources:
        if not _ORIGIN.fullmatch(s):
            raise SettingError(
                f"HEXODIC_FRAME_ANCESTORS={raw!r} is not allowed: {s!r} is not 'self' or an origin such as "
                "https://hexodic.com"
            )
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
    - ``GUNICORN_LIMIT_REQUEST_LINE`` (4094, at most 8190), ``GUNICORN_LIMIT_REQUEST_FIELDS``
      (50, at most 32768), ``GUNICORN_LIMIT_REQUEST_FIELD_SIZE`` (8190); gunicorn's own caps
      are the maxima (a larger value would silently be the cap)
    - ``GUNICORN_CONTROL_SOCKET``: none unless a path is given (gunicorn makes its folder)
    - ``HEXODIC_DRAIN_SECONDS`` (5): after SIGTERM, the seconds the server keeps
      answering while ``/readyz`` answers 503, before gunicorn's graceful stop
    - ``GUNICORN_ACCESS_LOG`` (``-``): where the JSON request lines go: ``-`` for
      standard output, a file (in a folder that exists), or empty for none

    The ports are 1 to 65535 and differ; ``HOST`` is an IP address or a host
    name.  Whether the ports are free is found at the start
    (:func:`checker.web.serving.check_listeners`).

    >>> server({"PORT": "9000"})["bind"]
    ['127.0.0.1:9000', '127.0.0.1:9100']
    >>> server({"WEB_CONCURRENCY": "two"})
    Traceback (most recent call last):
    ...
    checker.web.settings.SettingError: WEB_CONCURRENCY='two' is not allowed: a whole number of at least 1 (default 1)
    """
    env = environ() if env is None else env
    host = _host(env.get("HOST"))
    port = _port(env, "PORT", DEFAULT_PORT)
    metrics_port = _port(env, "HEXODIC_METRICS_PORT", DEFAULT_METRICS_PORT)
    if metrics_port == port:
        raise SettingError(f"HEXODIC_METRICS_PORT={metrics_port} is not allowed: it must differ from PORT ({port})")
    return {
        "bind": [f"{host}:{port}", f"{host}:{metrics_port}"],
        "workers": _int(env, "WEB_CONCURRENCY", min(cpus, 8)),
        "worker_connections": _int(env, "GUNICORN_WORKER_CONNECTIONS", 1000),
        "timeout": _int(env, "GUNICORN_TIMEOUT", DEFAULT_TIMEOUT),
        "graceful_timeout": _int(env, "GUNICORN_GRACEFUL_TIMEOUT", DEFAULT_GRACEFUL_TIMEOUT),
        "keepalive": _int(env, "GUNICORN_KEEPALIVE", DEFAULT_KEEPALIVE),
        "limit_request_line": _int(env, "GUNICORN_LIMIT_REQUEST_LINE", 4094, lo=0, hi=MAX_REQUEST_LINE),
        "limit_request_fields": _int(env, "GUNICORN_LIMIT_REQUEST_FIELDS", 50, lo=0, hi=MAX_REQUEST_FIELDS),
        "limit_request_field_size": _int(env, "GUNICORN_LIMIT_REQUEST_FIELD_SIZE", 8190, lo=0),
        "control_socket": _path(env, "GUNICORN_CONTROL_SOCKET", "", "the socket gunicornc talks to", made=True),
        "access_log": _path(env, "GUNICORN_ACCESS_LOG", "-", "where the JSON request lines go; - or empty"),
        "drain": _int(env, "HEXODIC_DRAIN_SECONDS", DEFAULT_DRAIN, lo=0),
        "forwarded_allow_ips": forwarded_allow_ips(env),
        "host": host,
        "ports": {"PORT": port, "HEXODIC_METRICS_PORT": metrics_port},
    }


def check_all(env: Mapping[str, str] | None = None, cpus: int = 1) -> dict:
    """Every setting read at the start, gunicorn's and the app's, checked:
    what every start command runs first (``hexodic-checker-serve``, so
    ``make run`` and the image, and gunicorn.conf.py).  Returns gunicorn's
    settings (:func:`server`); a bad value raises :class:`SettingError`."""
    env = environ() if env is None else env
    found = server(env, cpus)
    from_env(env)
    return found


METRICS_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus_client's own variable: where the workers' metric files are (multiprocess mode)."""


def writable_folder_problem(path: str) -> str | None:
    """Why ``path`` cannot be a folder this process writes in, or None: it
    must be a writable folder, or one that can be made (its nearest existing
    ancestor a writable folder).  (``PROMETHEUS_MULTIPROC_DIR``'s check.)"""
    folder = os.path.abspath(path)
    while not os.path.exists(folder):
        folder = os.path.dirname(folder)
    if not os.path.isdir(folder):
        return f"{folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder} is not writable"
    return None


def metrics_dir(env: Mapping[str, str] | None = None) -> str | None:
    """The metrics directory when one is set (prometheus_client then runs in multiprocess mode)."""
    env = environ() if env is None else env
    return env.get(METRICS_ENV) or None
