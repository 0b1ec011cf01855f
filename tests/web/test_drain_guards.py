"""The drain's guards (issue 33): a second SIGTERM during the drain stops the
server at once, the drain's flag file is gone when the server has exited, and
``HEXODIC_DRAIN_SECONDS`` defaults to the value docs/operations.md gives.
The real gunicorn on loopback (bench.server), as tests/web/test_drain.py."""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

from bench.server import running_gunicorn
from checker.web import settings
from checker.web.serving import drain_flag
from tests.web.test_drain import _get  # a GET's status, or the error that stopped it

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
LONG_DRAIN = 30  # seconds: far longer than a stop at once takes


def _left_behind(flag: Path) -> bool:
    """Whether the flag file is still there; removed if so (a failing run leaves nothing behind)."""
    left = flag.exists()
    flag.unlink(missing_ok=True)
    return left


def _wait_draining(srv, flag: Path) -> None:
    deadline = time.monotonic() + 10
    while not (flag.exists() and _get(srv.port, "/readyz") == 503):
        assert time.monotonic() < deadline, f"the drain did not start:\n{srv.output()}"
        time.sleep(0.05)


def test_a_second_sigterm_during_the_drain_stops_at_once_and_the_flag_is_gone():
    with running_gunicorn(HEXODIC_DRAIN_SECONDS=str(LONG_DRAIN)) as srv:
        flag = drain_flag(srv.proc.pid)
        assert not flag.exists()
        srv.proc.send_signal(signal.SIGTERM)
        _wait_draining(srv, flag)
        time.sleep(0.5)
        assert srv.proc.poll() is None  # still draining after the first SIGTERM
        second = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        try:
            code = srv.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            code = None
        stopped = time.monotonic() - second
        log = srv.output(tail=None)
    left = _left_behind(flag)
    assert code == 0 and stopped < 10, (code, stopped, log[-2000:])
    assert not left, "the drain's flag file was left behind"
    assert log.count("SIGTERM: draining for 30 s") == 1  # the second SIGTERM did not drain again


def test_the_flag_file_is_there_while_draining_and_gone_after_a_drain_to_its_end():
    with running_gunicorn(HEXODIC_DRAIN_SECONDS="1") as srv:
        flag = drain_flag(srv.proc.pid)
        srv.proc.send_signal(signal.SIGTERM)
        _wait_draining(srv, flag)
        code = srv.proc.wait(timeout=15)
    left = _left_behind(flag)
    assert code == 0
    assert not left, "the drain's flag file was left behind"


def test_the_drain_defaults_to_the_seconds_docs_operations_gives():
    row = next(
        line for line in OPERATIONS.read_text(encoding="utf-8").splitlines() if "`HEXODIC_DRAIN_SECONDS`" in line
    )
    documented = re.match(r"\| `HEXODIC_DRAIN_SECONDS` \| (\d+) \|", row)
    assert documented, row
    assert settings.server({})["drain"] == int(documented[1])
    assert settings.server({"HEXODIC_DRAIN_SECONDS": "7"})["drain"] == 7  # read, not fixed
