"""Personal discard piles: combining cards, and the advisor that combines the most points away.

Putting a card on the discard pile whose top card has the same value lets both go to the box
(combining). A combined card leaves the pile, so it can never combine again ("each card can
only be combined once"); cards put down earlier in the same turn count as the top card too.
Piles are tuples of card names, bottom first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

Pile = tuple[str, ...]
Value = Callable[[str], int]


@dataclass(frozen=True)
class DiscardStep:
    """One card put on the discard pile."""

    card: str
    """The card's name, for example ``track-2``."""
    combine: bool
    """True if it combines with the pile's top card (both go to the box)."""


@dataclass(frozen=True)
class DiscardAdvice:
    """The best order to put cards on a discard pile."""

    steps: tuple[DiscardStep, ...]
    """Every card to put down, in order, and whether to combine it."""
    points_saved: int
    """Points combined away into the box (both cards of every combination)."""
    pile: Pile
    """The discard pile afterwards, bottom first."""


def can_combine(pile: Pile, card: str, value: Value) -> bool:
    """True if ``card`` may combine with the top of ``pile``."""
    return bool(pile) and value(pile[-1]) == value(card)


def put(pile: Pile, step: DiscardStep, value: Value) -> Pile:
    """The pile after ``step``; raises ValueError if it cannot combine."""
    if not step.combine:
        return (*pile, step.card)
    if not can_combine(pile, step.card, value):
        top = f"the {pile[-1]}" if pile else "an empty pile"
        raise ValueError(f"the {step.card} cannot combine with {top}: the values differ")
    return pile[:-1]


def saved_by(steps: Sequence[DiscardStep], value: Value) -> int:
    """Points a sequence of steps combines away."""
    return sum(2 * value(step.card) for step in steps if step.combine)


def advise(pile: Sequence[str], cards: Sequence[str], value: Value) -> DiscardAdvice:
    """The order (and combinations) that saves the most points: exact, by memoised search.

    With k cards still to put down at most k cards can leave the pile, so only its top k cards
    matter; the search is over (those top cards, the multiset of cards left).
    Ties go to the first option in name order, combining before not combining.
    """

    @cache
    def best(top: Pile, left: tuple[str, ...]) -> tuple[int, DiscardStep | None]:
        if not left:
            return 0, None
        found: tuple[int, DiscardStep | None] = (-1, None)
        for index, card in enumerate(left):
            if index and left[index - 1] == card:
                continue
            rest = left[:index] + left[index + 1 :]
            if can_combine(top, card, value):
                gain = 2 * value(card) + best(_tail(top[:-1], len(rest)), rest)[0]
                if gain > found[0]:
                    found = (gain, DiscardStep(card, True))
            gain = best(_tail((*top, card), len(rest)), rest)[0]
            if gain > found[0]:
                found = (gain, DiscardStep(card, False))
        return found

    current, left = tuple(pile), tuple(sorted(cards))
    steps: list[DiscardStep] = []
    total = best(_tail(current, len(left)), left)[0]
    while left:
        step = best(_tail(current, len(left)), left)[1]
        assert step is not None  # left is not empty, so there is always a step
        steps.append(step)
        current = put(current, step, value)
        index = left.index(step.card)
        left = left[:index] + left[index + 1 :]
    return DiscardAdvice(tuple(steps), total, current)


def _tail(pile: Pile, depth: int) -> Pile:
    return pile[max(0, len(pile) - depth) :] if depth else ()


def reachable(pile: Sequence[str], cards: Sequence[str], value: Value) -> dict[Pile, set[Pile]]:
    """Every pile a player can make by putting down some of ``cards`` in some order.

    Maps each pile to the multisets (sorted tuples) of cards still in hand when it shows; the
    pile is finished when the empty tuple is among them. Used to check what a table shows.
    """
    start = (tuple(pile), tuple(sorted(cards)))
    seen: set[tuple[Pile, Pile]] = {start}
    frontier = [start]
    while frontier:
        current, left = frontier.pop()
        for card in Counter(left):
            index = left.index(card)
            rest = left[:index] + left[index + 1 :]
            options = [DiscardStep(card, False)]
            if can_combine(current, card, value):
                options.append(DiscardStep(card, True))
            for step in options:
                following = (put(current, step, value), rest)
                if following not in seen:
                    seen.add(following)
                    frontier.append(following)
    found: dict[Pile, set[Pile]] = {}
    for shown, left in seen:
        found.setdefault(shown, set()).add(left)
    return found
