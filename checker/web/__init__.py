"""The HTTP service: Flask only.  The app factory, the blueprints and their
views, errors, observability and the gunicorn hooks.  The work itself is the
request handling of :mod:`checker.service` (request → schema → checker →
schema → response); this package carries HTTP to it and back.

- :mod:`checker.web.settings`    every setting from the environment, read and checked once
- :mod:`checker.web.serving`     what gunicorn.conf.py needs: usable CPUs, the metrics directory, hooks
- :mod:`checker.web.wsgi`        the WSGI entry point gunicorn serves
- :mod:`checker.web.worker`      the gunicorn worker: gevent's, reading what it answered early and answering
  its listen queue before it stops
- :mod:`checker.web.endpoints`   the endpoint declarations; the body in, the answer out
- :mod:`checker.web.api`, :mod:`checker.web.meta`, :mod:`checker.web.health`, :mod:`checker.web.docs`,
  :mod:`checker.web.favicon`, :mod:`checker.web.playground`, :mod:`checker.web.rules_page`,
  :mod:`checker.web.pictures`, :mod:`checker.web.pages`  the endpoints, declared with their views
- :mod:`checker.web.errors`      every error as problem+json (or a page for a browser), in one place
- :mod:`checker.web.headers`     the headers every answer carries (the rules version)
- :mod:`checker.web.hosts`       the ``Host`` (and trusted ``X-Forwarded-Host``) checked: a host, or a 400
- :mod:`checker.web.security`    the security headers of pages and assets
- :mod:`checker.web.assets`      the static files, read and sent in one way
- :mod:`checker.web.observe`     request ids, the JSON request log, metrics
- :mod:`checker.web.compression` gzip for large answers, in one place (a Flask hook, so it is here, not
  in :mod:`checker.service`)
- :mod:`checker.web.openapi`     the OpenAPI document, built from the declarations
- :mod:`checker.web.request_schemas` the request bodies' JSON Schemas from that document
  (``checker/data/requests.schema.json``, the MCP server's input schemas)

May import: everything below it (the rules engine, :mod:`checker.drawing`,
:mod:`checker.service`, :mod:`checker.tools` for the vectors it serves, :mod:`schemas`).

>>> app = create_app({"TESTING": True})
>>> app.test_client().get("/healthz").get_json()["status"]
'ok'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def create_app(config: dict | None = None) -> Flask:
    """Build the app.  ``config`` overrides the environment's settings (see
    :func:`checker.web.settings.from_env`)."""
    # Imported here: gunicorn.conf.py imports this package's Flask-free modules
    # (settings, serving) before the app, and prometheus_client must come after them.
    from flask import Flask
    from flask.json.provider import DefaultJSONProvider
    from werkzeug.middleware.proxy_fix import ProxyFix

    from checker.web import compression, errors, headers, hosts, observe, settings

    app = Flask(__name__, static_folder=None)  # assets are served by their blueprints
    app.config.update(settings.from_env())
    app.config.update(config or {})
    if isinstance(app.json, DefaultJSONProvider):
        app.json.sort_keys = False
    observe.init_app(app)
    hosts.init_app(app)  # before any view: a request naming no valid host is answered 400
    for bp in blueprints():
        app.register_blueprint(bp)
    errors.register(app)
    if app.config["PROXIES"]:
        # the client's address (logged) and scheme from the proxies' X-Forwarded-*, only when configured
        n = app.config["PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)  # type: ignore[method-assign]
    _cors(app)
    headers.init_app(app)
    compression.init_app(app)  # last registered, so it runs first: the hooks above see what is sent
    return app


def blueprints() -> list:
    """The service's blueprints, in the order the app registers them and the
    OpenAPI document lists their endpoints."""
    from checker.web import (
        api,
        docs,
        favicon,
        health,
        meta,
        pages,
        pictures,
        playground,
        rules_page,
    )

    return [api.bp, meta.bp, health.bp, docs.bp, favicon.bp, playground.bp, rules_page.bp, pictures.bp, pages.bp]


def _cors(app: Flask) -> None:
    """Browser access from the allowed origins (``HEXODIC_CORS_ORIGINS``), no
    credentials."""
    from flask import request

    from checker.web.headers import RULES_VERSION_HEADER
    from checker.web.observe import REQUEST_ID

    allowed = app.config["CORS_ORIGINS"]

    @app.after_request
    def _headers(resp):
        origin = request.headers.get("Origin")
        if not origin or request.path == "/metrics":  # the metrics are for the scraper, not for pages
            return resp
        if "*" in allowed:
            resp.headers["Access-Control-Allow-Origin"] = "*"
        elif origin in allowed:
            resp.headers["Access-Control-Allow-Origin"] = origin
            resp.headers.add("Vary", "Origin")
        else:
            return resp
        resp.headers["Access-Control-Expose-Headers"] = f"{RULES_VERSION_HEADER}, {REQUEST_ID}"
        if request.method == "OPTIONS":
            resp.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
            resp.headers["Access-Control-Allow-Headers"] = f"Content-Type, {REQUEST_ID}"
            resp.headers["Access-Control-Max-Age"] = "600"
        return resp
