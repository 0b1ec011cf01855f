"""The figures that drive the pages' Lighthouse scores, measured in Chromium
against bounds written here (Lighthouse itself runs in `make lighthouse`, not
in CI): the layout shift (CLS, under 0.05), the largest contentful paint on
loopback, and the bytes of script each page loads; and the playground's
path without JavaScript, a plain form that reaches /check."""

from __future__ import annotations

import pytest

from bench.server import running_gunicorn
from tests.web.test_playground import _missing_browser

# (path, what shows the page is ready, the most script bytes it may load, as sent)
PAGES = [
    ("/", "#board-view g.cell[data-cell='d4']", 80_000),
    (
        "/check?position=0000/00000/000000/0000000/000000/00000/0000%20A%207:3:6:0:0:-:-%207:3:6:0:0:-:-%200&turn=d4%20%2Bc3",
        "figure.board-figure",
        0,
    ),
    ("/rules", "main", 0),
    ("/docs", "#api-index", 450_000),  # 1,280 px: Swagger UI loads by itself (its bundle, compressed)
]
CLS_BOUND = 0.05
LCP_BOUND_MS = 2500  # on loopback, one page at a time

FIGURES = """() => new Promise(resolve => {
  let cls = 0, lcp = 0;
  new PerformanceObserver(l => { for (const e of l.getEntries()) if (!e.hadRecentInput) cls += e.value; })
    .observe({type: 'layout-shift', buffered: true});
  new PerformanceObserver(l => { for (const e of l.getEntries()) lcp = Math.max(lcp, e.startTime); })
    .observe({type: 'largest-contentful-paint', buffered: true});
  const script = performance.getEntriesByType('resource')
    .filter(r => r.initiatorType === 'script').reduce((s, r) => s + r.transferSize, 0);
  setTimeout(() => resolve({cls, lcp, script}), 1000);
})"""


@pytest.fixture(scope="module")
def base():
    reason = _missing_browser()
    if reason:
        pytest.skip(f"the page figures need headless Chromium: {reason}")
    with running_gunicorn(GUNICORN_ACCESS_LOG="") as srv:
        yield srv.base.rstrip("/")


@pytest.mark.parametrize("width", [375, 1280])
@pytest.mark.parametrize("path, ready, script_bound", PAGES, ids=[p[0].split("?")[0] for p in PAGES])
def test_layout_shift_paint_and_script_bytes(base, browser, width, path, ready, script_bound):
    context = browser.new_context(viewport={"width": width, "height": 800})
    try:
        page = context.new_page()
        page.goto(base + path)
        page.wait_for_selector(ready)
        page.wait_for_selector("body:not([data-busy])", state="attached")
        figures = page.evaluate(FIGURES)
    finally:
        context.close()
    assert figures["cls"] < CLS_BOUND, figures
    assert 0 < figures["lcp"] < LCP_BOUND_MS, figures
    assert figures["script"] <= script_bound, figures


def test_without_javascript_the_playground_offers_a_form_that_reaches_check(base, browser):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(base + "/")
        assert not page.locator("#position-status").is_visible()  # no "Loading…" that never ends
        assert not page.locator("#htn").is_visible()  # no control that needs the script
        page.fill("#ns-turn", "d4 +c3")
        page.press("#ns-turn", "Enter")  # the form submits without the script
        page.wait_for_url("**/check?*")
        assert "place.opening-restriction" in page.content()  # A's first Place on the centre (RULES §4)
    finally:
        context.close()
