"""Benchmark of the checker: the rules engine in-process, and the HTTP service
under gunicorn on loopback.  Run from the repository root with ``make bench``
(or ``.venv/bin/python -m bench``); it prints its tables to stdout and its
progress to stderr, writes them to docs/speed.md, and takes about 15 minutes.

1. In-process, over the positions of POSITIONS: ``check`` of a legal and of an
   illegal turn (check(..., assume_consistent=True), the call the service makes); the
   whole request path of ``POST /v1/check`` without the network, built from
   the service's own public pieces (JSON text -> parse_json ->
   load_check_request -> consistency -> check -> VerdictSchema dump -> orjson;
   see request_path), with the position as HPN and as a JSON object (the turn as
   HTN in both); and the enumeration of every legal turn (and perft over the
   table, bench/perft_bench.py: one timed count each).  Median and p99 of
   many timed calls (time.perf_counter_ns, one call per sample, after a
   warm-up; each operation in blocks of back-to-back calls, the blocks of a
   position's operations alternating over 5 rounds so background load touches
   them alike; the garbage collector left enabled, as in the service).  Then
   the request path of the crowded midgame cut into stages.
2. Over HTTP: ``.venv/bin/gunicorn --config gunicorn.conf.py`` exactly as
   ``make run`` starts it, with HOST=127.0.0.1, a free PORT and WEB_CONCURRENCY
   (and every HEXODIC_* / GUNICORN_* variable) unset, so the defaults apply.
   A closed-loop load generator in separate processes (one http.client
   connection per request, as a client without keep-alive sends them)
   measures requests/s and latency for POST /v1/check (crowded midgame,
   legal turn), POST /v1/legal-turns (placing midgame) and GET /healthz:
   same server, same clients, the endpoints interleaved in rounds.
   POST /v1/legal-turns is sent with Accept-Encoding: gzip, as a browser
   sends it; the answer's bytes are given both ways and in the htn form.
   Then 300 sequential legal-turns requests from one client (no other load):
   median and p99.  Then wrk (Debian's wrk: one thread, keep-alive
   connections, as a browser or a proxy sends them) on /v1/check and
   /healthz, alternating: the throughput ratio; without wrk it says so.
   In-process too: a 1,000-item-style batch (BATCH_ITEMS items) in every
   valid input form (HPN or a JSON object, cell names lower or upper case,
   the turn as HTN or a JSON object): µs per item.  There is no parsing
   cache for JSON objects; HPN text is remembered (schemas.position.cached_hpn),
   so the request path is also timed over a mix of distinct positions, more
   than that cache holds, and reported beside the repeated ones.
3. The targets, each marked PASS or MISS.
4. The worker classes (bench/clients.py): /v1/check throughput under sync
   workers and the shipped gevent ones, and the slow-client and fairness
   probes under each.
5. The pictures (bench/pictures.py): SVG, PNG and the picture URLs.
6. conform's default run against the checker's own engine (bench/conform_time.py):
   its wall time, against the 2-minute bound.
7. The archive audit (bench/archive.py): the fast path against replay on one
   core, 2 local Dask workers against 1, peak memory at 20,000 and 200,000
   games, rows out / records in with a worker killed.

Options: --seconds S (HTTP measurement per endpoint, default 8), --rounds N
(default 2), --warmup S (before each round's measurement, default 0.5),
--clients N (default: one per gunicorn worker), --series-time S (in-process
time per operation and position, default 0.4), --no-http, --no-clients,
--no-doc (do not write docs/speed.md), --no-tools (skip 6 and 7).
"""

from __future__ import annotations

import argparse
import copy
import datetime
import gzip
import http.client
import json
import math
import multiprocessing
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path

from bench import archive, conform_time, perft_bench, pictures, versus
from bench.clients import bench_section as worker_classes_section
from bench.server import running_gunicorn
from checker.generate import legal_turns
from checker.legality import check
from checker.notation import parse_hpn, parse_htn, position_to_hpn, turn_to_htn
from checker.position import Position
from checker.service.pipeline import batch_request, check_request, consistent, parse_json
from checker.web.endpoints import reply
from checker.web.serving import usable_cpus
from schemas.position import HPN_CACHE_SIZE, cached_hpn
from schemas.requests import load_check_request
from schemas.responses import PositionOutSchema
from schemas.turn import turn_to_json

ROOT = Path(__file__).resolve().parents[1]

HOST = "127.0.0.1"  # only loopback is ever contacted

# ------------------------------------------------------------- positions --
# (name, HPN, a legal turn, an illegal turn).  Every position is consistent
# (asserted at start-up); the turns' verdicts are asserted too.
# bench/find_positions.py reproduces the seeded games and the search.
POSITIONS = [
    # The start position: empty tier-0 board, A to move, both reserves full.
    # Legal: A's first Place off the centre and a raise. Illegal: the first
    # Place on d4 (opening restriction).
    ("start", "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0", "c3 +d4", "d4 +c3"),
    # Early game: seeded random game 0 after 6 half-moves; 3 stones each, six
    # tier-1 cells, A to move with 4 in reserve. Illegal: a Place on c3, which
    # holds A's own stone.
    ("early", "100B0/00100/000A00B0/00100A00/100010/01A000/000B0 A 4:3:6:0:3:P:- 4:3:6:0:3:P:- 6", "b3 +a3", "c3 +d4"),
    # Crowded midgame: seeded random game 4 after 22 half-moves; all 14 stones
    # on the board (both reserves empty), 12 tier-1 and 4 tier-2 cells, stones
    # on every tier, a2 Echo-Locked by B, A has captured once.  Legal: A's
    # Move capture b2xa1 (tier 2 onto B's tier-0 stone) and a raise of b1.
    # Illegal: a Move to d4, 2 steps from b2, and a Shape out of range.
    (
        "crowded",
        "0B2*0B0A/02A111A/1001B00/2A001101/0A0B01A11/0200B0B/00A01B A 0:3:6:1:11:P:- 0:2:5:0:10:PL:- 22",
        "b2xa1 +b1",
        "b2-d4 +b1",
    ),
    # Placing midgame with as many legal turns as the search found (3097;
    # bench/find_positions.py placing 2 60000): B to move at half-move 13 with
    # one stone in reserve; 24 cells to Place on, each with many Shapes, and
    # most of those with 7 Echoes: Echo-Locks of B's tier-2 stones b5, d5 and
    # e5, Echo-Captures of A's sealed tier-1 stones e6, e7, f6 and g7.
    # Illegal: a Place on B's own stone on d5 and a Shape of g7, out of range.
    (
        "placing",
        "0000B/00002B/011000/00102B0B0A/0002B1A1A/000A1A0B/000A1A B 0:3:6:0:7:P:- 1:3:6:0:6:P:- 13",
        "c3 +d4",
        "d5 +g7",
    ),
    # Endgame of Moves: seeded random game 0 after 49 half-moves; both reserves
    # empty, both lowering budgets spent, A's stone on f4 Echo-Locked, B has
    # captured 4 times.  Illegal: B's Move from tier-1 e4 onto A's stone on
    # tier-2 f4 (not strictly lower).
    (
        "endgame",
        "2100/001B01B/00A21A00/00A01B210/21A1B0B2B0/0A2A*110/101A1B B 0:2:0:0:19:PL:- 0:3:0:4:18:P:- 49",
        "d4-d3 +f3",
        "e4xf4 +f3",
    ),
    # Capture cooldown: seeded random game 0 after 34 half-moves; A to move
    # with one stone in reserve and a cooldown on a4 (captured there). Legal:
    # a Place on d7, far from a4. Illegal: a Place on a3, 1 step from a4.
    (
        "cooldown",
        "21B00B/01001/00100A0/000A11B00/120B1A10/0A2A1B10/10A1B1B A 1:3:3:0:14:P:a4 0:3:2:2:13:P:- 34",
        "d7 +f7",
        "a3 +a2",
    ),
]
CROWDED, PLACING = "crowded", "placing"

# ------------------------------------------------------------- targets ---
TARGET_CHECK_US = 150.0  # check on the crowded midgame
TARGET_REQUEST_RATIO = 3.0  # request path / bare check
TARGET_US_PER_TURN = 1.0  # enumeration, per legal turn
TARGET_ENUM_MS = 5.0  # enumeration, every position
TARGET_HTTP_SHARE = 0.80  # /v1/check throughput / /healthz throughput (wrk, keep-alive)
TARGET_LEGAL_RATIO = 3.0  # legal-turns (3,097 turns, gzip accepted) latency / a check request's
TARGET_LEGAL_GZIP_BYTES = 60_000
TARGET_TAIL_RATIO = 2.5  # p99 / median of SEQUENTIAL legal-turns requests
TARGET_BATCH_FORMS = 1.5  # per-item cost of a batch: worst valid input form / common form
SEQUENTIAL = 300
BATCH_ITEMS = 200
WRK_SECONDS, WRK_CONNECTIONS = 4, 16

# In-process series: at least MIN_RUNS samples (for a meaningful p99) and at
# most MAX_RUNS; within that, as many as fit in --series-time.
MIN_RUNS, MAX_RUNS = 300, 20000
WARMUP_RUNS, WARMUP_SECONDS = 50, 0.1
BLOCK_ROUNDS = 5

STARTUP_TIMEOUT = 30.0
STOP_TIMEOUT = 30.0
REQUEST_TIMEOUT = 10.0
MAX_REQUESTS_PER_CLIENT = 1_000_000


def log(*args) -> None:
    print(*args, file=sys.stderr, flush=True)


# -------------------------------------------------------------- statistics --


def percentile(sorted_values, q: float):
    """Nearest-rank percentile of an already sorted sequence."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, math.ceil(q / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


class Stats:
    def __init__(self, samples_ns):
        s = sorted(samples_ns)
        self.n = len(s)
        self.median_us = percentile(s, 50) / 1000
        self.p99_us = percentile(s, 99) / 1000


def time_blocks(ops: dict, series_time: float, min_runs: int = MIN_RUNS) -> dict[str, Stats]:
    """Time each of ``ops`` (name -> zero-argument callable), one call per
    sample.  Each operation runs in blocks of back-to-back calls (warm caches,
    as in a tight loop), and the blocks of the operations alternate over
    BLOCK_ROUNDS rounds, so a change of background load touches them alike.
    Per operation: a warm-up (bounded in count and time), then about
    ``series_time`` seconds of samples, at least MIN_RUNS, at most MAX_RUNS."""
    clock = time.perf_counter_ns
    per_call = {}
    for name, fn in ops.items():
        warm_end = clock() + int(WARMUP_SECONDS * 1e9)
        warm = 0
        t0 = clock()
        while warm < min(WARMUP_RUNS, min_runs) or (clock() < warm_end and warm < MAX_RUNS):
            fn()
            warm += 1
        per_call[name] = (clock() - t0) / warm
    samples = {name: array("q") for name in ops}
    for _r in range(BLOCK_ROUNDS):
        for name, fn in ops.items():
            runs = int(min(MAX_RUNS, max(min_runs, series_time * 1e9 / max(per_call[name], 1))))
            block = -(-runs // BLOCK_ROUNDS)
            out = array("q", bytes(8 * block))
            for i in range(block):
                a = clock()
                fn()
                out[i] = clock() - a
            samples[name].extend(out)
    return {name: Stats(x) for name, x in samples.items()}


# ------------------------------------------------------------ in-process --


def request_path(raw: bytes):
    """What POST /v1/check does between the WSGI body and the WSGI response,
    made of the service's own public pieces (checker/service/pipeline.py and
    endpoints.py), so the benchmark follows the service: parse_json (the
    standard library's json.loads, no NaN or Infinity, an object), check_request
    (load_check_request, consistent, check(..., assume_consistent=True), the verdict
    dumped by the compiled VerdictSchema) and reply (orjson into a Response)."""
    return reply(check_request(parse_json(raw)))


def operations() -> list[dict]:
    """For each position of POSITIONS, its data and the timed operations as
    zero-argument callables (shared with bench/profile_loop.py and
    tests/test_bench.py)."""
    position_object = PositionOutSchema()
    out = []
    for name, hpn, legal_htn, illegal_htn in POSITIONS:
        pos = parse_hpn(hpn)
        assert pos.problems() == [], (name, pos.problems())
        legal, illegal = parse_htn(legal_htn), parse_htn(illegal_htn)
        assert check(pos, legal).legal, (name, legal_htn)
        assert not check(pos, illegal).legal, (name, illegal_htn)
        bodies = {
            "hpn": json.dumps({"position": hpn, "turn": legal_htn}).encode(),
            "json": json.dumps({"position": position_object.dump(pos), "turn": legal_htn}).encode(),
        }
        for form, raw in bodies.items():
            answer = json.loads(request_path(raw).get_data())
            assert answer["legal"] is True and answer["outcome"] is not None, (name, form)
        out.append(
            {
                "name": name,
                "hpn": hpn,
                "legal_htn": legal_htn,
                "illegal_htn": illegal_htn,
                "count": len(legal_turns(pos)),
                "ops": {
                    "check_legal": lambda pos=pos, t=legal: check(pos, t, assume_consistent=True),
                    "check_illegal": lambda pos=pos, t=illegal: check(pos, t, assume_consistent=True),
                    "request_hpn": lambda raw=bodies["hpn"]: request_path(raw),
                    "request_json": lambda raw=bodies["json"]: request_path(raw),
                    "enumerate": lambda pos=pos: legal_turns(pos),
                },
            }
        )
    return out


def stages(name: str) -> dict[tuple[str, str], object]:
    """The request path of ``name``'s legal turn cut into its stages, for the
    position as HPN and as a JSON object: ``(form, stage)`` -> a zero-argument
    callable running that stage on the previous stage's output."""
    _, hpn, legal_htn, _ = next(p for p in POSITIONS if p[0] == name)
    ops = {}
    for form in ("hpn", "json"):
        position = hpn if form == "hpn" else PositionOutSchema().dump(parse_hpn(hpn))
        raw = json.dumps({"position": position, "turn": legal_htn}).encode()
        data = parse_json(raw)
        loaded = load_check_request(data)
        pos, turn = loaded["position"], loaded["turn"]
        verdict = check(pos, turn, None, assume_consistent=True)
        dumped = check_request.dump(verdict)
        ops.update(
            {
                (form, "parse_json"): lambda raw=raw: parse_json(raw),
                (form, "load_check_request"): lambda data=data: load_check_request(data),
                # a Position keeps its problems() once found: each call judges a fresh copy
                (form, "consistent (D-3), on a copy"): lambda pos=pos: consistent(pos.replace(), "position"),
                (form, "check"): lambda pos=pos, turn=turn: check(pos, turn, None, assume_consistent=True),
                (form, "VerdictSchema dump (compiled)"): lambda v=verdict: check_request.dump(v),
                (form, "reply (orjson)"): lambda d=dumped: reply(d),
            }
        )
    return ops


def breakdown(name: str, series_time: float) -> dict[str, dict[str, Stats]]:
    """The stages of :func:`stages`, each timed alone."""
    log(f"in-process: request path stages ({name})")
    stats = time_blocks(stages(name), series_time)
    out: dict[str, dict[str, Stats]] = {"hpn": {}, "json": {}}
    for (form, stage), st in stats.items():
        out[form][stage] = st
    return out


def gc_tails() -> list[dict]:
    """bench/gc_freeze.py in each mode, alternating, twice: the collector's pauses with and without gc.freeze."""
    log("in-process: 300 legal-turns requests, with and without gc.freeze (bench/gc_freeze.py)")
    script = Path(__file__).resolve().parent / "gc_freeze.py"
    out = []
    for mode in ("thaw", "freeze", "thaw", "freeze"):
        text = subprocess.run(
            [sys.executable, str(script), mode], capture_output=True, text=True, check=True, cwd=ROOT, timeout=300
        ).stdout
        out.append(json.loads(text))
    return out


def distinct_positions(n: int) -> list[tuple[str, object, object]]:
    """``n`` distinct positions (HPN, Position, its first legal turn) from seeded random games."""
    import random

    out, seen, seed = [], set(), 0
    while len(out) < n:
        rng, pos = random.Random(seed), Position.start()
        seed += 1
        while len(out) < n:
            turns = legal_turns(pos)
            if not turns:
                break
            hpn = position_to_hpn(pos)
            if hpn not in seen:
                seen.add(hpn)
                out.append((hpn, pos, turns[0]))
            pos = check(pos, rng.choice(turns)).outcome.position
    return out


def distinct_mix(series_time: float) -> dict:
    """The request path against the bare check over a mix of 2 x HPN_CACHE_SIZE distinct positions,
    each call the next one in turn: more than the HPN cache holds, so every request parses its
    position afresh (schemas.position.cached_hpn is a least-recently-used cache)."""
    n = 2 * HPN_CACHE_SIZE
    log(f"in-process: a mix of {n} distinct positions (the HPN cache holds {HPN_CACHE_SIZE})")
    mix = distinct_positions(n)
    bodies = [json.dumps({"position": hpn, "turn": turn_to_htn(turn, pos)}).encode() for hpn, pos, turn in mix]
    fresh = [(pos, turn) for _, pos, turn in mix]

    def cycler(items, fn):
        state = {"i": 0}

        def call():
            i = state["i"]
            state["i"] = (i + 1) % len(items)
            return fn(items[i])

        return call

    cached_hpn.cache_clear()
    stats = time_blocks(
        {
            "check": cycler(fresh, lambda pt: check(pt[0], pt[1], assume_consistent=True)),
            "request": cycler(bodies, request_path),
        },
        series_time,
    )
    info = cached_hpn.cache_info()
    return {
        "n": n,
        "check": stats["check"],
        "request": stats["request"],
        "ratio": stats["request"].median_us / stats["check"].median_us,
        "hit_rate": info.hits / max(1, info.hits + info.misses),
    }


def _upper_cells(position: dict) -> dict:
    """A JSON position with every cell name in upper case (valid: names are case-insensitive)."""
    out = copy.deepcopy(position)
    out["cells"] = {name.upper(): cell for name, cell in position["cells"].items()}
    for player in out["players"].values():
        player["cooldown"] = [name.upper() for name in player.get("cooldown", [])]
    return out


def _upper_turn(turn: dict) -> dict:
    return {
        key: None if step is None else {k: v.upper() if k in ("cell", "from", "to") else v for k, v in step.items()}
        for key, step in turn.items()
    }


def batch_forms(name: str = CROWDED) -> dict[str, bytes]:
    """A BATCH_ITEMS-item POST /v1/check/batch body of ``name``'s legal turn in each valid input form:
    the position as HPN or as a JSON object (cell names lower or upper case), the turn as HTN (lower or
    upper case) or as a JSON object."""
    _, hpn, legal_htn, _ = next(p for p in POSITIONS if p[0] == name)
    obj = PositionOutSchema().dump(parse_hpn(hpn))
    turn = turn_to_json(parse_htn(legal_htn))
    forms = {
        "HPN, HTN (common)": (hpn, legal_htn),
        "HPN, HTN upper-case": (hpn, legal_htn.upper()),
        "JSON object, HTN": (obj, legal_htn),
        "JSON object upper-case, HTN upper-case": (_upper_cells(obj), legal_htn.upper()),
        "HPN, JSON turn": (hpn, turn),
        "JSON object, JSON turn": (obj, turn),
        "JSON object upper-case, JSON turn upper-case": (_upper_cells(obj), _upper_turn(turn)),
    }
    return {
        label: json.dumps({"items": [{"position": p, "turn": t}] * BATCH_ITEMS}).encode()
        for label, (p, t) in forms.items()
    }


def batch_costs(series_time: float) -> dict[str, float]:
    """µs per item of a batch (POST /v1/check/batch's pipeline, JSON text to answer) in each input form."""
    log(f"in-process: batch of {BATCH_ITEMS} items in {len(batch_forms())} input forms")
    bodies = batch_forms()
    for raw in bodies.values():
        results = batch_request(parse_json(raw))["results"]
        assert len(results) == BATCH_ITEMS and all(r.get("legal") is True for r in results)
    ops = {label: (lambda raw=raw: batch_request(parse_json(raw))) for label, raw in bodies.items()}
    # a batch takes tens of ms: fewer samples, enough for a median
    stats = time_blocks(ops, series_time, min_runs=20)
    return {label: st.median_us / BATCH_ITEMS for label, st in stats.items()}


def in_process(series_time: float) -> list[dict]:
    rows = []
    for item in operations():
        log(f"in-process: {item['name']} ({item['count']} legal turns)")
        row = {k: v for k, v in item.items() if k != "ops"}
        row.update(time_blocks(item["ops"], series_time))
        row["ratio_hpn"] = row["request_hpn"].median_us / row["check_legal"].median_us
        row["ratio_json"] = row["request_json"].median_us / row["check_legal"].median_us
        row["us_per_turn"] = row["enumerate"].median_us / row["count"] if row["count"] else float("nan")
        rows.append(row)
    return rows


# ---------------------------------------------------------------- HTTP ----


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _one_request(port: int, method: str, path: str, body: bytes | None, headers: dict) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def client_main(conn, port: int) -> None:
    """A load-generator process: runs each phase it is sent, closed loop, one
    connection per request, and sends back (requests, errors, latencies in ns
    of the requests completed inside the measured window)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    conn.send("ready")
    while True:
        msg = conn.recv()
        if msg is None:
            return
        method, path, body, headers, warm_until, end_at = msg
        latencies = array("q")
        errors = started = 0
        clock = time.monotonic_ns
        while started < MAX_REQUESTS_PER_CLIENT:
            a = clock()
            if a >= end_at:
                break
            started += 1
            try:
                status, _ = _one_request(port, method, path, body, headers)
            except (OSError, http.client.HTTPException):
                status = 0
            b = clock()
            if warm_until <= b <= end_at:
                if status == 200:
                    latencies.append(b - a)
                else:
                    errors += 1
        conn.send((len(latencies), errors, latencies.tobytes()))


COSTLY_BESIDE = 4
"""Costly clients run beside /v1/check in the loaded phase: perft counts to depth
3 and 1,600-px PNGs of distinct positions, back to back."""


def costly_main(conn, port: int, seed: int, end_at: int) -> None:
    """A costly client process: until ``end_at`` (monotonic ns), perft to depth 3
    of the table's positions and 1,600-px PNGs of the vectors' positions; sends
    back the count of each answer's status (a reset is ``error``)."""
    import random
    import urllib.parse

    from checker.tools.perft_table import load_table
    from checker.tools.vectors import read_vectors

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    rng = random.Random(seed)
    table = [e.hpn for e in load_table()]
    positions = sorted({v["position"] for v in read_vectors()})
    got: dict[str, int] = {}
    while time.monotonic_ns() < end_at:
        if rng.random() < 0.5:
            body = json.dumps({"position": rng.choice(table), "depth": 3}).encode()
            key, method, path, headers = "perft", "POST", "/v1/perft", {"Content-Type": "application/json"}
        else:
            query = urllib.parse.urlencode({"position": rng.choice(positions), "size": 1600})
            key, method, path, body, headers = "png", "GET", "/v1/render.png?" + query, None, {}
        try:
            status = str(_one_request(port, method, path, body, headers)[0])
        except (OSError, http.client.HTTPException):
            status = "error"
        got[f"{key} {status}"] = got.get(f"{key} {status}", 0) + 1
    conn.send(got)


def _beside(ctx, port: int, pipes: list, endpoint: tuple, warmup: float, seconds: float) -> dict:
    """/v1/check's throughput measured as in the rounds, with costly clients
    running beside it for the whole phase."""
    label, method, path, body, headers = endpoint
    warm_until = time.monotonic_ns() + int(warmup * 1e9)
    end_at = warm_until + int(seconds * 1e9)
    costly = []
    for seed in range(COSTLY_BESIDE):
        parent, child = ctx.Pipe()
        p = ctx.Process(target=costly_main, args=(child, port, seed, end_at), daemon=True)
        p.start()
        costly.append((p, parent))
    for pipe in pipes:
        pipe.send((method, path, body, headers, warm_until, end_at))
    count = errors = 0
    latencies = array("q")
    for pipe in pipes:
        if not pipe.poll(warmup + seconds + REQUEST_TIMEOUT + 10):
            raise RuntimeError("a client process did not report for the loaded phase")
        n, e, raw = pipe.recv()
        count, errors = count + n, errors + e
        latencies.frombytes(raw)
    statuses: dict[str, int] = {}
    for p, pipe in costly:
        if pipe.poll(REQUEST_TIMEOUT + 30):
            for k, n in pipe.recv().items():
                statuses[k] = statuses.get(k, 0) + n
        p.join(timeout=5)
    s = sorted(latencies)
    return {
        "rps": count / seconds,
        "errors": errors,
        "median_ms": percentile(s, 50) / 1e6 if s else float("nan"),
        "p99_ms": percentile(s, 99) / 1e6 if s else float("nan"),
        "costly": statuses,
    }


def sequential(port: int, body: bytes, headers: dict, n: int = SEQUENTIAL) -> dict:
    """``n`` requests one after another (no other load), one connection each: median and p99 in ms."""
    latencies = []
    for _ in range(n):
        a = time.perf_counter_ns()
        status, _ = _one_request(port, "POST", "/v1/legal-turns", body, headers)
        latencies.append(time.perf_counter_ns() - a)
        assert status == 200, status
    s = sorted(latencies)
    return {"n": n, "median_ms": percentile(s, 50) / 1e6, "p99_ms": percentile(s, 99) / 1e6}


_WRK_POST = """wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = {body}
"""


def _wrk(port: int, path: str, script: str | None) -> float:
    """Requests/s that wrk measures on ``path`` (one thread, WRK_CONNECTIONS keep-alive connections)."""
    argv = ["wrk", "-t1", f"-c{WRK_CONNECTIONS}", f"-d{WRK_SECONDS}s", f"http://{HOST}:{port}{path}"]
    if script is not None:
        argv[1:1] = ["-s", script]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=WRK_SECONDS + 30).stdout
    m = re.search(r"Requests/sec:\s*([\d.]+)", out)
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", out)
    if not m or non_2xx:
        raise RuntimeError(f"wrk on {path}: {out[-1500:]}")
    return float(m[1])


def wrk_rates(port: int, check_body: bytes, rounds: int) -> dict | None:
    """/v1/check and /healthz throughput under wrk (keep-alive, as a browser or a proxy sends them),
    alternating over ``rounds``; None when wrk is not installed (apt-get install wrk)."""
    if shutil.which("wrk") is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(_WRK_POST.format(body=json.dumps(check_body.decode())))
        script = f.name
    try:
        rates = {"/v1/check": [], "/healthz": []}
        for _ in range(rounds):
            rates["/v1/check"].append(_wrk(port, "/v1/check", script))
            rates["/healthz"].append(_wrk(port, "/healthz", None))
    finally:
        os.unlink(script)
    return {path: sum(r) / len(r) for path, r in rates.items()}


def http_bench(seconds: float, warmup: float, clients: int | None, rounds: int) -> dict:
    positions = {name: (hpn, legal) for name, hpn, legal, _ in POSITIONS}
    check_body = json.dumps({"position": positions[CROWDED][0], "turn": positions[CROWDED][1]}).encode()
    legal_body = json.dumps({"position": positions[PLACING][0]}).encode()
    json_headers = {"Content-Type": "application/json"}
    gzip_headers = {**json_headers, "Accept-Encoding": "gzip"}
    # legal-turns as a browser asks for it: gzip accepted (the answer's bytes below, both ways)
    endpoints = [
        ("POST /v1/check (crowded, legal)", "POST", "/v1/check", check_body, json_headers),
        ("POST /v1/legal-turns (placing, gzip)", "POST", "/v1/legal-turns", legal_body, gzip_headers),
        ("GET /healthz", "GET", "/healthz", None, {}),
    ]
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    procs, pipes = [], []
    with running_gunicorn(WEB_CONCURRENCY=str(min(usable_cpus(), 8))) as server:
        result = {"endpoints": [], "port": server.port}
        time.sleep(0.5)  # let the forked workers finish booting
        try:
            workers = len(server.booted_workers())
            result["workers"] = workers
            # sanity: each endpoint answers 200 with the expected content
            st, data = _one_request(server.port, "POST", "/v1/check", check_body, {"Content-Type": "application/json"})
            assert st == 200 and json.loads(data)["legal"] is True, (st, data[:300])
            st, data = _one_request(
                server.port, "POST", "/v1/legal-turns", legal_body, {"Content-Type": "application/json"}
            )
            assert st == 200 and json.loads(data)["count"] > 1000, (st, data[:300])
            result["legal_turns_bytes"] = len(data)
            st, packed = _one_request(server.port, "POST", "/v1/legal-turns", legal_body, gzip_headers)
            assert st == 200 and json.loads(gzip.decompress(packed)) == json.loads(data)
            result["legal_turns_gzip_bytes"] = len(packed)
            htn_body = json.dumps({"position": positions[PLACING][0], "form": "htn"}).encode()
            result["legal_turns_htn_bytes"] = len(
                _one_request(server.port, "POST", "/v1/legal-turns", htn_body, json_headers)[1]
            )
            result["legal_turns_htn_gzip_bytes"] = len(
                _one_request(server.port, "POST", "/v1/legal-turns", htn_body, gzip_headers)[1]
            )
            n_clients = clients or max(1, workers)
            result["clients"] = n_clients
            log(f"http: gunicorn on {HOST}:{server.port} with {workers} workers; {n_clients} client processes")
            for _ in range(n_clients):
                parent, child = ctx.Pipe()
                p = ctx.Process(target=client_main, args=(child, server.port), daemon=True)
                p.start()
                procs.append(p)
                pipes.append(parent)
            for pipe in pipes:
                if not pipe.poll(STARTUP_TIMEOUT):
                    raise RuntimeError("a client process did not start")
                pipe.recv()
            # Interleaved rounds, so a change of background load touches every
            # endpoint alike: each round runs each endpoint for seconds/rounds.
            totals = {label: [0, 0, array("q")] for label, *_ in endpoints}
            segment = seconds / rounds
            for r in range(rounds):
                for label, method, path, body, headers in endpoints:
                    log(f"http: round {r + 1}/{rounds}: {label}: {warmup:g} s warm-up + {segment:g} s")
                    warm_until = time.monotonic_ns() + int(warmup * 1e9)
                    end_at = warm_until + int(segment * 1e9)
                    for pipe in pipes:
                        pipe.send((method, path, body, headers, warm_until, end_at))
                    for pipe in pipes:
                        if not pipe.poll(warmup + segment + REQUEST_TIMEOUT + 10):
                            raise RuntimeError(f"a client process did not report for {label}")
                        n, e, raw = pipe.recv()
                        totals[label][0] += n
                        totals[label][1] += e
                        totals[label][2].frombytes(raw)
            for label, _method, path, _body, _headers in endpoints:
                count, errors, latencies = totals[label]
                s = sorted(latencies)
                result["endpoints"].append(
                    {
                        "label": label,
                        "path": path,
                        "requests": count,
                        "errors": errors,
                        "rps": count / seconds,
                        "median_ms": percentile(s, 50) / 1e6,
                        "p99_ms": percentile(s, 99) / 1e6,
                    }
                )
            log(f"http: /v1/check with {COSTLY_BESIDE} costly clients beside it (perft depth 3, 1,600-px PNGs)")
            result["beside"] = _beside(ctx, server.port, pipes, endpoints[0], warmup, segment)
            log(f"http: {SEQUENTIAL} sequential legal-turns requests (gzip accepted), one client")
            result["sequential"] = sequential(server.port, legal_body, gzip_headers)
            log(f"http: wrk, {WRK_CONNECTIONS} keep-alive connections: /v1/check and /healthz, {rounds} rounds")
            result["wrk"] = wrk_rates(server.port, check_body, rounds)
        finally:
            for pipe in pipes:
                try:
                    pipe.send(None)  # a client between phases stops; one mid-phase is terminated below
                except OSError:
                    pass
            for p in procs:
                p.join(timeout=5)
                if p.is_alive():
                    p.terminate()
                    p.join(timeout=5)
            result["stop"] = server.stop()
            log(f"http: gunicorn {result['stop']}")
    return result


# -------------------------------------------------------------- report ----


def mark(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def table(headers: list[str], rows: list[list[str]], align: str) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(cells, widths, align))

    return "\n".join([line(headers), "  ".join("-" * w for w in widths), *(line(r) for r in rows)])


def report(
    rows: list[dict],
    parts: dict,
    http: dict | None,
    started: float,
    args,
    load_before: str,
    perft_rows: list[dict] | None = None,
    batch: dict[str, float] | None = None,
    mix: dict | None = None,
    tails: list[dict] | None = None,
) -> str:
    """The report's text: the machine, then each section of figures, then the targets."""
    http_lines, ep = _http_section(http, args)
    return "\n".join(
        [
            *_header(load_before),
            *_in_process_section(rows, parts, mix, tails, batch, perft_rows),
            *http_lines,
            *_targets_section(rows, mix, batch, http, ep),
            f"total time {time.monotonic() - started:.0f} s",
        ]
    )


def _header(load_before: str) -> list[str]:
    out = []
    cpus = os.cpu_count()
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cpus
    out.append("Hexodic checker benchmark")
    out.append(f"date     {datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M:%S UTC')}")
    out.append(
        f"machine  nproc {affinity} (cpu_count {cpus}), {platform.machine()}, {platform.system()} {platform.release()}"
    )
    out.append(f"python   {platform.python_implementation()} {platform.python_version()}")
    out.append(
        f"load     1/5/15-min load average {load_before} at start, {_loadavg()} at the end "
        f"(other work on the machine inflates p99s and lowers req/s)"
    )
    return out


def _in_process_section(rows, parts, mix, tails, batch, perft_rows) -> list[str]:
    out: list[str] = []
    out.append("")
    out.append(
        "1. In-process, µs (median / p99 of N one-call samples; check is check(..., assume_consistent=True), "
        "the call the service makes)"
    )
    t1 = []
    for r in rows:
        cl, ci, rh, rj = r["check_legal"], r["check_illegal"], r["request_hpn"], r["request_json"]
        t1.append(
            [
                r["name"],
                f"{cl.median_us:.1f} / {cl.p99_us:.1f}",
                f"{ci.median_us:.1f} / {ci.p99_us:.1f}",
                f"{rh.median_us:.1f} / {rh.p99_us:.1f}",
                f"{rj.median_us:.1f} / {rj.p99_us:.1f}",
                f"{r['ratio_hpn']:.2f}x",
                f"{r['ratio_json']:.2f}x",
                f"{min(cl.n, ci.n, rh.n, rj.n)}",
            ]
        )
    out.append(
        table(
            [
                "position",
                "check legal",
                "check illegal",
                "request HPN",
                "request JSON",
                "req/chk HPN",
                "req/chk JSON",
                "N >=",
            ],
            t1,
            "lrrrrrrr",
        )
    )
    out.append(
        "   turns: " + "; ".join(f"{r['name']}: {r['legal_htn']} (legal), {r['illegal_htn']} (illegal)" for r in rows)
    )
    out.append("")
    out.append(f"   Request path of POST /v1/check cut into stages ({CROWDED} midgame, legal turn), median µs")
    stages = list(parts["hpn"])
    t5 = [[stage, f"{parts['hpn'][stage].median_us:.1f}", f"{parts['json'][stage].median_us:.1f}"] for stage in stages]
    t5.append(
        [
            "sum",
            f"{sum(parts['hpn'][k].median_us for k in stages):.1f}",
            f"{sum(parts['json'][k].median_us for k in stages):.1f}",
        ]
    )
    out.append(table(["stage", "HPN", "JSON object"], t5, "lrr"))
    out.append("")
    out.append("   Legal-turn enumeration (checker.generate.legal_turns)")
    t2 = [
        [
            r["name"],
            str(r["count"]),
            f"{r['enumerate'].median_us:.0f}",
            f"{r['enumerate'].p99_us:.0f}",
            f"{r['us_per_turn']:.3f}",
            str(r["enumerate"].n),
        ]
        for r in rows
    ]
    out.append(table(["position", "turns", "median µs", "p99 µs", "µs/turn", "N"], t2, "lrrrrr"))
    out.append("")
    if mix:
        out.append(
            f"   A mix of {mix['n']} distinct positions, each call the next (more than the HPN cache's "
            f"{HPN_CACHE_SIZE}: HPN cache hits {mix['hit_rate'] * 100:.0f}%): check "
            f"{mix['check'].median_us:.1f} / {mix['check'].p99_us:.1f} µs, request HPN "
            f"{mix['request'].median_us:.1f} / {mix['request'].p99_us:.1f} µs, req/chk {mix['ratio']:.2f}x "
            "(the table above repeats each position, as a player trying turns does: cache hits)"
        )
        out.append("")
    if tails:
        out.append(
            "   The collector's pauses over 300 sequential legal-turns requests (placing, gzip; Flask's test "
            "client; bench/gc_freeze.py, each run a fresh interpreter)"
        )
        out.append(
            table(
                [
                    "heap",
                    "objects tracked",
                    "frozen",
                    "full collections",
                    "longest ms",
                    "median ms",
                    "p99 ms",
                    "p99/median",
                ],
                [
                    [
                        t["mode"],
                        str(t["tracked"]),
                        str(t["frozen"]),
                        str(t["full_collections"]),
                        f"{t['longest_full_ms']:.2f}",
                        f"{t['median_ms']:.2f}",
                        f"{t['p99_ms']:.2f}",
                        f"{t['p99_ms'] / t['median_ms']:.2f}",
                    ]
                    for t in tails
                ],
                "lrrrrrrr",
            )
        )
        out.append("")
    if batch:
        common = next(iter(batch.values()))
        out.append(
            f"   POST /v1/check/batch, {BATCH_ITEMS} items of the {CROWDED} midgame's legal turn, by input form "
            "(the pipeline, JSON text to answer), median µs per item"
        )
        out.append(
            table(
                ["input form", "µs/item", "/ common"],
                [[label, f"{us:.1f}", f"{us / common:.2f}x"] for label, us in batch.items()],
                "lrr",
            )
        )
        out.append("")
    if perft_rows:  # bench/perft_bench.py
        out += perft_bench.lines(perft_rows) + [""]
    return out


def _http_section(http: dict | None, args) -> tuple[list[str], dict]:
    out: list[str] = []
    ep = {}
    if http is not None:
        out.append(
            f"2. HTTP on {HOST} (gunicorn --config gunicorn.conf.py, {http.get('workers', '?')} workers; "
            f"{http.get('clients', '?')} client processes, one connection per request; "
            f"{args.seconds:g} s each in {args.rounds} interleaved rounds, each after a "
            f"{args.warmup:g} s warm-up)"
        )
        t3 = []
        for e in http["endpoints"]:
            ep[e["path"]] = e
            t3.append(
                [
                    e["label"],
                    str(e["requests"]),
                    str(e["errors"]),
                    f"{e['rps']:.0f}",
                    f"{e['median_ms']:.2f}",
                    f"{e['p99_ms']:.2f}",
                ]
            )
        out.append(table(["endpoint", "requests", "errors", "req/s", "median ms", "p99 ms"], t3, "lrrrrr"))
        if "legal_turns_bytes" in http:
            out.append(
                f"   /v1/legal-turns answer for the placing midgame, bytes: objects {http['legal_turns_bytes']}, "
                f"gzip {http['legal_turns_gzip_bytes']}; form htn {http['legal_turns_htn_bytes']}, "
                f"gzip {http['legal_turns_htn_gzip_bytes']}"
            )
        if "/v1/check" in ep and "/healthz" in ep and ep["/healthz"]["rps"]:
            out.append(
                f"   /v1/check throughput / /healthz throughput (these clients, a connection per request): "
                f"{ep['/v1/check']['rps'] / ep['/healthz']['rps']:.2f}"
            )
        if http.get("beside") and "/v1/check" in ep and ep["/v1/check"]["rps"]:
            b = http["beside"]
            out.append(
                f"   /v1/check with {COSTLY_BESIDE} costly clients beside it (perft to depth 3, 1,600-px PNGs): "
                f"{b['rps']:.0f} req/s, {b['rps'] / ep['/v1/check']['rps']:.2f} of the unloaded figure; "
                f"median {b['median_ms']:.2f} ms, p99 {b['p99_ms']:.2f} ms, {b['errors']} errors; "
                f"the costly requests: {', '.join(f'{k}: {n}' for k, n in sorted(b['costly'].items()))}"
            )
        if http.get("sequential"):
            sq = http["sequential"]
            out.append(
                f"   {sq['n']} sequential /v1/legal-turns requests (placing, gzip), one client: median "
                f"{sq['median_ms']:.2f} ms, p99 {sq['p99_ms']:.2f} ms"
            )
        if http.get("wrk"):
            w = http["wrk"]
            out.append(
                f"   wrk (1 thread, {WRK_CONNECTIONS} keep-alive connections, {WRK_SECONDS} s x {args.rounds}): "
                f"/v1/check {w['/v1/check']:.0f} req/s, /healthz {w['/healthz']:.0f} req/s"
            )
        out.append(f"   gunicorn {http.get('stop', '?')}")
        out.append("")

    return out, ep


def _targets_section(rows, mix, batch, http, ep) -> list[str]:
    out: list[str] = []
    out.append("3. Targets")
    by = {r["name"]: r for r in rows}
    cr = by[CROWDED]
    t4 = []
    worst_check = max(cr["check_legal"].median_us, cr["check_illegal"].median_us)
    t4.append(
        [
            "check < 150 µs (crowded midgame, legal and illegal, median)",
            f"{cr['check_legal'].median_us:.1f} / {cr['check_illegal'].median_us:.1f} µs",
            mark(worst_check < TARGET_CHECK_US),
        ]
    )
    ratio_cr = max(cr["ratio_hpn"], cr["ratio_json"])
    t4.append(
        [
            "request path < 3x bare check (crowded midgame, HPN / JSON)",
            f"{cr['ratio_hpn']:.2f}x / {cr['ratio_json']:.2f}x",
            mark(ratio_cr < TARGET_REQUEST_RATIO),
        ]
    )
    worst_ratio = max(rows, key=lambda r: max(r["ratio_hpn"], r["ratio_json"]))
    wr = max(worst_ratio["ratio_hpn"], worst_ratio["ratio_json"])
    t4.append(
        [
            "request path < 3x bare check (every position, worst)",
            f"{wr:.2f}x ({worst_ratio['name']})",
            mark(wr < TARGET_REQUEST_RATIO),
        ]
    )
    if mix:
        t4.append(
            [
                f"request path < 3x bare check ({mix['n']} distinct positions, no HPN cache hit)",
                f"{mix['ratio']:.2f}x",
                mark(mix["ratio"] < TARGET_REQUEST_RATIO),
            ]
        )
    worst_turn = max((r for r in rows if r["count"]), key=lambda r: r["us_per_turn"])
    t4.append(
        [
            "enumeration < 1 µs per legal turn (every position, worst)",
            f"{worst_turn['us_per_turn']:.3f} µs ({worst_turn['name']})",
            mark(worst_turn["us_per_turn"] < TARGET_US_PER_TURN),
        ]
    )
    worst_enum = max(rows, key=lambda r: r["enumerate"].median_us)
    t4.append(
        [
            "enumeration < 5 ms (every position, worst median)",
            f"{worst_enum['enumerate'].median_us / 1000:.2f} ms ({worst_enum['name']}, {worst_enum['count']} turns)",
            mark(worst_enum["enumerate"].median_us / 1000 < TARGET_ENUM_MS),
        ]
    )
    if batch:
        common = next(iter(batch.values()))
        worst_label = max(batch, key=batch.get)
        worst = batch[worst_label] / common
        t4.append(
            [
                f"batch per item, worst valid input form / common < {TARGET_BATCH_FORMS}x",
                f"{worst:.2f}x ({worst_label}: {batch[worst_label]:.1f} µs)",
                mark(worst < TARGET_BATCH_FORMS),
            ]
        )

    def target(label: str, measured: tuple[str, bool] | None, missing: str = "not measured") -> None:
        """A target's row: its figure and PASS/MISS, or MISS when it was not measured."""
        t4.append([label, measured[0], mark(measured[1])] if measured else [label, missing, "MISS"])

    legal_ep, check_ep = ep.get("/v1/legal-turns"), ep.get("/v1/check")
    ratio = legal_ep["median_ms"] / check_ep["median_ms"] if legal_ep and check_ep else None
    target(
        f"legal-turns (3,097, gzip) latency / a check request's < {TARGET_LEGAL_RATIO:g}x",
        ratio
        and (
            f"{ratio:.2f}x ({legal_ep['median_ms']:.2f} / {check_ep['median_ms']:.2f} ms)",
            ratio < TARGET_LEGAL_RATIO,
        ),
    )
    packed = (http or {}).get("legal_turns_gzip_bytes")
    target(
        f"legal-turns bytes on the wire, gzip accepted < {TARGET_LEGAL_GZIP_BYTES:,}",
        packed and (f"{packed:,}", packed < TARGET_LEGAL_GZIP_BYTES),
    )
    sq = (http or {}).get("sequential")
    tail = sq and sq["p99_ms"] / sq["median_ms"]
    target(
        f"p99 / median, {SEQUENTIAL} sequential legal-turns requests < {TARGET_TAIL_RATIO:g}",
        sq and (f"{tail:.2f} ({sq['p99_ms']:.2f} / {sq['median_ms']:.2f} ms)", tail < TARGET_TAIL_RATIO),
    )
    w = (http or {}).get("wrk")
    share = w and w["/v1/check"] / w["/healthz"]
    target(
        f"/v1/check throughput / /healthz (wrk) >= {TARGET_HTTP_SHARE:g}",
        w and (f"{share:.2f} ({w['/v1/check']:.0f} / {w['/healthz']:.0f} req/s)", share >= TARGET_HTTP_SHARE),
        "not measured (wrk not installed: apt-get install wrk)" if http else "not measured",
    )
    out.append(table(["target", "figure", ""], t4, "lrl"))
    out.append("")
    return out


def _loadavg() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def _sigterm(signum, frame):
    raise SystemExit(128 + signum)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=8.0, help="HTTP measurement per endpoint (s)")
    ap.add_argument("--warmup", type=float, default=0.5, help="HTTP warm-up per endpoint and round (s)")
    ap.add_argument("--clients", type=int, default=None, help="load-generator processes (default: one per worker)")
    ap.add_argument("--series-time", type=float, default=0.4, help="in-process time per operation and position (s)")
    ap.add_argument("--rounds", type=int, default=2, help="HTTP rounds, endpoints interleaved (default 2)")
    ap.add_argument("--no-http", action="store_true", help="skip the HTTP part")
    ap.add_argument("--no-doc", dest="doc", action="store_false", help=f"do not write {SPEED_DOC}")
    ap.add_argument(
        "--no-clients", action="store_true", help="skip the worker-class comparison (bench/clients.py: sync vs gevent)"
    )
    ap.add_argument(
        "--no-tools", action="store_true", help="skip conform's default run and the archive audit (bench/archive.py)"
    )
    args = ap.parse_args(argv)
    if not (0 < args.seconds <= 60 and 0 <= args.warmup <= 10 and 0 < args.series_time <= 5 and 1 <= args.rounds <= 10):
        ap.error("--seconds must be in (0, 60], --warmup in [0, 10], --series-time in (0, 5], --rounds in 1..10")
    signal.signal(signal.SIGTERM, _sigterm)
    started = time.monotonic()
    os.chdir(ROOT)
    load_before = _loadavg()
    rows = in_process(args.series_time)
    parts = breakdown(CROWDED, args.series_time)
    batch = batch_costs(args.series_time)
    mix = distinct_mix(args.series_time)
    tails = gc_tails()
    log("in-process: perft over the table (depth 2, the start to depth 3)")
    perft_rows = perft_bench.measure()
    http = None if args.no_http else http_bench(args.seconds, args.warmup, args.clients, args.rounds)
    text = report(rows, parts, http, started, args, load_before, perft_rows, batch, mix, tails)
    print(text, flush=True)
    sections = [text]
    if not (args.no_http or args.no_clients):
        # the cost and the gain of the gevent worker class beside the sync one
        sections.append(worker_classes_section())
        print("\n" + sections[-1], flush=True)
    sections.append(pictures.section())
    print("\n" + sections[-1], flush=True)
    log(f"side by side with {versus.BASELINE} (bench/versus.py)")
    sections.append(versus.section())
    print("\n" + sections[-1], flush=True)
    if not args.no_tools:
        log("conform's default run, then the archive audit (about 10 minutes)")
        sections.append(conform_time.section())
        print("\n" + sections[-1], flush=True)
        sections.append(archive.section())
        print("\n" + sections[-1], flush=True)
    if args.doc:
        write_doc(sections, ROOT / SPEED_DOC)
        log(f"written to {SPEED_DOC}")
    return 0


SPEED_DOC = "docs/speed.md"


def write_doc(sections: list[str], path: Path) -> None:
    """docs/speed.md: what the benchmark measures, then this run's figures (one
    current table; the history is in git)."""
    intro = (__doc__ or "").strip()
    figures = "\n\n".join(s.strip("\n") for s in sections)
    path.write_text(
        "# Speed: `make bench`\n\n"
        "Written by `make bench` (`python -m bench`); each run replaces it, so it holds the latest figures. "
        "Figures are from a shared 2-core machine: compare ratios within one run, not runs with each other.\n\n"
        f"## What it measures\n\n```text\n{intro}\n```\n\n"
        f"## The latest run\n\n```text\n{figures}\n```\n",
        encoding="utf-8",
    )
