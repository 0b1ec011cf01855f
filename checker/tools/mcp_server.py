"""The checker as a Model Context Protocol server: ``hexodic-check mcp``.

An assistant (or an agent framework) that speaks MCP calls the checker's
tools instead of answering rules questions from memory.  Built on the
official MCP Python SDK (the ``mcp`` extra): its low-level ``Server``,
because each tool's input schema is the contract's own (the request bodies'
JSON Schemas in ``checker/data/requests.schema.json``, taken from the
OpenAPI document by :mod:`checker.web.request_schemas`), not one the SDK
derives from Python signatures.

Tools (each answer is the ``/v1`` answer for the same input, as structured
content, and the same in words as text content):

- ``check_turn``         ``POST /v1/check``: legal or illegal, the summary, every rule's line, the position after
- ``legal_turns``        ``POST /v1/legal-turns`` (HTN), the first ``limit`` turns and the count
- ``replay_game``        ``POST /v1/replay``, with each turn's verdict up to the first illegal one
- ``validate_position``  ``POST /v1/validate``
- ``explain_rule``       an entry of ``GET /v1/rules`` and the decided readings (D-n) it rests on
- ``draw_position``      ``POST /v1/render`` (SVG) and ``GET /v1/render.png`` (PNG, when resvg is installed)
- ``permalink``          the ``/check`` page's link for a position and a turn (from ``HEXODIC_PUBLIC_URL``)

The request handling is :mod:`checker.service.pipeline`'s, so the answers
and the errors are the service's: bad input is a tool error whose text
names the field (``turn: ...``), never a traceback.  Resources: the rules
reference (``hexodic://rules``, Markdown) and the conformance vectors (an
index at ``hexodic://vectors``, JSON Lines, and each vector at
``hexodic://vectors/{id}``).  One prompt, ``settle-a-dispute``.

Served over stdio (:func:`serve_stdio`) or streamable HTTP (:func:`serve_http`,
stateless: every request stands alone, so no session outlives a client and
any number of these servers can stand behind one address).  The checker's
work runs in a worker thread, so a client that goes away in the middle of a
call leaves the server serving (HTTP) or ending cleanly when its stdin
closes (stdio).
"""

from __future__ import annotations

import base64
import functools
import json
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from importlib.util import find_spec
from typing import Any
from urllib.parse import urlencode

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server import Server
from mcp.shared.exceptions import MCPError

from checker.catalogue import ENTRIES, REFERENCE_PATH, Kind, RuleEntry
from checker.drawing import draw
from checker.extras import public_origin
from checker.legality import check
from checker.notation import position_to_hpn, turn_to_htn
from checker.reference import markdown, plain_entry
from checker.service.pipeline import (
    check_request,
    consistent,
    legal_turns_request,
    read,
    replay_request,
    rule_catalogue,
    validate_request,
)
from checker.service.problems import RequestError, SchemaError
from checker.tools.cli.common import MARKS, verdict_lines
from checker.tools.vectors import SHIPPED
from checker.version import PACKAGE_VERSION, RULES_VERSION
from schemas.requests import CheckRequestSchema, RenderRequestSchema

NAME = "hexodic-checker"
PNG_WIDTH = 800  # the width of GET /v1/render.png without ?width (checker.drawing.png.DEFAULT_WIDTH)
MAX_LIMIT = 10_000
DEFAULT_LIMIT = 100

INSTRUCTIONS = (
    "The official Hexodic move-legality checker (rules version "
    + RULES_VERSION
    + "). Never judge a Hexodic turn from memory: call check_turn with the position (HPN or JSON) and the "
    "turn (HTN or JSON), and quote its summary and the rule ids of its failed checks with their links. "
    "explain_rule gives the checker's own text of a rule id or a decided reading D-n; replay_game judges a "
    "whole game; draw_position shows the board; permalink gives a link to share."
)


class ToolError(Exception):
    """A tool's input the checker cannot use; the message names the field."""


# ----------------------------------------------------------- public links ----


def public_url(env: dict[str, str] | None = None) -> str | None:
    """``HEXODIC_PUBLIC_URL`` (an origin, as the service reads it:
    :func:`checker.extras.public_origin`), or None when unset; :class:`ValueError`
    naming it when it is not an origin.

    >>> public_url({"HEXODIC_PUBLIC_URL": "https://check.hexodic.example/"})
    'https://check.hexodic.example'
    >>> public_url({}) is None
    True
    """
    return public_origin((os.environ if env is None else env).get("HEXODIC_PUBLIC_URL", ""))


def link(path: str, query: dict[str, str] | None = None, base: str | None = None) -> str:
    """``path`` (and its query, encoded as the service's pages encode it) under
    ``base`` (the public origin; none: the path alone).

    >>> link("/check", {"position": "a b", "turn": "c3 +d4"}, "https://x.org")
    'https://x.org/check?position=a+b&turn=c3+%2Bd4'
    """
    text = path + ("?" + urlencode(query, safe="!$'()*,/:;?@") if query else "")
    return (base or "") + text


# ------------------------------------------------------------- schemas ----


@functools.cache
def _requests() -> dict[str, Any]:
    return json.loads(resources.files("checker.data").joinpath("requests.schema.json").read_text(encoding="utf-8"))


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        own = {node["$ref"].rsplit("/", 1)[1]} if isinstance(node.get("$ref"), str) else set()
        return own.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


def request_schema(name: str, drop: tuple[str, ...] = (), add: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON Schema of the request body ``name`` (``CheckRequest``, ...), as a
    tool's input schema: its ``$defs`` carried along, ``drop``'s properties left
    out and ``add``'s added."""
    defs = _requests()["$defs"]
    schema = json.loads(json.dumps(defs[name]))
    for key in drop:
        schema["properties"].pop(key)
        if key in schema.get("required", []):
            schema["required"].remove(key)
    schema["properties"].update(add or {})
    wanted: set[str] = set()
    todo = _refs(schema)
    while todo:
        ref = todo.pop()
        if ref not in wanted:
            wanted.add(ref)
            todo |= _refs(defs[ref])
    if wanted:
        schema["$defs"] = {ref: defs[ref] for ref in sorted(wanted)}
    return schema


def _rule_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "id": {
                "type": "string",
                "enum": list(ENTRIES),
                "description": "A rule id (place.cooldown), a capture kind (capture.echo), an end-of-game reason "
                "(end.tiebreak) or a decided reading (D-10): every entry of GET /v1/rules.",
            }
        },
        "required": ["id"],
        "additionalProperties": False,
    }


# ---------------------------------------------------------------- tools ----


@dataclass
class Answer:
    """What a tool gives: the structured answer and the content blocks."""

    data: dict[str, Any] | None
    content: list[types.ContentBlock]


def _text(*lines: str) -> types.TextContent:
    return types.TextContent(type="text", text="\n".join(lines))


def _absolute(base: str | None, url: str | None) -> str | None:
    return url if url is None or base is None or not url.startswith("/") else base + url


def _check_lines(checks: list[dict[str, Any]], base: str | None) -> list[str]:
    """One line per check: mark, rule id, step, message and the rule's link."""
    return [
        f"{MARKS.get(c['status'], '?')} {c['rule']} ({c['step']}): {c['message']} {_absolute(base, c['rule_url'])}"
        for c in checks
    ]


def _arguments(arguments: dict[str, Any] | None, schema: dict[str, Any]) -> dict[str, Any]:
    """The call's arguments; an argument the tool's schema does not name is an error naming it."""
    args = dict(arguments or {})
    unknown = sorted(set(args) - set(schema["properties"]))
    if unknown:
        raise SchemaError({key: ["Unknown field."] for key in unknown})
    return args


def check_turn(args: dict[str, Any], base: str | None) -> Answer:
    verdict = check_request.run(check_request.load(args))
    data = check_request.dump(verdict)
    after = verdict_lines(verdict)[2 + len(verdict.checks) :]  # the position after, events, capture check, game
    lines = [verdict.summary, "", *_check_lines(data["checks"], base), *after]
    return Answer(data, [_text(*lines)])


def legal_turns(args: dict[str, Any], base: str | None) -> Answer:
    limit = args.pop("limit", DEFAULT_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise SchemaError({"limit": [f"Must be an integer from 1 to {MAX_LIMIT}."]})
    answer = legal_turns_request({**args, "form": "htn"})
    shown = answer["turns"][:limit]
    data = {**answer, "turns": shown, "truncated": len(shown) < answer["count"]}
    head = f"{answer['count']} legal turn{'s' if answer['count'] != 1 else ''}"
    if data["truncated"]:
        head += f"; the first {len(shown)} (limit {limit}):"
    return Answer(data, [_text(head + (":" if not data["truncated"] and shown else ""), *shown)])


def replay_game(args: dict[str, Any], base: str | None) -> Answer:
    game = replay_request.run(replay_request.load(args))
    data = replay_request.dump(game)
    turns = []
    lines = []
    for n, verdict in enumerate(game.verdicts, 1):
        v = check_request.dump(verdict)
        turns.append({k: v[k] for k in ("turn", "mover", "legal", "summary", "violations")})
        lines.append(f"{n}. {v['turn']} ({v['mover']}): {v['summary']}")
    data["turns"] = turns
    first = data["first_illegal"]
    if first is not None:
        lines += ["", f"Turn {first['index'] + 1} is illegal:", *_check_lines(first["verdict"]["checks"], base)]
    else:
        lines += ["", f"Every turn is legal. Position after the game: {data['final']['hpn']}"]
    if data["game"] is not None and data["game"]["message"]:
        lines.append(f"Game: {data['game']['message']}")
    return Answer(data, [_text(*lines)])


def validate_position(args: dict[str, Any], base: str | None) -> Answer:
    data = validate_request(args)
    head = "The position is consistent." if data["consistent"] else "The position is not consistent."
    return Answer(data, [_text(head, "", *_check_lines(data["checks"], base))])


def _readings(entry: RuleEntry) -> list[RuleEntry]:
    """The decided readings an entry rests on: its own D-n and those its text names."""
    named = [entry.decision, *re.findall(r"\bD-\d+\b", entry.text)]
    ids = [d for d in dict.fromkeys(named) if d is not None and d != entry.id and d in ENTRIES]
    return [ENTRIES[d] for d in sorted(ids, key=lambda d: int(d[2:]))]


def explain_rule(args: dict[str, Any], base: str | None) -> Answer:
    wanted = args.get("id")
    if not isinstance(wanted, str):
        raise SchemaError({"id": ["Missing data for required field." if wanted is None else "Not a valid string."]})
    by_lower = {key.lower(): e for key, e in ENTRIES.items()}
    entry = by_lower.get(wanted.strip().lower())
    if entry is None:
        raise SchemaError(
            {"id": [f"{wanted!r} is no rule id, capture kind, end-of-game reason or decided reading of GET /v1/rules."]}
        )
    readings = _readings(entry)
    dumped = rule_catalogue.dump([entry, *readings])
    data = {"entry": dumped[0], "readings": dumped[1:]}
    texts = [
        plain_entry(e).replace(f"Reference: {e.rule_url}", f"Reference: {_absolute(base, e.rule_url)}")
        for e in [entry, *readings]
    ]
    if readings:
        texts.insert(1, "Decided readings it rests on:")
    elif entry.kind is not Kind.DECISION:
        texts.append("No decided reading concerns it.")
    return Answer(data, [_text("\n\n".join(texts))])


def draw_position(args: dict[str, Any], base: str | None) -> Answer:
    data = read(RenderRequestSchema(), args)  # POST /v1/render's body and its view's work
    position = consistent(data["position"], "position")
    turn = data["turn"]
    verdict = None if turn is None else check(position, turn, data["history"], assume_consistent=True)
    svg = draw(position, verdict, data["highlight"])
    content: list[types.ContentBlock] = []
    if find_spec("resvg_py") is not None:
        png = draw(position, verdict, data["highlight"], width=PNG_WIDTH)
        content.append(types.ImageContent(type="image", data=base64.b64encode(png).decode(), mime_type="image/png"))
        note = "The board as PNG (above) and as SVG:"
    else:
        note = "The board as SVG (PNG needs resvg: pip install 'hexodic-checker[server]'):"
    what = "The board" if verdict is None else f"The board with the verdict on {turn_to_htn(turn)}: {verdict.summary}"
    content.append(_text(what, note, svg))
    return Answer({"svg": svg, "summary": None if verdict is None else verdict.summary}, content)


def permalink(args: dict[str, Any], base: str | None) -> Answer:
    data = read(CheckRequestSchema(), args)
    position = consistent(data["position"], "position")
    verdict = check(position, data["turn"])  # as the page judges it: from a bare position
    query = {"position": position_to_hpn(position), "turn": turn_to_htn(data["turn"])}
    url = link("/check", query, base)
    picture = link("/v1/render.png", query, base)
    lines = [url, f"{verdict.summary}", f"Picture: {picture}"]
    if base is None:
        lines.append("HEXODIC_PUBLIC_URL is not set: the links are relative to the checker service's address.")
    return Answer({"url": url, "picture": picture, "legal": verdict.legal, "summary": verdict.summary}, [_text(*lines)])


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    schema: dict[str, Any]
    run: Callable[[dict[str, Any], str | None], Answer]


@functools.cache
def tools() -> dict[str, Tool]:
    """Every tool, by name, in the order they are listed."""
    limit = {
        "type": "integer",
        "minimum": 1,
        "maximum": MAX_LIMIT,
        "default": DEFAULT_LIMIT,
        "description": f"At most this many turns in the answer (the count is always the full count); "
        f"default {DEFAULT_LIMIT}.",
    }
    listed = [
        Tool(
            "check_turn",
            "Check one turn",
            "Judge whether a Hexodic turn is legal from a position, rule by rule, as the official checker does "
            "(POST /v1/check). Give the position (HPN text or the JSON object) and the turn (HTN text such as "
            "'c3 +d4' or the JSON object); give history (the earlier positions, oldest first) to have repetition "
            "and threefold judged. The answer: legal or illegal, the summary, every rule's line (id, step, passed/"
            "failed/not applicable, message, link to the rule's text) and, for a legal turn, the position after, "
            "its events and the game's state. Quote the summary and the failed rule ids; never judge from memory.",
            request_schema("CheckRequest"),
            check_turn,
        ),
        Tool(
            "legal_turns",
            "List the legal turns",
            "Every legal turn of a position in canonical HTN, in the checker's order (POST /v1/legal-turns), "
            "with their count; optionally only those beginning with a given Project (and Shape). Use it to "
            "suggest a legal alternative to an illegal turn.",
            request_schema("LegalTurnsRequest", drop=("form",), add={"limit": limit}),
            legal_turns,
        ),
        Tool(
            "replay_game",
            "Replay a game",
            "Check and apply a game's turns in order (POST /v1/replay): a list of turns or one score sheet "
            "('1. c3 +d4 e5 +d4; ...'), from the start position or from start. The answer gives each turn's "
            "verdict up to the first illegal one (with its full rule-by-rule verdict), the final position, the "
            "result and how the game ended.",
            request_schema("ReplayRequest"),
            replay_game,
        ),
        Tool(
            "validate_position",
            "Validate a position",
            "Whether a position (HPN or JSON) is consistent: every position.* condition (D-3) with its message "
            "(POST /v1/validate). Use it when a position is disputed or a check_turn call says it is not consistent.",
            request_schema("ValidateRequest"),
            validate_position,
        ),
        Tool(
            "explain_rule",
            "Explain a rule",
            "The checker's full text of a rule id (as check_turn names them, e.g. place.opening-restriction), a "
            "capture kind, an end-of-game reason or a decided reading D-n, with the decided readings it rests on "
            "(the entries of GET /v1/rules). Quote it rather than paraphrasing the rules from memory.",
            _rule_schema(),
            explain_rule,
        ),
        Tool(
            "draw_position",
            "Draw the board",
            "The board as a picture (PNG) and as SVG text: tiers, stones, locks and cell names, and with turn "
            "its verdict drawn on it (the cells of failed checks highlighted; POST /v1/render).",
            request_schema("RenderRequest"),
            draw_position,
        ),
        Tool(
            "permalink",
            "Link to a verdict",
            "The link to the checker's /check page for a position and a turn, to share in a chat or a forum: "
            "the page shows the board, the verdict and every failed rule's text, and unfolds into a picture "
            "(the link's origin is the service's HEXODIC_PUBLIC_URL).",
            request_schema("CheckRequest", drop=("history",)),
            permalink,
        ),
    ]
    return {tool.name: tool for tool in listed}


def call(name: str, arguments: dict[str, Any] | None, base: str | None) -> Answer:
    """Run the tool ``name``; :class:`ToolError` for input it cannot use."""
    tool = tools().get(name)
    if tool is None:
        raise ToolError(f"There is no tool {name!r}; the tools are {', '.join(tools())}.")
    try:
        return tool.run(_arguments(arguments, tool.schema), base)
    except RequestError as exc:
        raise ToolError(exc.detail) from None


# ------------------------------------------------------------ resources ----

RULES_URI = "hexodic://rules"
VECTORS_URI = "hexodic://vectors"
VECTOR_TEMPLATE = "hexodic://vectors/{id}"
# The index's fields of each vector; the whole vector is at VECTOR_TEMPLATE.  The whole file (1.5 MB) would
# be one message larger than the SDK's HTTP client takes by default (1 MiB), and larger than an assistant's context.
INDEX_KEYS = ("id", "description", "legal", "violations")


def _resources() -> list[types.Resource]:
    return [
        types.Resource(
            name="rules",
            title="Hexodic rules reference",
            uri=RULES_URI,
            description="The rules the checker judges by: every rule id, capture kind, end-of-game reason and "
            f"decided reading with its full text (the page at {REFERENCE_PATH}), as Markdown.",
            mime_type="text/markdown",
        ),
        types.Resource(
            name="vectors",
            title="Conformance vectors (index)",
            uri=VECTORS_URI,
            description="The conformance vectors' index (GET /v1/vectors): a header line, then one line per vector "
            f"{{{', '.join(INDEX_KEYS)}}}; each whole vector (position, history, turn, answer) is at {VECTOR_TEMPLATE}.",
            mime_type="application/x-ndjson",
        ),
    ]


def _templates() -> list[types.ResourceTemplate]:
    return [
        types.ResourceTemplate(
            name="vector",
            title="One conformance vector",
            uri_template=VECTOR_TEMPLATE,
            description="One conformance vector by its id (as the index at hexodic://vectors lists them): "
            "{id, description, position, history, turn, legal, violations, after, game}, as in GET /v1/vectors.",
            mime_type="application/json",
        )
    ]


@functools.cache
def _vectors() -> tuple[str, dict[str, str]]:
    """The vectors' index (JSON Lines) and each vector's line by id, from the shipped file."""
    head, *lines = resources.files("checker.data").joinpath(SHIPPED).read_text(encoding="utf-8").splitlines()
    by_id = {}
    index = [head]
    for line in lines:
        vector = json.loads(line)
        by_id[vector["id"]] = line
        index.append(json.dumps({key: vector[key] for key in INDEX_KEYS}, ensure_ascii=False))
    return "\n".join(index) + "\n", by_id


def read_resource(uri: str) -> tuple[str, str]:
    """A resource's text and media type."""
    if uri == RULES_URI:
        return markdown(), "text/markdown"
    if uri == VECTORS_URI:
        return _vectors()[0], "application/x-ndjson"
    prefix = VECTOR_TEMPLATE.removesuffix("{id}")
    if uri.startswith(prefix):
        line = _vectors()[1].get(uri.removeprefix(prefix))
        if line is None:
            raise ToolError(f"uri: {uri!r} names no conformance vector; their ids are listed at {VECTORS_URI}.")
        return line, "application/json"
    raise ToolError(
        f"uri: there is no resource {uri!r}; the resources are {RULES_URI}, {VECTORS_URI} and {VECTOR_TEMPLATE}."
    )


# --------------------------------------------------------------- prompts ----

DISPUTE = "settle-a-dispute"


def _prompt() -> types.Prompt:
    return types.Prompt(
        name=DISPUTE,
        title="Settle a dispute",
        description="Settle whether a Hexodic turn is legal: the checker's verdict, rule by rule, with links.",
        arguments=[
            types.PromptArgument(name="position", description="The position: HPN text or JSON.", required=True),
            types.PromptArgument(
                name="turn", description="The disputed turn: HTN text such as 'c3 +d4'.", required=True
            ),
        ],
    )


def dispute(arguments: dict[str, str] | None) -> str:
    args = arguments or {}
    missing = [name for name in ("position", "turn") if not str(args.get(name, "")).strip()]
    if missing:
        raise ToolError(f"{', '.join(missing)}: Missing data for required argument.")
    return (
        "Two players disagree whether a Hexodic turn is legal.\n"
        f"Position: {args['position']}\n"
        f"Turn: {args['turn']}\n"
        "Call the check_turn tool with this position and turn; do not judge from memory. Answer with the "
        "verdict (legal or illegal) and its summary, then every failed check: its rule id, its message and "
        "its link. If a player asks why a rule says so, call explain_rule with the rule id and quote it. "
        "End with the permalink tool's link so both players can see the board."
    )


# ---------------------------------------------------------------- server ----


def build_server(base: str | None = None) -> Server[Any]:
    """The MCP server: its tools, resources and prompt; ``base`` is the public
    origin links are made absolute with (``HEXODIC_PUBLIC_URL``)."""

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=t.name,
                    title=t.title,
                    description=t.description,
                    input_schema=t.schema,
                    annotations=types.ToolAnnotations(
                        title=t.title, read_only_hint=True, idempotent_hint=True, open_world_hint=False
                    ),
                )
                for t in tools().values()
            ]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            answer = await anyio.to_thread.run_sync(call, params.name, params.arguments, base)
        except ToolError as exc:
            return types.CallToolResult(content=[_text(str(exc))], is_error=True)
        except Exception as exc:  # a bug in the checker: one line, no traceback
            line = f"internal error (a bug in the checker, please report it): {type(exc).__name__}: {exc}"
            sys.stderr.write(f"hexodic-check mcp: {params.name}: {line}\n")
            return types.CallToolResult(content=[_text(line)], is_error=True)
        return types.CallToolResult(content=answer.content, structured_content=answer.data)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=_resources())

    async def list_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=_templates())

    async def read(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        try:
            text, media = read_resource(str(params.uri))
        except ToolError as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc)) from None
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=str(params.uri), mime_type=media, text=text)]
        )

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[_prompt()])

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        try:
            if params.name != DISPUTE:
                raise ToolError(f"There is no prompt {params.name!r}; the prompt is {DISPUTE}.")
            text = dispute(params.arguments)
        except ToolError as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc)) from None
        return types.GetPromptResult(
            description="Settle whether a Hexodic turn is legal, with the checker's verdict.",
            messages=[types.PromptMessage(role="user", content=_text(text))],
        )

    return Server(
        NAME,
        version=PACKAGE_VERSION,
        title="Hexodic move-legality checker",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def serve_stdio(base: str | None = None) -> None:
    """Serve one client over stdin and stdout until stdin closes."""
    from mcp.server.stdio import stdio_server

    server = build_server(base)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


def serve_http(host: str, port: int, base: str | None = None) -> None:
    """Serve streamable HTTP at ``http://host:port/mcp`` until SIGTERM or SIGINT,
    then return (exit status 0, as gunicorn's).  The socket is bound first
    (:class:`OSError` when it cannot be), so the line saying where the server
    listens is true, and port 0 names the port chosen."""
    import signal
    import socket

    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.create_server((host, port), family=family)
    port = sock.getsockname()[1]
    app = build_server(base).streamable_http_app(host=host, stateless_http=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    where = f"[{host}]" if ":" in host else host
    sys.stderr.write(f"hexodic-check mcp: serving MCP over streamable HTTP at http://{where}:{port}/mcp\n")
    sys.stderr.flush()
    server = uvicorn.Server(config)

    def stop(signum: int, frame: Any) -> None:
        # Ours until uvicorn's own handlers take over, and again once they are put back: uvicorn raises the
        # signal it stopped for again then, which would end the process by that signal after a clean stop.
        if not server.should_exit:
            server.handle_exit(signum, frame)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    server.run(sockets=[sock])
