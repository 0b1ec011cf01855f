"""Headless Chromium as this machine runs it (Debian's package), for
``make audit`` and the browser tests: where it is, how it is started, and
which axe-core findings fail a page."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # without these, Chromium's own connections are refused by a closed network, many at a time
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FAILING_IMPACTS = frozenset({"serious", "critical"})
"""The axe-core impacts a page must not have."""
