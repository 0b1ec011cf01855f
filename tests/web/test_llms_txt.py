"""GET /llms.txt: the llmstxt.org file for assistants and agents."""

from __future__ import annotations

import re

from checker.version import RULES_VERSION

LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def test_llms_txt_has_the_llmstxt_layout(client):
    resp = client.get("/llms.txt")
    assert resp.status_code == 200 and resp.content_type == "text/plain; charset=utf-8"
    lines = resp.get_data(as_text=True).splitlines()
    # llmstxt.org: an H1 title first, then a blockquote summary, then prose, then H2 sections of link lists
    assert lines[0] == "# Hexodic move-legality checker"
    assert lines[1] == "" and lines[2].startswith("> ") and RULES_VERSION in lines[2]
    assert [line for line in lines if line.startswith("#")][1:] == ["## Docs", "## MCP", "## Optional"]
    sections = lines[lines.index("## Docs") :]
    assert all(line == "" or line.startswith(("## ", "- ")) for line in sections)


def test_every_link_of_llms_txt_answers(client):
    text = client.get("/llms.txt").get_data(as_text=True)
    links = [href for _, href in LINK.findall(text)]
    assert {"/rules", "/docs", "/openapi.yaml"} <= set(links)
    for href in links:
        assert client.get(href).status_code == 200, href


def test_llms_txt_names_the_mcp_command_every_tool_and_the_guide(client):
    text = client.get("/llms.txt").get_data(as_text=True)
    assert "`hexodic-check mcp`" in text and "--http" in text and "docs/agents.md" in text
    from checker.tools.mcp_server import tools

    missing = [name for name in tools() if name not in text]
    assert missing == []
