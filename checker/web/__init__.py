"""The HTTP service: Flask application factory, blueprints, CORS, errors.

The rules live in :mod:`checker`; this subpackage only carries requests to
them and answers back (request → schema → checker → schema → response):

- :mod:`~checker.web.pipeline`  each endpoint's work without Flask (also used by the CLI and bench/)
- :mod:`~checker.web.problems`  why a request cannot be answered, as values
- :mod:`~checker.web.budget`    the work budget without Flask: batches yield, a cap on expensive requests
- :mod:`~checker.web.endpoints` the endpoint declarations; the body in, the answer out
- :mod:`~checker.web.api`, :mod:`~checker.web.meta`, :mod:`~checker.web.health`, :mod:`~checker.web.docs`,
  :mod:`~checker.web.favicon`, :mod:`~checker.web.playground`, :mod:`~checker.web.rules_page`,
  :mod:`~checker.web.pictures`, :mod:`~checker.web.pages`  the endpoints, declared with their views
- :mod:`~checker.web.observe`   request ids, the JSON request log, metrics
- :mod:`~checker.web.compression` gzip for large answers, in one place
- :mod:`~checker.web.openapi`   the OpenAPI document, built from the declarations

>>> app = create_app({"TESTING": True})
>>> app.test_client().get("/healthz").get_json()["status"]
'ok'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from checker import RULES_VERSION

if TYPE_CHECKING:
    from flask import Flask


def create_app(settings: dict | None = None) -> Flask:
    """Build the app.  ``settings`` override the environment's (see
    :func:`checker.web.config.from_env`)."""
    # Imported here, as in Flask's tutorial: importing the Flask-free modules of
    # this package (the request pipeline the command line uses) loads no Flask.
    from flask import Flask
    from werkzeug.middleware.proxy_fix import ProxyFix

    from . import compression, config, errors, observe

    app = Flask(__name__, static_folder=None)  # assets are served by their blueprints
    app.config.update(config.from_env())
    app.config.update(settings or {})
    app.json.sort_keys = False
    observe.init_app(app)
    for bp in blueprints():
        app.register_blueprint(bp)
    errors.register(app)
    if app.config["PROXIES"]:
        # absolute links (og:image) from the proxies' X-Forwarded-Proto/Host, only when configured
        n = app.config["PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=0, x_proto=n, x_host=n)
    _cors(app)
    compression.init_app(app)   # last registered, so it runs first: the hooks above see what is sent
    return app


def blueprints() -> list:
    """The service's blueprints, in the order the app registers them and the
    OpenAPI document lists their endpoints."""
    from . import api, docs, favicon, health, meta, pages, pictures, playground, rules_page

    return [api.bp, meta.bp, health.bp, docs.bp, favicon.bp, playground.bp, rules_page.bp, pictures.bp, pages.bp]


def _cors(app: Flask) -> None:
    """Browser access from the allowed origins (``HEXODIC_CORS_ORIGINS``), no
    credentials."""
    from flask import request

    from .observe import REQUEST_ID

    allowed = app.config["CORS_ORIGINS"]

    @app.after_request
    def _headers(resp):
        resp.headers.setdefault("Hexodic-Rules-Version", RULES_VERSION)
        origin = request.headers.get("Origin")
        if not origin:
            return resp
        if "*" in allowed:
            resp.headers["Access-Control-Allow-Origin"] = "*"
        elif origin in allowed:
            resp.headers["Access-Control-Allow-Origin"] = origin
            resp.headers.add("Vary", "Origin")
        else:
            return resp
        resp.headers["Access-Control-Expose-Headers"] = f"Hexodic-Rules-Version, {REQUEST_ID}"
        if request.method == "OPTIONS":
            resp.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
            resp.headers["Access-Control-Allow-Headers"] = f"Content-Type, {REQUEST_ID}"
            resp.headers["Access-Control-Max-Age"] = "600"
        return resp
