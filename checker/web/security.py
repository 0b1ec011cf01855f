"""The security headers of the service's HTML pages (the playground at ``/``,
the API page at ``/docs`` and the rules reference at ``/rules``), decided here
once.

Each page loads its scripts, styles and data from the service itself and
nothing from elsewhere, runs no inline script or style, may not be framed and
sends no referrer.
"""

from __future__ import annotations

from flask import Response

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def page(resp: Response) -> Response:
    """``resp``, an HTML page, with the page headers."""
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["X-Frame-Options"] = "DENY"
    return resp


def asset(resp: Response) -> Response:
    """``resp``, a page's script or stylesheet: never sniffed as another type."""
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp
