"""The Express deck as the rules see it: what kind each card is, its value, what it protects."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from host.deck import Deck, DeckError, load_deck


class Kind(Enum):
    """What a card does in Express."""

    FREIGHT = "freight"
    PASSENGER = "passenger"
    WILD = "wild"
    CABOOSE = "caboose"
    DIESEL = "diesel"
    DISASTER = "disaster"
    TURNTABLE = "turntable"
    WAYCAR = "waycar"


#: Names of the Disaster cards as the rules refer to them (the deck data must use these names).
BROKEN_CAR = "broken-car"
DERAILMENT = "derailment"
STEAL = "steal"
SWITCH_ENGINES = "switch-engines"
WRECK = "wreck"
TURNTABLE = "turntable"
WILD = "wild"
CABOOSE = "caboose"
DIESEL = "diesel"
COACH = "coach"


@dataclass(frozen=True)
class CardInfo:
    """One kind of Express card, as read from the deck data."""

    name: str
    """The card's name in the deck, for example ``coach``."""
    kind: Kind
    """What the card does."""
    value: int
    """Its points as a car or Way Car in play, and minus this when left in hand."""
    order: int
    """Passenger cars: place in the MCDSO order (1 Mail ... 5 Observation); 0 for others."""
    protects: str
    """Way Cars: the Disaster they negate; empty for others."""


@dataclass(frozen=True)
class ExpressCards:
    """Every kind of card in an Express deck, and the deck's full contents."""

    info: dict[str, CardInfo]
    """Card name to what it is."""
    counts: dict[str, int]
    """Card name to how many copies the deck holds."""

    def __getitem__(self, name: str) -> CardInfo:
        found = self.info.get(name)
        if found is None:
            raise DeckError(f"Express has no card {name!r}")
        return found

    def kind(self, name: str) -> Kind:
        """The kind of card ``name``."""
        return self[name].kind

    def car_types(self) -> list[str]:
        """Names a Wild Car may stand for: every freight and passenger car."""
        return [c.name for c in self.info.values() if c.kind in (Kind.FREIGHT, Kind.PASSENGER)]

    def way_car_for(self, disaster: str) -> str | None:
        """The Way Car that negates ``disaster``, if any."""
        for card in self.info.values():
            if card.kind is Kind.WAYCAR and card.protects == disaster:
                return card.name
        return None

    def passenger_types(self) -> list[str]:
        """The passenger car types in MCDSO order."""
        found = [c for c in self.info.values() if c.kind is Kind.PASSENGER]
        return [c.name for c in sorted(found, key=lambda c: c.order)]


def cards_from_deck(deck: Deck) -> ExpressCards:
    """Read an Express deck file's cards, refusing one the rules cannot use."""
    info: dict[str, CardInfo] = {}
    counts: dict[str, int] = {}
    kinds = {kind.value: kind for kind in Kind}
    for card in deck.cards:
        kind = kinds.get(card.text("kind"))
        if kind is None:
            raise DeckError(f"{card.id}: unknown kind {card.text('kind')!r}")
        order = card.number("order") if kind is Kind.PASSENGER else 0
        protects = card.text("protects") if kind is Kind.WAYCAR else ""
        info[card.name] = CardInfo(card.name, kind, card.number("value"), order, protects)
        counts[card.name] = card.count
    for needed in (
        BROKEN_CAR,
        DERAILMENT,
        STEAL,
        SWITCH_ENGINES,
        WRECK,
        TURNTABLE,
        WILD,
        CABOOSE,
        DIESEL,
        COACH,
    ):
        if needed not in info:
            raise DeckError(f"an Express deck needs a card called {needed!r}")
    return ExpressCards(info, counts)


@cache
def standard_cards() -> ExpressCards:
    """The shipped Express deck (``host/decks/express.json``)."""
    return cards_from_deck(load_deck("express"))
