"""``hexodic-checker-serve`` (or ``python -m checker.web``): the server, as
``make run`` and the container start it.

Every setting is checked first (checker/web/settings.py), before gunicorn is
imported: gunicorn reads some variables itself (``WEB_CONCURRENCY``) and would
answer a bad one with a traceback.  A bad value is one line and exit 2.  Then
this process becomes ``gunicorn --config gunicorn.conf.py [ARGS...]`` (exec:
gunicorn keeps the pid, so it is PID 1 in a container and gets the signals).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from checker.web import serving, settings


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        settings.server(cpus=serving.usable_cpus())
        settings.from_env()
    except settings.SettingError as exc:
        sys.stderr.write(f"hexodic-checker: {exc}\n")
        return 2
    gunicorn = Path(sys.executable).with_name("gunicorn")
    if not gunicorn.exists():
        sys.stderr.write(f"hexodic-checker: gunicorn is not installed beside {sys.executable}\n")
        return 2
    os.execv(gunicorn, [str(gunicorn), "--config", "gunicorn.conf.py", *args])
    return 0  # not reached: execv replaces this process


if __name__ == "__main__":
    sys.exit(main())
