"""Perft (checker/counting.py) and its published table (checker/data/perft.json,
docs/perft.md).

Three kinds of evidence that the counts are right, none of them the counting
code's own output copied back:

* counts worked out by hand from RULES.md (the comments give the arithmetic);
* an independent model of the legal turns written here from the rule text,
  on the rule-text helpers of tests/test_properties.py (its neighbours,
  steps, Echo conditions and reference turn), compared turn for turn at depth
  1 and count for count at depth 2;
* the fast paths (``count_turns``, ``after``) against the slow ones
  (``len(legal_turns)``, ``play.apply``) on every position of seeded games,
  every table position and every vector position.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from checker import board, counting
from checker.counting import (
    BudgetExceeded,
    after,
    count_turns,
    estimate_expansions,
    expansions,
    perft,
    perft_count,
)
from checker.generate import legal_turns
from checker.notation import parse_hpn, parse_htn, turn_to_htn
from checker.play import apply
from checker.position import Position, other
from checker.tools.perft_table import TABLE_POSITIONS, doc_path, load_table, table_json, table_markdown
from checker.tools.vectors import read_vectors as load_vectors
from checker.turn import LOWER, RAISE, Move, Place, Shape, Skip, Turn
from tests.test_properties import (
    NEIGHBOURS_BY_RULE,
    WITHIN_2_BY_RULE,
    _has_legal_project,
    _largest_tier2_group,
    _rule_echoes,
    _steps_by_rule,
    expected_after,
)

TABLE = {e.name: e for e in load_table()}
START = Position.start()
D4 = board.parse_cell("d4")


def _table(name: str) -> Position:
    return TABLE[name].position


# ------------------------------------------------------- by hand (RULES) ---


def test_start_depth_1_is_480_by_hand():
    # A's first Place: any empty cell but the centre d4 (opening restriction): 36 cells.  Every tier is 0,
    # so a Shape can only raise (no lower: tier 0), and every cell within 2 steps of the landing cell may be
    # raised; some of those hold no A stone, so the Shape is mandatory.  A has no tier-2 stone and B has no
    # stone: no Echo.  So each Place has one turn per cell within 2 steps.  By distance from d4:
    #   6 cells 1 step away: 19 cells within 2 each  -> 114
    #   12 cells 2 steps away: 6 of them (b2, b4, d2, d6, f4, f6 ... the ring's corners) 16, the other 6 14 -> 180
    #   18 cells 3 steps away: 6 corners 9, the other 12 11 -> 54 + 132 = 186
    # 114 + 180 + 186 = 480.
    rings: dict[tuple[int, int], int] = {}
    for c in board.CELLS:
        if c != D4:
            key = (_steps_by_rule(c, D4), len(WITHIN_2_BY_RULE[c]))
            rings[key] = rings.get(key, 0) + 1
    assert rings == {(1, 19): 6, (2, 16): 6, (2, 14): 6, (3, 9): 6, (3, 11): 12}
    assert sum(n * k for (_, n), k in rings.items()) == 480
    assert perft(START, 1) == 480
    assert perft(START, 0) == 1


def test_start_divide_by_hand():
    divide = {turn_to_htn(t): n for t, n in perft(START, 2, divide=True)}
    assert len(divide) == 480 and sum(divide.values()) == perft(START, 2) == TABLE["start"].nodes[1]
    # After "a1 +a1": B Places on any empty cell but d4 (B's own first Place) and a1: the 35 cells give
    # 480 - 9 turns of raises (9 = the cells within 2 of a1, the turns of the missing Place on a1); a1 is
    # now tier 1, so each of the 8 Places within 2 of a1 (a1 itself is taken) may also lower a1: +8.
    # B has no tier-2 stone, and A's a1 has empty neighbours (a2, b1, b2): no Echo.  480 - 9 + 8 = 479.
    assert divide["a1 +a1"] == 479
    # After "a1 +a2": again 480 - 9 Places-with-raises, + 10 lowers of a2 (the 11 cells within 2 of a2 but
    # a1), + 1 Echo-Lock: B Places on a2 (tier 1), raises it to tier 2, and may Echo-Lock its own stone
    # there ("a2 +a2 #a2").  471 + 10 + 1 = 482.
    assert divide["a1 +a2"] == 482
    assert "a2 +a2 #a2" in {turn_to_htn(t) for t in legal_turns(after(START, parse_htn("a1 +a2")))}


def test_cooldown_skip_by_hand():
    pos = _table("cooldown-skip")
    # A has 5 stones in reserve and a capture cooldown on b2, b4, d2, d6 and f5.  Every empty cell is within
    # 1 step of one of them, so no Place is legal (a Place must be 2 or more steps from each); some Place
    # would be legal without the cooldown, so the Project and the Shape are skipped (RULES §4, D-4).  The
    # Echo stays (D-5): A has 3 charges; B's g7 (tier 1) has neighbours f6 (A), f7 and g6 (B) and 3 edge
    # slots: sealed, in contact with A, tier >= 1: an Echo-Capture target; A's d4 is tier 2, unlocked, and A
    # has not Echo-Locked: an Echo-Lock target.  No other B stone is sealed.  So 3 turns.
    assert {turn_to_htn(t, pos) for t in legal_turns(pos)} == {"skip", "skip *g7", "skip #d4"}
    assert perft(pos, 1) == 3
    divide = {turn_to_htn(t, pos): n for t, n in perft(pos, 2, divide=True)}
    # After "skip *g7" the Echo-Capture check weighs g7 (D-10): walls f7 and g6 and 3 edges count tier + 1 = 2
    # each: 10 > 6, captured; B's reserve is then 1, so B must Place (RULES §4) and has more turns than after
    # "skip", where B (reserve 0) can only Move.  After "skip #d4" B has the same Moves as after "skip",
    # but d4 is locked, so no Shape may target it: fewer turns.
    assert set(divide) == {"skip", "skip *g7", "skip #d4"}
    assert divide["skip *g7"] > divide["skip"] > divide["skip #d4"]


def test_game_over_and_half_move_cap_by_hand():
    over = _table("game-over")
    # A, who moved last, has five stones on tier-2 cells in one group (a3, b2, b3, b4, c4): Network, the game
    # is over (D-13) and no turn follows.
    assert [perft(over, d) for d in (0, 1, 2)] == [1, 0, 0]
    last = _table("last-half-move")
    assert last.half_moves == 59
    # Every turn from half-move 59 is the 60th half-move: the half-move cap ends the game (RULES §8.6) if
    # nothing ended it first, so no sequence has a second turn.
    assert perft(last, 1) == len(legal_turns(last)) > 0
    assert perft(last, 2) == 0


def test_takeover_ends_the_sequence():
    pos = _table("takeover-threat")
    assert pos.player(pos.to_move).captures == 5
    divide = perft(pos, 2, divide=True)
    ending = [t for t, n in divide if apply(pos, t).game.over]
    # A turn that captures a sixth stone wins by Takeover: nothing follows it.
    assert ending and all(n == 0 for t, n in divide if t in ending)
    assert all(n > 0 for t, n in divide if t not in ending)


def test_perft_refuses_a_negative_depth_and_counts_to_a_budget():
    with pytest.raises(ValueError):
        perft(START, -1)
    # depth 2 from the start expands the start and its 480 children: 481 positions.
    assert perft(START, 2, budget=481) == TABLE["start"].nodes[1]
    with pytest.raises(BudgetExceeded):
        perft(START, 2, budget=480)
    with pytest.raises(BudgetExceeded):  # depth 3 expands 1 + 480 + 230,100 positions
        perft(START, 3, budget=600)


def test_perft_count_with_and_without_divide():
    plain = perft_count(START, 1)
    assert (plain.nodes, plain.divide) == (480, None)
    split = perft_count(START, 1, divide=True)
    assert split.nodes == 480 and len(split.divide) == 480 and {n for _, n in split.divide} == {1}
    assert perft_count(START, 0, divide=True) == (START, 0, 1, ())


# ------------------------------------------------------------ the estimate ---
# estimate_expansions estimates what a count to ``depth`` expands: every position at ply 0 … depth-1, that is
# perft(0) + … + perft(depth - 1) (counting.Budget).  It is exact to depth 2 (ply 0 is the position, ply 1 its
# turns); deeper, each random descent multiplies the numbers of legal turns it meets, and a level's size is the
# mean over the descents of the products that reach it (Knuth).


@pytest.mark.parametrize("name", ["start", "cooldown-skip", "takeover-threat", "last-half-move", "game-over"])
def test_the_estimate_is_exact_to_depth_2(name):
    pos, nodes = _table(name), TABLE[name].nodes
    # depth 0 expands nothing, depth 1 the position itself, depth 2 the position and its turns' positions
    assert [estimate_expansions(pos, d) for d in (0, 1, 2)] == [0.0, 1.0, 1.0 + nodes[0]]
    assert [estimate_expansions(pos, d) for d in (0, 1, 2)] == [expansions(pos, d) for d in (0, 1, 2)]


def test_the_estimate_where_the_game_ends_within_a_turn_is_exact():
    over, last = _table("game-over"), _table("last-half-move")
    # the game is over: the position is expanded (its turns listed: none) and nothing below it, at every depth
    assert [estimate_expansions(over, d) for d in (3, 4, 6)] == [1.0, 1.0, 1.0]
    # every turn from half-move 59 ends the game (the half-move cap): 1 + 277 positions, whatever the depth
    assert [estimate_expansions(last, d) for d in (3, 4, 6)] == [278.0, 278.0, 278.0]
    assert expansions(last, 4) == 278


class _FirstTurn:
    """A stand-in for random.Random whose descents always take the first turn listed: every descent is then
    the same, so the estimate is that one descent's products, worked out here from the legal turns."""

    seeds: list[object] = []

    def __init__(self, seed: object) -> None:
        self.seeds.append(seed)

    def choice(self, turns):
        return turns[0]


def _first_descent(pos: Position, depth: int) -> float:
    """1 + b0 + b0·b1 + … + b0·…·b(depth-2), the numbers of legal turns b0, b1, … met along the first turns."""
    total, product = 1.0, 1.0
    for _ in range(depth - 1):
        turns = legal_turns(pos)
        product *= len(turns)
        total += product
        if not turns:
            break
        pos = apply(pos, turns[0]).position
    return total


@pytest.mark.parametrize("depth", [3, 4, 5])
@pytest.mark.parametrize("walks", [1, 3, 16])
def test_the_estimate_multiplies_the_turns_a_descent_meets(monkeypatch, depth, walks):
    monkeypatch.setattr(counting, "random", SimpleNamespace(Random=_FirstTurn))
    for name in ("start", "cooldown-skip", "last-half-move"):
        pos = _table(name)
        assert estimate_expansions(pos, depth, walks) == _first_descent(pos, depth), name


def test_the_estimate_is_seeded_from_the_position_and_the_depth(monkeypatch):
    monkeypatch.setattr(counting, "random", SimpleNamespace(Random=_FirstTurn))
    _FirstTurn.seeds = seeds = []
    start, early = _table("start"), _table("early")
    for pos, depth in [(start, 3), (start, 3), (parse_hpn(TABLE["start"].hpn), 3), (start, 4), (early, 3)]:
        estimate_expansions(pos, depth)
    assert len(seeds) == 5 and None not in seeds
    assert seeds[0] == seeds[1] == seeds[2] and len({seeds[0], seeds[3], seeds[4]}) == 3


def test_one_random_descent_is_one_turn_of_each_level():
    pos = _table("cooldown-skip")
    turns = legal_turns(pos)
    children = [apply(pos, t).position for t in turns]
    n = len(turns)
    assert n == 3
    # depth 3: 1 + 3 + 3 · (the turns of one of the 3 positions after a turn)
    counts = {len(legal_turns(c)) for c in children}
    level_2 = estimate_expansions(pos, 3, walks=1) - 1 - n
    assert level_2 / n in counts
    # depth 4: 1 + 3 + 3 · c1 + 3 · c1 · c2: c1 the turns of a position after one turn, c2 of one after two
    two_deep = {(len(legal_turns(c)), len(legal_turns(apply(c, t).position))) for c in children for t in legal_turns(c)}
    levels = estimate_expansions(pos, 4, walks=1) - 1 - n
    assert any(levels == n * c1 * (1 + c2) for c1, c2 in two_deep)
    # 16 descents (the default): level 2 is 3 times the mean of 16 such counts, so between the least and the most
    mean = (estimate_expansions(pos, 3) - 1 - n) / n
    assert min(counts) <= mean <= max(counts) and (mean * 16) % 1 == 0


# ------------------------------------------------------------- the table ---


def test_the_table_covers_what_the_issue_asks():
    names = list(TABLE)
    assert len(names) >= 8
    assert {"start", "early", "crowded", "placing", "endgame", "cooldown-skip", "locks", "game-over"} <= set(names)
    assert len(TABLE["start"].nodes) == 3 and all(len(e.nodes) >= 2 for e in TABLE.values())
    for e in TABLE.values():
        assert e.position.problems() == [], e.name
    assert TABLE["start"].hpn == "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
    locks = _table("locks")
    assert sum(locks.locked) == 2 and 0 in (locks.player("A").charges, locks.player("B").charges)
    placing = _table("placing")
    assert placing.mover.reserve > 0 and len(legal_turns(placing)) > 3000
    endgame = _table("endgame")
    assert endgame.player("A").reserve == endgame.player("B").reserve == 0


@pytest.mark.parametrize("name", list(TABLE))
def test_table_depth_1_and_2(name):
    e = TABLE[name]
    assert [perft(e.position, d) for d in (1, 2)] == list(e.nodes[:2])


def test_the_table_file_and_the_doc_are_made_from_the_same_data():
    entries = load_table()
    assert [(e.name, e.hpn) for e in entries] == [(n, h) for n, _, h, _ in TABLE_POSITIONS]
    text = doc_path().read_text(encoding="utf-8")
    assert text == table_markdown(entries), "docs/perft.md differs from checker/data/perft.json: run make perft"
    assert table_json(entries).startswith('{\n  "format": "hexodic-perft"')
    for e in entries:
        assert e.hpn in text and f"| `{e.name}` | {e.nodes[0]:,} | {e.nodes[1]:,} |" in text
    readme = (doc_path().parents[1] / "docs" / "client-ci.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) == len(entries) and all(row in readme for row in rows), "README's perft table differs"


# ------------------------------------------------- the independent model ---


def rule_turns(pos: Position) -> list[Turn]:
    """The legal turns of ``pos`` from the rule text (RULES §4–§6, §8), on
    tests/test_properties.py's helpers, not on checker.generate."""
    me = pos.to_move
    m = pos.mover
    if (
        pos.player("A").captures >= 6
        or pos.player("B").captures >= 6  # Takeover
        or (pos.half_moves >= 1 and _largest_tier2_group(pos, other(me)) >= 5)  # Network (D-13)
        or not _has_legal_project(pos)  # Strangle
        or pos.half_moves >= 60
    ):  # the half-move cap
        return []
    if m.reserve > 0:
        cells = [c for c in board.CELLS if pos.stones[c] is None and not pos.locked[c] and (m.placed or c != D4)]
        allowed = [c for c in cells if all(_steps_by_rule(c, k) >= 2 for k in m.cooldown)]
        projects = [Skip()] if m.cooldown and not allowed else [Place(c) for c in allowed]
    else:
        projects = [
            Move(a, b)
            for a in board.CELLS
            if pos.stones[a] == me
            for b in NEIGHBOURS_BY_RULE[a]
            if pos.stones[b] is None or (pos.stones[b] != me and pos.tiers[b] < pos.tiers[a])
        ]
    out = []
    for p in projects:
        if isinstance(p, Skip):
            shapes = [None]
        else:
            landing = p.cell if isinstance(p, Place) else p.dst
            mine = {c for c in board.CELLS if pos.stones[c] == me}
            mine = (mine | {landing}) - ({p.src} if isinstance(p, Move) else set())
            options = []
            for c in WITHIN_2_BY_RULE[landing]:
                if pos.locked[c]:
                    continue
                if pos.tiers[c] < 2:
                    options.append(Shape(RAISE, c))
                if pos.tiers[c] > 0 and m.lowers_left > 0:
                    options.append(Shape(LOWER, c))
            # the Shape may be left out only when no legal Shape targets a cell without the mover's stone
            shapes = options if any(s.cell not in mine for s in options) else [None, *options]
        for s in shapes:
            out.append(Turn(p, s, None))
            if m.charges > 0:
                out += [Turn(p, s, e) for e in _rule_echoes(pos, p, s)]
    return out


def _game_positions(seeds: range, every: int = 1) -> list[Position]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        pos = START
        for ply in range(60):
            if ply % every == 0:
                out.append(pos)
            turns = legal_turns(pos)
            if not turns:
                break
            pos = after(pos, rng.choice(turns))
    return out


def test_the_model_lists_the_same_turns_at_depth_1():
    positions = [e.position for e in TABLE.values()] + _game_positions(range(4), every=4)
    for pos in positions:
        assert set(rule_turns(pos)) == set(legal_turns(pos)), pos
        assert len(rule_turns(pos)) == perft(pos, 1), pos


@pytest.mark.parametrize("name", ["cooldown-skip", "takeover-threat", "last-half-move", "game-over"])
def test_the_model_counts_the_same_at_depth_2(name):
    pos = _table(name)
    model = sum(len(rule_turns(expected_after(pos, t)[0])) for t in rule_turns(pos))
    assert model == perft(pos, 2) == TABLE[name].nodes[1]


# ------------------------------------------------ fast path = slow path ---


@pytest.fixture(scope="module")
def cases() -> list[tuple[Position, list[Turn]]]:
    """Every table position, every other position of 8 seeded games and every
    consistent vector position, each with its legal turns."""
    vector_positions = sorted({v["position"] for v in load_vectors()})
    positions = (
        [e.position for e in TABLE.values()]
        + _game_positions(range(8), every=2)
        + [p for p in map(parse_hpn, vector_positions) if not p.problems()]
    )
    return [(pos, legal_turns(pos)) for pos in positions]


def test_count_turns_is_the_number_of_legal_turns(cases):
    assert len(cases) > 500
    for pos, turns in cases:
        assert count_turns(pos) == len(turns), pos


def test_after_is_the_position_apply_makes(cases):
    rng = random.Random(7)
    for pos, turns in cases:
        # a few turns with an Echo, a few Moves (captures first), a few others
        echoes = [t for t in turns if t.echo is not None]
        moves = sorted(
            (t for t in turns if isinstance(t.project, Move)), key=lambda t: pos.stones[t.project.dst] is None
        )
        chosen = rng.sample(echoes, min(4, len(echoes))) + moves[:4] + rng.sample(turns, min(4, len(turns)))
        for t in chosen:
            assert after(pos, t) == apply(pos, t).position, (pos, turn_to_htn(t, pos))


@pytest.mark.parametrize("name", ["locks", "takeover-threat"])
def test_perft_2_equals_the_slow_count(name):
    pos = _table(name)
    slow = sum(len(legal_turns(apply(pos, t).position)) for t in legal_turns(pos))
    assert perft(pos, 2) == slow


# ------------------------------------------------------------ the command ---


def test_the_perft_command(capsys):
    from checker.tools.cli import main

    pos = TABLE["cooldown-skip"].hpn
    assert main(["perft", pos, "--depth", "1"]) == 0
    assert capsys.readouterr().out == "Nodes: 3\n"
    assert main(["perft", pos, "--depth", "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    divide = {t: int(n) for t, n in (line.rsplit(": ", 1) for line in lines[:3])}
    assert set(divide) == {"skip", "skip *g7", "skip #d4"} and lines[3] == ""
    assert lines[4] == f"Nodes: {sum(divide.values())}" == f"Nodes: {TABLE['cooldown-skip'].nodes[1]}"
    assert main(["perft", pos, "--depth", "1", "--divide", "--json"]) == 0
    import json

    body = json.loads(capsys.readouterr().out)
    assert body == {
        "rules_version": body["rules_version"],
        "position": pos,
        "depth": 1,
        "nodes": 3,
        "divide": [{"turn": "skip", "nodes": 1}, {"turn": "skip *g7", "nodes": 1}, {"turn": "skip #d4", "nodes": 1}],
    }


@pytest.mark.parametrize(
    "args, message",
    [
        (["--depth", "61"], "--depth: Must be greater than or equal to 0 and less than or equal to 60"),
        (["--depth", "-1"], "--depth: Must be greater than or equal to 0 and less than or equal to 60"),
    ],
)
def test_the_perft_command_refuses_a_bad_depth(capsys, args, message):
    from checker.tools.cli import main

    assert main(["perft", TABLE["start"].hpn, *args]) == 2
    assert capsys.readouterr().err == f"hexodic-check: error: {message}\n"


def test_the_perft_command_refuses_an_inconsistent_position(capsys):
    from checker.tools.cli import main

    broken = "0000/00000/000A000/0001000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 1"
    assert main(["perft", broken, "--depth", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hexodic-check: error: POSITION is not a consistent position")
    assert "[position.stone-count]" in err
