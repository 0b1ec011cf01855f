"""Costly work meets its deadline (issue 36): the real gunicorn on loopback
(2 workers, HEXODIC_WORK_DEADLINE=2), 16 costly clients in closed loops for
12 s (they do not wait the Retry-After: most are refused by the cap), each sending perft counts to depth 2 of the placing midgame
(3,097 legal turns; about 0.7 s alone), 1000-item batches on it and 1,600-px
PNGs.  Every costly answer comes within the deadline plus one second (as
the server's request log times it; the clients, who also wait to be
accepted, get it within 2 s more): a 200,
or a 503 with Retry-After (over the worker's cap, ``busy``, or stopped at its
deadline, ``deadline``); never a reset, a 5xx of another kind, or a perft
answered a minute later (as it was beside 16 costly clients before the
deadline: the count pauses every 64 positions, and each pause waited for the
event loop to be idle, which a stream of refused requests never lets it be)."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.parse
from collections import Counter

import pytest

from bench.server import HOST, running_gunicorn
from checker.service import budget
from checker.web import create_app

DEADLINE = 2
TOLERANCE = 1.0  # the "within its deadline plus one second", in the server's own request log
QUEUED = (
    2.0  # more, as the clients see it: the wait to be accepted and read, and 16 client threads, on a shared machine
)
COSTLY_PATHS = ("/v1/perft", "/v1/check/batch", "/v1/render.png")
CLIENTS = 16
SECONDS = 12.0
PLACING = "0000B/00002B/011000/00102B0B0A/0002B1A1A/000A1A0B/000A1A B 0:3:6:0:7:P:- 1:3:6:0:6:P:- 13"
PERFT = json.dumps({"position": PLACING, "depth": 2}).encode()
BATCH = json.dumps({"items": [{"position": PLACING, "turn": "c3 +d4"}] * 1000}).encode()
PNG = "/v1/render.png?" + urllib.parse.urlencode({"position": PLACING, "size": 1600})
PROBLEM = "urn:hexodic:checker:problem:"


def _one(port: int, kind: str) -> tuple[str, float]:
    """One costly request of ``kind``: what it got ("200", "503 busy", ...) and its seconds."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    started = time.monotonic()
    try:
        if kind == "png":
            conn.request("GET", PNG)
        else:
            path, body = ("/v1/perft", PERFT) if kind == "perft" else ("/v1/check/batch", BATCH)
            conn.request("POST", path, body, {"Content-Type": "application/json"})
        resp = conn.getresponse()
        data = resp.read()
        got = str(resp.status)
        if resp.status == 503:
            slug = json.loads(data)["type"].removeprefix(PROBLEM)
            got = f"503 {slug}" + ("" if resp.getheader("Retry-After") == "1" else " without Retry-After")
    except (OSError, http.client.HTTPException) as exc:
        got = type(exc).__name__
    finally:
        conn.close()
    return got, time.monotonic() - started


def test_every_costly_answer_comes_within_its_deadline_beside_16_costly_clients():
    with running_gunicorn(HEXODIC_WORK_DEADLINE=str(DEADLINE)) as srv:
        results: list[tuple[str, str, float]] = []
        until = time.monotonic() + SECONDS

        def client(i: int) -> None:
            kinds = ("perft", "batch", "png")
            n = i
            while time.monotonic() < until:
                kind = kinds[n % 3]
                got, seconds = _one(srv.port, kind)
                results.append((kind, got, seconds))
                n += 1

        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=SECONDS + 90)
        log = srv.output(tail=None)
    counts = Counter(f"{kind} {got}" for kind, got, _ in results)
    slowest = {kind: max((s for k, _, s in results if k == kind), default=0.0) for kind in ("perft", "batch", "png")}
    summary = f"{len(results)} answers {dict(sorted(counts.items()))}, slowest {slowest}"
    allowed = {"200", "503 busy", "503 deadline"}
    assert all(got in allowed for _, got, _ in results), summary
    served = [
        line["duration_ms"] / 1000
        for line in map(json.loads, (t for t in log.splitlines() if t.startswith("{")))
        if line.get("path") in COSTLY_PATHS
    ]
    summary += f"; the server's slowest {max(served, default=0.0):.2f} s of {len(served)}"
    print(summary)
    assert len(served) >= len(results), summary
    late = [round(s, 2) for s in served if s > DEADLINE + TOLERANCE]
    assert not late, f"{len(late)} answers took the server more than {DEADLINE + TOLERANCE} s: {late[:10]}; {summary}"
    late = [(kind, got, round(s, 2)) for kind, got, s in results if s > DEADLINE + TOLERANCE + QUEUED]
    assert not late, f"{len(late)} answers after {DEADLINE + TOLERANCE + QUEUED} s: {late[:10]}; {summary}"
    # the kinds that pause were admitted and worked on, not only refused; a PNG (drawn in well under
    # 0.1 s, checked against its deadline only before it starts) may find every slot taken by the others
    for kind in ("perft", "batch"):
        assert counts[f"{kind} 200"] + counts[f"{kind} 503 deadline"], summary
    assert "Traceback" not in log and "WORKER TIMEOUT" not in log, log[-3000:]


def test_a_pause_after_the_deadline_stops_the_work_with_503_and_retry_after(monkeypatch):
    """In the app: a batch whose deadline has passed by its first item is
    answered 503 ``deadline`` with Retry-After, and its slot is free again."""
    clock = [1000.0]
    monkeypatch.setattr(budget.time, "monotonic", lambda: clock[0])
    real_pause = budget.pause

    def late_pause():
        clock[0] += DEADLINE + 0.5
        real_pause()

    monkeypatch.setattr("checker.service.pipeline.pause", late_pause)
    client = create_app({"TESTING": True, "WORK_DEADLINE": DEADLINE, "EXPENSIVE_LIMIT": 1}).test_client()
    resp = client.post("/v1/check/batch", data=BATCH, content_type="application/json")
    assert (resp.status_code, resp.headers["Retry-After"]) == (503, "1"), resp.get_data()[:300]
    problem = resp.get_json()
    assert problem["type"] == PROBLEM + "deadline" and f"deadline of {DEADLINE} s" in problem["detail"]
    monkeypatch.undo()
    assert client.post("/v1/check/batch", json={"items": []}).status_code == 200


@pytest.mark.parametrize("value", ["0", "two", "-1"])
def test_a_bad_deadline_setting_is_refused(value):
    from checker.web import settings

    with pytest.raises(settings.SettingError, match="HEXODIC_WORK_DEADLINE"):
        settings.from_env({"HEXODIC_WORK_DEADLINE": value})
