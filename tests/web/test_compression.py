"""gzip for large answers (checker/web/compression.py): a compressed answer is
the same JSON (or bytes) once decompressed; small answers, binary ones and
clients that do not accept gzip get the answer as it is; ETags, 304s and HEAD
stay right.  In-process, then once through the real gunicorn."""

from __future__ import annotations

import gzip
import http.client
import json
import random

import pytest

from bench.server import running_gunicorn
from checker.notation import START_HPN
from checker.web import compression
from checker.web.docs import url as docs_url

# bench/bench.py's placing midgame: 3,097 legal turns, 430,835 bytes as objects
PLACING = "0000B/00002B/011000/00102B0B0A/0002B1A1A/000A1A0B/000A1A B 0:3:6:0:7:P:- 1:3:6:0:6:P:- 13"
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def vary(resp) -> set[str]:
    return {v.strip() for line in resp.headers.getlist("Vary") for v in line.split(",")}


@pytest.mark.parametrize("form", ["objects", "htn"])
def test_a_compressed_answer_decompresses_to_the_same_json(client, form):
    body = {"position": PLACING, "form": form}
    plain = client.post("/v1/legal-turns", json=body)
    packed = client.post("/v1/legal-turns", json=body, headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in vary(plain) and "Accept-Encoding" in vary(packed)
    data = packed.get_data()
    assert int(packed.headers["Content-Length"]) == len(data)
    assert data[:2] == b"\x1f\x8b"  # the gzip magic (RFC 1952)
    assert json.loads(gzip.decompress(data)) == plain.get_json()
    assert gzip.decompress(data) == plain.get_data()  # the very bytes, not only the same JSON
    assert plain.get_json()["count"] == 3097
    if form == "objects":
        assert len(plain.get_data()) == 430_835 and len(data) < 60_000  # issue 14's target


def test_a_verdict_is_compressed_and_decompresses_to_the_same_json(client):
    body = {"position": START_HPN, "turn": "d4 +c3"}
    plain = client.post("/v1/check", json=body)
    packed = client.post("/v1/check", json=body, headers={"Accept-Encoding": "gzip"})
    assert len(plain.get_data()) >= compression.MIN_SIZE
    assert packed.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(packed.get_data())) == plain.get_json()
    assert plain.get_json()["violations"] == ["place.opening-restriction"]


@pytest.mark.parametrize(
    "accept, compressed",
    [
        ("gzip", True),
        ("GZIP", True),
        ("*", True),
        ("br;q=1, gzip;q=0.5", True),
        ("x-gzip", False),
        ("gzip;q=0", False),
        ("identity", False),
        ("br", False),
        ("deflate", False),
        (None, False),
    ],
)
def test_only_a_client_that_accepts_gzip_gets_it(client, accept, compressed):
    headers = {} if accept is None else {"Accept-Encoding": accept}
    resp = client.post("/v1/legal-turns", json={"position": START_HPN}, headers=headers)
    assert resp.status_code == 200
    assert (resp.headers.get("Content-Encoding") == "gzip") is compressed
    data = gzip.decompress(resp.get_data()) if compressed else resp.get_data()
    assert json.loads(data)["count"] == 480


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("GET", "/healthz", None),  # 60-odd bytes
        ("POST", "/v1/check", {"position": START_HPN}),  # a 422 problem
        ("POST", "/v1/legal-turns", {"position": START_HPN, "project": "d4"}),  # no legal turn: a few bytes
        ("GET", "/v1/render.png?position=" + START_HPN.replace(" ", "%20"), None),  # PNG: already compressed
    ],
)
def test_small_and_binary_answers_go_as_they_are(client, method, path, body):
    resp = client.open(path, method=method, json=body, headers=GZIP)
    assert resp.status_code in (200, 422)
    assert "Content-Encoding" not in resp.headers
    if resp.mimetype != "image/png":
        assert len(resp.get_data()) < compression.MIN_SIZE
        assert "Accept-Encoding" not in vary(resp)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/rules",
        "/static/playground/playground.js",
        docs_url("swagger-ui-bundle.js"),
        "/openapi.yaml",
        "/v1/vectors",
    ],
)
def test_an_asset_keeps_its_etag_weakened_and_its_304(client, path):
    plain = client.get(path)
    packed = client.get(path, headers=GZIP)
    again = client.get(path, headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    tag = plain.headers["ETag"]
    assert tag.startswith('"') and packed.headers["ETag"] == "W/" + tag
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert again.get_data() == packed.get_data()  # the same bytes: compressed once, kept
    assert len(packed.get_data()) < len(plain.get_data()) / 2
    for held in (tag, "W/" + tag):
        for headers in ({}, GZIP):
            resp = client.get(path, headers={**headers, "If-None-Match": held})
            assert resp.status_code == 304, (held, headers)
            assert resp.get_data() == b""
    assert client.get(path, headers={**GZIP, "If-None-Match": "W/" + tag}).headers["ETag"] == "W/" + tag


def test_head_announces_the_compressed_length(client):
    path = docs_url("swagger-ui-bundle.js")
    got = client.get(path, headers=GZIP)
    head = client.head(path, headers=GZIP)
    assert head.status_code == 200 and head.get_data() == b""
    assert head.headers["Content-Encoding"] == "gzip"
    assert head.headers["Content-Length"] == got.headers["Content-Length"] == str(len(got.get_data()))


def test_the_cache_is_bounded():
    cache = compression._Cache(entries=3, size=10_000)
    bodies = {str(i): bytes([65 + i]) * 50_000 for i in range(5)}
    for tag, body in bodies.items():
        assert gzip.decompress(cache.get((tag, "text/plain"), body)) == body
    assert list(k for k, _ in cache._data) == ["2", "3", "4"]
    big = random.Random(1).randbytes(20_000)  # random: gzip cannot bring it under the bound
    assert gzip.decompress(cache.get(("big", "text/plain"), big)) == big
    assert cache._bytes <= 10_000 and ("big", "text/plain") not in cache._data


def _fetch(port: int, method: str, path: str, body: bytes | None, headers: dict) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, body=body, headers=headers)
    resp = conn.getresponse()
    resp.body = resp.read()
    conn.close()
    return resp


def test_through_gunicorn():
    """The real server: the gzip answer's bytes on the wire, and what a client decodes."""
    body = json.dumps({"position": PLACING}).encode()
    json_headers = {"Content-Type": "application/json"}
    with running_gunicorn() as srv:
        plain = _fetch(srv.port, "POST", "/v1/legal-turns", body, json_headers)
        packed = _fetch(srv.port, "POST", "/v1/legal-turns", body, {**json_headers, "Accept-Encoding": "gzip"})
        bundle = _fetch(srv.port, "GET", docs_url("swagger-ui-bundle.js"), None, {"Accept-Encoding": "gzip"})
    assert plain.status == packed.status == 200
    assert plain.getheader("Content-Encoding") is None and len(plain.body) == 430_835
    assert packed.getheader("Content-Encoding") == "gzip"
    assert int(packed.getheader("Content-Length")) == len(packed.body) < 60_000
    assert json.loads(gzip.decompress(packed.body)) == json.loads(plain.body)
    assert bundle.status == 200 and bundle.getheader("Content-Encoding") == "gzip"
    assert len(gzip.decompress(bundle.body)) > 3 * len(bundle.body)
