"""One score-sheet reader everywhere (issue 26): the same text gives the same
turns through the API (/v1/replay's text form), the command line
(hexodic-check replay), the archive audit, the /game page and the playground
(which sends the sheet as pasted to the server and shows what it read: the
page has no reader of its own, issue 35).  The server is the real gunicorn on
loopback."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import quote

import orjson
import pytest

from bench.browser import CHROMIUM, CHROMIUM_ARGS
from bench.server import running_gunicorn
from checker.tools.audit.records import judge
from checker.tools.cli import main
from tests.web.test_playground import _missing_browser, expect

# Move numbers (1. and 2...), two turns to a line, ';' and a line break, spaces and a tab.
SHEET = "1. c2 +b3 e3 +f3\n2. c3 +d4; 2... e5\t+d4\n3. a1 +a2"
# Read by hand: five turns, A's and B's alternately; every one legal from the start
# (RULES §4: the first Places are off the centre, every other cell empty and unlocked;
# each Shape raises a cell within 2 steps of the landing cell).
TURNS = ["c2 +b3", "e3 +f3", "c3 +d4", "e5 +d4", "a1 +a2"]


@pytest.fixture(scope="module")
def base():
    reason = _missing_browser()
    if reason:
        pytest.skip(f"the score-sheet browser tests need headless Chromium: {reason}")
    with running_gunicorn(GUNICORN_ACCESS_LOG="") as srv:
        yield srv.base


@pytest.fixture(scope="module")
def page(base):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            p = browser.new_page()
            p.set_default_timeout(15_000)
            errors: list[str] = []
            p.on("pageerror", lambda e: errors.append(str(e)))
            p.goto(base + "/")
            p.wait_for_selector("#board-view g.cell[data-cell='d4']")
            yield p
            assert errors == []
        finally:
            browser.close()


def _http_json(base: str, path: str, body: dict) -> dict:
    import urllib.request

    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_one_sheet_gives_the_same_turns_through_all_five(base, page, tmp_path, capsys):
    # 1. the API: /v1/replay takes the score sheet as text, and judges what the list of TURNS gives
    api = _http_json(base, "/v1/replay", {"turns": SHEET})
    assert api["legal"] and api["checked"] == len(TURNS)
    assert api == _http_json(base, "/v1/replay", {"turns": TURNS})
    # 2. the command line: a score-sheet file, the same body with --json, each turn listed without it
    path = tmp_path / "game.txt"
    path.write_text("# the game\n" + SHEET + "\n", encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == api
    assert main(["replay", str(path)]) == 0
    listed = re.findall(r"^\d+\. [AB] (.+) ✓$", capsys.readouterr().out, re.M)
    assert listed == TURNS
    # 3. the archive audit: a record whose turns are the score sheet
    row = judge(orjson.dumps({"id": 1, "turns": SHEET, "result": None}), "archive.jsonl", 1)
    assert (row["status"], row["checked"]) == ("ok", len(TURNS))
    # 4. the /game permalink page
    import urllib.request

    with urllib.request.urlopen(f"{base}/game?turns={quote(SHEET, safe='')}", timeout=10) as answer:
        text = answer.read().decode()
    listed = re.findall(r'<ol class="turn-list">(.*?)</ol>', text, re.S)[0]
    assert [html.unescape(t) for t in re.findall(r"<code>([^<]*)</code>", listed)] == TURNS
    # 5. the playground: the game loaded from its address, each turn checked by the server
    page.goto(f"{base}/?turns={quote(SHEET, safe='')}")
    page.wait_for_selector("#game-status")
    # Not wait_for_function: its string predicate is eval'd in the page when it has to poll, and the
    # page's Content-Security-Policy (script-src 'self') rightly refuses eval (CI failed so, stop 45).
    expect(page.locator("#sheet")).to_have_value("\n".join(TURNS))
    page.wait_for_selector("body:not([data-busy])", state="attached")
    assert page.input_value("#sheet").split("\n") == TURNS


def test_a_sheet_that_does_not_read_says_where_in_the_playground(base, page):
    page.goto(base + "/")
    page.wait_for_selector("#board-view g.cell[data-cell='d4']")
    page.fill("#sheet", "1. c3 +d4\n2. e5 +d9")
    page.click("#load-game")
    status = page.locator("#game-status")
    status.get_by_text("line 2, column 4").wait_for()
    assert "Score sheet: line 2, column 4 ('e5 +d9')" in status.inner_text()
