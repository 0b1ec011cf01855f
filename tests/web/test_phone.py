"""The playground, the permalink pages, an error page and /rules on a phone,
in the dark, with a screen reader (issue 15, part A).

In headless Chromium against the real gunicorn, at 320, 375 and 1280 px,
in the light and the dark colour scheme:

- the playground through load, an illegal Check, a legal Check and Play on,
  and Show legal turns on and off: in each state the page does not scroll
  sideways, the board's cell labels are at least 11 px, and axe-core finds
  no serious or critical violation; the focus after Play on, the one short
  live region, the cells' accessible names, the toggle and its highlight;
- /check, /game, an HTML error page and /rules: no sideways scrolling, the
  dark palette when the system asks for it, no serious or critical axe
  finding.  (/docs has the same checks in test_docs.py.)

Plus test-client checks of the shared palette, static/theme.css.
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlencode

import pytest

from bench.server import ROOT, running_gunicorn
from tests.web.accessibility import assert_accessible
from tests.web.test_playground import START_HPN, UI_TIMEOUT_MS, _missing_browser

WIDTHS = (320, 375, 1280)
SCHEMES = ("light", "dark")
HEIGHT = 812  # an iPhone X's screen: the measurements
MIN_LABEL_PX = 11.0
THEME = "/static/playground/theme.css"

PAGES = {
    "/check": "check?" + urlencode({"position": START_HPN, "turn": "d4 +c3"}),
    "/game": "game?" + urlencode({"turns": "c3 +d4;e5 +d4;e5 +d5"}),
    "error page": "check?" + urlencode({"position": "not a position", "turn": "d4"}),
    "/rules": "rules",
}


# ------------------------------------------------------------------ the palette, via the test client --


def test_theme_css_is_served_like_the_other_assets_and_is_package_data(client):
    from importlib import resources

    resp = client.get(THEME)
    assert resp.status_code == 200 and resp.mimetype == "text/css"
    assert resp.headers["X-Content-Type-Options"] == "nosniff" and resp.headers["ETag"]
    assert resp.get_data() == resources.files("checker.web").joinpath("static", "theme.css").read_bytes()
    assert '"web/static/*"' in (ROOT / "pyproject.toml").read_text()


def test_theme_css_has_a_light_and_a_dark_palette(client):
    css = client.get(THEME).get_data(as_text=True)
    assert "color-scheme: light dark" in css
    light, dark = css.split("@media (prefers-color-scheme: dark)")
    names = lambda text: set(re.findall(r"(--[\w-]+):", text))  # noqa: E731
    # the dark scheme sets every page colour again (not the board's, which keeps its light frame)
    assert names(dark) == {n for n in names(light) if not n.startswith("--board-")}
    assert {"--ink", "--paper", "--panel", "--accent", "--pass", "--fail", "--current", "--input-line"} <= names(dark)


def test_every_page_links_the_palette_first_and_keeps_no_palette_of_its_own(client):
    for path in ("/", "/" + PAGES["/check"], "/" + PAGES["/game"], "/rules"):
        html = client.get(path).get_data(as_text=True)
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        assert sheets and sheets[0].lstrip("/").startswith(THEME.lstrip("/")), (path, sheets)
    html = client.get("/" + PAGES["error page"], headers={"Accept": "text/html"}).get_data(as_text=True)
    assert re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)[0] == THEME
    for name in ("playground.css", "pages.css"):
        css = client.get(f"/static/playground/{name}").get_data(as_text=True)
        assert ":root" not in css and "#e8f0fb" not in css and "#8a8071" not in css, name
    assert ":root" not in client.get("/static/rules/rules.css").get_data(as_text=True)


def test_the_rules_pages_scrolling_tables_are_named_regions_the_keyboard_reaches(client):
    html = client.get("/rules").get_data(as_text=True)
    tables = re.findall(r'<div class="table"([^>]*)>', html)
    assert len(tables) >= 5
    for attrs in tables:
        assert 'tabindex="0"' in attrs and 'role="region"' in attrs
        assert re.search(r'aria-label="Table: [^"<>]+"', attrs), attrs


# --------------------------------------------------------------------------------- in a real browser --


@pytest.fixture(scope="module")
def base():
    reason = _missing_browser()
    if reason:
        message = f"the phone tests need headless Chromium: {reason}"
        if os.environ.get("HEXODIC_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (HEXODIC_REQUIRE_BROWSER=1)")
        pytest.skip(message)
    with running_gunicorn(GUNICORN_ACCESS_LOG="") as srv:
        yield srv.base


@pytest.fixture
def page(browser, request):
    width, scheme = request.node.callspec.params["width"], request.node.callspec.params["scheme"]
    context = browser.new_context(viewport={"width": width, "height": HEIGHT}, color_scheme=scheme)
    context.set_default_timeout(UI_TIMEOUT_MS)
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    context.close()
    assert errors == [], f"script errors on the page: {errors}"


def _fits(page, state: str) -> None:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"{state}: the page is {scroll} px wide in a {inner}-px window"


def _settle(page) -> None:
    page.wait_for_selector("body:not([data-busy])", state="attached")


# The smallest cell label as drawn on the screen: its font size in the drawing's units times the
# drawing's scale (both from the browser, so a CSS or viewBox change shows up here).
SMALLEST_LABEL = """() => Math.min(...[...document.querySelectorAll('#board-view g.cell text')].map(t =>
    parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a))"""

# What each cell shows, from its data (Tier digit, Stone letter, name), and its accessible name.
CELL_NAMES = """() => [...document.querySelectorAll('#board-view g.cell[data-cell]')].map(g => ({
    shown: [g.dataset.tier, g.dataset.stone === 'empty' ? null : g.dataset.stone, g.dataset.cell]
        .filter(Boolean).join(' '),
    label: g.getAttribute('aria-label'), role: g.getAttribute('role'), pressed: g.getAttribute('aria-pressed')}))"""

# How the board outlines a highlighted cell: colour, dashes, width.
OUTLINE = """name => { const p = document.querySelector(`#board-view g.cell[data-cell="${name}"] polygon.highlight`);
    if (!p) return null; const s = getComputedStyle(p);
    return {stroke: s.stroke, dash: s.strokeDasharray, width: s.strokeWidth}; }"""


def _readable(page, state: str) -> None:
    smallest = page.evaluate(SMALLEST_LABEL)
    assert smallest >= MIN_LABEL_PX, f"{state}: a cell label is {smallest:.1f} px"


def _state_ok(page, state: str) -> None:
    _fits(page, state)
    _readable(page, state)


def _highlighted(page) -> set[str]:
    return set(
        page.eval_on_selector_all("#board-view g.cell[data-highlight='true']", "gs => gs.map(g => g.dataset.cell)")
    )


def _press(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()
    _settle(page)


def _click_cell(page, name: str) -> None:
    page.locator(f"#board-view g.cell[data-cell='{name}']").click()
    _settle(page)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_playground_through_a_turn(base, page, width, scheme):
    narrow = width < 881
    page.goto(base)
    page.wait_for_selector("#board-view g.cell[data-cell='d4']")
    _settle(page)
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")

    # --- loaded
    _state_ok(page, "on load")
    assert_accessible(page)
    cells = page.evaluate(CELL_NAMES)
    assert len(cells) == 37
    for c in cells:
        # a button whose name starts with what it shows ("0 d4"), not a toggle
        assert c["role"] == "button" and c["pressed"] is None, c
        assert c["label"].startswith(c["shown"] + ", "), c
    assert page.get_by_role("button", name="0 d4, Tier 0, no Stone", exact=True).count() == 1
    # axe's own (experimental, so not in assert_accessible) check of the same: the name contains the text shown
    from axe_playwright_python.sync_playwright import Axe

    mismatch = Axe().run(page, options={"runOnly": ["label-content-name-mismatch"]}).response["violations"]
    assert mismatch == [], [n["target"] for v in mismatch for n in v["nodes"]][:5]
    # the position panel folds away on a narrow screen; the turn's controls follow the board
    assert page.evaluate("document.getElementById('position-panel').open") == (not narrow)
    if narrow:
        boxes = page.evaluate("""Object.fromEntries(['.board-panel', '.turn-panel', '.result-panel',
            '#position-panel'].map(s => [s, document.querySelector(s).getBoundingClientRect().toJSON()]))""")
        assert 0 <= boxes[".turn-panel"]["top"] - boxes[".board-panel"]["bottom"] <= 16
        assert boxes[".result-panel"]["top"] < boxes["#position-panel"]["top"]
        assert boxes[".board-panel"]["width"] >= width - 16  # the board uses the width

    # --- an illegal Check: A's first Place on the centre (the opening restriction) and no Shape
    _click_cell(page, "d4")
    _press(page, "Check")
    page.wait_for_selector("#result .verdict-box")
    page.wait_for_selector("#board-view g.cell[data-cell='d4'][data-highlight='true']")
    _state_ok(page, "after an illegal Check")
    _rule_ids_whole(page, "the playground's checks")
    assert_accessible(page)
    summary = page.evaluate("document.getElementById('verdict-summary').getBoundingClientRect().toJSON()")
    assert summary["top"] >= 0 and summary["bottom"] <= HEIGHT, f"the verdict's summary is out of view: {summary}"
    # one live region, the status line, and it says one short line
    live = page.evaluate(
        "[...document.querySelectorAll('[aria-live], [role=status], [role=alert], [role=log]')].map(e => e.id)"
    )
    assert live == ["message"]
    message = page.inner_text("#message")
    assert message.startswith("Checked d4: illegal") and "\n" not in message and len(message) <= 120, message
    assert "named by a failed check" in page.locator("#board-view g.cell[data-cell='d4']").get_attribute("aria-label")
    failed_outline = page.evaluate(OUTLINE, "d4")
    assert failed_outline is not None

    # --- a legal turn and Play on: the focus stays in the page, on the board
    _press(page, "Clear turn")
    _click_cell(page, "c3")
    _click_cell(page, "d4")
    _press(page, "Check")
    page.wait_for_selector("#result .verdict-box[data-legal='true']")
    page.get_by_role("button", name="Play on", exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#board-view g.cell[data-cell='c3'][data-stone='A']")
    _settle(page)
    focused = page.evaluate("""(() => { const a = document.activeElement;
        return {tag: a.tagName, inBoard: !!a.closest('#board-view'), cell: a.dataset ? a.dataset.cell : null}; })()""")
    assert focused["tag"] != "BODY" and focused["inBoard"] and focused["cell"], focused
    assert page.get_by_role("button", name="Play on", exact=True).is_disabled()
    assert page.inner_text("#message") == "Played c3 +d4. B to move."
    names = {c["shown"]: c["label"] for c in page.evaluate(CELL_NAMES)}
    assert names["0 A c3"].startswith("0 A c3, Tier 0, A's Stone") and names["1 d4"].startswith("1 d4, Tier 1")
    _state_ok(page, "after Play on")

    # --- Show legal turns: on (aria-pressed, a highlight of its own), then off again
    toggle = page.locator("#legal")
    assert toggle.get_attribute("aria-pressed") == "false"
    _press(page, "Show legal turns")
    page.wait_for_selector("#board-view[data-shows='highlight'] g.cell[data-highlight='true']")
    assert toggle.get_attribute("aria-pressed") == "true"
    lit = _highlighted(page)
    assert lit and "c3" not in lit  # B's Place: an empty cell, not A's stone's
    one = sorted(lit)[0]
    assert "a legal choice" in page.locator(f"#board-view g.cell[data-cell='{one}']").get_attribute("aria-label")
    legal_outline = page.evaluate(OUTLINE, one)
    assert legal_outline["stroke"] != failed_outline["stroke"]  # not the failed check's colour ...
    assert legal_outline["dash"] != failed_outline["dash"]  # ... nor colour alone: dotted, not solid
    assert page.locator("#highlight-note").is_visible()
    _state_ok(page, "with the legal turns shown")
    assert_accessible(page)
    _press(page, "Show legal turns")
    page.wait_for_selector("#board-view[data-shows='plain']")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert _highlighted(page) == set()
    assert not page.locator("#highlight-note").is_visible()
    _state_ok(page, "with the legal turns hidden again")


def _luminance(css_colour: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css_colour)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


# Each part of a rule id (up to and including a dot) on one line: a line breaks only after a dot.
BROKEN_RULE_IDS = """() => [...document.querySelectorAll('code.rule-id')]
    .filter(code => [...code.querySelectorAll('span')].some(s => s.getClientRects().length !== 1))
    .map(code => code.textContent)"""


def _rule_ids_whole(page, state: str) -> None:
    assert page.locator("code.rule-id").count() >= 5, f"{state}: no rule id found"
    assert page.evaluate(BROKEN_RULE_IDS) == [], f"{state}: a rule id broken inside a word"


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_other_pages_fit_follow_the_colour_scheme_and_pass_axe(base, page, width, scheme):
    for name, path in PAGES.items():
        resp = page.goto(base + path)
        assert resp.status == (422 if name == "error page" else 200), name
        _fits(page, name)
        if name in ("/check", "/game") and width >= 375:
            # the permalink's board: its cell labels readable from an iPhone X's width up
            smallest = page.evaluate(SMALLEST_LABEL.replace("#board-view", "figure.board-figure"))
            assert smallest >= MIN_LABEL_PX, f"{name}: a cell label is {smallest:.1f} px"
        if name in ("/check", "/game"):
            _rule_ids_whole(page, name)
        colours = page.evaluate(
            "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]"
        )
        background, ink = (_luminance(c) for c in colours)
        if scheme == "dark":
            assert background < 0.15 and ink > 0.7, (name, colours)
        else:
            assert background > 0.9 and ink < 0.2, (name, colours)
        assert_accessible(page)


TOC_HEIGHTS = """() => [...document.querySelectorAll('nav[aria-label=Contents] a')]
    .map(a => a.getBoundingClientRect().height)"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", [375, 1280])
def test_the_rules_page_is_numbered_once_and_its_tap_targets_are_large_enough(base, page, width, scheme):
    from axe_playwright_python.sync_playwright import Axe

    page.goto(base + "rules" if base.endswith("/") else base + "/rules")
    titles = page.eval_on_selector_all("nav[aria-label=Contents] li", "lis => lis.map(li => li.innerText)")
    # each title carries its own number ("1. Board"), and the list adds none before it
    assert "1. The board" in titles and len(titles) >= 11
    assert page.evaluate("getComputedStyle(document.querySelector('nav[aria-label=Contents] ul')).listStyleType") in (
        "none",
    )
    assert min(page.evaluate(TOC_HEIGHTS)) >= 24
    # axe-core's target-size rule (WCAG 2.2, 2.5.8: at least 24 by 24 px, or spaced as far)
    result = Axe().run(page, options={"runOnly": {"type": "rule", "values": ["target-size"]}}).response
    assert [v["nodes"] for v in result["violations"]] == []
    assert "make docs/rules.md" not in page.content()  # no maintainer's note on the page


# Every legend swatch against the page: the larger contrast of its fill and of its edge (WCAG 1.4.11
# asks 3:1 of what identifies a graphical object), and the page's background behind the legend.
SWATCHES = """() => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
      .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = el => { for (let n = el.parentElement; n; n = n.parentElement) {
      const c = getComputedStyle(n).backgroundColor; if (!/rgba\\(.*, 0\\)|transparent/.test(c)) return rgb(c); }
      return [255, 255, 255]; };
  return [...document.querySelectorAll('.board-legend .swatch')].map(s => {
    const st = getComputedStyle(s), page = behind(s);
    return {swatch: s.className, fill: contrast(rgb(st.backgroundColor), page),
            edge: parseFloat(st.borderTopWidth) ? contrast(rgb(st.borderTopColor), page) : 0};
  });
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", [375, 1280])
def test_every_legend_swatch_stands_out_from_the_page(base, page, width, scheme):
    page.goto(base)
    page.wait_for_selector(".board-legend .swatch.stone-a")
    swatches = page.evaluate(SWATCHES)
    assert len(swatches) == 9
    faint = [s for s in swatches if max(s["fill"], s["edge"]) < 3]
    assert faint == [], f"{scheme}: legend swatches that do not stand out from the page: {faint}"


# Every tier digit and cell name against every mark drawn on the board (the Place ring, the Shape
# and Echo badges): the label's ink as the browser lays it out, and each mark's circle with half
# its stroke.  A filled badge must not meet the box; a ring must neither cross it nor enclose part of it.
LABELS_UNDER_MARKS = """root => {
  const svg = document.querySelector(root);
  // each label's ink: its advance box across, and the glyphs' own ascent and descent (canvas
  // measureText in the text's computed font), placed by the text's transform (the playground moves names)
  const ctx = document.createElement('canvas').getContext('2d');
  const boxes = [...svg.querySelectorAll('g.cell text.tier, g.cell text.name')].map(t => {
    const st = getComputedStyle(t);
    ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
    const ink = ctx.measureText(t.textContent), b = t.getBBox();
    const s = svg.getCTM().inverse().multiply(t.getCTM()), y = +t.getAttribute('y');
    const p = new DOMPoint(b.x, y - ink.actualBoundingBoxAscent).matrixTransform(s);
    const q = new DOMPoint(b.x + b.width, y + ink.actualBoundingBoxDescent).matrixTransform(s);
    return {text: t.textContent, l: p.x, t: p.y, r: q.x, b: q.y};
  });
  const found = [];
  for (const c of svg.querySelectorAll('#marks circle')) {
    const cx = +c.getAttribute('cx'), cy = +c.getAttribute('cy'), r = +c.getAttribute('r');
    const half = (+c.getAttribute('stroke-width') || 0) / 2, filled = c.getAttribute('fill') !== 'none';
    for (const x of boxes) {
      const dx = Math.max(x.l - cx, 0, cx - x.r), dy = Math.max(x.t - cy, 0, cy - x.b);
      const near = Math.hypot(dx, dy);
      const far = Math.max(...[[x.l, x.t], [x.r, x.t], [x.l, x.b], [x.r, x.b]].map(([px, py]) => Math.hypot(px - cx, py - cy)));
      if (near <= r + half && (filled || far >= r - half)) found.push(x.text);
    }
  }
  return found;
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", [375, 1280])
def test_no_mark_covers_a_label_in_the_browser(base, page, width, scheme):
    """The permalink's picture and the playground's board, each with a Place
    ring, a Shape badge and an Echo badge on one cell: every tier digit and
    cell name clear of every mark, as Chromium lays the text out."""
    turn = "c3 +c3 #c3"  # illegal (the Echo-Lock needs Tier 2), so every mark is drawn on c3
    query = urlencode({"position": START_HPN, "turn": turn})
    page.goto(base.rstrip("/") + "/check?" + query)
    page.wait_for_selector("figure.board-figure svg #marks circle")
    assert page.evaluate(LABELS_UNDER_MARKS, "figure.board-figure svg") == []
    page.goto(base.rstrip("/") + "/?" + query)
    page.wait_for_selector("#board-view svg #marks circle")
    _settle(page)
    assert page.evaluate(LABELS_UNDER_MARKS, "#board-view svg") == []


@pytest.mark.parametrize("scheme", ["light"])
@pytest.mark.parametrize("width", [1280])
def test_axe_runs_every_default_rule_that_can_fail_a_page_and_no_other(base, page, width, scheme):
    """tests/web/accessibility.py runs only the rules of axe's default run that can report a serious or
    critical finding: none beyond the default run, every rule of it known to report serious or critical
    ones, and none of those that report only minor or moderate ones."""
    from axe_playwright_python.sync_playwright import Axe

    from tests.web.accessibility import rules_that_can_fail, violations

    page.goto(base + "rules")
    default = Axe().run(page).response
    ran = {r["id"] for kind in ("violations", "passes", "incomplete", "inapplicable") for r in default[kind]}
    kept = set(rules_that_can_fail(page))
    assert kept <= ran
    assert {"color-contrast", "image-alt", "label", "button-name", "link-name", "aria-valid-attr"} <= kept
    assert {"region", "heading-order", "landmark-one-main", "page-has-heading-one"} <= ran - kept
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<img src=\"x.png\">')")
    assert "image-alt" in {v.rule for v in violations(page)}  # a critical finding is still found
