"""Text notation (RULES §10): HPN for positions, HTN for turns."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker import board
from checker.notation import NotationError, key_hpn, parse_hpn, parse_htn, position_to_hpn, turn_to_htn
from checker.position import PlayerState, Position
from checker.turn import Echo, Move, Place, Shape, Skip, Turn


def C(name: str) -> int:
    return board.parse_cell(name)


START_HPN = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
START_BOARD = "0000/00000/000000/0000000/000000/00000/0000"

# After 2 half-moves: A on c3 (tier 1), B on e5 (tier 1).
BASE_HPN = "0000/00000/001A000/0000000/0001B00/00000/0000 A 6:3:6:0:1:P:- 6:3:6:0:1:P:- 2"

# Every kind of cell text: a1 "2A*", a3 "1B", b2 "2*" (locked, empty), b5 "1", c6 "2B", d4 "2B",
# e2 "1A", f7 "0A", g4 "2*". Flags PL and L. Not consistent (parsing does not check that).
RICH_BOARD = "2A*01B0/02*001/000002B/0002B000/1A00000/00000A/2*000"
RICH_IN = f"{RICH_BOARD} B 0:2:5:3:4:PL:- 5:0:0:12:7:L:g7,c3,e5 37"
RICH_OUT = f"{RICH_BOARD} B 0:2:5:3:4:PL:- 5:0:0:12:7:L:c3,e5,g7 37"


def raises_notation(fn, text) -> NotationError:
    with pytest.raises(NotationError) as info:
        fn(text)
    return info.value


# ------------------------------------------------------------------ HPN ----


def test_start_hpn_parses_to_the_start_position():
    assert parse_hpn(START_HPN) == Position.start()
    assert position_to_hpn(Position.start()) == START_HPN


def test_base_hpn_fields():
    pos = parse_hpn(BASE_HPN)
    assert pos.tiers[C("c3")] == 1 and pos.stones[C("c3")] == "A"
    assert pos.tiers[C("e5")] == 1 and pos.stones[C("e5")] == "B"
    assert sum(pos.tiers) == 2
    assert pos.stones.count("A") == 1 and pos.stones.count("B") == 1
    assert not any(pos.locked)
    assert pos.to_move == "A" and pos.half_moves == 2
    for who in "AB":
        p = pos.player(who)
        assert (p.reserve, p.charges, p.lowers_left, p.captures, p.raises) == (6, 3, 6, 0, 1)
        assert p.placed is True and p.echo_lock_used is False and p.cooldown == frozenset()
    assert position_to_hpn(pos) == BASE_HPN


def test_rich_hpn_fields():
    pos = parse_hpn(RICH_IN)
    expected_cells = {
        "a1": (2, "A", True),
        "a3": (1, "B", False),
        "b2": (2, None, True),
        "b5": (1, None, False),
        "c6": (2, "B", False),
        "d4": (2, "B", False),
        "e2": (1, "A", False),
        "f7": (0, "A", False),
        "g4": (2, None, True),
    }
    for c in board.CELLS:
        want = expected_cells.get(board.name(c), (0, None, False))
        assert (pos.tiers[c], pos.stones[c], pos.locked[c]) == want, board.name(c)
    assert pos.to_move == "B" and pos.half_moves == 37
    a, b = pos.player("A"), pos.player("B")
    assert (a.reserve, a.charges, a.lowers_left, a.captures, a.raises) == (0, 2, 5, 3, 4)
    assert (a.placed, a.echo_lock_used, a.cooldown) == (True, True, frozenset())
    assert (b.reserve, b.charges, b.lowers_left, b.captures, b.raises) == (5, 0, 0, 12, 7)
    assert (b.placed, b.echo_lock_used) == (False, True)
    assert b.cooldown == frozenset({C("c3"), C("e5"), C("g7")})


def test_rich_hpn_prints_cooldown_in_board_order():
    assert position_to_hpn(parse_hpn(RICH_IN)) == RICH_OUT
    assert parse_hpn(RICH_OUT) == parse_hpn(RICH_IN)


@pytest.mark.parametrize(
    "flags, placed, locked", [("-", False, False), ("P", True, False), ("L", False, True), ("PL", True, True)]
)
def test_flags(flags, placed, locked):
    text = f"{START_BOARD} A 7:3:6:0:0:{flags}:- 7:3:6:0:0:-:- 0"
    pos = parse_hpn(text)
    assert pos.player("A").placed is placed
    assert pos.player("A").echo_lock_used is locked
    assert position_to_hpn(pos) == text


@pytest.mark.parametrize(
    "cooldown_in, cooldown_out",
    [
        ("d4", "d4"),
        ("g7,a1", "a1,g7"),
        ("g7,d4,a1", "a1,d4,g7"),
        ("e5,c3,e2,c6", "c3,c6,e2,e5"),  # board order: row c before row e, then column
        ("b5,c1", "b5,c1"),
    ],
)
def test_cooldown_any_order_in_board_order_out(cooldown_in, cooldown_out):
    text = f"{BASE_HPN.split()[0]} A 6:3:6:0:1:P:{cooldown_in} 6:3:6:0:1:P:- 2"
    pos = parse_hpn(text)
    assert pos.player("A").cooldown == frozenset(C(n) for n in cooldown_in.split(","))
    assert position_to_hpn(pos).split()[2] == f"6:3:6:0:1:P:{cooldown_out}"


@pytest.mark.parametrize(
    "text",
    [START_HPN, BASE_HPN, RICH_OUT, "0000/00000/000000/0000000/000000/00000/0000 B 7:3:6:0:0:P:- 7:3:6:0:0:-:a1,g7 1"],
)
def test_hpn_round_trip(text):
    assert position_to_hpn(parse_hpn(text)) == text


def test_key_hpn_is_hpn_without_cooldowns_and_half_moves():
    assert key_hpn(parse_hpn(START_HPN)) == f"{START_BOARD} A 7:3:6:0:0:- 7:3:6:0:0:-"
    assert key_hpn(parse_hpn(RICH_IN)) == f"{RICH_BOARD} B 0:2:5:3:4:PL 5:0:0:12:7:L"


def test_key_hpn_same_when_only_cooldown_or_half_moves_differ():
    a = parse_hpn(f"{BASE_HPN.split()[0]} A 6:3:6:0:1:P:d4 6:3:6:0:1:P:- 2")
    b = parse_hpn(f"{BASE_HPN.split()[0]} A 6:3:6:0:1:P:- 6:3:6:0:1:P:a1 8")
    assert a != b
    assert key_hpn(a) == key_hpn(b) == key_hpn(parse_hpn(BASE_HPN))


@pytest.mark.parametrize(
    "other",
    [
        BASE_HPN.replace(" A ", " B ", 1),  # to move
        BASE_HPN.replace("6:3:6:0:1:P:- 6:3", "6:3:6:0:1:PL:- 6:3"),  # A's flags
        BASE_HPN.replace("6:3:6:0:1:P:- 2", "6:3:6:1:1:P:- 2"),  # B's captures
        BASE_HPN.replace("001A000", "002A000"),  # a tier
        BASE_HPN.replace("001A000", "001A*000"),  # a lock
        BASE_HPN.replace("001A000", "001B000"),  # a stone
    ],
)
def test_key_hpn_differs_when_the_key_differs(other):
    assert key_hpn(parse_hpn(other)) != key_hpn(parse_hpn(BASE_HPN))


# -------------------------------------------------------- HPN errors ----


def _row_c_with(text):
    return f"0000/00000/{text}/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"


@pytest.mark.parametrize("row, n", [("00000", 5), ("0000000", 7), ("", 0), ("0A0B0*", 3)])
def test_row_with_wrong_number_of_cells(row, n):
    err = raises_notation(parse_hpn, _row_c_with(row))
    # like "row c has 5 cells, expected 6"
    assert re.search(rf"row c\b.*\b{n}\b.*\b6\b", err.message), err.message


def test_row_g_too_long_names_row_g():
    text = START_HPN.replace("/0000 A", "/00000 A")
    err = raises_notation(parse_hpn, text)
    assert "row g" in err.message and "5" in err.message and "4" in err.message


@pytest.mark.parametrize("row", ["300000", "003000", "00000009"])
def test_tier_digit_above_2_is_an_error(row):
    err = raises_notation(parse_hpn, _row_c_with(row))
    assert "row c" in err.message
    digit = next(ch for ch in row if ch not in "012")
    assert digit in err.message


@pytest.mark.parametrize("row", ["0X0000", "0a0000", "*00000", "0*A0000", "0AB0000", "0A**0000", "A000000"])
def test_bad_cell_text_is_an_error(row):
    err = raises_notation(parse_hpn, _row_c_with(row))
    assert "row c" in err.message


@pytest.mark.parametrize("flags", ["LP", "PP", "X", "p", "PLL", "-P"])
def test_bad_flags_are_an_error(flags):
    err = raises_notation(parse_hpn, f"{START_BOARD} A 7:3:6:0:0:{flags}:- 7:3:6:0:0:-:- 0")
    assert "A" in err.message


@pytest.mark.parametrize("cooldown", ["d4,d4", "a1,d4,a1", "d4,c3,d4"])
def test_repeated_cooldown_cell_is_an_error(cooldown):
    err = raises_notation(parse_hpn, f"{START_BOARD} A 7:3:6:0:0:-:{cooldown} 7:3:6:0:0:-:- 0")
    assert "listed twice" in err.message


@pytest.mark.parametrize("cooldown", ["h9", "a5", "d4,", ",d4", "d4;c3", "--"])
def test_bad_cooldown_is_an_error(cooldown):
    raises_notation(parse_hpn, f"{START_BOARD} A 7:3:6:0:0:-:- 7:3:6:0:0:-:{cooldown} 0")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        START_BOARD,
        f"{START_BOARD} A 7:3:6:0:0:-:- 7:3:6:0:0:-:-",  # 4 fields
        f"{START_BOARD} A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0 0",  # 6 fields
        f"{START_BOARD} A 7:3:6:0:0:-:- 0",  # 4 fields
    ],
)
def test_wrong_field_count_is_an_error(text):
    err = raises_notation(parse_hpn, text)
    assert "5" in err.message


@pytest.mark.parametrize("to_move", ["C", "AB", "-", "1"])
def test_bad_to_move_is_an_error(to_move):
    err = raises_notation(parse_hpn, f"{START_BOARD} {to_move} 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0")
    assert to_move in err.message


@pytest.mark.parametrize(
    "player", ["7:3:6:0:0:-", "7:3:6:0:0:-:-:-", "x:3:6:0:0:-:-", "7:3:6:0:a:-:-", "7::6:0:0:-:-", "7:3:6:0:0.5:-:-"]
)
def test_bad_player_field_is_an_error(player):
    err = raises_notation(parse_hpn, f"{START_BOARD} A 7:3:6:0:0:-:- {player} 0")
    assert "B" in err.message


@pytest.mark.parametrize("half", ["x", "1.0", "1e3", "+1"])
def test_bad_half_moves_is_an_error(half):
    raises_notation(parse_hpn, f"{START_BOARD} A 7:3:6:0:0:-:- 7:3:6:0:0:-:- {half}")


def test_board_with_wrong_row_count_is_an_error():
    err = raises_notation(parse_hpn, "0000/00000/000000/0000000/000000/00000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0")
    assert "6" in err.message and "7" in err.message


# ------------------------------------------------------------------ HTN ----


@pytest.mark.parametrize(
    "text, turn",
    [
        ("c3 +d4", Turn(Place(C("c3")), Shape("raise", C("d4")))),
        ("c3-c4 -d3 #c4", Turn(Move(C("c3"), C("c4")), Shape("lower", C("d3")), Echo("lock", C("c4")))),
        ("skip *e5", Turn(Skip(), None, Echo("capture", C("e5")))),
        ("b2", Turn(Place(C("b2")))),
    ],
)
def test_rules_examples_parse_and_print_back(text, turn):
    assert parse_htn(text) == turn
    assert turn_to_htn(parse_htn(text)) == text


def test_turn_parts_when_left_out_are_none():
    t = parse_htn("b2")
    assert t.shape is None and t.echo is None
    t = parse_htn("skip")
    assert t == Turn(Skip())
    t = parse_htn("a1 *g7")
    assert t.shape is None and t.echo == Echo("capture", C("g7"))


def test_both_move_separators_accepted():
    assert parse_htn("c3xc4") == parse_htn("c3-c4") == Turn(Move(C("c3"), C("c4")))
    assert parse_htn("c3xc4 +d4 *e5") == parse_htn("c3-c4 +d4 *e5")


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("C3 +D4", "c3 +d4"),
        ("C3-C4 -D3 #C4", "c3-c4 -d3 #c4"),
        ("C3XC4", "c3-c4"),
        ("SKIP *E5", "skip *e5"),
        ("Skip", "skip"),
        ("B2", "b2"),
        ("  c3    +d4   ", "c3 +d4"),
        ("c3\t+d4", "c3 +d4"),
    ],
)
def test_upper_case_and_spacing_accepted_output_canonical(text, canonical):
    assert turn_to_htn(parse_htn(text)) == canonical
    assert parse_htn(text) == parse_htn(canonical)


# A to move; A on c3 (tier 1), B on c4 (tier 0), A on c2 (tier 0), B on b3 (tier 1).
# Row b: b1 0, b2 0, b3 1B, b4 0, b5 0; row c: c1 0, c2 0A, c3 1A, c4 0B, c5 0, c6 0.
XPOS_A = parse_hpn("0000/001B00/00A1A0B00/0000000/000000/00000/0000 A 5:3:6:0:2:P:- 5:3:6:0:0:P:- 4")


def test_capture_position_is_as_intended():
    # b3 1B; c2 0A, c3 1A, c4 0B
    p = XPOS_A
    assert (p.tiers[C("b3")], p.stones[C("b3")]) == (1, "B")
    assert (p.tiers[C("c2")], p.stones[C("c2")]) == (0, "A")
    assert (p.tiers[C("c3")], p.stones[C("c3")]) == (1, "A")
    assert (p.tiers[C("c4")], p.stones[C("c4")]) == (0, "B")
    assert p.to_move == "A"


@pytest.mark.parametrize(
    "to_move, text, expected",
    [
        # A moves onto B's stone: x
        ("A", "c3-c4", "c3xc4"),
        ("A", "c3xc4 +d4 *e5", "c3xc4 +d4 *e5"),
        # x whatever the tiers (b3 is tier 1, c3 tier 1: illegal, but the notation still says x)
        ("A", "c3-b3", "c3xb3"),
        # onto an empty cell: -
        ("A", "c3-d3", "c3-d3"),
        ("A", "c3xd3", "c3-d3"),
        # onto A's own stone: not a capture
        ("A", "c3-c2", "c3-c2"),
        # B to move: B moving onto A's stone is x, onto B's own is not
        ("B", "c4-c3", "c4xc3"),
        ("B", "b3-c3", "b3xc3"),
        ("B", "b3-c4", "b3-c4"),
        ("B", "c4-d4", "c4-d4"),
        # A moving from an enemy stone onto its own: no x (the to-cell decides)
        ("A", "c4-c3", "c4-c3"),
        # Place and skip are unchanged by the position
        ("A", "d4 +d4", "d4 +d4"),
        ("A", "skip *b3", "skip *b3"),
    ],
)
def test_turn_to_htn_with_position_writes_x_exactly_for_enemy_to_cell(to_move, text, expected):
    pos = XPOS_A if to_move == "A" else XPOS_A.replace(to_move="B", half_moves=5)
    assert turn_to_htn(parse_htn(text), pos) == expected
    # without a position the Move is written with '-'
    assert "x" not in turn_to_htn(parse_htn(text))


def test_htn_h9_is_not_a_cell():
    err = raises_notation(parse_htn, "c3 +h9")
    assert "'+h9'" in err.message
    assert "h9 is not a cell" in err.message


@pytest.mark.parametrize(
    "text, token",
    [
        ("c3 +d4 -d5", "-d5"),  # two Shapes
        ("c3 +d4 +d4", "+d4"),  # two Shapes
        ("c3 *e5 +d4", "+d4"),  # Echo before Shape
        ("c3 #c3 -d4", "-d4"),  # Echo before Shape
        ("c3 *e5 #c3", "#c3"),  # two Echoes
        ("c3 d4", "d4"),  # second Project / no mark
        ("c3 ?d4", "?d4"),
        ("skip c3", "c3"),
        ("c3 +d4 skip", "skip"),
        ("h9", "h9"),
        ("a5", "a5"),
        ("c3-h9", "c3-h9"),
        ("+d4", "+d4"),  # Shape without a Project
        ("*e5", "*e5"),
        ("#c3 c3", "#c3"),
        ("hello", "hello"),
    ],
)
def test_htn_errors_name_the_token(text, token):
    err = raises_notation(parse_htn, text)
    assert token in err.message, err.message


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "\t",
        "c3-",
        "-c3",
        "x",
        "c3x",
        "xc4",
        "c3-c4-c5",
        "c3--c4",
        "c3 +",
        "c3 #",
        "c3 *",
        "c3 -",
        "skip skip",
        "c33",
        "cc3",
        "3c",
        "c3 +d4 *e5 #c3",
        "c3,c4",
        "c3 +d4,",
        "c3 + d4",
    ],
)
def test_htn_errors(text):
    raises_notation(parse_htn, text)


# ------------------------------------------------------- hypothesis ----

NOTATION_ALPHABET = "0123456789abcdefghABLP*/:-,x+#skip "

SEEDS_HPN = [START_HPN, BASE_HPN, RICH_OUT]
SEEDS_HTN = ["c3 +d4", "c3-c4 -d3 #c4", "skip *e5", "b2", "c3xc4 +d4 *e5", "g7-f7 -f6"]


@st.composite
def mutated(draw, seeds):
    """A seed text with a few random edits from the notation alphabet: close misses."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        i = draw(st.integers(0, len(text)))
        ch = draw(st.sampled_from(NOTATION_ALPHABET))
        if op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete" and i < len(text):
            text = text[:i] + text[i + 1 :]
        elif i < len(text):
            text = text[:i] + ch + text[i + 1 :]
    return text


ANY_TEXT = st.one_of(st.text(), st.text(alphabet=NOTATION_ALPHABET, max_size=80))


def _hpn_parses_or_notation_error(text):
    try:
        pos = parse_hpn(text)
    except NotationError:
        return
    # whatever parsed prints and re-parses to the same position
    out = position_to_hpn(pos)
    assert parse_hpn(out) == pos
    assert position_to_hpn(parse_hpn(out)) == out


def _htn_parses_or_notation_error(text):
    try:
        turn = parse_htn(text)
    except NotationError:
        return
    out = turn_to_htn(turn)
    assert parse_htn(out) == turn
    assert turn_to_htn(parse_htn(out)) == out


@settings(max_examples=1000, deadline=None)
@given(ANY_TEXT)
def test_parse_hpn_any_text(text):
    _hpn_parses_or_notation_error(text)


@settings(max_examples=600, deadline=None)
@given(mutated(SEEDS_HPN))
def test_parse_hpn_close_misses(text):
    _hpn_parses_or_notation_error(text)


@settings(max_examples=1000, deadline=None)
@given(ANY_TEXT)
def test_parse_htn_any_text(text):
    _htn_parses_or_notation_error(text)


@settings(max_examples=600, deadline=None)
@given(mutated(SEEDS_HTN))
def test_parse_htn_close_misses(text):
    _htn_parses_or_notation_error(text)


CELL = st.sampled_from(board.CELLS)


@st.composite
def turns(draw):
    kind = draw(st.sampled_from(["place", "move", "skip"]))
    if kind == "place":
        project = Place(draw(CELL))
    elif kind == "move":
        project = Move(draw(CELL), draw(CELL))
    else:
        project = Skip()
    shape = draw(st.none() | st.builds(Shape, st.sampled_from(["raise", "lower"]), CELL))
    echo = draw(st.none() | st.builds(Echo, st.sampled_from(["capture", "lock"]), CELL))
    return Turn(project, shape, echo)


@settings(max_examples=300, deadline=None)
@given(turns(), st.booleans())
def test_htn_round_trip_of_any_turn(turn, upper):
    text = turn_to_htn(turn)
    assert text == text.lower()
    assert "  " not in text and text == text.strip()
    assert parse_htn(text.upper() if upper else text) == turn


COUNT = st.integers(0, 10**6)


@st.composite
def positions(draw):
    tiers = draw(st.lists(st.sampled_from([0, 1, 2]), min_size=37, max_size=37))
    stones = draw(st.lists(st.sampled_from([None, "A", "B"]), min_size=37, max_size=37))
    locked = draw(st.lists(st.booleans(), min_size=37, max_size=37))
    players = {
        w: PlayerState(
            draw(COUNT),
            draw(COUNT),
            draw(COUNT),
            draw(COUNT),
            draw(COUNT),
            draw(st.booleans()),
            draw(st.booleans()),
            frozenset(draw(st.sets(CELL, max_size=6))),
        )
        for w in "AB"
    }
    return Position(tiers, stones, locked, draw(st.sampled_from("AB")), draw(COUNT), players)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_hpn_round_trip_of_any_position(pos):
    text = position_to_hpn(pos)
    assert parse_hpn(text) == pos
    fields = text.split(" ")
    assert len(fields) == 5
    # cooldown written in board order
    for f in fields[2:4]:
        cd = f.split(":")[6]
        if cd != "-":
            cells = [C(n) for n in cd.split(",")]
            assert cells == sorted(cells)
    # the key text is the HPN without the cooldowns and the half-move field
    key_fields = [fields[0], fields[1], fields[2].rsplit(":", 1)[0], fields[3].rsplit(":", 1)[0]]
    assert key_hpn(pos) == " ".join(key_fields)
    # and it ignores the cooldowns and half-moves like Position.key()
    bare = pos.replace(
        half_moves=0, A=pos.player("A").replace(cooldown=frozenset()), B=pos.player("B").replace(cooldown=frozenset())
    )
    assert key_hpn(bare) == key_hpn(pos)
    assert bare.key() == pos.key()


def test_turn_to_htn_is_its_parts_joined():
    """turn_to_htn writes the parts out for speed; it says what project_to_htn,
    shape_to_htn and echo_to_htn say, joined by spaces, for every turn of
    positions along a random game (Moves with and without a capture included)."""
    import random

    from checker.generate import legal_turns
    from checker.notation import echo_to_htn, project_to_htn, shape_to_htn, turn_to_htn
    from checker.play import apply
    from checker.position import Position

    rng = random.Random(5)
    pos, seen = Position.start(), 0
    while turns := legal_turns(pos):
        for turn in turns:
            parts = [project_to_htn(turn.project, pos)]
            parts += [shape_to_htn(turn.shape)] if turn.shape is not None else []
            parts += [echo_to_htn(turn.echo)] if turn.echo is not None else []
            assert turn_to_htn(turn, pos) == " ".join(parts)
            seen += 1
        pos = apply(pos, rng.choice(turns)).position
    assert seen > 10_000


@pytest.mark.parametrize("text, sign", [("c3 *", "*"), ("c3 +", "+"), ("c3 +d4 #", "#"), ("c3 -", "-")])
def test_a_sign_with_no_cell_after_it_is_named(text, sign):
    """Not "'*':  is not a cell" (the empty name) but what is missing."""
    with pytest.raises(NotationError) as err:
        parse_htn(text)
    assert err.value.message == f"{sign!r}: a cell must follow it, such as {sign}d4"


# ------------------------------------------ HPN errors: the exact explanation ----
# A text the HPN grammar refuses is explained field by field, in the order of RULES §10
# (board, row a to g, to-move, A, B, half-moves): the first fault found, its message saying
# what was expected there, its ``where`` naming the field (or the row) at fault.

START_PLAYER = "7:3:6:0:0:-:-"
PLAYER_PARTS = "(reserve:charges:lowers_left:captures:raises:flags:cooldown)"


def _hpn(board_text=START_BOARD, to_move="A", a=START_PLAYER, b=START_PLAYER, half="0", sep=" "):
    return sep.join((board_text, to_move, a, b, half))


def _board_with(row: str, text: str) -> str:
    """The start position's HPN with one row of its board written as ``text``."""
    rows = START_BOARD.split("/")
    rows["abcdefg".index(row)] = text
    return _hpn("/".join(rows))


def explained(text) -> tuple[str, str]:
    err = raises_notation(parse_hpn, text)
    return err.message, err.where


FIELDS_5 = "an HPN position has 5 space-separated fields (board, to-move, A, B, half-moves); found"


@pytest.mark.parametrize(
    "text, message, where",
    [
        # the fields
        ("", f"{FIELDS_5} 0", "position"),
        (START_BOARD, f"{FIELDS_5} 1", "position"),
        (_hpn(half="0 0"), f"{FIELDS_5} 6", "position"),
        (_hpn().rsplit(" ", 1)[0], f"{FIELDS_5} 4", "position"),
        # five good fields, but not separated by the spaces (or tabs, CR, LF) HPN allows
        (_hpn(sep="\x0b"), "the fields of an HPN position are separated by spaces", "position"),
        (_hpn().replace(" A ", "\xa0A ", 1), "the fields of an HPN position are separated by spaces", "position"),
        # the board's rows
        (
            _hpn("/".join(START_BOARD.split("/")[:6])),
            "the board has 6 rows, expected 7 (rows a to g separated by '/')",
            "board",
        ),
        (_hpn(START_BOARD + "/0000"), "the board has 8 rows, expected 7 (rows a to g separated by '/')", "board"),
        (_board_with("c", "00000"), "row c has 5 cells, expected 6", "row c"),
        (_board_with("c", "0000000"), "row c has 7 cells, expected 6", "row c"),
        (_board_with("b", ""), "row b has 0 cells, expected 5", "row b"),
        (_board_with("d", "0A0B0*"), "row d has 3 cells, expected 7", "row d"),
        (_board_with("d", "2A*1B*0A*1B2*0*"), "row d has 6 cells, expected 7", "row d"),
        (_board_with("g", "00000"), "row g has 5 cells, expected 4", "row g"),
        (_board_with("a", "0"), "row a has 1 cells, expected 4", "row a"),
        # a cell's text: a tier digit, then A or B, then * (the cell named while the row has one left)
        (_board_with("c", "003000"), "row c (cell c3): tier 3 is not 0, 1 or 2", "row c"),
        (_board_with("c", "2A*1B3000"), "row c (cell c3): tier 3 is not 0, 1 or 2", "row c"),
        (_board_with("a", "9000"), "row a (cell a1): tier 9 is not 0, 1 or 2", "row a"),
        (_board_with("e", "00X000"), "row e (cell e4): expected a tier digit 0, 1 or 2, found 'X'", "row e"),
        (_board_with("c", "0a0000"), "row c (cell c2): expected a tier digit 0, 1 or 2, found 'a'", "row c"),
        (_board_with("c", "0*A0000"), "row c (cell c2): expected a tier digit 0, 1 or 2, found 'A'", "row c"),
        (_board_with("c", "0AB0000"), "row c (cell c2): expected a tier digit 0, 1 or 2, found 'B'", "row c"),
        (_board_with("c", "0A**0000"), "row c (cell c2): expected a tier digit 0, 1 or 2, found '*'", "row c"),
        (_board_with("f", "1B*0b000"), "row f (cell f5): expected a tier digit 0, 1 or 2, found 'b'", "row f"),
        (_board_with("g", "A000"), "row g (cell g4): expected a tier digit 0, 1 or 2, found 'A'", "row g"),
        # past the row's last cell there is no cell to name
        (_board_with("a", "0000X"), "row a: expected a tier digit 0, 1 or 2, found 'X'", "row a"),
        (_board_with("g", "2A*0009"), "row g: tier 9 is not 0, 1 or 2", "row g"),
        # the player to move
        (_hpn(to_move="C"), "the player to move must be A or B, not 'C'", "to-move"),
        (_hpn(to_move="AB"), "the player to move must be A or B, not 'AB'", "to-move"),
        (_hpn(to_move="a"), "the player to move must be A or B, not 'a'", "to-move"),
        # a player's seven parts
        (
            _hpn(a="7:3:6:0:0:-"),
            f"player A '7:3:6:0:0:-' has 6 ':'-separated parts, expected 7 {PLAYER_PARTS}",
            "player A",
        ),
        (
            _hpn(b="7:3:6:0:0:-:-:-"),
            f"player B '7:3:6:0:0:-:-:-' has 8 ':'-separated parts, expected 7 {PLAYER_PARTS}",
            "player B",
        ),
        (_hpn(b="7"), f"player B '7' has 1 ':'-separated parts, expected 7 {PLAYER_PARTS}", "player B"),
        (_hpn(a="x:3:6:0:0:-:-"), "A's reserve must be a whole number, not 'x'", "player A"),
        (_hpn(a="7::6:0:0:-:-"), "A's charges must be a whole number, not ''", "player A"),
        (_hpn(b="7:3:-6:0:0:-:-"), "B's lowers_left must be a whole number, not '-6'", "player B"),
        (_hpn(b="7:3:6:0x:0:-:-"), "B's captures must be a whole number, not '0x'", "player B"),
        (_hpn(b="7:3:6:0:0.5:-:-"), "B's raises must be a whole number, not '0.5'", "player B"),
        (_hpn(a="7:\u0663:6:0:0:-:-"), "A's charges must be a whole number, not '\u0663'", "player A"),
        (_hpn(a="7:3:6:0:0:LP:-"), "A's flags 'LP' must be '-', 'P', 'L' or 'PL' (P before L)", "player A"),
        (_hpn(b="7:3:6:0:0:p:-"), "B's flags 'p' must be '-', 'P', 'L' or 'PL' (P before L)", "player B"),
        (_hpn(b="7:3:6:0:0:l:-"), "B's flags 'l' must be '-', 'P', 'L' or 'PL' (P before L)", "player B"),
        (_hpn(b="7:3:6:0:0:pl:-"), "B's flags 'pl' must be '-', 'P', 'L' or 'PL' (P before L)", "player B"),
        (_hpn(a="7:3:6:0:0::-"), "A's flags '' must be '-', 'P', 'L' or 'PL' (P before L)", "player A"),
        (_hpn(a="7:3:6:0:0:-:h9"), "'h9' in the cooldown 'h9' is not a cell", "player A"),
        (_hpn(b="7:3:6:0:0:P:c3,a5"), "'a5' in the cooldown 'c3,a5' is not a cell", "player B"),
        # a cooldown cell named twice is explained in its field whatever fault the grammar met later
        (_hpn(a="6:3:6:0:0:P:c3,C3", half="x"), "c3 is listed twice in the cooldown 'c3,C3'", "player A"),
        # the half-move count
        (_hpn(half="x"), "the half-move count must be a whole number, not 'x'", "half-moves"),
        (_hpn(half="+1"), "the half-move count must be a whole number, not '+1'", "half-moves"),
    ],
)
def test_a_bad_hpn_is_explained_exactly(text, message, where):
    assert explained(text) == (message, where)


# Every kind of cell text (RICH_BOARD), and a row that ends in a lock.
BOARDS = [START_BOARD, RICH_BOARD, "0002A*/1B*0000/000000/0000000/000000/00000/0002*"]
PLAYERS = [START_PLAYER, "6:3:6:0:1:P:-", "0:2:5:3:4:PL:-", "5:0:0:12:7:L:g7,c3,e5", "0:0:0:0:0:P:d4"]


@pytest.mark.parametrize("board_text", BOARDS)
@pytest.mark.parametrize("to_move", ["A", "B"])
def test_every_good_board_and_player_to_move_is_passed_over_to_the_fault(board_text, to_move):
    """The explanation names the first fault: good fields before it are read as good."""
    assert explained(_hpn(board_text, to_move, half="x")) == (
        "the half-move count must be a whole number, not 'x'",
        "half-moves",
    )


@pytest.mark.parametrize("a", PLAYERS)
def test_a_good_player_a_is_passed_over_to_player_b(a):
    assert explained(_hpn(RICH_BOARD, "B", a=a, b="7:3:6:0:0:X:-")) == (
        "B's flags 'X' must be '-', 'P', 'L' or 'PL' (P before L)",
        "player B",
    )


@pytest.mark.parametrize("b", PLAYERS)
def test_a_good_player_b_is_passed_over_to_the_half_moves(b):
    assert explained(_hpn(a=PLAYERS[2], b=b, half="1e3")) == (
        "the half-move count must be a whole number, not '1e3'",
        "half-moves",
    )


@pytest.mark.parametrize("who", ["A", "B"])
@pytest.mark.parametrize("text", PLAYERS)
def test_the_explanation_reads_a_good_player_as_the_parser_does(who, text):
    """The explainer's reading of a player field is the parser's (it answers only when the
    grammar refused the text, but what it reads of a good field is the same PlayerState)."""
    from checker.notation import _explain_player

    a, b = (text, START_PLAYER) if who == "A" else (START_PLAYER, text)
    assert _explain_player(text, who) == parse_hpn(_hpn(a=a, b=b)).player(who)
