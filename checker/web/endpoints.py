"""Every endpoint declared once, and the Flask side of the request pipeline.

An endpoint's route, request schema, answer (media type, schema,
description), summary and description are one :class:`Endpoint`, made by one
call on the endpoint's :class:`Blueprint`: :meth:`Blueprint.serve` for an
operation of :mod:`checker.web.pipeline` (its request and response schemas
are the operation's), ``@bp.declare(...)`` on a view of its own.  The blueprints
keep their declarations in order, and :mod:`checker.web.openapi` builds the
document from them: flask-smorest's idea, without its runtime cost (the
declarations are read once, to write the document).

:func:`body` reads a request's JSON body (415 when it is not JSON; Flask's
``MAX_CONTENT_LENGTH`` makes it 413 when too large) and hands it to
:func:`checker.web.pipeline.parse_json`; :func:`reply` writes a JSON answer.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import flask
from flask import Response
from marshmallow import Schema

from checker import RULES_VERSION

from . import observe
from .pipeline import Operation, encode, load, parse_json
from .problems import RequestError

JSON = "application/json"


def _is_json(mimetype: str) -> bool:
    return mimetype == JSON or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def body() -> dict:
    """The request body as a JSON object: 415 when it is not JSON, 413 when it
    is too large, 400 when it does not parse or is not an object."""
    if not _is_json(flask.request.mimetype):
        got = flask.request.mimetype or "none"
        raise RequestError(415, "unsupported-media-type", "Unsupported Media Type",
                           f"The body must be JSON (Content-Type: application/json); got {got}.")
    return parse_json(flask.request.get_data(cache=False))


def reply(data, status: int = 200) -> Response:
    """A JSON answer (written by :func:`checker.web.pipeline.encode`)."""
    return Response(encode(data), status=status, mimetype=JSON, headers={"Hexodic-Rules-Version": RULES_VERSION})


@dataclass(frozen=True)
class Content:
    """A successful answer as the document describes it: the media type, the
    schema (a response Schema class, or a JSON Schema object that may hold
    Schema classes) and a description."""

    media: str
    schema: type[Schema] | dict
    description: str


@dataclass(frozen=True)
class Endpoint:
    """One endpoint: method and full path, summary and description, the JSON
    request body's schema (None: no body) and the successful answer."""

    method: str
    path: str
    summary: str
    description: str
    request: type[Schema] | None
    answer: Content


class Blueprint(flask.Blueprint):
    """A Flask blueprint whose routes are declared with their description
    (``endpoints``, in declaration order)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.endpoints: list[Endpoint] = []

    def _add(self, method: str, rule: str, view: Callable, summary: str, description: str | None,
             request: type[Schema] | None, answer: Content) -> None:
        self.endpoints.append(Endpoint(method, (self.url_prefix or "") + rule, summary, description or summary,
                                       request, answer))
        self.add_url_rule(rule, view_func=view, methods=[method])

    def serve(self, method: str, rule: str, operation: Operation, summary: str, description: str | None = None,
              *, ok: str | None = None) -> None:
        """Serve ``operation`` at ``rule``: the JSON body (when it takes one)
        loaded and answered, the answer written as JSON.  ``ok`` describes the
        answer (default: the summary)."""
        schema = {"type": "array", "items": operation.response} if operation.many else operation.response

        if operation.request is None:
            def view():
                return reply(operation())
        else:
            def view():
                answer = operation(body())
                observe.answered(operation, answer)
                return reply(answer)
        view.__name__ = rule.strip("/").replace("/", "_").replace("-", "_")
        self._add(method, rule, view, summary, description, operation.request, Content(JSON, schema, ok or summary))

    def declare(self, method: str, rule: str, summary: str, description: str | None = None, *,
                answer: Content, request: type[Schema] | None = None) -> Callable:
        """Declare the view below at ``rule``.  With a ``request`` schema the
        view is called with the loaded JSON body."""
        def decorator(view: Callable) -> Callable:
            if request is None:
                served = view
            else:
                schema = request()

                @functools.wraps(view)
                def served():
                    return view(load(schema, body()))
            self._add(method, rule, served, summary, description, request, answer)
            return view
        return decorator
