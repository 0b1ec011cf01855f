"""One module decides each thing.  Each test fails when the decision shows
up again outside the module that owns it (in the product: checker/,
schemas/ and gunicorn.conf.py).  The page scripts are held to the same: no rule id,
decided reading, notation pattern or rule number in checker/web/static/*.js
(tests/web/test_scripts.py)."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = sorted([*(ROOT / "checker").rglob("*.py"), *(ROOT / "schemas").rglob("*.py"), ROOT / "gunicorn.conf.py"])


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _tokens(path: Path) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))


def _code(path: Path) -> str:
    """The file's code with its comments, strings and docstrings blanked."""
    return " ".join(t.string for t in _tokens(path) if t.type not in (tokenize.COMMENT, tokenize.STRING))


def test_the_half_move_limit_is_written_once():
    """60 as a number appears only in checker/position.py (MAX_HALF_MOVES)."""
    found = [
        f"{_rel(p)}:{t.start[0]}" for p in PRODUCT for t in _tokens(p) if t.type == tokenize.NUMBER and t.string == "60"
    ]
    assert [f.split(":")[0] for f in found] == ["checker/position.py"], found


def test_the_rules_version_header_is_named_once():
    found = [_rel(p) for p in PRODUCT if "Hexodic-Rules-Version" in p.read_text(encoding="utf-8")]
    assert found == ["checker/web/headers.py"]


def test_the_rules_version_is_written_once():
    found = [_rel(p) for p in PRODUCT if re.search(r"RULES_VERSION\s*=", _code_with_assignments(p))]
    assert found == ["checker/version.py"]


def _code_with_assignments(path: Path) -> str:
    return "\n".join(
        line for line in path.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("#")
    )


def test_the_environment_is_read_in_one_module():
    found = sorted({_rel(p) for p in PRODUCT if re.search(r"\bos\s*\.\s*(environ|getenv)\b|\bgetenv\s*\(", _code(p))})
    # the service's settings, and the MCP server's one (HEXODIC_PUBLIC_URL for its permalinks): a tool may not
    # import checker.web, so it reads that variable itself
    assert found == ["checker/tools/mcp_server.py", "checker/web/settings.py"]


def test_the_package_version_is_looked_up_once():
    found = sorted(
        {
            _rel(p)
            for p in PRODUCT
            if re.search(r"\bmetadata\s*\.\s*version\b|\bversion\s*\(\s*\"hexodic", p.read_text(encoding="utf-8"))
        }
    )
    assert found == ["checker/version.py"]


def test_static_files_are_read_in_one_module():
    found = sorted(
        {
            _rel(p)
            for p in PRODUCT
            if re.search(r"joinpath\(\s*\"static\"|\"static\"\s*\)", p.read_text(encoding="utf-8"))
        }
    )
    assert found == ["checker/web/assets.py"]


@pytest.mark.parametrize("name", ["InconsistentPosition", "InconsistentRequest", "SettingError"])
def test_each_error_class_is_defined_once(name):
    found = [_rel(p) for p in PRODUCT if re.search(rf"^class {name}\b", p.read_text(encoding="utf-8"), re.M)]
    assert len(found) == 1, found


def test_boards_are_drawn_through_draw():
    """Only checker/drawing/ calls the SVG writer or the rasteriser directly."""
    found = sorted(
        {
            _rel(p)
            for p in PRODUCT
            if not _rel(p).startswith("checker/drawing/")
            and re.search(r"\b(render_svg|svg_to_png|resvg_py)\s*[.(]", _code(p))
        }
    )
    assert found == []
