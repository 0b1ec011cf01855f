"""``GET /rules``: the rules reference as one server-rendered HTML page.

It works without scripts, is sent with the playground page's security
headers, has an anchor for every rule id, capture kind, end-of-game reason
and decided reading, and shows the start position in HPN in its notation
section; the links of a verdict point into it.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from checker.catalogue import ENTRIES
from tests.helpers import POSITION_RULES, START_HPN, TURN_RULES

SECURITY = ("Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options", "X-Frame-Options", "Cache-Control")


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: list[str] = []
        self.refs: list[tuple[str, str]] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        if "id" in a:
            self.ids.append(a["id"])
        for name in ("href", "src"):
            if a.get(name):
                self.refs.append((tag, a[name]))


@pytest.fixture
def page(client):
    resp = client.get("/rules")
    assert resp.status_code == 200
    p = _Page()
    p.feed(resp.get_data(as_text=True))
    return resp, p


def test_an_html_page_with_the_playgrounds_security_headers(client, page):
    resp, p = page
    assert resp.mimetype == "text/html" and resp.mimetype_params.get("charset") == "utf-8"
    playground = client.get("/")
    for header in SECURITY:
        theirs = playground.headers[header]
        if header == "Content-Security-Policy":  # the playground alone has a form (its <noscript> one)
            theirs = theirs.replace("form-action 'self'", "form-action 'none'")
        assert resp.headers[header] == theirs, header
    assert "script-src 'self'" in resp.headers["Content-Security-Policy"]
    assert "script" not in p.tags, "the page needs no script"


def test_revalidates_with_its_etag(client):
    first = client.get("/rules")
    assert first.headers.get("ETag")
    again = client.get("/rules", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_an_anchor_for_every_rule_id_and_decided_reading(page):
    _, p = page
    assert len(p.ids) == len(set(p.ids))
    for rule in (*TURN_RULES, *POSITION_RULES):
        assert rule in p.ids, rule
    for n in range(1, 16):
        assert f"D-{n}" in p.ids
    for other in (
        "capture.move",
        "capture.encirclement",
        "capture.echo",
        "end.takeover",
        "end.network",
        "end.strangle",
        "end.repetition",
        "end.threefold",
        "end.tiebreak",
    ):
        assert other in p.ids, other
    assert set(ENTRIES) <= set(p.ids)


def test_the_notation_section_shows_the_start_position(client):
    text = client.get("/rules").get_data(as_text=True)
    section = text[text.index('<section id="notation">') : text.index('<section id="json">')]
    assert START_HPN in section


def test_its_stylesheet_is_served_and_nothing_else_is_loaded(client, page):
    _, p = page
    loaded = [url for tag, url in p.refs if tag == "link"]
    assert loaded == ["/static/playground/theme.css", "/static/rules/rules.css"]
    for url in loaded:
        css = client.get(url)
        assert css.status_code == 200 and css.mimetype == "text/css"
        assert css.headers["X-Content-Type-Options"] == "nosniff"
    # every link is inside the page, to this service, or to the published rules
    for _, url in p.refs:
        assert url.startswith(("#", "/", "https://hexodic.com/")), url


def test_the_links_of_a_verdict_point_into_the_page(client, page):
    _, p = page
    v = client.post("/v1/check", json={"position": START_HPN, "turn": "d4 +c3"}).get_json()
    for c in v["checks"]:
        path, anchor = c["rule_url"].split("#")
        assert path == "/rules" and anchor in p.ids


def test_the_reference_is_linked_from_the_playground_and_the_api_page(client):
    assert 'href="/rules"' in client.get("/docs").get_data(as_text=True)
    assert 'href="/rules"' in client.get("/").get_data(as_text=True)
