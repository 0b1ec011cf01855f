"""The pages on a phone and at desktop size, light and dark: sideways overflow,
axe-core findings and (when it can be run) Lighthouse's mobile scores.

Run from the repository root with ``make audit`` (or ``.venv/bin/python
bench/audit.py``) after ``make .venv/.test-installed``: it needs the test
extras (Playwright, axe-playwright-python) and Chromium at /usr/bin/chromium
(``CHROME_PATH`` overrides).  It starts the real gunicorn on loopback
(gunicorn.conf.py, as the browser tests do), and prints for ``/`` (on load,
and after an illegal Check), ``/docs``, ``/rules``, a ``/check`` and a
``/game`` permalink at 320, 375 and 1280 px, in the light and the dark colour
scheme:

- the document's ``scrollWidth`` and the window's ``innerWidth`` (a page
  wider than the screen scrolls sideways);
- axe-core's serious + critical violations (rules and nodes) and all its
  violations (rules, each named with its impact), on the whole page,
  third-party markup included;

then, when ``npx lighthouse`` runs (Lighthouse is not a dependency of the
repository: ``npm install -g lighthouse``, or let npx fetch it), Lighthouse's
mobile accessibility and performance scores and first contentful paint for
``/`` and ``/docs``.  Without Lighthouse it says so and prints the rest.

Figures, not pass/fail: the browser tests assert the thresholds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from bench.browser import CHROMIUM, CHROMIUM_ARGS, FAILING_IMPACTS
from bench.server import running_gunicorn
from checker.notation import START_HPN

CHROME = os.environ.get("CHROME_PATH", CHROMIUM)
WIDTHS = (320, 375, 1280)
SCHEMES = ("light", "dark")
PAGES = {
    "/": "",
    "/ after Check": "",
    "/docs": "docs",
    "/rules": "rules",
    "/check": "check?" + urlencode({"position": START_HPN, "turn": "d4 +c3"}),
    "/game": "game?" + urlencode({"turns": "c3 +d4;e5 +d4;e5 +d5"}),
}
LIGHTHOUSE_PAGES = ("/", "/check", "/rules", "/docs")
LIGHTHOUSE_DOC = "docs/lighthouse.md"
TARGETS = {"performance": 90, "accessibility": 100}  # issue 26: each page on a phone profile
SETTLED = {
    "/docs": "#api-index",  # the page's own list (Swagger UI loads after it on a wide screen)
    "/": "body:not([data-busy]) #board-view g.cell",
    "/ after Check": "body:not([data-busy]) #board-view g.cell",
}


def _illegal_check(page) -> None:
    """The playground after A's first Place on the centre d4 is checked (illegal)."""
    page.locator("#board-view g.cell[data-cell='d4']").click()
    page.wait_for_selector("body:not([data-busy])", state="attached")
    page.get_by_role("button", name="Check", exact=True).click()
    page.wait_for_selector("#result .verdict-box")
    page.wait_for_selector("body:not([data-busy])", state="attached")


ACTIONS = {"/ after Check": _illegal_check}  # what is done on the page before it is measured


def _axe(page) -> tuple[int, int, int, str]:
    """(serious+critical rules, their nodes, all violated rules, their ids) on the page as it is."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    failing = [v for v in found if v.get("impact") in FAILING_IMPACTS]
    ids = ", ".join(f"{v['id']} ({v.get('impact')})" for v in found) or "-"
    return len(failing), sum(len(v["nodes"]) for v in failing), len(found), ids


def browser_rows(base: str) -> list[list[str]]:
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROME, args=CHROMIUM_ARGS)
        try:
            for name, path in PAGES.items():
                for scheme in SCHEMES:
                    for width in WIDTHS:
                        context = browser.new_context(viewport={"width": width, "height": 812}, color_scheme=scheme)
                        page = context.new_page()
                        page.set_default_timeout(15_000)
                        page.goto(base + path, wait_until="load")
                        if name in SETTLED:
                            page.wait_for_selector(SETTLED[name])
                        if name in ACTIONS:
                            ACTIONS[name](page)
                        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                        rules, nodes, total, ids = _axe(page)
                        rows.append(
                            [
                                name,
                                scheme,
                                str(width),
                                f"{scroll}/{inner}",
                                "yes" if scroll > inner else "no",
                                f"{rules} ({nodes} nodes)",
                                str(total),
                                ids,
                            ]
                        )
                        context.close()
        finally:
            browser.close()
    return rows


def lighthouse(url: str) -> tuple[str, str, str] | str:
    """(accessibility, performance, first contentful paint) for ``url``, mobile
    preset; a string saying why not when Lighthouse cannot be run."""
    npx = shutil.which("npx")
    if npx is None:
        return "npx is not on PATH"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        cmd = [
            npx,
            "--yes",
            "lighthouse",
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            "--only-categories=accessibility,performance",
            "--chrome-flags=--headless --no-sandbox --disable-gpu",
        ]
        try:
            done = subprocess.run(
                cmd, env=os.environ | {"CHROME_PATH": CHROME}, capture_output=True, text=True, timeout=300
            )
        except subprocess.TimeoutExpired:
            return "lighthouse did not finish within 300 s"
        if done.returncode != 0 or not out.exists():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return f"lighthouse is not available or failed ({done.returncode}): {last}"
        report = json.loads(out.read_text())
    cats, audits = report["categories"], report["audits"]
    return (
        f"{round(cats['accessibility']['score'] * 100)}",
        f"{round(cats['performance']['score'] * 100)}",
        audits["first-contentful-paint"]["displayValue"],
    )


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [headers] + rows) for i in range(len(headers))]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    return "\n".join([line(headers), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in rows])


def lighthouse_rows(base: str) -> tuple[list[list[str]], str | None]:
    """Lighthouse's mobile figures for each of LIGHTHOUSE_PAGES, or why it could not run."""
    rows = []
    for name in LIGHTHOUSE_PAGES:
        got = lighthouse(base + PAGES[name])
        if isinstance(got, str):
            return rows, got
        accessibility, performance, paint = got
        meets = int(performance) >= TARGETS["performance"] and int(accessibility) >= TARGETS["accessibility"]
        rows.append([name, accessibility, performance, paint, "meets" if meets else "MISSES"])
    return rows, None


def lighthouse_main() -> int:
    """``make lighthouse``: Lighthouse (from the npm registry, through npx) on a phone
    profile with the Chromium the browser tests use, for /, /check, /rules and /docs,
    written to docs/lighthouse.md.  Exit 1 when a page misses a target, 2 when
    Lighthouse cannot run."""
    with running_gunicorn(GUNICORN_ACCESS_LOG="") as srv:
        rows, missing = lighthouse_rows(srv.base)
    if missing:
        print(f"Lighthouse not run: {missing}", file=sys.stderr)
        return 2
    headers = ["page", "accessibility", "performance", "first contentful paint", "targets"]
    text = table(headers, rows)
    print(text)
    Path(LIGHTHOUSE_DOC).write_text(
        "# Lighthouse on a phone\n\n"
        "Written by `make lighthouse` (`.venv/bin/python -m bench.audit --lighthouse`): Lighthouse from the npm "
        "registry (`npx --yes lighthouse`, mobile preset: a throttled mid-range phone) with the Chromium the "
        "browser tests use, against the real gunicorn on loopback; each run replaces this file. Targets: "
        f"performance >= {TARGETS['performance']} and accessibility {TARGETS['accessibility']} on every page. "
        "Not part of `.ci/run` (it needs the npm registry and takes minutes); the browser tests in `make test` "
        "hold the figures that drive these scores (tests/web/test_page_figures.py: layout shift, largest "
        "contentful paint, bytes of script).\n\n" + text + "\n",
        encoding="utf-8",
    )
    return 0 if all(row[-1] == "meets" for row in rows) else 1


def main() -> int:
    if sys.argv[1:] == ["--lighthouse"]:
        return lighthouse_main()
    with running_gunicorn(GUNICORN_ACCESS_LOG="") as srv:
        print("Pages in headless Chromium (axe-core via axe-playwright-python, whole page):\n")
        print(
            table(
                [
                    "page",
                    "scheme",
                    "width",
                    "scrollWidth/innerWidth",
                    "overflow",
                    "axe serious+critical",
                    "axe all",
                    "violated rules",
                ],
                browser_rows(srv.base),
            )
        )
        print("\nLighthouse, mobile preset:\n")
        rows, missing = lighthouse_rows(srv.base)
        if missing:
            print(f"Lighthouse not run: {missing}")
        else:
            print(table(["page", "accessibility", "performance", "first contentful paint", "targets"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
