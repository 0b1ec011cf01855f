"""The archive audit's behaviours, each held by a test that fails when it
breaks (issue 33): --resume never loses or repeats a row, whatever the other
options and in both output formats; a cut input never leaves a finished
Parquet file; --workers 0 with --scheduler judges nothing here; directories
of parts leave out every hidden file and folder; zstd frames, last lines and
names in any case; records at their limits; the exit status; the report's
link, index and escaping; an input with no record named."""

from __future__ import annotations

import gzip
import html
import io
import json
import random
import re
import shutil
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import pytest

from checker.tools.audit import records as records_module
from checker.tools.audit import run as audit
from checker.tools.audit.inputs import expand
from checker.tools.audit.records import COLUMNS, MAX_TURNS, judge
from checker.tools.audit.report import Summary, write_report
from checker.tools.audit.selfplay import SPOILS, _sheet, _spoil, selfplay_records, write_archive
from checker.web import create_app
from schemas.fields import MAX_HTN_LENGTH
from tests.audit_helpers import ILLEGAL, rows_of, run_cli, write_lines

SITE = "https://hexodic.example"


def parquet_rows(path: Path) -> list[dict]:
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist()


def as_parquet(rows: list[dict]) -> list[dict]:
    """OUT's rows as the Parquet file holds them: the id as text."""
    return [{**r, "id": None if r["id"] is None else str(r["id"])} for r in rows]


def judged_here_is_an_error(monkeypatch) -> None:
    """Judging a record in this process fails the test (the workers are other processes)."""

    def refuse(*args, **kwargs):
        raise AssertionError("a record was judged in the command's own process")

    monkeypatch.setattr(records_module, "judge", refuse)


def speed_line(lines: list[str]) -> str:
    (line,) = [line for line in lines if line.startswith("speed: ")]
    return line


# ------------------------------------------------------------ --resume ---


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, after some chunks are written."""


def interrupted_run(archive: Path, out: Path, chunks: int, cut: bytes = b"") -> int:
    """An audit stopped by Ctrl-C after ``chunks`` chunks of 7 were written,
    then (a killed command) ``cut``, a row's first bytes, left at the end of
    the rows; returns the rows kept."""
    written = []

    def stop(n: int) -> None:
        written.append(n)
        if len(written) == chunks:
            raise Interrupted

    with pytest.raises(Interrupted):
        audit.audit(audit.Options([str(archive)], str(out), workers=0, chunk=7), on_rows=stop)
    partial = out.with_name(out.name + ".partial.jsonl") if out.suffix == ".parquet" else out
    assert len(rows_of(partial)) == sum(written) and not (out.suffix == ".parquet" and out.exists())
    with partial.open("ab") as fh:
        fh.write(cut)
    return sum(written)


def report_table(path: Path) -> str:
    page = path.read_text(encoding="utf-8")
    return page[page.index("<h2>Records that are not ok") :]


@pytest.fixture(scope="module")
def short(archive, expected, tmp_path_factory) -> tuple[Path, list[dict]]:
    """The archive's first 80 lines (77 records, every status), and their rows."""
    path = tmp_path_factory.mktemp("short") / "games.jsonl"
    path.write_bytes(b"".join(archive.read_bytes().splitlines(keepends=True)[:80]))
    rows = [{**r, "file": str(path)} for r in expected if r["line"] <= 80]
    assert {r["status"] for r in rows} == {"ok", "illegal", "result-mismatch", "bad-record"}
    return path, rows


@pytest.fixture(scope="module")
def whole_report(short, tmp_path_factory) -> str:
    """The report's table of an audit of ``short`` that ran through, with links."""
    folder = tmp_path_factory.mktemp("whole")
    report = folder / "report.html"
    code, _, _ = run_cli(
        str(short[0]), "--out", str(folder / "o.jsonl"), "--workers", "0", "--report", str(report), "--site", SITE
    )
    assert code == 1
    return report_table(report)


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
@pytest.mark.parametrize(
    "flags",
    [[], ["--force"], ["--chunk", "13"], ["--chunk", "1000", "--force"], ["--report", "R", "--site", SITE]],
    ids=["resume", "resume-force", "other-chunk", "one-chunk-force", "report"],
)
@pytest.mark.parametrize("chunks, cut", [(1, b""), (6, b'{"line": 3')], ids=["1", "6-cut"])
def test_resume_never_loses_or_repeats_a_row(short, whole_report, tmp_path, capsys, suffix, flags, chunks, cut):
    archive, expected = short
    out = tmp_path / f"rows{suffix}"
    kept = interrupted_run(archive, out, chunks, cut)
    flags = [str(tmp_path / "report.html") if f == "R" else f for f in flags]
    code, lines, err = run_cli(str(archive), "--out", str(out), "--workers", "0", "--resume", *flags, capsys=capsys)
    assert code == 1 and err == ""
    if suffix == ".parquet":
        assert parquet_rows(out) == as_parquet(expected)
        assert not out.with_name(out.name + ".partial.jsonl").exists()
    else:
        assert rows_of(out) == expected
    # the kept rows were not judged again, and the summary counts every row once
    assert speed_line(lines).startswith(f"speed: {len(expected) - kept:,} games judged")
    assert lines[0].startswith(f"audit: {len(expected)} records: {sum(r['status'] == 'ok' for r in expected)} ok")
    if "--report" in flags:  # the kept rows are listed, with their links, as by a run that went through
        assert report_table(tmp_path / "report.html") == whole_report


def test_resume_on_a_cluster_with_workers_0_judges_only_the_rest_there(
    local_cluster, short, tmp_path, capsys, monkeypatch
):
    archive, expected = short
    out = tmp_path / "rows.parquet"
    kept = interrupted_run(archive, out, 3, b'{"li')
    judged_here_is_an_error(monkeypatch)
    code, lines, _ = run_cli(
        str(archive), "--out", str(out), "--resume", "--scheduler", local_cluster, "--workers", "0", capsys=capsys
    )
    assert code == 1 and parquet_rows(out) == as_parquet(expected)
    assert speed_line(lines).startswith(f"speed: {len(expected) - kept:,} games judged")


@pytest.mark.parametrize("flags", [[], ["--force"]], ids=["resume", "resume-force"])
def test_a_finished_parquet_audit_resumed_says_it_is_complete_and_judges_nothing(
    archive, tmp_path, capsys, monkeypatch, flags
):
    out = tmp_path / "rows.parquet"
    assert run_cli(str(archive), "--out", str(out), "--workers", "0", capsys=capsys)[0] == 1
    finished = out.read_bytes()
    judged_here_is_an_error(monkeypatch)
    code, lines, err = run_cli(str(archive), "--out", str(out), "--workers", "0", "--resume", *flags, capsys=capsys)
    assert code == 2 and lines == []
    assert err == f"hexodic-check: error: {out}: the audit is already complete (nothing to resume)\n"
    assert out.read_bytes() == finished and not out.with_name(out.name + ".partial.jsonl").exists()


def _cut_gzip(data: bytes) -> bytes:
    whole = gzip.compress(data)
    return whole[: len(whole) * 2 // 3]


def _cut_zstd(data: bytes) -> bytes:
    """Two frames, the second cut: a zstd block is decoded whole, so the rows
    before the cut are those of the first frame."""
    first, second = _frames(data[: len(data) // 2], []), _frames(data[len(data) // 2 :], [])
    return first + second[: len(second) // 2]


@pytest.mark.parametrize("name, cut", [("games.jsonl.gz", _cut_gzip), ("games.jsonl.zst", _cut_zstd)])
def test_an_input_cut_short_never_leaves_a_finished_parquet_file(archive, expected, tmp_path, capsys, name, cut):
    path = tmp_path / name
    path.write_bytes(cut(archive.read_bytes()))
    out = tmp_path / "rows.parquet"
    partial = tmp_path / "rows.parquet.partial.jsonl"
    mine = [{**r, "file": str(path)} for r in expected]
    code, _, err = run_cli(str(path), "--out", str(out), "--workers", "0", capsys=capsys)
    assert code == 2 and f"{path}: the file is cut short or damaged" in err and len(err.splitlines()) == 1
    assert not out.exists()  # the rows stay partial
    rows = rows_of(partial)
    assert 0 < len(rows) < len(expected) and rows == mine[: len(rows)]
    # resumed while still cut: the same rows, still partial, exit 2 again
    code, _, err = run_cli(str(path), "--out", str(out), "--workers", "0", "--resume", capsys=capsys)
    assert code == 2 and not out.exists() and rows_of(partial) == rows
    # the whole file back: --resume judges the records after the kept rows and finishes the Parquet file
    shutil.copyfile(archive, tmp_path / "whole.jsonl")
    compress = gzip.compress if name.endswith(".gz") else __import__("zstandard").ZstdCompressor().compress
    path.write_bytes(compress(archive.read_bytes()))
    code, lines, _ = run_cli(str(path), "--out", str(out), "--workers", "0", "--resume", capsys=capsys)
    assert code == 1 and parquet_rows(out) == as_parquet(mine) and not partial.exists()
    assert speed_line(lines).startswith(f"speed: {len(expected) - len(rows):,} games judged")


def test_the_parquet_id_column_is_text(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = write_lines(
        tmp_path / "ids.jsonl",
        [
            {"id": 7, "turns": ["c3 +d4"]},
            {"id": "g7", "turns": ["c3 +d4"]},
            {"id": 2**62, "turns": ["c3 +d4"]},
            {"id": -3, "turns": ["c3 +d4"]},
            {"turns": []},  # no id: null
        ],
    )
    out = tmp_path / "rows.parquet"
    assert run_cli(str(path), "--out", str(out), "--workers", "0", capsys=capsys)[0] == 1
    assert pq.read_schema(out).field("id").type == pa.string()
    assert [r["id"] for r in parquet_rows(out)] == ["7", "g7", str(2**62), "-3", None]
    # a Parquet input's integer ids too
    pq.write_table(pa.table({"id": [11, 12], "turns": ["c3 +d4", "1. c3 +d4 e5 +d4"]}), tmp_path / "in.parquet")
    out2 = tmp_path / "rows2.parquet"
    assert run_cli(str(tmp_path / "in.parquet"), "--out", str(out2), "--workers", "0", capsys=capsys)[0] == 0
    assert [r["id"] for r in parquet_rows(out2)] == ["11", "12"]


# ------------------------------------------------- --workers 0 --scheduler ---


@pytest.fixture(scope="module")
def local_cluster():
    """A Dask cluster of one worker process: its address, as --scheduler takes it."""
    distributed = pytest.importorskip("distributed")
    import logging

    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster:
        yield cluster.scheduler_address


def test_workers_0_with_a_scheduler_judges_nothing_in_this_process(
    local_cluster, archive, expected, tmp_path, capsys, monkeypatch
):
    judged_here_is_an_error(monkeypatch)
    out = tmp_path / "rows.jsonl"
    code, lines, err = run_cli(
        str(archive), "--out", str(out), "--workers", "0", "--scheduler", local_cluster, "--chunk", "50", capsys=capsys
    )
    assert code == 1 and err == "" and rows_of(out) == expected
    assert speed_line(lines).endswith("(1 worker)")


# ------------------------------------------------------ directories of parts ---


def test_a_directory_of_parts_leaves_out_hidden_files_and_folders_at_any_depth(archive, expected, tmp_path, capsys):
    """A Spark output folder: its parts, _SUCCESS, .crc files, and _temporary/
    holding copies of the parts (read, every record would count twice)."""
    data = archive.read_bytes()
    out_dir = tmp_path / "_spark-out"  # the directory given may itself start with _
    parts = [out_dir / "part-00000.jsonl", out_dir / "year=2026" / "part-00001.jsonl.gz"]
    parts[0].parent.mkdir()
    parts[1].parent.mkdir()
    parts[0].write_bytes(data)
    parts[1].write_bytes(gzip.compress(data))
    hidden = [
        out_dir / "_SUCCESS",
        out_dir / ".part-00000.jsonl.crc",
        out_dir / "_part-00002.jsonl",
        out_dir / ".part-00003.jsonl",
        out_dir / "_temporary" / "0" / "task_0" / "part-00000.jsonl",
        out_dir / "year=2026" / "_temporary" / "part-00001.jsonl.gz",
        out_dir / "year=2026" / ".staging" / "part-00004.jsonl",
        out_dir / "year=2026" / "ok" / "_tmp" / "deep" / "part-00005.jsonl",
    ]
    for path in hidden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if path.suffix != ".gz" else gzip.compress(data))
    assert [s.name for s in expand([str(out_dir)])] == [str(p) for p in parts]
    out = tmp_path / "rows.jsonl"
    code, lines, _ = run_cli(str(out_dir), "--out", str(out), "--workers", "0", capsys=capsys)
    assert code == 1 and lines[0].startswith(f"audit: {2 * len(expected)} records: ")
    assert rows_of(out) == [{**r, "file": str(p)} for p in parts for r in expected]


def test_a_directory_of_only_hidden_parts_holds_none(tmp_path, capsys):
    (tmp_path / "d" / "_temporary").mkdir(parents=True)
    write_lines(tmp_path / "d" / "_temporary" / "part-0.jsonl", [{"id": 1, "turns": []}])
    code, _, err = run_cli(str(tmp_path / "d"), "--out", str(tmp_path / "o.jsonl"), "--workers", "0", capsys=capsys)
    assert code == 2 and "the directory holds no JSON Lines or Parquet file" in err


# --------------------------------------------------------------------- zstd ---


def _frames(data: bytes, at: list[int]) -> bytes:
    """``data`` as zstd frames split at the byte offsets ``at`` (inside lines too)."""
    import zstandard

    bounds = [0, *at, len(data)]
    return b"".join(zstandard.ZstdCompressor().compress(data[a:b]) for a, b in zip(bounds, bounds[1:]))


@pytest.mark.parametrize("read_size", [1 << 16, 7])
def test_every_frame_of_a_multi_frame_zstd_file_is_read(archive, expected, tmp_path, capsys, monkeypatch, read_size):
    from checker.tools.audit import inputs

    monkeypatch.setattr(inputs, "READ_SIZE", read_size)  # frames and lines across the blocks read
    data = archive.read_bytes()
    path = tmp_path / "games.jsonl.zst"
    path.write_bytes(_frames(data, [len(data) // 5, len(data) // 2 + 3, len(data) - 40]))
    out = tmp_path / "rows.jsonl"
    assert run_cli(str(path), "--out", str(out), "--workers", "0", capsys=capsys)[0] == 1
    assert rows_of(out) == [{**r, "file": str(path)} for r in expected]


@pytest.mark.parametrize("name", ["games.jsonl", "games.jsonl.gz", "games.jsonl.zst", "games.jsonl.zst-frames"])
def test_a_last_line_without_a_newline_is_read(archive, expected, tmp_path, capsys, name):
    import zstandard

    data = archive.read_bytes().rstrip(b"\n")
    assert not data.endswith(b"\n")
    path = tmp_path / name.removesuffix("-frames")
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(data))
    elif name.endswith(".zst"):
        path.write_bytes(zstandard.ZstdCompressor().compress(data))
    elif name.endswith("-frames"):
        path.write_bytes(_frames(data, [len(data) - 5]))  # the last line ends in a frame of its own
    else:
        path.write_bytes(data)
    out = tmp_path / "rows.jsonl"
    assert run_cli(str(path), "--out", str(out), "--workers", "0", capsys=capsys)[0] == 1
    assert rows_of(out) == [{**r, "file": str(path)} for r in expected]


@pytest.mark.parametrize("where", ["first-frame", "last-frame", "header"])
def test_a_zstd_file_cut_inside_a_frame_is_exit_2_naming_the_file(archive, expected, tmp_path, capsys, where):
    data = archive.read_bytes()
    half = data.index(b"\n", len(data) // 2) + 1  # the second frame starts with a line
    first, second = _frames(data[:half], []), _frames(data[half:], [])
    cut = {"first-frame": first[:-9], "last-frame": first + second[: len(second) // 2], "header": first + second[:3]}
    path = tmp_path / "games.jsonl.zst"
    path.write_bytes(cut[where])
    out = tmp_path / "rows.jsonl"
    code, _, err = run_cli(str(path), "--out", str(out), "--workers", "0", capsys=capsys)
    assert code == 2 and len(err.splitlines()) == 1
    assert err.startswith(f"hexodic-check: error: {path}: the file is cut short or damaged")
    rows = rows_of(out)
    assert rows == [{**r, "file": str(path)} for r in expected[: len(rows)]]
    if where != "first-frame":  # every record of the whole first frame has its row
        assert len(rows) >= data[:half].count(b"\n") - 2  # the two blank lines have none


@pytest.mark.parametrize("name", ["GAMES.JSONL.GZ", "Games.Jsonl.Zst", "GAMES.PARQUET", "games.JSONL"])
def test_a_files_kind_is_read_from_its_name_in_any_case(archive, expected, tmp_path, capsys, name):
    import zstandard

    data = archive.read_bytes()
    kind = name.lower()
    path = tmp_path / name
    if kind.endswith(".gz"):
        path.write_bytes(gzip.compress(data))
    elif kind.endswith(".zst"):
        path.write_bytes(zstandard.ZstdCompressor().compress(data))
    elif kind.endswith(".parquet"):
        write_archive(str(tmp_path / "x.parquet"), 12, seed=8)
        (tmp_path / "x.parquet").rename(path)
    else:
        path.write_bytes(data)
    out = tmp_path / "rows.jsonl"
    for given in (str(path), str(tmp_path)):  # by name, and as a part of a directory
        code, _, _ = run_cli(given, "--out", str(out), "--workers", "0", "--force", capsys=capsys)
        rows = rows_of(out)
        if kind.endswith(".parquet"):
            assert code == 0 and len(rows) == 12 and rows[0]["id"] == "selfplay-8-0"
        else:
            assert code == 1 and rows == [{**r, "file": str(path)} for r in expected]


def test_a_globs_matches_are_files_only(archive, expected, tmp_path, capsys):
    (tmp_path / "b.jsonl").mkdir()  # a folder whose name the glob matches
    write_lines(tmp_path / "b.jsonl" / "inside.jsonl", [{"id": "x", "turns": []}])
    shutil.copyfile(archive, tmp_path / "a.jsonl")
    out = tmp_path / "rows.out"
    code, _, err = run_cli(str(tmp_path / "*.jsonl"), "--out", str(out), "--workers", "0", capsys=capsys)
    assert code == 1 and err == ""
    assert rows_of(out) == [{**r, "file": str(tmp_path / "a.jsonl")} for r in expected]
    (tmp_path / "a.jsonl").unlink()
    code, _, err = run_cli(str(tmp_path / "*.jsonl"), "--out", str(out), "--workers", "0", "--force", capsys=capsys)
    assert code == 2 and "*.jsonl: the pattern matches no file" in err


# ------------------------------------------------------ records at their limits ---


def _row(record: dict) -> dict:
    return judge(orjson.dumps(record), "f.jsonl", 1)


@pytest.mark.parametrize("form", ["list", "score-sheet"])
def test_exactly_1000_turns_is_a_record_and_1001_a_bad_one(form):
    def record(n: int) -> dict:
        turns = ["c3 +d4"] * n
        return {"id": 1, "turns": turns if form == "list" else "; ".join(turns)}

    row = _row(record(MAX_TURNS))
    # the second c3 +d4 is B's Place on A's stone: judged, not refused
    assert (row["status"], row["first_illegal"], row["error"]) == ("illegal", 1, None)
    row = _row(record(MAX_TURNS + 1))
    assert row["status"] == "bad-record" and row["error"] == "turns: 1,001 turns, more than 1,000"


def test_the_longest_turn_text_is_read_and_one_character_more_is_not():
    longest = "c3 +d4".ljust(MAX_HTN_LENGTH)
    assert len(longest) == MAX_HTN_LENGTH == 64
    for text in (longest, longest.rjust(MAX_HTN_LENGTH), "   c3  +d4".center(MAX_HTN_LENGTH)):
        row = _row({"id": 1, "turns": [text, "e5 +d4"]})
        assert (row["status"], row["checked"]) == ("ok", 2), text
    row = _row({"id": 1, "turns": ["c3 +d4", "e5 +d4".ljust(MAX_HTN_LENGTH + 1)]})
    assert row["status"] == "bad-record" and row["error"] == "turns[1]: HTN text longer than 64 characters"


@pytest.mark.parametrize("start", ["", " "], ids=["empty", "blank"])
def test_an_empty_start_is_a_bad_record_naming_start(start):
    row = _row({"id": 1, "turns": ["c3 +d4"], "start": start})
    assert row["status"] == "bad-record" and row["error"].startswith("start: HPN: ") and row["checked"] == 0


def _hand_vector(vector_id: str) -> dict:
    text = resources.files("checker.data").joinpath("vectors_hand.jsonl").read_text(encoding="utf-8")
    (vector,) = [v for line in text.splitlines() if line.strip() and (v := json.loads(line))["id"] == vector_id]
    return vector


# hand-end-12: A and B Move back and forth from the position at half-move 48; B's fourth turn recreates it.
DANCE_START = _hand_vector("hand-end-12")["history"][1]
DANCE = ["a1-a2", "g7-g6", "a2-a1", "g6-g7"]


def test_a_game_from_a_given_start_counts_repetitions_from_that_start():
    row = _row({"id": 1, "turns": DANCE, "start": DANCE_START, "result": "A"})
    assert (row["status"], row["result"], row["reason"], row["checked"]) == ("ok", "A", "repetition", 4)
    # the game is over: a turn after it is illegal (game.over), though the position alone is not over
    row = _row({"id": 1, "turns": [*DANCE, "a1-a2"], "start": DANCE_START, "result": "A"})
    assert (row["status"], row["first_illegal"], row["violations"]) == ("illegal", 4, ["game.over"])
    # the start was not part of the game before: three turns recreate nothing
    row = _row({"id": 1, "turns": DANCE[:3], "start": DANCE_START})
    assert (row["status"], row["result"], row["reason"]) == ("ok", None, None)


# ------------------------------------------------------------- exit status ---


def test_a_result_mismatch_alone_is_exit_1(tmp_path, capsys):
    records = list(selfplay_records(3, seed=2))
    wrong = {"A": "B", "B": "draw", "draw": "A"}[records[1]["result"]]
    records[1] = {**records[1], "result": wrong}
    path = write_lines(tmp_path / "games.jsonl", records)
    code, lines, _ = run_cli(str(path), "--out", str(tmp_path / "o.jsonl"), "--workers", "0", capsys=capsys)
    assert code == 1 and lines[0] == "audit: 3 records: 2 ok, 0 illegal, 1 result-mismatch, 0 bad-record"
    assert [r["status"] for r in rows_of(tmp_path / "o.jsonl")] == ["ok", "result-mismatch", "ok"]


@pytest.mark.parametrize(
    "files, named",
    [
        ({"empty.jsonl": b"\n  \n"}, "{d}/empty.jsonl: the file holds no record"),
        ({"empty.jsonl.gz": gzip.compress(b"")}, "{d}/empty.jsonl.gz: the file holds no record"),
        ({"a.jsonl": b"", "b.jsonl": b"\n"}, "{d}/a.jsonl, {d}/b.jsonl: the 2 files hold no record"),
        ({"empty.parquet": None}, "{d}/empty.parquet: the file holds no record"),
    ],
    ids=["blank-lines", "gzip", "two-files", "parquet"],
)
def test_an_input_with_no_record_names_the_file(tmp_path, capsys, files, named):
    import pyarrow as pa
    import pyarrow.parquet as pq

    for name, data in files.items():
        if data is None:
            pq.write_table(
                pa.table({"id": pa.array([], pa.string()), "turns": pa.array([], pa.string())}), tmp_path / name
            )
        else:
            (tmp_path / name).write_bytes(data)
    out = tmp_path / "o.jsonl"
    code, lines, err = run_cli(*(str(tmp_path / n) for n in files), "--out", str(out), "--workers", "0", capsys=capsys)
    assert code == 2 and lines == [] and err == f"hexodic-check: error: {named.format(d=tmp_path)}\n"
    assert not out.exists()


def test_many_inputs_with_no_record_are_named_as_given(tmp_path, capsys):
    for n in range(5):
        (tmp_path / "parts" / f"part-{n}.jsonl").parent.mkdir(exist_ok=True)
        (tmp_path / "parts" / f"part-{n}.jsonl").write_bytes(b"\n")
    code, _, err = run_cli(str(tmp_path / "parts"), "--out", str(tmp_path / "o.jsonl"), "--workers", "0", capsys=capsys)
    assert code == 2 and err == f"hexodic-check: error: {tmp_path / 'parts'}: the 5 files hold no record\n"


# ------------------------------------------------------------------ the report ---

HOSTILE = "<b class='x'>&amp;\"</b>"
HOSTILE_NAME = "<b class='x'>&amp;\"<b>"  # a file name holds no /


@pytest.fixture
def hostile_report(tmp_path, capsys) -> tuple[str, list[dict]]:
    """A report on records whose ids, file name and errors hold HTML, with links."""
    path = write_lines(
        tmp_path / f"games {HOSTILE_NAME}.jsonl",
        [
            {"id": HOSTILE, "turns": ILLEGAL},  # illegal at index 2
            {"id": 7, "turns": ["c3 +d4", HOSTILE]},  # a turn that does not parse, quoted in the error
            {"id": f"m{HOSTILE}", "turns": ILLEGAL[:2], "result": "A"},  # a claim on a game going on
            {"id": 8, "turns": [], "result": HOSTILE},  # the claim quoted in the error
            {"id": "late", "turns": ["c3 +d4", "e5 +d4", "c4 +c4", "g7 +f5", "c3-c4 +d4"]},
            {"id": 9, "turns": ILLEGAL, "start": HOSTILE},  # an HPN error
        ],
    )
    report = tmp_path / "report.html"
    code, _, _ = run_cli(
        str(path), "--out", str(tmp_path / "o.jsonl"), "--workers", "0", "--report", str(report), "--site", SITE,
        capsys=capsys,
    )  # fmt: skip
    assert code == 1
    return report.read_text(encoding="utf-8"), rows_of(tmp_path / "o.jsonl")


def _table_rows(page: str) -> list[list[str]]:
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    return [re.findall(r"<td>(.*?)</td>", tr, re.S) for tr in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_every_text_taken_from_a_record_is_html_escaped(hostile_report):
    page, rows = hostile_report
    texts = [HOSTILE, f"m{HOSTILE}", f"games {HOSTILE_NAME}.jsonl"] + [r["error"] for r in rows if r["error"]]
    assert sum("<b" in r["error"] for r in rows if r["error"]) == 2  # the turn's text and the claim, quoted
    for text in (t for t in texts if html.escape(t) != t):
        assert text not in page, text
        assert html.escape(text) in page, text
    # markup only the page's own: no element but the table's, the charts' and the page's
    outside_svg = re.sub(r"<svg.*?</svg>", "", page, flags=re.S)
    tags = set(re.findall(r"<([a-zA-Z][a-zA-Z0-9]*)", outside_svg))
    assert tags <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "code", "ul", "li", "figure",
                    "table", "thead", "tbody", "tr", "th", "td", "a"}, tags  # fmt: skip


def test_the_first_illegal_column_is_the_index_docs_audit_md_defines(hostile_report):
    page, rows = hostile_report
    docs = (Path(__file__).parents[1] / "docs" / "audit.md").read_text(encoding="utf-8")
    assert "| `first_illegal` | the 0-based index of the first illegal turn, or null |" in docs
    listed = _table_rows(page)
    not_ok = [r for r in rows if r["status"] != "ok"]
    assert len(listed) == len(not_ok) == 6
    for cells, row in zip(listed, not_ok):
        assert cells[4] == ("" if row["first_illegal"] is None else str(row["first_illegal"])), (cells, row)
    assert [r["first_illegal"] for r in not_ok if r["first_illegal"] is not None] == [2, 4]


def test_the_game_link_opens_at_the_first_illegal_turn(hostile_report):
    page, rows = hostile_report
    raw = re.findall(r"<a href='([^']*)'", page)
    assert all(re.fullmatch(r"([^&<>\"]|&amp;)*", h) for h in raw), raw  # the attribute escaped too
    links = [html.unescape(h) for h in raw]
    assert all(link.startswith(f"{SITE}/game?turns=") for link in links)
    by_id = {r["id"]: r for r in rows}
    linked = [HOSTILE, f"m{HOSTILE}", "late"]  # from the start position, read whole; not the bad records
    assert len(links) == len(linked)
    client = create_app({"TESTING": True}).test_client()
    for link, ident in zip(links, linked):
        row = by_id[ident]
        parts = urlsplit(link)
        answer = client.get(f"{parts.path}?{parts.query}")
        assert answer.status_code == 200
        text = answer.get_data(as_text=True)
        if row["first_illegal"] is None:  # a result mismatch: the game's end
            assert "&at=" not in link and "After the last turn" in text
        else:
            assert link.endswith(f"&at={row['first_illegal'] + 1}")
            assert f'<h2 id="chosen-heading">Turn {row["first_illegal"] + 1}</h2>' in text
            title = re.search(r"<title>(.*?)</title>", text, re.S).group(1)
            assert f"turn {row['first_illegal'] + 1} illegal" in title and "shown at" not in title


def test_a_row_a_report_lists_keeps_every_column(hostile_report):
    page, rows = hostile_report
    listed = _table_rows(page)
    for cells, row in zip(listed, [r for r in rows if r["status"] != "ok"]):
        assert html.unescape(cells[0]) == row["file"] and cells[1] == str(row["line"])
        assert html.unescape(re.sub(r"<a [^>]*>|</a>", "", cells[2])) == str(row["id"])
        assert cells[3] == row["status"] and html.unescape(cells[7]) == (row["error"] or "")
    assert set(COLUMNS) <= set(rows[0])


# ------------------------------------------------------- the report's charts ---
# The charts are read back from the page's SVG as a reader sees them: each bar's
# length and each point of the line in the axes' own units (from the ticks' labels
# and places), the category each bar stands against, the axis labels, the colours.

SVG = "{http://www.w3.org/2000/svg}"
CHART_TITLES = ("Records by status", "Violations by rule id", "Game lengths", "Throughput over time")
BLUE, RED = "#4a6fa5", "#b5523b"  # the report's two colours: counts, and the rule ids broken


def _comment(group) -> str:
    (text,) = [c.text.strip() for c in group if c.tag is ET.Comment]
    return text


def _points(d: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r"[ML] (-?[\d.]+) (-?[\d.]+)", d)]


def _ticks(axis) -> list[tuple[str, float, float]]:
    """An axis's ticks: (label, x, y) where each is drawn."""
    ticks = []
    for tick in axis.findall(f"{SVG}g"):
        if re.fullmatch(r"[xy]tick_\d+", tick.get("id", "")):
            parts = {g.get("id", "").split("_")[0]: g for g in tick.findall(f"{SVG}g")}
            (use,) = parts["line2d"].iter(f"{SVG}use")  # the tick mark, where it is drawn
            label = _comment(parts["text"])
            ticks.append((label, float(use.get("x")), float(use.get("y"))))
    return ticks


def _scale(ticks: list[tuple[str, float, float]], at: int):
    """The data value at a drawn coordinate (``at``: 1 for x, 2 for y), from two numeric ticks."""
    (v0, p0), (v1, p1) = [(float(t[0].replace("\N{MINUS SIGN}", "-")), t[at]) for t in (ticks[0], ticks[-1])]
    return lambda p: v0 + (p - p0) * (v1 - v0) / (p1 - p0)


def read_chart(svg: str) -> dict:
    """A chart as drawn: its axes' size (pt), axis labels, bars and line."""
    root = ET.fromstring(svg, ET.XMLParser(target=ET.TreeBuilder(insert_comments=True)))
    (axes,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == "axes_1"]
    groups = {g.get("id"): g for g in axes.findall(f"{SVG}g")}
    background = _points(groups["patch_2"].find(f"{SVG}path").get("d"))
    xs, ys = [x for x, _ in background], [y for _, y in background]
    x_axis, y_axis = groups["matplotlib.axis_1"], groups["matplotlib.axis_2"]
    x_ticks, y_ticks = _ticks(x_axis), _ticks(y_axis)

    def label(axis) -> str | None:
        texts = [g for g in axis.findall(f"{SVG}g") if g.get("id", "").startswith("text_")]
        return _comment(texts[0]) if texts else None

    bars, line = [], None
    for gid, group in groups.items():
        path = group.find(f"{SVG}path")
        if gid.startswith("patch_") and path is not None and path.get("clip-path"):
            corners = _points(path.get("d"))
            bars.append(
                {
                    "x": (min(x for x, _ in corners), max(x for x, _ in corners)),
                    "y": (min(y for _, y in corners), max(y for _, y in corners)),
                    "fill": re.search(r"fill: (#[0-9a-f]{6})", path.get("style")).group(1),
                }
            )
        if gid.startswith("line2d_") and path is not None:
            assert line is None
            line = {
                "points": _points(path.get("d")),
                "stroke": re.search(r"stroke: (#\w+)", path.get("style")).group(1),
            }
    return {
        "size": (max(xs) - min(xs), max(ys) - min(ys)),
        "xlabel": label(x_axis),
        "ylabel": label(y_axis),
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "bars": bars,
        "line": line,
    }


def horizontal_bars(chart: dict) -> list[tuple[str, float]]:
    """A bar chart across: (the category, its bar's length), from the top down."""
    value = _scale(chart["x_ticks"], 1)
    by_place = {round(y, 2): label for label, _, y in chart["y_ticks"]}
    bars = sorted(chart["bars"], key=lambda b: b["y"][0])  # the top first
    out = []
    for bar in bars:
        assert value(bar["x"][0]) == pytest.approx(0, abs=1e-6)  # every bar starts at 0
        out.append((by_place[round((bar["y"][0] + bar["y"][1]) / 2, 2)], value(bar["x"][1])))
    return out


def upright_bars(chart: dict) -> list[tuple[float, float]]:
    """A bar chart upward: (the value under the bar's middle, its height), left to right."""
    x_value, y_value = _scale(chart["x_ticks"], 1), _scale(chart["y_ticks"], 2)
    out = []
    for bar in sorted(chart["bars"], key=lambda b: b["x"][0]):
        assert y_value(bar["y"][1]) == pytest.approx(0, abs=1e-6)  # every bar stands on 0
        out.append((x_value((bar["x"][0] + bar["x"][1]) / 2), y_value(bar["y"][0])))
    return out


def line_points(chart: dict) -> list[tuple[float, float]]:
    x_value, y_value = _scale(chart["x_ticks"], 1), _scale(chart["y_ticks"], 2)
    return [(x_value(x), y_value(y)) for x, y in chart["line"]["points"]]


def report_charts(page: str) -> dict[str, dict]:
    """The page's charts by title, each in its figure under its heading."""
    found = re.findall(
        r"<h2>([^<]*)</h2><figure role='img' aria-label='([^']*)'>(<svg.*?</svg>)\n</figure>", page, re.S
    )
    assert [(title, label) for title, label, _ in found] == [(t, t) for t in CHART_TITLES]
    return {title: read_chart(svg) for title, _, svg in found}


def summary_of(rows: list[dict], ticks: list[tuple[float, int]] = ()) -> Summary:
    summary = Summary()
    for row in rows:
        summary.add(row)
    for seconds, judged_rows in ticks:
        summary.tick(seconds, judged_rows)
    return summary


def _r(status: str, checked: int, violations: list[str] = (), reason: str | None = None) -> dict:
    return {"status": status, "checked": checked, "violations": list(violations), "reason": reason}


# 11 records: 5 ok, 2 illegal, 1 result-mismatch, 3 bad; place.empty broken twice, move.destination once
COUNTED = [
    _r("ok", 60, reason="tiebreak"),
    _r("illegal", 3, ["place.empty", "move.destination"]),
    _r("ok", 45, reason="takeover"),
    _r("bad-record", 0),
    _r("ok", 60, reason="tiebreak"),
    _r("result-mismatch", 12, reason="network"),
    _r("bad-record", 0),
    _r("ok", 31, reason="network"),
    _r("illegal", 7, ["place.empty"]),
    _r("ok", 60, reason="tiebreak"),
    _r("bad-record", 0),
]
# 4 rows judged by 0.5 s, 5 more by 1.5 s, none more by then, 2 more by 2 s: 8, 5 and 4 games/s
COUNTED_TICKS = [(0.5, 4), (1.5, 5), (1.5, 0), (2.0, 2)]


def _page(tmp_path: Path, summary: Summary, rows: list[dict] = (), inputs=("games.jsonl",), site=None) -> str:
    path = tmp_path / "report.html"
    write_report(str(path), summary, list(rows), list(inputs), site)
    return path.read_text(encoding="utf-8")


def _figure_inches(chart: dict) -> tuple[float, float]:
    """The chart's figure size in inches, from its axes' size: the axes fill matplotlib's
    default share of the figure (the SVG's own size is cut to what is drawn)."""
    import matplotlib

    rc = matplotlib.rcParams
    width, height = chart["size"]
    across = rc["figure.subplot.right"] - rc["figure.subplot.left"]
    upward = rc["figure.subplot.top"] - rc["figure.subplot.bottom"]
    return round(width / across / 72, 4), round(height / upward / 72, 4)


def test_the_charts_show_the_summarys_counts(tmp_path):
    charts = report_charts(_page(tmp_path, summary_of(COUNTED, COUNTED_TICKS)))
    status = charts["Records by status"]
    assert horizontal_bars(status) == [
        ("ok", pytest.approx(5)),
        ("illegal", pytest.approx(2)),
        ("result-mismatch", pytest.approx(1)),
        ("bad-record", pytest.approx(3)),
    ]  # every status, in the order of the summary line, from the top
    assert (status["xlabel"], status["ylabel"]) == ("records", None)
    assert {b["fill"] for b in status["bars"]} == {BLUE}

    violations = charts["Violations by rule id"]
    assert horizontal_bars(violations) == [("place.empty", pytest.approx(2)), ("move.destination", pytest.approx(1))]
    assert (violations["xlabel"], violations["ylabel"]) == ("first illegal turns", None)
    assert {b["fill"] for b in violations["bars"]} == {RED}

    lengths = charts["Game lengths"]
    assert upright_bars(lengths) == [
        (pytest.approx(n, abs=1e-4), pytest.approx(count, abs=1e-4))
        for n, count in [(0, 3), (3, 1), (7, 1), (12, 1), (31, 1), (45, 1), (60, 3)]
    ]
    assert (lengths["xlabel"], lengths["ylabel"]) == ("turns judged", "records")
    assert {b["fill"] for b in lengths["bars"]} == {BLUE}

    speed = charts["Throughput over time"]
    # each interval's rate at its end; the tick that added no time adds no point
    assert line_points(speed) == [
        (pytest.approx(t, abs=1e-4), pytest.approx(r, abs=1e-4)) for t, r in [(0.5, 8), (1.5, 5), (2.0, 4)]
    ]
    assert (speed["xlabel"], speed["ylabel"]) == ("seconds", "games/s")
    assert speed["line"]["stroke"] == BLUE and speed["bars"] == []

    for title in ("Records by status", "Game lengths", "Throughput over time"):
        assert _figure_inches(charts[title]) == (6, 2.6), title
    # the violations chart: 0.4 in, and 0.3 in a rule id
    assert _figure_inches(violations) == (6, pytest.approx(0.4 + 0.3 * 2))


def test_the_violations_chart_lists_the_ten_most_violated_rule_ids(tmp_path):
    # rule ids r01 ... r11, r01 broken 11 times, r02 10 times, ... r11 once
    rows = [_r("illegal", 1, [f"r{k:02}" for k in range(1, 12 - n)]) for n in range(11)]
    charts = report_charts(_page(tmp_path, summary_of(rows)))
    violations = charts["Violations by rule id"]
    assert horizontal_bars(violations) == [(f"r{k:02}", pytest.approx(12 - k)) for k in range(1, 11)]
    assert _figure_inches(violations) == (6, pytest.approx(0.4 + 0.3 * 10))
    assert horizontal_bars(charts["Records by status"]) == [
        (s, pytest.approx(n)) for s, n in [("ok", 0), ("illegal", 11), ("result-mismatch", 0), ("bad-record", 0)]
    ]


@pytest.mark.parametrize("rows", [[], [_r("ok", 60, reason="tiebreak")]], ids=["no-record", "all-ok"])
def test_no_violation_is_one_empty_bar_none(tmp_path, rows):
    charts = report_charts(_page(tmp_path, summary_of(rows)))
    violations = charts["Violations by rule id"]
    assert horizontal_bars(violations) == [("(none)", pytest.approx(0, abs=1e-6))]
    assert violations["xlabel"] == "first illegal turns"
    assert _figure_inches(violations) == (6, pytest.approx(0.4 + 0.3 * 1))
    assert charts["Throughput over time"]["line"] is None  # nothing judged: no rate, no line drawn


def test_one_rule_id_is_as_tall_as_none(tmp_path):
    charts = report_charts(_page(tmp_path, summary_of([_r("illegal", 2, ["place.empty"])], [(0.25, 1)])))
    assert horizontal_bars(charts["Violations by rule id"]) == [("place.empty", pytest.approx(1))]
    assert _figure_inches(charts["Violations by rule id"]) == (6, pytest.approx(0.7))
    assert line_points(charts["Throughput over time"]) == [(pytest.approx(0.25), pytest.approx(4))]


# --------------------------------------------------------- the report's page ---

PAGE_HEAD = (
    "<!doctype html><html lang='en'><head><meta charset='utf-8'>\n"
    "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
    "<title>Hexodic archive audit</title><style>\n"
    "body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1d1d1f}\n"
    "table{border-collapse:collapse}td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:left}\n"
    "svg{max-width:100%;height:auto}</style></head><body>\n"
    "<h1>Hexodic archive audit</h1>\n"
)
TABLE_HEAD = (
    "<table><thead><tr><th>file</th><th>line</th><th>id</th><th>status</th>"
    "<th>first illegal</th><th>violations</th><th>result / claimed</th><th>error</th></tr></thead><tbody>\n"
)


def _listed(**row) -> dict:
    return {"file": "games.jsonl", "line": 1, "result": None, "claimed": None, "error": None, "violations": [], **row}


LISTED = [
    # illegal at index 2, from the start position: linked, at= the index + 1 (docs/audit.md)
    _listed(
        line=4, id="g<1>", status="illegal", first_illegal=2, violations=["place.empty", "move.destination"],
        sheet="c3 +d4; e5 +d4; e5 +d5",
    ),
    # a wrong claim on a game from the start: linked at its end (no at=)
    _listed(line=9, id=7, status="result-mismatch", first_illegal=None, result="A", claimed="B", sheet="c3 +d4"),
    # no id; the error quotes the record
    _listed(
        file="b <&>.jsonl", line=12, id=None, status="bad-record", first_illegal=None,
        error="turns[1]: HTN: cannot read '<b>'", sheet=None,
    ),
    # illegal at its first turn (index 0), from a given start: no link
    _listed(line=20, id="s'1", status="illegal", first_illegal=0, violations=["game.over"], sheet=None),
]  # fmt: skip

LISTED_ROWS = (
    "<tr><td>games.jsonl</td><td>4</td>"
    "<td><a href='https://hexodic.example/game?turns=c3%20%2Bd4%3B%20e5%20%2Bd4%3B%20e5%20%2Bd5&amp;at=3'>g&lt;1&gt;</a></td>"
    "<td>illegal</td><td>2</td><td>place.empty, move.destination</td><td>— / —</td><td></td></tr>\n"
    "<tr><td>games.jsonl</td><td>9</td><td><a href='https://hexodic.example/game?turns=c3%20%2Bd4'>7</a></td>"
    "<td>result-mismatch</td><td></td><td></td><td>A / B</td><td></td></tr>\n"
    "<tr><td>b &lt;&amp;&gt;.jsonl</td><td>12</td><td>—</td><td>bad-record</td><td></td><td></td>"
    "<td>— / —</td><td>turns[1]: HTN: cannot read &#x27;&lt;b&gt;&#x27;</td></tr>\n"
    "<tr><td>games.jsonl</td><td>20</td><td>s&#x27;1</td><td>illegal</td><td>0</td><td>game.over</td>"
    "<td>— / —</td><td></td></tr>\n"
)


def _without_svg(page: str) -> str:
    return re.sub(r"<svg.*?</svg>\n", "<svg/>", page, flags=re.S)


def _charts_part() -> str:
    return "".join(f"<h2>{t}</h2><figure role='img' aria-label='{t}'><svg/></figure>\n" for t in CHART_TITLES)


def test_the_report_page_is_exactly_its_parts(tmp_path):
    summary = summary_of(COUNTED, COUNTED_TICKS)
    summary.seconds, summary.workers = 2.0, 2
    page = _page(tmp_path, summary, LISTED, ["games.jsonl", "b <&>.jsonl"], SITE + "/")
    assert summary.lines() == [
        "audit: 11 records: 5 ok, 2 illegal, 1 result-mismatch, 3 bad-record",
        "endings: tiebreak 3, network 2, takeover 1",
        "most violated: place.empty 2, move.destination 1",
        "speed: 11 games judged in 2.0 s: 6 games/s (2 workers)",
    ]
    assert _without_svg(page) == (
        PAGE_HEAD
        + "<p>Inputs: <code>games.jsonl</code>, <code>b &lt;&amp;&gt;.jsonl</code></p>\n"
        + "<ul><li>audit: 11 records: 5 ok, 2 illegal, 1 result-mismatch, 3 bad-record</li>"
        + "<li>endings: tiebreak 3, network 2, takeover 1</li>"
        + "<li>most violated: place.empty 2, move.destination 1</li>"
        + "<li>speed: 11 games judged in 2.0 s: 6 games/s (2 workers)</li></ul>\n"
        + _charts_part()
        + "<h2>Records that are not ok (4 listed)</h2>\n"
        + TABLE_HEAD
        + LISTED_ROWS
        + "</tbody></table></body></html>"
    )


def test_without_a_site_no_record_is_linked(tmp_path):
    page = _page(tmp_path, summary_of(COUNTED), LISTED, site=None)
    assert "<a " not in page and "/game?" not in page
    unlinked = re.sub(r"<a href='[^']*'>(.*?)</a>", r"\1", LISTED_ROWS)
    assert _without_svg(page).endswith(
        "<h2>Records that are not ok (4 listed)</h2>\n" + TABLE_HEAD + unlinked + "</tbody></table></body></html>"
    )


def test_a_report_listing_nothing_has_an_empty_table(tmp_path):
    page = _page(tmp_path, summary_of([_r("ok", 60, reason="tiebreak")]), [], ["a.jsonl"], SITE)
    assert _without_svg(page) == (
        PAGE_HEAD
        + "<p>Inputs: <code>a.jsonl</code></p>\n"
        + "<ul><li>audit: 1 record: 1 ok, 0 illegal, 0 result-mismatch, 0 bad-record</li>"
        + "<li>endings: tiebreak 1</li></ul>\n"
        + _charts_part()
        + "<h2>Records that are not ok (0 listed)</h2>\n"
        + TABLE_HEAD
        + "</tbody></table></body></html>"
    )


# ------------------------------------------------------- self-play archives ---


class Rigged(random.Random):
    """A generator whose pick among SPOILS is ``kind`` and whose randrange is ``index``."""

    def __init__(self, kind: str, index: int = 0) -> None:
        super().__init__(0)
        self.kind, self.index = kind, index

    def choice(self, seq):
        return self.kind if tuple(seq) == SPOILS else super().choice(seq)

    def randrange(self, n):
        assert 0 <= self.index < n
        return self.index


@pytest.fixture(scope="module")
def played() -> dict:
    """A whole self-play game, as a list of its 60 HTN texts (every game ends by turn 60)."""
    (record,) = selfplay_records(1, seed=3)
    assert isinstance(record["turns"], list) and len(record["turns"]) == 60 and record["result"] == "A"
    return record


def _spoilt(played: dict, kind: str, index: int = 0, **changes) -> dict | bytes:
    return _spoil(Rigged(kind, index), {**played, "turns": list(played["turns"]), **changes})


@pytest.mark.parametrize("index", [0, 1, 2, 37, 59])
def test_an_illegal_turn_spoil_repeats_the_turn_before_or_opens_on_d4(played, index):
    turns = played["turns"]
    spoilt = _spoilt(played, "illegal-turn", index)
    put = turns[index - 1] if index > 0 else "d4 +d4"  # its cell was just filled; d4 is closed at the opening
    assert spoilt == {**played, "turns": [*turns[:index], put, *turns[index + 1 :]]}
    row = judge(orjson.dumps(spoilt), "f.jsonl", 1)
    assert (row["status"], row["first_illegal"], row["checked"]) == ("illegal", index, index + 1)


def test_a_wrong_claim_spoil_claims_another_result(played):
    for claim in ("A", "B", "draw", None):
        chosen = set()
        for seed in range(40):
            rng = Rigged("wrong-claim")
            rng.seed(seed)
            spoilt = _spoil(rng, {**played, "result": claim})
            assert spoilt == {**played, "result": spoilt["result"]}
            chosen.add(spoilt["result"])
        assert chosen == {"A", "B", "draw"} - {claim}, claim
    row = judge(orjson.dumps(_spoilt(played, "wrong-claim")), "f.jsonl", 1)
    assert (row["status"], row["result"], row["checked"]) == ("result-mismatch", "A", 60)


def test_a_not_json_spoil_is_the_record_without_its_last_byte(played):
    spoilt = _spoilt(played, "not-json")
    assert spoilt == orjson.dumps(played).removesuffix(b"}")
    assert judge(spoilt, "f.jsonl", 1)["error"] == "the line is not JSON (unexpected end of data)"


def test_a_bad_turn_spoil_ends_the_game_on_a_turn_that_does_not_parse(played):
    spoilt = _spoilt(played, "bad-turn")
    assert spoilt == {**played, "turns": [*played["turns"][:59], "z9 +q1"]}
    assert judge(orjson.dumps(spoilt), "f.jsonl", 1)["error"] == "turns[59]: HTN: 'z9': z9 is not a cell"


def test_a_no_turns_spoil_and_a_bad_id_spoil(played):
    assert _spoilt(played, "no-turns") == {"id": played["id"], "result": "A"}
    assert _spoilt(played, "bad-id") == {**played, "id": [played["id"]]}


@pytest.mark.parametrize("kind", ["illegal-turn", "bad-turn", "bad-id"])
@pytest.mark.parametrize("turns", ["1. c3 +d4 e5 +d4", []], ids=["score-sheet", "no-turn"])
def test_a_turn_spoil_of_a_score_sheet_or_of_no_turn_spoils_the_id(kind, turns):
    """A score sheet is not edited turn by turn, nor an empty list: their id is spoilt instead."""
    record = {"id": "selfplay-0-3", "turns": turns, "result": None}
    assert _spoil(Rigged(kind, 0), dict(record)) == {**record, "id": ["selfplay-0-3"]}


ARCHIVE_GAMES, ARCHIVE_SEED = 40, 6


@pytest.fixture(scope="module")
def archive_records() -> list:
    """The records of write_archive(path, 40, seed=6, spoil=0.5), each spoil among them."""
    records = list(selfplay_records(ARCHIVE_GAMES, ARCHIVE_SEED, 0.5))
    dicts = [r for r in records if isinstance(r, dict)]
    assert any(isinstance(r, bytes) for r in records)  # not JSON
    assert any("turns" not in r for r in dicts) and any(isinstance(r["id"], list) for r in dicts)
    assert any(isinstance(r.get("turns"), str) for r in dicts) and any(isinstance(r.get("turns"), list) for r in dicts)
    return records


@pytest.mark.parametrize("name", ["games.jsonl", "games.jsonl.gz", "games.jsonl.zst"])
def test_write_archive_writes_every_record_a_line(archive_records, tmp_path, name):
    import zstandard

    path = tmp_path / name
    assert write_archive(str(path), ARCHIVE_GAMES, seed=ARCHIVE_SEED, spoil=0.5) == ARCHIVE_GAMES
    data = path.read_bytes()
    magic = {".gz": b"\x1f\x8b", ".zst": b"\x28\xb5\x2f\xfd", ".jsonl": b"{"}[path.suffix]
    assert data.startswith(magic)
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    elif path.suffix == ".zst":
        data = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)).read()
    assert data == b"".join((r if isinstance(r, bytes) else orjson.dumps(r)) + b"\n" for r in archive_records)


def test_write_archive_as_parquet_leaves_out_the_lines_that_do_not_read(archive_records, tmp_path):
    path = tmp_path / "games.parquet"
    kept = [
        {
            "id": r["id"],
            "turns": r["turns"] if isinstance(r["turns"], str) else "; ".join(r["turns"]),
            "result": r["result"],
        }
        for r in archive_records
        if isinstance(r, dict) and isinstance(r["id"], str) and "turns" in r
    ]
    assert 0 < len(kept) < ARCHIVE_GAMES
    assert write_archive(str(path), ARCHIVE_GAMES, seed=ARCHIVE_SEED, spoil=0.5) == len(kept)
    assert parquet_rows(path) == kept


def test_write_archive_repeats_distinct_games(tmp_path):
    path = tmp_path / "games.jsonl"
    assert write_archive(str(path), 7, seed=2, distinct=3) == 7
    records = rows_of(path)
    assert records == list(selfplay_records(7, 2, 0.0, 3))
    assert [r["id"] for r in records] == [f"selfplay-2-{n}" for n in range(7)]
    plain = lambda r: r["turns"] if isinstance(r["turns"], str) else _sheet(r["turns"])  # noqa: E731
    assert [plain(r) for r in records[3:6]] == [plain(r) for r in records[:3]]  # game n is game n % 3


def test_write_archive_by_default_is_seed_0_and_nothing_spoilt(tmp_path):
    path = tmp_path / "games.jsonl"
    assert write_archive(str(path), 4) == 4
    records = rows_of(path)
    assert records == list(selfplay_records(4, 0)) and [r["id"] for r in records] == [
        f"selfplay-0-{n}" for n in range(4)
    ]
    rows = [judge(orjson.dumps(r), str(path), n) for n, r in enumerate(records, start=1)]
    assert [r["status"] for r in rows] == ["ok"] * 4
