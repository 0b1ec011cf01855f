"""Request handling without a web framework, shared by the HTTP service, the
command line and the benchmarks: JSON in, schema, the checker, schema, JSON
out (request → schema → checker → schema → response).

- :mod:`checker.service.pipeline`  each operation's work: read, check, answer
- :mod:`checker.service.problems`  why a request cannot be answered, as values (RFC 9457 bodies)
- :mod:`checker.service.budget`    the work budget: batches yield, a cap on expensive requests

May import: the rules engine, :mod:`schemas`, the standard library, orjson and
marshmallow.  Never Flask, gunicorn, :mod:`checker.tools` or :mod:`checker.web`.
"""
