"""The playground: a small page at ``/`` that uses the service's own API.

The page (``static/index.html``, ``static/playground.js``,
``static/playground.css``, shipped as package data) draws the board with
``POST /v1/render``, builds a turn by clicking cells, checks it with
``POST /v1/check`` and shows the verdict as a checklist.  Plain HTML, CSS and
JavaScript: no build step, no external asset, so it works offline.

>>> from checker.web import create_app
>>> client = create_app({"TESTING": True}).test_client()
>>> page = client.get("/")
>>> page.status_code, page.mimetype
(200, 'text/html')
>>> client.get("/static/playground/playground.css").mimetype
'text/css'
"""

from __future__ import annotations

from werkzeug.exceptions import NotFound

from checker.web import assets, security
from checker.web.endpoints import Blueprint, Content

bp = Blueprint("playground", __name__)

ASSET_PATH = "/static/playground/"
"""Where the page's assets are served (under ``/static``, beside Flask's own)."""

ASSETS = {
    "theme.css": "text/css; charset=utf-8",
    "playground.js": "text/javascript; charset=utf-8",
    "playground.css": "text/css; charset=utf-8",
    "pages.css": "text/css; charset=utf-8",
    "noscript.css": "text/css; charset=utf-8",
}
"""The assets the pages load (the palette shared by every page, light and
dark; the playground; the permalink and error pages
of :mod:`checker.web.pages`; what the playground hides without JavaScript), each with
its content type."""


@bp.declare(
    "GET",
    "/",
    "Playground",
    answer=Content(
        "text/html",
        {"type": "string"},
        "The playground: an HTML page that builds a turn on the board and checks it with this API.",
    ),
    operation_id="getPlayground",
)
def index():
    # the page loads nothing from elsewhere and runs only its own script file
    # forms: the form that reaches /check without JavaScript (<noscript>)
    return security.page(assets.send("index.html", "text/html; charset=utf-8"), forms=True, embeddable=True)


@bp.get(ASSET_PATH + "<name>")
def asset(name: str):
    mimetype = ASSETS.get(name)
    if mimetype is None:
        raise NotFound()
    return assets.send(name, mimetype)
