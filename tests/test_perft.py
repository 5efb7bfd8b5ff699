"""Move counts from known positions (tests/fixtures/perft), python-chess perft style.

A wrong count fails with the first moves whose subtrees count differently from the fixture's
breakdown, so the rule that changed can be found at once.
"""

from __future__ import annotations

from typing import Any

import pytest
from perft import RULES, divide, fixtures, perft

CASES = fixtures()


@pytest.mark.parametrize(
    ("name", "case"), CASES, ids=[f"{name}-{case['id']}" for name, case in CASES]
)
def test_move_counts_match_the_fixture(name: str, case: dict[str, Any]) -> None:
    rules = RULES[name]
    game = rules.load(case)
    for depth, expected in case["perft"]:
        counted = perft(game, depth)
        if counted == expected:
            continue
        deepest = case["perft"][-1][0]  # the depth the fixture breaks down by first move
        found, wanted = divide(game, deepest, rules.said), case["divide"]
        wrong = [
            f"{move}: {found.get(move, 'no such move')} (fixture {wanted.get(move, 'none')})"
            for move in sorted(set(found) | set(wanted))
            if found.get(move) != wanted.get(move)
        ]
        pytest.fail(
            f"depth {depth}: {counted} moves, fixture {expected}; at depth {deepest} by first "
            "move:\n" + "\n".join(wrong)
        )


def test_every_game_has_move_count_fixtures() -> None:
    assert {name for name, _ in CASES} == set(RULES)
    assert all(case["perft"][0][0] == 1 and case["divide"] for _, case in CASES)


def test_a_count_gone_wrong_is_broken_down_by_move() -> None:
    """The breakdown names the first move whose subtree changed."""
    name, case = next((n, c) for n, c in CASES if c["id"] == "dealt-3-seats")
    rules = RULES[name]
    game = rules.load(case)
    found = divide(game, 2, rules.said)
    assert sum(found.values()) == case["perft"][1][1] and len(found) == 7
    game.push(game.legal_moves()[0])
    assert perft(game, 1) == next(iter(found.values()))
