"""``hexodic-check engine``: the checker answering the engine protocol on stdin and stdout."""

from __future__ import annotations

from checker.tools.cli.common import Reader
from checker.tools.protocol import serve


def add_to(sub) -> None:
    en = sub.add_parser(
        "engine",
        help="speak the engine protocol on stdin/stdout",
        description="Answer engine-protocol requests (docs/engine.md), one JSON object per line "
        "on stdin, one answer per line on stdout, until quit or the end of input.",
    )
    en.set_defaults(run=run)


def run(args, reader: Reader) -> int:
    return serve()
