"""Benchmark of the archive audit (``hexodic-check audit``), in one run:

- one core: the audit's judging (the fast path, ``replay_quickly``) against
  the same reading and writing with ``replay`` (every turn explained), on the
  same self-play games: games/s and their ratio (target >= 3.0);
- a local Dask cluster of 2 workers against 1, on ARCHIVE_GAMES games:
  games/s (the command's own figure, timed once the cluster is up) and the
  ratio (target >= 1.7 on 2 cores);
- peak memory of the command and of the largest worker, auditing SMALL and
  LARGE games on 2 workers (target: within 10%: the records stream);
- rows out / records in on a real ``dask scheduler`` and two ``dask worker``
  processes with one worker killed (SIGKILL) mid-run (target: exactly 1.0).

The archives repeat 500 distinct self-play games (``selfplay --distinct``
in the API), each record with its own id: playing 200,000 random games
would take over an hour, judging them is what is measured.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

from bench.server import free_port
from checker.replay import replay, replay_quickly
from checker.tools.audit import run as audit
from checker.tools.audit.inputs import Records, expand
from checker.tools.audit.records import COLUMNS, judge_chunk
from checker.tools.audit.selfplay import write_archive

ONE_CORE_GAMES = 3000
ARCHIVE_GAMES = 50_000
SMALL, LARGE = 20_000, 200_000
KILL_GAMES = 20_000
DISTINCT = 500
BIN = Path(sys.executable).parent


def log(*args) -> None:
    print("[bench archive]", *args, file=sys.stderr, flush=True)


def _one_core(path: Path, replayer) -> float:
    """Games/s judging ``path`` in this process, reading and writing included (CPU time)."""
    started = time.process_time()
    rows = 0
    with tempfile.TemporaryFile() as sink:
        for chunk in Records(expand([str(path)])).chunks(500):
            out = judge_chunk(chunk, replayer)
            sink.write(b"".join(orjson.dumps({k: r[k] for k in COLUMNS}) + b"\n" for r in out))
            rows += len(out)
    return rows / (time.process_time() - started)


def _command(path: Path, out: Path, workers: int) -> dict[str, float]:
    """The command's figures: games/s, and the peaks of the command and the largest worker (MiB)."""
    proc = subprocess.run(
        [BIN / "hexodic-check", "audit", path, "--out", out, "--workers", str(workers), "--no-progress", "--force"],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert proc.returncode in (0, 1), proc.stderr
    speed = re.search(r"speed: [\d,]+ games judged in [\d.]+ s: ([\d,]+) games/s", proc.stdout)
    memory = re.search(r"memory: peak ([\d,]+) MiB in the command, ([\d,]+) MiB in the largest worker", proc.stdout)
    assert speed and memory, proc.stdout
    number = lambda s: float(s.replace(",", ""))  # noqa: E731
    return {"rate": number(speed[1]), "command": number(memory[1]), "worker": number(memory[2])}


def _killed_worker(path: Path, out: Path) -> tuple[int, int]:
    """(rows out, records in) with one of two workers of a real cluster killed mid-run."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([BIN / "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port)], **quiet)
    workers = [
        subprocess.Popen(
            [BIN / "dask", "worker", address, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1"], **quiet
        )
        for _ in range(2)
    ]
    try:
        from distributed import Client

        with Client(address, timeout="20s") as client:
            client.wait_for_workers(2, timeout=60)
        written = [0]

        def kill_mid_run(rows: int) -> None:
            written[0] += rows
            if workers[0].poll() is None and written[0] >= KILL_GAMES // 3:
                workers[0].send_signal(signal.SIGKILL)

        options = audit.Options([str(path)], str(out), scheduler=address, chunk=200, force=True)
        outcome = audit.audit(options, on_rows=kill_mid_run)
        assert workers[0].poll() == -signal.SIGKILL, "the worker was not killed mid-run"
        return sum(1 for _ in out.open("rb")), outcome.summary.total
    finally:
        for proc in [*workers, scheduler]:
            if proc.poll() is None:
                proc.terminate()
            proc.wait(timeout=30)


def measure() -> dict:
    figures: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        log(f"one core: {ONE_CORE_GAMES:,} games, the fast path against replay")
        small = folder / "one-core.jsonl"
        write_archive(str(small), ONE_CORE_GAMES, seed=1, distinct=DISTINCT)
        quick = max(_one_core(small, replay_quickly) for _ in range(2))
        full = max(_one_core(small, replay) for _ in range(2))
        figures["one_core"] = (quick, full)
        log(f"{ARCHIVE_GAMES:,} games on 1 and 2 local workers")
        archive = folder / "archive.jsonl"
        write_archive(str(archive), ARCHIVE_GAMES, seed=2, distinct=DISTINCT)
        figures["workers"] = {n: _command(archive, folder / "rows.jsonl", n) for n in (1, 2)}
        log(f"peak memory: {SMALL:,} and {LARGE:,} games on 2 workers")
        memory = {}
        for games in (SMALL, LARGE):
            path = folder / f"memory-{games}.jsonl"
            write_archive(str(path), games, seed=3, distinct=DISTINCT)
            memory[games] = _command(path, folder / "rows.jsonl", 2)
            path.unlink()
        figures["memory"] = memory
        log(f"a worker killed: {KILL_GAMES:,} games on a real scheduler and two workers")
        path = folder / "kill.jsonl"
        write_archive(str(path), KILL_GAMES, seed=4, distinct=DISTINCT)
        figures["killed"] = _killed_worker(path, folder / "rows.jsonl")
    return figures


def mark(ok: bool) -> str:
    return "meets" if ok else "MISSES"


def section(figures: dict | None = None) -> str:
    """The audit's figures as a section of the report."""
    f = figures or measure()
    quick, full = f["one_core"]
    one, two = f["workers"][1], f["workers"][2]
    small, large = f["memory"][SMALL], f["memory"][LARGE]
    rows, records = f["killed"]
    ratio = quick / full
    scale = two["rate"] / one["rate"]
    command_growth = large["command"] / small["command"]
    worker_growth = large["worker"] / small["worker"]
    lines = [
        "Archive audit (hexodic-check audit; self-play archives of 500 distinct games repeated)",
        f"{'figure':66s} {'value':>14s} {'target':>8s}",
        f"{'one core: audit games/s (fast path), reading and writing included':66s} {quick:14,.0f}",
        f"{'one core: the same with replay (every turn explained)':66s} {full:14,.0f}",
        f"{'  ratio':66s} {ratio:14.2f} {'>= 3.0':>8s} {mark(ratio >= 3.0)}",
        f"{f'local cluster, {ARCHIVE_GAMES:,} games: 1 worker, games/s':66s} {one['rate']:14,.0f}",
        f"{'  2 workers, games/s':66s} {two['rate']:14,.0f}",
        f"{'  ratio':66s} {scale:14.2f} {'>= 1.7':>8s} {mark(scale >= 1.7)}",
        f"{f'peak memory of the command, MiB: {SMALL:,} / {LARGE:,} games':66s} "
        f"{small['command']:6,.0f} / {large['command']:5,.0f}",
        f"{'  ratio':66s} {command_growth:14.2f} {'<= 1.10':>8s} {mark(command_growth <= 1.10)}",
        f"{f'peak memory of the largest worker, MiB: {SMALL:,} / {LARGE:,} games':66s} "
        f"{small['worker']:6,.0f} / {large['worker']:5,.0f}",
        f"{'  ratio':66s} {worker_growth:14.2f} {'<= 1.10':>8s} {mark(worker_growth <= 1.10)}",
        f"{f'rows out / records in, a worker killed mid-run ({records:,} records)':66s} "
        f"{rows / records:14.4f} {'1.0':>8s} {mark(rows == records)}",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    os.chdir(Path(__file__).resolve().parents[1])
    print(section())
