"""``hexodic-check rules [ID]``: the checker's own text of a rule, capture kind, end-of-game reason or D-n."""

from __future__ import annotations

from checker.catalogue import ENTRIES
from checker.reference import plain_entry
from checker.service.pipeline import rule_catalogue
from checker.tools.cli.common import EXIT_OK, PROG, BadInput, Reader, show, show_json


def add_to(sub) -> None:
    ru = sub.add_parser(
        "rules",
        help="print the text of a rule (of every rule without an ID)",
        description="Print the checker's own text of a rule id (place.cooldown), a capture kind "
        "(capture.echo), an end-of-game reason (end.tiebreak) or a decided reading "
        "(D-10): its title, where it belongs, its source, its full text and its "
        "links. Without an ID, every entry of the rules reference.",
    )
    ru.add_argument("id", metavar="ID", nargs="?", help="e.g. place.cooldown, capture.echo, end.tiebreak or D-10")
    ru.add_argument("--json", action="store_true", help="print the entries as GET /v1/rules gives them")
    ru.set_defaults(run=run)


def run(args, reader: Reader) -> int:
    """Print the text of a catalogue entry (a rule id, capture kind, end-of-game
    reason or decided reading), or of every entry."""
    if args.id is None:
        entries = list(ENTRIES.values())
    else:
        by_lower = {k.lower(): e for k, e in ENTRIES.items()}
        entry = by_lower.get(args.id.strip().lower())
        if entry is None:
            raise BadInput(
                f"ID: {args.id!r} is no rule id, capture kind, end-of-game reason or decided reading "
                f"(run '{PROG} rules' for all of them)"
            )
        entries = [entry]
    if args.json:
        dumped = rule_catalogue.dump(entries)
        show_json(dumped if args.id is None else dumped[0])
        return EXIT_OK
    lines: list[str] = []
    for e in entries:
        if lines:
            lines.append("")
        lines += plain_entry(e).splitlines()
    show(lines)
    return EXIT_OK
