"""Is it up, can it answer, and how is it doing: ``GET /healthz``,
``GET /readyz`` and ``GET /metrics``.

- ``/healthz`` (liveness): the process answers HTTP; it names the rules
  version and the application version (the installed package's).
- ``/readyz`` (readiness): this worker can answer checks: it checks a known
  turn (A's ``c3 +d4`` from the start position, legal: RULES §4, c3 is one
  step from the centre and d4 one step from c3, Tier 0 raised to Tier 1) and
  answers 200 when the verdict is that, else a 503 problem.
- ``/metrics``: the counts of :mod:`checker.web.observe`, summed over every
  worker.

>>> from checker.web import create_app
>>> client = create_app({"TESTING": True}).test_client()
>>> client.get("/readyz").get_json()["status"]
'ready'
"""

from __future__ import annotations

import logging

from flask import Response, current_app, request
from werkzeug.exceptions import NotFound

from checker.legality import check
from checker.notation import parse_htn
from checker.position import Position
from checker.service.problems import RequestError
from checker.version import PACKAGE_VERSION, RULES_VERSION
from checker.web import observe, serving
from checker.web.endpoints import JSON, Blueprint, Content, reply
from schemas.responses import HealthSchema, ReadySchema

log = logging.getLogger(__name__)

bp = Blueprint("health", __name__)


_PROBE = (Position.start(), parse_htn("c3 +d4"))


def _answers_checks() -> bool:
    try:
        return check(*_PROBE, assume_consistent=True).legal
    except Exception:  # the checker is broken in this worker; the probe says so
        log.exception("readiness check failed")
        return False


@bp.declare(
    "GET",
    "/healthz",
    "Health",
    "Liveness: the service answers HTTP; with the rules and application versions.",
    answer=Content(JSON, HealthSchema, "The service is up."),
    operation_id="getHealth",
)
def healthz():
    return reply({"status": "ok", "rules_version": RULES_VERSION, "version": PACKAGE_VERSION})


@bp.declare(
    "GET",
    "/readyz",
    "Readiness",
    "Readiness: this worker can answer checks (it checks a known turn); a 503 problem when it cannot.",
    answer=Content(JSON, ReadySchema, "This worker answers checks."),
    problems={
        "503": "This worker cannot answer checks (the probe check failed), or the server is draining before it stops."
    },
    operation_id="getReadiness",
)
def readyz():
    if serving.draining():
        raise RequestError(
            503, "draining", "Draining", "This server is stopping: it answers what it gets, but send no more."
        )
    if not _answers_checks():
        raise RequestError(503, "not-ready", "Not ready", "This worker cannot answer checks: the probe check failed.")
    return reply({"status": "ready", "rules_version": RULES_VERSION, "version": PACKAGE_VERSION})


@bp.declare(
    "GET",
    "/metrics",
    "Metrics",
    answer=Content(
        "text/plain",
        {"type": "string"},
        "Prometheus metrics, summed over every worker: hexodic_http_requests_total{route, method, status}, "
        "hexodic_http_request_duration_seconds{route} (a histogram), hexodic_verdicts_total{verdict}, "
        "hexodic_failed_rules_total{rule} and hexodic_problems_total{type}. Prometheus text format, or "
        "OpenMetrics when asked for by Accept; and hexodic_build_info{version, rules_version, python}. Served only "
        "on HEXODIC_METRICS_PORT (default 9100), a 404 on the public port.",
    ),
    problems={"404": "Asked for on the public port: the metrics are served on HEXODIC_METRICS_PORT only."},
    operation_id="getMetrics",
)
def metrics():
    port = current_app.config.get("METRICS_PORT")
    if port is not None and request.environ.get("SERVER_PORT") != str(port):
        raise NotFound()  # the metrics are for the scraper on their own port, not for the public one
    body, content_type = observe.exposition(request.headers.get("Accept"))
    return Response(body, content_type=content_type, headers={"Cache-Control": "no-store"})
