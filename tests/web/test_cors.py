"""Browser access (CORS): every origin by default, or only the configured ones
(``HEXODIC_CORS_ORIGINS``), never with credentials."""

from __future__ import annotations

import pytest

from checker.web import create_app
from checker.web.settings import from_env

START_HPN = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
HEXODIC = "https://hexodic.com"
OTHER = "https://evil.example"
CHECK = {"position": START_HPN, "turn": "c3 +d4"}


@pytest.fixture(autouse=True)
def _default_environment(monkeypatch):
    """No HEXODIC_CORS_ORIGINS from the caller's shell: the apps below see the
    default ("*") unless a test sets it."""
    monkeypatch.delenv("HEXODIC_CORS_ORIGINS", raising=False)


@pytest.fixture
def open_client(client):
    """The shared test client (tests/web/conftest.py): default settings."""
    return client


@pytest.fixture
def strict_client():
    return create_app({"TESTING": True, "CORS_ORIGINS": [HEXODIC]}).test_client()


def _header_list(value: str | None) -> list[str]:
    return [v.strip().lower() for v in (value or "").split(",") if v.strip()]


def _vary(resp) -> list[str]:
    return [v for value in resp.headers.getlist("Vary") for v in _header_list(value)]


# --------------------------------------------------------------------------- default: any origin


def test_check_from_a_browser_origin_is_allowed_by_default(open_client):
    resp = open_client.post("/v1/check", json=CHECK, headers={"Origin": HEXODIC})
    assert resp.status_code == 200
    assert resp.get_json()["legal"] is True
    assert resp.headers.get("Access-Control-Allow-Origin") == "*"
    assert "Access-Control-Allow-Credentials" not in resp.headers


def test_healthz_from_a_browser_origin_is_allowed_by_default(open_client):
    resp = open_client.get("/healthz", headers={"Origin": HEXODIC})
    assert resp.status_code == 200
    assert resp.get_json()["status"] == "ok"
    assert resp.headers.get("Access-Control-Allow-Origin") == "*"
    assert "Access-Control-Allow-Credentials" not in resp.headers


def test_any_origin_is_allowed_by_default(open_client):
    resp = open_client.get("/v1/start", headers={"Origin": "http://localhost:5173"})
    assert resp.status_code == 200
    assert resp.headers.get("Access-Control-Allow-Origin") == "*"


def test_error_answers_carry_cors_headers_too(open_client):
    """A browser must be able to read a problem+json body (422, 400, 404)."""
    for method, path, kwargs in [
        ("post", "/v1/check", {"json": {"position": START_HPN}}),
        ("post", "/v1/check", {"data": b"{not json", "content_type": "application/json"}),
        ("get", "/v1/nowhere", {}),
    ]:
        resp = getattr(open_client, method)(path, headers={"Origin": HEXODIC}, **kwargs)
        assert resp.status_code in (400, 404, 422)
        assert resp.mimetype == "application/problem+json"
        assert resp.headers.get("Access-Control-Allow-Origin") == "*", (method, path)
        assert "Access-Control-Allow-Credentials" not in resp.headers


def test_preflight_for_a_json_post(open_client):
    resp = open_client.options(
        "/v1/check",
        headers={
            "Origin": HEXODIC,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert resp.status_code in (200, 204)
    assert resp.headers.get("Access-Control-Allow-Origin") == "*"
    assert "post" in _header_list(resp.headers.get("Access-Control-Allow-Methods"))
    assert "content-type" in _header_list(resp.headers.get("Access-Control-Allow-Headers"))
    assert "Access-Control-Allow-Credentials" not in resp.headers


@pytest.mark.parametrize("path", ["/v1/legal-turns", "/v1/validate"])
def test_preflight_for_the_other_posts(open_client, path):
    resp = open_client.options(path, headers={"Origin": HEXODIC, "Access-Control-Request-Method": "POST"})
    assert resp.status_code in (200, 204)
    assert resp.headers.get("Access-Control-Allow-Origin") == "*"
    assert "post" in _header_list(resp.headers.get("Access-Control-Allow-Methods"))
    assert "content-type" in _header_list(resp.headers.get("Access-Control-Allow-Headers"))


# --------------------------------------------------------------------------- a list of origins


def test_allowed_origin_is_echoed_with_vary(strict_client):
    resp = strict_client.post("/v1/check", json=CHECK, headers={"Origin": HEXODIC})
    assert resp.status_code == 200
    assert resp.headers.get("Access-Control-Allow-Origin") == HEXODIC
    assert "origin" in _vary(resp)
    assert "Access-Control-Allow-Credentials" not in resp.headers


def test_allowed_origin_preflight(strict_client):
    resp = strict_client.options(
        "/v1/check",
        headers={
            "Origin": HEXODIC,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Content-Type",
        },
    )
    assert resp.status_code in (200, 204)
    assert resp.headers.get("Access-Control-Allow-Origin") == HEXODIC
    assert "origin" in _vary(resp)
    assert "post" in _header_list(resp.headers.get("Access-Control-Allow-Methods"))
    assert "content-type" in _header_list(resp.headers.get("Access-Control-Allow-Headers"))


def test_other_origin_gets_no_cors_headers(strict_client):
    resp = strict_client.post("/v1/check", json=CHECK, headers={"Origin": OTHER})
    assert resp.status_code == 200  # the server still answers; the browser withholds it
    assert "Access-Control-Allow-Origin" not in resp.headers
    assert "Access-Control-Allow-Credentials" not in resp.headers
    health = strict_client.get("/healthz", headers={"Origin": OTHER})
    assert "Access-Control-Allow-Origin" not in health.headers


def test_other_origin_preflight_is_not_granted(strict_client):
    resp = strict_client.options("/v1/check", headers={"Origin": OTHER, "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in resp.headers
    assert "Access-Control-Allow-Methods" not in resp.headers


def test_origin_match_is_exact(strict_client):
    for near in [
        "https://hexodic.com.evil.example",
        "http://hexodic.com",
        "https://www.hexodic.com",
        "https://hexodic.co",
    ]:
        resp = strict_client.get("/healthz", headers={"Origin": near})
        assert "Access-Control-Allow-Origin" not in resp.headers, near


# --------------------------------------------------------------------------- HEXODIC_CORS_ORIGINS


def test_from_env_reads_a_comma_separated_list():
    settings = from_env({"HEXODIC_CORS_ORIGINS": "https://a.example, https://b.example"})
    assert settings["CORS_ORIGINS"] == ["https://a.example", "https://b.example"]


def test_from_env_defaults_to_any_origin():
    assert from_env({})["CORS_ORIGINS"] == ["*"]
    assert from_env({"HEXODIC_CORS_ORIGINS": ""})["CORS_ORIGINS"] == ["*"]
    assert from_env({"HEXODIC_CORS_ORIGINS": "*"})["CORS_ORIGINS"] == ["*"]


def test_from_env_ignores_empty_items():
    settings = from_env({"HEXODIC_CORS_ORIGINS": " https://a.example ,, "})
    assert settings["CORS_ORIGINS"] == ["https://a.example"]


def test_app_reads_the_environment(monkeypatch):
    monkeypatch.setenv("HEXODIC_CORS_ORIGINS", "https://a.example, https://b.example")
    client = create_app({"TESTING": True}).test_client()
    for origin in ("https://a.example", "https://b.example"):
        resp = client.get("/healthz", headers={"Origin": origin})
        assert resp.headers.get("Access-Control-Allow-Origin") == origin
    resp = client.get("/healthz", headers={"Origin": HEXODIC})
    assert "Access-Control-Allow-Origin" not in resp.headers
