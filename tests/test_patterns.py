"""The published patterns (openapi.yaml) and the parsers take the same texts.

Each pattern is generated from (every text it matches must parse) and each
parser is fed texts near the grammar (every text it takes must match)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.notation import (
    HPN_PATTERN,
    HTN_PATTERN,
    PROJECT_TOKEN_PATTERN,
    SHAPE_TOKEN_PATTERN,
    START_HPN,
    NotationError,
    parse_hpn,
    parse_htn,
    parse_project,
    parse_shape,
)
from checker.scoresheet import SCORE_SHEET_PATTERN, read_score_sheet

CASES = [
    (HPN_PATTERN, parse_hpn),
    (HTN_PATTERN, parse_htn),
    (PROJECT_TOKEN_PATTERN, parse_project),
    (SHAPE_TOKEN_PATTERN, parse_shape),
    (SCORE_SHEET_PATTERN, read_score_sheet),
]
IDS = ["hpn", "htn", "project", "shape", "score-sheet"]
SETTINGS = settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def _parses(parse, text) -> bool:
    try:
        parse(text)
    except NotationError:
        return False
    return True


@pytest.mark.parametrize("pattern, parse", CASES, ids=IDS)
def test_every_text_the_pattern_matches_parses(pattern, parse):
    @SETTINGS
    @given(st.from_regex(pattern))
    def run(text):
        if parse is parse_hpn and re.search(r"is listed twice", _why(parse, text)):
            return  # the one thing the HPN pattern does not say (openapi.yaml's 422)
        assert _parses(parse, text), (text, _why(parse, text))

    run()


def _why(parse, text) -> str:
    try:
        parse(text)
    except NotationError as exc:
        return exc.message
    return ""


NEAR = st.sampled_from(
    [START_HPN, "c3 +d4 #c4", "skip *e5", "c3xC4 -d3", "1. c3 +d4 e5 +d4\n2... e5 +d5; skip", "+d4", "C3-c4"]
)
EDITS = st.lists(
    st.tuples(
        st.integers(0, 200),
        st.sampled_from(
            [" ", "\t", "\n", "\u00a0", "\x1c", "٣", "0", "9", "A", "x", "*", ":", ",", ";", ".", "", "-", "+", "#"]
        ),
    ),
    max_size=3,
)


@pytest.mark.parametrize("pattern, parse", CASES, ids=IDS)
def test_every_text_the_parser_takes_matches_the_pattern(pattern, parse):
    @SETTINGS
    @given(NEAR, EDITS)
    def run(text, edits):
        for at, ch in edits:
            at = min(at, len(text))
            text = text[:at] + ch + text[at + (1 if ch == "" else 0) :]
        if _parses(parse, text):
            assert re.search(pattern, text), text

    run()


def test_a_cell_twice_in_an_hpn_cooldown_is_refused_in_either_case():
    for cooldown in ("c3,c3", "c3,C3"):
        text = START_HPN.replace("7:3:6:0:0:-:- 0", f"7:3:6:0:0:-:{cooldown} 0")
        assert re.search(HPN_PATTERN, text)
        with pytest.raises(NotationError, match="c3 is listed twice"):
            parse_hpn(text)


@pytest.mark.parametrize(
    "text",
    [START_HPN + "\u00a0", START_HPN.replace(" A ", "\u2003A "), "0000/00000/000000/0000000/000000/00000/0000"],
)
def test_hpn_outside_the_pattern_is_refused_with_a_reason(text):
    assert not re.search(HPN_PATTERN, text)
    with pytest.raises(NotationError) as caught:
        parse_hpn(text)
    assert caught.value.message
