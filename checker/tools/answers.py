"""Another implementation's answers to the conformance vectors, compared
with the vectors (``hexodic-check vectors --answers FILE``).

An answers file is JSON Lines, one answer per vector:
``{"id", "legal", "violations", "after"?, "game"?}``.  Its format and the
vectors' are published as JSON Schema (``checker/data/answers.schema.json``
and ``vectors.schema.json``; ``GET /v1/vectors/schema``), and the file is
read against that schema, so nothing in it is silently ignored:

- a line that is not JSON, or not an answer by the schema, is an error;
- an id that no vector has is an error, and so is an id answered twice;
- ``violations`` is compared as a set (the order carries no meaning);
- ``after`` is compared as a position (any accepted HPN spelling), and
  ``after`` and ``game`` only when the answer gives them.

>>> from checker.tools.vectors import read_vectors
>>> report = compare([(1, '{"id": "hand-open-02", "legal": false, "violations": ["place.opening-restriction"]}'),
...                   (2, '{"id": "nope", "legal": true, "violations": []}')],
...                  [v for v in read_vectors() if v["id"] == "hand-open-02"])
>>> report.errors
["line 2: unknown id 'nope': no vector has it"]
>>> report.agree, report.total, report.differences
(1, 1, [])
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from jsonschema import Draft202012Validator

from checker.notation import NotationError, parse_hpn

__all__ = ["SCHEMAS", "schema", "Report", "compare"]

SCHEMAS = {"vectors": "vectors.schema.json", "answers": "answers.schema.json"}
COMPARED = ("after", "game")  # compared when the answer has them


@cache
def _schema_text(name: str) -> str:
    return resources.files("checker.data").joinpath(SCHEMAS[name]).read_text(encoding="utf-8")


def schema(name: str) -> dict:
    """The JSON Schema of a line of the ``'vectors'`` or ``'answers'`` file."""
    return json.loads(_schema_text(name))


@cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name))


@dataclass
class Report:
    """``errors``: what is wrong with the file itself, by line;
    ``differences``: where a well-formed answer differs from its vector (or a
    vector has no answer); ``agree`` of ``total`` vectors agree."""

    errors: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    agree: int = 0
    total: int = 0


def _schema_errors(value) -> list[str]:
    out = []
    for e in sorted(_validator("answers").iter_errors(value), key=lambda e: list(e.absolute_path)):
        where = ".".join(str(p) for p in e.absolute_path)
        out.append(f"{where}: {e.message}" if where else e.message)
    return out


def _set(items: Iterable[str]) -> str:
    items = sorted(items)
    return ", ".join(items) if items else "(none)"


def _differences(vector: dict, answer: dict) -> list[str]:
    vid = vector["id"]
    out = []
    if answer["legal"] != vector["legal"]:
        out.append(f"{vid}: legal: expected {json.dumps(vector['legal'])}, got {json.dumps(answer['legal'])}")
    want, got = set(vector["violations"]), set(answer["violations"])
    if want != got:
        out.append(
            f"{vid}: violations (compared as a set): expected {_set(want)}, got {_set(got)} "
            f"(missing: {_set(want - got)}; extra: {_set(got - want)})"
        )
    if "after" in answer and not _same_position(vector["after"], answer["after"]):
        out.append(f"{vid}: after: expected {json.dumps(vector['after'])}, got {json.dumps(answer['after'])}")
    if "game" in answer and answer["game"] != vector["game"]:
        out.append(f"{vid}: game: expected {json.dumps(vector['game'])}, got {json.dumps(answer['game'])}")
    return out


def _same_position(want: str | None, got: str | None) -> bool:
    if want is None or got is None:
        return want == got
    try:
        return parse_hpn(got) == parse_hpn(want)
    except NotationError:
        return False


def compare(lines: Iterable[tuple[int, str]], vectors: list[dict]) -> Report:
    """Read the answers (``(line number, text)`` pairs, blank lines left
    out) and compare them with ``vectors``."""
    report = Report(total=len(vectors))
    by_id = {v["id"]: v for v in vectors}
    answers: dict[str, dict] = {}
    seen_on: dict[str, int] = {}
    for n, text in lines:
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as exc:
            report.errors.append(f"line {n}: not valid JSON: {exc}")
            continue
        problems = _schema_errors(value)
        if problems:
            report.errors.append(f"line {n}: not an answer (answers.schema.json): {'; '.join(problems)}")
            continue
        vid = value["id"]
        if vid not in by_id:
            report.errors.append(f"line {n}: unknown id {vid!r}: no vector has it")
        elif vid in seen_on:
            report.errors.append(f"line {n}: id {vid!r} is answered already, on line {seen_on[vid]}")
        else:
            seen_on[vid] = n
            answers[vid] = value
    for v in vectors:
        got = answers.get(v["id"])
        found = [f"{v['id']}: no answer"] if got is None else _differences(v, got)
        report.differences += found
        report.agree += not found
    return report
