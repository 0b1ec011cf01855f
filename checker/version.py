"""The two versions a client sees, decided here and nowhere else.

- :data:`RULES_VERSION`: the edition of the rules this checker implements
  (the date of the rules text it follows); every answer carries it.
- :data:`PACKAGE_VERSION`: this package's own version, from its installed
  metadata (``unknown`` in a source tree that was never installed).

>>> RULES_VERSION
'2026-09-15'
"""

from __future__ import annotations

from importlib import metadata

RULES_VERSION = "2026-09-15"
DISTRIBUTION = "hexodic-checker"


def _package_version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
        return "unknown"


PACKAGE_VERSION = _package_version()
