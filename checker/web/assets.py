"""The service's own static files (``checker/web/static``, package data):
read here, and sent as revalidated assets here.  Which files a page may load
and at which address is each blueprint's own list; reading and sending them
is this module's.

>>> read("favicon.svg").startswith(b"<svg")
True
"""

from __future__ import annotations

import functools
from importlib import resources
from importlib.abc import Traversable

from werkzeug.wrappers import Response as BaseResponse

from checker.web import security
from checker.web.endpoints import revalidated

STATIC: Traversable = resources.files("checker.web").joinpath("static")
"""The folder of the static files."""


@functools.cache
def read(name: str) -> bytes:
    """A static file's bytes, read once per process."""
    return STATIC.joinpath(name).read_bytes()


def send(name: str, content_type: str) -> BaseResponse:
    """A static file as an asset the browser revalidates (ETag, 304)."""
    return security.asset(revalidated(read(name), content_type))
