"""The interactive API page at ``/docs``: Swagger UI on ``/openapi.yaml``,
working offline.

It serves only the files the page uses: Swagger UI's stylesheet and script
(from the swagger-ui-bundle package) and the page's own start-up script
(``static/docs.js``) and stylesheet (``static/docs.css``: swagger-ui's
colours made AA, in light and dark, and its layout fitted to a phone), both
package data; every other name under ``/docs/assets/``
(swagger-ui's ``index.html``, its Petstore demo initializer,
``oauth2-redirect.html``, source maps) is a 404.  The page has the same
security headers as the playground (:mod:`checker.web.security`).  Its
scripts are deferred (the page paints before Swagger UI is parsed), in the
order they are listed.  The page links each asset with its version
(``?v=`` and its content's hash), answered as immutable for a year; any
other request of an asset is cached for an hour and revalidated.

>>> from checker.web import create_app
>>> client = create_app({"TESTING": True}).test_client()
>>> [client.get("/docs/assets/" + name).status_code for name in ("swagger-ui.css", "oauth2-redirect.html")]
[200, 404]
"""

from __future__ import annotations

import functools
import hashlib

from flask import Response, request
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import NotFound

from checker.web import assets, favicon, security
from checker.web.endpoints import Blueprint, Content

bp = Blueprint("docs", __name__)

ASSET_PATH = "/docs/assets/"

ASSETS = {
    "swagger-ui.css": (swagger_ui_path, "text/css; charset=utf-8"),
    "swagger-ui-bundle.js": (swagger_ui_path, "text/javascript; charset=utf-8"),
    "docs.js": (assets.STATIC, "text/javascript; charset=utf-8"),
    "docs.css": (assets.STATIC, "text/css; charset=utf-8"),
}
"""The files the page loads: name -> (folder, content type)."""

REVALIDATED_AGE = 3600
IMMUTABLE_AGE = 31_536_000


@functools.cache
def _content(name: str) -> bytes:
    folder, _ = ASSETS[name]
    return folder.joinpath(name).read_bytes()


@functools.cache
def version(name: str) -> str:
    """The asset's version: the start of its content's SHA-256."""
    return hashlib.sha256(_content(name)).hexdigest()[:16]


def url(name: str) -> str:
    """The page's link to an asset, versioned (``?v=``): that URL's content never changes."""
    return f"{ASSET_PATH}{name}?v={version(name)}"


_PAGE = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Hexodic move-legality checker: the HTTP API</title>
<link rel="icon" href="{favicon.SVG_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="{url("swagger-ui.css")}">
<link rel="stylesheet" href="{url("docs.css")}">
<script defer src="{url("swagger-ui-bundle.js")}"></script>
<script defer src="{url("docs.js")}"></script>
</head>
<body>
<main>
<h1>Hexodic move-legality checker: the HTTP API</h1>
<p><a href="/rules">The rules reference</a> (every rule id and decided reading, in full) ·
<a href="/">The playground</a></p>
<div id="swagger-ui"></div>
</main>
</body>
</html>
"""


@bp.declare("GET", "/docs", "Interactive API page", answer=Content("text/html", {"type": "string"}, "An HTML page."))
def page():
    return security.page(Response(_PAGE, content_type="text/html; charset=utf-8"))


@bp.get(ASSET_PATH + "<name>")
def asset(name: str):
    if name not in ASSETS:
        raise NotFound()
    resp = Response(_content(name), content_type=ASSETS[name][1])
    resp.cache_control.public = True
    if request.args.get("v") == version(name):  # the page's versioned link: cached for good
        resp.cache_control.max_age = IMMUTABLE_AGE
        resp.cache_control.immutable = True
    else:
        resp.cache_control.max_age = REVALIDATED_AGE
    resp.set_etag(version(name))
    return security.asset(resp.make_conditional(request))
