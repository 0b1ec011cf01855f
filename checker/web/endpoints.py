"""Every endpoint declared once, and the Flask side of the request pipeline.

An endpoint's route, request schema, answer (media type, schema,
description), summary and description are one :class:`Endpoint`, made by one
call on the endpoint's :class:`Blueprint`: :meth:`Blueprint.serve` for an
operation of :mod:`checker.service.pipeline` (its request and response schemas
are the operation's), ``@bp.declare(...)`` on a view of its own.  The blueprints
keep their declarations in order, and :mod:`checker.web.openapi` builds the
document from them: flask-smorest's idea, without its runtime cost (the
declarations are read once, to write the document).

:func:`body` reads a request's JSON body (415 when it is not JSON; the limits
of :func:`raw_body`: 413, 400 for a cut body, 408 for a late one) and hands
it to :func:`checker.service.pipeline.parse_json`; :func:`reply` writes a JSON
answer.  An endpoint declared ``expensive`` runs under the work budget
(:func:`checker.service.budget.admitted`, ``EXPENSIVE_LIMIT`` at once in a worker).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from dataclasses import dataclass

import flask
import gevent
from flask import Response
from gevent import monkey
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from checker.service import budget
from checker.service.pipeline import Operation, encode, parse_json, read
from checker.service.problems import QueryError, RequestError
from checker.web import observe

JSON = "application/json"


def _is_json(mimetype: str) -> bool:
    return mimetype == JSON or (mimetype.startswith("application/") and mimetype.endswith("+json"))


class _BodyTimeout(Exception):
    pass


def _deadline(seconds: float):
    """Interrupts a body read still blocked after ``seconds``.  Under
    gunicorn's gevent worker (the one gunicorn.conf.py ships) sockets are
    gevent's, so a gevent.Timeout stops a read waiting on a slow client
    wherever it is; a sync worker has no such hook (gunicorn's worker timeout
    bounds it instead)."""
    if monkey.is_module_patched("socket"):
        return gevent.Timeout(seconds, _BodyTimeout)
    return contextlib.nullcontext()


def raw_body() -> bytes:
    """The request body as the contract reads it: 413 when it is larger than
    ``MAX_CONTENT_LENGTH`` (announced by Content-Length, or found while
    reading a chunked body), 400 when it ends before its Content-Length, 408
    when it has not arrived within ``BODY_TIMEOUT`` seconds.

    It is read from ``wsgi.input`` directly: gunicorn ends that stream at the
    end of the body (``wsgi.input_terminated``), and reading one byte past the
    limit tells a chunked body over it from one just at it."""
    request, config = flask.request, flask.current_app.config
    limit = config["MAX_CONTENT_LENGTH"]
    length = request.content_length
    if length is not None and length > limit:
        raise RequestEntityTooLarge()
    if length is None and not request.environ.get("wsgi.input_terminated"):
        return b""  # no length and no end of stream: the body is empty (PEP 3333)
    want = limit + 1 if length is None else length
    seconds = config["BODY_TIMEOUT"]
    try:
        with _deadline(seconds):
            data = request.environ["wsgi.input"].read(want)
    except _BodyTimeout:
        raise RequestError(
            408, "body-timeout", "Request Timeout", f"The request body did not arrive within {seconds} seconds."
        ) from None
    except Exception as exc:  # the server's reader refused the framing (a bad chunk size, a cut chunk)
        raise RequestError(
            400, "unreadable-body", "Unreadable body", f"The request body could not be read: {type(exc).__name__}."
        ) from None
    if len(data) > limit:
        raise RequestEntityTooLarge()
    if length is not None and len(data) < length:
        raise RequestError(
            400,
            "incomplete-body",
            "Incomplete body",
            f"The body ended after {len(data)} of the {length} bytes its Content-Length announced.",
        )
    return data


def body() -> dict:
    """The request body as a JSON object: 415 when it is not JSON, the errors
    of :func:`raw_body`, 400 when it does not parse or is not an object."""
    if not _is_json(flask.request.mimetype):
        got = flask.request.mimetype or "none"
        raise RequestError(
            415,
            "unsupported-media-type",
            "Unsupported Media Type",
            f"The body must be JSON (Content-Type: application/json); got {got}.",
        )
    return parse_json(raw_body())


def load_query(schema: Schema) -> dict:
    """The request's query string loaded by ``schema`` (a repeated
    parameter's first value); a :class:`~checker.service.problems.QueryError`
    (422) naming each parameter that does not translate."""
    try:
        return schema.load(flask.request.args.to_dict())
    except ValidationError as exc:
        messages = exc.messages if isinstance(exc.messages, dict) else {"_schema": exc.messages}
        raise QueryError({**messages, **_plus_hints(messages)}) from None


# The parameters that hold HTN, where '+' raises a cell: URL decoding reads a literal '+' as a space.
_HTN_PARAMETERS = ("turn", "turns")
PLUS_HINT = "A '+' in a link's query is read as a space: write it as %2B (turn=c3%20%2Bd4)."


def _plus_hints(messages: dict) -> dict:
    """For each HTN parameter that did not read while the raw query holds a
    literal '+': its messages with :data:`PLUS_HINT` after them."""
    if b"+" not in flask.request.query_string:
        return {}
    return {
        name: [*(messages[name] if isinstance(messages[name], list) else [messages[name]]), PLUS_HINT]
        for name in _HTN_PARAMETERS
        if name in messages
    }


def reply(data, status: int = 200) -> Response:
    """A JSON answer (written by :func:`checker.service.pipeline.encode`)."""
    return reply_text(encode(data), status)


def reply_text(text: bytes, status: int = 200) -> Response:
    """A JSON answer already written as JSON text."""
    return Response(text, status=status, mimetype=JSON)


def revalidated(body: bytes, content_type: str, etag: str | None = None) -> BaseResponse:
    """A page or an asset the browser revalidates each time (``no-cache`` and an
    ETag, ``etag`` or the body's hash; a 304 when its copy is current)."""
    resp = Response(body, content_type=content_type)
    resp.headers["Cache-Control"] = "no-cache"
    if etag is None:
        resp.add_etag()
    else:
        resp.set_etag(etag)
    return resp.make_conditional(flask.request)


@dataclass(frozen=True)
class Content:
    """A successful answer as the document describes it: the media type, the
    schema (a response Schema class, or a JSON Schema object that may hold
    Schema classes) and a description."""

    media: str
    schema: type[Schema] | dict
    description: str
    headers: dict | None = None  # the answer's headers the document describes: name -> description


@dataclass(frozen=True)
class Endpoint:
    """One endpoint: method and full path, summary and description, the JSON
    request body's schema (None: no body), the successful answer, whether
    it is expensive (under the work budget: it may answer 503), the
    problems of its own it may answer, ``(status, description)`` pairs
    (beyond those of any JSON body), the query string's schema (None: no
    query; a query that does not translate is a 422), whether a
    conditional GET may answer 304, and the operation's ``operation_id``: the
    stable name generated clients call it by (``checkTurn``; the view's name in
    camelCase when the declaration gives none).  docs/clients.md lists them."""

    method: str
    path: str
    summary: str
    description: str
    request: type[Schema] | None
    answer: Content
    expensive: bool | str = False  # under the work budget: True, or "costed" when the view admits itself by its cost
    problems: tuple[tuple[str, str], ...] = ()
    query: type[Schema] | None = None
    conditional: bool = False
    operation_id: str = ""


def camel_case(name: str) -> str:
    """A view's name as an operationId: ``render_svg_url`` → ``renderSvgUrl``."""
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)


def _under_budget(view: Callable) -> Callable:
    """``view`` run only when the work budget admits it, within its deadline
    (:func:`checker.service.budget.admitted`)."""

    @functools.wraps(view)
    def served(*args, **kwargs):
        config = flask.current_app.config
        with budget.admitted(config["EXPENSIVE_LIMIT"], deadline=config["WORK_DEADLINE"]):
            return view(*args, **kwargs)

    return served


class Blueprint(flask.Blueprint):
    """A Flask blueprint whose routes are declared with their description
    (``endpoints``, in declaration order)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.endpoints: list[Endpoint] = []

    def _add(
        self,
        method: str,
        rule: str,
        view: Callable,
        summary: str,
        description: str | None,
        request: type[Schema] | None,
        answer: Content,
        expensive: bool | str,
        problems: dict[str, str] | None = None,
        query: type[Schema] | None = None,
        conditional: bool = False,
        operation_id: str | None = None,
    ) -> None:
        self.endpoints.append(
            Endpoint(
                method,
                (self.url_prefix or "") + rule,
                summary,
                description or summary,
                request,
                answer,
                expensive,
                tuple((problems or {}).items()),
                query,
                conditional,
                operation_id or camel_case(view.__name__),
            )
        )
        wrapped = _under_budget(view) if expensive is True else view  # a "costed" view calls budget.admitted itself
        self.add_url_rule(rule, view_func=wrapped, methods=[method])

    def serve(
        self,
        method: str,
        rule: str,
        operation: Operation,
        summary: str,
        description: str | None = None,
        *,
        ok: str | None = None,
        expensive: bool = False,
        operation_id: str | None = None,
    ) -> None:
        """Serve ``operation`` at ``rule``: the JSON body (when it takes one)
        loaded and answered, the answer written as JSON.  ``ok`` describes the
        answer (default: the summary); an ``expensive`` one runs under the
        work budget; ``operation_id`` names it for generated clients."""
        schema = {"type": "array", "items": operation.response} if operation.many else operation.response

        if operation.request is None:

            def view():
                return reply(operation())
        elif operation.writer is not None:

            def view():
                return reply_text(operation.text(body()))
        else:

            def view():
                answer = operation(body())
                observe.answered(operation, answer)
                return reply(answer)

        view.__name__ = rule.strip("/").replace("/", "_").replace("-", "_")
        self._add(
            method,
            rule,
            view,
            summary,
            description,
            operation.request,
            Content(JSON, schema, ok or summary),
            expensive,
            operation_id=operation_id,
        )

    def declare(
        self,
        method: str,
        rule: str,
        summary: str,
        description: str | None = None,
        *,
        answer: Content,
        request: type[Schema] | None = None,
        expensive: bool | str = False,
        problems: dict[str, str] | None = None,
        query: type[Schema] | None = None,
        conditional: bool = False,
        operation_id: str | None = None,
    ) -> Callable:
        """Declare the view below at ``rule``.  With a ``request`` schema the
        view is called with the loaded JSON body, with a ``query`` schema with
        the loaded query string; an ``expensive`` one runs under the work
        budget; ``problems`` are the problem answers of its own (status:
        description); a ``conditional`` one may answer 304 to a conditional GET;
        ``operation_id`` names it for generated clients (default: the view's
        name in camelCase)."""

        def decorator(view: Callable) -> Callable:
            if request is None and query is None:
                served = view
            elif request is not None:
                schema = request()

                @functools.wraps(view)
                def served():
                    return view(read(schema, body()))
            else:
                assert query is not None
                schema = query()

                @functools.wraps(view)
                def served():
                    return view(load_query(schema))

            self._add(
                method,
                rule,
                served,
                summary,
                description,
                request,
                answer,
                expensive,
                problems,
                query,
                conditional,
                operation_id or camel_case(view.__name__),
            )
            return view

        return decorator
