"""``hexodic-check vectors [--answers FILE]``: the conformance vectors, or answers compared with them."""

from __future__ import annotations

import json
import sys

from checker.tools import answers
from checker.tools import vectors as vec
from checker.tools.cli.common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    BadInput,
    Reader,
    file_arg,
    show,
    text_lines,
)

ERRORS_SHOWN = 10  # of an answers file's errors, on the one line of a bad-input message


def add_to(sub) -> None:
    vc = sub.add_parser(
        "vectors",
        help="print the conformance vectors, or check answers against them",
        description="Without --answers: print the conformance vectors (JSON Lines, a header "
        "line first). With --answers FILE: compare another implementation's answers "
        "(JSON Lines, one {id, legal, violations, after?, game?} per vector, as "
        "answers.schema.json says; GET /v1/vectors/schema) with the vectors: "
        "violations as a set, after as a position; exit 1 when any differs or is "
        "missing, 2 when a line is not an answer, names an unknown id or repeats "
        "an id.",
    )
    vc.add_argument("--answers", metavar="FILE", help="the answers to check, JSON Lines; - for stdin")
    vc.add_argument("-o", "--output", metavar="OUT", help="with no --answers: write the vectors here")
    vc.set_defaults(run=run)


def run(args, reader: Reader) -> int:
    """Print the conformance vectors, or compare another implementation's answers with them."""
    shipped = vec.read_vectors()
    if args.answers is None:
        lines = [json.dumps(vec.header(len(shipped)), ensure_ascii=False)]
        lines += [json.dumps(v, ensure_ascii=False) for v in shipped]
        if args.output in (None, "-"):
            sys.stdout.write("\n".join(lines) + "\n")
        else:
            try:
                with open(args.output, "w", encoding="utf-8") as f:
                    f.write("\n".join(lines) + "\n")
            except OSError as exc:
                raise BadInput(f"OUT: cannot write {args.output}: {exc.strerror}") from None
        return EXIT_OK
    text, _ = file_arg(args.answers, reader, "ANSWERS")
    report = answers.compare(text_lines(text), shipped)
    if report.errors:
        shown = report.errors[:ERRORS_SHOWN]
        more = len(report.errors) - len(shown)
        raise BadInput(f"ANSWERS {'; '.join(shown)}" + (f"; and {more} more" if more else ""))
    show(report.differences)
    show(f"{report.agree} of {report.total} vectors agree")
    return EXIT_OK if not report.differences else EXIT_ILLEGAL
