"""The interactive API page at ``/docs``: Swagger UI on ``/openapi.yaml``,
working offline.

It serves only the files the page uses: Swagger UI's stylesheet and script
(from the swagger-ui-bundle package) and the page's own start-up script
(``static/docs.js``) and stylesheet (``static/docs.css``: swagger-ui's
colours made AA, in light and dark, and its layout fitted to a phone), both
package data; every other name under ``/docs/assets/``
(swagger-ui's ``index.html``, its Petstore demo initializer,
``oauth2-redirect.html``, source maps) is a 404.  The page has the same
security headers as the playground (:mod:`checker.web.security`).  The
page itself lists the operations, grouped by resource (the OpenAPI tags), so
it reads at once on a phone; its one script (deferred) loads Swagger UI's
stylesheet and bundle below that list by itself on a wide screen, and on a
phone when asked (Lighthouse on a phone: the bundle's parsing was 950 ms of
blocked main thread).  The page links each asset with its version
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
import html

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


TITLE = "Hexodic move-legality checker: the HTTP API"


def _index() -> str:
    """The operations, grouped as openapi.yaml's tags group them, written into the
    page: it reads at once on a phone, before (and without) Swagger UI."""
    from checker.web.openapi import TAGS, build

    doc = build()
    by_tag: dict[str, list[str]] = {name: [] for name, _, _ in TAGS}
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            by_tag[op["tags"][0]].append(
                f"<li><code>{method.upper()} {html.escape(path)}</code> {html.escape(op['summary'])}</li>"
            )
    sections = [
        f'<h3>{html.escape(name)}</h3>\n<p>{html.escape(text)}</p>\n<ul class="operations">\n'
        + "\n".join(by_tag[name])
        + "\n</ul>"
        for name, text, _ in TAGS
        if by_tag[name]
    ]
    return "\n".join(sections)


@functools.cache
def _page() -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{TITLE}</title>
<link rel="icon" href="{favicon.SVG_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="{url("docs.css")}">
<script defer src="{url("docs.js")}" data-swagger-css="{url("swagger-ui.css")}"
        data-swagger-js="{url("swagger-ui-bundle.js")}"></script>
</head>
<body>
<main>
<h1>{TITLE}</h1>
<p><a href="/rules">The rules reference</a> (every rule id and decided reading, in full) ·
<a href="/">The playground</a> · <a href="/openapi.yaml">openapi.yaml</a></p>
<section id="api-index" aria-labelledby="index-heading">
<h2 id="index-heading">Operations</h2>
<p><button type="button" id="open-swagger">Try them: open Swagger UI</button>
(it opens by itself on a wide screen; on a phone it loads when asked)</p>
{_index()}
</section>
<div id="swagger-ui"></div>
</main>
</body>
</html>
"""


@bp.declare(
    "GET",
    "/docs",
    "Interactive API page",
    answer=Content("text/html", {"type": "string"}, "An HTML page."),
    operation_id="getApiPage",
)
def page():
    return security.page(Response(_page(), content_type="text/html; charset=utf-8"))


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
