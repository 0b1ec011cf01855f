"""hexodic-check audit: one row per record, in input order, agreeing with
/v1/replay; nothing lost when a worker dies; resume; the inputs' forms and
their errors.  The Dask tests start a real LocalCluster, or a real
``dask scheduler`` and two ``dask worker`` processes on loopback."""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from bench.server import free_port
from checker.tools.audit import run as audit
from checker.tools.audit.records import COLUMNS, judge
from checker.tools.audit.selfplay import selfplay_records, write_archive
from checker.tools.cli import main
from checker.web import create_app
from tests.audit_helpers import ILLEGAL, rows_of, run_cli, write_lines

BIN = Path(sys.executable).parent


# ------------------------------------------------------------------ records ---


@pytest.mark.parametrize(
    "line, error",
    [
        (b"{not json", "the line is not JSON"),
        (b"[1, 2]", "the record must be a JSON object, not an array"),
        (b'{"id": 1}', "turns: missing"),
        (b'{"turns": []}', "id: missing"),
        (b'{"id": true, "turns": []}', "id: expected a string or an integer, not a boolean"),
        (b'{"id": 1.5, "turns": []}', "id: expected a string or an integer, not a number"),
        (b'{"id": 1, "turns": {"a": 1}}', "turns: expected a list of turns or a score sheet (a string), not an object"),
        (b'{"id": 1, "turns": ["c3 +d4", "z9"]}', "turns[1]: "),
        (b'{"id": 1, "turns": "1. c3 +d4 e5 +z4"}', "turns: the score sheet does not read: line 1, column"),
        (b'{"id": 1, "turns": [], "result": "C"}', 'result: expected "A", "B", "draw" or null, not "C"'),
        (b'{"id": 1, "turns": [], "start": 7}', "start: expected an HPN position (a string), not a number"),
        (b'{"id": 1, "turns": [], "start": "0000 A"}', "start: "),
        (b'{"id": 1, "turns": ' + json.dumps(["c3 +d4"] * 1001).encode() + b"}", "turns: 1,001 turns, more than 1,000"),
        (b'{"id": "\xff", "turns": []}', "the line is not UTF-8 text"),
    ],
)
def test_a_bad_record_names_the_field_and_the_problem(line, error):
    row = judge(line, "a.jsonl", 4)
    assert row["status"] == "bad-record" and row["checked"] == 0 and row["error"].startswith(error), row["error"]
    assert row["line"] == 4 and row["file"] == "a.jsonl" and row["first_illegal"] is None and row["result"] is None


def test_a_bad_turn_after_an_illegal_one_is_still_a_bad_record():
    """The record is read whole before it is judged."""
    row = judge(orjson.dumps({"id": 1, "turns": [*ILLEGAL, "q9"]}), "a.jsonl", 1)
    assert row["status"] == "bad-record" and row["error"].startswith("turns[3]: ")
    assert row["id"] == 1  # read before the turns


def test_an_inconsistent_start_is_a_bad_record():
    # B to move at half-move 0: position.to-move (RULES D-3)
    start = "0000/00000/000000/0000000/000000/00000/0000 B 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
    row = judge(orjson.dumps({"id": 1, "turns": [], "start": start}), "a.jsonl", 1)
    assert row["status"] == "bad-record" and row["error"] == row["error"].strip()
    assert row["error"].startswith("start: not a consistent position (position.to-move")


def test_illegal_ok_and_mismatch():
    row = judge(orjson.dumps({"id": "g", "turns": ILLEGAL, "result": "A"}), "f", 1)
    assert (row["status"], row["checked"], row["first_illegal"], row["violations"]) == (
        "illegal",
        3,
        2,
        ["place.empty"],
    )
    assert row["result"] is None and row["claimed"] == "A"
    # a claim on a game still going on is a mismatch; no claim is ok
    row = judge(orjson.dumps({"id": "g", "turns": ILLEGAL[:2], "result": "draw"}), "f", 1)
    assert (row["status"], row["result"], row["reason"], row["checked"]) == ("result-mismatch", None, None, 2)
    row = judge(orjson.dumps({"id": "g", "turns": ILLEGAL[:2]}), "f", 1)
    assert (row["status"], row["claimed"]) == ("ok", None)


def test_a_whole_game_its_result_and_a_turn_past_its_end():
    (record,) = selfplay_records(1, seed=3)
    row = judge(orjson.dumps(record), "f", 1)
    assert row["status"] == "ok" and row["result"] == record["result"] and row["reason"] is not None
    wrong = {"A": "B", "B": "A", "draw": "A"}[record["result"]]
    assert judge(orjson.dumps({**record, "result": wrong}), "f", 1)["status"] == "result-mismatch"
    turns = record["turns"] if isinstance(record["turns"], list) else None
    if turns is not None:
        row = judge(orjson.dumps({**record, "turns": [*turns, turns[-1]]}), "f", 1)
        # a turn after the game's end is illegal: game.over (so are the 61st and later)
        assert row["status"] == "illegal" and row["first_illegal"] == len(turns) and "game.over" in row["violations"]


def test_a_given_start_is_the_first_position_with_an_empty_history():
    start = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"  # after c3 +d4
    row = judge(orjson.dumps({"id": 1, "turns": ["e5 +d4", "e5 +d5"], "start": start}), "f", 1)
    assert (row["status"], row["first_illegal"], row["violations"]) == ("illegal", 1, ["place.empty"])


def test_turn_objects_are_read_as_the_api_reads_them():
    turns = [{"project": {"kind": "place", "cell": "c3"}, "shape": {"kind": "raise", "cell": "d4"}}, "e5 +d4"]
    row = judge(orjson.dumps({"id": 1, "turns": turns}), "f", 1)
    assert row["status"] == "ok" and row["checked"] == 2


# ------------------------------------------- the rows agree with /v1/replay ---


def test_every_row_of_a_spoilt_selfplay_archive_agrees_with_v1_replay():
    """Property: for each record of a self-play archive with illegal turns,
    wrong claims and bad lines mixed in, the row says what /v1/replay says
    of the same game (records of at most 60 turns: /v1/replay's limit)."""
    client = create_app({"TESTING": True}).test_client()
    seen = set()
    for n, record in enumerate(selfplay_records(120, seed=11, spoil=0.5)):
        row = judge(record if isinstance(record, bytes) else orjson.dumps(record), "f", n + 1)
        seen.add(row["status"])
        if row["status"] == "bad-record":
            continue
        body = {"turns": record["turns"] if isinstance(record["turns"], list) else None}
        if body["turns"] is None:
            from checker.scoresheet import read_score_sheet

            body["turns"] = [t.text for t in read_score_sheet(record["turns"])]
        answer = client.post("/v1/replay", json=body).get_json()
        assert row["checked"] == answer["checked"]
        if answer["legal"]:
            game = answer["game"]
            assert (row["result"], row["reason"]) == (game["result"] if game["over"] else None, game["reason"])
            claimed = record.get("result")
            assert row["status"] == ("ok" if claimed is None or claimed == row["result"] else "result-mismatch")
        else:
            first = answer["first_illegal"]
            assert row["status"] == "illegal"
            assert (row["first_illegal"], row["violations"]) == (first["index"], first["verdict"]["violations"])
    assert seen == {"ok", "illegal", "result-mismatch", "bad-record"}


# ------------------------------------------------------------- the command ---


def test_in_process_rows_are_one_per_record_in_order(archive, expected, tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    code, lines, err = run_cli(str(archive), "--out", str(out), "--workers", "0", "--chunk", "7", capsys=capsys)
    assert code == 1 and err == ""  # some rows are not ok
    assert rows_of(out) == expected
    assert [r["line"] for r in expected][:5] == [1, 2, 3, 6, 7]  # blank lines 4 and 5 counted, skipped
    statuses = {s: sum(r["status"] == s for r in expected) for s in ("ok", "illegal", "result-mismatch", "bad-record")}
    assert lines[0] == "audit: 240 records: " + ", ".join(f"{n:,} {s}" for s, n in statuses.items())


def test_a_local_dask_cluster_gives_the_same_rows(archive, expected, tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    code, lines, _ = run_cli(str(archive), "--out", str(out), "--workers", "2", "--chunk", "9", capsys=capsys)
    assert code == 1
    assert rows_of(out) == expected
    assert any(line.startswith("speed: 240 games judged") and line.endswith("(2 workers)") for line in lines)


def test_the_progress_bar_is_on_stderr_when_asked(tmp_path, capsys):
    path = write_lines(tmp_path / "ok.jsonl", selfplay_records(3, seed=2))
    code = main(["audit", str(path), "--out", str(tmp_path / "o.jsonl"), "--workers", "0", "--progress"])
    captured = capsys.readouterr()
    assert code == 0 and re.search(r"3 games \[", captured.err), captured.err
    assert "games [" not in captured.out


def test_every_row_ok_is_exit_0(tmp_path, capsys):
    path = write_lines(tmp_path / "ok.jsonl", selfplay_records(4, seed=2))
    code, lines, _ = run_cli(str(path), "--out", str(tmp_path / "o.jsonl"), "--workers", "0", capsys=capsys)
    assert code == 0 and lines[0] == "audit: 4 records: 4 ok, 0 illegal, 0 result-mismatch, 0 bad-record"


def test_compressed_parquet_globs_and_directories(archive, expected, tmp_path, capsys):
    parts = tmp_path / "parts"
    parts.mkdir()
    data = archive.read_bytes()
    (parts / "b.jsonl.gz").write_bytes(gzip.compress(data))
    import zstandard

    (parts / "a.jsonl.zst").write_bytes(zstandard.ZstdCompressor().compress(data))
    (parts / "_SUCCESS").write_bytes(b"")
    out = tmp_path / "rows.jsonl"
    code, _, _ = run_cli(str(parts), str(archive), "--out", str(out), "--workers", "0", capsys=capsys)
    assert code == 1
    rows = rows_of(out)
    names = [str(parts / "a.jsonl.zst"), str(parts / "b.jsonl.gz"), str(archive)]
    assert [r["file"] for r in rows] == [n for n in names for _ in expected]
    strip = [{k: v for k, v in r.items() if k != "file"} for r in expected]
    assert [{k: v for k, v in r.items() if k != "file"} for r in rows] == strip * 3
    # a glob, in sorted order; Parquet in and out
    pq_in = tmp_path / "games.parquet"
    write_archive(str(pq_in), 30, seed=8)
    pq_out = tmp_path / "rows.parquet"
    code, _, _ = run_cli(
        str(tmp_path / "parts" / "*.gz"), str(pq_in), "--out", str(pq_out), "--workers", "0", capsys=capsys
    )
    import pyarrow.parquet as pq

    table = pq.read_table(pq_out).to_pylist()
    assert len(table) == len(expected) + 30 and list(table[0]) == list(COLUMNS)
    assert table[-1]["file"] == str(pq_in) and table[-1]["line"] == 30 and table[-1]["status"] == "ok"
    assert table[-1]["id"] == "selfplay-8-29" and not (tmp_path / "rows.parquet.partial.jsonl").exists()


@pytest.mark.parametrize(
    "setup, message",
    [
        (lambda d: ["missing.jsonl"], "missing.jsonl: cannot be opened (No such file or directory)"),
        (lambda d: [str(d / "*.nothing")], "*.nothing: the pattern matches no file"),
        (lambda d: [str(write_lines(d / "empty.jsonl", [b"", b" "]))], "empty.jsonl: the file holds no record"),
        (lambda d: [_parquet_without_turns(d)], "the Parquet file has no 'turns' column"),
    ],
    ids=["no-path", "no-match", "no-record", "no-turns-column"],
)
def test_unusable_input_is_exit_2_in_one_line_before_any_work(tmp_path, capsys, setup, message):
    inputs = setup(tmp_path)
    code, lines, err = run_cli(*inputs, "--out", str(tmp_path / "o.jsonl"), "--workers", "0", capsys=capsys)
    assert code == 2 and lines == [] and len(err.splitlines()) == 1 and message in err, err
    assert not (tmp_path / "o.jsonl").exists()


def _parquet_without_turns(d: Path) -> str:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": ["a"], "moves": ["c3 +d4"]}), d / "x.parquet")
    return str(d / "x.parquet")


def test_an_existing_out_needs_resume_or_force(archive, tmp_path, capsys):
    out = tmp_path / "o.jsonl"
    out.write_text("keep\n")
    code, _, err = run_cli(str(archive), "--out", str(out), "--workers", "0", capsys=capsys)
    assert code == 2 and "exists; --resume to go on from its rows, --force to write it anew" in err
    assert out.read_text() == "keep\n"
    code, _, _ = run_cli(str(archive), "--out", str(out), "--workers", "0", "--force", capsys=capsys)
    assert code == 1 and len(rows_of(out)) == 240


def test_a_compressed_file_cut_short_is_exit_2_after_the_rows_before_the_cut(archive, expected, tmp_path, capsys):
    cut = tmp_path / "cut.jsonl.gz"
    whole = gzip.compress(archive.read_bytes())
    cut.write_bytes(whole[: len(whole) * 2 // 3])
    out = tmp_path / "o.jsonl"
    code, _, err = run_cli(str(cut), "--out", str(out), "--workers", "0", capsys=capsys)
    assert code == 2 and f"{cut}: the file is cut short or damaged" in err and len(err.splitlines()) == 1
    rows = rows_of(out)
    assert 0 < len(rows) < len(expected)
    assert [{**r, "file": "x"} for r in rows] == [{**r, "file": "x"} for r in expected[: len(rows)]]


def test_resume_keeps_the_rows_and_judges_only_the_rest(archive, expected, tmp_path, capsys):
    out = tmp_path / "o.jsonl"
    done = b"".join(orjson.dumps(r) + b"\n" for r in expected[:100])
    out.write_bytes(done + orjson.dumps(expected[100])[:20])  # a run stopped while writing row 101
    code, lines, _ = run_cli(str(archive), "--out", str(out), "--workers", "0", "--resume", capsys=capsys)
    assert code == 1 and rows_of(out) == expected
    assert lines[0].startswith("audit: 240 records: ")
    assert any(line.startswith("speed: 140 games judged") for line in lines)


def test_the_report_is_one_offline_page_with_charts_and_links(archive, tmp_path, capsys):
    report = tmp_path / "report.html"
    code, lines, _ = run_cli(
        str(archive),
        "--out",
        str(tmp_path / "o.jsonl"),
        "--workers",
        "0",
        "--report",
        str(report),
        "--site",
        "https://hexodic.example",
        capsys=capsys,
    )
    page = report.read_text(encoding="utf-8")
    # offline: no script, no stylesheet, image or font fetched from anywhere
    assert page.count("<svg") == 4 and "<script" not in page and "<link" not in page
    assert not re.search(r"(src|href)=['\"](?!https://hexodic\.example/game\?|#)", page)
    for title in ("Records by status", "Violations by rule id", "Game lengths", "Throughput over time"):
        assert f"<h2>{title}</h2>" in page
    assert "href='https://hexodic.example/game?turns=" in page and "&amp;at=" in page


# ------------------------------------- a real scheduler, workers, a SIGKILL ---


@pytest.fixture
def dask_cluster(tmp_path):
    """``dask scheduler`` and two ``dask worker`` processes on loopback, from this environment."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    # as deploy/audit/ runs them: Dask's debugging logs kept short (checker/tools/audit/run.py)
    env = {**os.environ, "DASK_DISTRIBUTED__ADMIN__LOW_LEVEL_LOG_LENGTH": "10"}
    common = {"cwd": tmp_path, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
    scheduler = subprocess.Popen(
        [BIN / "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], **common
    )
    workers = [
        subprocess.Popen(
            [
                BIN / "dask",
                "worker",
                address,
                "--nthreads",
                "1",
                "--nworkers",
                "1",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
                "--no-nanny",
            ],
            **common,
        )
        for _ in range(2)
    ]
    from distributed import Client

    with Client(address, timeout="20s") as client:
        client.wait_for_workers(2, timeout=30)
    try:
        yield address, workers
    finally:
        for proc in [*workers, scheduler]:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in [*workers, scheduler]:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_an_existing_cluster_loses_nothing_when_a_worker_is_killed(dask_cluster, archive, expected, tmp_path):
    address, workers = dask_cluster
    out = tmp_path / "rows.jsonl"
    killed = []

    def kill_once(_rows: int) -> None:
        if not killed:
            workers[0].send_signal(signal.SIGKILL)
            killed.append(time.monotonic())

    options = audit.Options([str(archive)], str(out), scheduler=address, chunk=5, window=8)
    outcome = audit.audit(options, on_rows=kill_once)
    assert killed and workers[0].wait(timeout=10) == -signal.SIGKILL
    rows = rows_of(out)
    assert len(rows) == len(expected) == outcome.summary.total  # rows out / records in: exactly 1.0
    assert rows == expected


def test_a_scheduler_that_does_not_answer_is_exit_2(archive, tmp_path):
    options = audit.Options(
        [str(archive)], str(tmp_path / "o.jsonl"), scheduler=f"tcp://127.0.0.1:{free_port()}", connect_timeout=1
    )
    with pytest.raises(audit.AuditError, match="no Dask scheduler answers"):
        audit.audit(options)
    assert not (tmp_path / "o.jsonl").exists()  # refused before any work


def test_selfplay_writes_an_archive_the_audit_reads(tmp_path, capsys):
    path = tmp_path / "sp.jsonl.gz"
    assert main(["selfplay", "--games", "5", "--seed", "4", "--out", str(path)]) == 0
    assert capsys.readouterr().out == f"selfplay: 5 records written to {path}\n"
    records = [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    assert [r["id"] for r in records] == [f"selfplay-4-{n}" for n in range(5)]
    assert main(["selfplay", "--games", "5", "--out", str(path)]) == 2  # exists
    assert "exists; --force" in capsys.readouterr().err
    assert os.path.getsize(path) > 0
