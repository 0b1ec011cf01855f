"""gzip for large answers, in one place of the response path.

Every answer passes :func:`compress` last (an ``after_request`` hook, so the
request log and the metrics see what is sent).  An answer is sent gzip-encoded
when all of these hold:

- the client accepts gzip (``Accept-Encoding``, with a quality above 0);
- its media type is text (JSON, problem+json, JSON Lines, HTML, CSS,
  JavaScript, SVG, YAML, plain text), it is not already encoded, and it is at
  least :data:`MIN_SIZE` bytes (below that gzip saves a few hundred bytes at
  best and costs a round of CPU);
- it is a 200 with a body (a 304 has none).

Such answers carry ``Vary: Accept-Encoding`` whether or not this client gets
them compressed, so a cache keeps the two apart.  An answer with an ETag (a
page, an asset, a picture) is the same bytes each time: it is compressed once,
at gzip's best level, and kept by ETag (:class:`_Cache`, bounded); its ETag
becomes weak, ``W/"…"``, as the compressed bytes are another representation of
the same content, and a conditional request with either form still gets its
304 (``If-None-Match`` compares weakly).  Other answers (a verdict, a list of
legal turns) are compressed per request by ISA-L's deflate (python-isal, the
fastest gzip there is for Python; a format-identical stream any gzip reader
decodes) at :data:`FAST_LEVEL`: the 430 KB legal-turn list of the busiest
bench position in about 0.15 ms, to 27 KB (zlib's level 1 took 0.7 ms, to
28 KB).
"""

from __future__ import annotations

import zlib
from collections import OrderedDict

from flask import Flask, Request, Response, request
from isal import isal_zlib

MIN_SIZE = 1024
FAST_LEVEL = 1  # per-request answers, ISA-L's level 1: about 3 GB/s, 430 KB of turns to 27 KB
CACHED_LEVEL = 9  # answers with an ETag: compressed once, kept
CACHE_ENTRIES = 256
CACHE_BYTES = 16 * 1024 * 1024  # at most this much compressed data kept per worker

COMPRESSIBLE = frozenset(
    {
        "application/json",
        "application/problem+json",
        "application/x-ndjson",
        "application/jsonl",
        "application/yaml",
        "application/javascript",
        "text/javascript",
        "text/html",
        "text/css",
        "text/plain",
        "image/svg+xml",
    }
)

_GZIP = 31  # zlib's wbits for the gzip format (header and trailer; no file name, mtime 0)


def gzip(data: bytes, level: int) -> bytes:
    """``data`` in the gzip format (RFC 1952), the same bytes for the same input: zlib at ``level``
    (the best, 9, for answers kept by ETag)."""
    return zlib.compress(data, level, _GZIP)


def gzip_fast(data: bytes) -> bytes:
    """``data`` in the gzip format, by ISA-L at :data:`FAST_LEVEL` (for an answer made per request)."""
    return isal_zlib.compress(data, FAST_LEVEL, _GZIP)


class _Cache:
    """Compressed bodies by ETag, least recently used out first, bounded in
    entries and in bytes."""

    def __init__(self, entries: int = CACHE_ENTRIES, size: int = CACHE_BYTES):
        self.entries, self.size = entries, size
        self._data: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._bytes = 0

    def get(self, key: tuple[str, str], body: bytes) -> bytes:
        found = self._data.get(key)
        if found is not None:
            self._data.move_to_end(key)
            return found
        packed = gzip(body, CACHED_LEVEL)
        if len(packed) <= self.size:
            self._data[key] = packed
            self._bytes += len(packed)
            while len(self._data) > self.entries or self._bytes > self.size:
                _, old = self._data.popitem(last=False)
                self._bytes -= len(old)
        return packed


_cache = _Cache()


def accepts_gzip(req: Request) -> bool:
    """The client accepts gzip: ``gzip`` (or ``*``) with a quality above 0."""
    return req.accept_encodings["gzip"] > 0


def compress(resp: Response) -> Response:
    """``resp``, gzip-encoded when the rules above allow (see the module)."""
    if resp.mimetype not in COMPRESSIBLE or "Content-Encoding" in resp.headers or resp.is_streamed:
        return resp
    if resp.status_code == 304:
        etag, weak = resp.get_etag()
        if etag and not weak and accepts_gzip(request) and f'W/"{etag}"' in request.headers.get("If-None-Match", ""):
            resp.set_etag(etag, weak=True)  # the client holds the compressed representation
            resp.vary.add("Accept-Encoding")
        return resp
    if resp.status_code != 200:
        return resp
    body = resp.get_data()
    if len(body) < MIN_SIZE:
        return resp
    resp.vary.add("Accept-Encoding")
    if not accepts_gzip(request):
        return resp
    etag, weak = resp.get_etag()
    packed = _cache.get((etag, resp.mimetype), body) if etag else gzip_fast(body)
    resp.set_data(packed)
    resp.headers["Content-Encoding"] = "gzip"
    if etag and not weak:
        resp.set_etag(etag, weak=True)
    return resp


def init_app(app: Flask) -> None:
    """Register :func:`compress`; call it after every other ``after_request``
    hook is registered (Flask runs them in reverse order, so this one runs
    first and the others see the compressed answer)."""
    app.after_request(compress)
