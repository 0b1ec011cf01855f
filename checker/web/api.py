"""The ``/v1`` blueprint: checking turns, listing legal turns, validating
positions, pictures, the rule catalogue and the start position.

Each endpoint is one declaration (route, summary, description; the request
and answer schemas are its operation's, :mod:`checker.service.pipeline`).  Batches
and legal-turn lists are ``expensive``: under the work budget
(:mod:`checker.service.budget`)."""

from __future__ import annotations

from flask import Response

from checker.counting import BUDGET
from checker.drawing import draw
from checker.legality import check
from checker.service import pipeline
from checker.service.pipeline import consistent
from checker.web.endpoints import Blueprint, Content
from schemas.requests import MAX_BATCH, MAX_REPLAY, RenderRequestSchema

bp = Blueprint("v1", __name__, url_prefix="/v1")

bp.serve(
    "POST",
    "/check",
    pipeline.check_request,
    "Check one turn",
    "Judge a turn played from a position: legal or illegal, every rule that concerns the turn in turn order, "
    "and for a legal turn the outcome (position, events, capture weighing, end of game).",
    operation_id="checkTurn",
)

bp.serve(
    "POST",
    "/check/batch",
    pipeline.batch_request,
    "Check many turns",
    f"Each item is judged independently, in order, like POST /v1/check: the answer holds a Verdict, or a "
    f"Problem for a malformed item, per item. At most {MAX_BATCH} items.",
    expensive=True,
    operation_id="checkBatch",
)

bp.serve(
    "POST",
    "/replay",
    pipeline.replay_request,
    "Replay a game",
    "Each turn checked and applied in order from `start` (default: the start position), the history kept, "
    "so repetition and threefold are judged; stops at the first illegal turn with its full verdict and "
    f"reports the game's end if it ends. At most {MAX_REPLAY} turns.",
    operation_id="replayGame",
)


@bp.declare(
    "POST",
    "/render",
    "Draw the board",
    "An SVG picture of the position: the 37 cells shaded by tier, stones, locks, cell names and "
    "highlighted cells; with `turn`, the verdict drawn on it.",
    request=RenderRequestSchema,
    answer=Content("image/svg+xml", {"type": "string"}, "The board as SVG."),
    operation_id="renderBoard",
)
def render_board(data: dict):
    position = consistent(data["position"], "position")
    turn = data["turn"]
    verdict = None if turn is None else check(position, turn, data["history"], assume_consistent=True)
    svg = draw(position, verdict, data["highlight"])
    return Response(svg, mimetype="image/svg+xml")


bp.serve(
    "POST",
    "/legal-turns",
    pipeline.legal_turns_request,
    "List the legal turns",
    "Every legal turn of the position, in the documented order (Projects in board order; no Shape first when "
    "it may be left out, then Shapes by cell, raise before lower; no Echo first, then Echo-Captures, then "
    "Echo-Locks), or only those beginning with the given Project (and Shape).",
    expensive=True,
    operation_id="listLegalTurns",
)

bp.serve(
    "POST",
    "/validate",
    pipeline.validate_request,
    "Validate a position",
    "Every position.* consistency condition (D-3), and for a consistent position its status.",
    operation_id="validatePosition",
)

bp.serve(
    "GET",
    "/rules",
    pipeline.rule_catalogue,
    "The rule catalogue",
    "Every entry of the rules reference (the page at /rules), each with its full text: the rule ids "
    "(kind rule), the capture kinds (capture), the end-of-game reasons (end) and the decided readings D-n "
    "(decision).",
    ok="Every entry with its kind, step, title, full text, more link, rule_url and source.",
    operation_id="listRules",
)

bp.serve(
    "GET",
    "/start",
    pipeline.start_position,
    "The start position",
    ok="The start position.",
    operation_id="getStartPosition",
)

bp.serve(
    "POST",
    "/perft",
    pipeline.perft_request,
    "Count legal turn sequences (perft)",
    "The number of legal turn sequences of `depth` turns from the position (a turn that ends the game ends "
    "its sequence; no history is carried, so no repetition or threefold), and with `divide` each legal "
    f"turn's own count. The work is limited to expanding at most {BUDGET:,} positions: depth 2 from any "
    "position fits; over the budget a 422 names `depth` and gives the budget (and, when the count was refused "
    "before counting, its estimate: a count estimated at more than four times the budget is refused at once). "
    "An expensive request: it runs under the worker's cap and lets other requests run while it counts. "
    "docs/perft.md publishes a table of counts.",
    expensive=True,
    operation_id="countPerft",
)
