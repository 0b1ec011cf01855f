"""The security headers of the service's HTML pages (the playground at ``/``,
the API page at ``/docs``, the rules reference at ``/rules``, the permalink
pages ``/check`` and ``/game``, and an error page for a browser), decided
here once.

Each page loads its scripts, styles and data from the service itself and
nothing from elsewhere, runs no inline script or style and sends no
referrer.  Who may frame a page: nobody (``frame-ancestors 'none'`` and
``X-Frame-Options: DENY``), except that the pages the website may embed (the
playground and the permalink pages) may be framed by the origins configured
in ``HEXODIC_FRAME_ANCESTORS`` (``frame-ancestors <origins>``, and no
``X-Frame-Options``, which cannot name several origins).

>>> from flask import Flask
>>> app = Flask(__name__)
>>> app.config["FRAME_ANCESTORS"] = ["https://hexodic.com"]
>>> with app.app_context():
...     framed = page(Response("<p>hi</p>"), embeddable=True)
...     docs = page(Response("<p>hi</p>"))
>>> framed.headers["Content-Security-Policy"].split("; ")[-1], "X-Frame-Options" in framed.headers
('frame-ancestors https://hexodic.com', False)
>>> docs.headers["Content-Security-Policy"].split("; ")[-1], docs.headers["X-Frame-Options"]
("frame-ancestors 'none'", 'DENY')
"""

from __future__ import annotations

from typing import TypeVar

from flask import current_app
from werkzeug.wrappers import Response

R = TypeVar("R", bound=Response)


def _csp(scripts: bool, forms: bool, ancestors: str) -> str:
    own = "'self'" if scripts else "'none'"
    form = "'self'" if forms else "'none'"
    return (
        f"default-src 'self'; script-src {own}; style-src 'self'; img-src 'self' data:; "
        f"connect-src {own}; object-src 'none'; base-uri 'none'; form-action {form}; "
        f"frame-ancestors {ancestors}"
    )


def page(resp: R, *, scripts: bool = True, forms: bool = False, embeddable: bool = False) -> R:
    """``resp``, an HTML page, with the page headers.  ``scripts``: it runs
    its own script files (a permalink or error page runs none); ``forms``: it
    has a plain form sent to the service; ``embeddable``: the configured
    origins may frame it."""
    origins = current_app.config.get("FRAME_ANCESTORS") if embeddable else None
    resp.headers["Content-Security-Policy"] = _csp(scripts, forms, " ".join(origins or ["'none'"]))
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["X-Content-Type-Options"] = "nosniff"
    if not origins:
        resp.headers["X-Frame-Options"] = "DENY"
    return resp


def asset(resp: R) -> R:
    """``resp``, a page's script or stylesheet: never sniffed as another type."""
    resp.headers["X-Content-Type-Options"] = "nosniff"
    return resp
