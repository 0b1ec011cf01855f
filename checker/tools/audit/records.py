"""A record of an archive read and judged: exactly one row.

A record is one JSON Lines line (text) or one Parquet row (a dict)::

    {"id": "g1" or 7, "turns": [HTN text or turn object, ...] or "a score sheet",
     "start": HPN (optional), "result": "A" | "B" | "draw" | null (optional)}

It is read whole before it is judged: anything unreadable makes it a
``bad-record`` (``error`` names the field), even after an illegal turn.
Then its turns are replayed as ``/v1/replay`` judges them, on the fast path
(:func:`checker.replay.replay_quickly`: each turn decided and applied without
composing explanations, the first illegal one judged by the full checker): ``illegal`` at the first illegal turn, ``result-mismatch`` when
every turn is legal but the claimed result is not the computed one (a claim
on a game still going on included), ``ok`` otherwise.

:func:`judge_chunk` is what a Dask worker runs: a pure function of its
records, so a retried chunk gives the same rows.

>>> row = judge('{"id": 1, "turns": "1. c3 +d4 e5 +d4; 2. e5 +d5", "result": null}', "a.jsonl", 1)
>>> row["status"], row["checked"], row["first_illegal"], row["violations"]
('illegal', 3, 2, ['place.empty'])
>>> judge('{"id": 2, "turns": ["c3 +d4"], "result": "A"}', "a.jsonl", 2)["status"]
'result-mismatch'
>>> judge('{"id": 3, "turns": 5}', "a.jsonl", 3)["error"]
'turns: expected a list of turns or a score sheet (a string), not a number'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import orjson
from marshmallow import ValidationError

from checker.notation import NotationError, parse_htn, turn_to_htn
from checker.position import MAX_HALF_MOVES, Position
from checker.replay import Replay, replay_quickly
from checker.scoresheet import parse_score_sheet
from checker.service.problems import json_type
from checker.turn import Turn
from schemas.position import PositionField
from schemas.turn import MAX_HTN_LENGTH, TurnField

__all__ = ["MAX_TURNS", "STATUSES", "COLUMNS", "Record", "judge", "judge_chunk", "sheet_of"]

MAX_TURNS = 1000
"""A record of more turns is a bad record (a game has at most 60 half-moves:
turns past its end are judged illegal, ``game.over``)."""

STATUSES = ("ok", "illegal", "result-mismatch", "bad-record")
RESULTS = ("A", "B", "draw")

# The row's columns, in order (the JSON Lines keys and the Parquet columns).
COLUMNS = (
    "line",
    "file",
    "id",
    "status",
    "checked",
    "first_illegal",
    "violations",
    "result",
    "reason",
    "claimed",
    "error",
)

Record = tuple[str, int, Any]
"""(file as given, 1-based line or row number, the line's text or bytes, or the Parquet row)."""

_TURN = TurnField()
_START = PositionField()


class _Bad(Exception):
    """What is wrong with a record, in plain words, naming the field."""


def _message(exc: ValidationError) -> str:
    messages: Any = exc.messages
    while isinstance(messages, dict):
        messages = next(iter(messages.values()))
    text = "; ".join(str(m) for m in messages) if isinstance(messages, list) else str(messages)
    return text.rstrip(".")


def _turns(value: object) -> list[Turn]:
    if isinstance(value, str):
        try:
            turns = parse_score_sheet(value)
        except NotationError as exc:
            raise _Bad(f"turns: the score sheet does not read: {exc.message}") from None
    elif isinstance(value, list):
        if len(value) > MAX_TURNS:
            raise _Bad(f"turns: {len(value):,} turns, more than {MAX_TURNS:,}")
        turns = []
        for i, item in enumerate(value):
            try:
                # HTN text straight to the parser TurnField would call (what it says of a miss, too)
                quick = isinstance(item, str) and len(item) <= MAX_HTN_LENGTH
                turns.append(parse_htn(item) if quick else _TURN.deserialize(item))
            except NotationError as exc:
                raise _Bad(f"turns[{i}]: HTN: {exc.message}") from None
            except ValidationError as exc:
                raise _Bad(f"turns[{i}]: {_message(exc)}") from None
    else:
        raise _Bad(f"turns: expected a list of turns or a score sheet (a string), not {json_type(value)}")
    if len(turns) > MAX_TURNS:
        raise _Bad(f"turns: {len(turns):,} turns, more than {MAX_TURNS:,}")
    return turns


def _start(value: object) -> Position | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Bad(f"start: expected an HPN position (a string), not {json_type(value)}")
    try:
        position = _START.deserialize(value)
    except ValidationError as exc:
        raise _Bad(f"start: {_message(exc)}") from None
    problems = position.problems()
    if problems:
        raise _Bad(f"start: not a consistent position ({problems[0].rule}: {problems[0].message})")
    return position


def _read(raw: Any) -> dict:
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _Bad(f"the line is not UTF-8 text (byte {exc.start + 1})") from None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise _Bad(f"the line is not JSON ({exc.msg})") from None
    if not isinstance(value, dict):
        raise _Bad(f"the record must be a JSON object, not {json_type(value)}")
    return value


def _id(record: dict) -> str | int:
    if "id" not in record:
        raise _Bad("id: missing")
    value = record["id"]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise _Bad(f"id: expected a string or an integer, not {json_type(value)}")
    return value


def judge(raw: Any, file: str, line: int, replayer: Callable[..., Replay] = replay_quickly) -> dict:
    """The row of one record (see the module's docstring).  ``replayer``: the
    benchmark's baseline passes :func:`checker.replay.replay`."""
    row: dict[str, Any] = dict.fromkeys(COLUMNS)
    row.update(line=line, file=file, checked=0, violations=[])
    try:
        record = _read(raw)
        row["id"] = _id(record)
        claimed = record.get("result")
        if claimed is not None and claimed not in RESULTS:
            raise _Bad(f'result: expected "A", "B", "draw" or null, not {_shown(claimed)}')
        row["claimed"] = claimed
        if "turns" not in record:
            raise _Bad("turns: missing")
        turns = _turns(record["turns"])
        start = _start(record.get("start"))
    except _Bad as exc:
        row.update(status="bad-record", error=str(exc))
        return row
    game = replayer(turns) if start is None else replayer(turns, start, [])
    row["checked"] = game.checked
    if game.first_illegal is not None:
        row.update(
            status="illegal", first_illegal=game.first_illegal.index, violations=game.first_illegal.verdict.violations
        )
    else:
        if game.game.over:
            row.update(result=game.game.result, reason=str(game.game.reason))
        row["status"] = "ok" if claimed is None or claimed == row["result"] else "result-mismatch"
    if row["status"] != "ok" and start is None:
        row["sheet"] = _sheet(turns)  # the report's /game link; not a column
    return row


def _sheet(turns: Sequence[Turn]) -> str | None:
    """The game as ``/game`` takes it (at most 60 turns), or None."""
    return "; ".join(turn_to_htn(t) for t in turns) if len(turns) <= MAX_HALF_MOVES else None


def sheet_of(raw: Any) -> str | None:
    """The report's ``/game`` link of a record judged by an earlier run
    (``--resume``: OUT holds its row, not its turns): its turns as a score
    sheet when it is read and replayed from the start position, else None."""
    try:
        record = _read(raw)
        if "turns" not in record or record.get("start") is not None:
            return None
        return _sheet(_turns(record["turns"]))
    except _Bad:
        return None


def _shown(value: object) -> str:
    text = orjson.dumps(value).decode()
    return text if len(text) <= 40 else text[:39] + "…"


def judge_chunk(records: Sequence[Record], replayer: Callable[..., Replay] = replay_quickly) -> list[dict]:
    """The rows of a chunk of records, in order: what each Dask task runs."""
    return [judge(raw, file, line, replayer) for file, line, raw in records]
