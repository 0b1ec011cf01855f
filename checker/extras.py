"""The package's extras, decided once: which modules each extra provides, and
the one line a command prints when the extra it needs is not installed.

The core (``pip install hexodic-checker``) is the rules engine and the
``hexodic-check`` command.  ``hexodic-checker[server]`` adds the HTTP service;
``hexodic-checker[audit]`` adds the archive audit; ``hexodic-checker[mcp]``
the MCP server (``hexodic-check mcp``).  ``make install`` installs them all.

The server and the MCP server both make links with ``HEXODIC_PUBLIC_URL``; what
it may be is decided here (:func:`public_origin`), where both can import it:
:mod:`checker.web.settings` and :mod:`checker.tools.mcp_server` each read the
variable and call it.

>>> missing("server")
[]
>>> str(MissingExtra("audit", ["dask"]))
"the audit extra is not installed (no dask here): pip install 'hexodic-checker[audit]'"
"""

from __future__ import annotations

import re
from importlib.util import find_spec

PACKAGE = "hexodic-checker"

# The modules each extra installs (import names), in the order they are named.
EXTRAS: dict[str, tuple[str, ...]] = {
    "server": ("flask", "gunicorn", "gevent", "prometheus_client", "resvg_py", "apispec", "yaml", "swagger_ui_bundle"),
    "audit": ("dask", "distributed", "pyarrow", "zstandard", "matplotlib"),
    "mcp": ("mcp", "uvicorn", "anyio"),
}


class MissingExtra(ImportError):
    """An extra a command needs is not installed."""

    def __init__(self, extra: str, modules: list[str]) -> None:
        self.extra = extra
        self.modules = modules
        super().__init__(
            f"the {extra} extra is not installed (no {', '.join(modules)} here): pip install '{PACKAGE}[{extra}]'"
        )


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    return [name for name in EXTRAS[extra] if find_spec(name) is None]


def require(extra: str) -> None:
    """Raise :class:`MissingExtra` unless every module of ``extra`` is installed."""
    absent = missing(extra)
    if absent:
        raise MissingExtra(extra, absent)


_ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(:\d{1,5})?")


def public_origin(raw: str) -> str | None:
    """``HEXODIC_PUBLIC_URL``'s value as an origin (one trailing slash
    dropped), or None when it is empty; :class:`ValueError`, one line naming
    the variable, when it is not an origin.

    >>> public_origin(" https://check.hexodic.example/ "), public_origin("")
    ('https://check.hexodic.example', None)
    >>> public_origin("https://x.org/path")
    Traceback (most recent call last):
    ...
    ValueError: HEXODIC_PUBLIC_URL='https://x.org/path' is not allowed: an origin such as https://check.hexodic.example (scheme, host, optional port; no path)
    """
    text = raw.strip()
    if not text:
        return None
    origin = text.removesuffix("/")
    if not _ORIGIN.fullmatch(origin):
        raise ValueError(
            f"HEXODIC_PUBLIC_URL={raw!r} is not allowed: an origin such as https://check.hexodic.example "
            "(scheme, host, optional port; no path)"
        )
    return origin
