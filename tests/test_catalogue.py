"""The rule catalogue (RULES §9): ids, links, sources, wording.

The expected ids are read from the text of RULES.md itself, so a rule added to
the contract without a catalogue entry (or the reverse) fails here.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest

from checker.catalogue import RULE_IDS, RULES

# The shared contract lies beside the repository (../shared/RULES.md);
# HEXODIC_RULES_MD may point at another copy of it.
_BESIDE = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
RULES_MD = Path(os.environ.get("HEXODIC_RULES_MD", str(_BESIDE)))
if not RULES_MD.exists():  # pragma: no cover
    pytest.skip(f"RULES.md not found at {RULES_MD} (set HEXODIC_RULES_MD)", allow_module_level=True)

TEXT = RULES_MD.read_text(encoding="utf-8")

# Backticked dotted ids such as `place.cooldown` or `echo-capture.tier`. Wildcards like
# `place.*` (the §9 table) do not match; neither do field names such as `lowers_left`.
ID_RE = re.compile(r"`([a-z]+(?:-[a-z]+)*\.[a-z]+(?:-[a-z]+)*)`")
FAMILIES = {"game", "project", "place", "move", "shape", "echo", "echo-capture", "echo-lock", "position"}


def section(number: int) -> str:
    """The text of '## <number>. …' up to the next '## '."""
    m = re.search(rf"^## {number}\. .*?(?=^## |\Z)", TEXT, re.S | re.M)
    assert m, f"RULES.md has no section {number}"
    return m.group(0)


def ids_in(text: str) -> set[str]:
    return {i for i in ID_RE.findall(text) if i.split(".")[0] in FAMILIES}


def d3_block() -> str:
    m = re.search(r"\[decided D-3\].*?(?=\n- \[|\Z)", section(2), re.S)
    assert m
    return m.group(0)


DOC_IDS = (ids_in(section(4)) | ids_in(section(5)) | ids_in(section(6)) | ids_in(section(8))
           | ids_in(d3_block()))

EXPECTED_MORE = [
    # (prefix or exact id, link) — RULES §9 table
    ("game.over", "https://hexodic.com/rules/game-end"),
    ("project.skip", "https://hexodic.com/rules/project"),
    ("place.", "https://hexodic.com/rules/project"),
    ("move.", "https://hexodic.com/rules/project"),
    ("shape.", "https://hexodic.com/rules/shape"),
    ("echo.charge", "https://hexodic.com/rules/echo"),
    ("echo-capture.", "https://hexodic.com/rules/echo-capture"),
    ("echo-lock.", "https://hexodic.com/rules/lock"),
    ("position.", "https://hexodic.com/glossary"),
]


def expected_more(rule_id: str) -> str:
    for key, link in EXPECTED_MORE:
        if rule_id == key or (key.endswith(".") and rule_id.startswith(key)):
            return link
    raise AssertionError(f"{rule_id} is not covered by the §9 table")


# -------------------------------------------------------------- the ids ----

def test_the_extraction_finds_the_rules():
    # a sanity check of the regex: ids from every family, and a known count.
    # §4: project.skip + 5 place.* + 4 move.* = 10; §5: 6 shape.*; §6: echo.charge + 4 + 4 = 9;
    # §8: game.over; D-3: 11 position.*  -> 37
    assert {i.split(".")[0] for i in DOC_IDS} == FAMILIES
    assert len(DOC_IDS) == 37
    assert len([i for i in DOC_IDS if i.startswith("position.")]) == 11
    assert "place.opening-restriction" in DOC_IDS and "echo-lock.unlocked" in DOC_IDS


def test_every_rule_id_of_rules_md_is_in_the_catalogue():
    assert DOC_IDS - set(RULES) == set()


def test_every_catalogue_id_is_named_in_rules_md():
    assert set(RULES) - DOC_IDS == set()


def test_no_other_dotted_ids_in_rules_md():
    # every backticked dotted id anywhere in RULES.md is a catalogue id
    assert set(ID_RE.findall(TEXT)) <= set(RULES)


def test_rule_ids_tuple_and_entries_agree():
    assert set(RULE_IDS) == set(RULES)
    assert len(RULE_IDS) == len(set(RULE_IDS)) == len(RULES)
    for rid, entry in RULES.items():
        assert entry.id == rid


# ----------------------------------------------------------- more links ----

@pytest.mark.parametrize("rule_id", sorted(DOC_IDS))
def test_more_link_follows_the_table(rule_id):
    assert RULES[rule_id].more == expected_more(rule_id)


def test_table_links_appear_in_rules_md():
    for _, link in EXPECTED_MORE:
        assert link in section(9)


# --------------------------------------------------------- rule/decided ----

DECIDED = {"project.skip": "D-4", "shape.skipped": "D-7", "echo-lock.unlocked": "D-9"}


def test_inline_decided_tags_are_the_ones_expected():
    # RULES.md writes "`id` [decided D-n]" for the decided rule ids outside D-3
    inline = {i: d for i, d in re.findall(r"`([a-z][a-z.-]*)`\s+\[decided (D-\d+)\]", TEXT) if i in RULES}
    assert inline == DECIDED


@pytest.mark.parametrize("rule_id", sorted(DOC_IDS))
def test_source_and_decision(rule_id):
    entry = RULES[rule_id]
    if rule_id.startswith("position."):
        want = ("decided", "D-3")
    elif rule_id in DECIDED:
        want = ("decided", DECIDED[rule_id])
    else:
        want = ("rule", None)
    assert (entry.source, entry.decision) == want


# --------------------------------------------------------------- wording ----

STEP_LABELS = {"place.": "Step 1/2: Place", "move.": "Step 1/2: Move", "shape.": "Step 2/2: Shape",
               "echo.": "Step 3: Echo (optional)", "echo-capture.": "Step 3: Echo (optional)",
               "echo-lock.": "Step 3: Echo (optional)"}


@pytest.mark.parametrize("rule_id", sorted(DOC_IDS))
def test_step_labels_are_the_verbatim_ones(rule_id):
    # RULES §3: step labels used verbatim
    for prefix, label in STEP_LABELS.items():
        if rule_id.startswith(prefix):
            assert RULES[rule_id].step == label
    # the skip happens only with stones in reserve, so it carries the Place label (D-15)
    if rule_id == "project.skip":
        assert RULES[rule_id].step == "Step 1/2: Place"


def test_every_entry_has_a_title_and_text():
    for entry in RULES.values():
        assert entry.title.strip()
        assert entry.text.strip()
        assert entry.step.strip()


def test_no_catalogue_text_names_the_bot_or_the_search_core():
    for entry in RULES.values():
        for f in dataclasses.fields(entry):
            value = getattr(entry, f.name)
            if isinstance(value, str):
                assert "cl3o" not in value.lower(), (entry.id, f.name)
                assert "analysis engine" not in value.lower(), (entry.id, f.name)
