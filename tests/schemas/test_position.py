"""The quick loaders (schemas.quick, derived from the schemas) accept only what the schema
accepts, with the same result; anything unusual goes to the schema."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from schemas.position import PositionObjectSchema
from schemas.quick import quick
from schemas.responses import PositionOutSchema
from tests.helpers import build

fast_position = quick(PositionObjectSchema)  # the quick loader derived from the schema

BASE = PositionOutSchema().dump(
    build({"c3": "1A", "d4": "2B*", "e5": "2"}, to_move="A", A={"cooldown": ["a1"], "reserve": 6}, check=False)
)


def _schema(value):
    try:
        return PositionObjectSchema().load(value)
    except ValidationError:
        return None


def test_a_well_formed_position_takes_the_fast_path_with_the_schemas_result():
    quick = fast_position(BASE)
    assert quick is not None and quick == _schema(BASE)


def test_unusual_input_is_left_to_the_schema():
    for change in (
        lambda d: d.update(extra=1),  # unknown key: the schema refuses it
        lambda d: d["cells"].update(C3={"tier": 1}),  # c3 named twice (c3, C3): the schema words it
        lambda d: d["cells"]["c3"].update(tier=True),  # a bool for an int
        lambda d: d["players"]["A"].update(placed=1),  # an int for a bool
        lambda d: d["players"]["A"].update(cooldown=["a1", "a1"]),
        lambda d: d["players"]["A"].pop("reserve"),
        lambda d: d.update(to_move="C"),
    ):
        value = copy.deepcopy(BASE)
        change(value)
        assert fast_position(value) is None


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.booleans(), min_size=len(BASE["cells"]), max_size=len(BASE["cells"])), st.booleans())
def test_upper_case_cell_names_take_the_fast_path_with_the_schemas_result(upper, cooldown_upper):
    """Cell names are case-insensitive (RULES §11 notation): C3 is c3, on the quick path too."""
    value = copy.deepcopy(BASE)
    value["cells"] = {(n.upper() if up else n): v for (n, v), up in zip(BASE["cells"].items(), upper)}
    if cooldown_upper:
        value["players"]["A"]["cooldown"] = [n.upper() for n in value["players"]["A"]["cooldown"]]
    quick = fast_position(value)
    assert quick is not None and quick == _schema(value) == fast_position(BASE)


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10) | st.sampled_from(["A", "B", "c3", "C3", "zz"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)


def _mutations():
    paths = [
        ("to_move",),
        ("half_moves",),
        ("cells",),
        ("cells", "c3"),
        ("cells", "C3"),
        ("cells", "E5"),
        ("cells", "c3", "tier"),
        ("cells", "d4", "stone"),
        ("cells", "d4", "locked"),
        ("players",),
        ("players", "A"),
        ("players", "A", "reserve"),
        ("players", "B", "placed"),
        ("players", "A", "cooldown"),
    ]
    return st.tuples(st.sampled_from(paths), _json)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(_mutations())
def test_fast_path_agrees_with_the_schema_on_mutated_positions(mutation):
    path, new = mutation
    value = copy.deepcopy(BASE)
    node = value
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    quick = fast_position(value)
    if quick is not None:
        assert quick == _schema(value)


# -- the quick path of a whole check request ---------------------------------------------------------

from schemas.requests import CheckRequestSchema, load_check_request  # noqa: E402
from tests.helpers import START_HPN  # noqa: E402

quick_check_request = quick(CheckRequestSchema)


def _schema_request(value):
    """What plain marshmallow makes of ``value``: the loaded dict, or the error messages."""
    try:
        return CheckRequestSchema().load(value)
    except ValidationError as exc:
        return exc.messages


def _loaded_request(value):
    try:
        return load_check_request(value)
    except ValidationError as exc:
        return exc.messages


def test_a_plain_check_request_takes_the_quick_path_with_the_schemas_result():
    for body in (
        {"position": START_HPN, "turn": "c3 +d4"},
        {"position": BASE, "turn": "C3  +D4", "history": [START_HPN, BASE]},
        {"position": START_HPN, "turn": "c3", "history": None},
    ):
        quick = quick_check_request(body)
        assert quick is not None and quick == _schema_request(body)


def test_an_unusual_check_request_is_left_to_the_schema():
    for body in (
        {"position": START_HPN, "turn": "c3 +d4", "extra": 1},  # an unknown key
        {"position": START_HPN, "turn": "h9"},  # HTN that does not parse
        {"position": START_HPN},  # no turn
        {"position": 3, "turn": "c3"},
    ):
        assert quick_check_request(body) is None
        assert _loaded_request(body) == _schema_request(body)


_request_values = st.one_of(
    st.just(START_HPN),
    st.just(BASE),
    st.text(max_size=8),
    st.just("c3 +d4"),
    st.integers(),
    st.none(),
    st.lists(st.just(START_HPN), max_size=3),
    _json,
)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.dictionaries(st.sampled_from(["position", "turn", "history", "extra"]), _request_values, max_size=4))
def test_quick_request_path_agrees_with_the_schema(body):
    """The quick path's answer, when it gives one, is the schema's; and
    load_check_request (quick path, else schema) loads or refuses exactly as
    the schema does, with the same messages."""
    quick = quick_check_request(body)
    if quick is not None:
        assert quick == _schema_request(body)
    assert _loaded_request(body) == _schema_request(body)


# -- the quick path of a JSON turn object --------------------------------------------------------------

from schemas.turn import TurnObjectSchema  # noqa: E402

fast_turn = quick(TurnObjectSchema)

TURNS = [
    {"project": {"kind": "place", "cell": "c3"}, "shape": {"kind": "raise", "cell": "d4"}, "echo": None},
    {"project": {"kind": "move", "from": "B2", "to": "a1"}, "shape": {"kind": "lower", "cell": "B1"}},
    {"project": {"kind": "skip"}, "echo": {"kind": "lock", "cell": "D4"}},
    {"project": {"kind": "place", "cell": "E5"}, "shape": None, "echo": {"kind": "capture", "cell": "f6"}},
]


def _schema_turn(value):
    try:
        return TurnObjectSchema().load(value)
    except ValidationError as exc:
        return exc.messages


def test_plain_turn_objects_take_the_fast_path_with_the_schemas_result():
    for value in TURNS:
        quick = fast_turn(value)
        assert quick is not None and quick == _schema_turn(value)
        body = {"position": BASE, "turn": value}
        assert quick_check_request(body) == _schema_request(body)


_turn_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-1, 3)
    | st.sampled_from(
        ["place", "move", "skip", "raise", "lower", "capture", "lock", "Place", "c3", "C3", "d4", "h9", "c33", ""]
    ),
    lambda inner: (
        st.lists(inner, max_size=2)
        | st.dictionaries(st.sampled_from(["kind", "cell", "from", "to", "x"]), inner, max_size=3)
    ),
    max_leaves=5,
)


def _turn_mutations():
    paths = [
        ("project",),
        ("project", "kind"),
        ("project", "cell"),
        ("project", "from"),
        ("project", "to"),
        ("shape",),
        ("shape", "kind"),
        ("shape", "cell"),
        ("echo",),
        ("echo", "kind"),
        ("echo", "cell"),
        ("extra",),
        ("project", "extra"),
    ]
    return st.tuples(st.sampled_from(range(len(TURNS))), st.sampled_from(paths), _turn_json)


@settings(max_examples=600, deadline=None, derandomize=True)
@given(_turn_mutations())
def test_fast_turn_agrees_with_the_schema_on_mutated_turns(mutation):
    """fast_turn answers only what TurnObjectSchema accepts, with its result; and a check request
    with that turn loads (quick path, else schema) exactly as the schema loads it, messages included."""
    i, path, new = mutation
    value = copy.deepcopy(TURNS[i])
    node = value
    for key in path[:-1]:
        node = node.setdefault(key, {}) if isinstance(node.get(key), dict) or key not in node else node[key]
    if isinstance(node, dict):
        node[path[-1]] = new
    quick = fast_turn(value)
    if quick is not None:
        assert quick == _schema_turn(value)
    body = {"position": START_HPN, "turn": value}
    assert _loaded_request(body) == _schema_request(body)


# -- the HPN cache ------------------------------------------------------------------------------------

import pytest  # noqa: E402

from checker import board  # noqa: E402
from checker.notation import NotationError, parse_hpn  # noqa: E402
from schemas.position import HPN_CACHE_SIZE, cached_hpn  # noqa: E402


def test_the_hpn_cache_shares_one_immutable_position_and_forgets_bad_text():
    text = "0000/00000/000000/0000A000/000000/00000/0000 B 6:3:6:0:0:P:- 7:3:6:0:0:-:- 1"
    first, again = cached_hpn(text), cached_hpn(text)
    assert first is again and first == parse_hpn(text)
    assert first.stones[board.parse_cell("d4")] == "A" and first.to_move == "B"  # the centre holds A's stone
    before = cached_hpn.cache_info().currsize
    for _ in range(2):
        with pytest.raises(NotationError):
            cached_hpn("0000/00000 A")
    assert cached_hpn.cache_info().currsize == before  # a refused text is not remembered
    assert cached_hpn.cache_info().maxsize == HPN_CACHE_SIZE
