"""A '+' typed into a link's query arrives as a space (URL decoding): when a
turn or a score sheet from the query does not read and the raw query holds a
literal '+', the error says to write it as %2B, as problem+json and on the
page a browser gets."""

from __future__ import annotations

import pytest

from checker.web.endpoints import PLUS_HINT
from tests.helpers import START_HPN

START = START_HPN.replace(" ", "%20")


@pytest.mark.parametrize(
    "path, parameter",
    [
        (f"/check?position={START}&turn=c3+d4", "turn"),
        ("/game?turns=c3+d4+e5", "turns"),
        (f"/v1/render.svg?position={START}&turn=c3+d4", "turn"),
    ],
)
def test_a_literal_plus_gets_the_hint(client, path, parameter):
    problem = client.get(path, headers={"Accept": "application/json"}).get_json()
    assert problem["status"] == 422
    assert {"path": parameter, "message": PLUS_HINT} in problem["errors"]
    page = client.get(path, headers={"Accept": "text/html"}).get_data(as_text=True)
    assert "write it as %2B" in page


def test_no_hint_without_a_literal_plus_or_when_the_turn_reads(client):
    problem = client.get(f"/check?position={START}&turn=c3%20d4", headers={"Accept": "application/json"}).get_json()
    assert problem["status"] == 422 and all(e["message"] != PLUS_HINT for e in problem["errors"])
    # '+' elsewhere in the query, the turn reading well: no error at all
    assert client.get(f"/check?position={START}&turn=c3%20%2Bd4&utm=a+b").status_code == 200
