"""The layout shows the architecture: each package's docstring names every
module it holds, and imports run one way (the rules engine at the bottom,
then drawing and request handling, then the tools and the web)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKER = ROOT / "checker"

# What each layer may import from this project (besides itself and the layers
# below it named here).  "checker" is the rules engine: checker/*.py.
MAY_IMPORT = {
    "checker": set(),
    "checker.drawing": {"checker"},
    "schemas": {"checker", "checker.drawing"},
    "checker.service": {"checker", "checker.drawing", "schemas"},
    "checker.tools": {"checker", "checker.drawing", "checker.service", "schemas"},
    "checker.web": {"checker", "checker.drawing", "checker.service", "checker.tools", "schemas"},
}
PACKAGES = [
    "checker",
    "checker.drawing",
    "checker.service",
    "checker.tools",
    "checker.tools.cli",
    "checker.tools.audit",
    "checker.web",
    "schemas",
]


def _layer(module: str) -> str | None:
    """The layer a module of this project belongs to (None: not ours)."""
    for layer in sorted(MAY_IMPORT, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            if layer == "checker" and module.count(".") == 1 and module.split(".")[1] not in _ENGINE_MODULES:
                return f"checker.{module.split('.')[1]}"  # a subpackage not listed above: fails below
            return layer
    return None


_ENGINE_MODULES = {p.stem for p in CHECKER.glob("*.py")} | {"data"}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found += [
                (node.lineno, f"{node.module}.{a.name}")
                for a in node.names
                if node.module in ("checker", "checker.tools", "checker.web", "checker.service", "checker.drawing")
            ]
    return found


def _sources() -> list[Path]:
    return sorted(p for d in ("checker", "schemas") for p in (ROOT / d).rglob("*.py"))


def test_the_layers_are_known():
    assert {_layer(_module_name(p)) for p in _sources()} == set(MAY_IMPORT)


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_run_one_way(path):
    here = _layer(_module_name(path))
    allowed = MAY_IMPORT[here] | {here}
    wrong = []
    for line, name in _imports(path):
        if not name.startswith(("checker", "schemas")):
            continue
        there = _layer(name)
        if there is not None and there not in allowed:
            wrong.append(f"line {line}: {name} ({there})")
    assert wrong == [], f"{here} may import only {sorted(allowed)}"


def test_the_rules_engine_loads_no_framework():
    """Importing the front door loads neither Flask nor marshmallow nor gunicorn."""
    import subprocess
    import sys

    code = (
        "import sys, checker, checker.drawing.svg; "
        "print(sorted(m for m in ('flask', 'marshmallow', 'gunicorn', 'gevent') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_docstring_names_its_modules_and_what_it_may_import(package):
    mod = importlib.import_module(package)
    folder = Path(mod.__file__).parent
    names = sorted(
        {p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__")}
        | {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
    )
    assert names
    missing = [n for n in names if f"{package}.{n}`" not in mod.__doc__]
    assert missing == []
    if package not in ("checker", "checker.tools.cli"):
        assert "may import" in mod.__doc__.lower()


def test_the_front_door():
    from checker import Position, check, legal_turns, parse_hpn, parse_htn, perft, position_to_hpn, replay, validate
    from checker.generate import legal_turns as generated
    from checker.legality import check as checked
    from checker.notation import START_HPN

    start = parse_hpn(START_HPN)
    assert isinstance(start, Position) and position_to_hpn(start) == START_HPN
    assert check is checked and legal_turns is generated
    assert check(start, parse_htn("c3 +d4")).legal
    assert validate(start).consistent
    assert perft(start, 1) == len(legal_turns(start))
    assert replay([parse_htn("c3 +d4")], start=start).legal
