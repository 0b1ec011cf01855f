"""Configuration from the environment, each setting with a safe default."""

from __future__ import annotations

import os

DEFAULT_MAX_BODY = 256 * 1024


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
    """
    env = os.environ if env is None else env
    origins = [o.strip() for o in env.get("HEXODIC_CORS_ORIGINS", "*").split(",") if o.strip()]
    return {
        "MAX_CONTENT_LENGTH": _int(env, "HEXODIC_MAX_BODY", DEFAULT_MAX_BODY),
        "CORS_ORIGINS": origins or ["*"],
    }
