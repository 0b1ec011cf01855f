"""Every error as ``application/problem+json`` (RFC 9457), handled in one place.

No input produces an HTML page or a stack trace: HTTP errors, schema errors,
notation errors, inconsistent positions and anything unexpected all leave
through :func:`problem`.
"""

from __future__ import annotations

import contextlib
import json
import logging
from http import HTTPStatus

from flask import Flask, Response
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)

PROBLEM_TYPE = "urn:hexodic:checker:problem:"


class APIError(Exception):
    """An error answer: status, a stable type slug, a title, a detail and
    optionally a list of ``{path?, rule?, message}`` items and response headers."""

    def __init__(self, status: int, slug: str, title: str, detail: str, errors: list[dict] | None = None,
                 headers: dict | None = None):
        super().__init__(detail)
        self.status, self.slug, self.title, self.detail, self.errors = status, slug, title, detail, errors
        self.headers = headers or {}


def problem_body(status: int, slug: str, title: str, detail: str, errors: list[dict] | None = None) -> dict:
    """An RFC 9457 problem object."""
    body = {"type": PROBLEM_TYPE + slug, "title": title, "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = errors
    return body


def schema_problem(exc: ValidationError, prefix: str = "") -> dict:
    """The 422 problem object of a schema error; paths start with ``prefix``."""
    errors = flatten(exc.messages, prefix)
    return problem_body(422, "invalid-body", "The body does not match the schema",
                        "; ".join(f"{e['path']}: {e['message'].rstrip('.')}" for e in errors) + ".", errors)


def api_problem(exc: APIError) -> dict:
    return problem_body(exc.status, exc.slug, exc.title, exc.detail, exc.errors)


def problem(status: int, slug: str, title: str, detail: str, errors: list[dict] | None = None,
            headers: dict | None = None) -> Response:
    resp = _json_problem(problem_body(status, slug, title, detail, errors))
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


_SERVER_SLUGS = {400: "bad-request", 403: "forbidden", 414: "request-line-too-long",
                 417: "expectation-failed", 431: "headers-too-large", 501: "unsupported-transfer-coding"}


def server_problem(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP response for a request the HTTP server refused before the
    app saw it (gunicorn's ``util.write_error(sock, status, reason, mesg)``,
    whose own page is HTML): the same problem object as every other error,
    and the connection closed.  The title is the status's own phrase
    (gunicorn calls its 501 "Bad Request")."""
    with contextlib.suppress(ValueError):
        reason = HTTPStatus(status).phrase
    if status >= 500 and status != 501:
        slug, detail = "internal-error", "The server met an unexpected error; it has been logged."
    else:
        slug, detail = _SERVER_SLUGS.get(status, "http-error"), message or reason
    text = json.dumps(problem_body(status, slug, reason, detail)).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(text)}\r\n\r\n")
    return head.encode("latin-1") + text


def flatten(messages, path: str = "") -> list[dict]:
    """marshmallow's nested error messages as ``[{path, message}]``, dotted paths."""
    out: list[dict] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key == "_schema":
                sub = path
            elif key == "value" and path and isinstance(value, (dict, list)):
                sub = path  # a Dict field's value errors
            else:
                sub = f"{path}.{key}" if path else str(key)
            out.extend(flatten(value, sub))
    elif isinstance(messages, list):
        for item in messages:
            out.extend(flatten(item, path))
    else:
        out.append({"path": path or "(body)", "message": str(messages)})
    return out


def _json_problem(body: dict) -> Response:
    # ASCII-escaped: a message may quote the client's input, lone surrogates included.
    return Response(json.dumps(body), status=body["status"], mimetype="application/problem+json")


_SLUGS = {400: "bad-request", 404: "not-found", 405: "method-not-allowed", 413: "body-too-large",
          415: "unsupported-media-type"}


def register(app: Flask) -> None:
    @app.errorhandler(APIError)
    def _api_error(exc: APIError):
        return problem(exc.status, exc.slug, exc.title, exc.detail, exc.errors, exc.headers)

    @app.errorhandler(ValidationError)
    def _schema_error(exc: ValidationError):
        return _json_problem(schema_problem(exc))

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
