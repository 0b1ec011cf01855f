"""Permalink pages: ``GET /check`` (a verdict) and ``GET /game`` (a replay).

Server-rendered HTML (Jinja2 templates in ``templates/``, autoescaped) that
works with scripts off: the board drawn inline as SVG, the summary, the
checklist, the text of every failed rule with a link to the rules
reference, and Open Graph / Twitter-card tags whose image is the matching
absolute ``render.png`` URL, so a link pasted in a forum or a chat unfolds
into the picture and the verdict.  ``embed=1`` drops the header and footer
for a page framed by an allowed origin (see :mod:`checker.web.security`).

The data path is the API's: query → schema → checker → schema (the same
dicts as the JSON answers) → template.

>>> from checker.web import create_app
>>> client = create_app({"TESTING": True}).test_client()
>>> page = client.get("/game?turns=c3 %2Bd4;e5 %2Bd4;e5 %2Bd5")
>>> page.status_code, 'data-status="failed"' in page.get_data(as_text=True)
(200, True)
"""

from __future__ import annotations

from flask import Response, current_app, render_template, request, url_for
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as BaseResponse

from checker.catalogue import RULES
from checker.drawing import draw
from checker.drawing.png import DEFAULT_WIDTH
from checker.legality import check
from checker.notation import position_to_hpn, turn_to_htn
from checker.position import Position
from checker.replay import replay
from checker.service.pipeline import consistent
from checker.service.problems import QueryError
from checker.version import PACKAGE_VERSION, RULES_VERSION
from checker.web import security
from checker.web.endpoints import Blueprint, Content
from schemas.compiled import dumper
from schemas.queries import CheckPageQuerySchema, GamePageQuerySchema
from schemas.responses import ReplaySchema, VerdictSchema

bp = Blueprint("pages", __name__)

_verdict = dumper(VerdictSchema)
_replay = dumper(ReplaySchema)

STATUS = {
    "passed": ("\u2713", "passed"),
    "failed": ("\u2717", "failed"),
    "not_applicable": ("\u2013", "not applicable"),
}
"""How a check's status is shown: a symbol and a word (never colour alone)."""

PAGE_CACHE_CONTROL = "public, max-age=3600"
"""A page whose links come from HEXODIC_PUBLIC_URL: any cache may keep it an hour."""
PRIVATE_CACHE_CONTROL = "private, max-age=3600"
"""A page whose absolute links follow the request's host: only the browser may keep it."""


def absolute(endpoint: str, **values) -> str:
    """An absolute link: HEXODIC_PUBLIC_URL and the path when it is set (no
    request header changes it), else the request's own host."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public + url_for(endpoint, **values)
    return url_for(endpoint, **values, _external=True)


def rules_link(rule_id: str) -> str:
    """Where the rules reference explains ``rule_id`` (``/rules#<id>``)."""
    return url_for("rules.rules", _anchor=rule_id)


def rule_id(rule: str) -> Markup:
    """A rule id as HTML that a line may break only after a dot, never inside
    a word or at a hyphen (``echo-lock.`` / ``tier``): its parts are kept whole
    (pages.css: ``.rule-id span``) with a break opportunity after each dot."""
    parts = rule.split(".")
    pieces = [escape(part + ("." if i < len(parts) - 1 else "")) for i, part in enumerate(parts)]
    return Markup('<code class="rule-id">' + "<wbr>".join(f"<span>{p}</span>" for p in pieces) + "</code>")


@bp.app_context_processor
def _helpers() -> dict:
    return {
        "STATUS": STATUS,
        "RULES": RULES,
        "rules_link": rules_link,
        "rule_id": rule_id,
        "RULES_VERSION": RULES_VERSION,
        "PACKAGE_VERSION": PACKAGE_VERSION,
    }


def _picture(position: Position, turn, **extra) -> dict:
    """The absolute ``render.png`` URL of a board (with a turn's verdict) and
    the links of the same picture."""
    query = {"position": position_to_hpn(position)}
    if turn is not None:
        query["turn"] = turn_to_htn(turn)
    return {
        "png": absolute("pictures.render_png_url", **query),
        "svg": absolute("pictures.render_svg_url", **query),
        "width": DEFAULT_WIDTH,
    }


def _page(template: str, **context) -> BaseResponse:
    resp = Response(render_template(template, **context), mimetype="text/html")
    resp.headers["Cache-Control"] = (
        PAGE_CACHE_CONTROL if current_app.config.get("PUBLIC_URL") else PRIVATE_CACHE_CONTROL
    )
    resp.add_etag()
    return security.page(resp.make_conditional(request), scripts=False, forms=True, embeddable=True)


def _embed_args(embed: bool) -> dict:
    return {"embed": 1} if embed else {}


_HTML = "text/html"


@bp.declare(
    "GET",
    "/check",
    "A verdict permalink",
    "An HTML page that works without scripts: the board with the verdict drawn, the summary, the checklist, "
    "the text of every failed rule with a link to /rules, and Open Graph and Twitter-card tags whose image "
    "is the matching absolute render.png URL.",
    query=CheckPageQuerySchema,
    answer=Content(_HTML, {"type": "string"}, "An HTML page."),
    operation_id="getCheckPage",
)
def check_page(data: dict):
    position = consistent(data["position"], "position")
    turn, embed = data["turn"], data["embed"]
    judged = check(position, turn)  # from a bare position the history is not known
    verdict = _verdict(judged)
    hpn, htn = position_to_hpn(position), verdict["turn"]
    return _page(
        "check.html",
        embed=embed,
        verdict=verdict,
        hpn=hpn,
        board=draw(position, judged),
        picture=_picture(position, turn),
        url=absolute("pages.check_page", position=hpn, turn=htn),
        playground=url_for("playground.index", position=hpn, turn=htn),
        title=f"{'Legal' if verdict['legal'] else 'Illegal'}: {htn} by {verdict['mover']}",
    )


@bp.declare(
    "GET",
    "/game",
    "A game permalink",
    "An HTML page replaying the game from the start position, the history kept (so repetition and "
    "threefold are judged): each turn legal or illegal with a link, the board at the chosen turn, the "
    "first illegal turn's full verdict and the game's end. Same Open Graph tags as /check.",
    query=GamePageQuerySchema,
    answer=Content(_HTML, {"type": "string"}, "An HTML page."),
    operation_id="getGamePage",
)
def game_page(data: dict):
    turns, embed = data["turns"], data["embed"]
    game = replay(turns)  # from the start: the history is known
    before = [Position.start()] + [v.outcome.position for v in game.verdicts if v.outcome is not None]
    end = len(turns) + 1 if game.legal else None  # "at" of the final position
    last = end or game.checked
    at: int = data["at"] or (game.first_illegal.index + 1 if game.first_illegal else last)
    if at > last:
        where = (
            f"the game has {len(turns)} turns: at is 1 … {end} ({end}: the final position)"
            if game.legal
            else f"turn {at} was not checked: the replay stops at the first illegal turn, turn {last}"
        )
        raise QueryError({"at": [where[0].upper() + where[1:] + "."]})
    htns = [turn_to_htn(t) for t in turns]
    sheet = ";".join(htns)

    def link(k: int) -> str:
        return url_for("pages.game_page", turns=sheet, at=k, **_embed_args(embed))

    rows = []
    for k, htn in enumerate(htns, 1):
        v = game.verdicts[k - 1] if k <= game.checked else None
        status = None if v is None else "passed" if v.legal else "failed"
        rows.append({"n": k, "turn": htn, "mover": "A" if k % 2 else "B", "status": status, "href": link(k)})
    if at == end:
        position, turn, chosen = game.final, None, None
        board = draw(position)
    else:
        position, turn = before[at - 1], turns[at - 1]
        chosen = _verdict(game.verdicts[at - 1])
        board = draw(position, game.verdicts[at - 1])  # judged with the game's history
    summary = _replay(game)
    first = summary["first_illegal"]
    return _page(
        "game.html",
        embed=embed,
        rows=rows,
        at=at,
        end=end,
        last=last,
        chosen=chosen,
        first=first,
        result=summary,
        board=board,
        hpn=position_to_hpn(position),
        final=position_to_hpn(game.final),
        picture=_picture(position, turn),
        nav={
            "first": link(1),
            "prev": link(at - 1) if at > 1 else None,
            "next": link(at + 1) if at < last else None,
            "last": link(last),
            "end": link(end) if end else None,
        },
        url=absolute("pages.game_page", turns=sheet, at=at),
        playground=url_for("playground.index", turns=sheet, at=at),
        title=_game_title(len(turns), game, at, end),
    )


def _game_title(count: int, game, at: int, end: int | None) -> str:
    """The game page's title, a sentence: "Game: 24 legal turns, turn 25 illegal
    (place.empty)", and where the page opens when that is not the default (the
    first illegal turn, or the final position)."""
    first = game.first_illegal
    legal = count if first is None else first.index
    title = f"Game: {legal} legal turn{'s' if legal != 1 else ''}"
    if first is not None:
        title += f", turn {first.index + 1} illegal ({', '.join(first.verdict.violations)})"
    default = end if first is None else first.index + 1
    if at != default:
        title += f"; shown at {'the final position' if at == end else f'turn {at}'}"
    return title
