"""``hexodic-check legal POSITION``: every legal turn, optionally filtered by Project and Shape."""

from __future__ import annotations

from checker.ending import game_status
from checker.service.pipeline import legal_turns_request
from checker.tools.cli.common import (
    EXIT_OK,
    POSITION_HELP,
    Reader,
    is_json_text,
    labeller,
    position_arg,
    read_json,
    show,
    show_json,
    worded,
)


def add_to(sub) -> None:
    lg = sub.add_parser(
        "legal",
        help="list every legal turn",
        description="List every legal turn in HTN, one per line, after a count line.",
    )
    lg.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    lg.add_argument("--project", metavar="P", help="only turns beginning with this Project (c3, c3-c4, skip)")
    lg.add_argument("--shape", metavar="S", help="with --project: only turns with this Shape (+d4, -d4)")
    lg.add_argument("--json", action="store_true", help="print the HTTP body (POST /v1/legal-turns) as JSON")
    lg.set_defaults(run=run)


def _filter_value(text: str | None, label: str):
    if text is None:
        return None
    return read_json(text, label) if is_json_text(text) else text


def run(args, reader: Reader) -> int:
    pos_value, pos_label = position_arg(args.position, reader)
    body = {"position": pos_value}
    if args.project is not None:
        body["project"] = _filter_value(args.project, "--project")
    if args.shape is not None:
        body["shape"] = _filter_value(args.shape, "--shape")
    with worded(labeller({"position": pos_label, "project": "--project", "shape": "--shape"})):
        position, groups, form = legal_turns_request.run(legal_turns_request.load(body))
    dumped = legal_turns_request.dump((position, groups, form))
    if args.json:
        show_json(dumped)
        return EXIT_OK
    n = dumped["count"]
    head = f"{n} legal turn{'' if n == 1 else 's'}"
    if not n:
        game = game_status(position, history_given=False)
        if game.over:
            head += f": {game.message}"
    show([head] + [t["htn"] for t in dumped["turns"]])
    return EXIT_OK
