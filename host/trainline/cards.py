"""The Train Line Chicago cards as the rules see them: number cards and the 14 action cards."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from host.deck import Deck, DeckError, load_deck

EXIT_1X = "exit-1x"
EXIT_2X = "exit-2x"
EXPRESS = "express"
REVERSE = "reverse"
ECCENTRIC = "eccentric-passenger"
PAN_HANDLER = "pan-handler"
PLUS_DISCARD = "plus-discard"
ENTER_1X = "enter-1x"
ENTER_2X = "enter-2x"
EXCUSE_ME = "excuse-me"
U_PASS = "u-pass"
ADVANCED_MOTION = "advanced-motion"
TAKE_A_SEAT = "take-a-seat"
REBEL = "rebel-passenger"

#: The 14 action card types, by their names in the deck data.
ACTION_TYPES = (
    EXIT_1X,
    EXIT_2X,
    EXPRESS,
    REVERSE,
    ECCENTRIC,
    PAN_HANDLER,
    PLUS_DISCARD,
    ENTER_1X,
    ENTER_2X,
    EXCUSE_ME,
    U_PASS,
    ADVANCED_MOTION,
    TAKE_A_SEAT,
    REBEL,
)
#: Cards that let a pawn get past one seated passenger or opposing pawn.
PASS_CARDS = (EXCUSE_ME, REBEL)


@dataclass(frozen=True)
class NumberCard:
    """A number card."""

    colour: str
    """``red`` or ``blue``."""
    number: int
    """How many spaces it moves, 1-5."""


@dataclass(frozen=True)
class TrainlineCards:
    """The cards of a Train Line Chicago deck."""

    numbers: dict[str, NumberCard]
    """Number card name to colour and number."""
    ends_turn: dict[str, bool]
    """Action card name to True for a Turn Ender (red star), False for a Turn Keeper."""
    motion_plus: int
    """Advanced Motion's motion plus number."""
    counts: dict[str, int]
    """Card name to copies in the deck."""

    def number_deck(self) -> list[str]:
        """Every number card, unshuffled."""
        return [n for n in self.numbers for _ in range(self.counts[n])]

    def action_deck(self) -> list[str]:
        """Every action card, unshuffled."""
        return [a for a in self.ends_turn for _ in range(self.counts[a])]


def cards_from_deck(deck: Deck) -> TrainlineCards:
    """Read a Train Line deck file, refusing one without the 14 action types."""
    numbers: dict[str, NumberCard] = {}
    ends: dict[str, bool] = {}
    plus = 0
    for card in deck.cards:
        if card.text("kind") == "number":
            numbers[card.name] = NumberCard(card.text("colour"), card.number("number"))
        else:
            ends[card.name] = card.text("star") == "red"
            if card.name == ADVANCED_MOTION:
                plus = card.number("plus")
    missing = set(ACTION_TYPES) - set(ends)
    if missing or not numbers:
        raise DeckError(f"a Train Line deck needs number cards and {sorted(missing)}")
    return TrainlineCards(numbers, ends, plus, {c.name: c.count for c in deck.cards})


@cache
def standard_cards() -> TrainlineCards:
    """The shipped deck (``host/decks/trainline.json``)."""
    return cards_from_deck(load_deck("trainline"))
