"""The archive audit: whole game archives judged again, on one machine or an
existing Dask cluster (``hexodic-check audit``), and the self-play archives
that exercise it (``hexodic-check selfplay``).

- :mod:`checker.tools.audit.records`   a record read and judged: one row (a pure function per chunk,
  what the Dask workers run)
- :mod:`checker.tools.audit.inputs`    the inputs (JSON Lines, plain, gzip or zstd; Parquet) read in chunks
- :mod:`checker.tools.audit.run`       the audit: chunks to the workers, rows out in input order, resume
- :mod:`checker.tools.audit.report`    the summary and the HTML report (matplotlib's charts as SVG)
- :mod:`checker.tools.audit.selfplay`  realistic archives of random games, optionally spoilt

The Python API: :func:`checker.tools.audit.run.audit` (what the command
runs) and :func:`checker.tools.audit.records.judge_chunk` (one chunk).

May import: the rules engine, :mod:`checker.service`, :mod:`schemas`, and the
audit extra (Dask, pyarrow, zstandard, matplotlib), imported only where used
so the core install can import this package.
"""
