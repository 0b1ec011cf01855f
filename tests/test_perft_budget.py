"""Perft under the work budget (issue 23): a count estimated far over the
budget is refused before any counting, with the estimate; nearer the budget
it is counted and stopped at it; a count lets a server's other requests run."""

from __future__ import annotations

import pytest

from checker.counting import (
    BUDGET,
    FAR_OVER,
    BudgetExceeded,
    estimate_expansions,
    expansions,
    perft,
    perft_count,
)
from checker.notation import START_HPN, parse_hpn
from checker.service import budget
from checker.tools.perft_table import load_table
from checker.web import create_app
from checker.web.pictures import png_cost

TABLE = {e.name: e for e in load_table()}


def test_the_estimate_is_exact_to_depth_2_and_close_at_depth_3():
    start = parse_hpn(START_HPN)
    # perft(0) + perft(1) = 1 + 480 (the table's start row)
    assert estimate_expansions(start, 2) == 1 + TABLE["start"].nodes[0]
    for name in ("start", "crowded", "endgame", "locks"):
        position = parse_hpn(TABLE[name].hpn)
        exact = expansions(position, 3)
        assert abs(estimate_expansions(position, 3) - exact) < 0.1 * exact, name


def test_the_estimate_is_the_same_every_time():
    position = parse_hpn(TABLE["crowded"].hpn)
    assert estimate_expansions(position, 4) == estimate_expansions(position, 4)


@pytest.mark.parametrize("name", [n for n in TABLE if n not in ("last-half-move", "game-over")])
def test_depth_4_of_the_table_is_refused_on_its_estimate(name):
    """Every table position but the two whose games end within a turn: refused
    before counting (the exception carries the estimate, far over the budget)."""
    with pytest.raises(BudgetExceeded) as info:
        perft(parse_hpn(TABLE[name].hpn), 4, budget=BUDGET)
    assert info.value.estimate is not None and info.value.estimate > FAR_OVER * BUDGET


def test_a_count_near_its_budget_is_counted():
    # takeover-threat to depth 3 expands 31,469 positions: under the 50,000 budget
    position = parse_hpn(TABLE["takeover-threat"].hpn)
    assert expansions(position, 3) == 31_469
    assert estimate_expansions(position, 3) < FAR_OVER * BUDGET


def test_a_count_lets_other_work_run():
    calls = []
    position = parse_hpn(TABLE["cooldown-skip"].hpn)
    counted = perft_count(position, 3, budget=BUDGET, pause=lambda: calls.append(1))
    assert counted.nodes == perft(position, 3)  # counted in full, the same count
    assert len(calls) == expansions(position, 3) // 64


def test_the_problem_gives_the_budget_and_the_estimate():
    client = create_app({"TESTING": True}).test_client()
    resp = client.post("/v1/perft", json={"position": TABLE["crowded"].hpn, "depth": 4})
    assert resp.status_code == 422
    problem = resp.get_json()
    assert problem["type"].endswith("over-budget")
    assert "more than 50,000 positions" in problem["detail"]
    assert "by estimate, refused before counting" in problem["detail"]
    assert problem["errors"][0]["path"] == "depth"


def test_a_large_png_costs_more_of_the_budget():
    assert png_cost(100) == png_cost(800) == 1 and png_cost(801) == png_cost(1600) == 2
    with budget.admitted(2, cost=2):  # a 1,600-px PNG alone in a worker of limit 2
        with pytest.raises(Exception) as info:
            with budget.admitted(2, cost=1):
                pass
        assert info.value.status == 503
    with budget.admitted(1, cost=2):  # more than the limit: admitted alone
        pass
