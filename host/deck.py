"""Decks as data: the cards of each game, read by the engines and the recognizer alike.

A deck file (``host/decks/<name>.json``) lists its cards with a count and attributes (number,
ability, value, kind). A card is named ``deck/card``, for example ``trains/42`` or
``rollecate/track-3``. The format is public; see ``docs/formats.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from host.errors import BadInputError

Attribute = str | int

CARD_MM_DEFAULT = (63.0, 88.0)
"""A card's width and height in millimetres when the deck file does not say (poker size)."""
CARD_MM_RANGE = (20.0, 200.0)
"""Card sides a deck file may give, millimetres (smaller or larger is a typo, not a card)."""


class DeckError(BadInputError):
    """A deck file that is missing, not JSON, or not in the deck format."""


@dataclass(frozen=True)
class Card:
    """One kind of card in a deck (a deck may hold several copies of it)."""

    deck: str
    """The deck's name, for example ``trains``."""
    name: str
    """The card's name within its deck, for example ``42`` or ``track-3``."""
    count: int
    """How many copies of this card the deck holds."""
    attributes: Mapping[str, Attribute] = field(default_factory=dict)
    """Everything else the deck file says of the card: number, ability, value, kind, ..."""

    @property
    def id(self) -> str:
        """The card's public name, ``deck/card``."""
        return f"{self.deck}/{self.name}"

    def number(self, key: str) -> int:
        """An integer attribute, for example ``card.number("value")``."""
        value = self.attributes[key]
        if not isinstance(value, int):
            raise DeckError(f"{self.id}: attribute {key!r} is not a number")
        return value

    def text(self, key: str) -> str:
        """A text attribute, for example ``card.text("ability")``."""
        value = self.attributes[key]
        if not isinstance(value, str):
            raise DeckError(f"{self.id}: attribute {key!r} is not text")
        return value


@dataclass(frozen=True)
class Deck:
    """A game's deck: its cards in file order."""

    name: str
    """The deck's name, used as the first part of every card name."""
    title: str
    """What people call it."""
    cards: tuple[Card, ...]
    """Every kind of card, in the order of the deck file."""
    card_mm: tuple[float, float] = CARD_MM_DEFAULT
    """Width and height of a card in millimetres (portrait)."""

    def card(self, name: str) -> Card:
        """The card called ``name`` (``42``) or ``deck/name`` (``trains/42``)."""
        short = name.removeprefix(f"{self.name}/")
        for card in self.cards:
            if card.name == short:
                return card
        raise DeckError(f"deck {self.name!r} has no card {name!r}")

    @property
    def size(self) -> int:
        """How many physical cards the deck holds."""
        return sum(card.count for card in self.cards)


def load_deck(name: str) -> Deck:
    """The deck shipped with Conductor under ``name`` (``trains``, ``rollecate``, ...)."""
    source = resources.files("host") / "decks" / f"{name}.json"
    if not source.is_file():
        raise DeckError(f"no deck called {name!r}")
    return parse_deck(source.read_text(encoding="utf-8"), origin=f"deck {name!r}")


def deck_from(name_or_file: str) -> Deck:
    """A deck named on the command line: a shipped deck's name, or a deck file's path."""
    path = Path(name_or_file)
    if path.suffix.lower() == ".json" or path.is_file():
        return load_deck_file(path)
    return load_deck(name_or_file)


def load_deck_file(path: Path) -> Deck:
    """A deck from a file of the user's (an enrolled or house-ruled deck)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DeckError(f"cannot read deck file {path}: {error.strerror}") from None
    return parse_deck(text, origin=str(path))


def parse_deck(text: str, origin: str = "deck") -> Deck:
    """Parse the deck format, with a one-line reason for anything wrong."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise DeckError(f"{origin}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, dict):
        raise DeckError(f"{origin}: a deck is a JSON object")
    name, title, entries = data.get("deck"), data.get("title", data.get("deck")), data.get("cards")
    if not isinstance(name, str) or not isinstance(title, str) or not isinstance(entries, list):
        raise DeckError(f'{origin}: needs "deck" (text) and "cards" (a list)')
    cards: list[Card] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise DeckError(f"{origin}: card {index} is not an object")
        card_name, count = entry.get("name"), entry.get("count", 1)
        if not isinstance(card_name, str) or not card_name or "/" in card_name:
            raise DeckError(f"{origin}: card {index} needs a name without '/'")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise DeckError(f"{origin}: card {card_name!r} needs a count of at least 1")
        if card_name in seen:
            raise DeckError(f"{origin}: card {card_name!r} is listed twice")
        seen.add(card_name)
        attributes: dict[str, Attribute] = {}
        for key, value in entry.items():
            if key in ("name", "count"):
                continue
            if not isinstance(value, str | int) or isinstance(value, bool):
                raise DeckError(f"{origin}: card {card_name!r}: {key!r} must be text or a number")
            attributes[key] = value
        cards.append(Card(deck=name, name=card_name, count=count, attributes=attributes))
    if not name or "/" in name:
        raise DeckError(f'{origin}: "deck" needs a name without \'/\'')
    return Deck(name=name, title=title, cards=tuple(cards), card_mm=_card_mm(data, origin))


def _card_mm(data: dict[str, Any], origin: str) -> tuple[float, float]:
    """The deck's ``card_mm`` (width, height), checked."""
    size = data.get("card_mm", list(CARD_MM_DEFAULT))
    low, high = CARD_MM_RANGE
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in size)
            or not all(low <= v <= high for v in size)):
        raise DeckError(f'{origin}: "card_mm" must be [width, height] in millimetres, '
                        f"each {low:g}-{high:g}")
    width, height = float(size[0]), float(size[1])
    return (width, height) if width <= height else (height, width)
