"""The tools around the checker: the ``hexodic-check`` command, the engine
protocol, the conformance driver, the vectors and answers files.

- :mod:`checker.tools.cli`       the ``hexodic-check`` command, one module per command
- :mod:`checker.tools.protocol`  the engine protocol, spoken by the checker (``hexodic-check engine``)
- :mod:`checker.tools.conform`   the driver that tests an engine (another program) with the engine protocol
- :mod:`checker.tools.vectors`   the conformance vectors: build, read, check
- :mod:`checker.tools.answers`   an answers file of another implementation, compared with the vectors
- :mod:`checker.tools.perft_table` the published perft table (checker/data/perft.json, docs/perft.md): read, rebuilt
- :mod:`checker.tools.audit`     whole game archives judged again on Dask; self-play archives
- :mod:`checker.tools.mcp_server` the checker as a Model Context Protocol server (``hexodic-check mcp``)

Words: "the checker" is this rules engine; "the engine protocol" is the line
protocol of ENGINE (docs/engine.md); "the engine" is the program under test.

May import: the rules engine, :mod:`checker.drawing`, :mod:`checker.service`,
:mod:`schemas`.  Never Flask or :mod:`checker.web` (the command line loads no
web framework).
"""
