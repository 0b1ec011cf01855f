"""gunicorn settings for the checker.  Every setting comes from the
environment through checker/web/settings.py (the one reader, which lists
them with their defaults: ``server()`` for gunicorn's, ``from_env()`` for the
app's); a bad value stops the start with one line naming it, exit 2, and
so does a port already taken (naming PORT or HEXODIC_METRICS_PORT) or a
metrics folder that cannot be written.  (gunicorn itself reads two of them
before this file: WEB_CONCURRENCY, where a value that is no number is its own
traceback, and FORWARDED_ALLOW_IPS, its own one-line error; both exit 1.
hexodic-checker-serve, which `make run` and the image run, checks them first.)

Workers are gevent's: each serves many connections at once, so idle, slow or
non-closing clients hold a greenlet, not a worker (a sync worker is held by
each one; see docs/operations.md).  A gevent worker keeps its CPU busy by
itself, so the default is one worker per CPU the container may use (its
cgroup CPU quota, not the host's CPUs).  The keep-alive time is also the
time a request's line and headers may take to arrive (gevent worker: one
deadline for both); the app gives the body HEXODIC_BODY_TIMEOUT (5 s) more.
On SIGTERM the server first drains (HEXODIC_DRAIN_SECONDS, 5 s: every request
is still answered while /readyz answers 503, so a load balancer takes it out of
rotation), then each worker stops accepting, finishes what it has (under the
8 s graceful timeout) and exits: inside the Deployment's 20 s grace period
(`docker stop -t 20` with plain Docker).
"""

import sys

from gunicorn import util
from gunicorn.arbiter import Arbiter

from checker.web import serving, settings

try:
    _server = settings.check_all(cpus=serving.usable_cpus())  # gunicorn's settings and the app's
    serving.check_listeners(_server["host"], _server["ports"])  # the ports free (the first time only)
    # Before the app (and so prometheus_client) is imported: it picks multiprocess
    # mode, one /metrics answer summed over every worker, from this variable.
    serving.prepare_metrics_dir()
    # gunicorn's plain-text access line is replaced by the app's JSON line (checker.web.observe).
    serving.log_requests_to(_server["access_log"])
except settings.SettingError as exc:
    sys.stderr.write(f"hexodic-checker: {exc}\n")
    sys.exit(2)

bind = _server["bind"]
workers = _server["workers"]
worker_class = "checker.web.worker.Worker"  # gevent, answering what it refuses early and its listen queue at a stop
worker_connections = _server["worker_connections"]
timeout = _server["timeout"]
graceful_timeout = _server["graceful_timeout"]
keepalive = _server["keepalive"]
limit_request_line = _server["limit_request_line"]
limit_request_fields = _server["limit_request_fields"]
limit_request_field_size = _server["limit_request_field_size"]
preload_app = True
# The control socket (gunicornc) is per instance or none: by default gunicorn
# puts it at ~/.gunicorn/gunicorn.ctl, shared by every instance of the user,
# and one instance stopping deletes another's.
control_socket = _server["control_socket"]
# X-Forwarded-* only from the proxies named (none unless HEXODIC_PROXIES >= 1);
# gunicorn's own default trusts loopback, where any local client could forge them.
forwarded_allow_ips = _server["forwarded_allow_ips"]
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
accesslog = None  # the app's JSON line instead (above)
errorlog = "-"
wsgi_app = "checker.web.wsgi:app"
when_ready = serving.freeze_heap  # gc.freeze the preloaded app before the workers fork
worker_exit = serving.thaw_heap  # and unfreeze as a worker exits, for a clean interpreter shutdown
child_exit = serving.child_exit
serving.install_drain(Arbiter, _server["drain"])  # SIGTERM: /readyz 503 for HEXODIC_DRAIN_SECONDS, then stop
on_exit = serving.on_exit
