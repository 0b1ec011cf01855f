"""A ``Host`` that is not a host (issue 36): the real gunicorn on loopback,
each request written by hand on a raw socket, on every kind of path (the
API, a page, a static asset, /healthz, a path that does not exist, the
metrics port).  A bad ``Host`` is a 400 problem naming the header; a good
one of every form is answered as before.  With HEXODIC_PROXIES=1 the
``X-Forwarded-Host`` the app would take instead is held to the same."""

from __future__ import annotations

import contextlib
import json
import socket

import pytest

from bench.server import HOST, running_gunicorn

START = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
CHECK = json.dumps({"position": START, "turn": "c3 +d4"}).encode()
PROBLEM = "urn:hexodic:checker:problem:"

BAD = [
    "evil.example/<x>",
    "evil.example/path",
    "evil example",
    "user@evil.example",
    "a..b",
    ".evil.example",
    "evil.example:99999",
    "evil.example:port",
    "[::1",
    "[zz::1]",
    "::1",
    "<script>",
    "evil.example,other.example",
    "",
]
GOOD = ["check.hexodic.example", "localhost", "127.0.0.1", "127.0.0.1:8000", "[::1]", "[::1]:8000", "my_service:80"]
# (method, path, body): an API operation, a page, a static asset, liveness, no such path
PATHS = [
    ("POST", "/v1/check", CHECK),
    ("GET", "/rules", b""),
    ("GET", "/static/playground/playground.css", b""),
    ("GET", "/healthz", b""),
    ("GET", "/no/such/path", b""),
]
GOOD_STATUS = {
    "/v1/check": 200,
    "/rules": 200,
    "/static/playground/playground.css": 200,
    "/healthz": 200,
    "/no/such/path": 404,
}


@pytest.fixture(scope="module")
def server():
    with running_gunicorn() as srv:
        yield srv


@pytest.fixture(scope="module")
def behind_a_proxy():
    with running_gunicorn(HEXODIC_PROXIES="1") as srv:
        yield srv


def _ask(port: int, method: str, path: str, body: bytes, *headers: str) -> tuple[int, dict, bytes]:
    """One request written by hand (the ``headers`` lines as given), and its answer."""
    lines = [f"{method} {path} HTTP/1.1", *headers, "Connection: close"]
    if body:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    with contextlib.closing(socket.create_connection((HOST, port), timeout=10)) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        raw = b""
        while chunk := s.recv(65536):
            raw += chunk
    head, _, data = raw.partition(b"\r\n\r\n")
    status_line, *fields = head.decode("latin-1").split("\r\n")
    return int(status_line.split()[1]), {k.lower(): v.strip() for k, _, v in (f.partition(":") for f in fields)}, data


def _is_bad_host(got: tuple[int, dict, bytes], header: str, value: str) -> None:
    status, headers, data = got
    assert (status, headers["content-type"]) == (400, "application/problem+json"), (status, headers, data[:300])
    problem = json.loads(data)
    assert problem["type"] == PROBLEM + "bad-host" and problem["status"] == 400
    assert f"The {header} header" in problem["detail"], problem
    assert value[:20] in problem["detail"], problem


@pytest.mark.parametrize("method, path, body", PATHS, ids=[p for _, p, _ in PATHS])
@pytest.mark.parametrize("value", BAD)
def test_a_bad_host_is_400_naming_the_header_on_every_path(server, method, path, body, value):
    _is_bad_host(_ask(server.port, method, path, body, f"Host: {value}"), "Host", value)


def test_a_bad_host_is_400_on_the_metrics_port_too(server):
    _is_bad_host(_ask(server.metrics_port, "GET", "/metrics", b"", "Host: evil.example/<x>"), "Host", "evil.example")


def test_an_http_1_1_request_without_host_is_400(server):
    status, _, data = _ask(server.port, "GET", "/healthz", b"")
    assert status == 400 and json.loads(data)["type"] == PROBLEM + "bad-host"


@pytest.mark.parametrize("method, path, body", PATHS, ids=[p for _, p, _ in PATHS])
@pytest.mark.parametrize("value", GOOD)
def test_a_good_host_of_every_form_is_answered(server, method, path, body, value):
    status, _, data = _ask(server.port, method, path, body, f"Host: {value}")
    assert status == GOOD_STATUS[path], (status, data[:300])


@pytest.mark.parametrize("value", ["evil.example/<x>", "a b", "x@y", ""])
def test_a_bad_forwarded_host_is_400_when_proxies_are_trusted(behind_a_proxy, value):
    got = _ask(behind_a_proxy.port, "GET", "/healthz", b"", f"Host: {HOST}", f"X-Forwarded-Host: {value}")
    if value:
        _is_bad_host(got, "X-Forwarded-Host", value)
    else:  # an empty X-Forwarded-Host is no value: the Host stands
        assert got[0] == 200


def test_a_good_forwarded_host_is_taken(behind_a_proxy):
    status, _, _ = _ask(behind_a_proxy.port, "GET", "/healthz", b"", f"Host: {HOST}", "X-Forwarded-Host: check.example")
    assert status == 200


def test_forwarded_hosts_are_ignored_without_trusted_proxies(server):
    """HEXODIC_PROXIES=0 (the default): X-Forwarded-Host is not read, so it is not judged either."""
    status, _, _ = _ask(server.port, "GET", "/healthz", b"", f"Host: {HOST}", "X-Forwarded-Host: evil.example/<x>")
    assert status == 200
