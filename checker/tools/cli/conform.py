"""``hexodic-check conform --engine COMMAND``: an engine tested against the checker."""

from __future__ import annotations

from checker.tools import conform as driver
from checker.tools.cli.common import BadInput, Reader, show


def add_to(sub) -> None:
    cf = sub.add_parser(
        "conform",
        help="test another engine against the checker",
        description="Start COMMAND (through the shell), talk to it with the engine protocol "
        "(docs/engine.md) and compare its answers with the checker's: every "
        "conformance vector, then perft over the published table with the divide "
        "descent on a difference.",
        epilog="Exit status: 0 everything agrees, 1 a difference was found, 2 the engine broke "
        "the protocol (no answer in time, bad JSON, a wrong id, it exited) or bad input.",
    )
    cf.add_argument("--engine", metavar="COMMAND", required=True, help="the engine's command line")
    cf.add_argument(
        "--depth",
        metavar="N",
        type=int,
        default=2,
        help="perft to this depth (default 2; the table goes to 2, the start to 3; 0: no perft)",
    )
    cf.add_argument(
        "--timeout", metavar="S", type=float, default=10.0, help="seconds to wait for each answer (default 10)"
    )
    cf.add_argument(
        "--vectors", metavar="GLOB", default="*", help="only the vectors whose id matches, e.g. 'hand-*' (default: all)"
    )
    cf.add_argument("--no-vectors", action="store_true", help="skip the vectors")
    cf.add_argument(
        "--positions",
        metavar="GLOB",
        default="*",
        help="only the perft table positions whose name matches, e.g. 'start' (default: all)",
    )
    cf.add_argument("--first", action="store_true", help="stop at the first difference")
    cf.set_defaults(run=run)


def run(args, reader: Reader) -> int:
    if args.timeout <= 0:
        raise BadInput(f"--timeout: {args.timeout:g} is not a number of seconds above 0")
    if args.depth < 0:
        raise BadInput(f"--depth: {args.depth} is below 0")
    return driver.run(
        driver.Options(
            args.engine, args.depth, args.timeout, None if args.no_vectors else args.vectors, args.positions, args.first
        ),
        out=show,
    )
