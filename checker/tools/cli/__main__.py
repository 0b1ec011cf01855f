"""``python -m checker.tools.cli``: the ``hexodic-check`` command."""

import sys

from checker.tools.cli import main

sys.exit(main())
