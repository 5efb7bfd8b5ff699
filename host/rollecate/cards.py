"""Rollecate's cards as the rules see them: a kind and a value, read from the deck data.

A card is named within its deck (``track-3``) or in full (``rollecate/track-3``); a bare number
stands for the first card of that value in deck order (a regular track card for 1 to 4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from host.deck import Deck, load_deck
from host.errors import BadInputError

DECK_NAME = "rollecate"


class Kind(Enum):
    """What a card is good for."""

    TRACK = "track"
    BROKEN = "broken"
    CHAOS = "chaos"


@dataclass(frozen=True)
class RollecateCard:
    """One kind of Rollecate card (the deck may hold several copies)."""

    name: str
    """The card's name in the deck, for example ``track-3``."""
    kind: Kind
    """Regular track card, broken track or chaos card."""
    value: int
    """Its points, and for a track card the dice it makes you roll when built."""

    @property
    def has_rails(self) -> bool:
        """Track cards and broken tracks can be built; chaos cards cannot."""
        return self.kind is not Kind.CHAOS

    @property
    def id(self) -> str:
        """The card's public name, ``rollecate/<name>``."""
        return f"{DECK_NAME}/{self.name}"


class CardBook:
    """Every Rollecate card of a deck, by name, with the deck's counts."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self._cards: dict[str, RollecateCard] = {}
        for card in deck.cards:
            try:
                kind = Kind(card.text("kind"))
            except ValueError:
                raise BadInputError(f"{card.id}: unknown kind {card.text('kind')!r}") from None
            self._cards[card.name] = RollecateCard(card.name, kind, card.number("value"))

    def __getitem__(self, name: str) -> RollecateCard:
        return self.card(name)

    def card(self, name: str) -> RollecateCard:
        """The card called ``name`` or ``rollecate/name``."""
        found = self._cards.get(name.removeprefix(f"{DECK_NAME}/"))
        if found is None:
            raise BadInputError(f"Rollecate has no card {name!r}")
        return found

    def value(self, name: str) -> int:
        """The value of the card called ``name``."""
        return self.card(name).value

    def parse(self, token: object) -> RollecateCard:
        """A card given as its value (``3``) or name (``"track-3"``, ``"rollecate/chaos-2"``)."""
        if isinstance(token, bool):
            raise BadInputError(f"{token!r} is not a card")
        if isinstance(token, int):
            for card in self._cards.values():
                if card.value == token:
                    return card
            raise BadInputError(f"no Rollecate card has the value {token}")
        if isinstance(token, str):
            return self.card(token)
        raise BadInputError(f"{token!r} is not a card (give a value or a card name)")

    def full_deck(self) -> list[str]:
        """Every physical card's name, each copy once, in deck order."""
        return [card.name for card in self.deck.cards for _ in range(card.count)]

    def names(self) -> Iterable[str]:
        """The card names, in deck order."""
        return self._cards.keys()


_DEFAULT: CardBook | None = None


def default_book() -> CardBook:
    """The cards of the shipped deck (``host/decks/rollecate.json``), loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = CardBook(load_deck(DECK_NAME))
    return _DEFAULT
