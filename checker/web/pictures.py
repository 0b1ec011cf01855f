"""Pictures by URL: ``GET /v1/render.svg`` and ``GET /v1/render.png``.

The same drawing as ``POST /v1/render``, as a link a forum or a chat can
embed.  The answer is a pure function of the query and the versions (rules,
package and, for PNG, the rasteriser), so it carries a strong ``ETag`` made
from exactly those, a conditional GET answers 304 without drawing, and a
CDN may keep it for a day.

>>> from checker.web import create_app
>>> from checker.notation import START_HPN
>>> client = create_app({"TESTING": True}).test_client()
>>> r = client.get("/v1/render.png?position=" + START_HPN.replace(" ", "+") + "&size=200")
>>> r.status_code, r.mimetype, r.headers["Cache-Control"]
(200, 'image/png', 'public, max-age=86400, immutable')
>>> client.get(r.request.full_path, headers={"If-None-Match": r.headers["ETag"]}).status_code
304
"""

from __future__ import annotations

import hashlib

from flask import Response, current_app, request

from checker import board
from checker.drawing import draw
from checker.drawing.png import DEFAULT_WIDTH, RASTERISER
from checker.legality import check
from checker.notation import position_to_hpn, turn_to_htn
from checker.service import budget
from checker.service.pipeline import consistent
from checker.version import PACKAGE_VERSION, RULES_VERSION
from checker.web.endpoints import Blueprint, Content
from schemas.queries import RenderQuerySchema

bp = Blueprint("pictures", __name__, url_prefix="/v1")

CACHE_CONTROL = "public, max-age=86400, immutable"
"""Pictures never change for a URL while the versions stay: a CDN may keep them a day."""


def picture_etag(data: dict, kind: str) -> str:
    """The picture's identity: a hash of the canonical query (the position in
    canonical HPN, the turn in canonical HTN, the highlighted cells in board
    order, and the PNG's width) and the versions that draw it."""
    parts = [
        kind,
        position_to_hpn(data["position"]),
        "" if data["turn"] is None else turn_to_htn(data["turn"]),
        ",".join(board.names(data["highlight"])),
        RULES_VERSION,
        PACKAGE_VERSION,
    ]
    if kind == "png":
        parts += [str(data["size"]), RASTERISER]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:32]


def png_cost(size: int) -> int:
    """A PNG's cost in the work budget's units: its drawing time grows with its
    area, about 0.1 s at the default 800 px and 0.3 s at 1,600 (make bench,
    pictures), so 1 unit up to 800 px and 2 above."""
    return 1 if size <= DEFAULT_WIDTH else 2


def _drawing(data: dict, width: int | None) -> str | bytes:
    position, turn = data["position"], data["turn"]
    verdict = None if turn is None else check(position, turn, assume_consistent=True)
    return draw(position, verdict, data["highlight"], width=width)


def _picture(data: dict, kind: str, mimetype: str) -> Response:
    consistent(data["position"], "position")
    etag = picture_etag(data, kind)
    if request.if_none_match.contains_weak(etag):
        resp = Response(status=304)
    elif kind == "png":  # an expensive request, costed by its size before it is drawn
        config = current_app.config
        with budget.admitted(config["EXPENSIVE_LIMIT"], png_cost(data["size"]), config["WORK_DEADLINE"]):
            resp = Response(_drawing(data, data["size"]), mimetype=mimetype)
    else:
        resp = Response(_drawing(data, None), mimetype=mimetype)
        resp.headers["Content-Disposition"] = f'inline; filename="hexodic-board.{kind}"'
    resp.set_etag(etag)
    resp.headers["Cache-Control"] = CACHE_CONTROL
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return resp


_HEADERS = {"ETag": "A strong ETag: the hash of the canonical query and the versions.", "Cache-Control": CACHE_CONTROL}
_ABOUT = (
    "The picture of POST /v1/render as a link a forum or a chat can embed. A pure function of the query "
    "and the versions: a strong ETag, a conditional GET answers 304, and a CDN may keep it a day."
)


@bp.declare(
    "GET",
    "/render.svg",
    "The board as SVG by URL",
    _ABOUT + " `size` is for the PNG; the SVG scales.",
    query=RenderQuerySchema,
    conditional=True,
    answer=Content("image/svg+xml", {"type": "string"}, "The board as SVG, 400 px wide.", _HEADERS),
    operation_id="renderSvgByUrl",
)
def render_svg_url(data: dict):
    return _picture(data, "svg", "image/svg+xml")


@bp.declare(
    "GET",
    "/render.png",
    "The board as PNG by URL",
    _ABOUT,
    query=RenderQuerySchema,
    conditional=True,
    expensive="costed",  # admitted by its size in _picture, after the 304 check
    answer=Content("image/png", {"type": "string", "format": "binary"}, "The board as PNG, `size` px wide.", _HEADERS),
    operation_id="renderPngByUrl",
)
def render_png_url(data: dict):
    return _picture(data, "png", "image/png")
