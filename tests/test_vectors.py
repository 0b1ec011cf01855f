"""The shipped conformance vectors: up to date, well-formed, covering, and in
agreement with the checker (the hand-written ones are reviewed in
test_vectors_hand.py)."""

import json
from collections import Counter
from importlib import resources

import pytest

from checker.catalogue import RULE_IDS
from checker.legality import check
from checker.notation import parse_hpn, parse_htn
from checker.tools.vectors import FORMAT, KEYS, SHIPPED, build, read_vectors, run_vector
from checker.version import RULES_VERSION
from checker.web import create_app

LINES = resources.files("checker.data").joinpath(SHIPPED).read_text(encoding="utf-8").splitlines()
VECTORS = read_vectors(LINES)
TURN_RULES = [r for r in RULE_IDS if not r.startswith("position.")]


def _verdict(v):
    history = None if v["history"] is None else [parse_hpn(h) for h in v["history"]]
    return check(parse_hpn(v["position"]), parse_htn(v["turn"]), history)


VERDICTS = {v["id"]: _verdict(v) for v in VECTORS}


def test_shipped_file_is_what_the_generator_builds():
    assert LINES == build(), "checker/data/vectors.jsonl is stale: run `make vectors`"


def test_header_names_format_version_rules_version_and_count():
    head = json.loads(LINES[0])
    assert head == {"format": FORMAT, "version": 1, "rules_version": RULES_VERSION, "count": len(VECTORS)}


def test_at_least_300_vectors_and_60_by_hand():
    assert len(VECTORS) >= 300
    assert sum(v["id"].startswith("hand-") for v in VECTORS) >= 60


def test_every_vector_has_exactly_the_documented_keys_and_a_unique_id():
    assert all(tuple(v) == KEYS for v in VECTORS)
    ids = [v["id"] for v in VECTORS]
    assert len(ids) == len(set(ids))


def test_legal_vectors_have_after_and_game_and_illegal_ones_violations():
    for v in VECTORS:
        if v["legal"]:
            assert (
                v["violations"] == [] and v["after"] and set(v["game"]) == {"over", "result", "reason", "repetition"}
            ), v["id"]
        else:
            assert v["violations"] and v["after"] is None and v["game"] is None, v["id"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_the_checker_agrees_with_every_vector(vector):
    assert run_vector(vector) == []


def test_every_rule_id_passes_and_fails_somewhere():
    passed, failed = Counter(), Counter()
    for v in VECTORS:
        for c in VERDICTS[v["id"]].checks:
            if c.status == "passed" and v["legal"]:
                passed[c.rule] += 1
            elif c.status == "failed":
                failed[c.rule] += 1
    assert [r for r in TURN_RULES if not passed[r]] == []
    assert [r for r in TURN_RULES if not failed[r]] == []


def test_every_capture_kind_and_end_of_game_reason_occurs():
    kinds, reasons = Counter(), Counter()
    for v in VECTORS:
        outcome = VERDICTS[v["id"]].outcome
        if outcome is None:
            continue
        kinds.update(e.kind for e in outcome.events if e.type == "capture" and e.cells)
        if outcome.game.over:
            reasons[outcome.game.reason] += 1
    assert set(kinds) == {"move", "encirclement", "echo"}
    assert set(reasons) == {"takeover", "network", "strangle", "repetition", "threefold", "tiebreak"}


def test_the_cooldown_skip_and_every_tiebreak_step_occur():
    skips = [v for v in VECTORS if v["legal"] and v["turn"].startswith("skip")]
    assert skips
    steps = set()
    for v in VECTORS:
        outcome = VERDICTS[v["id"]].outcome
        if outcome is not None and outcome.game.reason == "tiebreak":
            a = outcome.game.tiebreak["A"].as_tuple()
            b = outcome.game.tiebreak["B"].as_tuple()
            steps.add(next((i for i in range(4) if a[i] != b[i]), "level"))
    assert steps == {0, 1, 2, 3, "level"}


def test_served_at_v1_vectors_as_shipped():
    resp = create_app({"TESTING": True}).test_client().get("/v1/vectors")
    assert resp.status_code == 200
    assert resp.mimetype == "application/x-ndjson"
    assert resp.get_data(as_text=True).splitlines() == LINES
