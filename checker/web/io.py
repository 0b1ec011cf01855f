"""The short, one-way data path: request → schema → checker → schema → response."""

from __future__ import annotations

import json

import orjson

from flask import Response, request
from marshmallow import Schema

from checker import RULES_VERSION
from checker.position import Position

from .errors import APIError


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


class _NotJSON(ValueError):
    pass


def _no_constant(name: str):
    raise _NotJSON(f"{name} is not a JSON number (RFC 8259)")


def body() -> dict:
    """The request body as a JSON object: 415 when it is not JSON, 413 when it
    is too large (Flask's MAX_CONTENT_LENGTH), 400 when it does not parse or is
    not an object."""
    if not _is_json(request.mimetype):
        got = request.mimetype or "none"
        raise APIError(415, "unsupported-media-type", "Unsupported Media Type",
                       f"The body must be JSON (Content-Type: application/json); got {got}.")
    raw = request.get_data(cache=False)
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
