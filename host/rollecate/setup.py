"""Setting up a game of Rollecate: the starting railway, the unseen removed cards, the hands.

The published set-up (PRODUCT.md, Rulings): lay a starting railway of 4 track cards from the
shuffled deck (chaos cards drawn meanwhile are set aside and shuffled back in), put the train on
the 3rd card, remove 11 / 9 / 7 cards unseen for 2 / 3 / 4 players and deal 2 cards to each.
The value rule does not apply to the starting railway.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from host.errors import BadInputError
from host.rollecate.cards import CardBook
from host.rollecate.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    REMOVED_UNSEEN,
    STARTING_HAND,
    STARTING_RAILWAY,
    TRAIN_START,
)


@dataclass(frozen=True)
class Setup:
    """Everything on the table before the first turn (the first line of a game's record)."""

    seats: int
    """How many players (2 to 4); seats are numbered 0.. clockwise."""
    first: int
    """The seat that plays first."""
    railway: tuple[str, ...]
    """The starting railway, from its start to its end."""
    train: int
    """The position of the card the train stands on (0 is the first card)."""
    hands: tuple[tuple[str, ...], ...]
    """Each seat's starting hand."""
    draw_pile: tuple[str, ...]
    """The face-down draw pile, top card first."""
    removed: tuple[str, ...]
    """The cards put back in the box unseen."""

    def to_json(self) -> dict[str, Any]:
        """The set-up as a JSON object."""
        return {
            "seats": self.seats,
            "first": self.first,
            "railway": list(self.railway),
            "train": self.train,
            "hands": [list(hand) for hand in self.hands],
            "draw_pile": list(self.draw_pile),
            "removed": list(self.removed),
        }

    @classmethod
    def from_json(cls, data: object, book: CardBook) -> Setup:
        """A set-up from JSON, checked against the deck (BadInputError with the reason)."""
        if not isinstance(data, dict):
            raise BadInputError("a set-up is a JSON object")
        try:
            setup = cls(
                seats=_int(data["seats"]),
                first=_int(data["first"]),
                railway=_names(data["railway"]),
                train=_int(data["train"]),
                hands=tuple(_names(hand) for hand in data["hands"]),
                draw_pile=_names(data["draw_pile"]),
                removed=_names(data["removed"]),
            )
        except (KeyError, TypeError) as error:
            raise BadInputError(f"set-up: missing or malformed {error}") from None
        setup.check(book)
        return setup

    def check(self, book: CardBook) -> None:
        """Raise BadInputError if these cards and positions are not a possible set-up."""
        if not MIN_PLAYERS <= self.seats <= MAX_PLAYERS:
            raise BadInputError(f"Rollecate is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if len(self.hands) != self.seats or not 0 <= self.first < self.seats:
            raise BadInputError("set-up: one hand per seat, and a first seat among them")
        if not self.railway or not 0 <= self.train < len(self.railway):
            raise BadInputError("set-up: the train must stand on a card of the railway")
        if not all(book.card(name).has_rails for name in self.railway):
            raise BadInputError("set-up: the railway holds track cards only")
        if not self.draw_pile:
            raise BadInputError("set-up: the draw pile is empty")
        used = Counter([*self.railway, *self.draw_pile, *self.removed])
        for hand in self.hands:
            used.update(hand)
        if used != Counter(book.full_deck()):
            raise BadInputError("set-up: the cards are not exactly one deck")


def deal(players: int, rng: random.Random, book: CardBook, first: int = 0) -> Setup:
    """A set-up by the published rules, shuffled with ``rng``."""
    if players not in REMOVED_UNSEEN:
        raise BadInputError(f"Rollecate is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    deck = book.full_deck()
    rng.shuffle(deck)
    railway: list[str] = []
    set_aside: list[str] = []
    while len(railway) < STARTING_RAILWAY:
        card = deck.pop()
        (railway if book.card(card).has_rails else set_aside).append(card)
    deck.extend(set_aside)
    rng.shuffle(deck)
    removed = [deck.pop() for _ in range(REMOVED_UNSEEN[players])]
    hands = tuple(tuple(deck.pop() for _ in range(STARTING_HAND)) for _ in range(players))
    deck.reverse()  # the last card popped above was the top of the pile: keep that order
    return Setup(players, first, tuple(railway), TRAIN_START, hands, tuple(deck), tuple(removed))


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{value!r} (not a whole number)")
    return value


def _names(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise TypeError(f"{value!r} (not a list of card names)")
    return tuple(value)
