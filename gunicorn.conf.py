"""gunicorn settings for the checker, each from the environment with a safe default.

    HOST (127.0.0.1)  PORT (8000)  WEB_CONCURRENCY (2 × usable CPUs, at most 8)
    GUNICORN_TIMEOUT (30 s)  GUNICORN_GRACEFUL_TIMEOUT (20 s)  GUNICORN_KEEPALIVE (5 s)
    GUNICORN_LIMIT_REQUEST_LINE (4094)  GUNICORN_LIMIT_REQUEST_FIELDS (50)
    GUNICORN_LIMIT_REQUEST_FIELD_SIZE (8190)

    GUNICORN_ACCESS_LOG (-): where the JSON request lines go: - for standard output, a file, or empty for none
    PROMETHEUS_MULTIPROC_DIR (a fresh temporary directory): the workers' metric files, emptied at start

The worker count's default follows the CPUs the container may use (its
cgroup CPU quota), not the host's.  The app itself reads HEXODIC_MAX_BODY and
HEXODIC_CORS_ORIGINS.
"""

import os

from checker import serving

# Before the app (and so prometheus_client) is imported: it picks multiprocess
# mode, one /metrics answer summed over every worker, from this variable.
serving.prepare_metrics_dir()


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


bind = f"{os.environ.get('HOST', '127.0.0.1')}:{_int('PORT', 8000)}"
workers = _int("WEB_CONCURRENCY", min(2 * serving.usable_cpus(), 8))
worker_class = "sync"
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 20)
keepalive = _int("GUNICORN_KEEPALIVE", 5)
limit_request_line = _int("GUNICORN_LIMIT_REQUEST_LINE", 4094)
limit_request_fields = _int("GUNICORN_LIMIT_REQUEST_FIELDS", 50)
limit_request_field_size = _int("GUNICORN_LIMIT_REQUEST_FIELD_SIZE", 8190)
preload_app = True
# gunicorn's plain-text access line is replaced by the app's JSON line (checker.web.observe).
accesslog = None
serving.log_requests_to(os.environ.get("GUNICORN_ACCESS_LOG", "-"))
errorlog = "-"
wsgi_app = "checker.web.wsgi:app"
child_exit = serving.child_exit
on_exit = serving.on_exit
