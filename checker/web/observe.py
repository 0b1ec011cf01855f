"""Watching the service run: request ids, one JSON log line per request, and
the Prometheus metrics that ``GET /metrics`` shows (:mod:`checker.web.health`).

- **Request id.**  Every response carries ``X-Request-ID``: the client's,
  when it sent one of 1 to 128 characters from ``A-Z a-z 0-9 . _ : + / = @ -``,
  else a fresh one (32 hex digits).  Errors included.
- **Log.**  One JSON line per request on the logger
  :data:`checker.web.serving.REQUEST_LOG`: ``time``, ``request_id``, ``method``,
  ``route`` (the URL rule, ``"unmatched"`` when none matched), ``status``,
  ``duration_ms``, ``failed_rules`` (the failed rule ids of its verdicts) and
  ``problems`` (the problem types it answered).  Never the body.
- **Metrics.**  Requests by route, method and status; a latency histogram by
  route; verdicts legal and illegal (``/v1/check`` and each batch item);
  failed rule ids; problems by type (a batch item's included).  Under
  gunicorn, ``PROMETHEUS_MULTIPROC_DIR`` is set (gunicorn.conf.py, before the
  app is imported) and :func:`exposition` sums every worker; without it the
  numbers are this process's.

The Flask side of the pipeline reports what was answered: :func:`answered`
(an operation's answer: its verdicts and its batch items' problems) and
:func:`problem` (a problem answer); the rest happens around every request
(:func:`init_app`).

>>> from checker.web import create_app
>>> resp = create_app({"TESTING": True}).test_client().get("/healthz", headers={"X-Request-ID": "abc-1"})
>>> resp.headers["X-Request-ID"]
'abc-1'
"""

from __future__ import annotations

import datetime
import glob
import logging
import os
import platform
import re
import time
import uuid

import orjson
from flask import Flask, Response, g, has_request_context, request
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import choose_encoder
from prometheus_client.multiprocess import MultiProcessCollector

from checker.service import pipeline
from checker.service.problems import PROBLEM_TYPE
from checker.version import PACKAGE_VERSION, RULES_VERSION
from checker.web import serving, settings
from checker.web.serving import REQUEST_LOG

REQUEST_ID = "X-Request-ID"
_VALID_ID = re.compile(r"[A-Za-z0-9._:+/=@-]{1,128}")
MAX_LOGGED = 200  # characters of a path or a user agent in a log line
UNMATCHED = "unmatched"
"""The route label of a request no URL rule matched (404, 405)."""
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

log = logging.getLogger(REQUEST_LOG)

MULTIPROCESS_DIR = settings.metrics_dir()
"""Where the workers' metric files are, when prometheus_client runs in
multiprocess mode (decided when it is imported, as here)."""

REGISTRY = CollectorRegistry()
"""This process's metrics (what ``/metrics`` shows without multiprocess mode)."""

REQUESTS = Counter(
    "hexodic_http_requests",
    "HTTP requests answered, by route, method and status.",
    ["route", "method", "status"],
    registry=REGISTRY,
)
LATENCY = Histogram(
    "hexodic_http_request_duration_seconds",
    "Time from the request's arrival in the app to its answer, by route.",
    ["route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
VERDICTS = Counter(
    "hexodic_verdicts",
    "Verdicts given (POST /v1/check and each batch item), legal or illegal.",
    ["verdict"],
    registry=REGISTRY,
)
FAILED_RULES = Counter("hexodic_failed_rules", "Failed rule ids in the verdicts given.", ["rule"], registry=REGISTRY)
BUILD_INFO = Gauge(
    "hexodic_build_info",
    "The running build: 1, labelled with the package version, the rules version and Python's.",
    ["version", "rules_version", "python"],
    multiprocess_mode="max",
    registry=REGISTRY,
)
BUILD_INFO.labels(PACKAGE_VERSION, RULES_VERSION, platform.python_version()).set(1)
PROBLEMS = Counter(
    "hexodic_problems", "Problems answered (a whole answer or a batch item), by type.", ["type"], registry=REGISTRY
)


def request_id(sent: str | None) -> str:
    """The id of a request: ``sent`` when it is one of 1 to 128 safe
    characters, else a new one.

    >>> request_id("trace-7f3a")
    'trace-7f3a'
    >>> len(request_id("bad id\\r\\nSet-Cookie: x")), len(request_id("x" * 129)), len(request_id(None))
    (32, 32, 32)
    """
    if sent is not None and _VALID_ID.fullmatch(sent):
        return sent
    return uuid.uuid4().hex


class _Seen:
    """What one request did, gathered while it runs (kept on ``flask.g``)."""

    __slots__ = ("started", "request_id", "verdicts", "problems")

    def __init__(self, sent_id: str | None):
        self.started = time.perf_counter()
        self.request_id = request_id(sent_id)
        self.verdicts: list = []
        self.problems: list[str] = []


def _verdict(seen: _Seen, answer: dict) -> None:
    seen.verdicts.append((answer["legal"], answer["violations"]))


def _problem(seen: _Seen, body: dict) -> None:
    seen.problems.append(body["type"].removeprefix(PROBLEM_TYPE))


def _batch(seen: _Seen, answer: dict) -> None:
    for result in answer["results"]:
        (_verdict if "legal" in result else _problem)(seen, result)


_TELLS = {pipeline.check_request: _verdict, pipeline.batch_request: _batch}
"""The operations whose answers hold verdicts, and how to find them."""


def answered(operation: pipeline.Operation, answer) -> None:
    """``operation`` (of :mod:`checker.service.pipeline`) gave ``answer`` (dumped)."""
    tell = _TELLS.get(operation)
    if tell is not None and has_request_context():
        tell(g.seen, answer)


def problem(body: dict) -> None:
    """The request is answered by the problem object ``body``."""
    if has_request_context() and "seen" in g:
        _problem(g.seen, body)


def _child(metric, *labels):
    """``metric.labels(*labels)``, looked up once per label set (every label
    comes from a closed set, so the cache stays small)."""
    key = (metric, labels)
    child = _CHILDREN.get(key)
    if child is None:
        child = _CHILDREN[key] = metric.labels(*labels)
    return child


_CHILDREN: dict = {}


def _start() -> None:
    g.seen = _Seen(request.headers.get(REQUEST_ID))


def _finish(resp: Response) -> Response:
    seen = g.get("seen")
    if seen is None:  # another before_request hook failed before ours ran
        seen = g.seen = _Seen(request.headers.get(REQUEST_ID))
    seconds = time.perf_counter() - seen.started
    req = request._get_current_object()  # type: ignore[attr-defined]  # the proxied Request, read once
    resp.headers[REQUEST_ID] = seen.request_id
    route = req.url_rule.rule if req.url_rule is not None else UNMATCHED
    method = req.method if req.method in _METHODS else "other"
    status = resp.status_code
    _child(REQUESTS, route, method, str(status)).inc()
    _child(LATENCY, route).observe(seconds)
    failed: list[str] = []
    for legal, violations in seen.verdicts:
        _child(VERDICTS, "legal" if legal else "illegal").inc()
        for rule in violations:
            _child(FAILED_RULES, rule).inc()
            if rule not in failed:
                failed.append(rule)
    for slug in seen.problems:
        _child(PROBLEMS, slug).inc()
    if log.isEnabledFor(logging.INFO):
        _write_line(
            request_id=seen.request_id,
            method=method,
            path=req.path[:MAX_LOGGED],
            route=route,
            status=status,
            bytes=resp.calculate_content_length(),
            duration_ms=round(seconds * 1000, 3),
            client=req.remote_addr,
            user_agent=req.user_agent.string[:MAX_LOGGED],
            failed_rules=failed,
            problems=sorted(set(seen.problems)),
        )
    return resp


LOG_FIELDS = (
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
)
"""The fields of the JSON request line, in order, after its time; what is not
known for a request is null."""


def _write_line(**fields: object) -> None:
    """One JSON request line: the time, then every one of LOG_FIELDS."""
    line: dict[str, object] = {"time": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")}
    line.update((name, fields.get(name)) for name in LOG_FIELDS)
    log.info(orjson.dumps(line).decode())


REFUSED = "refused"
"""The route label of a request the HTTP server refused before the app saw it."""


def server_refusal(status: int, slug: str) -> str:
    """Count and log a request gunicorn refused itself (a request line or
    headers too long, a malformed request): the same counters and the same JSON
    line as an app answer, with what is known (no method, path or client).
    Returns the refusal's new request id, for the answer's X-Request-ID."""
    rid = request_id(None)
    _child(REQUESTS, REFUSED, "other", str(status)).inc()
    _child(PROBLEMS, slug).inc()
    if log.isEnabledFor(logging.INFO):
        _write_line(request_id=rid, route=REFUSED, status=status, failed_rules=[], problems=[slug])
    return rid


def init_app(app: Flask) -> None:
    """Time, count and log every request of ``app``.  Its ``before_request``
    runs first and its ``after_request`` last, whatever else is registered."""
    app.before_request_funcs.setdefault(None, []).insert(0, _start)
    app.after_request_funcs.setdefault(None, []).insert(0, _finish)


class _LockedCollector(MultiProcessCollector):
    """prometheus_client's multiprocess collector, reading every file under the
    metrics directory's shared lock: the master folds a dead worker's files
    into the kept totals under the exclusive one
    (:func:`checker.web.serving.child_exit`), so a scrape counts them once.

    An empty file is left out: a worker that starts counting creates its file
    and only then sizes it, and prometheus_client's reader fails on a file
    with no header yet (a 500 from /metrics, seen once in 346 scrapes through
    reloads and kills)."""

    def collect(self):
        with serving.metrics_lock(self._path, exclusive=False):
            files = [f for f in glob.glob(os.path.join(self._path, "*.db")) if _size(f)]
            return list(self.merge(files, accumulate=True))


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _registry() -> CollectorRegistry:
    if MULTIPROCESS_DIR is None:
        return REGISTRY
    registry = CollectorRegistry()
    _LockedCollector(registry, path=MULTIPROCESS_DIR)
    return registry


def exposition(accept: str | None) -> tuple[bytes, str]:
    """The metrics, summed over every worker, and their content type:
    Prometheus's text format, or OpenMetrics when ``accept`` asks for it
    (prometheus_client's own choice)."""
    encode, content_type = choose_encoder(accept or "")
    return encode(_registry()), content_type
