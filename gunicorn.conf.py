"""gunicorn settings for the checker, each from the environment with a safe default.

    HOST (127.0.0.1)  PORT (8000)  WEB_CONCURRENCY (2 × cores, at most 8)
    GUNICORN_TIMEOUT (30 s)  GUNICORN_GRACEFUL_TIMEOUT (20 s)  GUNICORN_KEEPALIVE (5 s)
    GUNICORN_LIMIT_REQUEST_LINE (4094)  GUNICORN_LIMIT_REQUEST_FIELDS (50)
    GUNICORN_LIMIT_REQUEST_FIELD_SIZE (8190)

The app itself reads HEXODIC_MAX_BODY and HEXODIC_CORS_ORIGINS.
"""

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


bind = f"{os.environ.get('HOST', '127.0.0.1')}:{_int('PORT', 8000)}"
workers = _int("WEB_CONCURRENCY", min(2 * multiprocessing.cpu_count(), 8))
worker_class = "sync"
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 20)
keepalive = _int("GUNICORN_KEEPALIVE", 5)
limit_request_line = _int("GUNICORN_LIMIT_REQUEST_LINE", 4094)
limit_request_fields = _int("GUNICORN_LIMIT_REQUEST_FIELDS", 50)
limit_request_field_size = _int("GUNICORN_LIMIT_REQUEST_FIELD_SIZE", 8190)
preload_app = True
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
wsgi_app = "checker.web.wsgi:app"
