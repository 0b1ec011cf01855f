"""``hexodic-check check POSITION TURN``: one turn checked, its verdict explained."""

from __future__ import annotations

from checker.service.pipeline import check_request
from checker.tools.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    POSITION_HELP,
    TURN_HELP,
    Reader,
    history_arg,
    labeller,
    position_arg,
    show,
    show_json,
    turn_arg,
    verdict_lines,
    worded,
)


def add_to(sub) -> None:
    c = sub.add_parser(
        "check",
        help="check one turn and explain the verdict",
        description="Check one turn: the verdict's summary, then one line per rule "
        "(✓ passed, ✗ failed, – not applicable).",
    )
    c.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    c.add_argument("turn", metavar="TURN", help=TURN_HELP)
    c.add_argument(
        "--history",
        metavar="FILE",
        help="the game's earlier positions, oldest first: a JSON list (HPN strings or JSON "
        "positions) or one HPN per line; without it repetition and threefold are not evaluated",
    )
    c.add_argument("--json", action="store_true", help="print the HTTP verdict (POST /v1/check) as JSON")
    c.set_defaults(run=run)


def run(args, reader: Reader) -> int:
    pos_value, pos_label = position_arg(args.position, reader)
    turn_value, turn_label = turn_arg(args.turn, reader)
    body = {"position": pos_value, "turn": turn_value}
    roots = {"position": pos_label, "turn": turn_label}
    lines = {}
    if args.history is not None:
        body["history"], roots["history"], lines["history"] = history_arg(args.history, reader)
    with worded(labeller(roots, lines)):
        verdict = check_request.run(check_request.load(body))
    if args.json:
        show_json(check_request.dump(verdict))
    else:
        show(verdict_lines(verdict))
    return EXIT_OK if verdict.legal else EXIT_ILLEGAL
