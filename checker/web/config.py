"""Configuration from the environment, each setting with a safe default."""

from __future__ import annotations

import os
import re

DEFAULT_MAX_BODY = 256 * 1024
DEFAULT_BODY_TIMEOUT = 5        # seconds for a whole request body to arrive
DEFAULT_EXPENSIVE_LIMIT = 2     # expensive requests at once in one worker

# A frame-ancestors source (CSP): 'self', or an origin such as https://hexodic.com,
# https://*.hexodic.com or http://localhost:8080 (no path, no quote, no separator).
_ORIGIN = re.compile(r"'self'|https?://(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?")


def _int(env: dict, name: str, default: int, lo: int = 1) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
    if value < lo:
        raise ValueError(f"{name} must be at least {lo}, not {value}")
    return value


def from_env(env: dict | None = None) -> dict:
    """The app's settings from ``HEXODIC_*`` environment variables.

    - ``HEXODIC_MAX_BODY``: the largest request body in bytes (default 262144, 256 KiB).
    - ``HEXODIC_CORS_ORIGINS``: allowed browser origins, comma-separated, or ``*`` (default).
    - ``HEXODIC_BODY_TIMEOUT``: seconds the whole request body may take to arrive
      (default 5); later, the answer is 408 (enforced under the gevent worker).
    - ``HEXODIC_EXPENSIVE_LIMIT``: batches and legal-turn lists one worker
      works on at once (default 2); one more is answered 503 with Retry-After.
    - ``HEXODIC_FRAME_ANCESTORS``: the origins whose pages may frame the playground and
      the permalink pages (``/check``, ``/game``), comma- or space-separated, each
      ``'self'`` or ``https://host[:port]`` (a ``*.`` subdomain wildcard allowed).
      Default: none, so no page may frame them.
    - ``HEXODIC_PROXIES``: how many reverse proxies in front of the service set
      ``X-Forwarded-Proto`` and ``X-Forwarded-Host``; the absolute links of the
      permalink pages (``og:image``) are built from those headers only when this
      is at least 1.  Default 0: they are ignored and the request's own host is used.

    >>> from_env({"HEXODIC_FRAME_ANCESTORS": "https://hexodic.com, 'self'"})["FRAME_ANCESTORS"]
    ['https://hexodic.com', "'self'"]
    >>> from_env({"HEXODIC_FRAME_ANCESTORS": "https://x.org; script-src *"})
    Traceback (most recent call last):
    ...
    ValueError: HEXODIC_FRAME_ANCESTORS: 'https://x.org;' is not 'self' or an origin such as https://hexodic.com
    """
    env = os.environ if env is None else env
    origins = [o.strip() for o in env.get("HEXODIC_CORS_ORIGINS", "*").split(",") if o.strip()]
    return {
        "MAX_CONTENT_LENGTH": _int(env, "HEXODIC_MAX_BODY", DEFAULT_MAX_BODY),
        "CORS_ORIGINS": origins or ["*"],
        "BODY_TIMEOUT": _int(env, "HEXODIC_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT),
        "EXPENSIVE_LIMIT": _int(env, "HEXODIC_EXPENSIVE_LIMIT", DEFAULT_EXPENSIVE_LIMIT),
        "FRAME_ANCESTORS": _frame_ancestors(env.get("HEXODIC_FRAME_ANCESTORS", "")),
        "PROXIES": _int(env, "HEXODIC_PROXIES", 0, lo=0),
    }


def _frame_ancestors(raw: str) -> list[str]:
    sources = raw.replace(",", " ").split()
    for s in sources:
        if not _ORIGIN.fullmatch(s):
            raise ValueError(f"HEXODIC_FRAME_ANCESTORS: {s!r} is not 'self' or an origin such as https://hexodic.com")
    return sources
