"""The compiled dumpers give exactly what marshmallow's Schema.dump gives."""

import random

import pytest

from checker.catalogue import ENTRIES
from checker.generate import legal_turns
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
        ts = legal_turns(pos)
        t = rng.choice(ts)
        turns.append(t)
        for form in TurnForm:
            assert dumper(LegalTurnsSchema)((pos, ts, form)) == LegalTurnsSchema().dump((pos, ts, form))
        assert dumper(ValidationSchema)(validate(pos)) == ValidationSchema().dump(validate(pos))
        pos = check(pos, t).outcome.position
    inconsistent = pos.replace(half_moves=pos.half_moves + 1)
    assert dumper(ValidationSchema)(validate(inconsistent)) == ValidationSchema().dump(validate(inconsistent))
    r = replay(turns + [turns[0]])
    assert dumper(ReplaySchema)(r) == ReplaySchema().dump(r)
    assert dumper(StartSchema)(Position.start()) == StartSchema().dump(Position.start())
    assert [dumper(RuleSchema)(e) for e in ENTRIES.values()] == RuleSchema(many=True).dump(ENTRIES.values())


def test_a_pass_many_hook_is_refused_at_compile_time():
    from marshmallow import Schema, fields, post_dump

    class Many(Schema):
        x = fields.Integer()

        @post_dump(pass_collection=True)
        def _all(self, data, **kwargs):
            return data

    with pytest.raises(TypeError):
        dumper(Many)
