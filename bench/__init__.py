"""``make bench`` (``python -m bench``): the checker's speed, measured against
baselines taken in the same run, and written to docs/speed.md.

- :mod:`bench.run`          in-process timings, the HTTP service under load, the targets (PASS/MISS)
- :mod:`bench.perft_bench`  perft over the published table
- :mod:`bench.pictures`     the board pictures: SVG, PNG, and by URL
- :mod:`bench.clients`      slow, idle and expensive clients, per gunicorn worker class
- :mod:`bench.gc_freeze`    the collector's pauses with and without gc.freeze (a fresh interpreter each)
- :mod:`bench.server`       gunicorn as ``make run`` starts it, on loopback (the tests use it too)
- :mod:`bench.browser`      headless Chromium's path and flags, and the axe-core impacts that fail a page
- :mod:`bench.audit`        ``make audit``: the pages at phone and desktop widths
- :mod:`bench.profile_loop` a loop of one operation, for a profiler
- :mod:`bench.find_positions` how the benchmark's positions were found (seeded random games)

It may import the product (checker, schemas) and nothing from tests/.  Run
from the repository's root: ``.venv/bin/python -m bench``.
"""
