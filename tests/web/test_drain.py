"""SIGTERM drains before it stops (issue 23): for HEXODIC_DRAIN_SECONDS the
server answers every request while /readyz answers 503, then gunicorn stops
gracefully.  The real gunicorn on loopback; clients connect throughout the
drain and every one of them is answered, none reset."""

from __future__ import annotations

import http.client
import signal
import threading
import time

from bench.server import HOST, running_gunicorn

DRAIN = 3


def _get(port: int, path: str) -> int | str:
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    except OSError as exc:
        return type(exc).__name__
    finally:
        conn.close()


def test_sigterm_drains_then_stops_and_no_client_is_reset():
    with running_gunicorn(HEXODIC_DRAIN_SECONDS=str(DRAIN)) as srv:
        assert _get(srv.port, "/readyz") == 200
        results: list[tuple[float, int | str]] = []
        stop_at = time.monotonic() + DRAIN - 0.5  # clients connect until half a second before the drain ends

        def client() -> None:
            while time.monotonic() < stop_at:
                results.append((time.monotonic(), _get(srv.port, "/healthz")))
                time.sleep(0.02)

        threads = [threading.Thread(target=client) for _ in range(8)]
        sent = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        for t in threads:
            t.start()
        time.sleep(0.5)
        ready = _get(srv.port, "/readyz")
        for t in threads:
            t.join()
        code = srv.proc.wait(timeout=DRAIN + 12)
        stopped = time.monotonic() - sent
        log = srv.output(tail=None)
    assert ready == 503  # taken out of rotation while it drains
    assert results and all(status == 200 for _, status in results), [r for r in results if r[1] != 200][:5]
    assert code == 0 and DRAIN <= stopped <= DRAIN + 10, (code, stopped)
    assert "draining for 3 s" in log and "Traceback" not in log
