"""The rules reference as one HTML page at ``/rules``.

The page is :func:`checker.reference.html_page`: the checker's own text of
every rule id, capture kind, end-of-game reason and decided reading, each
with its anchor (``/rules#place.cooldown``, ``/rules#D-10``), written once
and sent with the playground's security headers (:mod:`checker.web.security`).
It needs no script.

>>> from checker.web import create_app
>>> page = create_app({"TESTING": True}).test_client().get("/rules")
>>> page.status_code, page.mimetype, b'id="D-10"' in page.data
(200, 'text/html', True)
"""

from __future__ import annotations

import functools

from checker.catalogue import REFERENCE_PATH
from checker.reference import html_page
from checker.web import assets, security
from checker.web.endpoints import Blueprint, Content, revalidated

bp = Blueprint("rules", __name__)

STYLESHEET = "/static/rules/rules.css"
THEME = "/static/playground/theme.css"
"""The palette every page shares (light and dark), linked before the page's own stylesheet."""


@functools.lru_cache(maxsize=1)
def _page() -> bytes:
    return html_page((THEME, STYLESHEET)).encode("utf-8")


@bp.declare(
    "GET",
    REFERENCE_PATH,
    "The rules reference",
    answer=Content(
        "text/html",
        {"type": "string"},
        "The rules reference as one HTML page, with an anchor for every rule id, capture kind, end-of-game "
        "reason and decided reading (/rules#place.cooldown, /rules#D-10); the same texts as GET /v1/rules.",
    ),
    operation_id="getRulesPage",
)
def rules():
    return security.page(revalidated(_page(), "text/html; charset=utf-8"))


@bp.get(STYLESHEET)
def stylesheet():
    return assets.send("rules.css", "text/css; charset=utf-8")
