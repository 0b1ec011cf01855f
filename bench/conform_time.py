"""Benchmark of ``hexodic-check conform``'s default run against the checker's
own engine (``hexodic-check engine``): its wall time, which the issue bounds
at 2 minutes on 2 cores (the vectors, the early game and the milestones with
perft to depth 2 from each, perft over the table to depth 2)."""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
TARGET = 120.0


def measure() -> tuple[float, str]:
    checker = str(BIN / "hexodic-check")
    started = time.monotonic()
    proc = subprocess.run(
        [checker, "conform", "--engine", f"{shlex.quote(checker)} engine", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    seconds = time.monotonic() - started
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return seconds, proc.stdout.splitlines()[-1]


def section() -> str:
    seconds, last = measure()
    verdict = "meets" if seconds < TARGET else "MISSES"
    return "\n".join(
        [
            "conform: the default run against the checker's own engine",
            f"{'wall time, s':66s} {seconds:14.1f} {'< 120':>8s} {verdict}",
            f"  {last}",
        ]
    )


if __name__ == "__main__":
    print(section())
