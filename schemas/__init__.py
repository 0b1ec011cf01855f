"""marshmallow schemas: JSON ↔ the checker's types, nothing more.

- :mod:`schemas.fields`    cells, positions (JSON or HPN), turns (JSON or HTN)
- :mod:`schemas.position`  the JSON position of the rules reference §11
- :mod:`schemas.turn`      the JSON turn of the rules reference §11
- :mod:`schemas.requests`  request bodies of API.md
- :mod:`schemas.responses` response bodies of API.md
- :mod:`schemas.compiled`  response schemas compiled into plain dump functions
"""
