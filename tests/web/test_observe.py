"""Request ids, the JSON request log, the metrics, /readyz and /healthz, in
process (Flask's test client).  tests/web/test_observe_gunicorn.py does the
same against a real gunicorn with several workers."""

from __future__ import annotations

import json
import logging
import re

import pytest
from prometheus_client.parser import text_string_to_metric_families

from checker.version import PACKAGE_VERSION
from checker.web import create_app, health, observe
from checker.web.serving import REQUEST_LOG
from tests.helpers import START_HPN

CHECK = "/v1/check"
HEX32 = re.compile(r"[0-9a-f]{32}")
# A's first Place on the centre: RULES §4's opening restriction, and only it (the raise of c3,
# 1 step from d4, Tier 0 to 1, is fine)
ILLEGAL = {"position": START_HPN, "turn": "d4 +c3"}
# c3 is 1 step from the centre, d4 1 step from c3: legal
LEGAL = {"position": START_HPN, "turn": "c3 +d4"}
# g7 is 4 steps from c3 (at most 2): shape.range, and only it
OUT_OF_RANGE = {"position": START_HPN, "turn": "c3 +g7"}


@pytest.fixture
def lines(caplog):
    """The JSON request lines logged so far, parsed."""
    caplog.set_level(logging.INFO, logger=REQUEST_LOG)

    def parsed() -> list[dict]:
        return [json.loads(r.getMessage()) for r in caplog.records if r.name == REQUEST_LOG]

    return parsed


def sample(name: str, **labels) -> float:
    return observe.REGISTRY.get_sample_value(name, labels) or 0.0


# --------------------------------------------------------------------------- request ids


@pytest.mark.parametrize(
    "sent", ["abc", "4e948d1f-f6d5-46d6-8866-3358568a60dd", "Root=1-5759e988-bd862e3f", "a.b_c:d+e/f=g@h", "x" * 128]
)
def test_a_valid_request_id_is_echoed(client, sent):
    assert client.get("/healthz", headers={"X-Request-ID": sent}).headers["X-Request-ID"] == sent


@pytest.mark.parametrize("sent", ["", "x" * 129, "has space", "semi;colon", 'quote"', "<script>", "é", "a,b"])
def test_an_unsafe_request_id_is_replaced(client, sent):
    got = client.get("/healthz", headers={"X-Request-ID": sent}).headers["X-Request-ID"]
    assert HEX32.fullmatch(got) and got != sent


def test_a_request_id_is_made_when_none_is_sent(client):
    ids = {client.get("/healthz").headers["X-Request-ID"] for _ in range(3)}
    assert len(ids) == 3 and all(HEX32.fullmatch(i) for i in ids)


@pytest.mark.parametrize(
    "method, path, kwargs, status",
    [
        ("get", "/no/such/path", {}, 404),
        ("get", CHECK, {}, 405),
        ("post", CHECK, {"data": "{", "content_type": "application/json"}, 400),
        ("post", CHECK, {"data": "x", "content_type": "text/plain"}, 415),
        ("post", CHECK, {"json": {"position": START_HPN}}, 422),
        ("post", CHECK, {"data": b"{" + b" " * 300_000 + b"}", "content_type": "application/json"}, 413),
    ],
)
def test_errors_carry_the_request_id(client, method, path, kwargs, status):
    resp = getattr(client, method)(path, headers={"X-Request-ID": "err-1"}, **kwargs)
    assert resp.status_code == status and resp.mimetype == "application/problem+json"
    assert resp.headers["X-Request-ID"] == "err-1"


def test_an_unexpected_error_carries_the_request_id_too():
    app = create_app({"TESTING": True})

    @app.get("/boom")
    def boom():
        raise RuntimeError("a bug")

    resp = app.test_client().get("/boom", headers={"X-Request-ID": "boom-1"})
    assert resp.status_code == 500 and resp.mimetype == "application/problem+json"
    assert resp.headers["X-Request-ID"] == "boom-1"


def test_browsers_may_send_and_read_the_request_id(client):
    preflight = client.options(
        CHECK,
        headers={
            "Origin": "https://example.org",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-request-id",
        },
    )
    allowed = {h.strip().lower() for h in preflight.headers["Access-Control-Allow-Headers"].split(",")}
    assert "x-request-id" in allowed
    resp = client.post(CHECK, json=LEGAL, headers={"Origin": "https://example.org"})
    exposed = {h.strip().lower() for h in resp.headers["Access-Control-Expose-Headers"].split(",")}
    assert "x-request-id" in exposed


# --------------------------------------------------------------------------- the JSON log


def test_one_json_line_per_request_with_its_fields(client, lines):
    client.post(CHECK, json=ILLEGAL, headers={"X-Request-ID": "log-1", "User-Agent": "hexodic-test/1"})
    client.get("/no/such/path", headers={"X-Request-ID": "log-2"})
    first, second = lines()
    assert set(first) == {
        "time",
        "request_id",
        "method",
        "path",
        "route",
        "status",
        "bytes",
        "duration_ms",
        "client",
        "user_agent",
        "failed_rules",
        "problems",
    }
    assert first["path"] == CHECK and first["client"] == "127.0.0.1" and first["user_agent"] == "hexodic-test/1"
    assert isinstance(first["bytes"], int) and first["bytes"] > 100
    assert second["path"] == "/no/such/path"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", first["time"])
    assert first["request_id"] == "log-1" and first["method"] == "POST" and first["route"] == CHECK
    assert first["status"] == 200 and first["failed_rules"] == ["place.opening-restriction"]
    assert first["problems"] == [] and isinstance(first["duration_ms"], float) and first["duration_ms"] >= 0
    assert second["request_id"] == "log-2" and second["route"] == observe.UNMATCHED and second["status"] == 404
    assert second["failed_rules"] == [] and second["problems"] == ["not-found"]


def test_a_batch_logs_the_failed_rules_of_every_item(client, lines):
    items = [ILLEGAL, LEGAL, OUT_OF_RANGE, ILLEGAL, {"position": START_HPN, "turn": "c3 +h9"}]
    assert client.post("/v1/check/batch", json={"items": items}).status_code == 200
    (line,) = lines()
    assert line["route"] == "/v1/check/batch"
    assert line["failed_rules"] == ["place.opening-restriction", "shape.range"]  # each once, in order met
    assert line["problems"] == ["invalid-body"]  # h9 is not a cell: the item's problem


def test_the_body_is_never_logged(client, lines, caplog):
    marker = "SECRET-7d1e"
    client.post(CHECK, json={"position": START_HPN, "turn": "c3 +d4", "note": marker})
    client.post(CHECK, json={"position": marker, "turn": "c3 +d4"})
    assert len(lines()) == 2
    assert marker not in caplog.text


# --------------------------------------------------------------------------- metrics


def test_metrics_count_requests_verdicts_failed_rules_and_problems(client):
    before = {
        "ok": sample("hexodic_http_requests_total", route=CHECK, method="POST", status="200"),
        "422": sample("hexodic_http_requests_total", route=CHECK, method="POST", status="422"),
        "404": sample("hexodic_http_requests_total", route=observe.UNMATCHED, method="GET", status="404"),
        "legal": sample("hexodic_verdicts_total", verdict="legal"),
        "illegal": sample("hexodic_verdicts_total", verdict="illegal"),
        "opening": sample("hexodic_failed_rules_total", rule="place.opening-restriction"),
        "range": sample("hexodic_failed_rules_total", rule="shape.range"),
        "invalid-body": sample("hexodic_problems_total", type="invalid-body"),
        "not-found": sample("hexodic_problems_total", type="not-found"),
        "latency": sample("hexodic_http_request_duration_seconds_count", route=CHECK),
    }
    for body in (ILLEGAL, ILLEGAL, LEGAL, OUT_OF_RANGE):
        assert client.post(CHECK, json=body).status_code == 200
    assert client.post(CHECK, json={"position": START_HPN}).status_code == 422  # no turn
    assert client.get("/nowhere").status_code == 404
    assert client.post("/v1/check/batch", json={"items": [LEGAL, ILLEGAL, 7]}).status_code == 200
    after = {
        "ok": sample("hexodic_http_requests_total", route=CHECK, method="POST", status="200"),
        "422": sample("hexodic_http_requests_total", route=CHECK, method="POST", status="422"),
        "404": sample("hexodic_http_requests_total", route=observe.UNMATCHED, method="GET", status="404"),
        "legal": sample("hexodic_verdicts_total", verdict="legal"),
        "illegal": sample("hexodic_verdicts_total", verdict="illegal"),
        "opening": sample("hexodic_failed_rules_total", rule="place.opening-restriction"),
        "range": sample("hexodic_failed_rules_total", rule="shape.range"),
        "invalid-body": sample("hexodic_problems_total", type="invalid-body"),
        "not-found": sample("hexodic_problems_total", type="not-found"),
        "latency": sample("hexodic_http_request_duration_seconds_count", route=CHECK),
    }
    assert {k: after[k] - before[k] for k in before} == {
        "ok": 4,
        "422": 1,
        "404": 1,
        "legal": 2,  # LEGAL alone and in the batch
        "illegal": 4,  # ILLEGAL twice, OUT_OF_RANGE, ILLEGAL in the batch
        "opening": 3,
        "range": 1,
        "invalid-body": 2,  # the missing turn, and the batch's item 7 (not an object)
        "not-found": 1,
        "latency": 5,  # every /v1/check request
    }


def test_metrics_are_prometheus_text(client):
    client.post(CHECK, json=ILLEGAL)
    resp = client.get("/metrics", base_url="http://localhost:9100")
    assert resp.status_code == 200 and resp.mimetype == "text/plain"
    families = {f.name: f for f in text_string_to_metric_families(resp.get_data(as_text=True))}
    assert {
        "hexodic_http_requests",
        "hexodic_http_request_duration_seconds",
        "hexodic_verdicts",
        "hexodic_failed_rules",
        "hexodic_problems",
    } <= set(families)
    assert families["hexodic_http_request_duration_seconds"].type == "histogram"
    assert families["hexodic_verdicts"].type == "counter"


def test_metrics_in_openmetrics_when_asked(client):
    resp = client.get(
        "/metrics",
        headers={"Accept": "application/openmetrics-text; version=1.0.0"},
        base_url="http://localhost:9100",
    )
    assert resp.status_code == 200 and resp.mimetype == "application/openmetrics-text"
    assert resp.get_data(as_text=True).rstrip().endswith("# EOF")


def test_unknown_methods_share_one_label(client):
    before = sample("hexodic_http_requests_total", route=observe.UNMATCHED, method="other", status="405")
    assert client.open(CHECK, method="BREW").status_code == 405
    assert client.open(CHECK, method="XYZZY").status_code == 405
    after = sample("hexodic_http_requests_total", route=observe.UNMATCHED, method="other", status="405")
    assert after - before == 2


# --------------------------------------------------------------------------- health and readiness


def test_readyz_answers_when_the_checker_does(client):
    resp = client.get("/readyz")
    assert resp.status_code == 200
    assert resp.get_json() == {"status": "ready", "rules_version": "2026-09-15", "version": PACKAGE_VERSION}


@pytest.mark.parametrize("broken", ["raises", "wrong verdict"])
def test_readyz_is_503_when_the_checker_cannot_answer(monkeypatch, client, broken):
    def check(*args, **kwargs):
        if broken == "raises":
            raise RuntimeError("broken worker")
        return type("V", (), {"legal": False})()

    monkeypatch.setattr(health, "check", check)
    resp = client.get("/readyz", headers={"X-Request-ID": "ready-1"})
    assert resp.status_code == 503 and resp.mimetype == "application/problem+json"
    assert resp.get_json()["type"].endswith(":not-ready")
    assert resp.headers["X-Request-ID"] == "ready-1"
    assert client.get("/healthz").status_code == 200  # alive all the same
