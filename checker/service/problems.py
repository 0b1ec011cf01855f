"""Why a request cannot be answered, as values that know no HTTP framework.

The request pipeline (:mod:`checker.service.pipeline`) raises a
:class:`RequestError`; the web answers it as an RFC 9457 problem
(``application/problem+json``, :mod:`checker.web.errors`), a batch keeps it as
one item's result, and the command line words it as one line on stderr
(:mod:`checker.tools.cli`).  The two kinds the command line words in its own terms
carry their facts: a :class:`SchemaError` marshmallow's messages, an
:class:`InconsistentRequest` the broken conditions.

>>> err = SchemaError({"turn": ["Missing data for required field."]})
>>> err.problem()["detail"]
'turn: Missing data for required field.'
>>> list(error_paths({"items": {0: {"_schema": ["Bad."]}}}))
[(('items', '0'), 'Bad.')]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import reduce

from checker.position import Problem

PROBLEM_TYPE = "urn:hexodic:checker:problem:"

Path = tuple[str, ...]
"""Where in a body: the keys from its root, e.g. ``("items", "3", "position")``."""


def problem_body(status: int, slug: str, title: str, detail: str, errors: list[dict] | None = None) -> dict:
    """An RFC 9457 problem object."""
    body = {"type": PROBLEM_TYPE + slug, "title": title, "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = errors
    return body


def dotted(path: Path) -> str:
    """A path as the answers write it: ``items.3.position``."""
    return reduce(lambda head, key: f"{head}.{key}" if head else key, path, "")


class RequestError(Exception):
    """A request the service cannot answer: the problem's status, type slug,
    title, detail and optionally its ``[{path?, rule?, message}]`` errors and
    the headers its answer carries (a 503's ``Retry-After``)."""

    def __init__(
        self,
        status: int,
        slug: str,
        title: str,
        detail: str,
        errors: list[dict] | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(detail)
        self.status, self.slug, self.title, self.detail, self.errors = status, slug, title, detail, errors
        self.headers = dict(headers or {})

    def problem(self) -> dict:
        """The RFC 9457 problem object of this error."""
        return problem_body(self.status, self.slug, self.title, self.detail, self.errors)


def error_paths(messages, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """marshmallow's nested error messages as ``(path, message)`` pairs."""
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key == "_schema" or (key == "value" and path and isinstance(value, (dict, list))):
                yield from error_paths(value, path)  # the schema's own error; a Dict field's value errors
            else:
                yield from error_paths(value, path + (str(key),))
    elif isinstance(messages, list):
        for item in messages:
            yield from error_paths(item, path)
    else:
        yield path, str(messages)


def flatten(messages, at: Path = ()) -> list[dict]:
    """marshmallow's nested error messages as ``[{path, message}]``, dotted
    paths under ``at`` (``(body)`` for the body itself)."""
    return [{"path": dotted(path) or "(body)", "message": message} for path, message in error_paths(messages, at)]


class SchemaError(RequestError):
    """The body (or the part of it at ``at``) does not match its schema;
    ``messages`` are marshmallow's."""

    slug_title = ("invalid-body", "The body does not match the schema")

    def __init__(self, messages, at: Path = ()):
        errors = flatten(messages, at)
        super().__init__(
            422, *self.slug_title, "; ".join(f"{e['path']}: {e['message'].rstrip('.')}" for e in errors) + ".", errors
        )
        self.messages, self.at = messages, at


class QueryError(SchemaError):
    """A link's query string does not match its schema (the paths name the
    parameters).

    >>> QueryError({"size": ["Not a valid integer."]}).problem()["title"]
    "The link's query is not valid"
    """

    slug_title = ("invalid-query", "The link's query is not valid")


class InconsistentRequest(RequestError):
    """The position at ``at`` breaks conditions of D-3; ``problems`` lists them all."""

    def __init__(self, problems: Sequence[Problem], at: Path):
        path = dotted(at)
        super().__init__(
            422,
            "inconsistent-position",
            "The position is not consistent",
            f"{path}: " + " ".join(p.message for p in problems),
            [{"path": path, "rule": p.rule, "message": p.message} for p in problems],
        )
        self.problems, self.at = tuple(problems), at


def json_type(value: object) -> str:
    """The JSON name of a value's type, for messages (the HTTP service, the
    command line and the engine protocol say it the same way).

    >>> json_type(None), json_type(1), json_type([]), json_type("x"), json_type(True)
    ('null', 'a number', 'an array', 'a string', 'a boolean')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    names: dict[type, str] = {str: "a string", list: "an array", dict: "an object"}
    return names.get(type(value), type(value).__name__)
