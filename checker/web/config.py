"""Configuration from the environment, each setting with a safe default."""

from __future__ import annotations

import os

DEFAULT_MAX_BODY = 256 * 1024
DEFAULT_BODY_TIMEOUT = 5        # seconds for a whole request body to arrive
DEFAULT_EXPENSIVE_LIMIT = 2     # expensive requests at once in one worker


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
    """
    env = os.environ if env is None else env
    origins = [o.strip() for o in env.get("HEXODIC_CORS_ORIGINS", "*").split(",") if o.strip()]
    return {
        "MAX_CONTENT_LENGTH": _int(env, "HEXODIC_MAX_BODY", DEFAULT_MAX_BODY),
        "CORS_ORIGINS": origins or ["*"],
        "BODY_TIMEOUT": _int(env, "HEXODIC_BODY_TIMEOUT", DEFAULT_BODY_TIMEOUT),
        "EXPENSIVE_LIMIT": _int(env, "HEXODIC_EXPENSIVE_LIMIT", DEFAULT_EXPENSIVE_LIMIT),
    }
