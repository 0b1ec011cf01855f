"""Bad clients and fair shares: the HTTP service under idle, slow, trickling,
non-closing and expensive clients, for one gunicorn worker class or several.

Run from the repository root: ``.venv/bin/python bench/clients.py`` (every
scenario, sync and gevent), or ``--classes sync,gevent,gthread --scenarios
idle,trickle``; ``make bench`` runs the short form (bench/bench.py calls
:func:`compare`).  Only 127.0.0.1 is contacted; every scenario is bounded in
sockets, processes and time, and every server is stopped.

gunicorn is started as ``make run`` starts it (``gunicorn --config
gunicorn.conf.py``) with 4 workers, the worker class given on the command
line (which overrides the file's), and the file's other settings.

Scenarios (attackers run while a prober asks for ``GET /healthz`` and
``POST /v1/check`` from another client, one new connection per probe, every
PROBE_EVERY seconds, each probe failing when it has no answer within
PROBE_TIMEOUT):

- ``idle``: 300 TCP connections that send nothing;
- ``headers``: 20 that send a request's headers at a byte a second;
- ``trickle``: 20 that send complete headers and then a body at a byte a second;
- ``target``: 300 idle and 20 trickling together (the target);
- ``nonclosing``: 50 that each send one keep-alive request, read the answer
  and keep the connection open;
- ``upload``: one honest 256 KiB body (within the limit) at 1 KiB/s, the
  answer reported (it cannot finish in the time at that rate, so the
  server's answer to a slow body is what is measured);
- ``batches``: 4 client processes sending 1000-item batches (placing midgame)
  in a closed loop;
- ``legal``: 10 processes asking for the placing midgame's legal turns;
- ``mixed``: 4 batch and 10 legal-turns processes together.

For the expensive scenarios a closed-loop /v1/check client also counts its
answers per second (the figure measured before the gevent workers: 916 req/s alone, 46 beside 10
legal-turns clients).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import select
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from bench.server import running_gunicorn

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
WORKERS = 4
PROBE_TIMEOUT = 1.0
PROBE_EVERY = 0.25

CROWDED = "0B2*0B0A/02A111A/1001B00/2A001101/0A0B01A11/0200B0B/00A01B A 0:3:6:1:11:P:- 0:2:5:0:10:PL:- 22"
PLACING = "0000B/00002B/011000/00102B0B0A/0002B1A1A/000A1A0B/000A1A B 0:3:6:0:7:P:- 1:3:6:0:6:P:- 13"
CHECK_BODY = json.dumps({"position": CROWDED, "turn": "b2xa1 +b1"}).encode()
LEGAL_BODY = json.dumps({"position": PLACING}).encode()
BATCH_BODY = json.dumps({"items": [{"position": PLACING, "turn": "c3 +d4"}] * 1000}).encode()
JSON = {"Content-Type": "application/json"}

CLASSES = {  # worker class -> extra gunicorn arguments
    "sync": ["-k", "sync"],
    "gthread": ["-k", "gthread", "--threads", "8"],
    "gevent": ["-k", "gevent"],
}


def log(*args) -> None:
    print(*args, file=sys.stderr, flush=True)


# ------------------------------------------------------------- the server --


def _get(port: int, method: str, path: str, body: bytes | None = None, timeout: float = PROBE_TIMEOUT):
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=JSON if body is not None else {})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


@contextlib.contextmanager
def serve(worker_class: str, workers: int = WORKERS, env: dict | None = None):
    """gunicorn --config gunicorn.conf.py with ``worker_class`` and ``workers``
    (bench.server.running_gunicorn); yields the running server."""
    with running_gunicorn(args=tuple(CLASSES[worker_class]), WEB_CONCURRENCY=str(workers), **(env or {})) as server:
        time.sleep(0.5)  # let the forked workers finish booting
        yield server


# -------------------------------------------------------------- attackers --


class SlowSockets:
    """``n`` raw connections that each send ``head`` and then one byte of
    ``drip`` a second (nothing at all when ``drip`` is empty).  What the
    server answers on each is kept: the status line and Content-Type."""

    def __init__(self, port: int, n: int, head: bytes = b"", drip: bytes = b""):
        self.port, self.head, self.drip = port, head, drip
        self.socks: list[socket.socket] = []
        self.sent: dict[socket.socket, int] = {}
        self.answers: dict[socket.socket, bytes] = {}
        self.closed_at: dict[socket.socket, float] = {}
        self.started = time.monotonic()
        for _ in range(n):
            s = socket.socket()
            s.settimeout(2)
            try:
                s.connect((HOST, port))
            except OSError:
                s.close()
                continue
            s.setblocking(False)
            if head:
                with contextlib.suppress(OSError):
                    s.send(head)
            self.socks.append(s)
            self.sent[s] = 0

    def tick(self) -> None:
        """Read what the server sent; send one more byte where dripping."""
        live = [s for s in self.socks if s not in self.closed_at]
        if not live:
            return
        readable, _, _ = select.select(live, [], [], 0)
        for s in readable:
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if data:
                self.answers[s] = self.answers.get(s, b"") + data
            else:
                self.closed_at[s] = time.monotonic()
        if self.drip:
            for s in live:
                if s in self.closed_at or self.sent[s] >= len(self.drip):
                    continue
                try:
                    s.send(self.drip[self.sent[s] : self.sent[s] + 1])
                    self.sent[s] += 1
                except OSError:
                    self.closed_at[s] = time.monotonic()

    def summary(self) -> str:
        n = len(self.socks)
        statuses: dict[str, int] = {}
        for s in self.socks:
            raw = self.answers.get(s, b"")
            if raw:
                line = raw.split(b"\r\n", 1)[0].decode("latin-1")
                ctype = next(
                    (
                        h.split(b":", 1)[1].strip().decode("latin-1")
                        for h in raw.split(b"\r\n")
                        if h.lower().startswith(b"content-type:")
                    ),
                    "no type",
                )
                key = f"{line.split(' ', 1)[1] if ' ' in line else line} ({ctype})"
            elif s in self.closed_at:
                key = "closed without an answer"
            else:
                key = "still open"
            statuses[key] = statuses.get(key, 0) + 1
        closed = sorted(t - self.started for s, t in self.closed_at.items())
        when = f", closed by the server after {closed[0]:.1f}-{closed[-1]:.1f} s" if closed else ""
        return f"{n} sockets: " + ", ".join(f"{v} {k}" for k, v in sorted(statuses.items())) + when

    def close(self) -> None:
        for s in self.socks:
            s.close()


def _request_head(path: str, length: int) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


def idle(port: int, n: int = 300) -> SlowSockets:
    return SlowSockets(port, n)


def slow_headers(port: int, n: int = 20) -> SlowSockets:
    return SlowSockets(port, n, b"", _request_head("/v1/check", len(CHECK_BODY)) + CHECK_BODY)


def trickle(port: int, n: int = 20) -> SlowSockets:
    return SlowSockets(port, n, _request_head("/v1/check", len(CHECK_BODY)), CHECK_BODY)


class NonClosing(SlowSockets):
    """Keep-alive clients that each ask for /healthz, read the answer and
    leave the connection open: ``per_second`` new ones a second, at most
    ``n`` in all."""

    def __init__(self, port: int, n: int = 100, per_second: int = 10):
        super().__init__(port, 0)
        self.n, self.per_second = n, per_second

    def tick(self) -> None:
        for _ in range(min(self.per_second, self.n - len(self.socks))):
            try:
                s = socket.create_connection((HOST, self.port), timeout=1)
                s.sendall(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
            except OSError:
                continue
            s.setblocking(False)
            self.socks.append(s)
            self.sent[s] = 0
        super().tick()


def _loop(port: int, path: str, body: bytes, stop_at: float, counts) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ok = bad = 0
    while time.monotonic() < stop_at:
        try:
            status, _ = _get(port, "POST", path, body, timeout=30)
            ok += status == 200
            bad += status != 200
        except (OSError, http.client.HTTPException):
            bad += 1
    counts.put((path, ok, bad))


class Loaders:
    """Closed-loop client processes, each sending ``body`` to ``path`` until
    ``seconds`` from now."""

    def __init__(self, port: int, jobs: list[tuple[str, bytes]], seconds: float):
        ctx = multiprocessing.get_context("fork")
        self.counts = ctx.Queue()
        stop_at = time.monotonic() + seconds
        self._totals = None
        self.procs = [
            ctx.Process(target=_loop, args=(port, path, body, stop_at, self.counts), daemon=True) for path, body in jobs
        ]
        for p in self.procs:
            p.start()

    def tick(self) -> None:
        pass

    def totals(self) -> dict[str, list[int]]:
        """path -> [answered 200, other], once every process has reported."""
        if self._totals is None:
            self._totals = {}
            for _ in self.procs:
                try:
                    path, ok, bad = self.counts.get(timeout=40)
                except Exception:  # a process that did not report
                    continue
                t = self._totals.setdefault(path, [0, 0])
                t[0] += ok
                t[1] += bad
        return self._totals

    def summary(self) -> str:
        return "; ".join(f"{path}: {ok} answered 200, {bad} other" for path, (ok, bad) in self.totals().items())

    def close(self) -> None:
        for p in self.procs:
            p.join(timeout=40)
            if p.is_alive():
                p.terminate()
                p.join()


# ----------------------------------------------------------------- probes --


@contextlib.contextmanager
def ticking(attackers):
    """A thread that ticks every attacker once a second while the block runs."""
    stop = threading.Event()

    def run():
        while not stop.wait(1.0):
            for att in attackers:
                att.tick()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def probe(port: int, seconds: float) -> dict:
    """/healthz and /v1/check alternately every PROBE_EVERY s for ``seconds``;
    each answer within PROBE_TIMEOUT counts."""
    results = {"/healthz": [], "/v1/check": []}
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        path = "/healthz" if i % 2 == 0 else "/v1/check"
        i += 1
        a = time.monotonic()
        try:
            status, _ = _get(
                port, "GET" if path == "/healthz" else "POST", path, None if path == "/healthz" else CHECK_BODY
            )
            results[path].append(time.monotonic() - a if status == 200 else None)  # a timeout per socket
            # operation, so an answer may come later than PROBE_TIMEOUT in all: _share counts it as missed
        except (OSError, http.client.HTTPException):
            results[path].append(None)
        time.sleep(max(0.0, PROBE_EVERY - (time.monotonic() - a)))
    return results


def check_rate(port: int, seconds: float) -> float:
    """/v1/check answers per second of one closed-loop client."""
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        try:
            n += _get(port, "POST", "/v1/check", CHECK_BODY, timeout=5)[0] == 200
        except (OSError, http.client.HTTPException):
            pass
    return n / seconds


def upload(port: int, rate: int = 1024, size: int = 256 * 1024 - 64, limit: float = 40.0) -> str:
    """An honest /v1/check body of ``size`` bytes (the request padded with
    JSON whitespace) sent at ``rate`` bytes/s; what came back, and when."""
    body = CHECK_BODY[:-1] + b" " * (size - len(CHECK_BODY)) + b"}"
    s = socket.create_connection((HOST, port), timeout=2)
    s.sendall(_request_head("/v1/check", len(body)))
    started = time.monotonic()
    sent, answer = 0, b""
    try:
        while time.monotonic() - started < limit:
            if select.select([s], [], [], 0)[0]:
                data = s.recv(65536)
                if not data:
                    break
                answer += data
                if b"\r\n\r\n" in answer:
                    time.sleep(0.2)
                    answer += s.recv(65536) if select.select([s], [], [], 0)[0] else b""
                    break
            due = min(len(body), int((time.monotonic() - started) * rate) + rate // 10)
            if due > sent:
                try:
                    s.send(body[sent:due])
                    sent = due
                except OSError:
                    break
            time.sleep(0.1)
    finally:
        s.close()
    took = time.monotonic() - started
    if not answer:
        return f"no answer after {took:.1f} s ({sent} of {len(body)} bytes sent)"
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    ctype = next((h.split(":", 1)[1].strip() for h in head if h.lower().startswith("content-type:")), "no type")
    return f"{head[0].split(' ', 1)[1]} ({ctype}) after {took:.1f} s ({sent} of {len(body)} bytes sent)"


# -------------------------------------------------------------- scenarios --


def _expensive(port, batches, legal, seconds):
    return Loaders(
        port, [("/v1/check/batch", BATCH_BODY)] * batches + [("/v1/legal-turns", LEGAL_BODY)] * legal, seconds
    )


SCENARIOS = {
    "idle": lambda port, s: [idle(port)],
    "headers": lambda port, s: [slow_headers(port)],
    "trickle": lambda port, s: [trickle(port)],
    "target": lambda port, s: [idle(port), trickle(port)],
    "nonclosing": lambda port, s: [NonClosing(port)],
    "batches": lambda port, s: [_expensive(port, 4, 0, s)],
    "legal": lambda port, s: [_expensive(port, 0, 10, s)],
    "mixed": lambda port, s: [_expensive(port, 4, 10, s)],
}
EXPENSIVE = ("batches", "legal", "mixed")


def _share(times: list) -> str:
    ok = [t for t in times if t is not None and t <= PROBE_TIMEOUT]
    worst = f", slowest {max(ok) * 1000:.0f} ms" if ok else ""
    return f"{len(ok)}/{len(times)} within {PROBE_TIMEOUT:g} s{worst}"


def run_scenario(port: int, name: str, seconds: float) -> dict:
    settle = 1.0
    attackers = SCENARIOS[name](port, seconds + settle)
    try:
        with ticking(attackers):
            time.sleep(settle)
            if name in EXPENSIVE:
                results = probe(port, seconds / 2)
                rate = check_rate(port, seconds / 2)
            else:
                results = probe(port, seconds)
                rate = None
        for att in attackers:
            att.tick()
        attack = "; ".join(att.summary() for att in attackers)
    finally:
        for att in attackers:
            att.close()
    return {
        "scenario": name,
        "healthz": _share(results["/healthz"]),
        "check": _share(results["/v1/check"]),
        "ok": all(t is not None and t <= PROBE_TIMEOUT for r in results.values() for t in r),
        "rate": rate,
        "attack": attack,
    }


def _recover(port: int, limit: float = 40.0) -> float:
    """Seconds until /healthz answers again after a scenario."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        try:
            if _get(port, "GET", "/healthz")[0] == 200:
                return time.monotonic() - t0
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.2)
    return float("inf")


def compare(classes: list[str], scenarios: list[str], seconds: float, with_upload: bool) -> list[dict]:
    rows = []
    for cls in classes:
        with serve(cls) as server:
            port = server.port
            alone = check_rate(port, 2.0)
            log(f"clients: {cls}: /v1/check alone {alone:.0f} req/s (one client)")
            rows.append(
                {
                    "class": cls,
                    "scenario": "alone",
                    "rate": alone,
                    "ok": True,
                    "healthz": "",
                    "check": "",
                    "attack": "one closed-loop /v1/check client",
                }
            )
            for name in scenarios:
                log(f"clients: {cls}: {name}")
                row = run_scenario(port, name, seconds)
                row["class"] = cls
                row["recovered"] = _recover(port)
                rows.append(row)
            if with_upload:
                log(f"clients: {cls}: upload (256 KiB at 1 KiB/s)")
                rows.append(
                    {
                        "class": cls,
                        "scenario": "upload",
                        "ok": None,
                        "rate": None,
                        "healthz": "",
                        "check": "",
                        "attack": upload(port),
                    }
                )
                _recover(port)
            text = server.output(tail=None)
            rows.append(
                {
                    "class": cls,
                    "scenario": "log",
                    "ok": None,
                    "rate": None,
                    "healthz": "",
                    "check": "",
                    "attack": f"{text.count('WORKER TIMEOUT')} worker timeouts, "
                    f"{text.count('SIGKILL')} SIGKILLs, {text.count('Traceback')} tracebacks",
                }
            )
    return rows


def report(rows: list[dict]) -> str:
    out = [
        f"Slow and expensive clients: gunicorn --config gunicorn.conf.py, {WORKERS} workers, the worker class "
        f"as given; probes of /healthz and /v1/check every {PROBE_EVERY:g} s, each within {PROBE_TIMEOUT:g} s"
    ]
    for r in rows:
        parts = [f"{r['class']:8} {r['scenario']:10}"]
        if r["healthz"]:
            parts.append(f"healthz {r['healthz']}; check {r['check']}")
        if r.get("rate") is not None:
            parts.append(f"/v1/check {r['rate']:.0f} req/s")
        if r.get("recovered") not in (None,) and r["recovered"] > 0.5:
            parts.append(f"recovered after {r['recovered']:.1f} s")
        parts.append(r["attack"])
        out.append("  ".join(parts[:1]) + " " + " | ".join(parts[1:]))
    return "\n".join(out)


def throughput(classes: list[str], seconds: float, clients: int = WORKERS, rounds: int = 3) -> dict[str, float]:
    """/v1/check req/s of ``clients`` closed-loop processes (one connection
    per request), per worker class: both servers up at once, the classes
    measured in turn ``rounds`` times (sync, gevent, sync, gevent, ...) for
    ``seconds`` in all each, so a change of background load touches both
    alike."""
    rates: dict[str, list[float]] = {cls: [] for cls in classes}
    servers = {}
    with contextlib.ExitStack() as stack:
        for cls in classes:
            servers[cls] = stack.enter_context(serve(cls)).port
        for _ in range(rounds):
            for cls in classes:
                log(f"clients: throughput of /v1/check under {cls}: {seconds / rounds:g} s")
                load = Loaders(servers[cls], [("/v1/check", CHECK_BODY)] * clients, seconds / rounds)
                ok = load.totals().get("/v1/check", [0, 0])[0]
                load.close()
                rates[cls].append(ok / (seconds / rounds))
    return {cls: sum(r) / len(r) for cls, r in rates.items()}


def bench_section(seconds: float = 6.0) -> str:
    """What make bench prints for the worker classes: /v1/check throughput
    under the old (sync) and the shipped (gevent) worker class, and the
    target and fairness probes under each."""
    classes = ["sync", "gevent"]
    rates = throughput(classes, 1.5 * seconds)
    rows = compare(classes, ["target", "mixed"], seconds, with_upload=False)
    out = [
        f"4. Worker classes: sync (the earlier default) and gevent (gunicorn.conf.py), {WORKERS} workers each",
        f"   /v1/check throughput, {WORKERS} closed-loop client processes, one connection per request: "
        + ", ".join(f"{cls} {rate:.0f} req/s" for cls, rate in rates.items())
        + (f" (gevent / sync {rates['gevent'] / rates['sync']:.2f})" if rates.get("sync") else ""),
        "   " + report(rows).replace("\n", "\n   "),
    ]
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--classes", default="sync,gevent")
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--upload", action="store_true", help="also the 256 KiB upload at 1 KiB/s (up to 40 s)")
    args = ap.parse_args(argv)
    os.chdir(ROOT)
    rows = compare(args.classes.split(","), args.scenarios.split(","), args.seconds, args.upload)
    print(report(rows), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
