"""Regenerate the playground's phone screenshots in docs/ with headless Chromium.

Run from the repository root, after ``make .venv/.test-installed``:

    .venv/bin/python docs/screenshots.py

It starts the service (gunicorn on a free loopback port, as the browser tests
do), opens the playground in a 375 x 812 window (an iPhone X's), in the light
and then the dark colour scheme, makes A's first Place on the centre d4 and
presses Check (illegal: the opening restriction, and no Shape), and writes
the page from the top of the board to the verdict's summary (which Check
brings into view): docs/playground-phone-light.png and
docs/playground-phone-dark.png.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.web.gunicorn_server import running_gunicorn  # noqa: E402
from tests.web.test_playground import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

WIDTH, HEIGHT = 375, 812
TURN = "d4"


def shoot(base: str, browser, scheme: str) -> bytes:
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(base)
        page.wait_for_selector("#board-view g.cell[data-cell='d4']")
        page.wait_for_selector("body:not([data-busy])", state="attached")
        page.locator(f"#board-view g.cell[data-cell='{TURN}']").click()
        page.wait_for_selector("body:not([data-busy])", state="attached")
        page.get_by_role("button", name="Check", exact=True).click()
        page.wait_for_selector("#result .verdict-box")
        page.wait_for_selector("body:not([data-busy])", state="attached")
        top, bottom = page.evaluate("""[document.querySelector('.board-panel').getBoundingClientRect().top
            + scrollY, document.getElementById('verdict-summary').getBoundingClientRect().bottom + scrollY]""")
        return page.screenshot(full_page=True, clip={"x": 0, "y": top - 6, "width": WIDTH, "height": bottom - top + 14})
    finally:
        context.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    with running_gunicorn(GUNICORN_ACCESS_LOG="") as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for scheme in ("light", "dark"):
                path = ROOT / "docs" / f"playground-phone-{scheme}.png"
                path.write_bytes(shoot(srv.base, browser, scheme))
                print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
