"""Perft speed for ``make bench`` (bench/bench.py prints it beside the
legal-turn enumeration), or alone: ``.venv/bin/python bench/perft_bench.py``.

Counts the published table (checker/data/perft.json) with ``checker.perft``:
every position to depth 2, the start to depth 3 (about 115 million
sequences; 15-25 s on the development machine), each count timed once with
time.perf_counter and checked against the table.  Nodes per second is the
count divided by the time: the last ply is counted in bulk
(``checker.counting.count_turns``), so a node costs far less than a turn made
and applied.
"""

from __future__ import annotations

import time

from checker.counting import perft
from checker.tools.perft_table import load_table


def measure(depth3: tuple[str, ...] = ("start",)) -> list[dict]:
    """One timed count per table position at depth 2, and at depth 3 for
    ``depth3``; each checked against the table."""
    rows = []
    entries = load_table()
    for depth in (2, 3):
        for e in entries:
            if depth == 3 and e.name not in depth3:
                continue
            pos = e.position
            start = time.perf_counter()
            nodes = perft(pos, depth)
            seconds = time.perf_counter() - start
            assert nodes == e.nodes[depth - 1], (e.name, depth, nodes)
            rows.append({"name": e.name, "depth": depth, "nodes": nodes, "seconds": seconds})
    return rows


def lines(rows: list[dict]) -> list[str]:
    """The section of the report: a line per count, and depth 2 over the table."""
    out = [
        "   Perft (checker.perft over the table of docs/perft.md; one timed count each)",
        f"{'position':<16} {'depth':>5} {'nodes':>13} {'seconds':>8} {'nodes/s':>11}",
    ]
    for r in rows:
        nps = r["nodes"] / r["seconds"] if r["seconds"] else float("nan")
        out.append(f"{r['name']:<16} {r['depth']:>5} {r['nodes']:>13,} {r['seconds']:>8.2f} {nps:>11,.0f}")
    two = [r for r in rows if r["depth"] == 2]
    nodes, seconds = sum(r["nodes"] for r in two), sum(r["seconds"] for r in two)
    out.append(f"{'table, depth 2':<16} {2:>5} {nodes:>13,} {seconds:>8.2f} {nodes / seconds:>11,.0f}")
    return out


if __name__ == "__main__":
    print("\n".join(lines(measure())))
