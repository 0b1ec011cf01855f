"""The audit's inputs: paths, globs and directories expanded in argument
order (a glob's matching files, or a directory's parts at any depth, in
sorted order; a directory's files and folders whose names start with ``.``
or ``_`` left out), and their records read a chunk at a time, so memory
stays flat however large the archive.  A file's kind is read from its name,
in any case.

JSON Lines files are plain, gzip (``.gz``) or zstd (``.zst``); a line is a
record, blank lines are skipped (their numbers still count).  Parquet files
(``.parquet``) give a record per row, from the columns ``id``, ``turns``,
``start`` and ``result`` (``turns`` required).

Everything that makes the inputs unusable is found before any work
(:func:`expand`, :func:`check_inputs`): a path that cannot be opened, a glob
that matches nothing, a Parquet file without a ``turns`` column.  A
compressed file cut short is found while reading: :class:`Records` stops at
the cut and keeps the error, so the rows of the records read before it are
still written.
"""

from __future__ import annotations

import glob
import gzip
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from checker.extras import require
from checker.tools.audit.records import Record

__all__ = ["InputError", "Source", "expand", "check_inputs", "Records", "COLUMNS_READ"]

COLUMNS_READ = ("id", "turns", "start", "result")
READ_SIZE = 1 << 16
PARQUET_BATCH = 1024  # rows read from a Parquet file at a time
DIRECTORY_SUFFIXES = (".jsonl", ".ndjson", ".json", ".gz", ".zst", ".parquet")


class InputError(Exception):
    """Unusable input: one line saying what and where (exit 2)."""


@dataclass(frozen=True)
class Source:
    """One input file: the name rows give it (as given, or as a glob or a
    directory matched it) and its kind."""

    name: str
    kind: str  # "jsonl", "gzip", "zstd" or "parquet"


def _kind(path: str) -> str:
    lower = path.lower()
    if lower.endswith(".parquet"):
        return "parquet"
    if lower.endswith(".gz"):
        return "gzip"
    if lower.endswith(".zst"):
        return "zstd"
    return "jsonl"


def expand(arguments: list[str]) -> list[Source]:
    """The input files, in order; raises :class:`InputError` for a glob that
    matches nothing or a path that is not there."""
    out: list[Source] = []
    for arg in arguments:
        if glob.has_magic(arg):
            matched = sorted(p for p in glob.glob(arg, recursive=True) if os.path.isfile(p))
            if not matched:
                raise InputError(f"{arg}: the pattern matches no file")
            out += [Source(p, _kind(p)) for p in matched]
        elif os.path.isdir(arg):
            parts = _parts(arg)
            if not parts:
                raise InputError(f"{arg}: the directory holds no JSON Lines or Parquet file")
            out += [Source(p, _kind(p)) for p in parts]
        else:
            out.append(Source(arg, _kind(arg)))
    return out


def _hidden(name: str) -> bool:
    """A name a directory of parts leaves out: Spark's ``_SUCCESS`` and
    ``_temporary/``, Hadoop's ``.crc`` files, editors' and systems' dot files."""
    return name.startswith((".", "_"))


def _parts(directory: str) -> list[str]:
    """The part files under ``directory``, sorted: at any depth, neither a file
    nor a folder whose name starts with ``.`` or ``_`` (a folder left out is
    not entered: a Spark job's ``_temporary/`` holds copies of its parts)."""
    found = []
    for folder, folders, files in os.walk(directory):
        folders[:] = [name for name in folders if not _hidden(name)]
        for name in files:
            path = os.path.join(folder, name)
            if not _hidden(name) and name.lower().endswith(DIRECTORY_SUFFIXES) and os.path.isfile(path):
                found.append(path)
    return sorted(found)


def check_inputs(sources: list[Source]) -> None:
    """Every input can be opened, and every Parquet file has a ``turns`` column;
    the audit extra is installed when a zstd or Parquet file is among them."""
    if any(source.kind in ("zstd", "parquet") for source in sources):
        require("audit")
    for source in sources:
        try:
            with open(source.name, "rb"):
                pass
        except OSError as exc:
            raise InputError(f"{source.name}: cannot be opened ({exc.strerror or exc})") from None
        if source.kind == "parquet":
            import pyarrow.parquet as pq

            try:
                names = pq.read_schema(source.name).names
            except Exception as exc:  # pyarrow's errors: not a Parquet file, a broken footer
                raise InputError(f"{source.name}: not a readable Parquet file ({_first_line(exc)})") from None
            if "turns" not in names:
                raise InputError(f"{source.name}: the Parquet file has no 'turns' column")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _lines(source: Source) -> Iterator[bytes]:
    if source.kind == "gzip":
        with gzip.open(source.name, "rb") as fh:
            yield from fh
    elif source.kind == "zstd":
        with open(source.name, "rb") as raw:
            yield from _split_lines(_zstd(raw))
    else:
        with open(source.name, "rb") as fh:
            yield from fh


def _zstd(raw) -> Iterator[bytes]:
    """The decompressed bytes of a zstd file of one or more frames; EOFError
    when it ends inside a frame (zstandard's stream reader would just stop)."""
    import zstandard

    context = zstandard.ZstdDecompressor()
    frame, inside = context.decompressobj(), False
    while block := raw.read(READ_SIZE):
        while block:
            inside = True
            yield frame.decompress(block)
            if not frame.eof:
                break
            block, frame, inside = frame.unused_data, context.decompressobj(), False
    if inside:
        raise EOFError("the zstd stream ended inside a frame")


def _split_lines(blocks: Iterator[bytes]) -> Iterator[bytes]:
    tail = b""
    for block in blocks:
        lines = (tail + block).split(b"\n")
        tail = lines.pop()
        yield from (line + b"\n" for line in lines)
    if tail:
        yield tail


def _jsonl(source: Source) -> Iterator[Record]:
    for number, line in enumerate(_lines(source), start=1):
        if line.strip():
            yield source.name, number, line


def _parquet(source: Source) -> Iterator[Record]:
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(source.name)
    columns = [c for c in COLUMNS_READ if c in parquet.schema_arrow.names]
    number = 0
    for batch in parquet.iter_batches(batch_size=PARQUET_BATCH, columns=columns):
        for row in batch.to_pylist():
            number += 1
            yield source.name, number, row


@dataclass
class Records:
    """The records of the inputs in order, from the ``skip``-th on; a read
    error (a compressed file cut short) ends them and is kept in ``error``."""

    sources: list[Source]
    skip: int = 0
    skipped: Callable[[int, Record], None] | None = None  # told of each record skipped (0-based number)
    error: str | None = None
    read: int = field(default=0, init=False)

    def __iter__(self) -> Iterator[Record]:
        for source in self.sources:
            records = _parquet(source) if source.kind == "parquet" else _jsonl(source)
            try:
                for record in records:
                    self.read += 1
                    if self.read > self.skip:
                        yield record
                    elif self.skipped is not None:
                        self.skipped(self.read - 1, record)
            except (EOFError, OSError, ValueError) as exc:
                self.error = f"{source.name}: the file is cut short or damaged ({_first_line(exc)})"
                return
            except Exception as exc:  # zstandard.ZstdError, pyarrow's errors
                self.error = f"{source.name}: the file cannot be read to its end ({_first_line(exc)})"
                return

    def chunks(self, size: int) -> Iterator[list[Record]]:
        chunk: list[Record] = []
        for record in self:
            chunk.append(record)
            if len(chunk) == size:
                yield chunk
                chunk = []
        if chunk:
            yield chunk
