"""Every quick loader refuses what its marshmallow schema refuses, and the
service answers such a body with the schema's status and the schema's fields.

The quick loaders are the paths that read a body without marshmallow's
per-field machinery, each derived from its schema by :func:`schemas.quick.quick`:
the position object's (every position field, :class:`schemas.fields.TextOrObject`'s
``quick``), the turn object's (every turn field) and the check request's (``POST
/v1/check`` and each item of a batch), and on the way out
:func:`schemas.writers.legal_turns_json` (``POST /v1/legal-turns``).

The bad bodies are made from the schemas' own declarations, not from a list
kept by hand: :func:`bad_bodies` walks a valid body beside its schema and, at
every level, adds an unknown key, leaves out each required field, gives each
field every JSON type it does not take, each choice of a ``OneOf`` in other
cases, and each limit (``Length``, ``Range``, the ``maxItems`` and
``maxProperties`` of the document, a text's ``max_length``, a game's
``max_turns``) at its value and one past it.  A field of a kind the walker
does not know is a TypeError, never a field left untried.

The reference is the schema alone: the quick objects of the TextOrObject fields
switched off (:func:`schema_only`) and the request schema's own ``load``."""

from __future__ import annotations

import copy
import http.client
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import orjson
import pytest
from marshmallow import Schema, fields, validate

from bench.server import HOST, running_gunicorn
from checker import board
from checker.notation import START_HPN, position_to_hpn
from checker.service import pipeline
from checker.service.problems import RequestError
from checker.web.api import bp
from checker.web.settings import DEFAULT_MAX_BODY
from schemas.fields import CellField, CellListField, StrictBoolean, TextOrObject
from schemas.perft import PerftRequestSchema
from schemas.position import PositionField, PositionObjectSchema
from schemas.quick import quick
from schemas.requests import (
    MAX_BATCH,
    BatchRequestSchema,
    CheckRequestSchema,
    LegalTurnsRequestSchema,
    RenderRequestSchema,
    ReplayRequestSchema,
    ValidateRequestSchema,
)
from schemas.responses import LegalTurnsSchema, PositionOutSchema
from schemas.turn import (
    MAX_SHEET_LENGTH,
    ProjectFilterField,
    ShapeFilterField,
    TurnField,
    TurnObjectSchema,
    TurnsField,
)
from tests.helpers import build

fast_position = quick(PositionObjectSchema)
fast_turn = quick(TurnObjectSchema)
quick_check_request = quick(CheckRequestSchema)

# ------------------------------------------------------------ valid bodies ----

BUILT = build({"c3": "1A", "d4": "2B*", "e5": "2"}, to_move="A", A={"cooldown": ["a1"], "reserve": 6}, check=False)
POSITION = PositionOutSchema().dump(BUILT)
"""A JSON position with every key at some level: d4 has tier, stone and locked."""
POSITION_HPN = position_to_hpn(BUILT)

PLACE = {"project": {"kind": "place", "cell": "c3"}, "shape": {"kind": "raise", "cell": "d4"}, "echo": None}
MOVE = {
    "project": {"kind": "move", "from": "B2", "to": "a1"},
    "shape": {"kind": "lower", "cell": "B1"},
    "echo": {"kind": "capture", "cell": "f6"},
}
SKIP = {"project": {"kind": "skip"}, "shape": None, "echo": {"kind": "lock", "cell": "D4"}}
TURNS = (PLACE, MOVE, SKIP)

TEXT = {PositionField: START_HPN, TurnField: "c3 +d4", ProjectFilterField: "c3", ShapeFilterField: "+d4"}
"""A valid text of each TextOrObject field (its limit is tried on it, padded with spaces)."""

CHECK = [
    {"position": POSITION, "turn": PLACE, "history": [START_HPN, POSITION]},
    {"position": START_HPN, "turn": MOVE, "history": None},
    {"position": POSITION, "turn": SKIP, "history": []},
    {"position": START_HPN, "turn": "c3 +d4", "history": [POSITION]},
]

BASES: dict[type[Schema], list[dict]] = {
    CheckRequestSchema: CHECK,
    BatchRequestSchema: [{"items": [CHECK[0], None, CHECK[3]]}],
    ReplayRequestSchema: [
        {"turns": [PLACE, "d4 +c3"], "start": POSITION, "history": [START_HPN]},
        {"turns": "1. c3 d4\n2. e5", "start": START_HPN, "history": None},
    ],
    LegalTurnsRequestSchema: [
        {
            "position": POSITION,
            "history": [START_HPN],
            "project": {"kind": "place", "cell": "c2"},
            "shape": {"kind": "raise", "cell": "d4"},
            "form": "objects",
        },
        {"position": POSITION_HPN, "history": None, "project": "c2", "shape": "+c3", "form": "htn"},  # Echoes too
    ],
    ValidateRequestSchema: [{"position": POSITION}, {"position": START_HPN}],
    PerftRequestSchema: [{"position": POSITION, "depth": 1, "divide": True}],
    RenderRequestSchema: [{"position": POSITION, "highlight": ["c3", "D4"], "turn": MOVE, "history": [START_HPN]}],
}

# -------------------------------------------------------------- the walker ----

EXTRA = "not_a_field"
SAMPLES = (None, True, 1, 1.0, 1.5, "c3", [], {})


def json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(value)]


def json_types(field: fields.Field) -> set[str] | None:
    """The JSON types ``field`` takes, read from its class (None: any)."""
    if isinstance(field, TextOrObject):
        kinds = {"string", "object"}
    elif isinstance(field, TurnsField):
        kinds = {"string", "array"}
    elif isinstance(field, CellListField | fields.List):
        kinds = {"array"}
    elif isinstance(field, fields.Nested):
        kinds = {"array"} if field.many else {"object"}
    elif isinstance(field, fields.Dict):
        kinds = {"object"}
    elif isinstance(field, fields.Integer) and field.strict:
        kinds = {"integer"}
    elif isinstance(field, StrictBoolean):
        kinds = {"boolean"}
    elif isinstance(field, fields.String | CellField | fields.Enum):
        kinds = {"string"}
    elif type(field) is fields.Raw:
        return None
    else:
        raise TypeError(f"{type(field).__name__}: this test does not know the JSON types it takes")
    return kinds | {"null"} if field.allow_none else kinds


@dataclass(frozen=True)
class Bad:
    """One body made from a valid one: what was changed, and whether the schema must refuse it
    (True) or may take it (None: at a limit, a case variant, a key allowed by kind)."""

    what: str
    body: Any
    refused: bool | None


Variant = tuple[str, Any, bool | None]


def choices(field: fields.Field) -> list[str]:
    if isinstance(field, fields.Enum):
        return [str(m.value) for m in field.enum]
    return [c for v in field.validators if isinstance(v, validate.OneOf) for c in v.choices]


def sized(field: fields.Field) -> Iterator[int]:
    """The largest size ``field`` declares: its Length's max, its document's maxItems or maxProperties,
    its text's max_length or its game's max_turns."""
    for v in field.validators:
        if isinstance(v, validate.Length) and v.max is not None:
            yield v.max
    for key in ("maxItems", "maxProperties"):
        if key in field.metadata:
            yield field.metadata[key]
    if isinstance(field, TurnsField):
        yield field.max_turns


def _padded(text: str, n: int) -> str:
    assert len(text) <= n
    return text + " " * (n - len(text))


def _list_of(field: fields.Field, value: list, n: int) -> list:
    """``n`` items for a list field: distinct cell names for a list of cells (upper case once they run
    out), else copies of the first item."""
    if isinstance(field, CellListField):
        names = [*board.NAMES, *(name.upper() for name in board.NAMES)]
        return names[:n]
    return [copy.deepcopy(value[0]) for _ in range(n)]


def _sheet(n: int) -> str:
    return "\n".join(f"{i + 1}. c3" for i in range(n))


def item_field(field: fields.Field) -> fields.Field | None:
    if isinstance(field, TurnsField):
        return TurnField()
    if isinstance(field, fields.List):
        return field.inner
    return None


def field_variants(field: fields.Field, value) -> Iterator[Variant]:
    """Bad (and boundary) values of ``field`` made from its valid ``value``."""
    kinds = json_types(field)
    if kinds is not None:
        for sample in SAMPLES:
            if json_type(sample) not in kinds:
                yield f"{json_type(sample)} {sample!r}", sample, True
    for choice in choices(field):
        for other in {choice.upper(), choice.title(), choice + " ", ""} - {choice}:
            yield f"{other!r} for {choice!r}", other, other not in choices(field)
    for v in field.validators:
        if isinstance(v, validate.Range):
            for n, refused in ((v.min, None), (v.min - 1, True), (v.max, None), (v.max + 1, True)):
                if n is not None:
                    yield f"{n} (Range {v.min}..{v.max})", n, refused
    for n in sized(field):
        for size, refused in ((n, None), (n + 1, True)):
            if isinstance(value, list) and (value or isinstance(field, CellListField)):
                yield f"{size} items (at most {n})", _list_of(field, value, size), refused
            elif isinstance(value, dict) and isinstance(field, fields.Dict) and value:
                keys = [*board.NAMES, board.NAMES[0].upper()][:size]
                first = next(iter(value.values()))
                yield f"{size} keys (at most {n})", {k: copy.deepcopy(first) for k in keys}, refused
            if isinstance(field, TurnsField):
                yield f"a score sheet of {size} turns (at most {n})", _sheet(size), refused
    if isinstance(field, TurnsField):
        for size, refused in ((MAX_SHEET_LENGTH, None), (MAX_SHEET_LENGTH + 1, True)):
            yield f"a score sheet of {size} characters", _padded("1. c3", size), refused
    if isinstance(field, TextOrObject):
        text = TEXT[type(field)]
        for size, refused in ((field.max_length, None), (field.max_length + 1, True)):
            yield f"{field.notation} text of {size} characters", _padded(text, size), refused
        yield f"{field.notation} text that does not parse", "h9 x", True
        if isinstance(value, dict):
            yield from schema_variants(field.schema(), value)
    if isinstance(field, CellField):
        for other in ("h9", "c33", "", "c3 ", "C3", "c0003"):
            yield f"cell {other!r}", other, None
    if isinstance(field, CellListField) and isinstance(value, list):
        yield "a cell twice", [*value, "g7", "G7"], True
        yield "not a cell", [*value, "h9"], True
        yield "a number among the cells", [*value, 3], True
    if isinstance(field, fields.Nested) and isinstance(value, dict):
        yield from schema_variants(field.schema, value)
    inner = item_field(field)
    if inner is not None and isinstance(value, list):
        for i, item in enumerate(value):
            for what, new, refused in field_variants(inner, item):
                yield f"[{i}] {what}", [*value[:i], new, *value[i + 1 :]], refused
    if isinstance(field, fields.Dict) and isinstance(value, dict):
        for name, item in value.items():
            for what, new, refused in field_variants(field.value_field, item):
                yield f"{name}: {what}", {**value, name: new}, refused
            yield f"{name} named twice ({name.upper()})", {**value, name.upper(): item}, None
            for n in sized(field.key_field):
                for key, refused in ((_padded(name, n), None), (_padded(name, n + 1), True)):
                    yield f"key {key!r} ({n} characters at most)", {**value, key: item}, refused
        yield "a key that is no cell", {**value, "h9": {}}, True


def _sample(field: fields.Field):
    """A valid value for a declared field the valid body leaves out (a Project's keys of another kind,
    a cell's state left at its default)."""
    if isinstance(field, CellField):
        return "a1"
    if isinstance(field, StrictBoolean):
        return False
    if isinstance(field, fields.Integer):
        return 0
    if choices(field):
        return choices(field)[0]
    raise TypeError(f"{type(field).__name__}: give the valid body a value for it")


def schema_variants(schema: Schema, value: dict) -> Iterator[Variant]:
    """Bad (and boundary) objects for ``schema`` made from its valid ``value``."""
    yield f"an unknown key {EXTRA!r}", {**value, EXTRA: 1}, True
    for name, field in schema.load_fields.items():
        key = field.data_key or name
        if key not in value:
            yield f"{key} given", {**value, key: _sample(field)}, None
            continue
        rest = {k: v for k, v in value.items() if k != key}
        yield f"{key} left out", rest, True if field.required else None
        for what, new, refused in field_variants(field, value[key]):
            yield f"{key}: {what}", {**value, key: new}, refused


def bad_bodies(schema_cls: type[Schema], bases: list[dict]) -> list[Bad]:
    return [Bad(what, body, refused) for base in bases for what, body, refused in schema_variants(schema_cls(), base)]


# ---------------------------------------------------------- the reference ----


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


@contextmanager
def schema_only():
    """Every quick path of the TextOrObject fields switched off: the schema alone judges."""
    assert {PositionField, TurnField} <= set(_subclasses(TextOrObject))
    assert TextOrObject.quick_objects
    try:
        TextOrObject.quick_objects = False
        yield
    finally:
        TextOrObject.quick_objects = True


def outcome(load: Callable[[Any], Any], body) -> tuple[str, Any]:
    """What ``load`` makes of ``body``: ("loaded", value) or ("refused", the problem answered)."""
    try:
        return "loaded", load(body)
    except RequestError as exc:
        return "refused", exc.problem()


def _schema_loader(schema_cls: type[Schema]) -> Callable[[Any], Any]:
    schema = schema_cls()
    return lambda body: pipeline.read(schema, body)


def _operations() -> dict[type[Schema], pipeline.Operation]:
    return {
        op.request: op
        for op in vars(pipeline).values()
        if isinstance(op, pipeline.Operation) and op.request is not None
    }


def _endpoints() -> list[tuple[str, type[Schema]]]:
    """Every endpoint of /v1 that reads a JSON body, with its request schema."""
    return [(e.path, e.request) for e in bp.endpoints if e.request is not None]


def _loader(schema_cls: type[Schema]) -> Callable[[Any], Any]:
    """How the service loads a body of ``schema_cls``: its operation's loader (a quick one for a check),
    else the schema (what ``Blueprint.declare`` does)."""
    op = _operations().get(schema_cls)
    return op.load if op is not None else _schema_loader(schema_cls)


BODIES = {schema_cls: bad_bodies(schema_cls, bases) for schema_cls, bases in BASES.items()}


# ------------------------------------------------------------------ tests ----


def test_every_endpoint_with_a_body_has_valid_bodies_here_and_they_load_both_ways():
    schemas = {schema for _, schema in _endpoints()}
    assert schemas == set(BASES)
    for schema_cls, bases in BASES.items():
        for body in bases:
            quick = outcome(_loader(schema_cls), body)
            with schema_only():
                slow = outcome(_schema_loader(schema_cls), body)
            assert quick[0] == "loaded" and quick == slow, (schema_cls.__name__, body, quick)


def test_the_quick_paths_are_taken_on_the_valid_bodies():
    """Else every comparison below would hold for want of a quick path."""
    assert fast_position(POSITION) is not None
    assert all(fast_turn(turn) is not None for turn in TURNS)
    assert all(quick_check_request(body) is not None for body in CHECK)


@pytest.mark.parametrize("schema_cls", list(BASES), ids=lambda s: s.__name__)
def test_the_schema_refuses_every_body_made_to_be_refused(schema_cls):
    """The walker's claims hold (each wrong type, unknown key, missing field and value past a limit is
    refused), so the comparisons below are over bad bodies."""
    with schema_only():
        load = _schema_loader(schema_cls)
        wrong = [b.what for b in BODIES[schema_cls] if b.refused and outcome(load, b.body)[0] != "refused"]
    assert not wrong
    assert sum(b.refused is True for b in BODIES[schema_cls]) >= 5


def _disagreements(quick_fn, schema_cls, bodies) -> list[str]:
    """``quick_fn`` (None: not mine) against ``schema_cls`` alone: a quick answer only where the schema
    loads, and then the schema's value."""
    out = []
    with schema_only():
        load = _schema_loader(schema_cls)
        for bad in bodies:
            kind, value = outcome(load, bad.body)
            quick = quick_fn(bad.body)
            if quick is not None and (kind != "loaded" or quick != value):
                out.append(f"{bad.what}: the quick loader gave {quick!r}, the schema {kind} {value!r}")
    return out


def test_fast_position_refuses_what_the_position_schema_refuses():
    bodies = bad_bodies(PositionObjectSchema, [POSITION])
    assert len(bodies) > 100
    assert not _disagreements(fast_position, PositionObjectSchema, bodies)


def test_fast_turn_refuses_what_the_turn_schema_refuses():
    bodies = bad_bodies(TurnObjectSchema, list(TURNS))
    assert len(bodies) > 100
    assert not _disagreements(fast_turn, TurnObjectSchema, bodies)


def test_the_quick_check_request_refuses_what_the_check_schema_refuses():
    assert not _disagreements(quick_check_request, CheckRequestSchema, BODIES[CheckRequestSchema])


@pytest.mark.parametrize("schema_cls", list(BASES), ids=lambda s: s.__name__)
def test_each_endpoint_loads_or_refuses_as_its_schema_alone(schema_cls):
    """The service's loader (quick paths on) against the schema alone (quick paths off): the same
    value, or the same problem (status 422, the same detail and the same fields named)."""
    load = _loader(schema_cls)
    quick = [outcome(load, bad.body) for bad in BODIES[schema_cls]]
    with schema_only():
        reference = _schema_loader(schema_cls)
        slow = [outcome(reference, bad.body) for bad in BODIES[schema_cls]]
    differ = [f"{b.what}: {q} != {s}" for b, q, s in zip(BODIES[schema_cls], quick, slow, strict=True) if q != s]
    assert not differ


def test_each_check_request_as_a_batch_item_is_answered_as_the_schema_alone_answers_it():
    """A batch loads each item with the quick check loader: the item's result (a verdict or its problem,
    the paths under items.0) is what the schema alone gives."""
    bodies = [b for b in BODIES[CheckRequestSchema] if b.refused][:MAX_BATCH]
    assert len(bodies) > 100
    quick = pipeline.batch_request({"items": [b.body for b in bodies]})
    with schema_only(), _check_by_schema():
        slow = pipeline.batch_request({"items": [b.body for b in bodies]})
    for i, (b, q, s) in enumerate(zip(bodies, quick["results"], slow["results"], strict=True)):
        assert q == s, (i, b.what)
        assert q["status"] == 422 and q["errors"][0]["path"].startswith(f"items.{i}"), (i, b.what)


@contextmanager
def _check_by_schema():
    op = pipeline.check_request
    saved = op._load
    op._load = pipeline.CheckRequestSchema().load
    try:
        yield
    finally:
        op._load = saved


def test_the_legal_turns_writer_writes_what_the_schema_dumps_for_each_body_the_schema_takes():
    """Over the legal-turns bodies at their limits, case variants and the like: the JSON text the
    service writes (quick loaders, the writer) is the schema's dump of the schema-alone load; a body
    refused is refused the same way."""
    op = pipeline.legal_turns_request
    taken = 0
    for bad in BODIES[LegalTurnsRequestSchema]:
        quick = outcome(op.text, bad.body)
        with schema_only():
            kind, loaded = outcome(_schema_loader(LegalTurnsRequestSchema), bad.body)
            if kind == "loaded":
                slow = outcome(lambda data: orjson.dumps(LegalTurnsSchema().dump(op.run(data))), loaded)
            else:
                slow = kind, loaded
        assert quick == slow, bad.what
        taken += quick[0] == "loaded"
    assert taken >= 10


# ----------------------------------------------------------------- HTTP ----


def _post(conn: http.client.HTTPConnection, path: str, body) -> tuple[int, dict]:
    """POST ``body`` on one kept-alive connection: the status and the JSON answer."""
    conn.request("POST", path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    return resp.status, json.loads(resp.read())


def test_over_http_each_refused_body_gets_the_schemas_status_and_fields():
    """Through gunicorn: refused bodies of every endpoint (every fourth: the loaders are compared on
    each above, in this process) are answered with the status, the detail and the fields
    (``errors[].path``) that the schema alone gives."""
    with running_gunicorn() as srv:
        conn = http.client.HTTPConnection(HOST, srv.port, timeout=30)
        for path, schema_cls in _endpoints():
            with schema_only():
                reference = _schema_loader(schema_cls)
                wanted = [(b, outcome(reference, b.body)) for b in BODIES[schema_cls][::4]]
            sent = 0
            for bad, (kind, problem) in wanted:
                if kind != "refused" or len(json.dumps(bad.body)) > DEFAULT_MAX_BODY:  # else a 413
                    continue
                status, answer = _post(conn, path, bad.body)
                assert status == problem["status"], (path, bad.what, answer)
                assert answer["errors"] == problem["errors"], (path, bad.what)
                assert answer["detail"] == problem["detail"], (path, bad.what)
                sent += 1
            assert sent >= 2, path
        conn.close()
