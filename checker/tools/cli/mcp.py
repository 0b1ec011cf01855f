"""``hexodic-check mcp [--http HOST:PORT]``: the checker as a Model Context
Protocol server (:mod:`checker.tools.mcp_server`), over stdio or streamable HTTP.

Needs the mcp extra (``pip install 'hexodic-checker[mcp]'``): without it, one
line naming the extra and exit 2."""

from __future__ import annotations

import re

from checker.extras import require
from checker.tools.cli.common import EXIT_OK, BadInput, Reader

LOOPBACK = "127.0.0.1"
_ADDRESS = re.compile(r"(?:(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]*):)?(?P<port>[0-9]{1,5})")


def add_to(sub) -> None:
    m = sub.add_parser(
        "mcp",
        help="serve the checker's tools to AI assistants (Model Context Protocol)",
        description="Serve the checker to an MCP client (an assistant or an agent framework): the tools "
        "check_turn, legal_turns, replay_game, validate_position, explain_rule, draw_position and permalink, "
        "the rules reference and the conformance vectors as resources, and the prompt settle-a-dispute. "
        "Over stdio (the client starts this command) unless --http is given. Links are made absolute with "
        "HEXODIC_PUBLIC_URL. See docs/agents.md.",
    )
    m.add_argument(
        "--http",
        metavar="HOST:PORT",
        help=f"serve streamable HTTP at http://HOST:PORT/mcp instead (HOST defaults to {LOOPBACK}; port 0: any "
        "free port, the line on stderr names it)",
    )
    m.set_defaults(run=run)


def address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT`` or ``PORT`` as (host, port); loopback when no host is given.

    >>> address("8765"), address(":8765"), address("0.0.0.0:80"), address("[::1]:0")
    (('127.0.0.1', 8765), ('127.0.0.1', 8765), ('0.0.0.0', 80), ('::1', 0))
    """
    m = _ADDRESS.fullmatch(text.strip())
    if m is None or int(m["port"]) > 65535:
        raise BadInput(f"--http: {text!r} is not HOST:PORT (such as 127.0.0.1:8765; a port from 0 to 65535)")
    host = (m["host"] or LOOPBACK).strip("[]")
    return host, int(m["port"])


def run(args, reader: Reader) -> int:
    require("mcp")
    where = None if args.http is None else address(args.http)
    from checker.tools import mcp_server

    try:
        base = mcp_server.public_url()
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    if where is None:
        mcp_server.serve_stdio(base)
        return EXIT_OK
    try:
        mcp_server.serve_http(*where, base)
    except OSError as exc:
        raise BadInput(f"--http: cannot listen on {args.http}: {exc.strerror or exc}") from None
    return EXIT_OK
