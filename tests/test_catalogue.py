"""The catalogue against the checker and the project's own reference.

- every rule id is judged by the checker (named by a check of some verdict of
  the conformance vectors, failed by some vector; every ``position.*`` id
  reported for a position that breaks it), and the checker names no other id;
- every id is documented (an entry of the reference, with a title and a full
  text), and every id or D-n a text names exists;
- D-1 … D-15 are all there, with the same numbers;
- links, sources and step labels follow the rules' table (RULES §9), written
  out here by hand.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from checker.catalogue import (
    CAPTURES,
    DECISIONS,
    ENDINGS,
    ENTRIES,
    RULE_IDS,
    RULES,
    Kind,
    capture_entry,
    end_entry,
    rule_url,
)
from checker.legality import check
from checker.notation import parse_hpn, parse_htn
from checker.position import Position
from checker.reference import anchors, markdown
from checker.tools import vectors
from tests.helpers import POSITION_RULES, START_HPN, TURN_RULES

ID_RE = re.compile(r"\b[a-z]+(?:-[a-z]+)*\.[a-z]+(?:-[a-z]+)*\b")
FAMILIES = {
    "game",
    "project",
    "place",
    "move",
    "shape",
    "echo",
    "echo-capture",
    "echo-lock",
    "position",
    "capture",
    "end",
}


# ------------------------------------------------------------- the ids ----


def test_the_rule_ids_are_those_of_the_rules():
    # tests/helpers.py writes the ids out by hand: 26 a turn's checks name, 11 position.* (D-3)
    assert RULE_IDS == TURN_RULES + POSITION_RULES
    assert len(RULE_IDS) == 37
    for rid, entry in RULES.items():
        assert entry.id == rid and entry.kind is Kind.RULE


def test_the_other_entries():
    assert list(CAPTURES) == ["capture.move", "capture.encirclement", "capture.echo"]
    # in the order D-11 checks them
    assert list(ENDINGS) == [
        "end.takeover",
        "end.network",
        "end.strangle",
        "end.repetition",
        "end.threefold",
        "end.tiebreak",
    ]
    assert {e.kind for e in CAPTURES.values()} == {Kind.CAPTURE}
    assert {e.kind for e in ENDINGS.values()} == {Kind.END}
    assert capture_entry("echo").id == "capture.echo" and end_entry("tiebreak").id == "end.tiebreak"
    assert len(ENTRIES) == len(RULES) + len(CAPTURES) + len(ENDINGS) + len(DECISIONS)


def test_decided_readings_d1_to_d15_keep_their_numbers():
    assert list(DECISIONS) == [f"D-{n}" for n in range(1, 16)]
    for d, e in DECISIONS.items():
        assert (e.id, e.kind, e.source, e.decision) == (d, Kind.DECISION, "decided", d)
    # a few readings, by what they decide (RULES.md's D-n, in our words)
    assert "d4" in DECISIONS["D-1"].text and "hexagon of side 4" in DECISIONS["D-1"].text
    assert "A moves first" in DECISIONS["D-2"].text
    assert "Place would be legal if the cooldown were ignored" in DECISIONS["D-4"].text
    assert "shape.skipped" in DECISIONS["D-7"].text
    assert "captures nothing" in DECISIONS["D-8"].text and "charge is spent" in DECISIONS["D-8"].text
    assert "(t + 1) × (edge slots + opponent-stone slots) > 6 × t" in DECISIONS["D-10"].text
    assert "Takeover, Network, Strangle, repetition loss, threefold draw, half-move cap" in DECISIONS["D-11"].text
    assert "Step 1/2: Move" in DECISIONS["D-15"].text


def _every_vector_verdict():
    for v in vectors.read_vectors():
        history = None if v["history"] is None else [parse_hpn(h) for h in v["history"]]
        yield check(parse_hpn(v["position"]), parse_htn(v["turn"]), history)


def test_every_turn_rule_id_is_judged_by_the_checker():
    named, failed = set(), set()
    for verdict in _every_vector_verdict():
        named |= {c.rule for c in verdict.checks}
        failed |= set(verdict.violations)
    assert named == set(TURN_RULES), "the checks name exactly the turn rule ids"
    assert failed == set(TURN_RULES), "every turn rule id fails in some vector"


# One position per D-3 condition, each made by hand from the start position so
# that it breaks that condition (others may break too).
_START = parse_hpn(START_HPN)
_BROKEN = {
    "position.range": START_HPN.replace("A 7:3:6", "A 7:4:6", 1),  # 4 charges
    "position.stone-count": START_HPN.replace("A 7:3:6:0:0:-:-", "A 6:3:6:0:0:P:-", 1),  # 0 + 6 stones
    "position.lock-tier": "0*000/00000/000000/0000000/000000/00000/0000 A 7:2:6:0:0:L:- 7:3:6:0:0:-:- 0",
    "position.lock-count": "2000/00000/000000/0000000/000000/00000/0000 A 7:2:6:0:0:L:- 7:3:6:0:0:-:- 0",
    "position.lock-charges": "2A*000/00000/000000/0000000/000000/00000/0000 B 6:3:6:0:2:PL:- 7:3:6:0:0:-:- 3",
    "position.unplaced": "0A000/00000/000000/0000000/000000/00000/0000 B 6:3:6:0:0:-:- 7:3:6:0:0:-:- 1",
    "position.cooldown": "0A000/00000/000000/0000000/000000/00000/0000 B 6:3:6:0:0:P:a2 7:3:6:0:0:-:- 1",
    "position.to-move": START_HPN.replace(" A 7", " B 7", 1),
    "position.shape-count": "1000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:1:-:- 7:3:6:0:0:-:- 0",
    "position.tier-sum": "1A000/00000/000000/0000000/000000/00000/0000 B 6:3:6:0:0:P:- 7:3:6:0:0:-:- 1",
}


@pytest.mark.parametrize("rule", POSITION_RULES)
def test_every_position_id_is_judged_by_the_checker(rule):
    if rule == "position.tier":  # HPN cannot write a tier 3
        tiers = list(_START.tiers)
        tiers[0] = 3
        pos = Position(tiers, _START.stones, _START.locked, "A", 0, _START.players)
    else:
        pos = parse_hpn(_BROKEN[rule])
    assert rule in {p.rule for p in pos.problems()}
    assert _START.problems() == []


# ------------------------------------------------------------ documented ----


def test_every_id_is_an_entry_of_the_reference_once():
    listed = anchors()
    for entry_id in ENTRIES:
        assert listed.count(entry_id) == 1, entry_id
    assert len(listed) == len(set(listed)), "an anchor is used twice"


def test_every_entry_has_a_title_and_a_full_text():
    for e in ENTRIES.values():
        assert e.title.strip() and e.step.strip(), e.id
        assert len(e.text.split()) >= 5, f"{e.id}: the text is no full requirement: {e.text!r}"
        assert e.text.rstrip().endswith((".", ")")), e.id
        assert e.rule_url == f"/rules#{e.id}" == rule_url(e.id)


def test_every_id_and_reading_a_text_names_exists():
    texts = [markdown()] + [e.text for e in ENTRIES.values()]
    for text in texts:
        for word in ID_RE.findall(text):
            if word.split(".")[0] in FAMILIES:
                assert word in ENTRIES, f"{word} is named but is no catalogue entry"
        for d in re.findall(r"\bD-\d+\b", text):
            assert d in DECISIONS, f"{d} is named but is no decided reading"


def test_an_unknown_id_has_no_url():
    with pytest.raises(KeyError):
        rule_url("place.nowhere")


# ----------------------------------------------------------- more links ----

EXPECTED_MORE = [
    # (prefix or exact id, link): the table of RULES §9, and its sentence on capture and game-end links
    ("game.over", "https://hexodic.com/rules/game-end"),
    ("project.skip", "https://hexodic.com/rules/project"),
    ("place.", "https://hexodic.com/rules/project"),
    ("move.", "https://hexodic.com/rules/project"),
    ("shape.", "https://hexodic.com/rules/shape"),
    ("echo.charge", "https://hexodic.com/rules/echo"),
    ("echo-capture.", "https://hexodic.com/rules/echo-capture"),
    ("echo-lock.", "https://hexodic.com/rules/lock"),
    ("position.", "https://hexodic.com/glossary"),
    ("capture.", "https://hexodic.com/rules/capture"),
    ("end.takeover", "https://hexodic.com/rules/takeover"),
    ("end.network", "https://hexodic.com/rules/network"),
    ("end.strangle", "https://hexodic.com/rules/strangle"),
    ("end.repetition", "https://hexodic.com/rules/game-end"),
    ("end.threefold", "https://hexodic.com/rules/game-end"),
    ("end.tiebreak", "https://hexodic.com/rules/game-end"),
]


def expected_more(entry_id: str) -> str:
    for key, link in EXPECTED_MORE:
        if entry_id == key or (key.endswith(".") and entry_id.startswith(key)):
            return link
    raise AssertionError(f"{entry_id} is not covered by the table")


@pytest.mark.parametrize("entry_id", [*RULES, *CAPTURES, *ENDINGS])
def test_more_link_follows_the_table(entry_id):
    assert ENTRIES[entry_id].more == expected_more(entry_id)


def test_decisions_link_to_a_published_page():
    for e in DECISIONS.values():
        assert e.more.startswith("https://hexodic.com/"), e.id


# --------------------------------------------------------- rule/decided ----

# RULES.md tags these rule ids [decided D-n] (outside D-3, which covers every position.* id)
DECIDED = {"project.skip": "D-4", "shape.skipped": "D-7", "echo-lock.unlocked": "D-9", "capture.echo": "D-10"}


@pytest.mark.parametrize("entry_id", [*RULES, *CAPTURES, *ENDINGS])
def test_source_and_decision(entry_id):
    entry = ENTRIES[entry_id]
    if entry_id.startswith("position."):
        want = ("decided", "D-3")
    elif entry_id in DECIDED:
        want = ("decided", DECIDED[entry_id])
    else:
        want = ("rule", None)
    assert (entry.source, entry.decision) == want


# --------------------------------------------------------------- wording ----

STEP_LABELS = {
    "place.": "Step 1/2: Place",
    "move.": "Step 1/2: Move",
    "shape.": "Step 2/2: Shape",
    "echo.": "Step 3: Echo (optional)",
    "echo-capture.": "Step 3: Echo (optional)",
    "echo-lock.": "Step 3: Echo (optional)",
    "game.": "Before the turn",
    "position.": "Position",
    "capture.": "Capture check",
    "end.": "End of the game",
    "D-": "Decided reading",
}


@pytest.mark.parametrize("entry_id", list(ENTRIES))
def test_step_labels_are_the_verbatim_ones(entry_id):
    # RULES §3: step labels used verbatim; the skip carries the Place label (it needs stones in reserve, D-15)
    want = (
        "Step 1/2: Place"
        if entry_id == "project.skip"
        else next(label for prefix, label in STEP_LABELS.items() if entry_id.startswith(prefix))
    )
    assert ENTRIES[entry_id].step == want


def test_no_catalogue_text_names_the_bot_or_the_search_core():
    for entry in ENTRIES.values():
        for f in dataclasses.fields(entry):
            value = getattr(entry, f.name)
            if isinstance(value, str):
                assert "cl3o" not in value.lower(), (entry.id, f.name)
                assert "analysis engine" not in value.lower(), (entry.id, f.name)
    assert "cl3o" not in markdown().lower() and "analysis engine" not in markdown().lower()


def test_texts_use_the_players_names_not_you():
    for entry in ENTRIES.values():
        assert not re.search(r"\byour?\b", entry.text, re.I), entry.id
