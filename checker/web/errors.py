"""Every error as ``application/problem+json`` (RFC 9457), handled in one place.

No input produces an HTML page or a stack trace: HTTP errors, the request
pipeline's :class:`~checker.web.problems.RequestError` (bad JSON, schema and
notation errors, inconsistent positions) and anything unexpected all leave
as a problem object.
"""

from __future__ import annotations

import json
import logging

from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from . import observe
from .problems import RequestError, problem_body

log = logging.getLogger(__name__)


def problem(status: int, slug: str, title: str, detail: str, errors: list[dict] | None = None,
            headers: dict | None = None) -> Response:
    """A problem answer (an HTTP error's), with extra ``headers``."""
    resp = _json_problem(problem_body(status, slug, title, detail, errors))
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def _json_problem(body: dict) -> Response:
    observe.problem(body)
    # ASCII-escaped: a message may quote the client's input, lone surrogates included.
    return Response(json.dumps(body), status=body["status"], mimetype="application/problem+json")


_SLUGS = {400: "bad-request", 404: "not-found", 405: "method-not-allowed", 413: "body-too-large",
          415: "unsupported-media-type"}


def register(app: Flask) -> None:
    @app.errorhandler(RequestError)
    def _request_error(exc: RequestError):
        return _json_problem(exc.problem())

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        status = exc.code or 500
        headers = {}
        if status == 405 and getattr(exc, "valid_methods", None):
            headers["Allow"] = ", ".join(exc.valid_methods)
        detail = exc.description or exc.name
        if status == 413:
            limit = app.config.get("MAX_CONTENT_LENGTH")
            detail = f"The request body is larger than the limit of {limit} bytes."
        elif status == 404:
            detail = "No such path. See /openapi.yaml or /docs for the endpoints."
        return problem(status, _SLUGS.get(status, "http-error"), exc.name, detail, headers=headers)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):  # pragma: no cover - a bug; logged, never shown
        log.exception("unexpected error")
        return problem(500, "internal-error", "Internal Server Error",
                       "The checker met an unexpected error; it has been logged.")
