"""marshmallow schemas: JSON ↔ the checker's types, nothing more.

- :mod:`schemas.fields`    cells, positions (JSON or HPN), turns (JSON or HTN)
- :mod:`schemas.position`  the JSON position of the rules reference §11
- :mod:`schemas.turn`      the JSON turn of the rules reference §11
- :mod:`schemas.queries`   the query strings of the pages and pictures
- :mod:`schemas.requests`  request bodies (docs/api.md), and the loader of a check
- :mod:`schemas.responses` response bodies (docs/api.md)
- :mod:`schemas.perft`     the perft request and answer
- :mod:`schemas.writers`   the legal-turns answer written as JSON text from parts made once
- :mod:`schemas.compiled`  response schemas compiled into plain dump functions
- :mod:`schemas.quick`     request schemas compiled into plain load functions (the quick loaders)

The quick loaders and the dumpers are derived from the schemas when first
asked for; the writer is held equal to its schema, and the quick loaders
to theirs, by the property tests in ``tests/schemas/``.

May import: the rules engine and :mod:`checker.drawing` (the picture sizes);
never the request handling, the tools or the web.
"""
