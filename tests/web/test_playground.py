"""The playground page at ``/``.

Two kinds of tests:

- Flask test-client tests (always run): the page and its assets, their
  content types, that nothing is loaded from elsewhere, the labelled controls.
- End-to-end tests in headless Chromium (Playwright for Python) against the
  real gunicorn on a free loopback port.  They skip, saying what to install,
  when /usr/bin/chromium or the playwright package is missing.  Only
  127.0.0.1 is ever contacted.

Expected positions and verdicts are worked out from RULES.md by hand (see the
comments).  ``HEXODIC_REQUIRE_BROWSER=1`` turns the skip into a failure (for CI).  The main scenario takes a screenshot; with
``HEXODIC_UPDATE_SCREENSHOTS=1`` it is also written to docs/playground.png.
"""

from __future__ import annotations

import importlib.util
import os
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest

from bench.browser import CHROMIUM, CHROMIUM_ARGS
from bench.server import ROOT, running_gunicorn

SCREENSHOT = ROOT / "docs" / "playground.png"
UI_TIMEOUT_MS = 10_000

START_HPN = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
# After A's "c3 +d4" from the start (RULES §4, §5, §10): A's stone on c3 (tier 0; in row c "0A" is the 3rd of
# 6 cells), d4 raised 0 -> 1 (the 4th of row d's 7 cells); A: reserve 7 - 1 = 6, 3 charges, 6 lowers left,
# 0 captures, 1 raise, first Place made (P), no cooldown; B unchanged; half-move 1, so B to move.
AFTER_C3 = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"
# Tiers add up to 2 (g7 is tier 2) but no Shape was ever made: breaks position.tier-sum (D-3).
TIER_SUM_BROKEN = "0000/00000/000000/0000000/000000/00000/0002 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
# Every stone on the board, no Shape made: A on a1-a4, b1-b3; B on f5-f7, g4-g7 (7 each, reserve 0);
# 7 turns each, so half-move 14 and A to move; tiers all 0 = 0 raises - 0 lowers.
ALL_PLACED = "0A0A0A0A/0A0A0A00/000000/0000000/000000/000B0B0B/0B0B0B0B A 0:3:6:0:0:P:- 0:3:6:0:0:P:- 14"
# After A's "b3-c3 +c4" there: b3 emptied, A's stone on c3, c4 raised 0 -> 1; A 1 raise; half-move 15, B to move.
ALL_PLACED_AFTER = "0A0A0A0A/0A0A000/000A100/0000000/000000/000B0B0B/0B0B0B0B B 0:3:6:0:1:P:- 0:3:6:0:0:P:- 15"

CELL_NAMES = [f"{r}{c}" for i, r in enumerate("abcdefg", 1) for c in range(1, 8) if abs(i - c) <= 3]


def steps(a: str, b: str) -> int:
    """RULES §1: max(|di|, |dj|, |di - dj|)."""
    di = "abcdefg".index(a[0]) - "abcdefg".index(b[0])
    dj = int(a[1]) - int(b[1])
    return max(abs(di), abs(dj), abs(di - dj))


# --------------------------------------------------------------------- the page, via the test client --


class _Refs(HTMLParser):
    """Every URL-bearing attribute of the page, and its form controls."""

    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.tags: list[tuple[str, dict]] = []
        self.labels_for: set[str] = set()
        self._open: list[str] = []
        self.texts: dict[int, str] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        for name in ("src", "href", "action", "formaction", "poster", "data", "srcset"):
            if a.get(name) is not None:
                self.refs.append((tag, name, a[name]))
        if tag == "label" and a.get("for"):
            self.labels_for.add(a["for"])
        self._open.append(tag)

    def handle_endtag(self, tag):
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data):
        key = len(self.tags) - 1
        self.texts[key] = self.texts.get(key, "") + data


def _parse(html: str) -> _Refs:
    p = _Refs()
    p.feed(html)
    return p


def _assets(refs: _Refs) -> dict[str, str]:
    """URL -> tag of every asset the page loads (scripts, stylesheets, icons)."""
    out = {}
    for tag, attr, value in refs.refs:
        if (tag, attr) in {("script", "src"), ("link", "href"), ("img", "src")}:
            out[value] = tag
    return out


def test_page_is_html_and_references_only_local_assets(client):
    resp = client.get("/")
    assert resp.status_code == 200
    assert resp.mimetype == "text/html"
    assert resp.mimetype_params.get("charset") == "utf-8"
    html = resp.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html
    refs = _parse(html)
    assets = _assets(refs)
    assert "script" in assets.values() and "link" in assets.values()
    for tag, attr, value in refs.refs:
        parts = urlsplit(value)
        # no other host, no scheme but an inline data: icon
        assert parts.netloc == "" and not value.startswith("//"), (tag, attr, value)
        assert parts.scheme in ("", "data"), (tag, attr, value)
    # no inline script or style: the CSP below forbids them
    assert "<style" not in html
    assert all(not (t == "script" and "src" not in a) for t, a in refs.tags)
    assert all("style" not in a for _, a in refs.tags)


MODULES = ("playground.js", "view.js", "calls.js", "board.js", "turn.js", "game.js", "share.js")
"""The playground's ES modules: playground.js is the page's one script, the others its imports."""


def test_assets_answer_200_with_their_content_types(client):
    refs = _parse(client.get("/").get_data(as_text=True))
    seen = set()
    for url in _assets(refs):
        if url.startswith("data:"):
            continue
        path = urljoin("/", url)  # how a browser resolves it against "/"
        resp = client.get(path)
        assert resp.status_code == 200, path
        expected = "text/javascript" if path.endswith(".js") else "text/css"
        assert resp.mimetype == expected, (path, resp.mimetype)
        assert resp.mimetype_params.get("charset") == "utf-8"
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        body = resp.get_data(as_text=True)
        assert len(body) > 200  # a real file (noscript.css, the smallest, is one rule and its comment)
        # the assets load nothing from elsewhere either
        assert not re.search(r"https?://", body), path
        assert "@import" not in body and "url(" not in body
        seen.add(path)
    assert seen == {
        "/static/playground/theme.css",
        "/static/playground/playground.css",
        "/static/playground/noscript.css",  # linked inside <noscript>
        *(f"/static/playground/{name}" for name in MODULES),  # the script and its imports, preloaded
    }


def test_the_script_is_small_es_modules_each_imported_from_beside_it(client):
    """One module script (no build step, no framework); every module it imports, directly or not, is
    served beside it, preloaded by the page, and at most 300 lines long."""
    html = client.get("/").get_data(as_text=True)
    refs = _parse(html)
    scripts = [a for t, a in refs.tags if t == "script"]
    assert scripts == [{"type": "module", "src": "static/playground/playground.js"}]
    preloaded = {a["href"].rsplit("/", 1)[1] for t, a in refs.tags if t == "link" and a.get("rel") == "modulepreload"}
    found, todo = set(), ["playground.js"]
    while todo:
        name = todo.pop()
        found.add(name)
        text = client.get(f"/static/playground/{name}").get_data(as_text=True)
        assert text.count("\n") <= 300, f"{name}: {text.count(chr(10))} lines"
        for imported in re.findall(r'^import [^;]*? from "\./([a-z]+\.js)";$', text, re.M):
            if imported not in found:
                todo.append(imported)
    assert found == set(MODULES)
    assert preloaded == found - {"playground.js"}


def test_page_forbids_other_origins(client):
    csp = client.get("/").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["form-action"] == "'self'"  # the <noscript> form to /check
    assert "http" not in csp and "*" not in csp


def test_page_and_assets_are_package_data(client):
    from importlib import resources

    static = resources.files("checker.web").joinpath("static")
    for name in ("index.html", "theme.css", "playground.js", "playground.css"):
        assert static.joinpath(name).read_bytes()
    served = client.get("/static/playground/playground.js").get_data()
    assert served == static.joinpath("playground.js").read_bytes()
    assert 'checker = ["data/*.jsonl", "web/static/*", "web/templates/*"]' in (ROOT / "pyproject.toml").read_text()


def test_unknown_assets_are_404_problems(client):
    for path in (
        "/static/playground/index.html.bak",
        "/static/playground/playground.py",
        "/static/playground/..%2fplayground.py",
        "/static/playground/%2e%2e/api.py",
    ):
        resp = client.get(path)
        assert resp.status_code == 404, path
        assert resp.mimetype == "application/problem+json", path


def test_assets_revalidate_with_etags(client):
    first = client.get("/static/playground/playground.css")
    etag = first.headers["ETag"]
    again = client.get("/static/playground/playground.css", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""


def test_every_control_is_a_labelled_button_or_input(client):
    html = client.get("/").get_data(as_text=True)
    refs = _parse(html)
    buttons = {}
    for i, (tag, attrs) in enumerate(refs.tags):
        if tag == "button":
            buttons[refs.texts.get(i, "").strip()] = attrs
    for name in ("Check", "Clear turn", "Show legal turns", "Play on", "Start position", "Load position"):
        assert name in buttons, name
        assert buttons[name].get("type") in ("button", "submit")
    # the text inputs have a <label for>; radios sit inside their <label> with text (checked by regex)
    for tag, attrs in refs.tags:
        if tag == "input" and attrs.get("type") == "text":
            assert attrs["id"] in refs.labels_for, attrs
    for value in ("raise", "lower", "none", "capture", "lock"):
        assert re.search(rf'<label><input type="radio" name="[a-z-]+" value="{value}"[^>]*> [^<]+</label>', html)
    # one live region: the one-line status (role=status); the verdict's table is not re-read at each Check
    assert not any(a.get("aria-live") for _, a in refs.tags)
    assert [a.get("id") for _, a in refs.tags if a.get("role") == "status"] == ["message"]
    # no clickable <div>/<span>: nothing but buttons, inputs and links carries an onclick or a tabindex >= 0
    for tag, attrs in refs.tags:
        assert "onclick" not in attrs
        if "tabindex" in attrs:
            assert int(attrs["tabindex"]) < 0 or tag in ("button", "input", "a")


# --------------------------------------------------------------------------------- in a real browser --


def _missing_browser() -> str | None:
    missing = []
    if not os.access(CHROMIUM, os.X_OK):
        missing.append(f"{CHROMIUM} is missing: install it with `apt-get install chromium chromium-driver`")
    if importlib.util.find_spec("playwright") is None:
        missing.append(
            "the playwright package is missing: install it with `.venv/bin/pip install playwright` "
            "(do not run `playwright install`; the system Chromium is used)"
        )
    return "; ".join(missing) or None


@pytest.fixture(scope="module")
def server():
    """The real gunicorn, configured by gunicorn.conf.py, on a free loopback port."""
    reason = _missing_browser()
    if reason:
        message = f"end-to-end playground tests need headless Chromium: {reason}"
        if os.environ.get("HEXODIC_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (HEXODIC_REQUIRE_BROWSER=1)")
        pytest.skip(message)
    with running_gunicorn(GUNICORN_ACCESS_LOG="") as srv:
        yield srv.base


def expect(locator):
    from playwright.sync_api import expect as _expect

    return _expect(locator)


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


class Page:
    """A fresh browser page on the playground, recording script errors and
    failed requests."""

    def __init__(self, browser, base: str):
        self.base = base
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.set_default_timeout(UI_TIMEOUT_MS)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.failed: list[str] = []
        self.foreign: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on(
            "console",
            lambda m: (
                self.errors.append(m.text)
                if m.type == "error" and not m.text.startswith("Failed to load resource")
                else None
            ),
        )
        self.page.on("response", lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        self.page.on(
            "request",
            lambda r: None if r.url.startswith(base) or r.url.startswith("data:") else self.foreign.append(r.url),
        )

    def settle(self):
        """Wait until the page has no request or drawing in flight (body[data-busy] cleared)."""
        self.page.wait_for_selector("body:not([data-busy])", state="attached")

    def open(self):
        self.page.goto(self.base)
        self.page.wait_for_selector("#board-view g.cell[data-cell='d4']")
        expect(self.page.locator("#hpn")).to_have_value(START_HPN)
        self.settle()
        return self

    def click_cell(self, name: str):
        self.cell(name).click()
        self.settle()

    def press(self, name: str):
        self.button(name).click()
        self.settle()

    def cell(self, name: str):
        return self.page.locator(f"#board-view g.cell[data-cell='{name}']")

    def button(self, name: str):
        return self.page.get_by_role("button", name=name, exact=True)

    def htn(self) -> str:
        return self.page.input_value("#htn")

    def row(self, rule: str):
        return self.page.locator(f"#result tr[data-rule='{rule}']")

    def statuses(self) -> dict[str, str]:
        return self.page.eval_on_selector_all(
            "#result tr.check", "rows => Object.fromEntries(rows.map(r => [r.dataset.rule, r.dataset.status]))"
        )

    def highlighted(self) -> set[str]:
        return set(
            self.page.eval_on_selector_all(
                "#board-view g.cell[data-highlight='true']", "gs => gs.map(g => g.dataset.cell)"
            )
        )

    def wait_highlight(self, name: str, value: str):
        self.page.wait_for_selector(f"#board-view g.cell[data-cell='{name}'][data-highlight='{value}']")

    def check(self):
        self.press("Check")
        self.page.wait_for_selector("#result .verdict-box, #result .problem", state="attached")

    def load(self, hpn: str):
        self.page.fill("#hpn", hpn)
        self.press("Load position")


@pytest.fixture
def pg(browser, server):
    p = Page(browser, server)
    yield p
    p.context.close()
    assert p.errors == [], f"script errors on the page: {p.errors}"
    assert p.foreign == [], f"requests to other origins: {p.foreign}"


def test_scenario_opening_restriction_then_legal_turn_and_play_on(pg, tmp_path):
    pg.open()
    page = pg.page
    assert "A to move" in page.inner_text("#position-status")
    assert pg.button("Play on").is_disabled()

    # A's first Place on the centre d4: the opening restriction (RULES §4) fails
    pg.click_cell("d4")
    assert pg.htn() == "d4"
    pg.check()
    row = pg.row("place.opening-restriction")
    assert row.get_attribute("data-status") == "failed"
    status_cell = row.locator("td.status").inner_text()
    assert "\u2717" in status_cell and "failed" in status_cell  # a symbol AND a word
    assert "Step 1/2: Place" in row.inner_text()
    assert row.locator("a", has_text="more").get_attribute("href") == "https://hexodic.com/rules/project"
    assert "Illegal" in page.inner_text("#verdict-head")
    pg.wait_highlight("d4", "true")  # the board re-drawn with the turn
    assert "d4" in pg.highlighted()
    assert pg.statuses()["place.reserve"] == "passed"  # 7 stones in reserve
    assert "\u2713" in pg.row("place.reserve").inner_text()
    assert pg.statuses()["place.cooldown"] == "not_applicable"  # no capture cooldown
    assert "\u2013" in pg.row("place.cooldown").inner_text()
    assert pg.button("Play on").is_disabled()

    pg.press("Clear turn")
    assert pg.htn() == ""
    pg.wait_highlight("d4", "false")
    assert page.locator("#result tr.check").count() == 0

    # Place on c3 (1 step from d4) and raise d4 (1 step from c3, tier 0 -> 1): legal
    pg.click_cell("c3")
    pg.click_cell("d4")  # "raise" is the default Shape kind
    assert pg.htn() == "c3 +d4"
    pg.check()
    assert "Legal" in page.inner_text("#verdict-head")
    assert "failed" not in pg.statuses().values()
    assert page.inner_text("#result-hpn") == AFTER_C3
    assert "first Place" in page.inner_text("#result .events")
    assert pg.highlighted() == set()
    assert pg.button("Play on").is_enabled()

    pg.press("Play on")
    expect(page.locator("#hpn")).to_have_value(AFTER_C3)
    assert "B to move" in page.inner_text("#position-status")
    assert "c3 +d4" in page.inner_text("#record")
    assert pg.cell("c3").get_attribute("data-stone") == "A"
    assert pg.cell("d4").get_attribute("data-tier") == "1"
    assert pg.button("Play on").is_disabled()

    # B's first Place on d4 is restricted just the same; +c4 is 1 step away on tier 0: only that fails
    pg.click_cell("d4")
    pg.click_cell("c4")
    assert pg.htn() == "d4 +c4"
    pg.check()
    failed = [r for r, s in pg.statuses().items() if s == "failed"]
    assert failed == ["place.opening-restriction"]
    assert "B's first Place" in pg.row("place.opening-restriction").inner_text()
    pg.wait_highlight("d4", "true")

    shot = tmp_path / "playground.png"
    page.screenshot(path=str(shot), full_page=True)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000
    if os.environ.get("HEXODIC_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOT.write_bytes(data)
    assert page.locator("#result table.checklist").is_visible()
    # the inlined drawing's ids do not clash with the page's
    ids = page.eval_on_selector_all("[id]", "els => els.map(e => e.id)")
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert page.locator("#result tr.check").count() >= 8
    assert pg.failed == [], f"failed requests: {pg.failed}"


def test_keyboard_only(pg):
    pg.open()
    page = pg.page
    active = "document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.cell : null"
    for _ in range(30):  # Tab into the board: its one tab stop is the centre
        page.keyboard.press("Tab")
        if page.evaluate(active):
            break
    assert page.evaluate(active) == "d4"
    page.keyboard.press("ArrowUp")  # the row above, nearest cell, up-left on a tie: c3
    assert page.evaluate(active) == "c3"
    page.keyboard.press("Enter")  # Place on c3
    pg.settle()
    assert pg.htn() == "c3"
    assert "chosen: Place" in pg.cell("c3").get_attribute("aria-label")
    assert pg.cell("c3").get_attribute("role") == "button"
    page.keyboard.press("ArrowDown")  # back down, down-right on a tie: d4
    assert page.evaluate(active) == "d4"
    page.keyboard.press(" ")  # raise d4
    pg.settle()
    assert pg.htn() == "c3 +d4"
    focused = "document.activeElement.textContent"
    for _ in range(30):  # Tab on to the Check button
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "check":
            break
    assert page.evaluate(focused) == "Check"
    page.keyboard.press("Enter")
    pg.settle()
    page.wait_for_selector("#result .verdict-box")
    assert "Legal" in page.inner_text("#verdict-head")
    assert page.get_attribute("#result", "aria-live") is None
    assert page.get_attribute("#message", "role") == "status"
    assert "legal" in page.inner_text("#message")


def test_show_legal_turns_highlights_projects_then_shapes(pg):
    pg.open()
    page = pg.page
    pg.press("Show legal turns")
    pg.wait_highlight("a1", "true")
    # A's first Place: any of the 37 empty cells but the centre d4
    assert pg.highlighted() == set(CELL_NAMES) - {"d4"}
    assert "36 cells" in page.inner_text("#highlight-note")

    pg.click_cell("c3")  # the Project chosen: Place on c3
    expect(page.locator("#highlight-note")).to_contain_text("begin with c3")
    pg.wait_highlight("g7", "false")
    # legal Shapes: every cell within 2 steps of c3 (all on the board, as c3 is 1 step from the centre:
    # 1 + 6 + 12 = 19), each tier 0, so raises only
    within2 = {n for n in CELL_NAMES if steps(n, "c3") <= 2}
    assert len(within2) == 19
    assert pg.highlighted() == within2
    note = page.inner_text("#highlight-note")
    assert "19 legal turns begin with c3" in note and "+e5" in note and "\u2212" not in note
    assert "may also be left out" not in note  # the Shape is mandatory here


def test_typed_turns_and_their_errors(pg):
    pg.open()
    page = pg.page
    page.fill("#htn", "c3 -d4")
    pg.settle()  # the typed turn is read back by the server once typing pauses
    assert "lower d4" in page.inner_text("#turn-parts")
    assert "chosen: Shape lower" in pg.cell("d4").get_attribute("aria-label")
    page.fill("#htn", "c3 -d9")
    pg.settle()
    assert "does not parse yet" in page.inner_text("#step-hint")
    page.fill("#htn", "c3 -d4")
    pg.check()
    # d4 is tier 0; a lower needs tier 1 or 2 (RULES §5)
    assert pg.statuses()["shape.tier-limit"] == "failed"
    assert pg.statuses()["shape.range"] == "passed"
    pg.wait_highlight("d4", "true")

    page.fill("#htn", "c3 ++d4")
    pg.check()
    alert = page.inner_text("#result .problem")
    assert "HTN" in alert and "+d4" in alert
    assert pg.button("Play on").is_disabled()


def test_check_pressed_while_a_typed_turn_awaits_its_read_shows_the_verdict(pg):
    """Check pressed at once after typing (before the page reads the typed text, TYPING_MS later) shows
    Check's verdict: the pending read is dropped, not sent after Check's request to supersede it.
    The server's answers are held back 1 s, so the read's timer would fire while Check waits."""
    import time

    pg.open()
    page = pg.page

    def slow(route):
        time.sleep(1.0)
        route.continue_()

    page.route("**/v1/render/view", slow)
    try:
        page.fill("#htn", "c3 +d4")
        page.click("#check")
        page.wait_for_selector("#result .verdict-box", state="attached", timeout=10_000)
        assert "Legal" in page.inner_text("#verdict-head")
    finally:
        page.unroute("**/v1/render/view")


def test_pasted_positions(pg):
    pg.open()
    page = pg.page
    pg.load(TIER_SUM_BROKEN)
    # the server's problem, each broken condition with its rule id
    page.wait_for_selector("#validation .problem li[data-rule='position.tier-sum']")
    row = page.locator("#validation li[data-rule='position.tier-sum']")
    assert "the tiers add up to 2" in row.inner_text()
    assert "not consistent" in page.inner_text("#validation")
    assert "not loaded" in page.inner_text("#message")
    assert pg.cell("g7").get_attribute("data-tier") == "0"  # the board still shows the start

    # on a narrow screen the page, checklist included, still fits: no sideways scrolling
    page.set_viewport_size({"width": 400, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    page.set_viewport_size({"width": 1280, "height": 900})

    pg.load("not a position")
    page.wait_for_selector("#validation .problem")
    assert "HPN" in page.inner_text("#validation .problem")

    pg.load(AFTER_C3)
    page.wait_for_selector("#board-view g.cell[data-cell='c3'][data-stone='A']")
    assert "B to move" in page.inner_text("#position-status")
    assert "not evaluated" in page.inner_text("#position-facts")  # a pasted position has no known history


def test_a_move_built_by_clicking(pg):
    pg.open()
    page = pg.page
    pg.load(ALL_PLACED)
    page.wait_for_selector("#board-view g.cell[data-cell='b3'][data-stone='A']")
    assert "empty reserve" in page.inner_text("#step-hint")
    pg.click_cell("b3")  # A's reserve is empty: a stone, then its destination
    assert "Move from b3" in page.inner_text("#turn-parts")
    pg.click_cell("c3")
    pg.click_cell("c4")
    assert pg.htn() == "b3-c3 +c4"
    pg.check()
    s = pg.statuses()
    # reserve 0; b3 holds A's stone; c3 (row+1, same column) is a neighbour of b3 and empty;
    # c4 is 1 step from the landing cell c3 and tier 0
    for rule in (
        "move.reserve-empty",
        "move.own-stone",
        "move.adjacent",
        "move.destination",
        "shape.range",
        "shape.tier-limit",
    ):
        assert s[rule] == "passed", rule
    assert "Step 1/2: Move" in pg.row("move.adjacent").inner_text()
    assert page.inner_text("#result-hpn") == ALL_PLACED_AFTER


def test_each_check_row_links_to_the_rules_text(pg):
    """Each checklist row's rule id links to the service's own text of it (/rules#<id>), and following
    the link shows that entry of the rules reference."""
    pg.open()
    page = pg.page
    pg.click_cell("d4")
    pg.check()
    for rule in pg.statuses():
        assert pg.row(rule).locator("td.rule a").get_attribute("href") == f"/rules#{rule}"
    pg.row("place.opening-restriction").locator("td.rule a").click()
    page.wait_for_url("**/rules#place.opening-restriction")
    entry = page.locator("article[id='place.opening-restriction']")
    assert entry.is_visible()
    assert "at least 1 step from the centre" in entry.inner_text()
    assert page.evaluate("document.querySelector(':target').id") == "place.opening-restriction"


def _a_full_game() -> list[str]:
    """60 legal turns from the start (the half-move limit, so the 60th ends the game by the tiebreak): at
    each position the first legal turn, in the documented order, that does not end the game before."""
    from checker.generate import legal_turns
    from checker.legality import check
    from checker.position import MAX_HALF_MOVES, Position

    pos, history, turns = Position.start(), [], []
    for n in range(MAX_HALF_MOVES):
        verdict = next(
            v
            for v in (check(pos, t, history) for t in legal_turns(pos))
            if v.legal and (not v.outcome.game.over or n == MAX_HALF_MOVES - 1)
        )
        turns.append(verdict.turn)
        history.append(pos)
        pos = verdict.outcome.position
    return turns


def test_a_pasted_full_game_loads_in_one_request(pg):
    """Issue 35: the page reads no score sheet and replays nothing itself. Loading a pasted 60-turn game
    is one request, the server's view, which reads the sheet, replays it and draws the turn it opens."""
    turns = _a_full_game()
    assert len(turns) == 60
    sheet = "\n".join(f"{n // 2 + 1}. {' '.join(turns[n : n + 2])}" for n in range(0, len(turns), 2))
    pg.open()
    page = pg.page
    asked: list[str] = []
    page.on("request", lambda r: None if "/static/" in r.url else asked.append(f"{r.method} {urlsplit(r.url).path}"))
    page.fill("#sheet", sheet)
    pg.press("Load game")
    assert asked == ["POST /v1/render/view"]
    # the game as the server read it: every turn legal, the final position open (the game over by the limit)
    assert page.locator("#record li[data-status='legal']").count() == 60
    assert page.input_value("#sheet").split("\n") == turns
    assert "After the last of 60 turns." in page.inner_text("#game-status")
    assert "tiebreak" in page.inner_text("#position-status")
    assert page.evaluate("location.search").endswith("&at=61")
    # a step is one request too: the server replays the game and judges the turn it opens
    asked.clear()
    pg.press("Previous")
    assert asked == ["POST /v1/render/view"]
    assert "Legal" in page.inner_text("#verdict-head") and turns[-1] in page.inner_text("#verdict-head")
