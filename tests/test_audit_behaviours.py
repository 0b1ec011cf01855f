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
import json
import re
import shutil
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import pytest

from checker.tools.audit import records as records_module
from checker.tools.audit import run as audit
from checker.tools.audit.inputs import expand
from checker.tools.audit.records import COLUMNS, MAX_TURNS, judge
from checker.tools.audit.selfplay import selfplay_records, write_archive
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
