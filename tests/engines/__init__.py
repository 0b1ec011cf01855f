"""Deliberately wrong engines for tests/test_conform.py: each wraps the
checker's own engine (checker.engine) and distorts one thing."""
