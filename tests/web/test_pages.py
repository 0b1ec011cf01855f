"""The permalink pages GET /check and GET /game, through the test client:
what a page without scripts shows, its Open Graph tags, framing, embed mode,
and bad links answered as a page (browser) or a problem (API client).

Expected verdicts are worked out from RULES.md by hand:

- "d4 +c3" from the start: A's first Place on the centre d4 breaks the
  opening restriction (RULES §4); nothing else fails (c3 is 1 step from d4,
  Tier 0, so the raise is legal).
- the game "c3 +d4; e5 +d4; e5 +d5": A Places on c3 and raises d4 (0 -> 1);
  B Places on e5 (1 step from the centre) and raises d4 (1 -> 2); A's Place
  on e5 then fails place.empty (B's stone is there) and the replay stops.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from checker.catalogue import RULES
from checker.drawing.png import png_size
from checker.notation import START_HPN
from checker.web import create_app
from tests.web.test_playground import AFTER_C3, TIER_SUM_BROKEN

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
GAME = "c3 +d4;e5 +d4;e5 +d5"


class _Page(HTMLParser):
    """The meta tags, links, table rows and text of a page."""

    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[str] = []
        self.rows: dict[str, str] = {}
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "meta" and (a.get("property") or a.get("name")):
            self.meta[a.get("property") or a.get("name")] = a.get("content")
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "tr" and a.get("data-rule"):
            self.rows[a["data-rule"]] = a["data-status"]

    def handle_data(self, data):
        self.text.append(data)

    @property
    def words(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.text))


def parse(resp) -> _Page:
    p = _Page()
    p.feed(resp.get_data(as_text=True))
    return p


def check_url(position=START_HPN, turn="d4 +c3", **extra) -> str:
    return "/check?" + urlencode({"position": position, "turn": turn} | extra)


def game_url(turns=GAME, **extra) -> str:
    return "/game?" + urlencode({"turns": turns} | extra)


# ------------------------------------------------------------------------------- /check


def test_check_page_shows_the_verdict_without_scripts(client):
    resp = client.get(check_url())
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    page = parse(resp)
    assert not any(t == "script" for t, _ in page.tags)
    assert page.rows["place.opening-restriction"] == "failed"
    assert [r for r, s in page.rows.items() if s == "failed"] == ["place.opening-restriction"]
    assert page.rows["place.reserve"] == "passed" and page.rows["place.cooldown"] == "not_applicable"
    verdict = client.post("/v1/check", json={"position": START_HPN, "turn": "d4 +c3"}).get_json()
    assert verdict["summary"] in page.words  # the same summary as the API's
    assert "\u2717 failed" in page.words and "\u2713 passed" in page.words and "\u2013 not applicable" in page.words
    # the failed rule's text from the catalogue, linked to the rules reference
    assert RULES["place.opening-restriction"].text in page.words
    assert "/rules#place.opening-restriction" in page.links
    # the board drawn inline, with the verdict
    html = resp.get_data(as_text=True)
    assert html.count("<svg") == 1 and 'id="cell-d4" class="cell" data-cell="d4"' in html
    # open in the playground, with the same position and turn
    playground = [h for h in page.links if h.startswith("/?")]
    assert playground and parse_qs(urlsplit(playground[0]).query) == {"position": [START_HPN], "turn": ["d4 +c3"]}


def test_check_page_open_graph_tags_name_the_matching_picture(client):
    page = parse(client.get(check_url()))
    verdict = client.post("/v1/check", json={"position": START_HPN, "turn": "d4 +c3"}).get_json()
    assert page.meta["og:description"] == verdict["summary"]
    assert page.meta["og:title"].startswith("Illegal: d4 +c3")
    assert page.meta["twitter:card"] == "summary_large_image"
    image = urlsplit(page.meta["og:image"])
    assert (image.scheme, image.netloc, image.path) == ("http", "localhost", "/v1/render.png")  # absolute
    assert parse_qs(image.query) == {"position": [START_HPN], "turn": ["d4 +c3"]}
    assert page.meta["twitter:image"] == page.meta["og:image"]
    png = client.get(image.path + "?" + image.query)
    assert png.status_code == 200 and png_size(png.data)[0] == int(page.meta["og:image:width"]) == 800
    assert urlsplit(page.meta["og:url"]).path == "/check"


def test_a_legal_turn_shows_its_outcome(client):
    page = parse(client.get(check_url(turn="c3 +d4")))
    assert "failed" not in page.rows.values()
    assert AFTER_C3 in page.words  # worked out in test_playground.py
    assert page.meta["og:title"].startswith("Legal: c3 +d4")


def test_absolute_links_follow_the_proxy_headers_only_when_configured():
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "check.hexodic.example"}
    plain = create_app({"TESTING": True}).test_client()
    assert parse(plain.get(check_url(), headers=forwarded)).meta["og:image"].startswith("http://localhost/")
    proxied = create_app({"TESTING": True, "PROXIES": 1}).test_client()
    assert (
        parse(proxied.get(check_url(), headers=forwarded))
        .meta["og:image"]
        .startswith("https://check.hexodic.example/v1/render.png?")
    )


# -------------------------------------------------------------------------------- /game


def test_game_page_stops_at_the_first_illegal_turn(client):
    resp = client.get(game_url())
    assert resp.status_code == 200
    page = parse(resp)
    items = re.findall(r'<li data-status="([a-z_]+)">', resp.get_data(as_text=True))
    assert items == ["passed", "passed", "failed"]
    assert "Turn 3" in page.words  # opens the first illegal turn
    assert page.rows["place.empty"] == "failed"
    assert "e5 holds B's stone" in page.words
    assert RULES["place.empty"].text in page.words
    assert "repetition and threefold are evaluated" in page.words
    # a link per turn, keeping the game
    links = [parse_qs(urlsplit(h).query) for h in page.links if h.startswith("/game?")]
    assert {"turns": ["c3 +d4;e5 +d4;e5 +d5"], "at": ["1"]} in links
    assert {"turns": ["c3 +d4;e5 +d4;e5 +d5"], "at": ["2"]} in links
    # og:image: the board before turn 3 with turn 3 drawn
    image = parse_qs(urlsplit(page.meta["og:image"]).query)
    assert image["turn"] == ["e5 +d5"]
    assert image["position"] == ["0000/00000/000A000/0002000/0000B00/00000/0000 A 6:3:6:0:1:P:- 6:3:6:0:1:P:- 2"]


def test_a_turn_after_the_games_end_is_judged_not_refused(client):
    """A score sheet of more turns than the game had is a game, whose first
    turn after the end fails game.over (RULES §8), not a bad link."""
    import random

    from checker import legal_turns
    from checker.notation import turn_to_htn
    from checker.play import apply
    from checker.position import Position

    rng, pos, sheet = random.Random(7), Position.start(), []
    while True:
        turn = rng.choice(legal_turns(pos))
        sheet.append(turn_to_htn(turn, pos))
        outcome = apply(pos, turn)
        pos = outcome.position
        if outcome.game.over:
            break
    sheet.append("skip")
    resp = client.get(game_url(turns=";".join(sheet)))
    assert resp.status_code == 200
    items = re.findall(r'<li data-status="([a-z_]+)">', resp.get_data(as_text=True))
    assert items == ["passed"] * (len(sheet) - 1) + ["failed"]
    assert parse(resp).rows["game.over"] == "failed"


def test_game_page_at_a_legal_turn_and_at_the_end(client):
    page = parse(client.get(game_url(at=2)))
    assert "Turn 2" in page.words and "B Places on e5" in page.words
    assert "The first illegal turn: turn 3" in page.words  # still shown in full
    assert page.rows["place.empty"] == "failed"
    end = client.get(game_url(turns="c3 +d4;e5 +d4"))  # every turn legal: opens the final position
    words = parse(end).words
    assert "After the last turn" in words and "Every turn is legal" in words
    assert "0000/00000/000A000/0002000/0000B00/00000/0000 A 6:3:6:0:1:P:- 6:3:6:0:1:P:- 2" in words


def test_score_sheet_move_numbers_are_allowed(client):
    assert client.get(game_url(turns="1. c3 +d4; 2. e5 +d4")).status_code == 200


# --------------------------------------------------------------------- framing and embed


def test_pages_may_not_be_framed_by_default(client):
    for path in ("/", check_url(), game_url()):
        resp = client.get(path)
        assert "frame-ancestors 'none'" in resp.headers["Content-Security-Policy"], path
        assert resp.headers["X-Frame-Options"] == "DENY", path


def test_configured_origins_may_frame_the_pages():
    client = create_app({"TESTING": True, "FRAME_ANCESTORS": ["https://hexodic.com", "'self'"]}).test_client()
    for path in ("/", check_url(), game_url()):
        resp = client.get(path)
        csp = dict(d.strip().split(" ", 1) for d in resp.headers["Content-Security-Policy"].split(";"))
        assert csp["frame-ancestors"] == "https://hexodic.com 'self'", path
        assert "X-Frame-Options" not in resp.headers, path


def test_embed_mode_drops_the_page_chrome(client):
    full, embedded = parse(client.get(check_url())), parse(client.get(check_url(embed=1)))
    assert {t for t, _ in full.tags} >= {"header", "footer", "nav"}
    assert not {t for t, _ in embedded.tags} & {"header", "footer", "nav"}
    assert embedded.rows == full.rows  # the verdict stays
    game = parse(client.get(game_url(embed=1)))
    turn_links = [h for h in game.links if h.startswith("/game?")]
    assert turn_links and all(parse_qs(urlsplit(h).query)["embed"] == ["1"] for h in turn_links)


# ----------------------------------------------------------------------------- bad links


@pytest.mark.parametrize(
    "path, field, words",
    [
        ("/check?turn=d4", "position", "Missing"),
        (check_url(position="0000 A"), "position", "HPN"),
        (check_url(position=TIER_SUM_BROKEN), "position", "tier"),
        (check_url(turn="d4 ++c3"), "turn", "HTN"),
        ("/check?" + urlencode({"position": START_HPN}), "turn", "Missing"),
        ("/game", "turns", "Missing"),
        (game_url(turns=";;"), "turns", "No turn"),
        (game_url(turns="c3 +d4;zz"), "turns", "line 1, column 8 ('zz')"),
        (game_url(turns="1. c3 +d4 e5 +d4 e5 +d5"), "turns", "at most two turns"),
        (game_url(at=0), "at", "1"),
        (game_url(at=4), "at", "turn 4 was not checked"),
        (game_url(turns="c3 +d4", at=3), "at", "final position"),
    ],
)
def test_bad_links_get_a_page_for_a_browser_and_a_problem_for_a_client(client, path, field, words):
    api = client.get(path)
    assert api.status_code == 422 and api.mimetype == "application/problem+json"
    body = api.get_json()
    assert field in [e["path"] for e in body["errors"]]
    assert words.lower() in body["detail"].lower()
    page = client.get(path, headers=BROWSER)
    assert page.status_code == 422 and page.mimetype == "text/html"
    parsed = parse(page)
    assert f"{field}:" in parsed.words and words.lower() in parsed.words.lower()
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    # a link back to the playground, with the link's query when it has one
    query = urlsplit(path).query
    assert ("/?" + query if query else "/") in parsed.links


def test_an_api_client_still_gets_problems_from_the_api(client):
    resp = client.post("/v1/check", json={"position": START_HPN}, headers={"Accept": "*/*"})
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    resp = client.get("/no/such/page", headers=BROWSER)
    assert resp.status_code == 404 and resp.mimetype == "text/html" and "No such path" in parse(resp).words


@pytest.mark.parametrize(
    "query, title",
    [
        ("c3 +d4;e5 +d4;e5 +d5", "Game: 2 legal turns, turn 3 illegal (place.empty)"),
        ("c3 +d4;e5 +d4;e5 +d5&at=1", "Game: 2 legal turns, turn 3 illegal (place.empty); shown at turn 1"),
        ("c3 +d4", "Game: 1 legal turn"),
        ("c3 +d4;e5 +d4&at=1", "Game: 2 legal turns; shown at turn 1"),
        ("d4 +d4", "Game: 0 legal turns, turn 1 illegal (place.opening-restriction)"),
    ],
)
def test_the_game_pages_title_is_a_sentence(client, query, title):
    turns, _, at = query.partition("&at=")
    page = client.get("/game", query_string={"turns": turns, **({"at": at} if at else {})}).get_data(as_text=True)
    assert f"<title>{title} · Hexodic checker</title>" in page
