"""gunicorn settings for the checker, each from the environment with a safe default.

    HOST (127.0.0.1)  PORT (8000)  WEB_CONCURRENCY (1 per usable CPU, at most 8)
    GUNICORN_WORKER_CONNECTIONS (500 per worker)
    GUNICORN_TIMEOUT (30 s)  GUNICORN_GRACEFUL_TIMEOUT (8 s)  GUNICORN_KEEPALIVE (2 s)
    GUNICORN_LIMIT_REQUEST_LINE (4094)  GUNICORN_LIMIT_REQUEST_FIELDS (50)
    GUNICORN_LIMIT_REQUEST_FIELD_SIZE (8190)
    GUNICORN_CONTROL_SOCKET (none: no control socket unless a path is given)

    GUNICORN_ACCESS_LOG (-): where the JSON request lines go: - for standard output, a file, or empty for none
    PROMETHEUS_MULTIPROC_DIR (a fresh temporary directory): the workers' metric files, emptied at start

Workers are gevent's: each serves many connections at once, so idle, slow or
non-closing clients hold a greenlet, not a worker (a sync worker is held by
each one; see README "Bad clients").  A gevent worker keeps its CPU busy by
itself, so the default is one worker per CPU the container may use (its
cgroup CPU quota, not the host's CPUs).  The keep-alive time is also the
time a request's line and headers may take to arrive (gevent worker: one
deadline for both); the app gives the body HEXODIC_BODY_TIMEOUT (5 s) more.
On SIGTERM a worker stops accepting, finishes what it has (headers 2 s +
body 5 s + the work, under the 8 s graceful timeout) and exits: inside
docker stop's 10 s and Kubernetes' 30 s grace.

The app itself reads HEXODIC_MAX_BODY, HEXODIC_BODY_TIMEOUT,
HEXODIC_EXPENSIVE_LIMIT and HEXODIC_CORS_ORIGINS.
"""

import os

from gunicorn import util

from checker import serving

# Before the app (and so prometheus_client) is imported: it picks multiprocess
# mode, one /metrics answer summed over every worker, from this variable.
serving.prepare_metrics_dir()


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


bind = f"{os.environ.get('HOST', '127.0.0.1')}:{_int('PORT', 8000)}"
workers = _int("WEB_CONCURRENCY", min(serving.usable_cpus(), 8))
worker_class = "gevent"
worker_connections = _int("GUNICORN_WORKER_CONNECTIONS", 500)
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 8)
keepalive = _int("GUNICORN_KEEPALIVE", 2)
limit_request_line = _int("GUNICORN_LIMIT_REQUEST_LINE", 4094)
limit_request_fields = _int("GUNICORN_LIMIT_REQUEST_FIELDS", 50)
limit_request_field_size = _int("GUNICORN_LIMIT_REQUEST_FIELD_SIZE", 8190)
preload_app = True
# The control socket (gunicornc) is per instance or none: by default gunicorn
# puts it at ~/.gunicorn/gunicorn.ctl, shared by every instance of the user,
# and one instance stopping deletes another's.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "")
control_socket_disable = not control_socket
# What gunicorn refuses itself (an unsupported Transfer-Encoding, an over-long
# request line or header, a malformed request line) it answers with an HTML
# page written by util.write_error, which no setting changes; this answers it
# as problem+json instead, like every other error (tests/web/test_clients.py).


def _write_error(sock, status, reason, mesg):
    # Imported here, not above: checker.web.errors loads prometheus_client, which
    # must come after the metrics directory (it is the preloaded app's by then).
    from checker.web.errors import server_problem

    util.write_nonblock(sock, server_problem(status, reason, mesg))


util.write_error = _write_error
# gunicorn's plain-text access line is replaced by the app's JSON line (checker.web.observe).
accesslog = None
serving.log_requests_to(os.environ.get("GUNICORN_ACCESS_LOG", "-"))
errorlog = "-"
wsgi_app = "checker.web.wsgi:app"
when_ready = serving.freeze_heap     # gc.freeze the preloaded app before the workers fork
worker_exit = serving.thaw_heap      # and unfreeze as a worker exits, for a clean interpreter shutdown
child_exit = serving.child_exit
on_exit = serving.on_exit
