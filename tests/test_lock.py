"""The lock files: every dependency of pyproject.toml pinned, with hashes,
within its declared range, one lock for the core, the core with each extra,
and everything with the test tools; the later locks keep the earlier ones'
versions; `make run`, `make test` and the Dockerfile install from them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
CORE_LOCK, LOCK = ROOT / "requirements-core.lock", ROOT / "requirements.lock"
AUDIT_LOCK, TEST_LOCK = ROOT / "requirements-audit.lock", ROOT / "requirements-test.lock"
MCP_LOCK = ROOT / "requirements-mcp.lock"
LOCKS = [CORE_LOCK, LOCK, AUDIT_LOCK, MCP_LOCK, TEST_LOCK]
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


@pytest.mark.parametrize("lock", LOCKS, ids=lambda p: p.name)
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


def _names(group: list[str]) -> set[str]:
    return {canonicalize_name(Requirement(spec).name) for spec in group}


CORE = PYPROJECT["project"]["dependencies"]
EXTRAS = PYPROJECT["project"]["optional-dependencies"]

# Each lock: the groups of pyproject.toml it must cover, and the ones it must not hold.
COVERS = {
    CORE_LOCK: ([CORE], ["server", "audit", "mcp", "test"]),
    LOCK: ([CORE, EXTRAS["server"]], ["audit", "mcp", "test"]),
    AUDIT_LOCK: ([CORE, EXTRAS["audit"]], ["server", "mcp", "test"]),
    MCP_LOCK: ([CORE, EXTRAS["mcp"]], ["server", "audit", "test"]),
    TEST_LOCK: ([CORE, EXTRAS["server"], EXTRAS["audit"], EXTRAS["mcp"], EXTRAS["test"]], []),
}


@pytest.mark.parametrize("lock", LOCKS, ids=lambda p: p.name)
def test_each_lock_covers_its_groups_and_holds_no_other_extra(lock):
    locked = pins(lock)
    covers, excludes = COVERS[lock]
    assert [problem for group in covers for problem in _declared(group, locked)] == []
    # PyYAML is the server's and Dask's (the audit's) both
    others = set().union(*(_names(EXTRAS[extra]) for extra in excludes)) - _names(CORE) - {"pyyaml"}
    assert sorted(others & set(locked)) == []


def test_the_core_needs_no_server_and_no_audit():
    assert _names(CORE) & (_names(EXTRAS["server"]) | _names(EXTRAS["audit"])) == set()
    assert {"flask", "gunicorn", "gevent", "prometheus-client", "resvg-py"} <= _names(EXTRAS["server"])
    assert {"dask", "distributed", "pyarrow"} <= _names(EXTRAS["audit"])


@pytest.mark.parametrize("later", [CORE_LOCK, AUDIT_LOCK, MCP_LOCK, TEST_LOCK], ids=lambda p: p.name)
def test_every_lock_keeps_the_versions_of_the_runtime_lock(later):
    runtime, other = pins(LOCK), pins(later)
    assert {n: (v, other[n][0]) for n, (v, _) in runtime.items() if n in other and other[n][0] != v} == {}
    if later is TEST_LOCK:
        for earlier in (AUDIT_LOCK, MCP_LOCK):
            kept = pins(earlier)
            assert {n: (v, other[n][0]) for n, (v, _) in kept.items() if other.get(n, ("",))[0] != v} == {}


def test_make_installs_from_the_locks():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for variable, lock in (
        ("CORE_LOCK", CORE_LOCK),
        ("LOCK", LOCK),
        ("AUDIT_LOCK", AUDIT_LOCK),
        ("MCP_LOCK", MCP_LOCK),
        ("TEST_LOCK", TEST_LOCK),
    ):
        assert re.search(rf"^{variable} := {re.escape(lock.name)}$", makefile, re.M), variable
    runtime = re.search(r"^\$\(RUNTIME\):.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    testing = re.search(r"^\$\(TESTING\):.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    # make install / make run: the core with both extras (.venv/bin/dask included); no test tool
    assert "--require-hashes -r $(LOCK)" in runtime and "--require-hashes -r $(AUDIT_LOCK)" in runtime
    assert "--require-hashes -r $(MCP_LOCK)" in runtime
    assert "--no-deps -e ." in runtime
    assert "TEST" not in runtime, "make run would install the test extras"
    assert "--require-hashes -r $(TEST_LOCK)" in testing
    assert re.search(r"^run: \$\(RUNTIME\)$", makefile, re.M), "make run must need only the runtime install"
    # make test needs the Python test install and the Node tools (npm ci's stamp), nothing else
    assert re.search(r"^test: \$\(TESTING\) \$\(NODE\)$", makefile, re.M), "make test must install what it runs"
    assert re.search(r"^NODE := node_modules/\.installed$", makefile, re.M)
    # make test alone installs the two side by side; `make clean test` keeps its order
    assert re.search(r"^ifeq \(\$\(MAKECMDGOALS\),test\)\nMAKEFLAGS \+= --jobs=2\nendif$", makefile, re.M)
    node = re.search(r"^\$\(NODE\):.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "npm ci" in node, "the Node tools come from package-lock.json"
    lock = re.search(r"^lock:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert all(f"-o $({v})" in lock for v in ("CORE_LOCK", "LOCK", "AUDIT_LOCK", "MCP_LOCK", "TEST_LOCK")), (
        "make lock writes them all"
    )
