"""What the referee believes of the parts of the table a camera cannot see.

A camera sees the top card of each stacked discard pile, never the hands. When a player puts
cards down faster than the camera settles, or combines a card away, or puts down chaos cards
that look like other moves, the cards underneath and the hands are not all known. The referee
then keeps every ``World`` consistent with everything seen so far, narrows them with each new
view, asks the player (the seat's button) only when the difference matters for the turn, and
lets the final count (the spread hands) settle the rest. A pile seen with more than one card
(spread out) is taken as seen whole when it can be.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from host.rollecate.discard import Pile, reachable

Value = Callable[[str], int]

MAX_WORLDS = 256
"""Worlds kept at most (the likeliest, see ``likeliest``): a long run of unseen, ambiguous
discards must not grow the referee's work without bound."""
MAX_STEPS = 4096
"""Ways through a discard kept at most, the likeliest first (see ``advance``)."""


@dataclass(frozen=True, order=True)
class World:
    """One way the hidden part of the table may be."""

    piles: tuple[Pile, ...]
    """Each seat's whole discard pile, bottom first."""
    unseen: tuple[str, ...]
    """The chaos cards not on any discard pile (in a hand, the draw pile or removed), sorted."""
    held: tuple[int, ...]
    """How many cards each seat holds."""
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Worlds live in sets by the thousand: hash the nested tuples once, not at every look.
        object.__setattr__(self, "_hash", hash((self.piles, self.unseen, self.held)))

    def __hash__(self) -> int:
        return self._hash

    def with_pile(self, seat: int, pile: Pile) -> World:
        """The same world with seat's discard pile replaced."""
        # Made directly: ``dataclasses.replace`` costs much more, and this runs in the loops.
        return World((*self.piles[:seat], pile, *self.piles[seat + 1 :]), self.unseen, self.held)

    def with_held(self, seat: int, change: int) -> World:
        """The same world with seat's hand grown (or shrunk) by ``change`` cards."""
        held = (*self.held[:seat], self.held[seat] + change, *self.held[seat + 1 :])
        return replace(self, held=held)


Worlds = frozenset[World]
Step = tuple[World, Pile]
"""A world while cards go on one seat's pile, and the cards (sorted) still to go down."""


def shows(view: Pile, pile: Pile) -> bool:
    """True if ``view`` is what can be seen of ``pile``: its top part. An empty view means an
    empty pile. Cards are compared by name: the camera tells a chaos or broken card from a
    regular track card of the same value (each kind has its mark), and a chaos card on the
    pile instead of a track card means a different hand."""
    if not view:
        return not pile
    return len(view) <= len(pile) and pile[len(pile) - len(view) :] == view


def seen_whole(view: Pile, piles: Iterable[Pile]) -> set[Pile]:
    """The piles a view of several cards shows whole, if any can be (else every pile)."""
    candidates = set(piles)
    if len(view) > 1:
        whole = {pile for pile in candidates if len(pile) == len(view)}
        if whole:
            return whole
    return candidates


def fitting(worlds: Iterable[World], seat: int, view: Pile) -> Worlds:
    """The worlds in which seat's pile may show ``view`` (none if it cannot)."""
    shown = [world for world in worlds if shows(view, world.piles[seat])]
    whole = seen_whole(view, (world.piles[seat] for world in shown))
    return frozenset(world for world in shown if world.piles[seat] in whole)


def points(world: World, value: Value) -> int:
    """All points on the discard piles of a world."""
    return sum(_pile_points(pile, value) for pile in world.piles)


@lru_cache(maxsize=65536)
def _pile_points(pile: Pile, value: Value) -> int:
    """A pile's points, remembered: worlds share their piles, and ordering worlds asks often."""
    return sum(value(name) for name in pile)


def likeliest(worlds: Iterable[World], value: Value) -> World:
    """The world to show and advise on: the fewest points on the piles (the advice's aim),
    then the fewest cards; ties in a fixed order, so the choice never depends on set order."""
    return min(worlds, key=lambda world: (points(world, value),
                                          sum(len(pile) for pile in world.piles), world))


def pruned(worlds: Iterable[World], value: Value) -> Worlds:
    """At most ``MAX_WORLDS`` worlds, the likeliest first."""
    ordered = sorted(worlds, key=lambda world: (points(world, value),
                                                sum(len(pile) for pile in world.piles), world))
    return frozenset(ordered[:MAX_WORLDS])


def advance(steps: Iterable[Step], seat: int, view: Pile, value: Value
            ) -> tuple[frozenset[Step], bool]:
    """Every way on from ``steps`` (some more of the cards put on seat's pile in some order,
    combining or not) that ``view`` may show, at most the likeliest ``MAX_STEPS`` of them; and
    whether that is every way (False: some were let go)."""
    # Worlds that differ only in other seats' piles go on the same way: work it out once.
    starts: dict[tuple[Pile, Pile], list[World]] = {}
    for world, left in steps:
        starts.setdefault((world.piles[seat], left), []).append(world)
    options = [(pile, worlds, list(_reachable_showing(pile, left, value, view)))
               for (pile, left), worlds in starts.items()]
    if len(view) > 1 and any(len(shown) == len(view) for _, _, ways in options
                             for shown, _ in ways):
        # A pile seen spread out with as many cards as it may hold is seen whole.
        options = [(pile, worlds, [way for way in ways if len(way[0]) == len(view)])
                   for pile, worlds, ways in options]
    total = sum(len(worlds) * len(lefts) for _, worlds, ways in options for _, lefts in ways)
    candidates = (
        (points(world, value) - _pile_points(pile, value) + _pile_points(shown, value),
         world, shown, rest)
        for pile, worlds, ways in options for shown, lefts in ways
        for world in worlds for rest in lefts)
    # The likeliest first (fewest points on the piles), chosen before any world is made: a long
    # run of unseen discards can offer millions.
    chosen = candidates if total <= MAX_STEPS else heapq.nsmallest(MAX_STEPS, candidates)
    found = frozenset((world.with_pile(seat, shown), rest) for _, world, shown, rest in chosen)
    return found, total <= MAX_STEPS


def finished_unseen(steps: Iterable[Step], seat: int, value: Value) -> Worlds:
    """Every world in which all the cards still to go went down on seat's pile, in any order,
    combining or not: the discard as far as a pile out of view allows."""
    found: set[World] = set()
    for world, left in steps:
        for shown, lefts in _reachable(world.piles[seat], left, value).items():
            if () in lefts:
                found.add(world.with_pile(seat, shown))
    return frozenset(found)


def _reachable(pile: Pile, left: Pile, value: Value) -> dict[Pile, set[Pile]]:
    """``discard.reachable``, from the pile's top part only: k cards put down can combine away
    at most k cards of the pile, so the cards under its top k stay as they are."""
    cut = max(0, len(pile) - len(left))
    below, found = pile[:cut], _reachable_top(pile[cut:], left, value)
    return {below + shown: lefts for shown, lefts in found.items()}


def _reachable_showing(pile: Pile, left: Pile, value: Value, view: Pile
                       ) -> Iterable[tuple[Pile, set[Pile]]]:
    """The piles of ``_reachable`` that ``view`` may show (compared on the top part first: most
    are not, and the whole pile is only made for those that are)."""
    cut = max(0, len(pile) - len(left))
    below = pile[:cut]
    for top, lefts in _reachable_top(pile[cut:], left, value).items():
        if view and len(view) <= len(top):
            if top[len(top) - len(view):] == view:
                yield below + top, lefts
        elif shows(view, below + top):
            yield below + top, lefts


@lru_cache(maxsize=16384)
def _reachable_top(top: Pile, left: Pile, value: Value) -> dict[Pile, set[Pile]]:
    """``discard.reachable``, remembered: each view of a pile asks again from the same starts,
    and many piles share their top."""
    return reachable(top, left, value)
