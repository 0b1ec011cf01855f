"""The game page's stepper (issue 33): a "next" link wherever there is a next
stop, none at the last one (the first illegal turn, where the replay stops,
or the final position of a game whose every turn is legal)."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

LEGAL = "c3 +d4;e5 +d4"  # A's first Place and B's: both legal (RULES §4)
ILLEGAL = "c3 +d4;e5 +d4;c3"  # turn 3 Places on A's own stone: place.empty, the replay stops there


class _Stepper(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rel: dict[str, str] = {}
        self.disabled: list[str] = []
        self._span = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("rel") in ("next", "prev"):
            self.rel[a["rel"]] = a["href"]
        self._span = tag == "span" and a.get("aria-disabled") == "true"

    def handle_data(self, data):
        if self._span and data.strip():
            self.disabled.append(data.strip())
        self._span = False


def _stepper(client, turns: str, at: int) -> _Stepper:
    resp = client.get("/game?" + urlencode({"turns": turns, "at": at}))
    assert resp.status_code == 200
    page = _Stepper()
    page.feed(resp.get_data(as_text=True))
    return page


def _at(href: str) -> int:
    return int(parse_qs(urlsplit(href).query)["at"][0])


@pytest.mark.parametrize("turns, last", [(LEGAL, 3), (ILLEGAL, 3)])
def test_no_next_link_at_the_last_stop_and_one_before_it(client, turns, last):
    """The last stop: for a legal game the final position (at = turns + 1), for an illegal one its first
    illegal turn."""
    end = _stepper(client, turns, last)
    assert "next" not in end.rel and "Next" in end.disabled
    assert _at(end.rel["prev"]) == last - 1
    for at in range(1, last):
        page = _stepper(client, turns, at)
        assert _at(page.rel["next"]) == at + 1, at
        assert "Next" not in page.disabled
