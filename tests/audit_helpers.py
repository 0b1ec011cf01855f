"""Helpers of the archive audit's tests (tests/test_audit.py,
tests/test_audit_behaviours.py): records written, rows read, the command run.
Their fixtures (the spoilt archive and its rows judged in this process) are in
tests/conftest.py."""

from __future__ import annotations

from pathlib import Path

import orjson

from checker.tools.audit.records import COLUMNS, judge
from checker.tools.cli import main

# c3 +d4 (A), e5 +d4 (B), e5 +d5 is illegal: e5 holds B's stone (place.empty).
ILLEGAL = ["c3 +d4", "e5 +d4", "e5 +d5"]


def rows_of(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def write_lines(path: Path, records) -> Path:
    path.write_bytes(b"".join((r if isinstance(r, bytes) else orjson.dumps(r)) + b"\n" for r in records))
    return path


def judged(path: Path, name: str | None = None) -> list[dict]:
    """The rows of a JSON Lines archive judged in this process, record by record
    (``name``: the file the rows give, default the path)."""
    rows = []
    for number, line in enumerate(path.read_bytes().split(b"\n"), start=1):
        if line.strip():
            row = judge(line, name or str(path), number)
            rows.append({k: row[k] for k in COLUMNS})
    return rows


def run_cli(*argv: str, capsys=None) -> tuple[int, list[str], str]:
    """``hexodic-check audit ARGV --no-progress``: the exit status, stdout's lines and stderr."""
    code = main(["audit", *argv, "--no-progress"])
    out = capsys.readouterr() if capsys is not None else None
    return code, (out.out.splitlines() if out else []), (out.err if out else "")
