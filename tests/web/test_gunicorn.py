"""The real server: gunicorn with the repository's configuration, on a free
loopback port, answering real HTTP requests, and stopping cleanly on SIGTERM.

The tests of this module share one server (module-scoped fixture) and run in
file order; the last one stops it.  Only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.server import HOST, running_gunicorn

START_HPN = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
# after A's "c3 +d4": A's stone on c3 (tier 0), d4 raised to tier 1, B to move
AFTER_C3 = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"
REQUEST_TIMEOUT = 10.0

# (position, turn, legal, violations), each worked out from RULES.md by hand
CASES = [
    # c3 is 1 step from the centre; d4 is 1 step from c3, tier 0 -> 1
    (START_HPN, "c3 +d4", True, []),
    # b2 is 2 steps from the centre; c3 is 1 step from b2
    (START_HPN, "b2 +c3", True, []),
    # A's first Place on the centre (§4 opening restriction); the Shape is fine
    (START_HPN, "d4 +c3", False, ["place.opening-restriction"]),
    # g7 is 4 steps from c3 (> 2)
    (START_HPN, "c3 +g7", False, ["shape.range"]),
    # d4 is tier 0: a lower needs tier 1 or 2
    (START_HPN, "c3 -d4", False, ["shape.tier-limit"]),
    # a raise is available, so the Shape may not be left out
    (START_HPN, "c3", False, ["shape.mandate"]),
    # a Move while 7 stones are in reserve, from an empty cell
    (START_HPN, "c3-c4 +d4", False, ["move.reserve-empty", "move.own-stone"]),
    # B's first Place: e5 is 1 step from the centre; d4 tier 1 -> 2 is 1 step from e5
    (AFTER_C3, "e5 +d4", True, []),
    # B's first Place on the centre is just as restricted
    (AFTER_C3, "d4 +c4", False, ["place.opening-restriction"]),
    # c3 holds A's stone
    (AFTER_C3, "c3 +d4", False, ["place.empty"]),
    # Echo-Lock of e5: B's own stone, but on tier 0
    (AFTER_C3, "e5 +d4 #e5", False, ["echo-lock.tier"]),
]


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=1):
            return True
    except OSError:
        return False


def _request(
    port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None
) -> tuple[int, str, bytes, http.client.HTTPResponse]:
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, resp.getheader("Content-Type", ""), data, resp
    finally:
        conn.close()


def _post_json(port: int, path: str, payload) -> tuple[int, str, dict]:
    status, ctype, data, _ = _request(
        port, "POST", path, json.dumps(payload).encode(), {"Content-Type": "application/json"}
    )
    return status, ctype, json.loads(data)


@pytest.fixture(scope="module")
def server():
    with running_gunicorn() as srv:
        yield srv


def test_web_concurrency_sets_the_worker_count(server):
    """WEB_CONCURRENCY=2: two workers boot (the second may still be booting
    when the first answers /healthz, so wait a little, boundedly)."""
    deadline = time.monotonic() + 10
    while server.output(tail=None).count("Booting worker with pid") < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    log = server.output(tail=None)
    assert log.count("Booting worker with pid") == 2, log
    assert f"Listening at: http://{HOST}:{server.port}" in log


def test_healthz(server):
    status, ctype, data, resp = _request(server.port, "GET", "/healthz")
    assert status == 200
    assert ctype.startswith("application/json")
    body = json.loads(data)
    assert body["status"] == "ok"
    assert body["rules_version"] == "2026-09-15"
    assert resp.getheader("Hexodic-Rules-Version") == "2026-09-15"


def test_binds_loopback_port_from_the_environment(server):
    assert _port_open(server.port)


def test_legal_check(server):
    status, ctype, body = _post_json(server.port, "/v1/check", {"position": START_HPN, "turn": "c3 +d4"})
    assert status == 200
    assert ctype.startswith("application/json")
    assert body["legal"] is True
    assert body["violations"] == []
    assert body["turn"] == "c3 +d4"
    assert body["mover"] == "A"
    assert body["outcome"]["hpn"] == AFTER_C3


def test_illegal_check(server):
    status, ctype, body = _post_json(server.port, "/v1/check", {"position": START_HPN, "turn": "d4 +c3"})
    assert status == 200
    assert body["legal"] is False
    assert body["violations"] == ["place.opening-restriction"]
    assert body["outcome"] is None
    failed = [c for c in body["checks"] if c["status"] == "failed"]
    assert [c["rule"] for c in failed] == ["place.opening-restriction"]
    assert failed[0]["cells"] == ["d4"]


def test_oversize_body_is_413_problem(server):
    payload = {"position": START_HPN, "turn": "c3 +d4", "padding": "x" * (256 * 1024)}
    raw = json.dumps(payload).encode()
    assert len(raw) > 256 * 1024
    status, ctype, data, _ = _request(server.port, "POST", "/v1/check", raw, {"Content-Type": "application/json"})
    assert status == 413
    assert ctype.startswith("application/problem+json")
    problem = json.loads(data)
    assert problem["status"] == 413
    assert {"type", "title", "detail"} <= set(problem)


def test_body_just_under_the_limit_is_not_413(server):
    """Under 256 KiB the body is read: the unknown member makes it a 422, not a 413."""
    raw = json.dumps({"position": START_HPN, "turn": "c3 +d4", "padding": ""}).encode()
    raw = raw.replace(b'"padding": ""', b'"padding": "' + b"x" * (256 * 1024 - len(raw) - 1) + b'"')
    assert len(raw) < 256 * 1024
    status, ctype, data, _ = _request(server.port, "POST", "/v1/check", raw, {"Content-Type": "application/json"})
    assert status == 422
    assert ctype.startswith("application/problem+json")


def test_malformed_json_is_400_problem(server):
    status, ctype, data, _ = _request(
        server.port, "POST", "/v1/check", b'{"position": "0000/', {"Content-Type": "application/json"}
    )
    assert status == 400
    assert ctype.startswith("application/problem+json")
    problem = json.loads(data)
    assert problem["status"] == 400
    assert {"type", "title", "detail"} <= set(problem)


def test_wrong_content_type_is_415_problem(server):
    status, ctype, data, _ = _request(
        server.port, "POST", "/v1/check", b"position=x", {"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert status == 415
    assert ctype.startswith("application/problem+json")
    assert json.loads(data)["status"] == 415


def test_concurrent_burst_answers_every_check_correctly(server):
    jobs = [CASES[i % len(CASES)] for i in range(200)]

    def one(job):
        position, turn, legal, violations = job
        status, _, body = _post_json(server.port, "/v1/check", {"position": position, "turn": turn})
        return job, status, body

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(one, jobs))
    assert len(results) == 200
    wrong = []
    for (position, turn, legal, violations), status, body in results:
        got = (status, body.get("legal"), body.get("violations"), body.get("turn"))
        if got != (200, legal, violations, turn):
            wrong.append((turn, position[-1], got))
    assert wrong == []
    assert sum(1 for job in jobs if job[2]) >= 50 and sum(1 for job in jobs if not job[2]) >= 100


def test_sigterm_stops_cleanly(server):
    """Last test of the module: the server stops on SIGTERM with exit code 0
    and releases the port."""
    assert server.proc.poll() is None, f"gunicorn died early:\n{server.output()}"
    server.proc.send_signal(signal.SIGTERM)
    try:
        code = server.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("gunicorn did not stop within 30 s of SIGTERM")
    assert code == 0, server.output()
    assert not _port_open(server.port)
    log = server.output(tail=None)
    assert "Traceback" not in log and "[ERROR]" not in log, log[-4000:]
