"""Between Flask and the request pipeline: the body in, the answer out.

:func:`body` reads a request's JSON body (415 when it is not JSON; Flask's
``MAX_CONTENT_LENGTH`` makes it 413 when too large) and hands it to
:func:`checker.web.pipeline.parse_json`; :func:`reply` writes an answer.
"""

from __future__ import annotations

from flask import Response, request

from checker import RULES_VERSION

from .pipeline import encode, parse_json
from .problems import RequestError


def _is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def body() -> dict:
    """The request body as a JSON object: 415 when it is not JSON, 413 when it
    is too large, 400 when it does not parse or is not an object."""
    if not _is_json(request.mimetype):
        got = request.mimetype or "none"
        raise RequestError(415, "unsupported-media-type", "Unsupported Media Type",
                           f"The body must be JSON (Content-Type: application/json); got {got}.")
    return parse_json(request.get_data(cache=False))


def reply(data, status: int = 200) -> Response:
    """A JSON answer (written by :func:`checker.web.pipeline.encode`)."""
    return Response(encode(data), status=status, mimetype="application/json",
                    headers={"Hexodic-Rules-Version": RULES_VERSION})
