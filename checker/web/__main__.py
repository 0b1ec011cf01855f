"""``hexodic-checker-serve`` (or ``python -m checker.web``): the server, as
``make run`` and the container start it; and ``hexodic-checker-openapi``.

First the server extra: without it, one line naming the extra and exit 2
(this module imports nothing of it before that check).  Then every setting is
checked (checker/web/settings.py), before gunicorn is imported: gunicorn reads
some variables itself (``WEB_CONCURRENCY``, ``FORWARDED_ALLOW_IPS``) and would
answer a bad one with a traceback or a line that names no variable.  A bad
value is one line and exit 2; gunicorn.conf.py checks them again, and whether
the ports are free and the metrics folder writable.  Then this process becomes
``gunicorn --config gunicorn.conf.py [ARGS...]`` (exec: gunicorn keeps the pid,
so it is PID 1 in a container and gets the signals).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from checker.extras import MissingExtra, require


def _server_extra(command: str) -> bool:
    try:
        require("server")
    except MissingExtra as exc:
        sys.stderr.write(f"{command}: {exc}\n")
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not _server_extra("hexodic-checker-serve"):
        return 2
    from checker.web import serving, settings

    try:
        settings.check_all(cpus=serving.usable_cpus())
    except settings.SettingError as exc:
        sys.stderr.write(f"hexodic-checker: {exc}\n")
        return 2
    gunicorn = Path(sys.executable).with_name("gunicorn")
    if not gunicorn.exists():
        sys.stderr.write(f"hexodic-checker: gunicorn is not installed beside {sys.executable}\n")
        return 2
    os.execv(gunicorn, [str(gunicorn), "--config", "gunicorn.conf.py", *args])
    return 0  # not reached: execv replaces this process


def openapi() -> int:
    """``hexodic-checker-openapi > openapi.yaml``: the OpenAPI document."""
    if not _server_extra("hexodic-checker-openapi"):
        return 2
    from checker.web import openapi as document

    document.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
