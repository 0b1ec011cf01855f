"""``hexodic-check render POSITION [TURN] -o OUT``: the board drawn as SVG, with the turn's verdict."""

from __future__ import annotations

import sys

from checker import board
from checker.drawing import draw
from checker.legality import check
from checker.service.pipeline import consistent, read
from checker.tools.cli.common import (
    EXIT_OK,
    POSITION_HELP,
    TURN_HELP,
    BadInput,
    Reader,
    labeller,
    position_arg,
    turn_arg,
    worded,
)
from schemas.requests import RenderRequestSchema


def add_to(sub) -> None:
    d = sub.add_parser(
        "render",
        help="draw a position as SVG",
        description="Draw the board (tiers, stones, locks, highlighted cells) as SVG.",
    )
    d.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    d.add_argument("turn", metavar="TURN", nargs="?", help="optionally a turn to show: " + TURN_HELP)
    d.add_argument("-o", "--output", metavar="OUT", required=True, help="the SVG file to write; - for stdout")
    d.add_argument("--highlight", metavar="CELLS", help="comma-separated cells to highlight, e.g. c3,d4")
    d.set_defaults(run=run)


def _highlight(text: str | None) -> list[int]:
    if text is None:
        return []
    cells: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            cell = board.parse_cell(part)
        except board.CellError:
            raise BadInput(f"--highlight: {part!r} is not a cell (a1 … g7)") from None
        if cell not in cells:
            cells.append(cell)
    return cells


def run(args, reader: Reader) -> int:
    pos_value, pos_label = position_arg(args.position, reader)
    body = {"position": pos_value}
    roots = {"position": pos_label}
    if args.turn is not None:
        body["turn"], roots["turn"] = turn_arg(args.turn, reader)
    with worded(labeller(roots)):
        data = read(RenderRequestSchema(), body)  # the body of POST /v1/render; --highlight is read below
        position = consistent(data["position"], "position")
    turn = data.get("turn")
    verdict = None if turn is None else check(position, turn, assume_consistent=True)
    svg = draw(position, verdict, _highlight(args.highlight))
    if args.output == "-":
        sys.stdout.write(svg if svg.endswith("\n") else svg + "\n")
        return EXIT_OK
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(svg)
    except OSError as exc:
        raise BadInput(f"-o: cannot write {args.output!r}: {exc.strerror or exc}") from None
    return EXIT_OK
