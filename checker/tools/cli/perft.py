"""``hexodic-check perft POSITION --depth N``: legal turn sequences counted (perft)."""

from __future__ import annotations

from checker.counting import perft_count
from checker.position import MAX_HALF_MOVES
from checker.service.pipeline import consistent, perft_request
from checker.tools.cli.common import (
    EXIT_OK,
    POSITION_HELP,
    Reader,
    labeller,
    position_arg,
    show,
    show_json,
    worded,
)


def add_to(sub) -> None:
    pf = sub.add_parser(
        "perft",
        help="count the legal turn sequences of a length (perft)",
        description="Count the legal turn sequences of length N from a position (a turn that "
        "ends the game ends its sequence; no history is carried). With --divide, "
        "each legal turn's count first. See docs/perft.md.",
    )
    pf.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    pf.add_argument(
        "--depth", metavar="N", type=int, required=True, help=f"the length of the sequences, 0-{MAX_HALF_MOVES}"
    )
    pf.add_argument("--divide", action="store_true", help="also print every legal turn's count")
    pf.add_argument("--json", action="store_true", help="print the HTTP body (POST /v1/perft) as JSON")
    pf.set_defaults(run=run)


def run(args, reader: Reader) -> int:
    pos_value, pos_label = position_arg(args.position, reader)
    body = {"position": pos_value, "depth": args.depth, "divide": args.divide}
    with worded(labeller({"position": pos_label, "depth": "--depth", "divide": "--divide"})):
        data = perft_request.load(body)
        position = consistent(data["position"], "position")
    dumped = perft_request.dump(perft_count(position, data["depth"], data["divide"]))
    if args.json:
        show_json(dumped)
        return EXIT_OK
    lines = [f"{d['turn']}: {d['nodes']}" for d in dumped.get("divide", [])]
    show(lines + ([""] if lines else []) + [f"Nodes: {dumped['nodes']}"])
    return EXIT_OK
