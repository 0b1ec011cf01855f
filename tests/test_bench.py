"""``make bench``'s operations, each run once (no timing, no HTTP load), so a
rename in the service cannot break the benchmark silently.

The benchmark is the package bench/ (``python -m bench``); its figures are
bench/run.py's.
"""

from __future__ import annotations

import json

import pytest
from flask import Response

from checker.legality import Verdict
from checker.position import Position


@pytest.fixture(scope="module")
def bench():
    from bench import run

    return run


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
        # the positions' turns are chosen legal / illegal (bench/run.py's comments say why)
        assert isinstance(legal, Verdict) and legal.legal, item["name"]
        assert isinstance(illegal, Verdict) and not illegal.legal and illegal.violations, item["name"]
        for form in ("request_hpn", "request_json"):
            resp = ops[form]()
            assert isinstance(resp, Response) and resp.status_code == 200 and resp.mimetype == "application/json"
            answer = json.loads(resp.get_data())
            assert answer["legal"] is True and answer["turn"] == legal.turn, (item["name"], form)
        turns = ops["enumerate"]()
        assert len(turns) == item["count"] > 0, item["name"]


STAGE_KINDS = [
    ("parse_json", dict),
    ("load_check_request", dict),
    ("consistent (D-3), on a copy", Position),
    ("check", Verdict),
    ("VerdictSchema dump (compiled)", dict),
    ("reply (orjson)", Response),
]


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


def _targets(bench, capsys, http, batch):
    """The rows of section 3 of the report for made-up figures: {label start: (figure, mark)}."""
    import types

    st = bench.Stats([40_000, 40_000])  # 40 µs every sample
    rows = [
        {
            "name": p[0],
            "legal_htn": p[2],
            "illegal_htn": p[3],
            "count": 100,
            "check_legal": st,
            "check_illegal": st,
            "request_hpn": st,
            "request_json": st,
            "enumerate": st,
            "ratio_hpn": 2.0,
            "ratio_json": 3.2,
            "us_per_turn": 0.4,
        }
        for p in bench.POSITIONS
    ]
    parts = {"hpn": {"check": st}, "json": {"check": st}}
    args = types.SimpleNamespace(seconds=1, rounds=1, warmup=0)
    text = bench.report(rows, parts, http, 0.0, args, "0", None, batch, None, None).split("3. Targets")[1]
    return [line for line in text.splitlines() if line.endswith(("PASS", "MISS"))]


def test_the_targets_are_marked_pass_or_miss(bench, capsys):
    endpoint = lambda path, median, rps: {  # noqa: E731
        "label": path,
        "path": path,
        "requests": 1,
        "errors": 0,
        "rps": rps,  # noqa
        "median_ms": median,
        "p99_ms": median,
    }
    http = {
        "endpoints": [
            endpoint("/v1/check", 1.0, 100),
            endpoint("/v1/legal-turns", 3.5, 10),
            endpoint("/healthz", 0.5, 200),
        ],
        "legal_turns_bytes": 430_835,
        "legal_turns_gzip_bytes": 28_204,
        "legal_turns_htn_bytes": 38_750,
        "legal_turns_htn_gzip_bytes": 8_937,
        "sequential": {"n": 300, "median_ms": 4.0, "p99_ms": 9.0},
        "wrk": {"/v1/check": 900.0, "/healthz": 1000.0},
    }
    lines = _targets(bench, capsys, http, {"HPN, HTN (common)": 100.0, "JSON object, JSON turn": 140.0})
    marks = {line.split("  ")[0]: line[-4:] for line in lines}
    expect = {
        "batch per item": "PASS",  # 1.40x < 1.5x
        "legal-turns (3,097, gzip) latency": "MISS",  # 3.50x
        "legal-turns bytes on the wire": "PASS",  # 26,644 < 60,000
        "p99 / median, 300 sequential": "PASS",  # 2.25 < 2.5
        "/v1/check throughput / /healthz (wrk)": "PASS",  # 0.90 >= 0.8
        "request path < 3x bare check (every position, worst)": "MISS",
    }  # 3.2x
    for start, mark in expect.items():
        found = [m for label, m in marks.items() if label.startswith(start)]
        assert found == [mark], (start, lines)
    # nothing measured over HTTP: every HTTP row is a MISS that says so
    lines = _targets(bench, capsys, None, {"HPN, HTN (common)": 100.0, "JSON object, JSON turn": 160.0})
    assert sum("not measured" in line for line in lines) == 4
    assert any(line.startswith("batch per item") and line.endswith("MISS") for line in lines)  # 1.60x


def test_the_report_is_written_to_docs_speed_md(bench, tmp_path):
    path = tmp_path / "speed.md"
    bench.write_doc(["1. In-process\nfigures", "Pictures\nmore"], path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Speed: `make bench`\n")
    assert "## What it measures" in text and "1. In-process, over the positions" in text
    assert "## The latest run\n\n```text\n1. In-process\nfigures\n\nPictures\nmore\n```\n" in text


def test_the_shipped_docs_speed_md_is_the_benchmarks_own():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "speed.md").read_text(encoding="utf-8")
    assert text.startswith("# Speed: `make bench`\n\nWritten by `make bench`")
    assert "Hexodic checker benchmark" in text and "3. Targets" in text


def test_the_archive_section_marks_each_target():
    from bench import archive

    figures = {
        "one_core": (900.0, 300.0),
        "workers": {1: {"rate": 400.0}, 2: {"rate": 600.0}},
        "memory": {
            archive.SMALL: {"command": 100.0, "worker": 200.0},
            archive.LARGE: {"command": 105.0, "worker": 230.0},
        },
        "killed": (19_999, 20_000),
    }
    lines = archive.section(figures).splitlines()
    marks = [line.rsplit(" ", 1)[-1] for line in lines if line.strip().startswith("ratio") or "rows out" in line]
    # 3.00 meets >= 3.0; 1.50 misses >= 1.7; 1.05 meets <= 1.10; 1.15 misses; 19,999 rows of 20,000 misses
    assert marks == ["meets", "MISSES", "meets", "MISSES", "MISSES"]
