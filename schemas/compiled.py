"""Fast dumping: a marshmallow Schema compiled into plain Python functions.

marshmallow dumps field by field through several layers of calls, which
costs more than the rules themselves on a verdict (hundreds of fields).
:func:`dumper` reads a Schema's declared fields and hooks once and returns a
function that produces the same dict as ``Schema().dump(obj)`` for the
values the checker produces, without marshmallow's per-field machinery.  The
declarative schema stays the single source of the output's shape (and of
``openapi.yaml``); ``tests/schemas/test_compiled.py`` checks the two agree.

Supported, because our response schemas use exactly these: plain value
fields (String, Integer, Boolean, Raw, Dict without nested values), Constant,
Function, Nested (also ``many``), List of Nested or of plain values, Dict of
Nested values, and fields of our own with a public ``dump_value(value)``.
A schema's work before and after the fields is :class:`OutSchema`'s
``prepare`` and ``finish``, which marshmallow calls through its public
``pre_dump`` / ``post_dump`` decorators and the dumper calls directly.

Only marshmallow's public API is read here (``dump_fields``, ``data_key``,
``attribute``, ``Nested.schema``, ``List.inner``, ``Dict.value_field``,
``Constant.constant``, ``Function.serialize_func``); a field of an unknown
kind is a :class:`TypeError` when the dumper is made, never a silent difference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields, post_dump, pre_dump

__all__ = ["OutSchema", "dumper"]


class OutSchema(Schema):
    """A response schema with work before and after its fields: override
    ``prepare`` (the object in, what the fields read out) and ``finish`` (the
    dict out, the answer).  Response schemas have no other dump hooks
    (``tests/schemas/test_compiled.py`` checks that)."""

    def prepare(self, obj: Any) -> Any:
        return obj

    def finish(self, data: dict) -> dict:
        return data

    @pre_dump
    def _prepare(self, obj: Any, **kwargs: Any) -> Any:
        return self.prepare(obj)

    @post_dump
    def _finish(self, data: dict, **kwargs: Any) -> dict:
        return self.finish(data)


_PLAIN = (fields.String, fields.Integer, fields.Boolean, fields.Raw, fields.Float)


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _value_fn(field: fields.Field) -> Callable[[Any], Any] | None:
    """How to turn one attribute value into JSON; ``None`` for as-is."""
    if isinstance(field, fields.Nested):
        inner = _compile(field.nested if isinstance(field.nested, type) else type(field.schema))
        if field.many:
            return lambda v: None if v is None else [inner(x) for x in v]
        return lambda v: None if v is None else inner(v)
    if isinstance(field, fields.List):
        fn = _value_fn(field.inner)
        if fn is None:
            return lambda v: None if v is None else list(v)
        item_fn: Callable[[Any], Any] = fn
        return lambda v: None if v is None else [item_fn(x) for x in v]
    if isinstance(field, fields.Dict):
        fn = _value_fn(field.value_field) if field.value_field is not None else None
        if fn is None:
            return lambda v: None if v is None else dict(v)
        return lambda v: None if v is None else {k: fn(x) for k, x in v.items()}
    if isinstance(field, _PLAIN):
        return None
    dump_value = getattr(field, "dump_value", None)
    if dump_value is None:
        raise TypeError(f"{type(field).__name__}: a field of our own needs a public dump_value(value)")
    return dump_value  # a field of our own (e.g. CellListField), value by value


_cache: dict[type, Callable[[Any], dict]] = {}


def _compile(schema_cls: type[Schema]) -> Callable[[Any], dict]:
    if schema_cls in _cache:
        return _cache[schema_cls]
    schema = schema_cls()
    plan: list[tuple[str, str, str, Any]] = []  # (key, attribute, how, arg)
    for name, field in schema.dump_fields.items():
        key = field.data_key or name
        attr = field.attribute or name
        if isinstance(field, fields.Constant):
            plan.append((key, attr, "const", field.constant))
        elif isinstance(field, fields.Function):
            plan.append((key, attr, "call", field.serialize_func))
        elif isinstance(field, fields.Method):
            plan.append((key, attr, "call", getattr(schema, str(field.serialize_method_name))))
        else:
            fn = _value_fn(field)
            plan.append((key, attr, "get" if fn is None else "conv", fn))
    pre, post = [], []
    if isinstance(schema, OutSchema):
        if type(schema).prepare is not OutSchema.prepare:
            pre.append(schema.prepare)
        if type(schema).finish is not OutSchema.finish:
            post.append(schema.finish)

    dump = _generate(schema_cls.__name__, plan, pre, post)
    _cache[schema_cls] = dump
    return dump


def _generate(name: str, plan, pre, post) -> Callable[[Any], dict]:
    """Write the dump function as Python source and compile it: one dict
    display, direct attribute access (``obj.get`` for dicts)."""
    env: dict[str, Any] = {"_get": _get}
    lines = [f"def dump_{name}(obj):"]
    for i, hook in enumerate(pre):
        env[f"pre{i}"] = hook
        lines.append(f"    obj = pre{i}(obj)")
    items_obj, items_dict = [], []
    for i, (key, attr, how, arg) in enumerate(plan):
        k = repr(key)
        if how == "const":
            env[f"c{i}"] = arg
            items_obj.append(f"{k}: c{i}")
            items_dict.append(f"{k}: c{i}")
            continue
        if how == "call":
            env[f"f{i}"] = arg
            items_obj.append(f"{k}: f{i}(obj)")
            items_dict.append(f"{k}: f{i}(obj)")
            continue
        if not attr.isidentifier():
            by_obj = f"_get(obj, {attr!r})"
        else:
            by_obj = f"obj.{attr}"
        by_dict = f"obj.get({attr!r})"
        if how == "conv":
            env[f"f{i}"] = arg
            by_obj, by_dict = f"f{i}({by_obj})", f"f{i}({by_dict})"
        items_obj.append(f"{k}: {by_obj}")
        items_dict.append(f"{k}: {by_dict}")
    lines.append("    if type(obj) is dict:")
    lines.append("        out = {" + ", ".join(items_dict) + "}")
    lines.append("    else:")
    lines.append("        out = {" + ", ".join(items_obj) + "}")
    for i, hook in enumerate(post):
        env[f"post{i}"] = hook
        lines.append(f"    out = post{i}(out)")
    lines.append("    return out")
    exec(compile("\n".join(lines), f"<dumper {name}>", "exec"), env)  # noqa: S102 - our own source
    return env[f"dump_{name}"]


def dumper(schema_cls: type[Schema]) -> Callable[[Any], dict]:
    """A function equal to ``schema_cls().dump`` for one object, compiled once."""
    return _compile(schema_cls)
