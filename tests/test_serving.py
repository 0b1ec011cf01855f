"""checker.web.serving and gunicorn.conf.py: the worker count from the cgroup CPU
quota (fake cgroup files), the metrics directory, the hooks and where the JSON
request lines go."""

from __future__ import annotations

import logging
import os
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest

from checker.web import serving

ROOT = Path(__file__).resolve().parents[1]


def _cgroup(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "cgroup"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    root.mkdir(exist_ok=True)
    return root


# --------------------------------------------------------------------------- the CPU quota

# (cgroup files, the quota in CPUs): quota / period, "max" or -1 for none
QUOTAS = [
    ({"cpu.max": "max 100000\n"}, None),  # v2, no limit
    ({"cpu.max": "150000 100000\n"}, 1.5),  # v2, 1.5 CPUs
    ({"cpu.max": "50000 100000\n"}, 0.5),  # v2, half a CPU
    ({"cpu.max": "400000 200000\n"}, 2.0),  # v2, another period
    ({"cpu.max": "lots\n"}, None),  # malformed
    ({"cpu.max": "0 100000\n"}, None),  # nonsense
    ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),  # v1, no limit
    ({"cpu/cpu.cfs_quota_us": "200000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 2.0),  # v1
    ({"cpu,cpuacct/cpu.cfs_quota_us": "25000\n", "cpu,cpuacct/cpu.cfs_period_us": "100000\n"}, 0.25),
    ({"cpu.cfs_quota_us": "300000\n", "cpu.cfs_period_us": "100000\n"}, 3.0),  # v1 mounted at the root
    ({"cpu/cpu.cfs_quota_us": "200000\n"}, None),  # v1 without its period
    ({}, None),  # no cgroup at all
]


@pytest.mark.parametrize("files, quota", QUOTAS)
def test_cpu_quota_from_cgroup_files(tmp_path, files, quota):
    assert serving.cpu_quota(_cgroup(tmp_path, files)) == quota


def test_cgroup_v2_wins_over_v1(tmp_path):
    root = _cgroup(
        tmp_path,
        {"cpu.max": "100000 100000\n", "cpu/cpu.cfs_quota_us": "400000\n", "cpu/cpu.cfs_period_us": "100000\n"},
    )
    assert serving.cpu_quota(root) == 1.0


# (quota file, CPUs the process may run on, usable CPUs): the quota rounded up, capped by the CPUs
USABLE = [
    ("max 100000", 8, 8),
    ("150000 100000", 8, 2),
    ("50000 100000", 8, 1),
    ("100000 100000", 8, 1),
    ("1600000 100000", 4, 4),
    ("200000 100000", 1, 1),
]


@pytest.mark.parametrize("cpu_max, available, usable", USABLE)
def test_usable_cpus_follow_the_quota_not_the_host(tmp_path, cpu_max, available, usable):
    assert serving.usable_cpus(_cgroup(tmp_path, {"cpu.max": cpu_max}), available=available) == usable


@pytest.fixture
def request_log_restored():
    """The request logger as it was before the test (gunicorn.conf.py sets it up)."""
    log = logging.getLogger(serving.REQUEST_LOG)
    saved = log.handlers[:], log.level, log.propagate
    yield log
    for handler in log.handlers[:]:
        if handler not in saved[0]:
            log.removeHandler(handler)
            handler.close()
    log.handlers[:], log.level, log.propagate = saved[0], saved[1], saved[2]


def _load_config(monkeypatch, tmp_path, cgroup_files: dict, host_cpus: int, **env) -> dict:
    """gunicorn.conf.py's settings, read as gunicorn reads the file, on a fake
    host of ``host_cpus`` CPUs in a fake cgroup."""
    monkeypatch.setattr(serving, "CGROUP_ROOT", _cgroup(tmp_path, cgroup_files))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(host_cpus)))
    monkeypatch.setattr(os, "cpu_count", lambda: host_cpus)
    monkeypatch.setenv("WEB_CONCURRENCY", "")
    monkeypatch.setenv(serving.METRICS_ENV, str(tmp_path / "metrics"))
    monkeypatch.setenv(serving._PREPARED_ENV, "")
    monkeypatch.setenv("GUNICORN_ACCESS_LOG", "")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


# (cgroup files, host CPUs, workers): 1 gevent worker per usable CPU, at most 8
WORKERS = [
    ({"cpu.max": "100000 100000"}, 64, 1),  # a 1-CPU container on a 64-CPU host: 1, not 8
    ({"cpu.max": "150000 100000"}, 64, 2),  # 1.5 CPUs round up to 2
    ({"cpu.max": "max 100000"}, 2, 2),  # no quota: the host's 2 CPUs
    ({"cpu.max": "max 100000"}, 64, 8),  # the cap
    ({"cpu/cpu.cfs_quota_us": "300000", "cpu/cpu.cfs_period_us": "100000"}, 64, 3),  # cgroup v1
    ({}, 3, 3),  # no cgroup files
]


@pytest.mark.parametrize("files, host_cpus, workers", WORKERS)
def test_gunicorn_conf_takes_workers_from_the_cpu_quota(
    monkeypatch, tmp_path, request_log_restored, files, host_cpus, workers
):
    assert _load_config(monkeypatch, tmp_path, files, host_cpus)["workers"] == workers


def test_web_concurrency_still_wins(monkeypatch, tmp_path, request_log_restored):
    conf = _load_config(monkeypatch, tmp_path, {"cpu.max": "100000 100000"}, 64, WEB_CONCURRENCY="5")
    assert conf["workers"] == 5


def test_gunicorn_conf_sets_up_metrics_and_the_json_log(monkeypatch, tmp_path, request_log_restored):
    metrics = tmp_path / "metrics"
    metrics.mkdir()
    (metrics / "counter_123.db").write_bytes(b"stale")
    conf = _load_config(monkeypatch, tmp_path, {}, 2)
    assert not (metrics / "counter_123.db").exists(), "an earlier run's counts were not cleaned"
    assert conf["accesslog"] is None, "gunicorn's own plain-text access line is still on"
    assert conf["child_exit"] is serving.child_exit and conf["on_exit"] is serving.on_exit
    assert conf["preload_app"] is True
    assert conf["when_ready"] is serving.freeze_heap and conf["worker_exit"] is serving.thaw_heap


# --------------------------------------------------------------------------- the metrics directory


def test_unset_metrics_dir_gets_a_fresh_one_removed_at_exit():
    env: dict[str, str] = {}
    path = serving.prepare_metrics_dir(env)
    try:
        assert env[serving.METRICS_ENV] == str(path) and path.is_dir() and not any(path.iterdir())
        other = serving.prepare_metrics_dir({})  # another instance: its own directory
        assert other != path
        serving.remove_metrics_dir({serving.METRICS_ENV: str(other), serving._PREPARED_ENV: f"{os.getpid()}:owned"})
        serving.remove_metrics_dir(env)
        assert not path.exists() and not other.exists()
    finally:
        for p in (path, other):
            if p.exists():
                p.rmdir()


def test_given_metrics_dir_is_made_and_emptied_of_metric_files_only(tmp_path):
    given = tmp_path / "a" / "b"
    env = {serving.METRICS_ENV: str(given)}
    assert serving.prepare_metrics_dir(env) == given and given.is_dir()
    (given / "counter_1.db").write_bytes(b"x")
    (given / "histogram_2.db").write_bytes(b"x")
    (given / "notes.txt").write_text("not ours")
    assert serving.prepare_metrics_dir({serving.METRICS_ENV: str(given)}) == given  # a new instance
    assert sorted(p.name for p in given.iterdir()) == ["notes.txt"]
    serving.remove_metrics_dir({serving.METRICS_ENV: str(given), serving._PREPARED_ENV: f"{os.getpid()}:given"})
    assert given.is_dir(), "a directory the operator gave was removed"


def test_a_reload_keeps_the_counts(tmp_path):
    """gunicorn reads its configuration again on SIGHUP, in the same master."""
    env = {serving.METRICS_ENV: str(tmp_path)}
    serving.prepare_metrics_dir(env)
    (tmp_path / "counter_1.db").write_bytes(b"x")
    serving.prepare_metrics_dir(env)
    assert (tmp_path / "counter_1.db").exists()


def test_child_exit_marks_the_worker_dead(monkeypatch, tmp_path):
    monkeypatch.setenv(serving.METRICS_ENV, str(tmp_path))
    for name in ("gauge_livesum_4242.db", "gauge_liveall_4242.db", "counter_4242.db", "gauge_livesum_7.db"):
        (tmp_path / name).write_bytes(b"")
    serving.child_exit(None, SimpleNamespace(pid=4242))
    # the dead worker's gauges go, its (empty) counters are folded into nothing; other workers' files stay
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gauge_livesum_7.db"]


# --------------------------------------------------------------------------- the request log


def test_request_lines_go_to_a_file_one_per_record(tmp_path, request_log_restored):
    target = tmp_path / "requests.log"
    log = serving.log_requests_to(str(target))
    log.info('{"a": 1}')
    log.info('{"b": 2}')
    serving.log_requests_to(str(target))  # again: replaced, not doubled
    log.info('{"c": 3}')
    assert target.read_text() == '{"a": 1}\n{"b": 2}\n{"c": 3}\n'
    serving.log_requests_to("")
    log.info('{"d": 4}')
    assert target.read_text().count("\n") == 3


def test_freeze_heap_moves_the_live_objects_to_the_permanent_generation():
    """After the hook, what was alive is out of the collector's generations (gc.freeze)."""
    import gc

    keep = [[i] for i in range(10_000)]  # 10,000 tracked lists, alive
    try:
        frozen = serving.freeze_heap()
        assert frozen == gc.get_freeze_count() >= 10_000
        assert sum(gc.get_count()) < 1_000  # the generations are (nearly) empty
        assert not any(any(o is keep for o in gc.get_objects(generation=g)) for g in range(3))
    finally:
        gc.unfreeze()
    assert any(o is keep for o in gc.get_objects(generation=2))


def _collected(directory) -> dict[tuple[str, tuple], float]:
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(directory))
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for metric in registry.collect()
        for s in metric.samples
        if not s.name.endswith("_created")
    }


def test_a_dead_workers_counts_are_folded_and_its_files_go(tmp_path):
    """Three 'workers' (pids 101-103) write counters, a histogram and a max
    gauge as prometheus_client's multiprocess values do; folding 101 and 102
    keeps every total and leaves 103's files plus one kept file per type."""
    import json

    from prometheus_client.mmap_dict import MmapedDict

    def key(name, labels, metric=None, help_="h"):
        return json.dumps([metric or name, name, labels, help_], sort_keys=True)

    for pid, n in ((101, 3.0), (102, 5.0), (103, 7.0)):
        c = MmapedDict(str(tmp_path / f"counter_{pid}.db"))
        c.write_value(key("hexodic_http_requests_total", {"route": "/v1/check"}, "hexodic_http_requests"), n, 0)
        c.close()
        h = MmapedDict(str(tmp_path / f"histogram_{pid}.db"))
        h.write_value(key("d_bucket", {"le": "0.1"}, "d"), n, 0)
        h.write_value(key("d_bucket", {"le": "+Inf"}, "d"), n, 0)
        h.write_value(key("d_sum", {}, "d"), n / 10, 0)
        g = MmapedDict(str(tmp_path / f"gauge_max_{pid}.db"))
        g.write_value(key("b", {"version": "x"}), 1.0, 0)
        g.close()
        h.close()
    before = _collected(tmp_path)
    serving.fold_dead_worker(tmp_path, 101)
    serving.fold_dead_worker(tmp_path, 102)
    serving.fold_dead_worker(tmp_path, 102)  # a second call for the same worker changes nothing
    assert _collected(tmp_path) == before
    assert before[("hexodic_http_requests_total", (("route", "/v1/check"),))] == 15.0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "counter_103.db",
        "counter_kept.db",
        "gauge_max_103.db",
        "histogram_103.db",
        "histogram_kept.db",
    ]


def test_stale_drain_flags_are_removed_at_start(monkeypatch, tmp_path):
    """A master killed while draining leaves its flag (no on_exit runs); the
    next start removes it, and one with this process's own pid (recycled: it
    would make /readyz say this server drains), but not a live master's."""
    import subprocess
    import sys
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead, alive, own = (
        serving.drain_flag(int(gone.stdout)),
        serving.drain_flag(os.getppid()),
        serving.drain_flag(os.getpid()),
    )
    for flag in (dead, alive, own, tmp_path / "hexodic-draining-x"):
        flag.touch()
    assert sorted(serving.remove_stale_flags()) == sorted([dead, own])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, "hexodic-draining-x"])
