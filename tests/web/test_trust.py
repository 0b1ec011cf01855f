"""Links from configuration, proxies only when told, and settings refused
with one line (issue 23: a request header must never poison a shared cache)."""

from __future__ import annotations

import http.client
import re
import socket
import subprocess
import sys

import pytest

from bench.server import HOST, ROOT, running_gunicorn
from checker.web import create_app
from checker.web.settings import SettingError, from_env, server
from tests.helpers import START_HPN

CHECK = "/check?" + "position=" + START_HPN.replace(" ", "+").replace("/", "%2F") + "&turn=c3+%2Bd4"
PUBLIC = "https://check.hexodic.example"
POISON = {"Host": "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http"}


def _og(body: str) -> set[str]:
    return set(re.findall(r'<meta property="og:(?:url|image)" content="([^"]+)"', body))


def test_with_a_public_url_no_header_changes_a_byte_of_a_page():
    for proxies in (0, 1):
        client = create_app({"TESTING": True, "PUBLIC_URL": PUBLIC, "PROXIES": proxies}).test_client()
        plain = client.get(CHECK)
        poisoned = client.get(CHECK, headers=POISON)
        assert plain.status_code == poisoned.status_code == 200
        assert plain.data == poisoned.data
        links = _og(plain.get_data(as_text=True))
        assert links and all(link.startswith(PUBLIC + "/") for link in links)
        assert plain.headers["Cache-Control"] == "public, max-age=3600"


def test_without_a_public_url_a_page_built_from_the_host_is_private():
    client = create_app({"TESTING": True, "PUBLIC_URL": None}).test_client()
    resp = client.get(CHECK, headers={"Host": "evil.example"})
    assert resp.status_code == 200
    assert all(link.startswith("http://evil.example/") for link in _og(resp.get_data(as_text=True)))
    assert resp.headers["Cache-Control"] == "private, max-age=3600"
    game = client.get("/game?turns=c3+%2Bd4")
    assert game.status_code == 200 and game.headers["Cache-Control"] == "private, max-age=3600"


@pytest.mark.parametrize("value", ["https://x.org/path", "ftp://x.org", "https://x.org?q=1", "x.org"])
def test_a_public_url_that_is_not_an_origin_is_refused(value):
    with pytest.raises(SettingError, match="HEXODIC_PUBLIC_URL"):
        from_env({"HEXODIC_PUBLIC_URL": value})


@pytest.mark.parametrize(
    "name, value",
    [("WEB_CONCURRENCY", "two"), ("PORT", "+800"), ("GUNICORN_TIMEOUT", "1_600"), ("WEB_CONCURRENCY", "٣")],
)
def test_numbers_are_ascii_digits_only(name, value):
    with pytest.raises(SettingError, match=name):
        server({name: value})


def test_every_answer_is_nosniff_and_metrics_answer_no_origin():
    client = create_app({"TESTING": True}).test_client()
    on_metrics_port = "http://localhost:9100"
    for path in ("/openapi.yaml", "/metrics", "/healthz", "/nope"):
        resp = client.get(path, base_url=on_metrics_port)
        assert resp.headers.get("X-Content-Type-Options") == "nosniff", path
    metrics = client.get("/metrics", headers={"Origin": "https://evil.example"}, base_url=on_metrics_port)
    assert metrics.status_code == 200
    assert "Access-Control-Allow-Origin" not in metrics.headers
    # the API still answers browsers
    api = client.get("/healthz", headers={"Origin": "https://evil.example"})
    assert api.headers["Access-Control-Allow-Origin"] == "*"


def _get(port: int, path: str, headers: dict) -> str:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path, headers=headers)
        return conn.getresponse().read().decode("utf-8")
    finally:
        conn.close()


def test_forwarded_headers_from_loopback_are_ignored_by_default():
    """The real gunicorn with the default settings: a client on the same host
    forging X-Forwarded-Proto/Host changes no link."""
    with running_gunicorn() as srv:
        body = _get(srv.port, CHECK, {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"})
    links = _og(body)
    assert links and all(link.startswith(f"http://{HOST}:{srv.port}/") for link in links)


def test_a_bad_setting_stops_the_start_with_one_line():
    env = {"PATH": "/usr/bin:/bin", "WEB_CONCURRENCY": "two", "HEXODIC_BODY_TIMEOUT": "2.5"}
    proc = subprocess.run(
        [sys.executable, "-m", "checker.web"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines == [
        "hexodic-checker: WEB_CONCURRENCY='two' is not allowed: a whole number of at least 1 (default 2)"
    ] or (len(lines) == 1 and lines[0].startswith("hexodic-checker: WEB_CONCURRENCY='two' is not allowed"))


def test_metrics_are_served_on_their_own_port_only():
    client = create_app({"TESTING": True}).test_client()
    assert client.get("/metrics", base_url="http://localhost:8000").status_code == 404
    resp = client.get("/metrics", base_url="http://localhost:9100")
    assert resp.status_code == 200
    text = resp.get_data(as_text=True)
    assert re.search(
        r'^hexodic_build_info\{python="[0-9.]+",rules_version="2026-09-15",version="[^"]+"\} 1\.0$', text, re.M
    ) or ("hexodic_build_info{" in text and 'rules_version="2026-09-15"' in text)


def test_the_real_server_keeps_metrics_off_the_public_port():
    with running_gunicorn() as srv:
        public = http.client.HTTPConnection(HOST, srv.port, timeout=10)
        public.request("GET", "/metrics")
        assert public.getresponse().status == 404
        public.close()
        scraper = http.client.HTTPConnection(HOST, srv.metrics_port, timeout=10)
        scraper.request("GET", "/metrics")
        resp = scraper.getresponse()
        body = resp.read().decode()
        scraper.close()
    assert resp.status == 200 and "hexodic_build_info" in body


def test_batch_items_are_answered_one_by_one_whatever_their_type():
    client = create_app({"TESTING": True}).test_client()
    good = {"position": START_HPN, "turn": "c3 +d4"}
    resp = client.post("/v1/check/batch", json={"items": [None, 1, "x", [], True, good]})
    assert resp.status_code == 200
    results = resp.get_json()["results"]
    kinds = ["null", "a number", "a string", "an array", "a boolean"]
    for i, (result, kind) in enumerate(zip(results, kinds)):
        assert result["status"] == 422
        assert result["errors"] == [{"path": f"items.{i}", "message": f"An item must be a JSON object, not {kind}."}]
    assert results[5]["legal"] is True


def test_the_contract_refuses_what_the_service_refuses():
    """Inputs the published schema allowed and the service answered 422: an empty
    HPN, HTN or score sheet, and a cell listed twice in a cooldown."""
    import yaml

    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    schemas = doc["components"]["schemas"]
    assert schemas["Player"]["properties"]["cooldown"]["uniqueItems"] is True
    game = next(p for p in doc["paths"]["/game"]["get"]["parameters"] if p["name"] == "turns")
    assert game["schema"]["minLength"] == 1
    check = {p["name"]: p["schema"] for p in doc["paths"]["/check"]["get"]["parameters"]}
    assert check["position"]["minLength"] == 1 and check["turn"]["minLength"] == 1
    body = doc["paths"]["/v1/check"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body
    client = create_app({"TESTING": True}).test_client()
    assert client.get("/game?turns=").status_code == 422


@pytest.mark.parametrize("value", ["1_600", "+800", "٨٠٠", " 800", "8e2"])
def test_numbers_in_a_query_are_ascii_digits_only(value):
    client = create_app({"TESTING": True}).test_client()
    png = client.get("/v1/render.png", query_string={"position": START_HPN, "size": value})
    assert png.status_code == 422
    assert png.get_json()["errors"] == [
        {"path": "size", "message": "Not a valid integer: write it with the digits 0-9 only."}
    ]
    game = client.get("/game", query_string={"turns": "c3 +d4", "at": value}, headers={"Accept": "application/json"})
    assert game.status_code == 422
    assert client.get("/v1/render.png", query_string={"position": START_HPN, "size": "800"}).status_code == 200


def test_a_failed_start_leaves_no_metrics_directory(tmp_path):
    """The port is taken: gunicorn cannot start, and the metrics directory it
    made for itself is removed all the same."""
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {"PATH": "/usr/bin:/bin", "TMPDIR": str(tmp_path), "PORT": str(port), "HOST": HOST}
        proc = subprocess.run(
            [sys.executable, "-m", "checker.web"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
    assert proc.returncode != 0
    assert list(tmp_path.glob("hexodic-metrics-*")) == [], proc.stderr[-2000:]
