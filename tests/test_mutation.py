"""The mutation-testing helpers (docs/testing.md): the order tests/conftest.py gives the tests
under a mutant, and the score table tests/mutation.py prints from mutmut's results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import mutation

ROOT = Path(__file__).resolve().parent.parent

# three tests in a module of their own; the stats say the first is the slowest
MODULE = """
def test_slow():
    pass

def test_quick():
    pass

def test_middle():
    pass
"""
TOOK = {"tests/test_m.py::test_slow": 3.0, "tests/test_m.py::test_quick": 0.01, "tests/test_m.py::test_middle": 1.0}


def _order(folder: Path, mutant: str) -> list[str]:
    """The order pytest runs test_m.py's tests in, in `folder` as mutmut's mutants/ folder."""
    tests = folder / "tests"
    tests.mkdir(exist_ok=True)
    (tests / "__init__.py").write_text("")
    (tests / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (tests / "audit_helpers.py").write_text((ROOT / "tests" / "audit_helpers.py").read_text())
    (tests / "test_m.py").write_text(MODULE)
    (folder / "mutmut-stats.json").write_text(json.dumps({"duration_by_test": TOOK}))
    env = {**os.environ, "MUTANT_UNDER_TEST": mutant, "PYTHONPATH": f"{folder}{os.pathsep}{ROOT}"}
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-o", "addopts="]
    out = subprocess.run(
        [*argv, "--rootdir", str(folder), "-v", "tests/test_m.py"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    return [line.split("::")[1].split()[0] for line in out.splitlines() if line.startswith("tests/test_m.py::")]


def test_under_a_mutant_the_quickest_tests_run_first(tmp_path):
    assert _order(tmp_path, "checker.rules.x_shaped__mutmut_3") == ["test_quick", "test_middle", "test_slow"]


@pytest.mark.parametrize("mutant", ["", "stats", "fail"])
def test_outside_a_mutant_the_order_is_the_files(tmp_path, mutant):
    assert _order(tmp_path, mutant) == ["test_slow", "test_quick", "test_middle"]


def test_the_score_is_killed_and_timed_out_over_tried(tmp_path):
    """A mutant no test reaches was tried and not killed; one not yet run was not tried."""
    meta = tmp_path / "checker" / "m.py.meta"
    meta.parent.mkdir()
    codes = {"a": 1, "b": 1, "c": 3, "d": 0, "e": None, "f": 33, "g": 24}
    meta.write_text(json.dumps({"exit_code_by_key": codes}))
    found = mutation.results(tmp_path)
    assert found == {"checker/m.py": codes}
    rows = mutation.table(found)
    assert rows[1].split()[:4] == ["checker/m.py", "7", "3", "66.7%"], rows
