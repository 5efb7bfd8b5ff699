"""The Game of Trains' fixed numbers, abilities and our rulings, as named constants.

A house rule is a one-line change here (PRODUCT.md, "Rulings").
"""

from __future__ import annotations

import itertools
from enum import Enum

from host.deck import Deck, load_deck

LINE_LENGTH = 7
"""Railcars in each seat's line (the locomotive does not count)."""
MIN_SEATS, MAX_SEATS = 2, 4
MIDDLE = 3
"""The middle place: the 4th of 7, counted from either end."""
HOLE = 0
"""Stands in a line for a railcar removed and not yet replaced (only left once the game is won)."""


class Ability(Enum):
    """What a railcar does when a player takes it from the face-up area."""

    SWAP_ADJACENT = "swap-adjacent"
    SWAP_ACROSS_ONE = "swap-across-one"
    MOVE_TWO_RIGHT = "move-two-right"
    MOVE_TWO_LEFT = "move-two-left"
    REMOVE_LEFTMOST = "remove-leftmost"
    REMOVE_MIDDLE = "remove-middle"
    REMOVE_RIGHTMOST = "remove-rightmost"
    PROTECT = "protect"

    @property
    def words(self) -> str:
        """The ability in a sentence's words: ``swap adjacent``."""
        return self.value.replace("-", " ")


_LOCK_PLACES = {"left": 0, "middle": MIDDLE, "right": LINE_LENGTH - 1}


class Lock(Enum):
    """The places a protect card can guard, by the name observations use."""

    LEFT = "left"
    MIDDLE = "middle"
    RIGHT = "right"

    @property
    def place(self) -> int:
        """The place (0-based) in the line under which the protect card sits."""
        return _LOCK_PLACES[self.value]

    @classmethod
    def at(cls, place: int) -> Lock | None:
        """The lock guarding ``place``, or None for a place no protect card can guard."""
        for lock in cls:
            if lock.place == place:
                return lock
        return None


REMOVED_PLACE: dict[Ability, int] = {
    Ability.REMOVE_LEFTMOST: 0,
    Ability.REMOVE_MIDDLE: MIDDLE,
    Ability.REMOVE_RIGHTMOST: LINE_LENGTH - 1,
}
"""The place each remove ability empties in every line that does not protect it."""

SWAP_DISTANCE: dict[Ability, int] = {Ability.SWAP_ADJACENT: 1, Ability.SWAP_ACROSS_ONE: 2}
"""How far apart the two swapped railcars are."""

MOVE_DISTANCE: dict[Ability, int] = {Ability.MOVE_TWO_RIGHT: 2, Ability.MOVE_TWO_LEFT: -2}
"""How far a moved railcar travels (it must travel exactly this far; the cards it passes shift)."""


def ability_slots(ability: Ability) -> list[int]:
    """The places an ability can be aimed at: where a swap's left card or a moved card starts,
    or where a protect card can go. Remove abilities take no place (an empty list)."""
    if ability is Ability.PROTECT:
        return [lock.place for lock in Lock]
    if ability in SWAP_DISTANCE:
        return list(range(LINE_LENGTH - SWAP_DISTANCE[ability]))
    if ability in MOVE_DISTANCE:
        shift = MOVE_DISTANCE[ability]
        return [place for place in range(LINE_LENGTH) if 0 <= place + shift < LINE_LENGTH]
    return []


def draft_size(order: int) -> int:
    """Cards drawn at set-up by the ``order``-th seat of the draft (0 = the first player)."""
    return order + 1


def ability_map(deck: Deck | None = None) -> dict[int, Ability]:
    """Each railcar number's ability, from the deck data (the default deck unless given)."""
    deck = deck or load_deck("trains")
    return {card.number("number"): Ability(card.text("ability")) for card in deck.cards}


def is_ascending(line: list[int]) -> bool:
    """True when a full line is in ascending order: the winning condition."""
    return HOLE not in line and all(a < b for a, b in itertools.pairwise(line))
