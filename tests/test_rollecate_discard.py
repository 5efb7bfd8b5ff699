"""The discard advisor: exact (never worse than any order a player could choose)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from host.rollecate.discard import DiscardStep, advise, can_combine, put, reachable, saved_by


def value(name: str) -> int:
    """Test cards are named by kind letter and value, for example ``t3`` or ``c5``."""
    return int(name[1:])


def brute_force(pile: tuple[str, ...], cards: list[str]) -> int:
    """The most points any order and any choice of combinations saves."""
    best = 0
    for order in set(itertools.permutations(cards)):
        for choice in itertools.product((False, True), repeat=len(order)):
            current, steps, legal = pile, [], True
            for card, combine in zip(order, choice, strict=True):
                if combine and not can_combine(current, card, value):
                    legal = False
                    break
                step = DiscardStep(card, combine)
                current = put(current, step, value)
                steps.append(step)
            if legal:
                best = max(best, saved_by(steps, value))
    return best


def test_a_combine_chain_empties_the_pile() -> None:
    advice = advise(["t1", "t2", "t3"], ["t1", "t3", "t2"], value)
    assert advice.points_saved == 12 and advice.pile == ()
    assert [step.card for step in advice.steps] == ["t3", "t2", "t1"]
    assert all(step.combine for step in advice.steps)


def test_the_advisor_beats_putting_cards_down_as_they_come() -> None:
    # In the order taken (4, 2, 2) only the two new 2s combine (4 points); the advisor puts a
    # 2 on the pile's 2 and then the 4 on the uncovered 4 (12 points).
    advice = advise(["t4", "t2"], ["t4", "t2", "t2"], value)
    assert advice.points_saved == 12
    assert advice.pile == ("t2",)


def test_each_card_combines_once() -> None:
    advice = advise(["t3", "t3"], ["t3"], value)
    assert advice.points_saved == 6 and advice.pile == ("t3",)


def test_reachable_piles_mark_the_finished_ones() -> None:
    found = reachable(["t2"], ["t2", "c2"], value)
    # An empty pile shows only half-way (one 2 combined, the other still in hand): a single
    # card cannot combine twice.
    assert found[()] == {("c2",), ("t2",)}
    assert () in found[("c2",)] and () in found[("t2",)] and () in found[("t2", "t2", "c2")]
    assert found[("t2",)] == {(), ("c2", "t2")}


piles = st.lists(st.sampled_from(["t1", "t2", "t3", "t4", "b2", "c5"]), max_size=4)
hands = st.lists(st.sampled_from(["t1", "t2", "t3", "t4", "b2", "c2", "c5"]), max_size=5)


@settings(max_examples=150, deadline=None)
@given(pile=piles, cards=hands)
def test_the_advisor_equals_brute_force_on_small_piles(pile: list[str], cards: list[str]) -> None:
    advice = advise(pile, cards, value)
    assert advice.points_saved == brute_force(tuple(pile), cards)
    # The advice itself is a legal sequence that saves what it claims and ends on its pile.
    current = tuple(pile)
    for step in advice.steps:
        current = put(current, step, value)
    assert current == advice.pile and saved_by(advice.steps, value) == advice.points_saved
    assert sorted(step.card for step in advice.steps) == sorted(cards)
    # Every finished pile a player could make is among the reachable ones, the advised too.
    assert () in reachable(pile, cards, value)[advice.pile]
