"""The metrics folder stays bounded (issue 36, point 5), on the real gunicorn
with two workers on loopback and a metrics directory of its own.

Requests, then 5 reloads (SIGHUP: every worker replaced) and 5 killed workers
(SIGKILL), each step followed by requests until every live worker has counted
one: after every step the directory holds exactly one file per live worker
and kind (counter, histogram, the build-info gauge), the preloading master's
build-info gauge and, once a worker has died, one kept file per kind with the
dead workers' totals.  The ``/healthz`` request count that ``/metrics`` shows
is the number answered, after every step; a scraper reading ``/metrics``
throughout sees only 200s and a count that never goes down (a fold seen half
done would count a dead worker twice, or miss it)."""

from __future__ import annotations

import http.client
import os
import signal
import threading
import time
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from bench.server import HOST, running_gunicorn

RELOADS = KILLS = 5
REQUESTS = 10  # after each step, each on a new connection
WAIT = 20.0  # seconds a step may take
HEALTHZ = ("hexodic_http_requests_total", (("method", "GET"), ("route", "/healthz"), ("status", "200")))


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path, headers={"Connection": "close"})  # a new connection each: any worker may take it
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def _count(body: bytes) -> float:
    for family in text_string_to_metric_families(body.decode()):
        for s in family.samples:
            if (s.name, tuple(sorted(s.labels.items()))) == HEALTHZ:
                return s.value
    return 0.0


def _workers(master: int) -> set[int]:
    """The pids of the master's child processes (Linux /proc)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            out.add(int(stat.parent.name))
    return out


def _replaced(master: int, old: set[int], gone: int | None = None) -> bool:
    """Two workers again, none of ``old`` left (a reload) or not ``gone`` (a kill)."""
    now = _workers(master)
    return len(now) == 2 and (gone not in now if gone is not None else not now & old)


def _wait_for(condition, what: str, srv) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"{what}\n{srv.output()}"
        time.sleep(0.05)


class _Scraper(threading.Thread):
    """GET /metrics on the metrics port until stopped: (status, /healthz count)
    each time, and how many scrapes a SIGKILLed worker cut."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port, self.seen, self.stop, self.resets = port, [], threading.Event(), 0

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                status, body = _get(self.port, "/metrics")
            except (OSError, http.client.HTTPException):  # the worker answering it was the one killed
                self.resets += 1
            else:
                self.seen.append((status, _count(body) if status == 200 else None))
            time.sleep(0.02)


def test_reloads_and_kills_leave_one_file_per_live_worker_and_kind_and_every_count(tmp_path):
    given = tmp_path / "metrics"
    steps: list[tuple[str, int, float, float]] = []  # (step, files, /healthz count shown, answered)
    with running_gunicorn(PROMETHEUS_MULTIPROC_DIR=str(given)) as srv:
        master = srv.proc.pid
        answered = 1  # the start-up wait's one answered /healthz (bench.server)
        scraper = _Scraper(srv.metrics_port)
        scraper.start()
        try:
            for step in ["start"] + ["reload"] * RELOADS + ["kill"] * KILLS:
                before = _workers(master)
                if step == "reload":
                    srv.proc.send_signal(signal.SIGHUP)
                    _wait_for(lambda old=before: _replaced(master, old), "no reload", srv)
                elif step == "kill":  # a worker that has counted, so it has files to fold
                    victim = max(pid for pid in before if (given / f"counter_{pid}.db").exists())
                    os.kill(victim, signal.SIGKILL)
                    _wait_for(lambda old=before, gone=victim: _replaced(master, old, gone), "no new worker", srv)
                for _ in range(REQUESTS):
                    assert _get(srv.port, "/healthz")[0] == 200
                    answered += 1
                time.sleep(0.3)  # the master reaps and folds what it stopped
                live, files = _workers(master), sorted(os.listdir(given))
                counted = {int(f[8:-3]) for f in files if f.startswith("counter_") and f[8:-3].isdigit()}
                assert counted and counted <= live, (
                    step,
                    live,
                    files,
                )  # a worker that has answered nothing has no file
                expected = {f"{kind}_{pid}.db" for pid in counted for kind in ("counter", "histogram", "gauge_max")}
                expected.add(f"gauge_max_{master}.db")  # the build info, set as the preloaded app was imported
                if step != "start":
                    expected |= {"counter_kept.db", "histogram_kept.db"}
                assert set(files) == expected, (step, files)
                shown = _count(_get(srv.metrics_port, "/metrics")[1])
                assert shown == answered, (step, shown, answered)
                steps.append((step, len(files), shown, answered))
        finally:
            scraper.stop.set()
            scraper.join(timeout=15)
    statuses = {status for status, _ in scraper.seen}
    counts = [count for _, count in scraper.seen]
    print(f"\nfiles after each step: {[(s, n) for s, n, _, _ in steps]}")
    print(
        f"/healthz counted {steps[-1][2]:.0f} of {steps[-1][3]} answered; {len(counts)} scrapes, statuses {statuses}, "
        f"{scraper.resets} cut by a kill"
    )
    assert statuses == {200}
    assert scraper.resets <= KILLS  # only a scrape the SIGKILLed worker was answering
    assert all(a <= b for a, b in zip(counts, counts[1:])), counts  # never down: no count lost or doubled
    assert len(counts) >= 20  # the scraper really ran through the reloads and kills


def _dead_pid() -> int:
    """The pid of a process that has exited."""
    import subprocess
    import sys

    return int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True).stdout)


def _write_counter(directory: Path, pid: int | str, value: float) -> None:
    import json

    from prometheus_client.mmap_dict import MmapedDict

    key = json.dumps(["hexodic_http_requests", HEALTHZ[0], dict(HEALTHZ[1]), "h"], sort_keys=True)
    values = MmapedDict(str(directory / f"counter_{pid}.db"))
    values.write_value(key, value, 0)
    values.close()


def test_a_worker_gunicorn_forgot_is_folded_at_the_next_exit(monkeypatch, tmp_path):
    """gunicorn's kill_worker drops a worker it finds gone without child_exit:
    its files are folded at the next worker's exit, beside that worker's; a
    live worker's files and another user's process are left alone."""
    from types import SimpleNamespace

    from checker.web import serving

    monkeypatch.setenv(serving.METRICS_ENV, str(tmp_path))
    exiting, forgotten, live = _dead_pid(), _dead_pid(), os.getpid()
    for pid, value in ((exiting, 2.0), (forgotten, 3.0), (live, 5.0), ("kept", 7.0)):
        _write_counter(tmp_path, pid, value)
    (tmp_path / f"gauge_livesum_{forgotten}.db").write_bytes(b"")
    (tmp_path / "gauge_max_1.db").write_bytes(b"")  # pid 1: alive (the init process), whoever's it is
    serving.child_exit(SimpleNamespace(WORKERS={}), SimpleNamespace(pid=exiting))
    assert sorted(os.listdir(tmp_path)) == sorted(["counter_kept.db", f"counter_{live}.db", "gauge_max_1.db"])
    from prometheus_client.mmap_dict import MmapedDict

    kept = [value for _, value, *_ in MmapedDict.read_all_values_from_file(str(tmp_path / "counter_kept.db"))]
    assert kept == [7.0 + 2.0 + 3.0]


def test_a_scrape_waits_for_a_fold_to_finish(tmp_path):
    """The collector /metrics uses reads under the directory's shared lock:
    while the master holds the exclusive one (a fold), a scrape waits."""
    from prometheus_client import CollectorRegistry

    from checker.web import observe, serving

    _write_counter(tmp_path, 4242, 1.0)
    registry = CollectorRegistry()
    observe._LockedCollector(registry, path=str(tmp_path))
    done = threading.Event()
    with serving.metrics_lock(tmp_path, exclusive=True):
        scrape = threading.Thread(target=lambda: (list(registry.collect()), done.set()), daemon=True)
        scrape.start()
        assert not done.wait(0.5), "the scrape read the files during a fold"
    assert done.wait(5)


def test_a_file_a_worker_has_just_created_is_read_as_empty(tmp_path):
    """A worker's first count creates its file, then sizes it: a scrape in
    between finds a file of 0 bytes, which prometheus_client's reader fails on
    (the 500 the scraper above once saw); the collector /metrics uses leaves
    it out."""
    import struct

    import pytest
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    from checker.web import observe

    _write_counter(tmp_path, 4242, 3.0)
    (tmp_path / "counter_4343.db").write_bytes(b"")  # created, not yet sized
    plain = CollectorRegistry()
    MultiProcessCollector(plain, path=str(tmp_path))
    with pytest.raises(struct.error):
        list(plain.collect())
    registry = CollectorRegistry()
    observe._LockedCollector(registry, path=str(tmp_path))
    samples = {s.name: s.value for metric in registry.collect() for s in metric.samples}
    assert samples[HEALTHZ[0]] == 3.0
