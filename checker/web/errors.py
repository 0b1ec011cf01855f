"""Every error answer, handled in one place: ``application/problem+json``
(RFC 9457) for an API client, a readable HTML page for a browser.

No input produces a stack trace: HTTP errors, the request pipeline's
:class:`~checker.service.problems.RequestError` (bad JSON, schema, query and
notation errors, inconsistent positions, a late or cut body, the work
budget's 503 with its ``Retry-After``) and anything unexpected all leave
through :func:`answer`, which decides by the ``Accept`` header: a client that
prefers ``text/html`` to JSON (a browser following a bad link) gets the page,
naming each field and what was wrong, with a link back; every other client
(no ``Accept``, ``*/*``, JSON) gets the problem object.  What gunicorn refuses before the app sees a request is
answered by :func:`server_problem` (gunicorn.conf.py installs it).
"""

from __future__ import annotations

import contextlib
import json
import logging
from http import HTTPStatus

from flask import Flask, Response, render_template, request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from checker.service.problems import RequestError, problem_body
from checker.web import observe, security

log = logging.getLogger(__name__)


def problem(
    status: int, slug: str, title: str, detail: str, errors: list[dict] | None = None, headers: dict | None = None
) -> BaseResponse:
    """A problem answer (an HTTP error's), with extra ``headers``."""
    return answer(problem_body(status, slug, title, detail, errors), headers)


_OFFERED = ("application/problem+json", "application/json", "text/html")


def wants_html() -> bool:
    """The client prefers ``text/html`` to JSON (ties go to JSON)."""
    return request.accept_mimetypes.best_match(_OFFERED) == "text/html"


# The links whose query the playground reads (position, turn, turns, at): an
# error page for one of them links back to the playground with the same query.
_PLAYGROUND_QUERIES = ("/check", "/game", "/v1/render.svg", "/v1/render.png")


def answer(body: dict, headers: dict | None = None) -> BaseResponse:
    """The error answer of a problem object, in the form the client prefers,
    with extra ``headers``."""
    if not wants_html():
        return _json_problem(body, headers)
    observe.problem(body)
    query = request.query_string.decode("latin-1")
    back = request.script_root + ("/?" + query if request.path in _PLAYGROUND_QUERIES and query else "/")
    page = render_template("error.html", problem=body, back=back, title=body["title"])
    resp = Response(page, status=body["status"], mimetype="text/html", headers=headers)
    return security.page(resp, scripts=False, embeddable=True)


def _json_problem(body: dict, headers: dict | None = None) -> Response:
    observe.problem(body)
    # ASCII-escaped: a message may quote the client's input, lone surrogates included.
    return Response(json.dumps(body), status=body["status"], mimetype="application/problem+json", headers=headers)


_SERVER_SLUGS = {
    400: "bad-request",
    403: "forbidden",
    414: "request-line-too-long",
    417: "expectation-failed",
    431: "headers-too-large",
    501: "unsupported-transfer-coding",
}


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
    rid = observe.server_refusal(status, slug)
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
        f"X-Content-Type-Options: nosniff\r\n{observe.REQUEST_ID}: {rid}\r\n"
        f"Content-Length: {len(text)}\r\n\r\n"
    )
    return head.encode("latin-1") + text


_SLUGS = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "body-too-large",
    415: "unsupported-media-type",
}


def register(app: Flask) -> None:
    @app.errorhandler(RequestError)
    def _request_error(exc: RequestError):
        return answer(exc.problem(), exc.headers)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        status = exc.code or 500
        headers = {}
        allowed = getattr(exc, "valid_methods", None)
        if status == 405 and allowed:
            headers["Allow"] = ", ".join(allowed)
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
        return problem(
            500, "internal-error", "Internal Server Error", "The checker met an unexpected error; it has been logged."
        )
