"""The API page at /docs: the playground's security headers, no inline script,
only the files it uses (everything else of swagger-ui's bundle a 404), and
in headless Chromium it renders the operations and runs one with no Content
Security Policy violation."""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser

import pytest
from swagger_ui_bundle import swagger_ui_path

from bench.server import running_gunicorn
from checker.web.openapi import TAGS
from tests.web.accessibility import assert_accessible
from tests.web.test_playground import _missing_browser

HEADERS = ("Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options", "X-Frame-Options")
USED = {
    "/docs/assets/swagger-ui.css": "text/css",
    "/docs/assets/swagger-ui-bundle.js": "text/javascript",
    "/docs/assets/docs.js": "text/javascript",
    "/docs/assets/docs.css": "text/css",
    "/favicon.svg": "image/svg+xml",
}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
WIDTHS = (320, 375, 1280)
SCHEMES = ("light", "dark")


def test_the_page_lists_every_operation_by_resource(client):
    from checker.web.openapi import build

    html = client.get("/docs").get_data(as_text=True)
    headings = re.findall(r"<h3>([^<]+)</h3>", html)
    assert headings == [name for name, _, _ in TAGS]
    listed = re.findall(r"<li><code>([A-Z]+) ([^<]+)</code>", html)
    expected = [(m.upper(), path) for path, ops in build()["paths"].items() for m in ops]
    assert sorted(listed) == sorted(expected)


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.script_text = ""
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.script_text += data


def _tags(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    return parser


def test_docs_has_the_same_security_headers_as_the_playground(client):
    docs, playground = client.get("/docs"), client.get("/")
    assert docs.status_code == 200 and docs.mimetype == "text/html"
    for name in HEADERS:
        theirs = playground.headers.get(name)
        if name == "Content-Security-Policy":  # the playground alone has a form (its <noscript> one)
            theirs = theirs.replace("form-action 'self'", "form-action 'none'")
        assert docs.headers.get(name) == theirs and docs.headers.get(name), name
    csp = dict(d.strip().split(" ", 1) for d in docs.headers["Content-Security-Policy"].split(";"))
    assert csp["script-src"] == "'self'" and csp["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in docs.headers["Content-Security-Policy"]


def test_docs_runs_no_inline_script_or_style(client):
    page = _tags(client.get("/docs").get_data(as_text=True))
    scripts = [a for t, a in page.tags if t == "script"]
    assert scripts and all(a.get("src") for a in scripts)
    assert page.script_text.strip() == ""
    assert all("style" not in a for _, a in page.tags) and not any(t == "style" for t, _ in page.tags)


def test_docs_loads_exactly_the_files_it_uses(client):
    page = _tags(client.get("/docs").get_data(as_text=True))
    loaded = {(a.get("src") or a.get("href")).split("?")[0] for t, a in page.tags if t in ("script", "link")}
    # Swagger UI's stylesheet and bundle: named on the script that loads them (docs.js)
    (script,) = [a for t, a in page.tags if t == "script"]
    loaded |= {script["data-swagger-css"].split("?")[0], script["data-swagger-js"].split("?")[0]}
    assert loaded == set(USED)
    for url, mimetype in USED.items():
        resp = client.get(url)
        assert resp.status_code == 200 and resp.mimetype == mimetype and resp.data, url
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert b"/openapi.yaml" in client.get("/docs/assets/docs.js").data


def test_every_other_file_of_the_bundle_is_a_404(client):
    others = sorted(
        p.name for p in swagger_ui_path.iterdir() if p.name not in ("swagger-ui.css", "swagger-ui-bundle.js")
    )
    assert "docs.css" not in others
    # the demo page, its Petstore initializer and the OAuth2 redirect page are among them
    assert {"index.html", "swagger-initializer.js", "oauth2-redirect.html"} <= set(others)
    for name in others + ["favicon.ico", "..%2f__init__.py", "../__init__.py"]:
        resp = client.get(f"/docs/assets/{name}")
        assert resp.status_code == 404 and resp.mimetype == "application/problem+json", name


def test_docs_page_is_fit_for_a_phone_and_a_screen_reader(client):
    page = _tags(client.get("/docs").get_data(as_text=True))
    metas = {a.get("name"): a.get("content") for t, a in page.tags if t == "meta"}
    assert "width=device-width" in metas["viewport"] and "initial-scale=1" in metas["viewport"]
    assert metas["color-scheme"] == "light dark"
    tags = [t for t, _ in page.tags]
    assert tags.count("main") == 1 and tags.count("h1") == 1 and tags.index("h1") > tags.index("main")
    # one small deferred script: Swagger UI's 1 MB bundle is not part of the page's first load
    scripts = [(a["src"].split("?")[0], "defer" in a) for t, a in page.tags if t == "script"]
    assert scripts == [("/docs/assets/docs.js", True)]
    assert not any(t == "link" and "swagger-ui" in a.get("href", "") for t, a in page.tags)
    assert all("defer" in a for t, a in page.tags if t == "script")
    icons = [a for t, a in page.tags if t == "link" and a.get("rel") == "icon"]
    assert icons == [{"rel": "icon", "href": "/favicon.svg", "type": "image/svg+xml"}]


def test_favicon_ico_is_a_cacheable_png(client):
    ico = client.get("/favicon.ico")
    assert ico.status_code == 200 and ico.mimetype == "image/png"
    assert ico.data.startswith(PNG_MAGIC)
    width, height = int.from_bytes(ico.data[16:20], "big"), int.from_bytes(ico.data[20:24], "big")  # IHDR
    assert (width, height) == (32, 32)
    assert ico.cache_control.public and ico.cache_control.max_age >= 3600
    again = client.get("/favicon.ico", headers={"If-None-Match": ico.headers["ETag"]})
    assert again.status_code == 304


def test_favicon_svg_is_an_svg_drawing(client):
    svg = client.get("/favicon.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.data.lstrip().startswith(b"<svg") and b"<script" not in svg.data
    assert svg.cache_control.public and svg.cache_control.max_age >= 3600


def test_the_favicons_are_in_the_openapi_document(client):
    paths = client.get("/openapi.yaml").get_data(as_text=True)
    assert "\n  /favicon.ico:\n" in paths and "\n  /favicon.svg:\n" in paths


def test_the_page_links_versioned_assets_cached_for_good(client):
    page = _tags(client.get("/docs").get_data(as_text=True))
    links = [a.get("src") or a.get("href") for t, a in page.tags if t in ("script", "link")]
    links += [a[k] for t, a in page.tags if t == "script" for k in ("data-swagger-css", "data-swagger-js")]
    versioned = [link for link in links if link.startswith("/docs/assets/")]
    assert len(versioned) == 4 and all(re.fullmatch(r"/docs/assets/[\w.-]+\?v=[0-9a-f]{16}", v) for v in versioned)
    for link in versioned:
        resp = client.get(link)
        assert resp.status_code == 200
        assert resp.cache_control.immutable and resp.cache_control.max_age == 31_536_000, link
        bare = client.get(link.split("?")[0])
        assert bare.data == resp.data and not bare.cache_control.immutable and bare.cache_control.max_age == 3600
    stale = client.get(versioned[0].split("?")[0] + "?v=0000000000000000")
    assert not stale.cache_control.immutable


def test_assets_revalidate(client):
    first = client.get("/docs/assets/docs.js")
    again = client.get("/docs/assets/docs.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.fixture(scope="module")
def base():
    reason = _missing_browser()
    if reason:
        message = f"the /docs browser test needs headless Chromium: {reason}"
        if os.environ.get("HEXODIC_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (HEXODIC_REQUIRE_BROWSER=1)")
        pytest.skip(message)
    with running_gunicorn(GUNICORN_ACCESS_LOG="") as srv:
        yield srv.base


def test_docs_works_in_a_browser_under_its_csp(base, browser):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(
            "window.__csp = []; document.addEventListener('securitypolicyviolation', "
            "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
        )
        page.goto(base + "docs")
        page.wait_for_selector("#operations-Turns-checkTurn")
        assert page.locator(".opblock").count() >= 10
        # grouped by resource, as openapi.yaml's tags list them, and no "default" group
        groups = page.eval_on_selector_all(".opblock-tag-section h3 .nostyle span", "s => s.map(e => e.textContent)")
        assert groups == [name for name, _, _ in TAGS]
        assert page.locator("[id^='operations-default-']").count() == 0
        # one title: the page's h1, as its <title> says it; Swagger UI's copy hidden
        assert page.title() == page.locator("h1").inner_text()
        assert not page.locator(".swagger-ui .info .title").is_visible()
        page.locator("#operations-Positions-getStartPosition .opblock-summary").click()
        page.get_by_role("button", name="Execute").click()
        status = page.locator("#operations-Positions-getStartPosition .live-responses-table tbody .response-col_status")
        status.first.wait_for()
        assert re.match(r"\s*200\b", status.first.inner_text())
        assert page.evaluate("window.__csp") == []
        assert errors == []
    finally:
        context.close()


def _fits(page) -> None:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll <= inner, f"the page is {scroll} px wide in a {inner}-px window"


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_docs_fits_the_screen_and_axe_finds_nothing_serious(base, browser, width, scheme):
    """At a phone's and a desktop's width, light and dark: the viewport tag, no
    sideways scrolling and no serious or critical axe-core finding, on load and
    with an operation open for "Try it out" (its request body's textarea shown).
    Nothing of swagger-ui's is excluded: its colours and markup are set by
    static/docs.css and static/docs.js."""
    context = browser.new_context(viewport={"width": width, "height": 812}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(base + "docs")
        page.wait_for_selector("#api-index")
        if width < 881:  # on a phone Swagger UI loads when asked; the page's own list is there at once
            assert page.locator(".swagger-ui").count() == 0
            _fits(page)
            assert_accessible(page)
            page.click("#open-swagger")
        page.wait_for_selector("#operations-Turns-checkTurn")
        assert "width=device-width" in page.locator('meta[name="viewport"]').get_attribute("content")
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        _fits(page)
        assert_accessible(page)
        operation = page.locator("#operations-Turns-checkTurn")
        operation.locator(".opblock-summary").click()
        try_out = operation.locator(".try-out__btn")  # open already (tryItOutEnabled): close it, press it
        assert try_out.inner_text().strip() == "Cancel"
        try_out.click()
        assert try_out.inner_text().strip() == "Try it out"
        try_out.click()
        body = operation.locator("textarea.body-param__text")
        body.wait_for()
        assert body.get_attribute("aria-label") == "Request body (JSON)"
        _fits(page)
        assert_accessible(page)
    finally:
        context.close()
