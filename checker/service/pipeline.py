"""The request pipeline without a web framework: JSON text → schema → checker →
schema → answer.

Each endpoint's work is an :class:`Operation`: its body loaded by its request
schema, answered by the checker, dumped by its response schema (compiled once,
:mod:`schemas.compiled`).  The views (:mod:`checker.web.api`), the command
line (:mod:`checker.tools.cli`) and ``bench/`` all call these functions; what cannot
be answered raises a :class:`~checker.service.problems.RequestError`.

>>> from checker.notation import START_HPN
>>> body = parse_json(('{"position": "%s", "turn": "d4 +c3"}' % START_HPN).encode())
>>> check_request(body)["violations"]
['place.opening-restriction']
>>> parse_json(b"[1]")
Traceback (most recent call last):
...
checker.service.problems.RequestError: The body must be a JSON object, not list.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson
from marshmallow import Schema, ValidationError

from checker.catalogue import ENTRIES
from checker.counting import BUDGET, BudgetExceeded, perft_count
from checker.generate import turn_groups
from checker.legality import Verdict, check, validate
from checker.position import Position
from checker.replay import replay
from checker.service.budget import pause
from checker.service.problems import (
    InconsistentRequest,
    Path,
    RequestError,
    SchemaError,
    dotted,
    json_type,
)
from schemas.compiled import dumper
from schemas.perft import PerftRequestSchema, PerftSchema
from schemas.requests import (
    BatchRequestSchema,
    CheckRequestSchema,
    LegalTurnsRequestSchema,
    ReplayRequestSchema,
    ValidateRequestSchema,
    load_check_request,
)
from schemas.responses import (
    BatchSchema,
    LegalTurnsSchema,
    ReplaySchema,
    RuleSchema,
    StartSchema,
    ValidationSchema,
    VerdictSchema,
)
from schemas.writers import legal_turns_json

# ------------------------------------------------------------------ JSON ----


class NotAJSONNumber(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity``, which Python's json reads and RFC 8259 does not allow."""

    def __init__(self, name: str):
        super().__init__(f"{name} is not a JSON number")
        self.name = name


def _no_constant(name: str):
    raise NotAJSONNumber(name)


# orjson reads an integer beyond 64 bits as a float, where the standard library keeps the int: any
# run of 19 digits goes to the standard library (found with translate and a substring search: a
# regular expression takes ten times longer).
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_RUN = b"0" * 19


def loads(text: bytes | str):
    """JSON as the service reads it: the standard library's reader, without
    ``NaN`` and the infinities (:class:`NotAJSONNumber`).  UTF-8 bytes are
    read by orjson first (a fifth of the time on a JSON position), which
    gives the same values for every text it accepts (tests/web/test_json_reading.py);
    what it refuses, and any text with a 19-digit run, the standard library
    reads, and words the error."""
    if type(text) is bytes and _LONG_RUN not in text.translate(_DIGITS_AS_ZERO):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text, parse_constant=_no_constant)


def _invalid_json(detail: str) -> RequestError:
    return RequestError(400, "invalid-json", "Invalid JSON", detail)


def parse_json(raw: bytes) -> dict:
    """A request body as a JSON object; a :class:`RequestError` (400) when it
    is not UTF-8 text, not JSON (RFC 8259: no NaN or Infinity), nested too
    deep or not an object."""
    try:
        data = loads(raw)
    except UnicodeDecodeError:
        raise _invalid_json("The body is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        raise _invalid_json(
            f"The body is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    except NotAJSONNumber as exc:
        raise _invalid_json(f"The body is not valid JSON: {exc} (RFC 8259).") from None
    except (ValueError, RecursionError):
        raise _invalid_json("The body is not valid JSON (a number too long or nesting too deep).") from None
    if not isinstance(data, dict):
        raise RequestError(
            400,
            "not-an-object",
            "Invalid JSON",
            f"The body must be a JSON object, not {type(data).__name__ if data is not None else 'null'}.",
        )
    return data


def encode(data) -> bytes:
    """An answer as JSON bytes.  orjson writes it (a verdict in a few µs, where
    the standard library takes ten times longer); text it cannot encode (a lone
    surrogate quoted back from the client's input) falls back to the standard
    library's ASCII-escaped ``json.dumps``."""
    try:
        return orjson.dumps(data)
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(data, separators=(",", ":")).encode()


# --------------------------------------------------------------- loading ----


def _loaded(load_fn: Callable[[Any], dict], data, at: Path) -> dict:
    try:
        return load_fn(data)
    except ValidationError as exc:
        raise SchemaError(exc.messages, at) from None


def read(schema: Schema, data, at: Path = ()) -> dict:
    """``data`` loaded by ``schema``; a :class:`SchemaError` (422) with paths
    under ``at`` when it does not match."""
    return _loaded(schema.load, data, at)


def consistent(position: Position, *at: str) -> Position:
    """``position`` when it is consistent (D-3); otherwise an
    :class:`InconsistentRequest` (422) listing every broken ``position.*``
    condition, for the position at ``at`` in the body."""
    problems = position.problems()
    if problems:
        raise InconsistentRequest(problems, at)
    return position


# ------------------------------------------------------------ operations ----


class Operation:
    """One endpoint's work: the body loaded by ``request`` (or by ``loader``,
    a quicker function with the schema's result), answered by ``run`` with the
    checker's values, the answer dumped by ``response`` (each of a list when
    ``many``).  ``run(data, at)`` gets the loaded body and where it sits (a
    batch item's ``("items", "3")``); without a request it takes nothing.

    Calling the operation does all three: ``check_request(data) -> dict``.
    :meth:`text` does the same and writes the answer as JSON text, with
    ``writer`` when one is given: a function of ``run``'s result writing the
    JSON text of what ``response`` dumps, faster (checked equal by the tests).
    """

    def __init__(
        self,
        run: Callable[..., Any],
        response: type[Schema],
        request: type[Schema] | None = None,
        loader: Callable[[Any], dict] | None = None,
        many: bool = False,
        writer: Callable[[Any], bytes] | None = None,
    ):
        self.run, self.response, self.request, self.many = run, response, request, many
        self._load: Callable[[Any], Any] | None = loader or (request().load if request is not None else None)
        self._dump = dumper(response)
        self.writer = writer

    def load(self, data, at: Path = ()) -> dict:
        """The body loaded; a :class:`SchemaError` when it does not match."""
        assert self._load is not None, "this operation reads no body"
        return _loaded(self._load, data, at)

    def dump(self, value):
        """The answer's JSON value (dicts and lists), as the response schema dumps it."""
        return [self._dump(v) for v in value] if self.many else self._dump(value)

    def _value(self, data, at: Path):
        return self.run() if self.request is None else self.run(self.load(data, at), at)

    def __call__(self, data=None, at: Path = ()):
        return self.dump(self._value(data, at))

    def text(self, data=None, at: Path = ()) -> bytes:
        """The answer as JSON text (:func:`encode`, or the ``writer``)."""
        value = self._value(data, at)
        return encode(self.dump(value)) if self.writer is None else self.writer(value)


def _judge(data: dict, at: Path = ()) -> Verdict:
    position = consistent(data["position"], *at, "position")
    return check(position, data["turn"], data["history"], assume_consistent=True)


check_request = Operation(_judge, VerdictSchema, CheckRequestSchema, loader=load_check_request)
"""``POST /v1/check``: load → consistency → check → dump."""


def _batch(data: dict, at: Path = ()) -> dict:
    results = []
    for i, item in enumerate(data["items"]):
        pause()  # between items, the worker's other requests run (checker.service.budget)
        where = (*at, "items", str(i))
        try:
            if not isinstance(item, dict):
                raise SchemaError({"_schema": [f"An item must be a JSON object, not {json_type(item)}."]}, where)
            results.append(check_request(item, where))
        except RequestError as exc:
            results.append(exc.problem())
    return {"results": results}


batch_request = Operation(_batch, BatchSchema, BatchRequestSchema)
"""``POST /v1/check/batch``: each item like ``POST /v1/check``, a malformed one answered by its problem."""


def _replay(data: dict, at: Path = ()):
    start = None if data["start"] is None else consistent(data["start"], *at, "start")
    return replay(data["turns"], start, data["history"])


replay_request = Operation(_replay, ReplaySchema, ReplayRequestSchema)
"""``POST /v1/replay``: the turns checked and applied in order."""


def _legal_turns(data: dict, at: Path = ()):
    position = consistent(data["position"], *at, "position")
    return position, turn_groups(position, data["project"], data["shape"]), data["form"]


legal_turns_request = Operation(_legal_turns, LegalTurnsSchema, LegalTurnsRequestSchema, writer=legal_turns_json)
"""``POST /v1/legal-turns``: every legal turn, or those beginning with the given Project (and Shape), as
objects or HTN strings; written as JSON text directly (schemas/writers.py)."""


def _validate(data: dict, at: Path = ()):
    return validate(data["position"])


validate_request = Operation(_validate, ValidationSchema, ValidateRequestSchema)
"""``POST /v1/validate``: the position's consistency (D-3) and state."""

rule_catalogue = Operation(ENTRIES.values, RuleSchema, many=True)
"""``GET /v1/rules``: every entry of the rules reference, in catalogue order: the rule ids, the capture
kinds, the end-of-game reasons, the decided readings."""

start_position = Operation(Position.start, StartSchema)
"""``GET /v1/start``: the start position."""


def _perft(data: dict, at: Path = ()):
    position = consistent(data["position"], *at, "position")
    depth = data["depth"]
    try:
        return perft_count(position, depth, data["divide"], budget=BUDGET, pause=pause)
    except BudgetExceeded as exc:
        about = "" if exc.estimate is None else f" (about {exc.estimate:,.0f} by estimate, refused before counting)"
        message = (
            f"perft to depth {depth} from this position expands more than {BUDGET:,} positions{about}, the "
            "work budget of a request; ask for a smaller depth (depth 2 always fits)"
        )
        raise RequestError(
            422,
            "over-budget",
            "Over the work budget",
            f"depth: {message}.",
            [{"path": dotted((*at, "depth")), "message": message}],
        ) from None


perft_request = Operation(_perft, PerftSchema, PerftRequestSchema)
"""``POST /v1/perft``: the legal turn sequences counted within the work budget (docs/perft.md)."""
