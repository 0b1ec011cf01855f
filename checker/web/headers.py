"""The headers every answer of the service carries, named and set here only.

- ``Hexodic-Rules-Version``: the rules edition the answer was judged by
  (:data:`checker.version.RULES_VERSION`), on every answer the app makes.
- ``X-Content-Type-Options: nosniff``: on every answer, so no browser reads
  one as another type than it says.
"""

from __future__ import annotations

from flask import Flask, Response

from checker.version import RULES_VERSION

RULES_VERSION_HEADER = "Hexodic-Rules-Version"


def init_app(app: Flask) -> None:
    @app.after_request
    def _rules_version(resp: Response) -> Response:
        resp.headers[RULES_VERSION_HEADER] = RULES_VERSION
        resp.headers["X-Content-Type-Options"] = "nosniff"
        return resp
