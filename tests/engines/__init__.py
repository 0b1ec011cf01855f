"""Deliberately wrong engines for tests/test_conform.py: each wraps the
checker's own engine (checker.tools.protocol) and distorts one thing."""
