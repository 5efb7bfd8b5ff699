"""Cards, positions and lists said the way players say them, for the referee's instructions."""

from __future__ import annotations

from collections.abc import Sequence

from host.rollecate.cards import CardBook, Kind


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def card_words(name: str, book: CardBook) -> str:
    """``the 2``, ``the broken 3``, ``the chaos 5``."""
    card = book.card(name)
    kind = "" if card.kind is Kind.TRACK else f"{card.kind.value} "
    return f"the {kind}{card.value}"


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def cards_words(names: Sequence[str], book: CardBook) -> str:
    """``the 2, the 4 and the 1``."""
    return listing([card_words(name, book) for name in names])


def dice_words(count: int) -> str:
    """``1 die``, ``4 dice``."""
    return "1 die" if count == 1 else f"{count} dice"


def plural(count: int, thing: str) -> str:
    """``1 penalty card``, ``3 penalty cards``."""
    return f"{count} {thing}" if count == 1 else f"{count} {thing}s"
