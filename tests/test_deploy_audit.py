"""deploy/audit/: the archive audit's Dask cluster on Kubernetes (the Dask
operator's DaskCluster), its scheduler and workers running the checker's
image built with the audit extra.  The core manifests (deploy/*.yaml) are
validated against the Kubernetes schemas in tests/test_deploy.py; this is a
custom resource, so it is checked here field by field."""

from __future__ import annotations

import re
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
    service_image = _image_of_the_service()  # hexodic-checker:VERSION
    (worker,) = CLUSTER["spec"]["worker"]["spec"]["containers"]
    (scheduler,) = CLUSTER["spec"]["scheduler"]["spec"]["containers"]
    assert worker["image"] == scheduler["image"] == f"{service_image}-audit"
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


def test_the_scheduler_service_exposes_the_dask_port():
    service = CLUSTER["spec"]["scheduler"]["service"]
    (port,) = service["ports"]
    assert port["port"] == 8786 and service["selector"]["dask.org/component"] == "scheduler"
