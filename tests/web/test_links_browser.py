"""Links in a real browser: the permalink pages with scripts off, their
og:image fetched and decoded, the playground's state round-tripping through
the address (reload, back, forward), a score sheet stepped through, Share,
and a conditional GET of a picture through the real gunicorn.

Headless Chromium against gunicorn on a loopback port, as in
test_playground.py (whose fixtures these tests use; they skip the same way).
Expected verdicts are worked out from RULES.md by hand:

- "d4 +c3" from the start: A's first Place on the centre breaks the opening
  restriction (RULES §4), the only failed check.
- the game "c3 +d4; e5 +d4; e5 +d5": turns 1 and 2 are legal first Places off
  the centre with raises of d4 (0 -> 1 -> 2); turn 3 Places on e5, which holds
  B's stone: place.empty fails and the game stops there.
"""

from __future__ import annotations

import http.client
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from bench.server import HOST
from checker.drawing.png import png_size
from tests.web.test_playground import AFTER_C3, START_HPN, Page, browser, expect, server  # noqa: F401  (fixtures)

GAME = "c3 +d4;e5 +d4;e5 +d5"


@pytest.fixture
def pg(browser, server):  # noqa: F811
    p = Page(browser, server)
    p.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.rstrip("/"))
    yield p
    p.context.close()
    assert p.errors == [], f"script errors on the page: {p.errors}"
    assert p.foreign == [], f"requests to other origins: {p.foreign}"


@pytest.fixture
def no_script(browser, server):  # noqa: F811
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def query(page) -> dict:
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}


def test_check_permalink_shows_the_verdict_with_scripts_off(no_script, server):  # noqa: F811
    page = no_script
    page.goto(server + "check?" + urlencode({"position": START_HPN, "turn": "d4 +c3"}))
    row = page.locator("tr[data-rule='place.opening-restriction']")
    assert row.get_attribute("data-status") == "failed"
    assert "\u2717" in row.inner_text() and "failed" in row.inner_text()
    assert page.locator("tr[data-status='failed']").count() == 1
    assert page.inner_text("h1").startswith("Illegal")
    assert page.locator("figure svg g.cell").count() == 37  # the board, drawn inline
    assert page.locator("a[href='/rules#place.opening-restriction']").count() >= 1
    # the og:image URL, as a forum would fetch it: an absolute URL of a PNG of the declared width
    image = page.get_attribute("meta[property='og:image']", "content")
    width = int(page.get_attribute("meta[property='og:image:width']", "content"))
    assert image.startswith(server + "v1/render.png?")
    resp = page.context.request.get(image)
    assert resp.status == 200 and resp.headers["content-type"] == "image/png"
    assert png_size(resp.body())[0] == width == 800
    small = page.context.request.get(image + "&size=320")
    assert png_size(small.body())[0] == 320


def test_game_permalink_shows_the_replay_with_scripts_off(no_script, server):  # noqa: F811
    page = no_script
    page.goto(server + "game?" + urlencode({"turns": GAME}))
    statuses = page.eval_on_selector_all("ol.turn-list li", "ls => ls.map(l => l.dataset.status)")
    assert statuses == ["passed", "passed", "failed"]
    assert page.locator("tr[data-rule='place.empty']").first.get_attribute("data-status") == "failed"
    assert "e5 holds B's stone" in page.inner_text("main")
    page.get_by_role("link", name="Previous").click()  # a plain link: no script needed
    assert query(page)["at"] == "2"
    assert "Turn 2" in page.inner_text("#chosen-heading")
    assert "Legal" in page.locator("section.result .verdict").inner_text()
    assert page.get_attribute("meta[property='og:image']", "content").startswith(server + "v1/render.png?")


def test_playground_state_round_trips_through_the_address(pg):
    pg.open()
    page = pg.page
    pg.click_cell("d4")
    pg.click_cell("c3")
    pg.check()
    assert query(page) == {"position": START_HPN, "turn": "d4 +c3"}
    page.reload()
    page.wait_for_selector("#result .verdict-box")
    pg.settle()
    assert pg.htn() == "d4 +c3"
    assert pg.statuses()["place.opening-restriction"] == "failed"
    assert page.input_value("#hpn") == START_HPN

    pg.load(AFTER_C3)
    expect(page.locator("#hpn")).to_have_value(AFTER_C3)
    assert query(page) == {"position": AFTER_C3}
    page.go_back()
    page.wait_for_selector("#result .verdict-box")
    pg.settle()
    assert page.input_value("#hpn") == START_HPN and pg.htn() == "d4 +c3"
    page.go_forward()
    expect(page.locator("#hpn")).to_have_value(AFTER_C3)
    pg.settle()
    assert "B to move" in page.inner_text("#position-status")


def test_score_sheet_loads_a_game_to_step_through_and_share(pg, server):  # noqa: F811
    pg.open()
    page = pg.page
    page.fill("#sheet", "1. c3 +d4\n2. e5 +d4\n3. e5 +d5")
    pg.press("Load game")
    page.wait_for_selector("#result .verdict-box")
    pg.settle()
    assert query(page) == {"turns": GAME, "at": "3"}  # opens the first illegal turn
    assert pg.htn() == "e5 +d5" and pg.statuses()["place.empty"] == "failed"
    assert "Turn 3 is illegal" in page.inner_text("#game-status")
    assert pg.button("Next").is_disabled() and pg.button("Last").is_disabled()

    pg.press("Previous")
    page.wait_for_selector("#result .verdict-box")
    assert query(page)["at"] == "2" and pg.htn() == "e5 +d4"
    assert "Legal" in page.inner_text("#verdict-head")
    assert "repetition and threefold are evaluated" in page.inner_text("#position-facts")  # history kept
    page.reload()
    page.wait_for_selector("#result .verdict-box")
    pg.settle()
    assert pg.htn() == "e5 +d4" and "e5 +d4" in page.locator("#record li[aria-current='step']").inner_text()
    page.go_back()
    expect(page.locator("#htn")).to_have_value("e5 +d5")
    pg.settle()

    pg.press("Share")
    link = page.inner_text("#share-url")
    assert link.startswith(server + "game?")
    assert {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()} == {"turns": GAME, "at": "3"}
    assert page.evaluate("navigator.clipboard.readText()") == link
    page.goto(link)
    assert page.locator("tr[data-rule='place.empty']").first.get_attribute("data-status") == "failed"


def test_a_checked_turn_shares_its_check_permalink(pg, server):  # noqa: F811
    pg.open()
    page = pg.page
    page.fill("#htn", "c3 +d4")
    pg.check()
    pg.press("Share")
    link = page.inner_text("#share-url")
    assert urlsplit(link).path == "/check"
    assert {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()} == {"position": START_HPN, "turn": "c3 +d4"}
    page.goto(link)
    assert page.inner_text("h1").startswith("Legal")


def test_a_conditional_get_of_a_picture_answers_304(server):  # noqa: F811
    port = urlsplit(server).port
    path = "/v1/render.png?" + urlencode({"position": START_HPN, "turn": "d4 +c3", "size": 200})
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        conn.request("GET", path)
        first = conn.getresponse()
        body = first.read()
        assert first.status == 200 and png_size(body)[0] == 200
        etag = first.getheader("ETag")
        assert first.getheader("Cache-Control") == "public, max-age=86400, immutable"
        conn.request("GET", path, headers={"If-None-Match": etag})
        again = conn.getresponse()
        assert again.status == 304 and again.read() == b"" and again.getheader("ETag") == etag
    finally:
        conn.close()
