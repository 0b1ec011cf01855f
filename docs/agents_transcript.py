"""Rewrite the transcript in docs/agents.md: a dispute settled through ``hexodic-check mcp``.

Run from the repository root:

    .venv/bin/python docs/agents_transcript.py

Starts ``hexodic-check mcp`` over stdio (with ``HEXODIC_PUBLIC_URL`` set, as a
shared deployment has it) and speaks to it with the MCP Python SDK's own
client: it lists the tools, checks the disputed turn and asks for the text of
the rule it breaks, and writes what the client saw between the transcript
markers of docs/agents.md.  tests/test_mcp.py asks the same of its own server
through :func:`transcript` and holds the page equal to it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from checker.reference import RICH_HPN

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "agents.md"
BEGIN, END = "<!-- transcript: begin -->", "<!-- transcript: end -->"
PUBLIC = "https://check.hexodic.example"

# The dispute: A's stone on c3 was captured, so A's capture cooldown keeps A's next Place at least 2 steps from
# c3.  A says the cooldown skips A's Project this turn; B says A must Place elsewhere.
POSITION = RICH_HPN
TURN = "skip"


def _call(name: str, arguments: dict) -> str:
    return f"→ tools/call {name} {json.dumps(arguments, ensure_ascii=False)}"


def _answer(result) -> list[str]:
    text = "\n".join(block.text for block in result.content if block.type == "text")
    return [
        f"← isError: {str(bool(result.is_error)).lower()}",
        *(f"  {line}" if line else "" for line in text.splitlines()),
    ]


async def transcript(session: ClientSession) -> str:
    """The dispute settled through ``session`` (initialized), as the client saw it."""
    lines = ["→ tools/list"]
    tools = (await session.list_tools()).tools
    lines += [f"← {len(tools)} tools:", *(f"  {tool.name}: {tool.title}" for tool in tools), ""]
    check = {"position": POSITION, "turn": TURN}
    verdict = await session.call_tool("check_turn", check)
    structured = verdict.structured_content or {}
    lines += [_call("check_turn", check), *_answer(verdict)]
    lines += [
        f"  (structuredContent: legal {json.dumps(structured.get('legal'))}, "
        f"violations {json.dumps(structured.get('violations'))}, and every check as in POST /v1/check)",
        "",
    ]
    rule = {"id": structured["violations"][0]}
    lines += [_call("explain_rule", rule), *_answer(await session.call_tool("explain_rule", rule))]
    return "\n".join(lines) + "\n"


async def _run() -> str:
    command = str(Path(sys.executable).with_name("hexodic-check"))
    params = StdioServerParameters(command=command, args=["mcp"], env={**os.environ, "HEXODIC_PUBLIC_URL": PUBLIC})
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        return await transcript(session)


def block(page: str) -> str:
    """The transcript between the markers of ``page`` (inside its fence)."""
    inside = page.split(BEGIN, 1)[1].split(END, 1)[0]
    return inside.strip("\n").removeprefix("```text\n").removesuffix("```")


def main() -> None:
    page = PAGE.read_text(encoding="utf-8")
    head, rest = page.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    PAGE.write_text(f"{head}{BEGIN}\n```text\n{anyio.run(_run)}```\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    main()
