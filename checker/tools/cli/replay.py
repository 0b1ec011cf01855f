"""``hexodic-check replay FILE``: a game's turns checked and applied in order."""

from __future__ import annotations

from checker.legality import FAILED, PASSED
from checker.service.pipeline import replay_request
from checker.tools.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    MARKS,
    BadInput,
    Labeller,
    Reader,
    file_arg,
    hpn_or_why,
    is_json_text,
    json_type,
    read_json,
    show,
    show_json,
    verdict_lines,
    worded,
)


def add_to(sub) -> None:
    r = sub.add_parser(
        "replay",
        help="check and apply a game's turns in order",
        description="Check and apply turns in order from the start position (or the JSON "
        "body's start), stopping at the first illegal turn.",
    )
    r.add_argument(
        "file",
        metavar="FILE",
        help="a JSON file with the /v1/replay body {turns, start?, history?}, or a score sheet: HTN turns "
        "one or two to a line or separated by ';', move numbers such as '1.' or '1...' allowed (blank lines and "
        "lines starting with # are ignored); - for stdin",
    )
    r.add_argument("--json", action="store_true", help="print the HTTP body (POST /v1/replay) as JSON")
    r.set_defaults(run=run)


def _replay_input(path: str, reader: Reader) -> tuple[dict, Labeller]:
    """The /v1/replay body from a JSON file, or from one HTN turn per line."""
    text, label = file_arg(path, reader, "FILE")
    if is_json_text(text):
        body = read_json(text, label)
        if not isinstance(body, dict):
            raise BadInput(
                f"{label}: expected a JSON object {{turns, start?, history?}} (the /v1/replay body), "
                f"not {json_type(body)}"
            )

        def label_json(p: tuple[str, ...]) -> str:
            return f"{label}: {'.'.join(p)}" if p else label

        return body, label_json
    # A score sheet, read as the API reads the text form of turns; comment lines
    # become blank lines, so the line numbers of its errors are the file's.
    sheet = "\n".join("" if line.lstrip().startswith("#") else line for line in text.splitlines())
    if not sheet.strip():
        raise BadInput(f"{label}: no turn: write HTN turns one per line or separated by ';', such as c3 +d4; e5 +d4")
    return {"turns": sheet}, lambda path: label


def run(args, reader: Reader) -> int:
    body, label = _replay_input(args.file, reader)
    with worded(label):
        data = replay_request.load(body)
        result = replay_request.run(data)
    if args.json:
        show_json(replay_request.dump(result))
        return EXIT_OK if result.legal else EXIT_ILLEGAL
    lines = [
        f"{i}. {v.mover} {v.turn} {MARKS[PASSED] if v.legal else MARKS[FAILED]}"
        for i, v in enumerate(result.verdicts, 1)
    ]
    n = len(data["turns"])
    if result.first_illegal is not None:
        fi = result.first_illegal
        lines += [
            "",
            f"Turn {fi.index + 1} of {n} ({fi.verdict.mover} {fi.verdict.turn}) is illegal; the replay stops there.",
        ]
        lines += verdict_lines(fi.verdict)
        after = f"after turn {fi.index}" if fi.index else "the starting position"
        lines += ["", f"Final position ({after}): {hpn_or_why(result.final)}"]
    else:
        done = "No turn to replay." if n == 0 else "The turn is legal." if n == 1 else f"All {n} turns are legal."
        lines += ["", done, f"Final position: {hpn_or_why(result.final)}"]
    lines.append(f"Game: {result.game.message}")
    show(lines)
    return EXIT_OK if result.legal else EXIT_ILLEGAL
