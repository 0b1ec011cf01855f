"""The Kubernetes manifests under deploy/: valid against the Kubernetes API
schemas (kubernetes-validate, offline, strict: no unknown field), and
consistent with each other, with the image (Dockerfile) and with the app
(probe paths, port, user, the metrics directory, the shutdown timing)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from kubernetes_validate.utils import ValidationError

from checker.web import create_app

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
# the oldest and the newest Kubernetes minor versions the manifests are checked against
VERSIONS = ["1.30.0", kubernetes_validate.utils.latest_version()]


def _documents() -> list[tuple[str, dict]]:
    docs = []
    for path in sorted(DEPLOY.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if doc is not None:
                docs.append((path.name, doc))
    return docs


DOCS = _documents()


def _one(kind: str) -> dict:
    found = [doc for _, doc in DOCS if doc["kind"] == kind]
    assert len(found) == 1, f"{len(found)} {kind} manifests"
    return found[0]


@pytest.fixture(scope="module")
def deployment() -> dict:
    return _one("Deployment")


@pytest.fixture(scope="module")
def container(deployment) -> dict:
    (c,) = deployment["spec"]["template"]["spec"]["containers"]
    return c


def _env(container: dict) -> dict[str, str]:
    return {e["name"]: e["value"] for e in container.get("env", [])}


def test_the_seven_kinds_are_there():
    assert sorted(doc["kind"] for _, doc in DOCS) == [
        "Deployment",
        "HorizontalPodAutoscaler",
        "Ingress",
        "Namespace",
        "NetworkPolicy",
        "PodDisruptionBudget",
        "Service",
    ]
    assert _one("HorizontalPodAutoscaler")["apiVersion"] == "autoscaling/v2"
    assert _one("PodDisruptionBudget")["apiVersion"] == "policy/v1"


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name, doc", DOCS, ids=[f"{n}:{d['kind']}" for n, d in DOCS])
def test_valid_against_the_kubernetes_schemas(name, doc, version):
    kubernetes_validate.validate(doc, version, strict=True)  # raises on any error


@pytest.mark.parametrize(
    "broken",
    [
        lambda d: d["spec"]["template"]["spec"]["containers"][0]["ports"][0].update(containerPort="8000"),
        lambda d: d["spec"]["template"]["spec"].update(terminationGracePeriod=15),  # misspelt: unknown field
        lambda d: d["spec"].pop("selector"),
    ],
)
def test_the_validator_does_reject_a_broken_deployment(deployment, broken):
    import copy

    doc = copy.deepcopy(deployment)
    broken(doc)
    with pytest.raises(ValidationError):
        kubernetes_validate.validate(doc, VERSIONS[-1], strict=True)


def test_selectors_match_the_pods(deployment):
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert _one("Service")["spec"]["selector"].items() <= labels.items()
    assert _one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"].items() <= labels.items()
    target = _one("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == (
        "apps/v1",
        "Deployment",
        deployment["metadata"]["name"],
    )


def _dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text(encoding="utf-8")


def test_ports_agree_with_the_image(container):
    port = next(p for p in container["ports"] if p["name"] == "http")
    image_port = re.search(r"\bPORT=(\d+)", _dockerfile()).group(1)
    assert port["containerPort"] == int(image_port)
    assert {p["name"] for p in container["ports"]} == {"http", "metrics"}
    service_ports = _one("Service")["spec"]["ports"]
    assert [p["targetPort"] for p in service_ports] == ["http"]


def test_probes_hit_the_apps_health_routes(container):
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    rules = {r.rule for r in create_app({"TESTING": True}).url_map.iter_rules()}
    client = create_app({"TESTING": True}).test_client()
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = container[probe]["httpGet"]
        assert get["path"] in rules and get["port"] == "http", probe
        assert client.get(get["path"]).status_code == 200, probe
        assert container[probe].get("timeoutSeconds", 1) <= container[probe].get("periodSeconds", 10), probe


def test_runs_as_the_images_non_root_user_on_a_read_only_root(deployment, container):
    pod = deployment["spec"]["template"]["spec"]
    user, group = (int(n) for n in re.findall(r"^USER\s+(\d+):(\d+)", _dockerfile(), re.M)[-1])
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] == user
    assert pod["securityContext"]["runAsGroup"] == group
    sc = container["securityContext"]
    assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"]["drop"] == ["ALL"]
    assert pod["automountServiceAccountToken"] is False


def test_writable_places_are_empty_dirs(deployment, container):
    """With a read-only root, /tmp (gunicorn's worker heartbeats) and the
    metrics directory are emptyDir volumes, and PROMETHEUS_MULTIPROC_DIR
    names the latter."""
    volumes = {v["name"]: v for v in deployment["spec"]["template"]["spec"]["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    metrics_dir = _env(container)["PROMETHEUS_MULTIPROC_DIR"]
    for path in ("/tmp", metrics_dir):
        assert path in mounts, f"{path} is not mounted"
        assert "emptyDir" in volumes[mounts[path]], f"{path} is not an emptyDir"
    assert metrics_dir != "/tmp"


def test_resources_are_set_and_the_hpa_has_a_cpu_request_to_scale_on(container):
    res = container["resources"]
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(res[kind]), kind
    hpa = _one("HorizontalPodAutoscaler")["spec"]
    assert [m["resource"]["name"] for m in hpa["metrics"]] == ["cpu"]
    assert 2 <= hpa["minReplicas"] < hpa["maxReplicas"]
    pdb = _one("PodDisruptionBudget")["spec"]
    # a drain can always proceed: the budget lets at least one of the minimum replicas go
    assert pdb.get("maxUnavailable", 0) >= 1 or pdb["minAvailable"] < hpa["minReplicas"]
    assert "WEB_CONCURRENCY" not in _env(container), "the worker count should follow the CPU limit (cgroup)"


def _cpus(quantity: str) -> float:
    return int(quantity[:-1]) / 1000 if quantity.endswith("m") else float(quantity)


def test_the_cpu_limit_gives_gunicorn_a_sensible_worker_count(container, tmp_path):
    """The limit becomes the container's cgroup quota; gunicorn.conf.py turns
    it into workers (1 gevent worker per usable CPU, at most 8)."""
    from checker.web import serving

    limit = _cpus(container["resources"]["limits"]["cpu"])
    (tmp_path / "cpu.max").write_text(f"{int(limit * 100000)} 100000\n")  # what the kubelet writes
    usable = serving.usable_cpus(tmp_path, available=64)
    assert usable == math.ceil(limit), "the host's 64 CPUs leaked into the worker count"
    assert 1 <= usable <= 8


def test_the_grace_period_covers_the_drain_and_gunicorns_graceful_timeout(deployment, container):
    """No preStop sleep: the server drains by itself on SIGTERM (HEXODIC_DRAIN_SECONDS),
    then stops gracefully; the grace period covers both, the master's one-second
    loop and a margin."""
    pod = deployment["spec"]["template"]["spec"]
    assert "lifecycle" not in container
    drain = int(_env(container)["HEXODIC_DRAIN_SECONDS"])
    graceful = int(_env(container)["GUNICORN_GRACEFUL_TIMEOUT"])
    grace = pod["terminationGracePeriodSeconds"]
    assert 1 <= drain <= 10 and graceful <= 10
    assert drain + 1 + graceful + 2 <= grace <= 30, (drain, graceful, grace)
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_the_hpa_alone_sets_the_replica_count(deployment):
    assert "replicas" not in deployment["spec"]
    assert _one("HorizontalPodAutoscaler")["spec"]["minReplicas"] >= 2


def test_replicas_spread_over_nodes_and_zones(deployment):
    spread = deployment["spec"]["template"]["spec"]["topologySpreadConstraints"]
    assert {c["topologyKey"] for c in spread} == {"kubernetes.io/hostname", "topology.kubernetes.io/zone"}
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert all(c["labelSelector"]["matchLabels"].items() <= labels.items() for c in spread)


def test_metrics_have_their_own_port_that_only_prometheus_reaches(deployment, container):
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports["metrics"] == int(_env(container)["HEXODIC_METRICS_PORT"]) != ports["http"]
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(ports["metrics"])
    # the Service and the Ingress expose only http; the NetworkPolicy opens metrics to one namespace only
    assert [p["targetPort"] for p in _one("Service")["spec"]["ports"]] == ["http"]
    (rule,) = _one("Ingress")["spec"]["rules"]
    assert {p["backend"]["service"]["port"]["name"] for p in rule["http"]["paths"]} == {"http"}
    policy = _one("NetworkPolicy")["spec"]
    by_port = {r["ports"][0]["port"]: r.get("from") for r in policy["ingress"]}
    assert by_port["http"] is None and by_port["metrics"] and by_port["metrics"][0]["namespaceSelector"]


def test_the_public_url_is_the_ingress_host(container):
    (rule,) = _one("Ingress")["spec"]["rules"]
    assert _env(container)["HEXODIC_PUBLIC_URL"] == f"https://{rule['host']}"
    from checker.web.settings import from_env

    assert from_env({"HEXODIC_PUBLIC_URL": _env(container)["HEXODIC_PUBLIC_URL"]})["PUBLIC_URL"]


def test_the_image_user_and_group_are_the_pods():
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"groupadd --system --gid 10001 ", text) and re.search(r"useradd .*--uid 10001 --gid 10001 ", text)
    assert re.search(r"^USER 10001:10001$", text, re.M)


# --------------------------------------------------------------------------- namespace, image (issue 36, point 8)

AUDIT = ROOT / "deploy" / "audit" / "daskcluster.yaml"
DIGEST_REF = re.compile(r"[a-z0-9.-]+(:\d+)?(/[a-z0-9._-]+)+(:[\w.-]+)?@sha256:[0-9a-f]{64}")


def _every_object() -> list[tuple[str, dict]]:
    audit = [("audit/daskcluster.yaml", d) for d in yaml.safe_load_all(AUDIT.read_text(encoding="utf-8")) if d]
    return DOCS + audit


def _containers() -> list[tuple[str, dict, dict]]:
    """(where, pod spec, container) of every pod template of deploy/ and deploy/audit/."""
    found = [("Deployment", _one("Deployment")["spec"]["template"]["spec"])]
    (cluster,) = [d for name, d in _every_object() if d["kind"] == "DaskCluster"]
    found += [(f"DaskCluster {part}", cluster["spec"][part]["spec"]) for part in ("scheduler", "worker")]
    return [(where, pod, c) for where, pod in found for c in pod["containers"]]


def test_everything_is_in_the_checkers_own_namespace():
    namespace = _one("Namespace")["metadata"]["name"]
    assert namespace not in ("default", "kube-system", "kube-public")
    for name, doc in _every_object():
        if doc["kind"] != "Namespace":
            assert doc["metadata"].get("namespace") == namespace, (name, doc["kind"])


def test_the_guide_applies_the_namespace_before_the_rest():
    """kubectl applies a folder's files in name order, and deployment.yaml
    comes before namespace.yaml: every apply command of the guide and of the
    manifests' comments names namespace.yaml first."""
    texts = [(ROOT / "docs" / "operations.md").read_text(encoding="utf-8")]
    texts += [path.read_text(encoding="utf-8") for path in [*DEPLOY.glob("*.yaml"), AUDIT]]
    commands = [m.group(0) for text in texts for m in re.finditer(r"kubectl apply[^\n`#]*", text)]
    assert commands
    for command in commands:
        assert command.startswith("kubectl apply -f deploy/namespace.yaml "), command


def test_images_are_named_by_digest_and_pulled_by_a_stated_policy():
    for where, _, container in _containers():
        assert DIGEST_REF.fullmatch(container["image"]), (where, container["image"])
        assert container["imagePullPolicy"] == "IfNotPresent", where  # a digest never changes
    guide = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    assert "docker inspect --format '{{index .RepoDigests 0}}'" in guide  # how to get the digest


@pytest.mark.parametrize("where", ["Deployment", "DaskCluster scheduler", "DaskCluster worker"])
def test_every_pod_meets_the_restricted_pod_security_profile(where):
    """The namespace enforces Pod Security Admission's restricted profile, so
    each pod must meet it, or it is refused: non-root, the runtime's seccomp
    profile, no privilege escalation, every capability dropped."""
    assert _one("Namespace")["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    for at, pod, container in _containers():
        if at != where:
            continue
        security = {**pod.get("securityContext", {}), **container.get("securityContext", {})}
        assert security["runAsNonRoot"] is True and security["runAsUser"] == 10001
        assert security["seccompProfile"] == {"type": "RuntimeDefault"}
        assert security["allowPrivilegeEscalation"] is False
        assert security["capabilities"]["drop"] == ["ALL"]
        assert not set(security["capabilities"].get("add", [])) - {"NET_BIND_SERVICE"}
