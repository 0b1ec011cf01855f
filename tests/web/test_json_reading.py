"""checker.service.pipeline.loads reads with orjson first: for every text, the
same values (types included: 1 is not 1.0) as the standard library's reader,
or the same refusal."""

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.service.pipeline import NotAJSONNumber, _no_constant, loads


def reference(raw: bytes):
    try:
        return ("ok", json.loads(raw, parse_constant=_no_constant))
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, UnicodeDecodeError, NotAJSONNumber
        return ("refused", type(exc))


def ours(raw: bytes):
    try:
        return ("ok", loads(raw))
    except (ValueError, RecursionError) as exc:
        return ("refused", type(exc))


def typed(value):
    """A value with its types spelled out, so 1 and 1.0, or 0.0 and -0.0, differ."""
    if isinstance(value, dict):
        return ("dict", tuple((k, typed(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(typed(v) for v in value))
    if isinstance(value, float):
        return ("float", repr(value) if not math.isnan(value) else "nan")
    return (type(value).__name__, value)


def same(raw: bytes) -> None:
    a, b = reference(raw), ours(raw)
    assert a[0] == b[0], (raw, a, b)
    if a[0] == "ok":
        assert typed(a[1]) == typed(b[1]), raw
    else:
        assert a[1] is b[1] or {a[1], b[1]} <= {json.JSONDecodeError, ValueError}, (raw, a, b)


def test_the_texts_that_differ_between_the_readers():
    for raw in (
        b"123456789012345678901234567890",
        b'{"half_moves": 12345678901234567890}',
        b"1e400",
        b'"\\ud800"',
        b"NaN",
        b"-Infinity",
        b'\xef\xbb\xbf{"a": 1}',
        '{"a": 1}'.encode("utf-16"),
        b'{"a":1,"a":2}',
        b"[1,]",
        b"-0",
        b"-0.0",
        b"1E2",
        b"\xff",
        b"[" * 5000 + b"]" * 5000,
    ):
        same(raw)
    assert loads(b"123456789012345678901234567890") == 123456789012345678901234567890
    assert isinstance(loads(b"123456789012345678901234567890"), int)
    try:
        loads(b"NaN")
    except NotAJSONNumber:
        pass
    else:
        raise AssertionError("NaN read")


_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(_values, st.booleans())
def test_written_json_reads_the_same(value, ascii_only):
    same(json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass"))


@settings(max_examples=500, deadline=None, derandomize=True)
@given(_values, st.integers(0, 40), st.binary(min_size=1, max_size=3))
def test_damaged_json_reads_the_same_or_is_refused_the_same(value, at, junk):
    raw = json.dumps(value).encode()
    at = min(at, len(raw))
    same(raw[:at] + junk + raw[at:])
    same(raw[:at])
