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
    hexodic-check rules [ID] [--json]

POSITION is HPN text, a path to a file holding HPN or a JSON position, or
``-`` for stdin.  TURN is HTN text, inline JSON (``'{"project": ...}'``) or
a path to a file holding JSON (or HTN).  Input is read with the same
request pipeline as the HTTP service (:mod:`checker.web.pipeline`), so the
command accepts exactly what ``POST /v1/...`` accepts, and ``--json`` prints
exactly the HTTP body.

Exit status: 0 legal (every turn legal for ``replay``; consistent for
``validate``; ``legal`` and ``render`` always 0), 1 illegal (inconsistent
for ``validate``), 2 bad input, with one line on stderr saying what is wrong.
An unexpected error inside the checker (a bug) is also one line, exit 3.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, Sequence

from checker import RULES_VERSION, board
from checker.counting import perft_count
from checker.ending import game_status
from checker.legality import FAILED, NOT_APPLICABLE, PASSED, Check, Verdict, check, validate
from checker.notation import NotationError, position_to_hpn
from checker.position import Position
from checker.web.pipeline import (check_request, consistent, legal_turns_request, load, loads, perft_request,
                                  replay_request, rule_catalogue, validate_request)
from checker.web.problems import InconsistentPosition, RequestError, SchemaError, error_paths
from schemas.requests import RenderRequestSchema

PROG = "hexodic-check"
MARKS = {PASSED: "✓", FAILED: "✗", NOT_APPLICABLE: "–"}

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3

__all__ = ["main", "BadInput", "MARKS", "checklist"]


class BadInput(Exception):
    """Input the command cannot use; the message is one line naming what is wrong."""


# ------------------------------------------------------------ reading ------

def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


class _Reader:
    """Reads arguments that may be text, a file or ``-`` (stdin, read once)."""

    def __init__(self) -> None:
        self.stdin_for: str | None = None

    def stdin(self, label: str) -> str:
        if self.stdin_for is not None:
            raise BadInput(f"{label}: stdin ('-') is already used for {self.stdin_for}")
        self.stdin_for = label
        stream = sys.stdin
        if stream is None:
            raise BadInput(f"{label}: there is no stdin to read")
        try:
            raw = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
        except OSError as exc:
            raise BadInput(f"{label}: cannot read stdin: {exc.strerror or exc}") from None
        return _decode(raw, label, "stdin") if isinstance(raw, bytes) else raw.lstrip("\ufeff")

    @staticmethod
    def file(path: str, name: str) -> str:
        """The text of the file ``path``, given as the argument ``name``."""
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            raise BadInput(f"{name}: no such file: {path!r}") from None
        except IsADirectoryError:
            raise BadInput(f"{name}: {path!r} is a directory, not a file") from None
        except OSError as exc:
            raise BadInput(f"{name}: cannot read {path!r}: {exc.strerror or exc}") from None
        return _decode(raw, name, repr(path))


def _decode(raw: bytes, label: str, where: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{label}: {where} is not UTF-8 text (byte {exc.start + 1} is not valid)") from None


def _json(text: str, label: str):
    """JSON as the HTTP service reads it (no NaN or Infinity)."""
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{label}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise BadInput(f"{label}: not valid JSON: nesting too deep") from None
    except ValueError as exc:
        raise BadInput(f"{label}: not valid JSON: {exc}") from None


def _is_json_text(text: str) -> bool:
    return text.lstrip().startswith(("{", "[", '"'))


def _lines(text: str) -> list[tuple[int, str]]:
    """Non-blank lines not starting with '#', with their 1-based numbers."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.strip().startswith("#")]


def _single_line_value(text: str, label: str, what: str):
    """A file's or stdin's content: JSON, or one line of notation."""
    if _is_json_text(text):
        return _json(text, label)
    lines = _lines(text)
    if not lines:
        raise BadInput(f"{label}: empty: expected {what}")
    if len(lines) > 1:
        raise BadInput(f"{label}: {len(lines)} lines (lines {lines[0][0]} and {lines[1][0]}, ...); expected one line "
                       f"holding {what}")
    return lines[0][1]


def _has_space(text: str) -> bool:
    return any(ch.isspace() for ch in text)


def _position_arg(arg: str, reader: _Reader, name: str = "POSITION") -> tuple[object, str]:
    """The JSON value of a POSITION argument (an HPN string or a JSON value)
    and the label naming it in messages."""
    if arg == "-":
        label = f"{name} (stdin)"
        return _single_line_value(reader.stdin(label), label, "an HPN position"), label
    if os.path.exists(arg) and not _is_json_text(arg):
        label = f"{name} ({arg})"
        return _single_line_value(reader.file(arg, name), label, "an HPN position"), label
    if _is_json_text(arg):
        return _json(arg, name), name
    if _has_space(arg):
        return arg, name
    raise BadInput(f"{name}: no such file: {arg!r} (HPN text has 5 space-separated fields)")


def _turn_arg(arg: str, reader: _Reader, name: str = "TURN") -> tuple[object, str]:
    """The JSON value of a TURN argument (an HTN string or a JSON value)."""
    if arg == "-":
        label = f"{name} (stdin)"
        return _single_line_value(reader.stdin(label), label, "an HTN turn"), label
    if _is_json_text(arg):
        return _json(arg, name), name
    if os.path.isfile(arg):
        label = f"{name} ({arg})"
        return _single_line_value(reader.file(arg, name), label, "an HTN turn"), label
    if any(ch in arg for ch in "./\\"):  # HTN never holds these: a path that is not there
        raise BadInput(f"{name}: no such file: {arg!r}")
    return arg, name


def _file_arg(path: str, reader: _Reader, name: str) -> tuple[str, str]:
    """The text of a file argument (``-``: stdin) and its label for messages."""
    label = f"{name} (stdin)" if path == "-" else f"{name} ({path})"
    return (reader.stdin(label) if path == "-" else reader.file(path, name)), label


def _history_arg(path: str, reader: _Reader) -> tuple[list, str, list[int] | None]:
    """A --history file: a JSON list of positions, or one HPN per line.
    Returns the list, the label and, for a text file, each item's line number."""
    text, label = _file_arg(path, reader, "--history")
    if _is_json_text(text):
        value = _json(text, label)
        if not isinstance(value, list):
            raise BadInput(f"{label}: expected a JSON list of positions (HPN strings or JSON objects), "
                           f"not {_json_type(value)}")
        return value, label, None
    lines = _lines(text)
    return [line for _, line in lines], label, [n for n, _ in lines]


def _json_type(value) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


# ------------------------------------------------------- request errors ------

Labeller = Callable[[tuple[str, ...]], str]


def _labeller(roots: dict[str, str], lines: dict[str, list[int] | None] | None = None) -> Labeller:
    """Names a path in the request body: the root key by the argument it came
    from; a list item of a text file by its line number."""
    lines = lines or {}

    def label(path: tuple[str, ...]) -> str:
        if not path:
            return next(iter(roots.values()))
        root, rest = path[0], list(path[1:])
        head = roots.get(root, root)
        numbers = lines.get(root)
        if rest and rest[0].isdigit():
            i = int(rest[0])
            item = f"line {numbers[i]}" if numbers is not None and i < len(numbers) else f"item {i + 1}"
            head, rest = f"{head}, {item}", rest[1:]
        return head + (": " + ".".join(rest) if rest else "")

    return label


def _wording(exc: RequestError, label: Labeller) -> str:
    """A request error as one line in the command's terms: a schema error under
    the arguments' names, every message; an inconsistent position with every
    broken condition."""
    if isinstance(exc, SchemaError):
        parts = [f"{label(path)}: {msg.rstrip('.')}" for path, msg in error_paths(exc.messages, exc.at)]
        return "; ".join(parts) or "the input does not match the schema"
    if isinstance(exc, InconsistentPosition):
        details = " ".join(f"[{p.rule}] {p.message}" for p in exc.problems)
        n = len(exc.problems)
        return (f"{label(exc.at)} is not a consistent position ({n} broken condition{'s' if n != 1 else ''}): "
                f"{details}")
    return exc.detail


@contextmanager
def _worded(label: Labeller) -> Iterator[None]:
    """The request pipeline's errors inside the block as bad input, worded by :func:`_wording`."""
    try:
        yield
    except RequestError as exc:
        raise BadInput(_wording(exc, label)) from None


# -------------------------------------------------------------- output ------

def checklist(checks: Sequence[Check]) -> list[str]:
    """One line per check: mark, step label, rule id, message (columns aligned)."""
    if not checks:
        return []
    step_w = max(len(c.step) for c in checks)
    rule_w = max(len(c.rule) for c in checks)
    return [f"{MARKS.get(c.status, '?')} {c.step:<{step_w}}  {c.rule:<{rule_w}}  {c.message}" for c in checks]


def _hpn(position: Position) -> str:
    try:
        return position_to_hpn(position)
    except NotationError as exc:
        return f"(none: {exc.message})"


def _print(lines: Iterable[str] | str = "") -> None:
    if isinstance(lines, str):
        lines = [lines]
    out = sys.stdout
    for line in lines:
        out.write(_one_line(line) + "\n")


def _print_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _verdict_lines(verdict: Verdict) -> list[str]:
    lines = [verdict.summary, ""]
    lines += checklist(verdict.checks)
    out = verdict.outcome
    if out is not None:
        lines += ["", f"Position after the turn: {_hpn(out.position)}"]
        if out.events:
            lines.append("Events:")
            lines += [f"  - {e.message}" for e in out.events]
        else:
            lines.append("Events: none.")
        if out.capture_check:
            lines.append("Capture check:")
            lines += [f"  - {w.message}" for w in out.capture_check]
        else:
            lines.append("Capture check: no stone was weighed (no sealed enemy stone on Tier 1 or 2).")
        lines.append(f"Game: {out.game.message}")
    return lines


# ------------------------------------------------------------ commands ------

def _cmd_check(args, reader: _Reader) -> int:
    pos_value, pos_label = _position_arg(args.position, reader)
    turn_value, turn_label = _turn_arg(args.turn, reader)
    body = {"position": pos_value, "turn": turn_value}
    roots = {"position": pos_label, "turn": turn_label}
    lines = {}
    if args.history is not None:
        body["history"], roots["history"], lines["history"] = _history_arg(args.history, reader)
    with _worded(_labeller(roots, lines)):
        verdict = check_request.run(check_request.load(body))
    if args.json:
        _print_json(check_request.dump(verdict))
    else:
        _print(_verdict_lines(verdict))
    return EXIT_OK if verdict.legal else EXIT_ILLEGAL


def _filter_value(text: str | None, label: str):
    if text is None:
        return None
    return _json(text, label) if _is_json_text(text) else text


def _cmd_legal(args, reader: _Reader) -> int:
    pos_value, pos_label = _position_arg(args.position, reader)
    body = {"position": pos_value}
    if args.project is not None:
        body["project"] = _filter_value(args.project, "--project")
    if args.shape is not None:
        body["shape"] = _filter_value(args.shape, "--shape")
    with _worded(_labeller({"position": pos_label, "project": "--project", "shape": "--shape"})):
        position, turns, form = legal_turns_request.run(legal_turns_request.load(body))
    dumped = legal_turns_request.dump((position, turns, form))
    if args.json:
        _print_json(dumped)
        return EXIT_OK
    head = f"{len(turns)} legal turn{'' if len(turns) == 1 else 's'}"
    if not turns:
        game = game_status(position, history_given=False)
        if game.over:
            head += f": {game.message}"
    _print([head] + [t["htn"] for t in dumped["turns"]])
    return EXIT_OK


def _replay_input(path: str, reader: _Reader) -> tuple[dict, Labeller]:
    """The /v1/replay body from a JSON file, or from one HTN turn per line."""
    text, label = _file_arg(path, reader, "FILE")
    if _is_json_text(text):
        body = _json(text, label)
        if not isinstance(body, dict):
            raise BadInput(f"{label}: expected a JSON object {{turns, start?, history?}} (the /v1/replay body), "
                           f"not {_json_type(body)}")

        def label_json(p: tuple[str, ...]) -> str:
            return f"{label}: {'.'.join(p)}" if p else label
        return body, label_json
    lines = _lines(text)
    numbers = [n for n, _ in lines]
    return {"turns": [t for _, t in lines]}, _labeller({"turns": label}, {"turns": numbers})


def _cmd_replay(args, reader: _Reader) -> int:
    body, label = _replay_input(args.file, reader)
    with _worded(label):
        data = replay_request.load(body)
        result = replay_request.run(data)
    if args.json:
        _print_json(replay_request.dump(result))
        return EXIT_OK if result.legal else EXIT_ILLEGAL
    lines = [f"{i}. {v.mover} {v.turn} {MARKS[PASSED] if v.legal else MARKS[FAILED]}"
             for i, v in enumerate(result.verdicts, 1)]
    n = len(data["turns"])
    if result.first_illegal is not None:
        fi = result.first_illegal
        lines += ["", f"Turn {fi.index + 1} of {n} ({fi.verdict.mover} {fi.verdict.turn}) is illegal; "
                      f"the replay stops there."]
        lines += _verdict_lines(fi.verdict)
        after = f"after turn {fi.index}" if fi.index else "the starting position"
        lines += ["", f"Final position ({after}): {_hpn(result.final)}"]
    else:
        done = "No turn to replay." if n == 0 else "The turn is legal." if n == 1 else f"All {n} turns are legal."
        lines += ["", done,
                  f"Final position: {_hpn(result.final)}"]
    lines.append(f"Game: {result.game.message}")
    _print(lines)
    return EXIT_OK if result.legal else EXIT_ILLEGAL


def _cmd_validate(args, reader: _Reader) -> int:
    pos_value, pos_label = _position_arg(args.position, reader)
    with _worded(_labeller({"position": pos_label})):
        v = validate_request.run(validate_request.load({"position": pos_value}))
    if args.json:
        _print_json(validate_request.dump(v))
        return EXIT_OK if v.consistent else EXIT_ILLEGAL
    broken = sorted({c.rule for c in v.checks if c.status == FAILED}, key=[c.rule for c in v.checks].index)
    if v.consistent:
        lines = ["Consistent: the position meets every condition of D-3.", ""]
    else:
        lines = [f"Not consistent: {len(broken)} condition{'' if len(broken) == 1 else 's'} broken "
                 f"({', '.join(broken)}).", ""]
    lines += checklist(v.checks)
    lines += ["", f"HPN: {_hpn(v.position)}"]
    if v.consistent:
        lines += [f"Game: {v.game.message}",
                  f"Cooldown skip: {'applies' if v.cooldown_skip else 'does not apply'}.",
                  f"Legal turns: {v.legal_turns}."]
    _print(lines)
    return EXIT_OK if v.consistent else EXIT_ILLEGAL


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


def _cmd_render(args, reader: _Reader) -> int:
    from checker.render import render_svg

    pos_value, pos_label = _position_arg(args.position, reader)
    body = {"position": pos_value}
    roots = {"position": pos_label}
    if args.turn is not None:
        body["turn"], roots["turn"] = _turn_arg(args.turn, reader)
    with _worded(_labeller(roots)):
        data = load(RenderRequestSchema(), body)   # the body of POST /v1/render; --highlight is read below
        position = consistent(data["position"], "position")
    turn = data.get("turn")
    verdict = None if turn is None else check(position, turn, validate=False)
    svg = render_svg(position, highlight=_highlight(args.highlight), verdict=verdict)
    if isinstance(svg, bytes):
        svg = svg.decode("utf-8")
    if args.output == "-":
        sys.stdout.write(svg if svg.endswith("\n") else svg + "\n")
        return EXIT_OK
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(svg)
    except OSError as exc:
        raise BadInput(f"-o: cannot write {args.output!r}: {exc.strerror or exc}") from None
    return EXIT_OK


# ------------------------------------------- perft, engine and conform ------

def _cmd_perft(args, reader: _Reader) -> int:
    pos_value, pos_label = _position_arg(args.position, reader)
    body = {"position": pos_value, "depth": args.depth, "divide": args.divide}
    with _worded(_labeller({"position": pos_label, "depth": "--depth", "divide": "--divide"})):
        data = perft_request.load(body)
        position = consistent(data["position"], "position")
    dumped = perft_request.dump(perft_count(position, data["depth"], data["divide"]))
    if args.json:
        _print_json(dumped)
        return EXIT_OK
    lines = [f"{d['turn']}: {d['nodes']}" for d in dumped.get("divide", [])]
    _print(lines + ([""] if lines else []) + [f"Nodes: {dumped['nodes']}"])
    return EXIT_OK


def _cmd_engine(args, reader: _Reader) -> int:
    from checker.engine import serve

    return serve()


def _cmd_conform(args, reader: _Reader) -> int:
    from checker.conform import Options, run

    if args.timeout <= 0:
        raise BadInput(f"--timeout: {args.timeout:g} is not a number of seconds above 0")
    if args.depth < 0:
        raise BadInput(f"--depth: {args.depth} is below 0")
    return run(Options(args.engine, args.depth, args.timeout, None if args.no_vectors else args.vectors,
                       args.positions, args.first), out=_print)


def _add_perft_commands(sub) -> None:
    pf = sub.add_parser("perft", help="count the legal turn sequences of a length (perft)",
                        description="Count the legal turn sequences of length N from a position (a turn that "
                                    "ends the game ends its sequence; no history is carried). With --divide, "
                                    "each legal turn's count first. See docs/perft.md.")
    pf.add_argument("position", metavar="POSITION", help=_POSITION_HELP)
    pf.add_argument("--depth", metavar="N", type=int, required=True, help="the length of the sequences, 0-60")
    pf.add_argument("--divide", action="store_true", help="also print every legal turn's count")
    pf.add_argument("--json", action="store_true", help="print the HTTP body (POST /v1/perft) as JSON")
    pf.set_defaults(run=_cmd_perft)

    en = sub.add_parser("engine", help="speak the engine protocol on stdin/stdout",
                        description="Answer engine-protocol requests (docs/engine.md), one JSON object per line "
                                    "on stdin, one answer per line on stdout, until quit or the end of input.")
    en.set_defaults(run=_cmd_engine)

    cf = sub.add_parser("conform", help="test another engine against the checker",
                        description="Start COMMAND (through the shell), talk to it with the engine protocol "
                                    "(docs/engine.md) and compare its answers with the checker's: every "
                                    "conformance vector, then perft over the published table with the divide "
                                    "descent on a difference.",
                        epilog="Exit status: 0 everything agrees, 1 a difference was found, 2 the engine broke "
                               "the protocol (no answer in time, bad JSON, a wrong id, it exited) or bad input.")
    cf.add_argument("--engine", metavar="COMMAND", required=True, help="the engine's command line")
    cf.add_argument("--depth", metavar="N", type=int, default=2,
                    help="perft to this depth (default 2; the table goes to 2, the start to 3; 0: no perft)")
    cf.add_argument("--timeout", metavar="S", type=float, default=10.0,
                    help="seconds to wait for each answer (default 10)")
    cf.add_argument("--vectors", metavar="GLOB", default="*",
                    help="only the vectors whose id matches, e.g. 'hand-*' (default: all)")
    cf.add_argument("--no-vectors", action="store_true", help="skip the vectors")
    cf.add_argument("--positions", metavar="GLOB", default="*",
                    help="only the perft table positions whose name matches, e.g. 'start' (default: all)")
    cf.add_argument("--first", action="store_true", help="stop at the first difference")
    cf.set_defaults(run=_cmd_conform)


# ------------------------------------------------------------- parsing ------

class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error: ``hexodic-check: error: ...``."""

    def error(self, message: str):
        sub = self.prog[len(PROG):].strip()
        where = f"{sub}: " if sub else ""
        self.exit(EXIT_BAD_INPUT, f"{PROG}: error: {where}{_one_line(message)} (see '{self.prog} --help')\n")


_POSITION_HELP = "HPN text, a file holding HPN or a JSON position, or - for stdin"
_TURN_HELP = "HTN text (e.g. 'c3 +d4'), inline JSON, or a file holding a JSON turn"


def _cmd_vectors(args, reader: _Reader) -> int:
    """Print the conformance vectors, or compare another implementation's answers with them."""
    from . import vectors as vec

    shipped = vec.load()
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
    from . import answers

    text, _ = _file_arg(args.answers, reader, "ANSWERS")
    report = answers.compare(_lines(text), shipped)
    if report.errors:
        shown = report.errors[:ERRORS_SHOWN]
        more = len(report.errors) - len(shown)
        raise BadInput(f"ANSWERS {'; '.join(shown)}" + (f"; and {more} more" if more else ""))
    _print(report.differences)
    _print(f"{report.agree} of {report.total} vectors agree")
    return EXIT_OK if not report.differences else EXIT_ILLEGAL


ERRORS_SHOWN = 10  # of an answers file's errors, on the one line of a bad-input message


def _cmd_rules(args, reader: _Reader) -> int:
    """Print the text of a catalogue entry (a rule id, capture kind, end-of-game
    reason or decided reading), or of every entry."""
    from checker.catalogue import ENTRIES
    from checker.reference import plain_entry

    if args.id is None:
        entries = list(ENTRIES.values())
    else:
        by_lower = {k.lower(): e for k, e in ENTRIES.items()}
        entry = by_lower.get(args.id.strip().lower())
        if entry is None:
            raise BadInput(f"ID: {args.id!r} is no rule id, capture kind, end-of-game reason or decided reading "
                           f"(run '{PROG} rules' for all of them)")
        entries = [entry]
    if args.json:
        dumped = rule_catalogue.dump(entries)
        _print_json(dumped if args.id is None else dumped[0])
        return EXIT_OK
    lines: list[str] = []
    for e in entries:
        if lines:
            lines.append("")
        lines += plain_entry(e).splitlines()
    _print(lines)
    return EXIT_OK


def _version() -> str:
    try:
        from importlib.metadata import version
        v = version("hexodic-checker")
    except Exception:  # not installed: running from a checkout
        v = "unknown"
    return f"{PROG} {v} (rules version {RULES_VERSION})"


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="The Hexodic rules engine from the command line: is a turn legal, and why?",
                epilog="Exit status: 0 legal / consistent, 1 illegal / inconsistent, 2 bad input.")
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)

    c = sub.add_parser("check", help="check one turn and explain the verdict",
                       description="Check one turn: the verdict's summary, then one line per rule "
                                   "(✓ passed, ✗ failed, – not applicable).")
    c.add_argument("position", metavar="POSITION", help=_POSITION_HELP)
    c.add_argument("turn", metavar="TURN", help=_TURN_HELP)
    c.add_argument("--history", metavar="FILE",
                   help="the game's earlier positions, oldest first: a JSON list (HPN strings or JSON "
                        "positions) or one HPN per line; without it repetition and threefold are not evaluated")
    c.add_argument("--json", action="store_true", help="print the HTTP verdict (POST /v1/check) as JSON")
    c.set_defaults(run=_cmd_check)

    lg = sub.add_parser("legal", help="list every legal turn",
                        description="List every legal turn in HTN, one per line, after a count line.")
    lg.add_argument("position", metavar="POSITION", help=_POSITION_HELP)
    lg.add_argument("--project", metavar="P", help="only turns beginning with this Project (c3, c3-c4, skip)")
    lg.add_argument("--shape", metavar="S", help="with --project: only turns with this Shape (+d4, -d4)")
    lg.add_argument("--json", action="store_true", help="print the HTTP body (POST /v1/legal-turns) as JSON")
    lg.set_defaults(run=_cmd_legal)

    r = sub.add_parser("replay", help="check and apply a game's turns in order",
                       description="Check and apply turns in order from the start position (or the JSON "
                                   "body's start), stopping at the first illegal turn.")
    r.add_argument("file", metavar="FILE",
                   help="a JSON file with the /v1/replay body {turns, start?, history?}, or a text file with "
                        "one HTN turn per line (blank lines and lines starting with # are ignored); - for stdin")
    r.add_argument("--json", action="store_true", help="print the HTTP body (POST /v1/replay) as JSON")
    r.set_defaults(run=_cmd_replay)

    v = sub.add_parser("validate", help="check a position's consistency (D-3)",
                       description="Check every position.* condition of D-3 and, for a consistent position, "
                                   "its state.")
    v.add_argument("position", metavar="POSITION", help=_POSITION_HELP)
    v.add_argument("--json", action="store_true", help="print the HTTP body (POST /v1/validate) as JSON")
    v.set_defaults(run=_cmd_validate)

    d = sub.add_parser("render", help="draw a position as SVG",
                       description="Draw the board (tiers, stones, locks, highlighted cells) as SVG.")
    d.add_argument("position", metavar="POSITION", help=_POSITION_HELP)
    d.add_argument("turn", metavar="TURN", nargs="?", help="optionally a turn to show: " + _TURN_HELP)
    d.add_argument("-o", "--output", metavar="OUT", required=True, help="the SVG file to write; - for stdout")
    d.add_argument("--highlight", metavar="CELLS", help="comma-separated cells to highlight, e.g. c3,d4")
    d.set_defaults(run=_cmd_render)

    vc = sub.add_parser("vectors", help="print the conformance vectors, or check answers against them",
                        description="Without --answers: print the conformance vectors (JSON Lines, a header "
                                    "line first). With --answers FILE: compare another implementation's answers "
                                    "(JSON Lines, one {id, legal, violations, after?, game?} per vector, as "
                                    "answers.schema.json says; GET /v1/vectors/schema) with the vectors: "
                                    "violations as a set, after as a position; exit 1 when any differs or is "
                                    "missing, 2 when a line is not an answer, names an unknown id or repeats "
                                    "an id.")
    vc.add_argument("--answers", metavar="FILE", help="the answers to check, JSON Lines; - for stdin")
    vc.add_argument("-o", "--output", metavar="OUT", help="with no --answers: write the vectors here")
    vc.set_defaults(run=_cmd_vectors)
    _add_perft_commands(sub)

    ru = sub.add_parser("rules", help="print the text of a rule (of every rule without an ID)",
                        description="Print the checker's own text of a rule id (place.cooldown), a capture kind "
                                    "(capture.echo), an end-of-game reason (end.tiebreak) or a decided reading "
                                    "(D-10): its title, where it belongs, its source, its full text and its "
                                    "links. Without an ID, every entry of the rules reference.")
    ru.add_argument("id", metavar="ID", nargs="?", help="e.g. place.cooldown, capture.echo, end.tiebreak or D-10")
    ru.add_argument("--json", action="store_true", help="print the entries as GET /v1/rules gives them")
    ru.set_defaults(run=_cmd_rules)
    return p


# ---------------------------------------------------------------- main ------

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
        status = args.run(args, _Reader())
        sys.stdout.flush()
        return status
    except BadInput as exc:
        sys.stderr.write(f"{PROG}: error: {_one_line(str(exc))}\n")
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
        sys.stderr.write(f"{PROG}: internal error (a bug in the checker, please report it): "
                         f"{type(exc).__name__}: {_one_line(str(exc))}\n")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
