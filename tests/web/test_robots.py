"""GET /robots.txt: plain text that lets crawlers read the pages, not the API."""

from __future__ import annotations

import urllib.robotparser


def test_robots_txt_allows_the_pages_and_disallows_the_api_and_the_metrics(client):
    resp = client.get("/robots.txt")
    assert resp.status_code == 200
    assert resp.mimetype == "text/plain"
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    robots = urllib.robotparser.RobotFileParser()
    robots.parse(resp.get_data(as_text=True).splitlines())
    for page in ("/", "/check?position=x&turn=c3", "/game?turns=c3", "/rules", "/docs"):
        assert robots.can_fetch("AnyBot", page), page
    for private in ("/v1/check", "/v1/render.png?position=x", "/metrics"):
        assert not robots.can_fetch("AnyBot", private), private
