"""The garbage collector's part in a request's tail, with and without
gc.freeze (what gunicorn.conf.py's when_ready does before the workers fork).

Run by ``make bench`` (bench/bench.py), each mode in a fresh interpreter:
``python bench/gc_freeze.py freeze|thaw`` loads the app as the preloading
master does, warms it with a few requests, freezes the heap (mode freeze) or
not, then sends 300 sequential POST /v1/legal-turns requests (the placing
midgame, gzip accepted) through Flask's test client, timing each and every
collection (gc.callbacks).  It prints one JSON line: the objects the
collector tracks, the full (generation 2) collections and the longest, and
the requests' median and p99 in ms.
"""

from __future__ import annotations

import gc
import json
import sys
import time

from checker.web import create_app

PLACING = "0000B/00002B/011000/00102B0B0A/0002B1A1A/000A1A0B/000A1A B 0:3:6:0:7:P:- 1:3:6:0:6:P:- 13"
REQUESTS = 300


def measure(freeze: bool) -> dict:
    client = create_app({"TESTING": True}).test_client()

    def legal_turns():
        return client.post("/v1/legal-turns", json={"position": PLACING}, headers={"Accept-Encoding": "gzip"})

    for _ in range(20):
        assert legal_turns().status_code == 200
    for path in ("/docs", "/openapi.yaml", "/rules", "/"):
        client.get(path)
    if freeze:
        gc.collect()
        gc.freeze()
    pauses: dict[int, list[int]] = {0: [], 1: [], 2: []}
    began = [0]

    def timed(phase, info):
        if phase == "start":
            began[0] = time.perf_counter_ns()
        else:
            pauses[info["generation"]].append(time.perf_counter_ns() - began[0])

    gc.callbacks.append(timed)
    latencies = []
    try:
        for _ in range(REQUESTS):
            a = time.perf_counter_ns()
            legal_turns()
            latencies.append(time.perf_counter_ns() - a)
    finally:
        gc.callbacks.remove(timed)
    latencies.sort()
    return {
        "mode": "freeze" if freeze else "thaw",
        "tracked": len(gc.get_objects()),
        "frozen": gc.get_freeze_count(),
        "full_collections": len(pauses[2]),
        "longest_full_ms": max(pauses[2], default=0) / 1e6,
        "median_ms": latencies[len(latencies) // 2] / 1e6,
        "p99_ms": latencies[max(0, -(-99 * len(latencies) // 100) - 1)] / 1e6,
    }


if __name__ == "__main__":
    if sys.argv[1:] not in (["freeze"], ["thaw"]):
        sys.exit("usage: gc_freeze.py freeze|thaw")
    print(json.dumps(measure(sys.argv[1] == "freeze")))
