"""What every ``hexodic-check`` command shares: reading arguments (text, a
file or stdin), naming the request pipeline's errors in the command's terms,
and printing.  Imports the request pipeline, never a web framework."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from checker.legality import FAILED, NOT_APPLICABLE, PASSED, Check, Verdict
from checker.notation import NotationError, position_to_hpn
from checker.position import Position
from checker.service.pipeline import loads
from checker.service.problems import (
    InconsistentRequest,
    RequestError,
    SchemaError,
    error_paths,
    json_type,
)

PROG = "hexodic-check"
MARKS = {PASSED: "✓", FAILED: "✗", NOT_APPLICABLE: "–"}

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class BadInput(Exception):
    """Input the command cannot use; the message is one line naming what is wrong."""


# ------------------------------------------------------------ reading ------


def one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


class Reader:
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
        return decode(raw, label, "stdin") if isinstance(raw, bytes) else raw.lstrip("\ufeff")

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
        return decode(raw, name, repr(path))


def decode(raw: bytes, label: str, where: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{label}: {where} is not UTF-8 text (byte {exc.start + 1} is not valid)") from None


def read_json(text: str, label: str):
    """JSON as the HTTP service reads it (no NaN or Infinity)."""
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{label}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise BadInput(f"{label}: not valid JSON: nesting too deep") from None
    except ValueError as exc:
        raise BadInput(f"{label}: not valid JSON: {exc}") from None


def is_json_text(text: str) -> bool:
    return text.lstrip().startswith(("{", "[", '"'))


def text_lines(text: str) -> list[tuple[int, str]]:
    """Non-blank lines not starting with '#', with their 1-based numbers."""
    return [
        (n, line.strip())
        for n, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.strip().startswith("#")
    ]


def single_line_value(text: str, label: str, what: str):
    """A file's or stdin's content: JSON, or one line of notation."""
    if is_json_text(text):
        return read_json(text, label)
    lines = text_lines(text)
    if not lines:
        raise BadInput(f"{label}: empty: expected {what}")
    if len(lines) > 1:
        raise BadInput(
            f"{label}: {len(lines)} lines (lines {lines[0][0]} and {lines[1][0]}, ...); expected one line "
            f"holding {what}"
        )
    return lines[0][1]


def has_space(text: str) -> bool:
    return any(ch.isspace() for ch in text)


def position_arg(arg: str, reader: Reader, name: str = "POSITION") -> tuple[object, str]:
    """The JSON value of a POSITION argument (an HPN string or a JSON value)
    and the label naming it in messages."""
    if arg == "-":
        label = f"{name} (stdin)"
        return single_line_value(reader.stdin(label), label, "an HPN position"), label
    if os.path.exists(arg) and not is_json_text(arg):
        label = f"{name} ({arg})"
        return single_line_value(reader.file(arg, name), label, "an HPN position"), label
    if is_json_text(arg):
        return read_json(arg, name), name
    if has_space(arg):
        return arg, name
    raise BadInput(f"{name}: no such file: {arg!r} (HPN text has 5 space-separated fields)")


def turn_arg(arg: str, reader: Reader, name: str = "TURN") -> tuple[object, str]:
    """The JSON value of a TURN argument (an HTN string or a JSON value)."""
    if arg == "-":
        label = f"{name} (stdin)"
        return single_line_value(reader.stdin(label), label, "an HTN turn"), label
    if is_json_text(arg):
        return read_json(arg, name), name
    if os.path.isfile(arg):
        label = f"{name} ({arg})"
        return single_line_value(reader.file(arg, name), label, "an HTN turn"), label
    if any(ch in arg for ch in "./\\"):  # HTN never holds these: a path that is not there
        raise BadInput(f"{name}: no such file: {arg!r}")
    return arg, name


def file_arg(path: str, reader: Reader, name: str) -> tuple[str, str]:
    """The text of a file argument (``-``: stdin) and its label for messages."""
    label = f"{name} (stdin)" if path == "-" else f"{name} ({path})"
    return (reader.stdin(label) if path == "-" else reader.file(path, name)), label


def history_arg(path: str, reader: Reader) -> tuple[list, str, list[int] | None]:
    """A --history file: a JSON list of positions, or one HPN per line.
    Returns the list, the label and, for a text file, each item's line number."""
    text, label = file_arg(path, reader, "--history")
    if is_json_text(text):
        value = read_json(text, label)
        if not isinstance(value, list):
            raise BadInput(
                f"{label}: expected a JSON list of positions (HPN strings or JSON objects), not {json_type(value)}"
            )
        return value, label, None
    lines = text_lines(text)
    return [line for _, line in lines], label, [n for n, _ in lines]


# ------------------------------------------------------- request errors ------

Labeller = Callable[[tuple[str, ...]], str]


def labeller(roots: dict[str, str], lines: dict[str, list[int] | None] | None = None) -> Labeller:
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


def wording(exc: RequestError, label: Labeller) -> str:
    """A request error as one line in the command's terms: a schema error under
    the arguments' names, every message; an inconsistent position with every
    broken condition."""
    if isinstance(exc, SchemaError):
        parts = [f"{label(path)}: {msg.rstrip('.')}" for path, msg in error_paths(exc.messages, exc.at)]
        return "; ".join(parts) or "the input does not match the schema"
    if isinstance(exc, InconsistentRequest):
        details = " ".join(f"[{p.rule}] {p.message}" for p in exc.problems)
        n = len(exc.problems)
        return f"{label(exc.at)} is not a consistent position ({n} broken condition{'s' if n != 1 else ''}): {details}"
    return exc.detail


@contextmanager
def worded(label: Labeller) -> Iterator[None]:
    """The request pipeline's errors inside the block as bad input, worded by :func:`wording`."""
    try:
        yield
    except RequestError as exc:
        raise BadInput(wording(exc, label)) from None


# -------------------------------------------------------------- output ------


def checklist(checks: Sequence[Check]) -> list[str]:
    """One line per check: mark, step label, rule id, message (columns aligned)."""
    if not checks:
        return []
    step_w = max(len(c.step) for c in checks)
    rule_w = max(len(c.rule) for c in checks)
    return [f"{MARKS.get(c.status, '?')} {c.step:<{step_w}}  {c.rule:<{rule_w}}  {c.message}" for c in checks]


def hpn_or_why(position: Position) -> str:
    try:
        return position_to_hpn(position)
    except NotationError as exc:
        return f"(none: {exc.message})"


def show(lines: Iterable[str] | str = "") -> None:
    if isinstance(lines, str):
        lines = [lines]
    out = sys.stdout
    for line in lines:
        out.write(one_line(line) + "\n")


def show_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def verdict_lines(verdict: Verdict) -> list[str]:
    lines = [verdict.summary, ""]
    lines += checklist(verdict.checks)
    out = verdict.outcome
    if out is not None:
        lines += ["", f"Position after the turn: {hpn_or_why(out.position)}"]
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


POSITION_HELP = "HPN text, a file holding HPN or a JSON position, or - for stdin"
TURN_HELP = "HTN text (e.g. 'c3 +d4'), inline JSON, or a file holding a JSON turn"
