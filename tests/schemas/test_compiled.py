"""The compiled dumpers give exactly what marshmallow's Schema.dump gives."""

import random

import pytest

from checker.catalogue import ENTRIES
from checker.generate import legal_turns, turn_groups
from checker.legality import check, validate
from checker.notation import parse_hpn, parse_htn
from checker.position import Position
from checker.replay import replay
from checker.tools.vectors import read_vectors
from schemas.compiled import dumper
from schemas.responses import LegalTurnsSchema, ReplaySchema, RuleSchema, StartSchema, ValidationSchema, VerdictSchema
from schemas.turn import TurnForm


def _verdicts():
    """Verdicts of every kind: the vectors (legal and illegal, every capture kind and end of game)
    and a seeded random game."""
    out = []
    for v in read_vectors()[::3]:
        history = None if v["history"] is None else [parse_hpn(h) for h in v["history"]]
        out.append(check(parse_hpn(v["position"]), parse_htn(v["turn"]), history))
    return out


VERDICTS = _verdicts()


def test_the_sample_covers_legal_illegal_captures_and_endings():
    assert any(v.legal for v in VERDICTS) and any(not v.legal for v in VERDICTS)
    assert any(v.outcome and v.outcome.capture_check for v in VERDICTS)
    assert any(v.outcome and v.outcome.game.tiebreak for v in VERDICTS)


@pytest.mark.parametrize("i", range(len(VERDICTS)))
def test_verdict(i):
    assert dumper(VerdictSchema)(VERDICTS[i]) == VerdictSchema().dump(VERDICTS[i])


def test_legal_turns_validate_start_rules_and_replay():
    rng = random.Random(5)
    pos, turns = Position.start(), []
    for _ in range(20):
        t = rng.choice(legal_turns(pos))
        turns.append(t)
        groups = turn_groups(pos)
        for form in TurnForm:
            assert dumper(LegalTurnsSchema)((pos, groups, form)) == LegalTurnsSchema().dump((pos, groups, form))
        assert dumper(ValidationSchema)(validate(pos)) == ValidationSchema().dump(validate(pos))
        pos = check(pos, t).outcome.position
    inconsistent = pos.replace(half_moves=pos.half_moves + 1)
    assert dumper(ValidationSchema)(validate(inconsistent)) == ValidationSchema().dump(validate(inconsistent))
    r = replay(turns + [turns[0]])
    assert dumper(ReplaySchema)(r) == ReplaySchema().dump(r)
    assert dumper(StartSchema)(Position.start()) == StartSchema().dump(Position.start())
    assert [dumper(RuleSchema)(e) for e in ENTRIES.values()] == RuleSchema(many=True).dump(ENTRIES.values())


def test_the_only_dump_hooks_are_out_schemas_prepare_and_finish():
    """The dumper calls OutSchema.prepare/finish and reads no hook list of
    marshmallow's: a dump hook declared anywhere else would be skipped by it."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = [
        f"{p.relative_to(root)}:{n}"
        for p in sorted((root / "schemas").glob("*.py"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"\s*@(pre|post)_dump\b", line)
    ]
    assert [f.split(":")[0] for f in found] == ["schemas/compiled.py", "schemas/compiled.py"], found


def test_a_field_without_a_public_dump_value_is_refused_at_compile_time():
    from marshmallow import Schema, fields

    class Odd(fields.Field):
        def _serialize(self, value, attr, obj, **kwargs):
            return value

    class WithOdd(Schema):
        x = Odd()

    with pytest.raises(TypeError, match="dump_value"):
        dumper(WithOdd)
