"""``hexodic-check validate POSITION``: a position's consistency (D-3) and state."""

from __future__ import annotations

from checker.legality import FAILED
from checker.service.pipeline import validate_request
from checker.tools.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    POSITION_HELP,
    Reader,
    checklist,
    hpn_or_why,
    labeller,
    position_arg,
    show,
    show_json,
    worded,
)


def add_to(sub) -> None:
    v = sub.add_parser(
        "validate",
        help="check a position's consistency (D-3)",
        description="Check every position.* condition of D-3 and, for a consistent position, its state.",
    )
    v.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    v.add_argument("--json", action="store_true", help="print the HTTP body (POST /v1/validate) as JSON")
    v.set_defaults(run=run)


def run(args, reader: Reader) -> int:
    pos_value, pos_label = position_arg(args.position, reader)
    with worded(labeller({"position": pos_label})):
        v = validate_request.run(validate_request.load({"position": pos_value}))
    if args.json:
        show_json(validate_request.dump(v))
        return EXIT_OK if v.consistent else EXIT_ILLEGAL
    broken = sorted({c.rule for c in v.checks if c.status == FAILED}, key=[c.rule for c in v.checks].index)
    if v.consistent:
        lines = ["Consistent: the position meets every condition of D-3.", ""]
    else:
        lines = [
            f"Not consistent: {len(broken)} condition{'' if len(broken) == 1 else 's'} broken ({', '.join(broken)}).",
            "",
        ]
    lines += checklist(v.checks)
    lines += ["", f"HPN: {hpn_or_why(v.position)}"]
    if v.consistent:
        lines += [
            f"Game: {v.game.message}",
            f"Cooldown skip: {'applies' if v.cooldown_skip else 'does not apply'}.",
            f"Legal turns: {v.legal_turns}.",
        ]
    show(lines)
    return EXIT_OK if v.consistent else EXIT_ILLEGAL
