"""The lock files: every dependency of pyproject.toml pinned, with hashes,
within its declared range; the test lock keeps the runtime lock's versions;
`make run`, `make test` and the Dockerfile install from them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK, TEST_LOCK = ROOT / "requirements.lock", ROOT / "requirements-test.lock"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def pins(path: Path) -> dict[str, tuple[str, list[str]]]:
    """name -> (version, hashes) of a pip-compile lock file."""
    text = re.sub(r"\\\n\s*", " ", path.read_text(encoding="utf-8"))  # join continuation lines
    out: dict[str, tuple[str, list[str]]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)((?:\s+--hash=sha256:[0-9a-f]{64})*)", line)
        assert match, f"{path.name}: not a pinned, hashed requirement: {line!r}"
        name = canonicalize_name(match.group(1))
        assert name not in out, f"{path.name}: {name} twice"
        out[name] = (match.group(2), re.findall(r"sha256:([0-9a-f]{64})", match.group(3)))
    return out


def test_pins_parser(tmp_path):
    sample = tmp_path / "sample.lock"
    sample.write_text("# header\nA_b==1.0 \\\n    --hash=sha256:" + "0" * 64 + "\n    # via x\n")
    assert pins(sample) == {"a-b": ("1.0", ["0" * 64])}
    sample.write_text("a-b>=1.0\n")
    with pytest.raises(AssertionError):
        pins(sample)


@pytest.mark.parametrize("lock", [LOCK, TEST_LOCK], ids=lambda p: p.name)
def test_every_pin_has_a_hash(lock):
    locked = pins(lock)
    assert locked and all(hashes for _, hashes in locked.values()), [n for n, (_, h) in locked.items() if not h]


def _declared(group: list[str], lock: dict) -> list[str]:
    wrong = []
    for spec in group:
        req = Requirement(spec)
        name = canonicalize_name(req.name)
        if name not in lock:
            wrong.append(f"{req.name} is not locked")
        elif lock[name][0] not in req.specifier:
            wrong.append(f"{req.name}=={lock[name][0]} is outside {req.specifier}")
    return wrong


def test_runtime_lock_covers_the_runtime_dependencies():
    assert _declared(PYPROJECT["project"]["dependencies"], pins(LOCK)) == []


def test_runtime_lock_holds_no_test_tool():
    locked = pins(LOCK)
    tools = [canonicalize_name(Requirement(s).name) for s in PYPROJECT["project"]["optional-dependencies"]["test"]]
    assert [t for t in tools if t in locked] == []


def test_test_lock_covers_both_and_keeps_the_runtime_versions():
    runtime, test = pins(LOCK), pins(TEST_LOCK)
    assert _declared(PYPROJECT["project"]["dependencies"], test) == []
    assert _declared(PYPROJECT["project"]["optional-dependencies"]["test"], test) == []
    assert {n: v for n, (v, _) in runtime.items() if test.get(n, ("",))[0] != v} == {}


def test_make_installs_from_the_locks():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^LOCK := requirements\.lock$", makefile, re.M)
    assert re.search(r"^TEST_LOCK := requirements-test\.lock$", makefile, re.M)
    runtime = re.search(r"^\$\(RUNTIME\):.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    testing = re.search(r"^\$\(TESTING\):.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "--require-hashes -r $(LOCK)" in runtime and "--no-deps -e ." in runtime
    assert "test" not in runtime.replace("test -x", ""), "make run would install the test extras"
    assert "--require-hashes -r $(TEST_LOCK)" in testing
    assert re.search(r"^run: \$\(RUNTIME\)$", makefile, re.M), "make run must need only the runtime install"
    assert re.search(r"^test: \$\(TESTING\)$", makefile, re.M)
