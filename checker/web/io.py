"""The short, one-way data path: request → schema → checker → schema → response."""

from __future__ import annotations

import contextlib
import json

import gevent
import orjson
from flask import Response, current_app, request
from gevent import monkey
from marshmallow import Schema
from werkzeug.exceptions import RequestEntityTooLarge

from checker import RULES_VERSION
from checker.position import Position

from .errors import APIError


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


class _NotJSON(ValueError):
    pass


def _no_constant(name: str):
    raise _NotJSON(f"{name} is not a JSON number (RFC 8259)")


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
    MAX_CONTENT_LENGTH (announced by Content-Length, or found while reading a
    chunked body), 400 when it ends before its Content-Length, 408 when it
    has not arrived within BODY_TIMEOUT seconds.

    It is read from ``wsgi.input`` directly: gunicorn ends that stream at the
    end of the body (``wsgi.input_terminated``), and reading one byte past the
    limit tells a chunked body over it from one just at it."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    length = request.content_length
    if length is not None and length > limit:
        raise RequestEntityTooLarge()
    if length is None and not request.environ.get("wsgi.input_terminated"):
        return b""      # no length and no end of stream: the body is empty (PEP 3333)
    want = limit + 1 if length is None else length
    seconds = current_app.config["BODY_TIMEOUT"]
    try:
        with _deadline(seconds):
            data = request.environ["wsgi.input"].read(want)
    except _BodyTimeout:
        raise APIError(408, "body-timeout", "Request Timeout",
                       f"The request body did not arrive within {seconds} seconds.") from None
    except Exception as exc:    # the server's reader refused the framing (a bad chunk size, a cut chunk)
        raise APIError(400, "unreadable-body", "Unreadable body",
                       f"The request body could not be read: {type(exc).__name__}.") from None
    if len(data) > limit:
        raise RequestEntityTooLarge()
    if length is not None and len(data) < length:
        raise APIError(400, "incomplete-body", "Incomplete body",
                       f"The body ended after {len(data)} of the {length} bytes its Content-Length announced.")
    return data


def body() -> dict:
    """The request body as a JSON object: 415 when it is not JSON, the errors
    of :func:`raw_body`, 400 when it does not parse or is not an object."""
    if not _is_json(request.mimetype):
        got = request.mimetype or "none"
        raise APIError(415, "unsupported-media-type", "Unsupported Media Type",
                       f"The body must be JSON (Content-Type: application/json); got {got}.")
    raw = raw_body()
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise APIError(400, "invalid-json", "Invalid JSON", "The body is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        raise APIError(400, "invalid-json", "Invalid JSON",
                       f"The body is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.") from None
    except _NotJSON as exc:
        raise APIError(400, "invalid-json", "Invalid JSON", f"The body is not valid JSON: {exc}.") from None
    except (ValueError, RecursionError):
        raise APIError(400, "invalid-json", "Invalid JSON",
                       "The body is not valid JSON (a number too long or nesting too deep).") from None
    if not isinstance(data, dict):
        raise APIError(400, "not-an-object", "Invalid JSON",
                       f"The body must be a JSON object, not {type(data).__name__ if data is not None else 'null'}.")
    return data


def load(schema: Schema) -> dict:
    """The body loaded by ``schema``; a schema error becomes a 422 (see errors.py)."""
    return schema.load(body())


def consistent(position: Position, path: str) -> Position:
    """``position`` when it is consistent (D-3); otherwise a 422 listing every
    broken ``position.*`` condition."""
    problems = position.problems()
    if problems:
        raise APIError(422, "inconsistent-position", "The position is not consistent",
                       f"{path}: " + " ".join(p.message for p in problems),
                       [{"path": path, "rule": p.rule, "message": p.message} for p in problems])
    return position


def reply(data, status: int = 200) -> Response:
    """A JSON response.  orjson writes it (a verdict in a few µs, where the
    standard library takes ten times longer); text it cannot encode (a lone
    surrogate quoted back from the client's input) falls back to ASCII-escaped
    ``json.dumps``."""
    try:
        text = orjson.dumps(data)
    except (orjson.JSONEncodeError, TypeError):
        text = json.dumps(data, separators=(",", ":"))
    return Response(text, status=status, mimetype="application/json",
                    headers={"Hexodic-Rules-Version": RULES_VERSION})
