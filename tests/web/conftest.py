"""Fixtures for the HTTP service's tests: a fresh app and its test client, and one headless
Chromium per browser-test module (on the module's own ``base``: its server, which skips the module
or fails it, under HEXODIC_REQUIRE_BROWSER=1, when Chromium is missing)."""

from __future__ import annotations

import pytest

from bench.browser import CHROMIUM, CHROMIUM_ARGS
from checker.web import create_app


@pytest.fixture
def app():
    """The service as tests see it: ``create_app({"TESTING": True})``."""
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    """Flask's test client for :func:`app`."""
    return app.test_client()


@pytest.fixture(scope="module")
def browser(base):
    """One headless Chromium for the module's browser tests; each test opens its own context."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
