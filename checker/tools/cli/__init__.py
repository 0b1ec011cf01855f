"""The ``hexodic-check`` command: the rules engine from a terminal.

::

    hexodic-check check POSITION TURN [--history FILE] [--json]
    hexodic-check legal POSITION [--project P] [--shape S] [--json]
    hexodic-check replay FILE [--json]
    hexodic-check validate POSITION [--json]
    hexodic-check render POSITION [TURN] -o OUT [--highlight c3,d4]
    hexodic-check perft POSITION --depth N [--divide] [--json]
    hexodic-check engine
    hexodic-check conform --engine COMMAND [--depth N] [--timeout S]
    hexodic-check audit INPUT... --out OUT [--scheduler ADDRESS | --workers N] [--resume] [--report FILE.html]
    hexodic-check selfplay --games N --seed S --out FILE [--spoil FRACTION]
    hexodic-check rules [ID] [--json]
    hexodic-check mcp [--http HOST:PORT]

POSITION is HPN text, a path to a file holding HPN or a JSON position, or
``-`` for stdin.  TURN is HTN text, inline JSON (``'{"project": ...}'``) or
a path to a file holding JSON (or HTN).  Input is read with the same
request pipeline as the HTTP service (:mod:`checker.service.pipeline`), so the
command accepts exactly what ``POST /v1/...`` accepts, and ``--json`` prints
exactly the HTTP body.

Exit status: 0 legal (every turn legal for ``replay``; consistent for
``validate``; ``legal`` and ``render`` always 0), 1 illegal (inconsistent
for ``validate``), 2 bad input, with one line on stderr saying what is wrong.
An unexpected error inside the checker (a bug) is also one line, exit 3.

One module per command, each with ``add_to(subparsers)`` and ``run(args, reader)``:
:mod:`checker.tools.cli.check`, :mod:`checker.tools.cli.legal`, :mod:`checker.tools.cli.replay`,
:mod:`checker.tools.cli.validate`, :mod:`checker.tools.cli.render`, :mod:`checker.tools.cli.perft`,
:mod:`checker.tools.cli.engine`, :mod:`checker.tools.cli.conform`, :mod:`checker.tools.cli.vectors`,
:mod:`checker.tools.cli.audit` (audit and selfplay),
:mod:`checker.tools.cli.rules`, :mod:`checker.tools.cli.mcp`; what they share is in :mod:`checker.tools.cli.common`.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence

from checker.extras import MissingExtra
from checker.tools.cli import (
    audit,
    check,
    conform,
    engine,
    legal,
    mcp,
    perft,
    render,
    replay,
    rules,
    validate,
    vectors,
)
from checker.tools.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    MARKS,
    PROG,
    BadInput,
    Reader,
    checklist,
    one_line,
)
from checker.version import PACKAGE_VERSION, RULES_VERSION

__all__ = ["main", "build_parser", "BadInput", "MARKS", "checklist"]

# The commands in the order --help lists them.
COMMANDS = (check, legal, replay, validate, render, vectors, perft, engine, conform, audit, rules, mcp)


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error: ``hexodic-check: error: ...``."""

    def error(self, message: str):
        sub = self.prog[len(PROG) :].strip()
        where = f"{sub}: " if sub else ""
        self.exit(EXIT_BAD_INPUT, f"{PROG}: error: {where}{one_line(message)} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="The Hexodic rules engine from the command line: is a turn legal, and why?",
        epilog="Exit status: 0 legal / consistent, 1 illegal / inconsistent, 2 bad input.",
    )
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.add_to(sub)
    return p


def _version() -> str:
    return f"{PROG} {PACKAGE_VERSION} (rules version {RULES_VERSION})"


def _utf8(stream) -> None:
    try:
        stream.reconfigure(encoding="utf-8", errors="replace")
    except (AttributeError, ValueError, io.UnsupportedOperation):
        pass


def _join_lower_shapes(argv: Sequence[str]) -> list[str]:
    """``--shape -d4`` as ``--shape=-d4``: argparse would take ``-d4`` for an option."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if arg == "--shape" and nxt is not None and nxt.startswith("-") and nxt[1:2].isalpha():
            out.append(f"--shape={nxt}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    _utf8(sys.stdout)
    _utf8(sys.stderr)
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parser.parse_args(_join_lower_shapes(argv))
    except SystemExit as exc:  # --help, --version, or an argument error (one line, exit 2)
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    try:
        status = args.run(args, Reader())
        sys.stdout.flush()
        return status
    except (BadInput, MissingExtra) as exc:  # MissingExtra: the command needs an extra not installed here
        sys.stderr.write(f"{PROG}: error: {one_line(str(exc))}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. `hexodic-check legal ... | head`
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        return EXIT_OK
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except Exception as exc:  # a bug in the checker: one line, no traceback
        sys.stderr.write(
            f"{PROG}: internal error (a bug in the checker, please report it): "
            f"{type(exc).__name__}: {one_line(str(exc))}\n"
        )
        return EXIT_INTERNAL
