"""The package docstring names every module of the checker (issue 9: it listed 8)."""

from __future__ import annotations

from pathlib import Path

import checker

PACKAGE = Path(checker.__file__).parent


def test_the_package_docstring_lists_every_module():
    modules = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert len(modules) >= 15 and packages == ["data", "web"]
    missing = [m for m in modules + packages if f":mod:`checker.{m}`" not in checker.__doc__]
    assert missing == []
