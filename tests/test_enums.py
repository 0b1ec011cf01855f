"""The closed sets of the checker are StrEnums: each member is equal to, hashes
like and is written as its string, so answers are unchanged (issue 9)."""

from __future__ import annotations

import json

import orjson
import pytest

from checker.ending import EndReason
from checker.legality import Status, check
from checker.notation import parse_hpn, parse_htn
from checker.play import CaptureKind, EventType, TermKind
from checker.turn import EchoKind, Shape, ShapeKind
from schemas.compiled import dumper
from schemas.responses import VerdictSchema

# The values API.md and RULES §11 give for each set.
EXPECTED = {
    Status: ["passed", "failed", "not_applicable"],
    ShapeKind: ["raise", "lower"],
    EchoKind: ["capture", "lock"],
    EndReason: ["takeover", "network", "strangle", "repetition", "threefold", "tiebreak"],
    EventType: ["capture", "lock", "cooldown_set", "cooldown_cleared", "first_place"],
    CaptureKind: ["move", "encirclement", "echo"],
    TermKind: ["stone", "edge", "wall"],
}


@pytest.mark.parametrize("enum", list(EXPECTED), ids=lambda e: e.__name__)
def test_members_are_their_strings(enum):
    assert [m.value for m in enum] == EXPECTED[enum]
    for member in enum:
        assert member == member.value and hash(member) == hash(member.value)
        assert f"{member}" == str(member) == member.value
        assert orjson.dumps(member) == json.dumps(member).encode() == f'"{member.value}"'.encode()


def test_a_plain_string_kind_becomes_the_member():
    assert Shape("lower", 3).kind is ShapeKind.LOWER
    with pytest.raises(ValueError):
        Shape("sideways", 3)


def test_a_dumped_verdict_holds_plain_strings():
    # A's legal first Place c3 with a raise of d4 (RULES §4, §5): its checks pass or do not apply
    # (no Echo, no cooldown), and the outcome has the first_place event.
    v = check(
        parse_hpn("0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"), parse_htn("c3 +d4")
    )
    data = dumper(VerdictSchema)(v)
    assert {c["status"] for c in data["checks"]} == {"passed", "not_applicable"}
    text = orjson.dumps(data)
    assert orjson.loads(text) == data
    assert json.loads(json.dumps(data)) == data == VerdictSchema().dump(v)
    assert b'"status":"passed"' in text and b'"type":"first_place"' in text
