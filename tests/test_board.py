"""Board geometry (RULES §1, D-1).

Every expectation here is worked out by hand from RULES §1:
cells (row i, column j) with rows a=1 … g=7, valid when |i − j| ≤ 3;
neighbours (i, j−1), (i, j+1), (i−1, j), (i+1, j), (i−1, j−1), (i+1, j+1);
steps max(|di|, |dj|, |di − dj|).
"""

from __future__ import annotations

import pytest

from checker import board
from checker.board import CellError

# D-1, row by row: a1–a4, b1–b5, c1–c6, d1–d7, e2–e7, f3–f7, g4–g7.
D1_NAMES = (
    ["a1", "a2", "a3", "a4"]
    + ["b1", "b2", "b3", "b4", "b5"]
    + ["c1", "c2", "c3", "c4", "c5", "c6"]
    + ["d1", "d2", "d3", "d4", "d5", "d6", "d7"]
    + ["e2", "e3", "e4", "e5", "e6", "e7"]
    + ["f3", "f4", "f5", "f6", "f7"]
    + ["g4", "g5", "g6", "g7"]
)

CORNERS = {"a1", "a4", "d1", "d7", "g4", "g7"}


def C(name: str) -> int:
    return board.parse_cell(name)


def names(cells) -> set[str]:
    return {board.name(c) for c in cells}


def coords(name: str) -> tuple[int, int]:
    """(row, column) of a cell name, a=1 … g=7 — the test's own reading of D-1."""
    return "abcdefg".index(name[0]) + 1, int(name[1:])


def hand_steps(a: str, b: str) -> int:
    (i1, j1), (i2, j2) = coords(a), coords(b)
    di, dj = i1 - i2, j1 - j2
    return max(abs(di), abs(dj), abs(di - dj))


# ---------------------------------------------------------------- cells ----


def test_board_has_37_cells():
    # 4 + 5 + 6 + 7 + 6 + 5 + 4 = 37
    assert len(D1_NAMES) == 37
    assert board.CELL_COUNT == 37
    assert len(board.CELLS) == 37
    assert len(board.NAMES) == 37


def test_cell_names_are_exactly_those_of_d1_in_board_order():
    assert list(board.NAMES) == D1_NAMES
    # cells are the ints 0..36 in board order
    assert [board.parse_cell(n) for n in D1_NAMES] == list(range(37))
    assert [board.name(c) for c in range(37)] == D1_NAMES


def test_names_satisfy_the_d1_condition():
    # every valid name has |row - column| <= 3 and every such (row, column) in 1..7 is a cell
    expected = {f"{'abcdefg'[i - 1]}{j}" for i in range(1, 8) for j in range(1, 8) if abs(i - j) <= 3}
    assert set(board.NAMES) == expected


def test_rows_hold_the_d1_cells():
    rows = [[board.name(c) for c in row] for row in board.ROW_CELLS]
    assert rows == [
        ["a1", "a2", "a3", "a4"],
        ["b1", "b2", "b3", "b4", "b5"],
        ["c1", "c2", "c3", "c4", "c5", "c6"],
        ["d1", "d2", "d3", "d4", "d5", "d6", "d7"],
        ["e2", "e3", "e4", "e5", "e6", "e7"],
        ["f3", "f4", "f5", "f6", "f7"],
        ["g4", "g5", "g6", "g7"],
    ]


@pytest.mark.parametrize(
    "text", ["a5", "g3", "h1", "d0", "d8", "e1", "b6", "f2", "a0", "", "d", "4", "d44", "dd", "i4"]
)
def test_invalid_names_raise_cell_error(text):
    with pytest.raises(CellError):
        board.parse_cell(text)
    assert not board.is_cell_name(text)


@pytest.mark.parametrize("text", D1_NAMES)
def test_valid_names_round_trip(text):
    assert board.is_cell_name(text)
    assert board.name(board.parse_cell(text)) == text


def test_centre_is_d4():
    assert board.CENTRE == board.parse_cell("d4") == board.D4
    assert board.name(board.CENTRE) == "d4"
    # the centre is 0 steps from itself and at most 3 from every cell (hexagon of side 4)
    assert max(board.STEPS[board.CENTRE]) == 3


def test_module_constants_name_cells():
    assert board.A1 == 0
    assert board.G7 == 36
    assert board.C3 == board.parse_cell("c3")
    assert board.E5 == board.parse_cell("e5")


# ----------------------------------------------------------- neighbours ----


@pytest.mark.parametrize(
    "cell, expected",
    [
        # a1 = (1,1): (1,0) off, (1,2) a2, (0,1) off, (2,1) b1, (0,0) off, (2,2) b2
        ("a1", {"a2", "b1", "b2"}),
        # d4 = (4,4): (4,3) d3, (4,5) d5, (3,4) c4, (5,4) e4, (3,3) c3, (5,5) e5
        ("d4", {"d3", "d5", "c4", "e4", "c3", "e5"}),
        # g7 = (7,7): (7,6) g6, (7,8) off, (6,7) f7, (8,7) off, (6,6) f6, (8,8) off
        ("g7", {"g6", "f7", "f6"}),
        # a2 = (1,2): (1,1) a1, (1,3) a3, (0,2) off, (2,2) b2, (0,1) off, (2,3) b3
        ("a2", {"a1", "a3", "b2", "b3"}),
        # d1 = (4,1): (4,0) off, (4,2) d2, (3,1) c1, (5,1) e1 is not a cell (|5-1| = 4), (3,0) off, (5,2) e2
        ("d1", {"d2", "c1", "e2"}),
        # a4 = (1,4): (1,3) a3, (1,5) not a cell, (0,4) off, (2,4) b4, (0,3) off, (2,5) b5
        ("a4", {"a3", "b4", "b5"}),
        # g4 = (7,4): (7,3) not a cell, (7,5) g5, (6,4) f4, (8,4) off, (6,3) f3, (8,5) off
        ("g4", {"g5", "f4", "f3"}),
        # d7 = (4,7): (4,6) d6, (4,8) off, (3,7) not a cell, (5,7) e7, (3,6) c6, (5,8) off
        ("d7", {"d6", "e7", "c6"}),
        # c3 = (3,3): c2, c4, b3, d3, b2, d4
        ("c3", {"c2", "c4", "b3", "d3", "b2", "d4"}),
    ],
)
def test_neighbours_by_hand(cell, expected):
    got = board.NEIGHBOURS[C(cell)]
    assert names(got) == expected
    # NEIGHBOURS lists cells in board order, without repeats
    assert list(got) == sorted(got)
    assert len(set(got)) == len(got)


def test_slots_follow_the_rules_order():
    # RULES §1 order: (i, j−1), (i, j+1), (i−1, j), (i+1, j), (i−1, j−1), (i+1, j+1); None = edge
    assert board.SLOTS[C("a1")] == (None, C("a2"), None, C("b1"), None, C("b2"))
    assert board.SLOTS[C("d4")] == (C("d3"), C("d5"), C("c4"), C("e4"), C("c3"), C("e5"))
    assert board.SLOTS[C("g7")] == (C("g6"), None, C("f7"), None, C("f6"), None)
    assert board.SLOTS[C("d1")] == (None, C("d2"), C("c1"), None, None, C("e2"))


def test_every_cell_has_six_slots_matching_the_formula():
    for n in D1_NAMES:
        i, j = coords(n)
        expected = []
        for di, dj in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, 1)):
            ii, jj = i + di, j + dj
            ok = 1 <= ii <= 7 and 1 <= jj <= 7 and abs(ii - jj) <= 3
            expected.append(C(f"{'abcdefg'[ii - 1]}{jj}") if ok else None)
        assert board.SLOTS[C(n)] == tuple(expected), n
        assert set(board.NEIGHBOURS[C(n)]) == {s for s in expected if s is not None}, n


def test_neighbour_relation_is_symmetric():
    for a in board.CELLS:
        for b in board.NEIGHBOURS[a]:
            assert a in board.NEIGHBOURS[b]


# ---------------------------------------------------------------- steps ----


@pytest.mark.parametrize(
    "a, b, expected",
    [
        # a1 (1,1) – g7 (7,7): di = -6, dj = -6, di-dj = 0 -> 6
        ("a1", "g7", 6),
        # a4 (1,4) – d1 (4,1): di = -3, dj = 3, opposite signs -> |di| + |dj| = 6 (di-dj = -6)
        ("a4", "d1", 6),
        # a1 (1,1) – d7 (4,7): di = -3, dj = -6, di-dj = 3 -> 6
        ("a1", "d7", 6),
        # a1 (1,1) – a4 (1,4): dj = -3 -> 3 (adjacent corners)
        ("a1", "a4", 3),
        # a1 (1,1) – d1 (4,1): di = -3 -> 3
        ("a1", "d1", 3),
        # d4 – g7: (4,4)-(7,7): -3, -3, 0 -> 3
        ("d4", "g7", 3),
        # d4 – d1: dj = 3 -> 3
        ("d4", "d1", 3),
        # c3 (3,3) – e5 (5,5): -2, -2 -> 2
        ("c3", "e5", 2),
        # c5 (3,5) – e3 (5,3): di = -2, dj = 2 -> 4
        ("c5", "e3", 4),
        # b2 (2,2) – c1 (3,1): di = -1, dj = 1 -> 2 (not neighbours)
        ("b2", "c1", 2),
        # a2 (1,2) – b1 (2,1): -1, 1 -> 2
        ("a2", "b1", 2),
        # d1 – d7: dj = -6 -> 6
        ("d1", "d7", 6),
        # g4 (7,4) – a4 (1,4): di = 6 -> 6
        ("g4", "a4", 6),
        # c3 – c3: 0
        ("c3", "c3", 0),
        # c3 (3,3) – d4 (4,4): -1, -1 -> 1 (neighbours)
        ("c3", "d4", 1),
        # c4 (3,4) – d3 (4,3): -1, 1 -> 2 (not neighbours)
        ("c4", "d3", 2),
    ],
)
def test_steps_by_hand(a, b, expected):
    assert board.STEPS[C(a)][C(b)] == expected
    assert board.STEPS[C(b)][C(a)] == expected
    assert board.steps(C(a), C(b)) == expected


def test_steps_match_the_formula_everywhere():
    for a in D1_NAMES:
        for b in D1_NAMES:
            assert board.STEPS[C(a)][C(b)] == hand_steps(a, b), (a, b)


def test_steps_symmetric_and_zero_only_on_the_diagonal():
    for a in board.CELLS:
        for b in board.CELLS:
            assert board.STEPS[a][b] == board.STEPS[b][a]
            assert (board.STEPS[a][b] == 0) == (a == b)


def test_neighbour_relation_is_exactly_one_step():
    for a in board.CELLS:
        one_step = {b for b in board.CELLS if board.STEPS[a][b] == 1}
        assert set(board.NEIGHBOURS[a]) == one_step, board.name(a)


def test_rings_around_the_centre():
    # 37 = 1 + 6 + 12 + 18 cells at 0, 1, 2, 3 steps from d4
    counts = [sum(1 for c in board.CELLS if board.STEPS[board.CENTRE][c] == k) for k in range(4)]
    assert counts == [1, 6, 12, 18]
    assert sum(counts) == 37


# ----------------------------------------------------------- edge slots ----


def test_corners_have_three_edge_slots():
    for n in CORNERS:
        assert board.EDGE_SLOTS[C(n)] == 3, n


def test_other_outer_cells_have_two_edge_slots_and_inner_none():
    outer = {n for n in D1_NAMES if hand_steps(n, "d4") == 3}
    assert len(outer) == 18
    assert CORNERS <= outer
    for n in D1_NAMES:
        expected = 3 if n in CORNERS else 2 if n in outer else 0
        assert board.EDGE_SLOTS[C(n)] == expected, n
        assert board.EDGE_SLOTS[C(n)] == sum(s is None for s in board.SLOTS[C(n)])
    # 6 corners x 3 + 12 x 2 = 42 edge slots in all
    assert sum(board.EDGE_SLOTS) == 42
    assert sorted(board.EDGE_SLOTS).count(3) == 6
    assert sorted(board.EDGE_SLOTS).count(2) == 12
    assert sorted(board.EDGE_SLOTS).count(0) == 19  # 1 + 6 + 12


def test_a_few_edge_slot_counts_by_hand():
    assert board.EDGE_SLOTS[C("a1")] == 3
    assert board.EDGE_SLOTS[C("a2")] == 2  # (0,2) and (0,1) are off the board
    assert board.EDGE_SLOTS[C("b1")] == 2  # (2,0), (1,0) off; (3,1) c1, (1,1) a1, (2,2) b2, (3,2) c2 on
    assert board.EDGE_SLOTS[C("b2")] == 0  # 2 steps from d4
    assert board.EDGE_SLOTS[C("d4")] == 0
    assert board.EDGE_SLOTS[C("e7")] == 2


# -------------------------------------------------------------- WITHIN_2 ----


def test_within_2_of_the_centre_has_19_cells():
    # 1 + 6 + 12
    assert len(board.WITHIN_2[board.CENTRE]) == 19


@pytest.mark.parametrize(
    "cell, expected",
    [
        # a1 (1,1): a1 a2 a3, b1 b2 b3, c1 c2 c3 (all with di, dj <= 0 and max <= 2)
        ("a1", {"a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"}),
        # d1 (4,1): b1 (2,0->2), c1, c2 (1,-1->2), d1 d2 d3, e2 (-1,-1), e3 (-1,-2), f3 (-2,-2)
        ("d1", {"b1", "c1", "c2", "d1", "d2", "d3", "e2", "e3", "f3"}),
        # a2 (1,2): a1..a4, b1 (-1,1->2), b2 b3, b4 (-1,-2), c2 (-2,0), c3 (-2,-1), c4 (-2,-2); c1 (-2,1) is 3
        ("a2", {"a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "c2", "c3", "c4"}),
        # b2 (2,2): a1 a2 a3 (a3: 1,-1 -> 2), b1..b4, c1 (-1,1->2) c2 c3 c4, d2 d3 d4; a4 and d1 are 3
        ("b2", {"a1", "a2", "a3", "b1", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "d2", "d3", "d4"}),
    ],
)
def test_within_2_by_hand(cell, expected):
    assert names(board.WITHIN_2[C(cell)]) == expected
    assert len(board.WITHIN_2[C(cell)]) == len(expected)


def test_within_2_matches_steps_everywhere():
    for a in D1_NAMES:
        got = board.WITHIN_2[C(a)]
        assert names(got) == {b for b in D1_NAMES if hand_steps(a, b) <= 2}, a
        assert list(got) == sorted(got)
        assert C(a) in got


def test_within_2_sizes_by_ring():
    # cells 0 or 1 step from d4: the whole 2-step disk (19 cells) is on the board
    for n in D1_NAMES:
        if hand_steps(n, "d4") <= 1:
            assert len(board.WITHIN_2[C(n)]) == 19, n
    # corners: 9 (see a1 and d1 above)
    for n in CORNERS:
        assert len(board.WITHIN_2[C(n)]) == 9, n
