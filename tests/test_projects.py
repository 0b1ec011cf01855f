"""checker.projects: the Projects of the player to move (RULES §4), decided one by one
(``project_is_legal``, which the quick turn test and the quick replay use) and listed
(``legal_projects``), held to one answer on the published perft positions."""

from __future__ import annotations

import pytest

from checker import board
from checker.notation import parse_hpn
from checker.projects import SKIP, legal_projects, place_cells, project_is_legal
from checker.tools.perft_table import load_table
from checker.turn import Move, Place

TABLE = {e.name: parse_hpn(e.hpn) for e in load_table()}
EVERY_PROJECT = [SKIP, *(Place(c) for c in board.CELLS)]
EVERY_PROJECT += [Move(a, b) for a in board.CELLS for b in board.NEIGHBOURS[a]]


@pytest.mark.parametrize("name", TABLE)
def test_project_is_legal_exactly_for_the_listed_projects(name):
    """Every Place, every Move to a neighbour and the skip, asked one at a time: legal exactly
    when listed. The cooldown-skip position has stones in reserve and its skip applies, so a Move
    there is illegal (``project.reserve``) however the skip stands."""
    pos = TABLE[name]
    assert {p for p in EVERY_PROJECT if project_is_legal(pos, p)} == set(legal_projects(pos))


def test_the_capture_cooldown_alone_leaves_the_skip_position_no_cell_to_place_on():
    """RULES §4 (``place.cooldown``): a Place at least 2 steps from every cell of the mover's capture
    cooldown. In the cooldown-skip position every empty cell is within 1 step of b2, b4, d2, d6 or
    f5, so A has no cell; without the cooldown every empty cell is open (none is locked, and A has
    Placed before, so the opening restriction is spent)."""
    pos = TABLE["cooldown-skip"]
    assert place_cells(pos) == []
    assert place_cells(pos, ignore_cooldown=True) == [c for c in board.CELLS if pos.stones[c] is None]
