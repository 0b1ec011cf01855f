"""``hexodic-check conform --engine COMMAND``: an engine tested against the checker."""

from __future__ import annotations

import argparse
import sys

from checker.tools import conform as driver
from checker.tools.cli.common import BadInput, Reader, file_arg, show


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
        help="only the positions (of the table and of --positions-file) whose name matches, e.g. 'start' "
        "(default: all)",
    )
    cf.add_argument(
        "--positions-file",
        metavar="FILE",
        help="positions of your own, one HPN per line with an optional name after '#' (blank lines and lines "
        "starting with '#' skipped): each gets the legal-turn set, play for each legal turn (a seeded sample of "
        f"{driver.PLAY_SAMPLE} when there are more) and perft to --depth",
    )
    cf.add_argument(
        "--seed",
        metavar="N",
        type=int,
        default=driver.DEFAULT_SEED,
        help=f"the seed of the play samples (default {driver.DEFAULT_SEED})",
    )
    cf.add_argument(
        "--games",
        metavar="N",
        type=int,
        default=driver.DEFAULT_GAMES,
        help=f"the early game: the positions after each of the first {driver.EARLY_PLIES} half-moves of N random "
        f"games seeded with --seed, each compared on its legal turns and on play for every one "
        f"(default {driver.DEFAULT_GAMES}; 0: none)",
    )
    cf.add_argument("--first", action="store_true", help="stop at the first difference")
    cf.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr, from the start (default: when stderr is a terminal, after 2 s)",
    )
    cf.set_defaults(run=run)


def run(args, reader: Reader) -> int:
    if args.timeout <= 0:
        raise BadInput(f"--timeout: {args.timeout:g} is not a number of seconds above 0")
    if args.depth < 0:
        raise BadInput(f"--depth: {args.depth} is below 0")
    if args.games < 0:
        raise BadInput(f"--games: {args.games} is below 0")
    own: tuple[driver.OwnPosition, ...] = ()
    if args.positions_file is not None:
        text, label = file_arg(args.positions_file, reader, "--positions-file")
        try:
            own = driver.read_positions(text, label)
        except driver.BadPositions as exc:
            raise BadInput(str(exc)) from None
    return driver.run(
        driver.Options(
            args.engine,
            args.depth,
            args.timeout,
            None if args.no_vectors else args.vectors,
            args.positions,
            args.first,
            own,
            args.seed,
            args.games,
            sys.stderr.isatty() if args.progress is None else args.progress,
            0.0 if args.progress else 2.0,  # asked for: at once; on a terminal: after 2 s
        ),
        out=show,
    )
