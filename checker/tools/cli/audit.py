"""``hexodic-check audit INPUT... --out OUT``: whole game archives judged again
(:mod:`checker.tools.audit`), on a local Dask cluster or an existing one; and
``hexodic-check selfplay``: archives of random games to try it on."""

from __future__ import annotations

import sys

from checker.tools.cli.common import EXIT_BAD_INPUT, PROG, BadInput, Reader

EPILOG = (
    "Exit status: 0 every row ok, 1 some row is not (illegal, result-mismatch, bad-record), 2 unusable input "
    "or options (one line: a path that cannot be opened, a glob that matches nothing, no record, a Parquet file "
    "without a turns column, OUT existing without --resume or --force; a compressed file cut short, after the "
    "rows of the records before the cut)."
)


def add_to(sub) -> None:
    a = sub.add_parser(
        "audit",
        help="judge whole game archives again (Dask)",
        description="Replay every record of the archives (JSON Lines, plain, .gz or .zst, or Parquet; globs and "
        "directories of parts) and write one row per record, in input order, to OUT (JSON Lines, or Parquet when "
        "OUT ends in .parquet). Runs on a local Dask cluster (one worker process per CPU) unless --scheduler names "
        "an existing one; --workers 0 judges in this process.",
        epilog=EPILOG,
    )
    a.add_argument("inputs", metavar="INPUT", nargs="+", help="a file, a glob (quoted) or a directory of parts")
    a.add_argument("--out", metavar="OUT", required=True, help="the rows: .jsonl, or .parquet")
    a.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask scheduler, e.g. tcp://10.0.0.5:8786")
    a.add_argument(
        "--workers", metavar="N", type=int, help="worker processes of the local cluster (default: one per CPU; 0: none)"
    )
    a.add_argument("--chunk", metavar="N", type=int, default=500, help="records per task (default 500)")
    a.add_argument("--resume", action="store_true", help="keep OUT's rows and judge only the records after them")
    a.add_argument("--force", action="store_true", help="write OUT anew when it exists")
    a.add_argument("--report", metavar="FILE.html", help="a self-contained HTML report with charts")
    a.add_argument("--site", metavar="URL", help="link the report's games to their /game permalink on this site")
    bar = a.add_mutually_exclusive_group()
    bar.add_argument("--progress", dest="progress", action="store_true", default=None, help="a progress bar on stderr")
    bar.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    a.set_defaults(run=run)

    s = sub.add_parser(
        "selfplay",
        help="write an archive of random games",
        description="Play random games (some lightly biased) from the start to their end and write them with "
        "their claimed results: JSON Lines (.jsonl, .gz, .zst) or Parquet (.parquet).",
    )
    s.add_argument("--games", metavar="N", type=int, required=True, help="how many games")
    s.add_argument("--seed", metavar="S", type=int, default=0, help="the seed (default 0)")
    s.add_argument("--out", metavar="FILE", required=True, help="the archive to write")
    s.add_argument(
        "--spoil",
        metavar="FRACTION",
        type=float,
        default=0.0,
        help="this fraction of the records spoilt: an illegal turn, a wrong claim or a line that does not read",
    )
    s.add_argument("--force", action="store_true", help="write FILE anew when it exists")
    s.set_defaults(run=run_selfplay)


def run(args, reader: Reader) -> int:
    from checker.tools.audit import run as audit
    from checker.tools.audit.inputs import InputError
    from checker.tools.audit.report import write_report

    options = audit.Options(
        inputs=args.inputs,
        out=args.out,
        scheduler=args.scheduler,
        workers=args.workers,
        chunk=args.chunk,
        resume=args.resume,
        force=args.force,
        progress=bool(args.progress),
        links=bool(args.report and args.site),
    )
    if args.progress is False:
        options.progress_delay = float("inf")
    bar = audit.progress_bar(options) if args.progress is not False else None
    try:
        outcome = audit.audit(options, on_rows=bar.update if bar is not None else None)
    except InputError as exc:
        raise BadInput(str(exc)) from None
    finally:
        if bar is not None:
            bar.close()
    for line in outcome.summary.lines():
        print(line)
    if args.report:
        write_report(args.report, outcome.summary, outcome.rows, args.inputs, args.site)
        print(f"report: {args.report}")
    if outcome.error is not None:
        sys.stderr.write(f"{PROG}: error: {outcome.error}\n")
        return EXIT_BAD_INPUT
    return 0 if outcome.summary.all_ok else 1


def run_selfplay(args, reader: Reader) -> int:
    from pathlib import Path

    from checker.tools.audit.selfplay import write_archive

    if args.games < 0:
        raise BadInput("--games must be 0 or more")
    if not 0.0 <= args.spoil <= 1.0:
        raise BadInput("--spoil must be a fraction between 0 and 1")
    if Path(args.out).exists() and not args.force:
        raise BadInput(f"{args.out}: exists; --force to write it anew")
    count = write_archive(args.out, args.games, args.seed, args.spoil)
    print(f"selfplay: {count:,} records written to {args.out}")
    return 0
