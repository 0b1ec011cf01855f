"""``hexodic-check mcp``: the checker's MCP server, started as a subprocess and
spoken to with the MCP Python SDK's own client (``ClientSession`` over
``stdio_client``, and over ``streamable_http_client`` for ``--http``).

Every tool's answer is compared with the ``/v1`` answer for the same input
(the Flask app in-process), every tool is given bad input (a tool error
naming the field, no traceback), and clients go away in the middle of a call
(the stdio server ends cleanly, the HTTP server goes on serving).  One server
per transport for the module; each answer is asked once.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import anyio
import pytest
from anyio.from_thread import start_blocking_portal
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from checker.catalogue import ENTRIES
from checker.reference import RICH_HPN
from checker.tools import mcp_server
from checker.web import create_app, settings
from checker.web.pages import absolute
from tests.helpers import START_HPN

ROOT = Path(__file__).resolve().parents[1]
COMMAND = str(Path(sys.executable).with_name("hexodic-check"))
PUBLIC = "https://check.hexodic.example"
TOOLS = ["check_turn", "legal_turns", "replay_game", "validate_position", "explain_rule", "draw_position", "permalink"]
AFTER_C3 = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"


AGENTS = ROOT / "docs" / "agents.md"
_spec = importlib.util.spec_from_file_location("agents_transcript", ROOT / "docs" / "agents_transcript.py")
assert _spec is not None and _spec.loader is not None
TRANSCRIPT = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(TRANSCRIPT)


class Client:
    """A ``ClientSession`` held open in a portal's event loop, called from the test's thread."""

    def __init__(self, portal, session: ClientSession):
        self.portal, self.session = portal, session

    def __getattr__(self, name):
        method = getattr(self.session, name)
        return lambda *args, **kwargs: self.portal.call(lambda: method(*args, **kwargs))


def _session(portal, transport) -> tuple[Client, list]:
    """Enter ``transport`` and a session on it; the exits to undo it, in order."""
    streams_cm = portal.wrap_async_context_manager(transport)
    read, write = streams_cm.__enter__()[:2]
    session_cm = portal.wrap_async_context_manager(ClientSession(read, write))
    session = session_cm.__enter__()
    portal.call(session.initialize)
    return Client(portal, session), [session_cm, streams_cm]


@pytest.fixture(scope="module")
def app():
    return create_app({"TESTING": True, "PUBLIC_URL": PUBLIC})


@pytest.fixture(scope="module")
def v1(app):
    client = app.test_client()

    def post(path: str, body: dict):
        resp = client.post(path, json=body)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.get_json() if resp.mimetype == "application/json" else resp.get_data()

    return post


@pytest.fixture(scope="module")
def stdio(tmp_path_factory):
    """A session with ``hexodic-check mcp`` over stdio (no HEXODIC_PUBLIC_URL: relative links)."""
    errlog = (tmp_path_factory.mktemp("mcp") / "stderr.txt").open("w+")
    params = StdioServerParameters(command=COMMAND, args=["mcp"], cwd=ROOT)
    with start_blocking_portal() as portal:
        client, exits = _session(portal, stdio_client(params, errlog=errlog))
        client.errlog = errlog
        yield client
        for cm in exits:
            cm.__exit__(None, None, None)
    errlog.seek(0)
    assert "Traceback" not in errlog.read()


def _start_http(tmp_path: Path, *env: tuple[str, str]) -> tuple[subprocess.Popen, str]:
    err = (tmp_path / "http-stderr.txt").open("w+")
    proc = subprocess.Popen(
        [COMMAND, "mcp", "--http", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=err,
        cwd=tmp_path,
        env={**os.environ, **dict(env)},
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        err.seek(0)
        m = re.search(r"at (http://\S+/mcp)\n", err.read())
        if m:
            return proc, m.group(1)
        assert proc.poll() is None, "the server ended before it listened"
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the HTTP server did not say where it listens")


@pytest.fixture(scope="module")
def http_server(tmp_path_factory):
    """``hexodic-check mcp --http 127.0.0.1:0`` with HEXODIC_PUBLIC_URL set; stopped by SIGTERM."""
    tmp = tmp_path_factory.mktemp("mcp-http")
    proc, url = _start_http(tmp, ("HEXODIC_PUBLIC_URL", PUBLIC + "/"))
    yield proc, url
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    log = (tmp / "http-stderr.txt").read_text()
    assert "Traceback" not in log, log


@pytest.fixture(scope="module")
def http(http_server):
    _, url = http_server
    with start_blocking_portal() as portal:
        client, exits = _session(portal, streamable_http_client(url))
        yield client
        for cm in exits:
            cm.__exit__(None, None, None)


@pytest.fixture(params=["stdio", "http"])
def session(request):
    return request.getfixturevalue(request.param)


def _ok(result) -> dict:
    assert not result.is_error, result.content[0].text
    return result.structured_content


def _text(result) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


# ------------------------------------------------------------------ tools ----


def test_the_tools_are_listed_with_the_contracts_input_schemas(session):
    listed = {tool.name: tool for tool in session.list_tools().tools}
    assert list(listed) == TOOLS
    schemas = json.loads((ROOT / "checker" / "data" / "requests.schema.json").read_text())["$defs"]
    check = listed["check_turn"].input_schema
    assert check["properties"] == schemas["CheckRequest"]["properties"]
    assert check["required"] == ["position", "turn"] and "PositionObject" in check["$defs"]
    assert listed["replay_game"].input_schema["properties"] == schemas["ReplayRequest"]["properties"]
    assert listed["validate_position"].input_schema["properties"] == schemas["ValidateRequest"]["properties"]
    assert listed["draw_position"].input_schema["properties"] == schemas["RenderRequest"]["properties"]
    legal = listed["legal_turns"].input_schema["properties"]
    assert set(legal) == set(schemas["LegalTurnsRequest"]["properties"]) - {"form"} | {"limit"}
    assert set(listed["permalink"].input_schema["properties"]) == {"position", "turn"}
    assert listed["explain_rule"].input_schema["properties"]["id"]["enum"] == list(ENTRIES)
    for tool in listed.values():
        assert tool.input_schema["type"] == "object" and len(tool.description) > 80
        assert tool.annotations.read_only_hint is True


CHECKS = [
    {"position": START_HPN, "turn": "d4 +c3"},  # the opening restriction
    {"position": START_HPN, "turn": "c3 +d4"},
    {"position": AFTER_C3, "turn": "e5 +d4", "history": [START_HPN]},
    {
        "position": START_HPN,
        "turn": {"project": {"kind": "place", "cell": "c2"}, "shape": {"kind": "raise", "cell": "b3"}},
    },
    {"position": RICH_HPN, "turn": "skip"},
]


@pytest.mark.parametrize("body", CHECKS, ids=lambda b: str(b["turn"])[:20])
def test_check_turn_answers_as_post_v1_check(session, v1, body):
    result = session.call_tool("check_turn", body)
    answer = _ok(result)
    assert answer == v1("/v1/check", body)
    text = _text(result)
    assert text.startswith(answer["summary"])
    for check in answer["checks"]:  # every rule's line: id, step, message and link
        assert f"{check['rule']} ({check['step']}): {check['message']}" in text
        assert check["rule_url"] in text


def test_check_turn_links_are_absolute_with_the_public_url(http):
    text = _text(http.call_tool("check_turn", CHECKS[0]))
    assert f" {PUBLIC}/rules#place.opening-restriction" in text


def test_legal_turns_answers_as_post_v1_legal_turns(session, v1):
    full = v1("/v1/legal-turns", {"position": START_HPN, "form": "htn"})
    answer = _ok(session.call_tool("legal_turns", {"position": START_HPN, "limit": 7}))
    assert answer == {**full, "turns": full["turns"][:7], "truncated": True}
    body = {"position": RICH_HPN, "project": "skip"}
    full = v1("/v1/legal-turns", {**body, "form": "htn"})
    assert _ok(session.call_tool("legal_turns", body)) == {**full, "truncated": False}


def test_replay_game_answers_as_post_v1_replay(session, v1):
    body = {"turns": "1. c3 +d4 e5 +d4; 2. e5 +d5"}
    answer = _ok(session.call_tool("replay_game", body))
    turns = answer.pop("turns")
    served = v1("/v1/replay", body)
    assert answer == served
    assert [t["legal"] for t in turns] == [True, True, False] and len(turns) == served["checked"]
    assert turns[-1]["summary"] == served["first_illegal"]["verdict"]["summary"]
    assert turns[0]["summary"] == v1("/v1/check", {"position": START_HPN, "turn": "c3 +d4"})["summary"]


def test_validate_position_answers_as_post_v1_validate(session, v1):
    for hpn in (START_HPN, START_HPN.replace(" 0", " 5")):  # consistent; half-moves that the stones contradict
        assert _ok(session.call_tool("validate_position", {"position": hpn})) == v1("/v1/validate", {"position": hpn})


def test_explain_rule_gives_the_v1_rules_entry_and_its_readings(session, app):
    catalogue = {e["id"]: e for e in app.test_client().get("/v1/rules").get_json()}
    result = session.call_tool("explain_rule", {"id": "project.skip"})
    answer = _ok(result)
    assert answer["entry"] == catalogue["project.skip"]
    assert [r["id"] for r in answer["readings"]] == ["D-4", "D-5"]
    assert answer["readings"][0] == catalogue["D-4"]
    assert catalogue["project.skip"]["text"] in _text(result) and catalogue["D-5"]["text"] in _text(result)
    assert _ok(session.call_tool("explain_rule", {"id": "d-10"}))["entry"] == catalogue["D-10"]


def test_draw_position_gives_the_png_and_the_svg_of_v1_render(session, app, v1):
    body = {"position": START_HPN, "turn": "d4 +c3"}
    result = session.call_tool("draw_position", body)
    assert not result.is_error
    image, text = result.content
    assert image.type == "image" and image.mime_type == "image/png"
    query = {"position": START_HPN, "turn": "d4 +c3"}
    png = app.test_client().get("/v1/render.png", query_string=query)
    assert png.status_code == 200 and base64.b64decode(image.data) == png.get_data()
    svg = v1("/v1/render", body).decode()
    assert result.structured_content["svg"] == svg and text.text.endswith(svg)


def test_permalink_is_the_check_pages_own_link(session, http, app):
    body = {"position": AFTER_C3, "turn": "e5 +d4 *e5"}
    with app.test_request_context():
        page = absolute("pages.check_page", position=AFTER_C3, turn="e5 +d4 *e5")
    assert _ok(http.call_tool("permalink", body))["url"] == page  # HEXODIC_PUBLIC_URL set
    answer = _ok(session.call_tool("permalink", body))
    path = page[len(PUBLIC) :] if answer["url"].startswith("/") else page
    assert answer["url"] == path
    relative = urlsplit(page)
    resp = app.test_client().get(f"{relative.path}?{relative.query}")
    assert resp.status_code == 200 and answer["summary"] in resp.get_data(as_text=True)


# -------------------------------------------------------------- bad input ----

BAD = [
    ("check_turn", {"position": START_HPN, "turn": "z9 +d4"}, "turn: HTN: 'z9': z9 is not a cell"),
    ("check_turn", {"position": START_HPN}, "turn: Missing data for required field"),
    ("check_turn", {"position": START_HPN.replace(" 0", " 7"), "turn": "c3 +d4"}, "position: half_moves is 7"),
    ("legal_turns", {"position": START_HPN, "limit": 0}, "limit: Must be an integer from 1 to"),
    ("legal_turns", {"position": START_HPN, "form": "objects"}, "form: Unknown field"),
    ("replay_game", {"turns": 5}, "turns: Expected a list of turns or a score sheet"),
    ("replay_game", {"turns": "c3 +d4", "start": "nonsense"}, "start: HPN: "),
    ("validate_position", {"position": ["a1"]}, "position: Expected a JSON object or an HPN string"),
    ("explain_rule", {"id": "place.nowhere"}, "id: 'place.nowhere' is no rule id"),
    ("explain_rule", {}, "id: Missing data for required field"),
    ("draw_position", {"position": START_HPN, "highlight": ["z9"]}, "highlight: 'z9' is not a cell"),
    ("permalink", {"position": START_HPN, "turn": "c3 +d4", "history": []}, "history: Unknown field"),
    ("no_such_tool", {}, "There is no tool 'no_such_tool'"),
]


@pytest.mark.parametrize("tool, arguments, says", BAD, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(BAD)])
def test_bad_input_is_a_tool_error_naming_the_field(session, tool, arguments, says):
    result = session.call_tool(tool, arguments)
    assert result.is_error
    text = _text(result)
    assert text.startswith(says) and "Traceback" not in text and "\n" not in text  # the field first, one line
    assert not session.call_tool("validate_position", {"position": START_HPN}).is_error  # and the server goes on


def test_the_resources_and_the_prompt(session):
    uris = [str(r.uri) for r in session.list_resources().resources]
    assert uris == ["hexodic://rules", "hexodic://vectors"]
    rules = session.read_resource("hexodic://rules").contents[0]
    assert rules.mime_type == "text/markdown" and rules.text == (ROOT / "docs" / "rules.md").read_text()
    (template,) = session.list_resource_templates().resource_templates
    assert template.uri_template == "hexodic://vectors/{id}"
    head, *lines = (ROOT / "checker" / "data" / "vectors.jsonl").read_text().splitlines()
    shipped = [json.loads(line) for line in lines]
    index = session.read_resource("hexodic://vectors").contents[0].text.splitlines()
    assert index[0] == head and len(index) == len(lines) + 1
    assert [json.loads(line) for line in index[1:]] == [
        {k: v[k] for k in ("id", "description", "legal", "violations")} for v in shipped
    ]
    for n in (0, len(lines) // 2, -1):  # a whole vector, as the file has it
        one = session.read_resource(f"hexodic://vectors/{shipped[n]['id']}").contents[0]
        assert one.mime_type == "application/json" and one.text == lines[n]
    with pytest.raises(MCPError, match="uri: 'hexodic://vectors/no-such-vector' names no conformance vector"):
        session.read_resource("hexodic://vectors/no-such-vector")
    (prompt,) = session.list_prompts().prompts
    assert prompt.name == "settle-a-dispute" and [a.name for a in prompt.arguments] == ["position", "turn"]
    message = session.get_prompt("settle-a-dispute", {"position": START_HPN, "turn": "d4 +c3"}).messages[0]
    assert "check_turn" in message.content.text and START_HPN in message.content.text
    with pytest.raises(MCPError, match="turn: Missing data for required argument"):
        session.get_prompt("settle-a-dispute", {"position": START_HPN})


# -------------------------------------------------------------- going away ----


def _line(proc, message: dict) -> None:
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def test_a_stdio_client_that_goes_away_mid_call_leaves_the_server_ending_cleanly(tmp_path):
    """The client sends a call and closes the pipe before the answer: the server ends, status 0, no traceback."""
    err = (tmp_path / "stderr.txt").open("w+")
    proc = subprocess.Popen([COMMAND, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, cwd=tmp_path)
    try:
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
        _line(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
        assert json.loads(proc.stdout.readline())["id"] == 1
        _line(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = {"name": "draw_position", "arguments": {"position": RICH_HPN, "turn": "skip"}}
        _line(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
        proc.stdin.close()  # gone, the PNG still being drawn
        proc.stdout.close()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    err.seek(0)
    assert "Traceback" not in err.read()


def test_an_http_client_that_goes_away_mid_call_leaves_the_server_serving(http_server):
    proc, url = http_server

    async def leave_mid_call() -> None:
        async with streamable_http_client(url) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            with anyio.move_on_after(0.01) as scope:
                await s.call_tool("draw_position", {"position": RICH_HPN, "turn": "skip"})
        return scope.cancelled_caught

    assert anyio.run(leave_mid_call)  # gone before the answer came

    async def ask() -> dict:
        async with streamable_http_client(url) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            return (await s.call_tool("check_turn", CHECKS[1])).structured_content

    assert anyio.run(ask)["legal"] is True
    assert proc.poll() is None


# ------------------------------------------------------------- the command ----


@pytest.mark.parametrize(
    "argv, env, says",
    [
        (["--http", "nohost:port"], {}, "--http: 'nohost:port' is not HOST:PORT"),
        (["--http", "127.0.0.1:70000"], {}, "is not HOST:PORT"),
        ([], {"HEXODIC_PUBLIC_URL": "https://x.org/path"}, "HEXODIC_PUBLIC_URL='https://x.org/path' is not allowed"),
    ],
)
def test_the_command_refuses_bad_settings_in_one_line(tmp_path, argv, env, says):
    proc = subprocess.run(
        [COMMAND, "mcp", *argv],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, **env},
    )
    assert proc.returncode == 2 and proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith("hexodic-check: error: ") and says in line


def test_a_port_in_use_is_one_line(http_server, tmp_path):
    _, url = http_server
    port = urlsplit(url).port
    proc = subprocess.run(
        [COMMAND, "mcp", "--http", f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert proc.returncode == 2
    (line,) = proc.stderr.splitlines()
    assert line.startswith(f"hexodic-check: error: --http: cannot listen on 127.0.0.1:{port}")


@pytest.mark.parametrize(
    "raw, origin",
    [
        (" https://a.example:8443/ ", "https://a.example:8443"),
        ("", None),
        ("ftp://a.example", "refused: HEXODIC_PUBLIC_URL='ftp://a.example' is not allowed: an origin such as"),
        ("https://x.org/p", "refused: HEXODIC_PUBLIC_URL='https://x.org/p' is not allowed: an origin such as"),
    ],
)
def test_the_public_url_is_read_as_the_service_reads_it(raw, origin):
    """The same origin, or the same one-line refusal, as the service's settings."""
    env = {"HEXODIC_PUBLIC_URL": raw}

    def read(how, error):
        try:
            return how(env)
        except error as exc:
            return f"refused: {exc}"

    ours = read(mcp_server.public_url, ValueError)
    assert ours == read(lambda e: settings.from_env(e)["PUBLIC_URL"], settings.SettingError)
    assert ours == origin or (ours.startswith(origin) and "\n" not in ours)


# ------------------------------------------------------- docs/agents.md ----


def test_the_agents_page_transcript_is_what_the_server_answers(http):
    """docs/agents.md's transcript, asked again of the HTTP server (HEXODIC_PUBLIC_URL set, as the script has it)."""
    assert TRANSCRIPT.PUBLIC == PUBLIC
    shown = TRANSCRIPT.block(AGENTS.read_text(encoding="utf-8"))
    assert shown == http.portal.call(TRANSCRIPT.transcript, http.session)
    listed = re.findall(r"^  ([a-z_]+): ", shown.split("\n\n", 1)[0], re.M)
    assert listed == [tool.name for tool in http.list_tools().tools] == TOOLS
    assert "✗ project.skip (Step 1/2: Place): " in shown and "→ tools/call explain_rule" in shown


def test_the_agents_page_configurations_tools_and_errors_are_the_servers():
    page = AGENTS.read_text(encoding="utf-8")
    stdio, http = (json.loads(b)["mcpServers"]["hexodic"] for b in re.findall(r"```json\n(.*?)```", page, re.S))
    assert stdio["command"] == "hexodic-check" and stdio["args"] == ["mcp"]
    assert http == {"type": "http", "url": "http://127.0.0.1:8765/mcp"}
    assert (
        "hexodic-check mcp --http 127.0.0.1:8765\n# hexodic-check mcp: serving MCP over streamable HTTP at "
        + http["url"]
        in page
    )
    table = page.split("## The tools", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"^\| `([a-z_]+)` \| ", table, re.M) == TOOLS
    errors = re.findall(r"^\| `([a-z_]+)` \| `(\{.*\})` \| `(.+)` \|$", page, re.M)
    assert len(errors) == 5
    for tool, arguments, says in errors:
        with pytest.raises(mcp_server.ToolError) as caught:
            mcp_server.call(tool, json.loads(arguments.replace("START", json.dumps(START_HPN))), None)
        assert str(caught.value) == says
