"""``make bench``'s operations, each run once (no timing, no HTTP load), so a
rename in the service cannot break the benchmark silently.

bench/bench.py is a script, not a package: it is imported from its path.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from flask import Response

from checker.legality import Verdict
from checker.position import Position

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("hexodic_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


@pytest.fixture(scope="module")
def table(bench):
    return bench.operations()


def test_every_position_has_every_operation(bench, table):
    assert [item["name"] for item in table] == [p[0] for p in bench.POSITIONS]
    for item in table:
        assert set(item["ops"]) == {"check_legal", "check_illegal", "request_hpn", "request_json", "enumerate"}


def test_each_operation_returns_what_it_times(table):
    for item in table:
        ops = item["ops"]
        legal, illegal = ops["check_legal"](), ops["check_illegal"]()
        # the positions' turns are chosen legal / illegal (bench/bench.py's comments say why)
        assert isinstance(legal, Verdict) and legal.legal, item["name"]
        assert isinstance(illegal, Verdict) and not illegal.legal and illegal.violations, item["name"]
        for form in ("request_hpn", "request_json"):
            resp = ops[form]()
            assert isinstance(resp, Response) and resp.status_code == 200 and resp.mimetype == "application/json"
            answer = json.loads(resp.get_data())
            assert answer["legal"] is True and answer["turn"] == legal.turn, (item["name"], form)
        turns = ops["enumerate"]()
        assert len(turns) == item["count"] > 0, item["name"]


STAGE_KINDS = [("parse_json", dict), ("load_check_request", dict), ("consistent (D-3), on a copy", Position),
               ("check", Verdict), ("VerdictSchema dump (compiled)", dict), ("reply (orjson)", Response)]


def test_the_request_path_stages_run_and_add_up_to_the_whole_path(bench):
    stages = bench.stages(bench.CROWDED)
    assert list(stages) == [(form, stage) for form in ("hpn", "json") for stage, _ in STAGE_KINDS]
    hpn, legal_htn = next((p[1], p[2]) for p in bench.POSITIONS if p[0] == bench.CROWDED)
    whole = bench.request_path(json.dumps({"position": hpn, "turn": legal_htn}).encode()).get_data()
    for form in ("hpn", "json"):
        results = {stage: stages[form, stage]() for stage, _ in STAGE_KINDS}
        for stage, kind in STAGE_KINDS:
            assert isinstance(results[stage], kind), (form, stage)
        assert results["check"].legal
        # the last stage writes what the whole path writes (same verdict either way the position came)
        assert results["reply (orjson)"].get_data() == whole
