"""The engine protocol, version 1 (docs/engine.md): the checker as an engine.

``hexodic-check engine`` reads one JSON request per line on standard input
and writes one JSON answer per line on standard output, so that a driver
(``hexodic-check conform``, or an engine author's own) can talk to the
checker exactly as it talks to any other Hexodic engine:

>>> handle({"id": 1, "op": "hello"})["ops"]
['legal-turns', 'play', 'check']
>>> handle({"id": 2, "op": "play", "position": START_HPN, "turn": "c3 +d4"})
{'id': 2, 'position': '0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1'}
>>> handle({"id": 3, "op": "check", "position": START_HPN, "turn": "d4 +c3", "history": None})
{'id': 3, 'legal': False, 'violations': ['place.opening-restriction']}
>>> handle({"id": 4, "op": "play", "position": START_HPN, "turn": "d4 +c3"})["error"]
'the turn d4 +c3 is not legal (place.opening-restriction)'

Positions are HPN and turns HTN (RULES §10).  A request the engine cannot
answer gets ``{"id": ..., "error": "..."}`` (``id`` null when the line is
not a JSON object with an id); ``quit`` gets no answer and ends the loop.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TextIO

from checker.generate import legal_turns, turn_is_legal
from checker.legality import check
from checker.notation import (
    START_HPN,
    NotationError,
    parse_hpn,
    parse_htn,
    position_to_hpn,
    turn_to_htn,
)
from checker.play import apply
from checker.position import Position
from checker.service.problems import json_type
from checker.version import RULES_VERSION

__all__ = ["PROTOCOL", "OPS", "NAME", "handle", "serve", "START_HPN"]

PROTOCOL = 1
OPS = ["legal-turns", "play", "check"]
NAME = f"hexodic-checker (the rules engine, rules version {RULES_VERSION})"
_ALL_OPS = ("hello", *OPS, "quit")


class _Refusal(Exception):
    """A request the engine cannot answer; the message is the error text."""


def _position(request: dict, key: str = "position") -> Position:
    text = request.get(key)
    if not isinstance(text, str):
        raise _Refusal(f"{key}: expected an HPN string, not {json_type(text)}")
    try:
        pos = parse_hpn(text)
    except NotationError as exc:
        raise _Refusal(f"{key}: {exc}") from None
    problems = pos.problems()
    if problems:
        raise _Refusal(f"{key}: not a consistent position: " + " ".join(f"[{p.rule}] {p.message}" for p in problems))
    return pos


def _turn(request: dict):
    text = request.get("turn")
    if not isinstance(text, str):
        raise _Refusal(f"turn: expected an HTN string, not {json_type(text)}")
    try:
        return parse_htn(text)
    except NotationError as exc:
        raise _Refusal(f"turn: {exc}") from None


def _history(request: dict) -> list[Position] | None:
    items = request.get("history")
    if items is None:
        return None
    if not isinstance(items, list):
        raise _Refusal(f"history: expected a list of HPN strings or null, not {json_type(items)}")
    return [_position({"item": h}, "item") for h in items]


def _answer(request: dict) -> dict:
    op = request.get("op")
    if op == "hello":
        return {"name": NAME, "protocol": PROTOCOL, "ops": list(OPS)}
    if op == "legal-turns":
        pos = _position(request)
        return {"turns": [turn_to_htn(t, pos) for t in legal_turns(pos)]}
    if op == "play":
        pos, turn = _position(request), _turn(request)
        if not turn_is_legal(pos, turn):  # the checker's fast path; check says why it refuses
            verdict = check(pos, turn, assume_consistent=True)
            raise _Refusal(f"the turn {verdict.turn} is not legal ({', '.join(verdict.violations)})")
        return {"position": position_to_hpn(apply(pos, turn, events=False).position)}
    if op == "check":
        pos, turn, history = _position(request), _turn(request), _history(request)
        verdict = check(pos, turn, history, assume_consistent=True)
        return {"legal": verdict.legal, "violations": verdict.violations}
    raise _Refusal(f"unknown op {op!r}; the ops are {', '.join(_ALL_OPS)}")


def handle(request) -> dict | None:
    """The answer to one request (a parsed JSON value), or ``None`` for
    ``quit``."""
    if not isinstance(request, dict) or "id" not in request:
        return {"id": None, "error": "a request is a JSON object with an id and an op"}
    if request.get("op") == "quit":
        return None
    try:
        body = _answer(request)
    except _Refusal as exc:
        return {"id": request["id"], "error": str(exc)}
    except Exception as exc:  # a bug in the checker: still an answer, so the driver can go on
        return {"id": request["id"], "error": f"internal error (a bug in the checker): {type(exc).__name__}: {exc}"}
    return {"id": request["id"], **body}


def read(line: str):
    """One request line as a JSON value; a line that is not JSON is answered
    with an error by :func:`serve`."""
    return json.loads(line)


def serve(
    stdin: TextIO | None = None, stdout: TextIO | None = None, handler: Callable[[object], dict | None] = handle
) -> int:
    """Answer requests until ``quit`` or the end of the input; returns 0."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    while True:
        line = stdin.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        try:
            request = read(line)
        except (ValueError, RecursionError) as exc:
            answer = {"id": None, "error": f"not a JSON line: {exc}"}
        else:
            handled = handler(request)
            if handled is None:
                return 0
            answer = handled
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()


if __name__ == "__main__":
    raise SystemExit(serve())
