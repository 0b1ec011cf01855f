"""The service's icon: ``static/favicon.svg`` (package data), served as it is
at ``/favicon.svg`` (the pages' ``<link rel="icon">``) and as a 32-px PNG at
``/favicon.ico``, the address browsers ask for by themselves (an ICO file may
hold a PNG, and browsers read a PNG served there).  The PNG is drawn from the
SVG once per process by resvg-py, the rasteriser of the board pictures.
Both are public, cached for a day and revalidated by ETag.

>>> from checker.web import create_app
>>> client = create_app({"TESTING": True}).test_client()
>>> ico = client.get("/favicon.ico")
>>> ico.status_code, ico.mimetype, ico.data[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
(200, 'image/png', True)
"""

from __future__ import annotations

import functools

from flask import Response, request
from werkzeug.wrappers import Response as BaseResponse

from checker.drawing.png import rasterise
from checker.web import assets, security
from checker.web.endpoints import Blueprint, Content

bp = Blueprint("favicon", __name__)

SVG_PATH = "/favicon.svg"
PNG_SIZE = 32
MAX_AGE = 86_400


def svg() -> bytes:
    return assets.read("favicon.svg")


@functools.cache
def png() -> bytes:
    return rasterise(svg().decode("utf-8"), PNG_SIZE)


def _cached(body: bytes, content_type: str) -> BaseResponse:
    resp = Response(body, content_type=content_type)
    resp.cache_control.public = True
    resp.cache_control.max_age = MAX_AGE
    resp.add_etag()
    return security.asset(resp.make_conditional(request))


@bp.declare(
    "GET",
    SVG_PATH,
    "The service's icon (SVG)",
    conditional=True,
    answer=Content("image/svg+xml", {"type": "string"}, "The icon as SVG."),
    operation_id="getFaviconSvg",
)
def favicon_svg():
    return _cached(svg(), "image/svg+xml")


@bp.declare(
    "GET",
    "/favicon.ico",
    "The service's icon (PNG, 32 px)",
    conditional=True,
    answer=Content("image/png", {"type": "string", "format": "binary"}, "The icon as a 32-px PNG."),
    operation_id="getFaviconIco",
)
def favicon_ico():
    return _cached(png(), "image/png")
