"""Pictures by URL: GET /v1/render.svg and /v1/render.png (docs/api.md).

Expected verdicts are worked out from RULES.md by hand: from the start
position, A's first Place on the centre d4 breaks the opening restriction
(RULES §4), and that is the only failed check of "d4 +c3" (c3 is 1 step from
the landing cell d4 and on Tier 0, so the raise is legal).
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from checker.drawing.png import png_size
from checker.notation import START_HPN
from tests.web.test_playground import TIER_SUM_BROKEN

PNG, SVG = "/v1/render.png", "/v1/render.svg"


def url(path: str, **query) -> str:
    return path + "?" + urlencode(query)


def test_png_is_the_requested_width(client):
    for size, expected in ((None, 800), (100, 100), (400, 400), (1600, 1600)):
        query = {"position": START_HPN, "turn": "d4 +c3"} | ({} if size is None else {"size": size})
        resp = client.get(url(PNG, **query))
        assert resp.status_code == 200 and resp.mimetype == "image/png"
        assert png_size(resp.data)[0] == expected


def test_svg_draws_the_verdict_and_the_highlight(client):
    resp = client.get(url(SVG, position=START_HPN, turn="d4 +c3", highlight="a1,g7"))
    assert resp.status_code == 200 and resp.mimetype == "image/svg+xml"
    svg = resp.get_data(as_text=True)
    assert "Illegal" in svg and 'id="project-mark"' in svg
    # the failed check names d4; a1 and g7 are asked for
    lit = set(
        re.findall(r'<g id="cell-[a-g][1-7]" class="cell" data-cell="([a-g][1-7])"[^>]*data-highlight="true"', svg)
    )
    assert lit == {"a1", "d4", "g7"}
    # the same picture as POST /v1/render
    posted = client.post("/v1/render", json={"position": START_HPN, "turn": "d4 +c3", "highlight": ["a1", "g7"]})
    assert posted.get_data(as_text=True) == svg


def test_conditional_get_answers_304(client):
    first = client.get(url(PNG, position=START_HPN, turn="c3 +d4", size=200))
    etag = first.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")  # a strong ETag
    assert first.headers["Cache-Control"] == "public, max-age=86400, immutable"
    again = client.get(url(PNG, position=START_HPN, turn="c3 +d4", size=200), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag and again.headers["Cache-Control"] == first.headers["Cache-Control"]
    other = client.get(url(PNG, position=START_HPN, turn="c3 +d4", size=200), headers={"If-None-Match": '"x"'})
    assert other.status_code == 200 and other.data == first.data


def test_etag_follows_the_canonical_query(client):
    def tag(path=PNG, **query):
        resp = client.get(url(path, **query))
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return resp.headers["ETag"]

    base = tag(position=START_HPN, turn="c3 +d4", highlight="a1,b2", size=300)
    # the same picture written differently: spacing and letter case of the turn, order of the cells
    assert tag(position=START_HPN, turn="  C3   +D4 ", highlight="b2,a1", size=300) == base
    # a different picture: every part of the query counts
    assert (
        len(
            {
                base,
                tag(position=START_HPN, turn="c3 +d4", highlight="a1,b2", size=301),
                tag(position=START_HPN, turn="c3 +e4", highlight="a1,b2", size=300),
                tag(position=START_HPN, turn="c3 +d4", highlight="a1", size=300),
                tag(position=START_HPN, highlight="a1,b2", size=300),
                tag(SVG, position=START_HPN, turn="c3 +d4", highlight="a1,b2"),
            }
        )
        == 6
    )


def test_a_highlight_list_may_name_a_cell_twice_and_hold_spaces(client):
    """The highlight is a set of cells to mark: a repeat ("c3, C3,") marks c3 once."""
    once = client.get(url("/v1/render.svg", position=START_HPN, highlight="c3"))
    again = client.get(url("/v1/render.svg", position=START_HPN, highlight="c3, C3,"))
    assert once.status_code == again.status_code == 200
    assert once.get_data() == again.get_data()


@pytest.mark.parametrize("path", [PNG, SVG])
@pytest.mark.parametrize(
    "query, field, words",
    [
        ({}, "position", "Missing"),
        ({"position": "not a position"}, "position", "HPN"),
        ({"position": TIER_SUM_BROKEN}, "position", "tier"),
        ({"position": START_HPN, "turn": "c3 ++d4"}, "turn", "HTN"),
        ({"position": START_HPN, "highlight": "c3,z9"}, "highlight", "z9"),
        ({"position": START_HPN, "highlight": "c3;d4"}, "highlight", "c3;d4"),
        ({"position": START_HPN, "size": "99"}, "size", "100"),
        ({"position": START_HPN, "size": "1601"}, "size", "1600"),
        ({"position": START_HPN, "size": "big"}, "size", "integer"),
    ],
)
def test_bad_queries_are_422_problems_naming_the_field(client, path, query, field, words):
    # (size is validated for both, and used by the PNG)
    resp = client.get(url(path, **query))
    assert resp.status_code == 422
    assert resp.mimetype == "application/problem+json"
    body = resp.get_json()
    paths = [e["path"] for e in body["errors"]]
    assert field in paths
    assert words.lower() in body["detail"].lower()


def test_a_browser_gets_an_html_page_for_a_bad_picture_link(client):
    resp = client.get(url(PNG, position=START_HPN, size="5"), headers={"Accept": "text/html,*/*;q=0.8"})
    assert resp.status_code == 422 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    assert '<code class="field">size</code>' in html and "1600" in html
    assert "Traceback" not in html
