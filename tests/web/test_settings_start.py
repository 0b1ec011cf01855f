"""Every setting read at the start is checked by every start command (issue 36,
point 6): ``make run``, ``hexodic-checker-serve`` and ``gunicorn -c
gunicorn.conf.py``, each run here as a subprocess with one bad value, end with
exit 2 and one line on stderr naming the variable and the value, no traceback;
a port already taken names the variable to change.  The image runs
``hexodic-checker-serve`` (its CMD, checked below).

``make run`` adds make's own line about the failed recipe (``make: ***
[Makefile:..: run] Error 2``), and it is run with ``RUNTIME=`` so that it
installs nothing.  Plain gunicorn reads two variables itself before it reads
gunicorn.conf.py, WEB_CONCURRENCY and FORWARDED_ALLOW_IPS: a bad value there is
gunicorn's own error (exit 1), which the test holds to be so, so that it says
when gunicorn changes; the other two commands check them first."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bench.server import HOST, ROOT, free_port

BIN = Path(sys.executable).parent
VENV = BIN.parent
COMMANDS = {
    "hexodic-checker-serve": [str(BIN / "hexodic-checker-serve")],
    "gunicorn -c gunicorn.conf.py": [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py"],
    "make run": ["make", "-s", "--no-print-directory", "run", "RUNTIME=", f"VENV={VENV}"],
}
STARTED = 15  # seconds: a start still running then was not refused
GUNICORNS_OWN = {"WEB_CONCURRENCY", "FORWARDED_ALLOW_IPS"}  # read by gunicorn before gunicorn.conf.py

# (variable, bad value); "{file}" is a regular file, so nothing can be made under it
BAD = [
    ("PORT", "99999"),
    ("PORT", "abc"),
    ("PORT", "0"),
    ("HEXODIC_METRICS_PORT", "70000"),
    ("HOST", "0.0.0.0:80"),
    ("HOST", "bad..host"),
    ("WEB_CONCURRENCY", "two"),
    ("GUNICORN_WORKER_CONNECTIONS", "0"),
    ("GUNICORN_TIMEOUT", "30s"),
    ("GUNICORN_GRACEFUL_TIMEOUT", "-1"),
    ("GUNICORN_KEEPALIVE", "1.5"),
    ("GUNICORN_LIMIT_REQUEST_LINE", "9000"),
    ("GUNICORN_LIMIT_REQUEST_FIELDS", "40000"),
    ("GUNICORN_LIMIT_REQUEST_FIELD_SIZE", "big"),
    ("GUNICORN_CONTROL_SOCKET", "{file}/gunicorn.ctl"),
    ("GUNICORN_ACCESS_LOG", "{file}/requests.log"),
    ("HEXODIC_DRAIN_SECONDS", "five"),
    ("HEXODIC_MAX_BODY", "0"),
    ("HEXODIC_BODY_TIMEOUT", "2.5"),
    ("HEXODIC_EXPENSIVE_LIMIT", "0"),
    ("HEXODIC_WORK_DEADLINE", "0"),
    ("HEXODIC_CORS_ORIGINS", "hexodic.com"),
    ("HEXODIC_FRAME_ANCESTORS", "https://x.org; script-src *"),
    ("HEXODIC_PROXIES", "yes"),
    ("HEXODIC_PUBLIC_URL", "https://x.org/path"),
    ("FORWARDED_ALLOW_IPS", "10.0.0.1/8"),
    ("PROMETHEUS_MULTIPROC_DIR", "{file}/metrics"),
]


def _start(command: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    base = {"PATH": f"{BIN}:/usr/bin:/bin", "TMPDIR": str(tmp_path), "HOST": HOST}
    base.update(PORT=str(free_port()), HEXODIC_METRICS_PORT=str(free_port()), WEB_CONCURRENCY="1")
    base.update(env)
    # a session of its own: a start that was not refused (the test fails) is stopped whole, workers too
    proc = subprocess.Popen(
        COMMANDS[command],
        cwd=ROOT,
        env=base,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=STARTED)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _checker_lines(proc: subprocess.CompletedProcess, command: str) -> list[str]:
    lines = proc.stderr.splitlines()
    if command == "make run":  # make's own report of the failed recipe
        assert re.fullmatch(r"make: \*\*\* \[Makefile:\d+: run\] Error 2", lines[-1]), proc.stderr
        lines = lines[:-1]
    return lines


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name, value", BAD, ids=[f"{n}={v}" for n, v in BAD])
def test_a_bad_value_is_exit_2_and_one_line_naming_it(command, name, value, tmp_path):
    (tmp_path / "file").write_text("")
    value = value.format(file=tmp_path / "file")
    proc = _start(command, tmp_path, **{name: value})
    if command.startswith("gunicorn") and name in GUNICORNS_OWN:
        assert proc.returncode == 1 and (name in proc.stderr or value in proc.stderr), proc.stderr
        return
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    (line,) = _checker_lines(proc, command)
    assert line.startswith(f"hexodic-checker: {name}={value!r} is not allowed: "), line
    assert list(tmp_path.glob("hexodic-metrics-*")) == []  # nothing left behind


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", ["PORT", "HEXODIC_METRICS_PORT"])
def test_a_port_already_taken_names_the_variable_to_change(command, name, tmp_path):
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _start(command, tmp_path, **{name: str(port)})
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    (line,) = _checker_lines(proc, command)
    assert line == (
        f"hexodic-checker: {name}={port} is not allowed: {HOST}:{port} is already in use; set {name} to a free port"
    )


def test_a_host_of_no_address_here_names_host(tmp_path):
    proc = _start("gunicorn -c gunicorn.conf.py", tmp_path, HOST="192.0.2.1")  # TEST-NET-1: no one's address
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "hexodic-checker: HOST='192.0.2.1' cannot be listened on: it is no address of this machine "
        "(0.0.0.0 for every one, 127.0.0.1 for this machine only)"
    ]


def test_the_image_runs_a_tested_command():
    """The Dockerfile's CMD is hexodic-checker-serve, tested above; its
    HEALTHCHECK reads the same PORT."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    (cmd,) = re.findall(r"^CMD (.+)$", dockerfile, re.M)
    assert json.loads(cmd) == [Path(COMMANDS["hexodic-checker-serve"][0]).name]
    assert "SERVE := hexodic-checker-serve" in (ROOT / "Makefile").read_text(encoding="utf-8")  # make run
