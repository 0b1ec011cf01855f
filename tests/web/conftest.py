"""Fixtures for the HTTP service's tests: a fresh app and its test client."""

from __future__ import annotations

import pytest

from checker.web import create_app


@pytest.fixture
def app():
    """The service as tests see it: ``create_app({"TESTING": True})``."""
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    """Flask's test client for :func:`app`."""
    return app.test_client()
