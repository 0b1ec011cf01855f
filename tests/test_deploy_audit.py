"""deploy/audit/: the archive audit's Dask cluster on Kubernetes (the Dask
operator's DaskCluster), its scheduler and workers running the checker's
image built with the audit extra.  The core manifests (deploy/*.yaml) are
validated against the Kubernetes schemas in tests/test_deploy.py; this is a
custom resource, so it is checked here field by field."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
(CLUSTER,) = [d for d in yaml.safe_load_all((ROOT / "deploy" / "audit" / "daskcluster.yaml").read_text()) if d]


def _image_of_the_service() -> str:
    deployment = yaml.safe_load((ROOT / "deploy" / "deployment.yaml").read_text())
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    return container["image"]


def test_it_is_a_dask_operator_cluster():
    assert CLUSTER["apiVersion"] == "kubernetes.dask.org/v1" and CLUSTER["kind"] == "DaskCluster"
    assert CLUSTER["spec"]["worker"]["replicas"] >= 1


def test_the_workers_and_scheduler_run_the_checkers_image_with_the_audit_extra():
    service_image = _image_of_the_service().split("@")[0]  # REGISTRY/hexodic-checker:VERSION@sha256:...
    (worker,) = CLUSTER["spec"]["worker"]["spec"]["containers"]
    (scheduler,) = CLUSTER["spec"]["scheduler"]["spec"]["containers"]
    assert worker["image"] == scheduler["image"]  # one image, by digest (tests/test_deploy.py)
    assert worker["image"].split("@")[0] == f"{service_image}-audit"
    assert worker["args"][:2] == ["dask", "worker"] and "--nthreads" in worker["args"]
    assert scheduler["args"][:2] == ["dask", "scheduler"]
    # the image's user (Dockerfile: USER 10001:10001)
    for part in ("worker", "scheduler"):
        security = CLUSTER["spec"][part]["spec"]["securityContext"]
        assert security["runAsNonRoot"] and security["runAsUser"] == 10001


def test_the_image_is_built_with_the_audit_extra_when_asked():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^ARG AUDIT=false$", dockerfile, re.M)
    assert 'if [ "$AUDIT" = "true" ]; then pip install --no-cache-dir --require-hashes -r requirements-audit.lock' in (
        dockerfile
    )
    recipe = (ROOT / "deploy" / "audit" / "daskcluster.yaml").read_text()
    assert "docker build --build-arg AUDIT=true -t hexodic-checker:0.1.0-audit ." in recipe


def test_dasks_debugging_logs_are_kept_short_as_the_command_keeps_them():
    from checker.tools.audit.run import DASK_CONFIG

    length = str(DASK_CONFIG["distributed.admin.low-level-log-length"])
    for part in ("worker", "scheduler"):
        (container,) = CLUSTER["spec"][part]["spec"]["containers"]
        env = {e["name"]: e["value"] for e in container["env"]}
        assert env["DASK_DISTRIBUTED__ADMIN__LOW_LEVEL_LOG_LENGTH"] == length


def test_the_scheduler_service_exposes_the_dask_port_and_the_dashboard_port():
    """The Dask operator retires workers through the scheduler's HTTP API, on
    the Service port named http-dashboard (its scale-down); the scheduler
    listens there and its readiness is Dask's /health on it."""
    service = CLUSTER["spec"]["scheduler"]["service"]
    assert {p["name"]: p["port"] for p in service["ports"]} == {"tcp-comm": 8786, "http-dashboard": 8787}
    assert service["selector"]["dask.org/component"] == "scheduler"
    (scheduler,) = CLUSTER["spec"]["scheduler"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in scheduler["ports"]}
    assert {p["targetPort"] for p in service["ports"]} == set(ports)
    args = scheduler["args"]
    assert "--no-dashboard" not in args
    assert args[args.index("--dashboard-address") + 1] == f":{ports['http-dashboard']}"
    assert args[args.index("--port") + 1] == str(ports["tcp-comm"])
    assert scheduler["readinessProbe"]["httpGet"] == {"port": "http-dashboard", "path": "/health"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _http(method: str, url: str, body: bytes | None = None) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method=method), timeout=5) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except OSError:
        return 0, b""


def _wait(condition, what: str, log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what}\n{log.read_text(errors='replace')[-3000:]}"
        time.sleep(0.2)


@contextlib.contextmanager
def _running(argv: list[str], env: dict[str, str], log: Path):
    """A process of this venv's ``argv[0]``, in a session of its own, stopped at the end."""
    command = [str(Path(sys.executable).parent / argv[0]), *argv[1:]]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextlib.contextmanager
def _scheduler(tmp_path: Path, with_routes: bool):
    """The manifest's scheduler, its command and environment, on loopback
    ports (``with_routes=False``: without the routes variable): yields the
    dashboard's base URL and the comm address."""
    (scheduler,) = CLUSTER["spec"]["scheduler"]["spec"]["containers"]
    env = {e["name"]: e["value"] for e in scheduler["env"]}
    if not with_routes:
        del env["DASK_DISTRIBUTED__SCHEDULER__HTTP__ROUTES"]
    comm, dashboard = _free_port(), _free_port()
    args = [a.replace(":8787", f"127.0.0.1:{dashboard}").replace("8786", str(comm)) for a in scheduler["args"]]
    log = tmp_path / f"scheduler-{with_routes}.log"
    with _running([*args, "--host", "127.0.0.1"], env, log):
        base = f"http://127.0.0.1:{dashboard}"
        _wait(lambda: _http("GET", f"{base}/health") == (200, b"ok"), "the scheduler is not up", log)
        yield base, f"tcp://127.0.0.1:{comm}"


def test_the_scheduler_as_configured_retires_a_worker_through_its_http_api(tmp_path):
    """The scheduler started as the manifest starts it, and one worker: POST
    /api/v1/retire_workers on the dashboard port, which the operator sends
    when it scales down, retires that worker by name."""
    (worker,) = CLUSTER["spec"]["worker"]["spec"]["containers"]
    with _scheduler(tmp_path, with_routes=True) as (base, address):
        args = [a.replace("$(DASK_WORKER_NAME)", "audit-worker-0") for a in worker["args"]]
        log = tmp_path / "worker.log"
        with _running([*args, address], {}, log):

            def joined() -> bool:
                status, body = _http("GET", f"{base}/api/v1/get_workers")
                return status == 200 and json.loads(body)["num_workers"] == 1

            _wait(joined, "the worker did not join", log)
            status, body = _http("POST", f"{base}/api/v1/retire_workers", b'{"n": 1}')
            assert status == 200, body
            assert [w["name"] for w in json.loads(body).values()] == ["audit-worker-0"]


def test_without_the_routes_variable_the_api_is_not_there(tmp_path):
    """Dask's default routes leave the API out: the operator's request is a
    404 and it falls back; the variable is what makes scale-down graceful."""
    with _scheduler(tmp_path, with_routes=False) as (base, _):
        assert _http("POST", f"{base}/api/v1/retire_workers", b'{"n": 1}')[0] == 404
