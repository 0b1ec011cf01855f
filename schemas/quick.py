"""Quick loading: a marshmallow Schema compiled into a plain Python function.

marshmallow loads field by field through several layers of calls and an
error store, which on a check request costs more than judging the turn.
:func:`quick` reads a Schema's declared fields, their validators and the
schema's own hooks once and returns a function that loads a body the schema
accepts to the same value, without that machinery; for anything else it
returns :data:`None` and the caller loads the body with the schema itself,
which words the errors.  So the schema stays the one statement of what a body
may hold (and of ``openapi.yaml``): the quick function never refuses what the
schema accepts, and never accepts what it refuses
(``tests/schemas/test_quick_loaders_refuse.py``).

What is read, per field: the kind (String, Integer, Boolean and
:class:`~schemas.fields.StrictBoolean`, Nested, List, Dict and Enum; a field
of our own gives a ``quick(value)`` method), ``required``, ``load_default``,
``allow_none``, ``data_key``, ``attribute``, the field's validators (run as
marshmallow runs them); per schema, ``unknown`` (only ``RAISE``), the
``@validates_schema`` and ``@post_load`` hooks (run as marshmallow runs them).
A value that is not plainly of the field's JSON type (an integer given as a
float or a bool, a string for a number) is left to the schema.  A schema with
a ``@pre_load`` or ``@validates`` hook, or a field of an unknown kind, is a
:class:`TypeError` when the function is made, never a silent difference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate
from marshmallow.utils import missing

__all__ = ["REFUSED", "quick"]


class _Refused:
    """What a field's quick function answers for a value it leaves to the schema."""

    def __repr__(self) -> str:
        return "REFUSED"


REFUSED: Any = _Refused()
"""The value a field's ``quick(value)`` returns to leave the body to the schema."""

_Fn = Callable[[Any], Any]


def _hooks(schema_cls: type[Schema], tag: str) -> list[str]:
    """The names of ``schema_cls``'s methods marshmallow runs for ``tag`` (its decorators' mark)."""
    names = []
    for name in dir(schema_cls):
        marks = getattr(getattr(schema_cls, name, None), "__marshmallow_hook__", None)
        if marks and tag in marks:
            names.append(name)
    return names


def _json_type(field: fields.Field) -> type | None:
    """The one JSON type a field of marshmallow's own kinds takes as it is, else None.  A value
    not plainly of it (an integer as a float or a bool, a number as a string) is left to the schema."""
    if getattr(field, "quick", None) is not None:
        return None
    if isinstance(field, fields.Boolean):  # StrictBoolean too: a JSON true or false
        return bool
    if isinstance(field, fields.Integer):
        return int
    if isinstance(field, fields.String):
        return str
    return None


def _kind(field: fields.Field) -> _Fn:
    """The function of a field that is not of a plain JSON type: a field of our own's ``quick``,
    a nested schema's, a list's or a dict's."""
    own = getattr(field, "quick", None)
    if own is not None:
        return own
    if isinstance(field, fields.Nested):
        return _compile(field.nested if isinstance(field.nested, type) else type(field.schema))
    if isinstance(field, fields.List):
        item = _field(field.inner)

        def load_list(value: Any) -> Any:
            if type(value) is not list:
                return REFUSED
            out = [item(x) for x in value]
            return REFUSED if any(x is REFUSED for x in out) else out

        return load_list
    if isinstance(field, fields.Dict):
        key = _field(field.key_field) if field.key_field is not None else _field(fields.String())
        val = _field(field.value_field) if field.value_field is not None else (lambda v: v)

        def load_dict(value: Any) -> Any:
            if type(value) is not dict:
                return REFUSED
            out = {}
            for k, v in value.items():
                k, v = key(k), val(v)
                if k is REFUSED or v is REFUSED:
                    return REFUSED
                out[k] = v
            return out

        return load_dict
    if isinstance(field, fields.Enum) and field.by_value is True:
        by_value = {str(m.value): m for m in field.enum}
        return lambda value: by_value.get(value, REFUSED) if type(value) is str else REFUSED
    raise TypeError(f"{type(field).__name__}: a field of our own needs a quick(value) method")


def _value_lines(n: str, field: fields.Field, env: dict[str, Any], pad: str) -> list[str]:
    """Source lines that turn the field's value ``v`` into its loaded value, or return REFUSED:
    null when the field allows it, the JSON type or the field's function, then its validators
    (a ``OneOf``'s choices tested inline, any other validator called as marshmallow calls it)."""
    lines = []
    if field.allow_none:
        lines.append(f"{pad}if v is not None:")
        pad += "    "
    kind = _json_type(field)
    if kind is not None:
        env[f"t{n}"] = kind
        lines += [f"{pad}if type(v) is not t{n}:", f"{pad}    return REFUSED"]
    else:
        env[f"f{n}"] = _kind(field)
        lines += [f"{pad}v = f{n}(v)", f"{pad}if v is REFUSED:", f"{pad}    return REFUSED"]
    for j, check in enumerate(field.validators):
        c = f"c{n}_{j}"
        if isinstance(check, validate.OneOf) and kind is str:
            env[c] = tuple(check.choices)
            lines += [f"{pad}if v not in {c}:", f"{pad}    return REFUSED"]
        elif isinstance(check, validate.Length) and check.equal is None:
            lo, hi = 0 if check.min is None else check.min, check.max
            test = f"not {lo} <= len(v) <= {hi}" if hi is not None else f"len(v) < {lo}"
            lines += [f"{pad}if {test}:", f"{pad}    return REFUSED"]
        else:
            env[c] = check
            lines += [
                f"{pad}try:",
                f"{pad}    if {c}(v) is False:",
                f"{pad}        return REFUSED",
                f"{pad}except ValidationError:",
                f"{pad}    return REFUSED",
            ]
    return lines


def _source(name: str, lines: list[str], env: dict[str, Any]) -> _Fn:
    env.update(REFUSED=REFUSED, RAISE=RAISE, ValidationError=ValidationError)
    exec(compile("\n".join(lines), f"<quick {name}>", "exec"), env)  # noqa: S102 - our own source
    return env[name]


def _field(field: fields.Field) -> _Fn:
    """One field's quick function (a list's item, a dict's key or value): its value, or REFUSED."""
    env: dict[str, Any] = {}
    lines = ["def load_value(v):", *_value_lines("", field, env, "    "), "    return v"]
    return _source("load_value", lines, env)


_cache: dict[type, _Fn] = {}


def _compile(schema_cls: type[Schema]) -> _Fn:
    """The schema's quick function, written as Python source and compiled once: each field's key
    looked up once and its value loaded inline, then the schema's hooks called as marshmallow calls them."""
    made = _cache.get(schema_cls)
    if made is not None:
        return made
    schema = schema_cls()
    if schema.unknown != RAISE:
        raise TypeError(f"{schema_cls.__name__}: only unknown=RAISE is supported")
    for tag in ("pre_load", "validates"):
        if _hooks(schema_cls, tag):
            raise TypeError(f"{schema_cls.__name__}: a @{tag} hook is not supported")
    env: dict[str, Any] = {}
    body = ["    out = {}"]
    keys = []
    for i, (name, field) in enumerate(schema.load_fields.items()):
        key, attr = field.data_key or name, field.attribute or name
        keys.append(key)
        body += [f"    if {key!r} in value:", f"        v = value[{key!r}]"]
        body += _value_lines(str(i), field, env, "        ")
        body.append(f"        out[{attr!r}] = v")
        default = field.load_default
        if field.required:
            body += ["    else:", "        return REFUSED"]
        elif default is not missing:
            env[f"d{i}"] = default
            body += ["    else:", f"        out[{attr!r}] = d{i}{'()' if callable(default) else ''}"]
    env["KEYS"] = frozenset(keys)
    lines = [
        "def load(value):",
        "    if type(value) is not dict or not value.keys() <= KEYS:",
        "        return REFUSED",
        *body,
    ]
    checks = [getattr(schema, name) for name in _hooks(schema_cls, "validates_schema")]
    makers = [getattr(schema, name) for name in _hooks(schema_cls, "post_load")]
    if checks or makers:
        lines.append("    try:")
        for i, check in enumerate(checks):
            env[f"v{i}"] = check
            lines.append(f"        v{i}(out, many=False, partial=None, unknown=RAISE)")
        for i, make in enumerate(makers):
            env[f"m{i}"] = make
            lines.append(f"        out = m{i}(out, many=False, partial=None, unknown=RAISE)")
        lines += ["    except ValidationError:", "        return REFUSED"]
    lines.append("    return out")
    made = _cache[schema_cls] = _source("load", lines, env)
    return made


_public: dict[type, _Fn] = {}


def quick(schema_cls: type[Schema], refused: Any = None) -> Callable[[Any], Any]:
    """A function equal to ``schema_cls().load`` on the bodies it accepts,
    compiled once; ``refused`` (:data:`None`, or :data:`REFUSED` for a field's
    ``quick``) for a body it leaves to the schema."""
    if refused is REFUSED:
        return _compile(schema_cls)
    made = _public.get(schema_cls)
    if made is None:
        load = _compile(schema_cls)

        def made(value: Any) -> Any:
            out = load(value)
            return None if out is REFUSED else out

        made.__name__ = f"quick_{schema_cls.__name__}"
        _public[schema_cls] = made
    return made
