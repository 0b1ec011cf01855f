"""``python -m bench``: the whole benchmark, then docs/speed.md written from it."""

import sys

from bench import run

try:
    sys.exit(run.main())
except KeyboardInterrupt:
    run.log("interrupted")
    sys.exit(130)
