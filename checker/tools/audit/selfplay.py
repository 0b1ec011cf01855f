"""Self-play archives: realistic games for demos, tests and the benchmark.

Each game is played from the start to its end by two random players, some
lightly biased (preferring captures and raises), and written with its claimed
result (the computed one).  ``spoil`` puts in, for that fraction of the
records, one of: an illegal turn, a wrong claim, or a line that does not read
(not JSON, a turn that does not parse, no ``turns``, an ``id`` of the wrong
type).  Turns are written as a list of HTN texts, or for some games as a
score sheet with move numbers.

>>> games = list(selfplay_records(3, seed=1))
>>> [g["id"] for g in games]
['selfplay-1-0', 'selfplay-1-1', 'selfplay-1-2']
"""

from __future__ import annotations

import gzip
import random
from collections.abc import Iterator
from pathlib import Path

import orjson

from checker.generate import legal_turns
from checker.notation import turn_to_htn
from checker.play import apply
from checker.position import Position
from checker.turn import Turn

__all__ = ["selfplay_records", "write_archive", "SPOILS"]

SPOILS = ("illegal-turn", "wrong-claim", "not-json", "bad-turn", "no-turns", "bad-id")


def _choose(rng: random.Random, turns: list[Turn], biased: bool) -> Turn:
    if biased and rng.random() < 0.5:
        keen = [t for t in turns if t.echo is not None or (t.shape is not None and t.shape.kind == "raise")]
        if keen:
            return rng.choice(keen)
    return rng.choice(turns)


def _game(rng: random.Random) -> tuple[list[str], str | None]:
    pos, biased = Position.start(), rng.random() < 0.5
    texts: list[str] = []
    result = None
    while turns := legal_turns(pos):
        turn = _choose(rng, turns, biased)
        texts.append(turn_to_htn(turn, pos))
        outcome = apply(pos, turn)
        pos = outcome.position
        if outcome.game.over:
            result = outcome.game.result
            break
    return texts, result


def _sheet(texts: list[str]) -> str:
    pairs = [texts[i : i + 2] for i in range(0, len(texts), 2)]
    return "\n".join(f"{n}. {' '.join(pair)}" for n, pair in enumerate(pairs, start=1))


def _spoil(rng: random.Random, record: dict) -> dict | bytes:
    kind = rng.choice(SPOILS)
    turns = record["turns"]
    if kind == "illegal-turn" and isinstance(turns, list) and turns:
        i = rng.randrange(len(turns))
        # the same cell Placed on twice, or at the first turn "d4 +d4" (a Place the opening restriction
        # forbids): both parse, neither is legal
        record["turns"] = turns[:i] + [turns[i - 1] if i > 0 else "d4 +d4"] + turns[i + 1 :]
    elif kind == "wrong-claim":
        record["result"] = rng.choice([r for r in ("A", "B", "draw") if r != record["result"]])
    elif kind == "not-json":
        return orjson.dumps(record)[:-1]
    elif kind == "bad-turn" and isinstance(turns, list) and turns:
        record["turns"] = [*turns[:-1], "z9 +q1"]
    elif kind == "no-turns":
        del record["turns"]
    else:
        record["id"] = [record["id"]]
    return record


def selfplay_records(
    games: int, seed: int = 0, spoil: float = 0.0, distinct: int | None = None
) -> Iterator[dict | bytes]:
    """The archive's records (a dict, or the bytes of a line that does not read).
    ``distinct``: only that many different games, repeated (with their own
    ids and spoils) to make large archives quickly for the benchmark."""
    played: dict[int, tuple[list[str], str | None]] = {}
    for n in range(games):
        rng = random.Random(f"{seed} selfplay {n}")
        k = n if distinct is None else n % distinct
        if k not in played:
            played[k] = _game(random.Random(f"{seed} selfplay {k}") if k != n else rng)
        texts, result = played[k] if distinct is not None else played.pop(k)
        texts = list(texts)
        record: dict = {"id": f"selfplay-{seed}-{n}", "turns": _sheet(texts) if rng.random() < 0.2 else texts}
        record["result"] = result
        if spoil and rng.random() < spoil:
            yield _spoil(rng, record)
        else:
            yield record


def write_archive(path: str, games: int, seed: int = 0, spoil: float = 0.0, distinct: int | None = None) -> int:
    """Write the archive as JSON Lines (gzip for ``.gz``, zstd for ``.zst``,
    Parquet for ``.parquet``, where an unreadable line is left out); returns
    the number of records written."""
    target = Path(path)
    records = selfplay_records(games, seed, spoil, distinct)
    if target.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        rows = [
            {
                "id": r["id"],
                "turns": r["turns"] if isinstance(r["turns"], str) else "; ".join(r["turns"]),
                "result": r["result"],
            }
            for r in records
            if isinstance(r, dict) and isinstance(r.get("id"), str) and "turns" in r
        ]
        pq.write_table(pa.Table.from_pylist(rows), target)
        return len(rows)
    lines = (r if isinstance(r, bytes) else orjson.dumps(r) for r in records)
    if target.suffix == ".zst":
        import zstandard

        with target.open("wb") as raw, zstandard.ZstdCompressor().stream_writer(raw) as fh:
            count = 0
            for line in lines:
                fh.write(line + b"\n")
                count += 1
        return count
    opener = gzip.open if target.suffix == ".gz" else open
    count = 0
    with opener(target, "wb") as fh:
        for line in lines:
            fh.write(line + b"\n")
            count += 1
    return count
