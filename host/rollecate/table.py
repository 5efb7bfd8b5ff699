"""Reading an end-of-game table: each seat's discard pile and hand, cards as values or names.

The format (``conductor score rollecate FILE.json``, docs/rollecate.md)::

    {"seats": [{"discard": [3, "track-2", "rollecate/chaos-4"], "hand": [1]}, ...]}
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from host.errors import BadInputError
from host.jsonl import loads, read_text
from host.rollecate.cards import CardBook, RollecateCard
from host.rollecate.rules import MAX_PLAYERS, MIN_PLAYERS


def read_json(path: Path) -> object:
    """A JSON file's content, or BadInputError with a one-line reason."""
    try:
        return loads(read_text(path))
    except json.JSONDecodeError as error:
        raise BadInputError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None


def parse_cards(data: object, book: CardBook, where: str) -> list[RollecateCard]:
    """A list of cards given as values or names."""
    if not isinstance(data, list):
        raise BadInputError(f"{where}: expected a list of cards")
    try:
        return [book.parse(token) for token in data]
    except BadInputError as error:
        raise BadInputError(f"{where}: {error}") from None


def parse_table(data: object, book: CardBook) -> list[list[RollecateCard]]:
    """Each seat's cards (discard pile, then hand) from the end-of-game table format."""
    seats = data.get("seats") if isinstance(data, dict) else None
    if not isinstance(seats, list) or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise BadInputError(f'the table needs "seats": a list of {MIN_PLAYERS} to {MAX_PLAYERS}')
    table: list[list[RollecateCard]] = []
    for index, seat in enumerate(seats):
        if not isinstance(seat, dict) or set(seat) - {"discard", "hand"}:
            raise BadInputError(f'seat {index}: expected {{"discard": [...], "hand": [...]}}')
        cards = parse_cards(seat.get("discard", []), book, f"seat {index} discard")
        cards += parse_cards(seat.get("hand", []), book, f"seat {index} hand")
        table.append(cards)
    check_possible(table, book)
    return table


def check_possible(table: list[list[RollecateCard]], book: CardBook) -> None:
    """Refuse a table holding more cards of some value than the whole deck has."""
    in_deck = Counter(book.value(name) for name in book.full_deck())
    shown = Counter(card.value for cards in table for card in cards)
    for value, count in sorted(shown.items()):
        if count > in_deck[value]:
            raise BadInputError(
                f"the table shows {count} cards of value {value}; the deck has {in_deck[value]}"
            )
