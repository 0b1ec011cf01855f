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

from dataclasses import dataclass

from flask import render_template, request, url_for
from werkzeug.exceptions import NotFound

from checker import board, rules
from checker.board import Cell
from checker.catalogue import STEP_ECHO, STEP_MOVE, STEP_PLACE, STEP_SHAPE
from checker.drawing import draw
from checker.ending import GameResult
from checker.generate import legal_turns
from checker.legality import Verdict, check, validate
from checker.notation import START_HPN, position_to_hpn, project_to_htn, turn_to_htn
from checker.position import MAX_HALF_MOVES, Position
from checker.replay import replay
from checker.service.pipeline import consistent
from checker.service.problems import SchemaError
from checker.turn import RAISE, Move, Place, Skip, Turn
from checker.version import RULES_VERSION
from checker.web import assets, security
from checker.web.endpoints import JSON, Blueprint, Content, reply
from checker.wording import plural
from schemas.compiled import dumper
from schemas.requests import ViewRequestSchema
from schemas.responses import VerdictSchema, ViewSchema
from schemas.turn import turn_to_json

bp = Blueprint("playground", __name__)

ASSET_PATH = "/static/playground/"
"""Where the page's assets are served (under ``/static``, beside Flask's own)."""

ASSETS = {
    "theme.css": "text/css; charset=utf-8",
    "playground.js": "text/javascript; charset=utf-8",
    "calls.js": "text/javascript; charset=utf-8",
    "board.js": "text/javascript; charset=utf-8",
    "turn.js": "text/javascript; charset=utf-8",
    "game.js": "text/javascript; charset=utf-8",
    "share.js": "text/javascript; charset=utf-8",
    "view.js": "text/javascript; charset=utf-8",
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


# ---------------------------------------------------------------- the view ----

_verdict = dumper(VerdictSchema)


def _relative(url: str) -> str:
    """A link of this app made relative to the playground (the app's root), so the page works behind a
    path prefix: ``game?turns=…``, ``?position=…``, or ``""`` for the playground itself."""
    return url[len(request.script_root) :].lstrip("/")


def _link(endpoint: str, embed: bool, **values) -> str:
    given = {k: v for k, v in values.items() if v is not None} | ({"embed": 1} if embed else {})
    return _relative(url_for(endpoint, **given))


def _part(part: str, **context) -> str:
    return render_template("_view.html", part=part, **context).strip()


@dataclass
class _Shown:
    """What a view shows: the position and its history, the turn, its verdict when judged, and the game."""

    position: Position
    history: list[Position] | None
    turn: Turn | None
    verdict: Verdict | None = None
    game: dict | None = None  # the game's answer part, for a game from the start position
    own: str | None = None  # the game's own turn at ``at`` (HTN), if any
    ended: GameResult | None = None  # how the game stands at its last stop (a replay knows repetitions)
    sheet: str | None = None  # the game's turns separated by ';', for its links


def _game_message(count: int, at: int, last: int) -> str:
    if not count:
        return "A game from the start position: turns played on are added to it."
    where = f"After the last of {count} turns." if at > count else f"Turn {at} of {count}."
    return where + (f" Turn {last} is illegal: the game stops there." if last <= count else "")


def _game_part(rows: list[dict[str, str | int]], at: int, last: int) -> dict:
    return {
        "turns": rows,
        "at": at,
        "last": last,
        "sheet": "\n".join(str(r["htn"]) for r in rows),
        "message": _game_message(len(rows), at, last),
    }


def _of_game(data: dict) -> _Shown:
    """A game from the start position at turn ``at``, as the /game page opens it."""
    turns = data["turns"]
    game = replay(turns)  # from the start: the history is known
    before = [Position.start()] + [v.outcome.position for v in game.verdicts if v.outcome is not None]
    end = len(turns) + 1 if game.legal else None
    last = end or game.checked
    at: int = data["at"] or (game.first_illegal.index + 1 if game.first_illegal else last)
    if at > last:
        where = (
            f"the game has {len(turns)} turns: at is 1 … {end} ({end}: the final position)"
            if game.legal
            else f"turn {at} was not checked: the replay stops at the first illegal turn, turn {last}"
        )
        raise SchemaError({"at": [where[0].upper() + where[1:] + "."]})
    rows: list[dict[str, str | int]] = []
    for k, t in enumerate(turns, 1):
        v = game.verdicts[k - 1] if k <= game.checked else None
        status = "not_checked" if v is None else "legal" if v.legal else "illegal"
        rows.append(
            {"n": k, "htn": turn_to_htn(t) if v is None else v.turn, "mover": "A" if k % 2 else "B", "status": status}
        )
    own = turns[at - 1] if at <= len(turns) else None
    turn = data["turn"] if data["turn"] is not None else own
    shown = _Shown(before[at - 1], before[: at - 1], turn, game=_game_part(rows, at, last))
    htns = [str(r["htn"]) for r in rows]
    shown.own = None if own is None else htns[at - 1]
    shown.sheet = ";".join(htns)
    if at == last:
        shown.ended = game.game
    if data["check"] and turn is not None and turn == own:
        shown.verdict = game.verdicts[at - 1]  # judged with the game's history and its end
    return shown


def _of_position(data: dict) -> _Shown:
    position = data["position"]
    start = position is None or position_to_hpn(position) == START_HPN
    position = Position.start() if position is None else consistent(position, "position")
    history = data["history"]
    if history is None and start:
        history = []  # the start position's history is known: there is none
    shown = _Shown(position, history, data["turn"])
    if start and not history:
        shown.game = _game_part([], 1, 1)  # a game with no turn yet: turns played on make one
    return shown


def _legal(position: Position, turn: Turn | None, src: Cell | None) -> dict:
    """The legal choices the board highlights, and a note on them: where a legal Project lands (a Move
    from ``src``), or with the turn's Project the cells its legal Shapes target."""
    cells: list[Cell] = []

    def add(cell: Cell) -> None:
        if cell not in cells:
            cells.append(cell)

    project = None if turn is None else turn.project
    if project is None:
        every = legal_turns(position)
        chosen = [t for t in every if src is None or (isinstance(t.project, Move) and t.project.src == src)]
        for t in chosen:
            p = t.project
            if isinstance(p, Place):
                add(p.cell)
            elif isinstance(p, Move):
                add(p.dst)
        where = "a legal Project lands" if src is None else f"a legal Move from {board.name(src)} lands"
        names = board.names(cells)
        note = f"{plural(len(every), 'legal turn')}. Highlighted: the {plural(len(cells), 'cell')} where {where}"
        note += f": {', '.join(names)}." if names else "."
        if any(isinstance(t.project, Skip) for t in chosen):
            note += " The Project is skipped this turn (capture cooldown)."
        return {"count": len(every), "cells": names, "note": note}
    begun = legal_turns(position, project)
    shapes: list[str] = []
    optional = False
    for t in begun:
        if t.shape is None:
            optional = True
            continue
        add(t.shape.cell)
        tag = ("+" if t.shape.kind == RAISE else "\u2212") + board.name(t.shape.cell)
        if tag not in shapes:
            shapes.append(tag)
    written = project_to_htn(project, position)
    if not begun:
        note = f"No legal turn begins with {written}."
    else:
        note = (
            f"{plural(len(begun), 'legal turn')} begin{'s' if len(begun) == 1 else ''} with {written}. Highlighted: "
            f"the {plural(len(cells), 'cell')} a legal Shape targets"
            + (f": {', '.join(shapes)}." if shapes else ".")
            + (" The Shape may also be left out." if optional else "")
        )
    return {"count": len(begun), "cells": board.names(cells), "note": note}


def view_of(data: dict) -> dict:
    """The answer of ``POST /v1/render/view`` for a loaded request."""
    shown = _of_game(data) if data["turns"] is not None else _of_position(data)
    position, history, turn = shown.position, shown.history, shown.turn
    if data["check"] and turn is not None and shown.verdict is None:
        shown.verdict = check(position, turn, history, assume_consistent=True)
    status = validate(position)
    ended = shown.ended or status.game
    assert ended is not None  # the position is consistent
    mover = position.mover
    project = "skip" if status.cooldown_skip else "place" if rules.place_reserve(mover) else "move"
    hpn = position_to_hpn(position)
    legal = _legal(position, turn, data["from_"]) if data["legal"] else None
    if legal is not None:
        shows, svg = "highlight", draw(position, None, [board.parse_cell(c) for c in legal["cells"]])
    elif shown.verdict is not None:
        shows, svg = "turn", draw(position, shown.verdict)
    else:
        shows, svg = "plain", draw(position)
    verdict = None if shown.verdict is None else _verdict(shown.verdict)
    checked = None if verdict is None else verdict["turn"]
    embed = data["embed"]
    if shown.game is not None and shown.game["turns"]:
        at = shown.game["at"]
        alt = checked if checked is not None and checked != shown.own else None
        address = _link("playground.index", embed, turns=shown.sheet, at=at, turn=alt)
        permalink = (
            _link("pages.game_page", embed, turns=shown.sheet, at=at)
            if alt is None
            else _link("pages.check_page", embed, position=hpn, turn=checked)
        )
    elif shown.game is not None and checked is None:
        address = _link("playground.index", embed)
        permalink = _link("playground.index", embed, position=hpn)
    else:
        address = _link("playground.index", embed, position=hpn, turn=checked)
        permalink = (
            _link("playground.index", embed, position=hpn)
            if checked is None
            else _link("pages.check_page", embed, position=hpn, turn=checked)
        )
    return {
        "rules_version": RULES_VERSION,
        "position": {
            "hpn": hpn,
            "to_move": position.to_move,
            "reserve": mover.reserve,
            "project": project,
            "steps": {
                "project": STEP_PLACE if rules.place_reserve(mover) else STEP_MOVE,
                "shape": STEP_SHAPE,
                "echo": STEP_ECHO,
            },
            "game_over": ended.over,
            "message": ended.message,
            "status_html": _part(
                "status",
                to_move=position.to_move,
                half_moves=position.half_moves,
                max_half_moves=MAX_HALF_MOVES,
                game_over=ended.over,
                message=ended.message,
                legal_turns=status.legal_turns,
            ),
            "facts_html": _part(
                "facts",
                players={
                    who: p._replace(cooldown=board.names(sorted(p.cooldown)))  # type: ignore[arg-type]
                    for who, p in position.players.items()
                },
                history=None if history is None else len(history),
            ),
        },
        "history": None if history is None else [position_to_hpn(p) for p in history],
        "board": svg,
        "shows": shows,
        "turn": None if turn is None else {"htn": turn_to_htn(turn, position), "turn": turn_to_json(turn)},
        "verdict": verdict,
        "verdict_html": None if verdict is None else _part("verdict", verdict=verdict),
        "legal": legal,
        "game": shown.game,
        "address": address,
        "permalink": permalink,
    }


@bp.declare(
    "POST",
    "/v1/render/view",
    "Draw the playground's view",
    "What the playground at / shows of a position, or of a game from the start position at one of its turns "
    "(replayed with its history, like POST /v1/replay, in one request): the board as SVG, the position in "
    "words, the turn read back in canonical HTN, with `check` its verdict (as JSON and as the HTML of the "
    "/check page's template, so the page draws no verdict of its own), with `legal` the legal choices "
    "highlighted, the game's turns, and the links of the view. A text that does not read (a score sheet, a "
    "turn, a position) is a 422 naming the field, the line and the column.",
    request=ViewRequestSchema,
    answer=Content(JSON, ViewSchema, "The view."),
    operation_id="renderView",
)
def render_view(data: dict):
    return reply(view_of(data))
