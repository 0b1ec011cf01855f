"""The real gunicorn, as ``make run`` starts it (gunicorn.conf.py), on a free
loopback port, waited for on /healthz, and always stopped: the one way the
benchmarks, ``make audit`` and the end-to-end tests start the server."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
STARTUP_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """A running gunicorn: its process, port, base URL and log."""

    def __init__(self, proc: subprocess.Popen, port: int, log, metrics_port: int = 0):
        self.proc, self.port, self.log, self.metrics_port = proc, port, log, metrics_port
        self.base = f"http://{HOST}:{port}/"

    def output(self, tail: int | None = 4000) -> str:
        """gunicorn's log so far (its last ``tail`` characters)."""
        self.log.flush()
        self.log.seek(0)
        text = self.log.read().decode("utf-8", "replace")
        self.log.seek(0, os.SEEK_END)
        return text if tail is None else text[-tail:]

    def stop(self, timeout: float = 15) -> str:
        """Stop with SIGTERM (SIGKILL after ``timeout``) and sum up its log: how it
        stopped and its error lines."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return "killed after SIGTERM timed out"
        text = self.output(tail=None)
        marks = ("[ERROR]", "Traceback", "WORKER TIMEOUT")
        lines = [line for line in text.splitlines() if any(m in line for m in marks)]
        code = self.proc.returncode
        state = f"stopped cleanly on SIGTERM (exit {code})" if code == 0 else f"exit {code}"
        first = f" (first: {lines[0].strip()[:160]})" if lines else ""
        return f"{state}; {len(lines)} error lines in its log{first}"

    def booted_workers(self) -> list[int]:
        """The pids of every worker booted so far, in order (replacements too)."""
        return [int(pid) for pid in re.findall(r"Booting worker with pid: (\d+)", self.output(tail=None))]


def _healthy(port: int) -> bool:
    conn = http.client.HTTPConnection(HOST, port, timeout=2)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


@contextlib.contextmanager
def running_gunicorn(
    gunicorn: Path | None = None, cwd: Path = ROOT, args: tuple[str, ...] = (), **env_overrides: str
) -> Iterator[Server]:
    """gunicorn with WEB_CONCURRENCY=2, no drain on SIGTERM, and the environment's HEXODIC_*/GUNICORN_*
    settings cleared (``env_overrides`` set any, ``args`` are added to the
    command line); stopped with SIGTERM (then SIGKILL) when the block ends,
    unless the caller stopped it already.  ``gunicorn`` defaults to the one
    beside this Python, ``cwd`` (where gunicorn.conf.py is read) to the
    repository.  A start that fails raises RuntimeError with gunicorn's log."""
    if gunicorn is None:
        gunicorn = Path(sys.executable).parent / "gunicorn"  # the venv running the tests: normally .venv
    if not gunicorn.exists():
        raise RuntimeError(f"gunicorn is not installed beside {sys.executable}")
    port, metrics_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEXODIC_", "GUNICORN_"))}
    env.update(HOST=HOST, PORT=str(port), HEXODIC_METRICS_PORT=str(metrics_port), WEB_CONCURRENCY="2")
    env.update(HEXODIC_DRAIN_SECONDS="0")  # a test or a benchmark stops at once; tests/web/test_drain.py drains
    env.update(PYTHONUNBUFFERED="1")
    env.update(env_overrides)
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [str(gunicorn), "--config", "gunicorn.conf.py", *args],
        cwd=cwd,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    srv = Server(proc, port, log, int(env["HEXODIC_METRICS_PORT"]))
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while not _healthy(port):
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {proc.returncode} during start-up:\n{srv.output()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer /healthz within {STARTUP_TIMEOUT} s:\n{srv.output()}")
            time.sleep(0.1)
        yield srv
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
