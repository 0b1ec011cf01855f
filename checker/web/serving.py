"""What ``gunicorn.conf.py`` needs beyond plain settings: the CPUs the
container may use, the metrics directory of prometheus_client's
multiprocess mode, where the JSON request log goes, and the server hooks.

This module imports neither Flask nor prometheus_client: gunicorn.conf.py
imports it before the app, and prometheus_client decides at its own import
whether it runs in multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``), so the
directory must be set up first.

>>> usable_cpus(Path("/nonexistent"), available=4)  # no cgroup files: no quota
4
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import gc
import logging
import math
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Iterator, MutableMapping
from pathlib import Path

from checker.web import settings
from checker.web.settings import METRICS_ENV, SettingError

CGROUP_ROOT = Path("/sys/fs/cgroup")
REQUEST_LOG = "checker.web.requests"
"""The logger of the one JSON line per request (written by checker.web.observe)."""

_PREPARED_ENV = "HEXODIC_METRICS_DIR_PREPARED"  # "<pid of the master>:owned" or ":given"
_CHECKED_ENV = "HEXODIC_LISTENERS_CHECKED"  # the pid of the master whose ports were found free


# --------------------------------------------------------------------------- CPUs


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _ratio(quota: str, period: str) -> float | None:
    try:
        q, p = int(quota), int(period)
    except ValueError:
        return None
    return q / p if q > 0 and p > 0 else None


def cpu_quota(root: Path | None = None) -> float | None:
    """The CPU quota of this process's cgroup in CPUs (``1.5`` for 150 ms per
    100 ms period), or None when there is none.

    cgroup v2: ``cpu.max`` holds ``"<quota> <period>"`` or ``"max <period>"``.
    cgroup v1: ``cpu.cfs_quota_us`` (-1 for none) and ``cpu.cfs_period_us``,
    under ``cpu/``, ``cpu,cpuacct/`` or the root itself.  In a container the
    root is the container's own cgroup.  Unreadable or malformed files count
    as no quota.
    """
    root = CGROUP_ROOT if root is None else root
    v2 = _read(root / "cpu.max")
    if v2 is not None:
        parts = v2.split()
        return _ratio(*parts) if len(parts) == 2 and parts[0] != "max" else None
    for folder in (root / "cpu", root / "cpu,cpuacct", root):
        quota, period = _read(folder / "cpu.cfs_quota_us"), _read(folder / "cpu.cfs_period_us")
        if quota is not None and period is not None:
            return _ratio(quota, period)
    return None


def usable_cpus(root: Path | None = None, available: int | None = None) -> int:
    """The CPUs this process can keep busy: the CPUs it may run on
    (``available``, default its affinity mask) capped by the cgroup quota
    rounded up, and at least 1.  ``root`` is the cgroup folder (default
    :data:`CGROUP_ROOT`).
    """
    if available is None:
        available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    quota = cpu_quota(root)
    cpus = available if quota is None else min(available, math.ceil(quota))
    return max(1, cpus)


# --------------------------------------------------------------------------- the ports


def check_listeners(host: str, ports: dict[str, int], environ: MutableMapping[str, str] | None = None) -> None:
    """Before gunicorn binds: can this process listen on ``host`` at each of
    ``ports`` (the variable naming each: ``PORT``, ``HEXODIC_METRICS_PORT``)?
    A port taken by another process, one this user may not use, or a ``HOST``
    that is no address of this machine is a :class:`SettingError` naming the
    variable to change (gunicorn would retry for 5 s, then log the address
    alone).

    Once per master: gunicorn reads gunicorn.conf.py again on a reload
    (SIGHUP), when its own listeners hold the ports, and a re-executed master
    (SIGUSR2) or a systemd-activated one is handed its sockets
    (``GUNICORN_FD``, ``LISTEN_FDS``)."""
    environ = settings.environ() if environ is None else environ
    if environ.get(_CHECKED_ENV) == str(os.getpid()) or "GUNICORN_FD" in environ or "LISTEN_FDS" in environ:
        return
    bare = host[1:-1] if host.startswith("[") else host
    try:
        family, _, _, _, address = socket.getaddrinfo(bare, None, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise SettingError(f"HOST={host!r} cannot be listened on: {getattr(exc, 'strerror', None) or exc}") from None
    for name, port in ports.items():
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            try:
                probe.bind((address[0], port, *address[2:]))
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    problem = f"{host}:{port} is already in use; set {name} to a free port"
                elif exc.errno == errno.EACCES:
                    problem = f"this user may not listen on {port} (below 1024); set {name} to a port above 1023"
                elif exc.errno == errno.EADDRNOTAVAIL:
                    raise SettingError(
                        f"HOST={host!r} cannot be listened on: it is no address of this machine "
                        "(0.0.0.0 for every one, 127.0.0.1 for this machine only)"
                    ) from None
                else:
                    problem = f"cannot listen on {host}:{port}: {exc.strerror}; set {name} to another port"
                raise SettingError(f"{name}={port} is not allowed: {problem}") from None
    environ[_CHECKED_ENV] = str(os.getpid())


# --------------------------------------------------------------------------- metrics directory


def prepare_metrics_dir(environ: MutableMapping[str, str] | None = None) -> Path:
    """Set up ``PROMETHEUS_MULTIPROC_DIR`` for this server instance and
    return it.

    - Unset: a fresh directory of its own under the temporary directory,
      removed again by :func:`on_exit`.
    - Set: created if missing, and emptied of the ``*.db`` files an earlier
      run left there (its counts would otherwise be summed into this one's);
      one that cannot be made or written is a :class:`SettingError`.

    gunicorn reads its configuration again on a reload (SIGHUP) in the same
    master; the directory is then kept as it is, counts included.
    """
    environ = settings.environ() if environ is None else environ
    prepared = environ.get(_PREPARED_ENV, "")
    if prepared.split(":")[0] == str(os.getpid()) and environ.get(METRICS_ENV):
        return Path(environ[METRICS_ENV])
    given = environ.get(METRICS_ENV, "")
    if given:
        path = Path(given)
        problem = settings.writable_folder_problem(given)
        if problem is None:
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                problem = exc.strerror
        if problem is not None:
            raise SettingError(f"{METRICS_ENV}={given!r} is not allowed: {problem} (the folder of the metric files)")
        for stale in path.glob("*.db"):
            stale.unlink()
        environ[_PREPARED_ENV] = f"{os.getpid()}:given"
    else:
        path = Path(tempfile.mkdtemp(prefix="hexodic-metrics-"))
        environ[METRICS_ENV] = str(path)
        environ[_PREPARED_ENV] = f"{os.getpid()}:owned"
        # also when the start fails (a port in use), where gunicorn calls no on_exit
        atexit.register(_remove_owned_dir, os.getpid(), path)
    return path


def _remove_owned_dir(owner: int, path: Path) -> None:
    """At the interpreter's exit, in the process that made the directory only
    (a forked worker inherits this hook; its exit must not remove it)."""
    if os.getpid() == owner:
        shutil.rmtree(path, ignore_errors=True)


def freeze_heap(server=None) -> int:
    """gunicorn hook (``when_ready``: in the master, the app preloaded, before
    the first worker is forked): collect once, then move every object alive
    into the garbage collector's permanent generation (:func:`gc.freeze`).
    The workers inherit the heap frozen: their full collections no longer
    walk the app's hundreds of thousands of long-lived objects (the modules,
    the rule catalogue, the compiled schemas), which is what gave a request
    its occasional slow tail, and the pages of those objects are not
    written to by the collector, so they stay shared with the master.
    Returns the number of objects frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def thaw_heap(server, worker) -> None:
    """gunicorn hook (``worker_exit``: in the worker, as it exits): the
    frozen objects back into the collector's generations (:func:`gc.unfreeze`),
    so the interpreter's shutdown collects them while the modules are still
    whole.  Left frozen, they are torn down after gevent's module globals,
    and a logging handler's weak-reference callback prints a TypeError
    traceback at every worker exit."""
    gc.unfreeze()


def child_exit(server, worker) -> None:
    """gunicorn hook (in the master, after a worker exits): tell
    prometheus_client the worker is gone, so its live gauges stop counting,
    and fold its counters and histograms into the kept totals
    (:func:`fold_dead_worker`), so the directory stays at one generation of
    workers however many come and go.

    With ``server`` (gunicorn's arbiter), the files of any other process that
    is gone and is no worker of it are folded too (:func:`gone_writers`): a
    worker gunicorn forgot without this hook (its ``kill_worker`` drops one it
    finds gone without calling it) leaves nothing behind either.  All of it
    under the directory's lock (:func:`metrics_lock`), so a scrape sees each
    count once, never twice or not at all."""
    from prometheus_client import multiprocess

    directory = settings.metrics_dir()
    if directory is None:
        multiprocess.mark_process_dead(worker.pid)
        return
    with metrics_lock(directory, exclusive=True):
        gone = {worker.pid}
        if server is not None:
            gone |= gone_writers(Path(directory), set(server.WORKERS) | {os.getpid()})
        for pid in sorted(gone):
            multiprocess.mark_process_dead(pid, directory)
            fold_dead_worker(Path(directory), pid)


@contextlib.contextmanager
def metrics_lock(directory: str | Path, exclusive: bool) -> Iterator[None]:
    """The metrics directory's lock (``flock`` on the directory itself, so no
    file is added): exclusive while the master folds a dead worker's files,
    shared while a worker reads them all for ``/metrics``
    (:mod:`checker.web.observe`).  Without it a scrape between the fold's two
    steps counts the dead worker twice, or fails on a file removed after it
    listed it."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # and with it the lock


def gone_writers(directory: Path, live: set[int]) -> set[int]:
    """The pids of the metric files in ``directory`` (``<kind>_<pid>.db``,
    ``gauge_<mode>_<pid>.db``) that are not in ``live`` and whose process no
    longer exists."""
    gone = set()
    for path in directory.glob("*.db"):
        pid = path.stem.rpartition("_")[2]
        if not pid.isdigit() or int(pid) in live:
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            gone.add(int(pid))
        except (PermissionError, OverflowError):
            pass  # alive (another user's), or no pid at all: not ours to fold
    return gone


KEPT = "kept"
"""The file-name part of the totals folded from workers that are gone
(``counter_kept.db``, ``histogram_kept.db``): prometheus_client's collector
reads the type from the part before the first ``_`` and sums every file."""


def fold_dead_worker(directory: Path, pid: int) -> None:
    """Add a dead worker's counters and histogram samples into the kept files
    and remove its files: every total stays the same, and the directory holds
    the live workers' files plus at most one kept file per type.  A gauge of a
    dead worker (``gauge_max_<pid>.db``: the build info) is removed: its live
    siblings report the same value.

    prometheus_client has no public call for this; its file format is read and
    written with its own :class:`~prometheus_client.mmap_dict.MmapedDict`, as
    its multiprocess collector does (tests/test_serving.py checks the sums)."""
    from prometheus_client.mmap_dict import MmapedDict

    for kind in ("counter", "histogram"):
        dead = directory / f"{kind}_{pid}.db"
        if not dead.exists():
            continue
        if dead.stat().st_size:  # an empty file holds nothing to keep
            kept = MmapedDict(str(directory / f"{kind}_{KEPT}.db"))
            try:
                totals = {key: value for key, value, *_ in kept.read_all_values()}
                for key, value, timestamp, *_ in MmapedDict.read_all_values_from_file(str(dead)):
                    kept.write_value(key, totals.get(key, 0.0) + value, timestamp)
            finally:
                kept.close()
        dead.unlink()
    for gauge in directory.glob(f"gauge_*_{pid}.db"):
        gauge.unlink()


def remove_metrics_dir(environ: MutableMapping[str, str] | None = None) -> None:
    """Remove the metrics directory when :func:`prepare_metrics_dir` made it
    (a directory it was given stays)."""
    environ = settings.environ() if environ is None else environ
    if environ.get(_PREPARED_ENV, "").endswith(":owned") and environ.get(METRICS_ENV):
        shutil.rmtree(environ[METRICS_ENV], ignore_errors=True)


def on_exit(server) -> None:
    """gunicorn hook (in the master, at the end)."""
    drain_flag(os.getpid()).unlink(missing_ok=True)
    remove_metrics_dir()


# --------------------------------------------------------------------------- request log


def log_requests_to(target: str | None) -> logging.Logger:
    """Send the JSON request lines (logger ``REQUEST_LOG``) to ``target``:
    ``"-"`` standard output, a file path, or ``""``/None nowhere.  One line
    per record, the record being the JSON text; calling it again replaces the
    earlier destination.  A file that cannot be opened is a :class:`SettingError`."""
    log = logging.getLogger(REQUEST_LOG)
    for handler in [h for h in log.handlers if getattr(h, "_hexodic", False)]:
        log.removeHandler(handler)
        handler.close()
    log.propagate = False
    if not target:
        log.setLevel(logging.CRITICAL + 1)
        return log
    try:
        handler = logging.StreamHandler(sys.stdout) if target == "-" else logging.FileHandler(target, encoding="utf-8")
    except OSError as exc:
        raise SettingError(f"GUNICORN_ACCESS_LOG={target!r} is not allowed: {exc.strerror}") from None
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler._hexodic = True  # type: ignore[union-attr]  # our mark, to find our handler again
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return log


# --------------------------------------------------------------------------- the drain


def drain_flag(master_pid: int) -> Path:
    """The file whose presence tells a master's workers it is draining."""
    return Path(tempfile.gettempdir()) / f"hexodic-draining-{master_pid}"


def remove_stale_flags() -> list[Path]:
    """Remove the drain flags of masters that are gone (killed while draining:
    no on_exit ran) and this process's own (a flag left by an earlier process
    with the same pid would make this server's /readyz say it drains).
    Returns the files removed."""
    removed = []
    for flag in Path(tempfile.gettempdir()).glob("hexodic-draining-*"):
        pid = flag.name.rpartition("-")[2]
        if not pid.isdigit():
            continue
        if int(pid) != os.getpid():
            try:
                os.kill(int(pid), 0)
                continue  # that master is alive
            except PermissionError:
                continue  # alive, another user's
            except (ProcessLookupError, OverflowError):
                pass
        with contextlib.suppress(OSError):
            flag.unlink()
            removed.append(flag)
    return removed


def draining() -> bool:
    """In a worker: is its master draining (``/readyz`` then answers 503)?"""
    return drain_flag(os.getppid()).exists()


def install_drain(arbiter_class, seconds: int) -> None:
    """SIGTERM drains first: for ``seconds`` (``HEXODIC_DRAIN_SECONDS``) the
    server keeps accepting and answering while ``/readyz`` answers 503, so a
    load balancer takes it out of rotation before it stops; then gunicorn's own
    graceful stop (stop accepting, finish what it holds within
    ``GUNICORN_GRACEFUL_TIMEOUT``).  A second SIGTERM, or 0 seconds, stops at
    once.

    gunicorn has no hook for the master's SIGTERM, so its Arbiter's
    ``handle_term`` (SIGTERM) and ``murder_workers`` (run by its main loop at
    least once a second) are wrapped."""
    # gunicorn's own methods, kept once: a reload (SIGHUP) reads gunicorn.conf.py again and calls this again
    originals = arbiter_class.__dict__.get("_hexodic_originals")
    if originals is None:
        originals = arbiter_class._hexodic_originals = (arbiter_class.handle_term, arbiter_class.murder_workers)
    handle_term, murder_workers = originals
    remove_stale_flags()

    def drain_then_stop(self) -> None:
        if seconds <= 0 or getattr(self, "_hexodic_drain_until", None) is not None:
            handle_term(self)  # raises StopIteration: gunicorn's stop
            return
        self._hexodic_drain_until = time.monotonic() + seconds
        drain_flag(os.getpid()).touch()
        self.log.info("SIGTERM: draining for %s s (/readyz answers 503; requests are still answered)", seconds)

    def stop_when_drained(self) -> None:
        until = getattr(self, "_hexodic_drain_until", None)
        if until is not None and time.monotonic() >= until:
            raise StopIteration  # gunicorn's run loop: halt, a graceful stop
        murder_workers(self)

    arbiter_class.handle_term = drain_then_stop
    arbiter_class.murder_workers = stop_when_drained
