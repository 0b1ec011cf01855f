"""The audit: records read in chunks, judged by Dask workers (or in this
process), rows written in input order as chunks finish.

- **The cluster is the caller's choice**: ``scheduler="tcp://host:port"``
  uses an existing Dask cluster (``Client(address)``); otherwise a
  ``LocalCluster`` of ``workers`` processes (default: one per CPU) is
  started and stopped; ``workers=0`` judges in this process, without Dask.
  The command reads the inputs and writes OUT itself: chunks of records go to
  the workers, which need no shared filesystem.
- **Flat memory**: at most ``window`` chunks between the oldest one not yet
  written and the newest one sent; a finished chunk waits only for the ones
  before it.
- **Nothing lost**: a chunk's rows come from one task result, written once by
  this process; a task on a worker that dies is run again by Dask, and its
  rows are the same (a pure function).  Rows are written as whole lines and
  flushed a chunk at a time; ``resume`` keeps the complete rows OUT holds
  (dropping a line cut by an interruption) and judges only the records after
  them.  Parquet output is written to ``OUT.partial.jsonl`` first, then
  converted when every row is there.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from checker.extras import require
from checker.tools.audit.inputs import InputError, Records, Source, check_inputs, expand
from checker.tools.audit.records import COLUMNS, judge_chunk, sheet_of
from checker.tools.audit.report import Summary

__all__ = ["AuditError", "Options", "audit", "DEFAULT_CHUNK"]

DEFAULT_CHUNK = 500
"""Records per chunk (per Dask task): about 1-2 s of work on one core."""

LISTED = 1000
"""The rows that are not ok the report lists, at most (the first ones)."""


class AuditError(InputError):
    """Unusable input or options (exit 2): one line saying what and where."""


@dataclass
class Options:
    inputs: list[str]
    out: str
    scheduler: str | None = None
    workers: int | None = None  # None: one per CPU; 0: in this process
    chunk: int = DEFAULT_CHUNK
    window: int | None = None  # chunks in flight; None: 3 per worker
    resume: bool = False
    force: bool = False
    progress: bool = False
    progress_delay: float = 2.0
    connect_timeout: float = 5.0  # seconds to reach an existing scheduler
    links: bool = False  # the report links its games (--site): rows kept on resume get theirs too


@dataclass
class Outcome:
    summary: Summary
    error: str | None = None  # a compressed file cut short: exit 2 after its rows
    rows: list[dict] = field(default_factory=list)  # the rows listed in the report (not ok)


def _partial(out: Path) -> Path:
    return out.with_name(out.name + ".partial.jsonl") if out.suffix == ".parquet" else out


def _kept_rows(path: Path) -> int:
    """The complete rows ``path`` holds; a line cut by an interruption is dropped."""
    if not path.exists():
        return 0
    with path.open("rb+") as fh:
        data_end = 0
        count = 0
        for line in fh:
            if not line.endswith(b"\n"):
                break
            data_end += len(line)
            count += 1
        fh.truncate(data_end)
    return count


def _prepare(options: Options) -> tuple[Path, Path, int]:
    out = Path(options.out)
    partial = _partial(out)
    if options.chunk < 1:
        raise AuditError("--chunk must be at least 1")
    if options.workers is not None and options.workers < 0:
        raise AuditError("--workers must be 0 (in this process) or more")
    exists = out.exists() or partial.exists()
    if exists and not (options.resume or options.force):
        raise AuditError(f"{out}: exists; --resume to go on from its rows, --force to write it anew")
    if options.force and not options.resume:
        for path in {out, partial}:
            path.unlink(missing_ok=True)
    if options.resume and out.suffix == ".parquet" and out.exists() and not partial.exists():
        raise AuditError(f"{out}: the audit is already complete (nothing to resume)")
    if not out.parent.exists():
        raise AuditError(f"{out}: the folder {out.parent} does not exist")
    return out, partial, _kept_rows(partial) if options.resume else 0


@contextlib.contextmanager
def _client(options: Options) -> Iterator[Any]:
    """A Dask client: the caller's cluster, or a LocalCluster started and stopped here."""
    if options.workers == 0 and options.scheduler is None:
        yield None
        return
    require("audit")
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set(DASK_CONFIG):
        yield from _start(options, Client, LocalCluster)


DASK_CONFIG = {
    # Dask keeps the last N messages of every connection and the last N transitions for
    # debugging (default 1,000): with a chunk of records in each task's message, that is
    # hundreds of MB in the command (its Client and the LocalCluster's scheduler) and in
    # each worker.  Set here for the command and the local cluster's workers; an existing
    # cluster gets it from DASK_DISTRIBUTED__ADMIN__LOW_LEVEL_LOG_LENGTH (deploy/audit/).
    "distributed.admin.low-level-log-length": 10,
    "distributed.diagnostics.computations.max-history": 10,
}


def _start(options: Options, Client: Any, LocalCluster: Any) -> Iterator[Any]:
    if options.scheduler is not None:
        try:
            client = Client(options.scheduler, timeout=f"{options.connect_timeout}s")
        except (OSError, TimeoutError) as exc:
            raise AuditError(f"--scheduler {options.scheduler}: no Dask scheduler answers ({exc})") from None
        with client:
            yield client
        return
    workers = options.workers or len(os.sched_getaffinity(0))
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    with cluster, Client(cluster) as client:
        yield client


def _workers(client: Any) -> int:
    return max(1, len(client.scheduler_info()["workers"])) if client is not None else 1


def audit(options: Options, on_rows: Callable[[int], None] | None = None) -> Outcome:
    """Run the audit; raises :class:`AuditError` for unusable input or
    options, before any work.  ``on_rows(n)`` is told of each chunk written."""
    if not (options.workers == 0 and options.scheduler is None):
        require("audit")  # Dask: before anything else, the one line naming the extra
    sources = expand(options.inputs)
    check_inputs(sources)
    out, partial, kept = _prepare(options)
    summary = Summary()
    listed: list[dict] = []

    def count(row: dict) -> bool:
        """Count the row; True when the report lists it."""
        summary.add(row)
        if row["status"] != "ok" and len(listed) < LISTED:
            listed.append(row)
            return True
        return False

    relink: dict[int, dict] = {}  # the kept rows the report lists, by record number
    if kept:
        with partial.open("rb") as fh:
            for number, line in enumerate(fh):
                row = orjson.loads(line)
                if count(row) and options.links and row["status"] != "bad-record":
                    relink[number] = row
    records = Records(sources, skip=kept, skipped=_relinker(relink) if relink else None)
    with _client(options) as client, partial.open("ab") as sink:
        started = time.monotonic()  # the cluster is up: its start is not the audit's speed

        def write(rows: list[dict]) -> None:
            sink.write(b"".join(orjson.dumps({k: row[k] for k in COLUMNS}) + b"\n" for row in rows))
            sink.flush()
            for row in rows:
                count(row)
            summary.tick(time.monotonic() - started, len(rows))
            if on_rows is not None:
                on_rows(len(rows))

        chunks = records.chunks(options.chunk)
        if client is None:
            for chunk in chunks:
                write(judge_chunk(chunk))
        else:
            _distribute(client, chunks, write, options.window or 3 * _workers(client))
        summary.workers = _workers(client)
        if client is not None:
            summary.worker_peak_mib = max(client.run(peak_mib).values(), default=0.0)
    summary.command_peak_mib = peak_mib()
    if summary.total == 0 and records.error is None:
        partial.unlink(missing_ok=True)
        raise AuditError(_no_record(sources, options.inputs))
    if records.error is None and out != partial:
        _to_parquet(partial, out)
        partial.unlink()
    summary.seconds = time.monotonic() - started
    return Outcome(summary, records.error, listed)


def _relinker(rows: dict[int, dict]) -> Callable[[int, Any], None]:
    """For the records skipped on ``--resume``: the report's /game link of each
    kept row it lists (OUT holds the row, not the turns), from its record read
    again (not judged: its row is known)."""

    def relink(number: int, record: Any) -> None:
        row = rows.get(number)
        if row is not None:
            row["sheet"] = sheet_of(record[2])

    return relink


def _no_record(sources: list[Source], arguments: list[str]) -> str:
    """The one line for inputs without a record, naming them."""
    if len(sources) == 1:
        return f"{sources[0].name}: the file holds no record"
    names = [source.name for source in sources] if len(sources) <= 3 else arguments
    return f"{', '.join(names)}: the {len(sources):,} files hold no record"


def _distribute(client: Any, chunks: Iterator[list], write: Callable[[list[dict]], None], window: int) -> None:
    """Send chunks to the workers, at most ``window`` ahead of the oldest
    unwritten one; write each chunk's rows as soon as the ones before it are."""
    from distributed import as_completed

    token = uuid.uuid4().hex[:12]
    running = as_completed()
    index_of: dict[Any, int] = {}
    finished: dict[int, list[dict]] = {}
    sent = written = 0
    exhausted = False
    while True:
        while not exhausted and sent - written < window:
            chunk = next(chunks, None)
            if chunk is None:
                exhausted = True
                break
            future = client.submit(judge_chunk, chunk, key=f"audit-{token}-{sent}", pure=False, retries=2)
            index_of[future] = sent
            running.add(future)
            sent += 1
        if running.is_empty():
            return
        future = next(running)
        finished[index_of.pop(future)] = future.result()
        future.release()
        while written in finished:
            write(finished.pop(written))
            written += 1


def peak_mib() -> float:
    """This process's peak resident memory, in MiB (what each worker reports too)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _to_parquet(partial: Path, out: Path) -> None:
    """The rows of ``partial`` (JSON Lines) as a Parquet file, a row group at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema(
        [
            ("line", pa.int64()),
            ("file", pa.string()),
            ("id", pa.string()),
            ("status", pa.string()),
            ("checked", pa.int64()),
            ("first_illegal", pa.int64()),
            ("violations", pa.list_(pa.string())),
            ("result", pa.string()),
            ("reason", pa.string()),
            ("claimed", pa.string()),
            ("error", pa.string()),
        ]
    )
    tmp = out.with_name(out.name + ".tmp")
    with pq.ParquetWriter(tmp, schema) as writer, partial.open("rb") as fh:
        batch: list[dict] = []
        for line in fh:
            row = orjson.loads(line)
            if row["id"] is not None:
                row["id"] = str(row["id"])
            batch.append(row)
            if len(batch) == 50_000:
                writer.write_table(pa.Table.from_pylist(batch, schema))
                batch = []
        if batch:
            writer.write_table(pa.Table.from_pylist(batch, schema))
    tmp.replace(out)


def progress_bar(options: Options, stream=None):
    """tqdm's bar over the records judged, on stderr (shown on a terminal after a delay, or when asked)."""
    from tqdm import tqdm

    stream = stream or sys.stderr
    shown = options.progress or stream.isatty()
    return tqdm(unit=" games", disable=not shown, file=stream, delay=0 if options.progress else options.progress_delay)
