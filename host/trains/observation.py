"""What the camera reports of a Game of Trains table, and the referee's reading of it.

The format is public (docs/formats.md): ``{"lines": [[12, 30, ...], ...], "faceup": [55, 7],
"locks": [[0, "left"]]}``. ``lines[s]`` is seat s's seven railcars from that player's left to
right (``null`` where a card is there but could not be read); ``faceup`` the cards beside the
draw pile, in the order they lie; ``locks`` the places showing a protect card's lock tab.
``TrainsObservation`` is that object, typed: the recognizer makes it, the rendered camera draws
it, the referee reads it (``parse_observation``). It uses the game's constants and deck data
only, never its engine, so the recognizer may use it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from host.deck import load_deck
from host.errors import BadInputError
from host.trains.rules import LINE_LENGTH, MAX_SEATS, MIN_SEATS, Lock

if TYPE_CHECKING:
    from host.trains.position import Position

__all__ = [
    "LINE_LENGTH",
    "Lock",
    "MalformedObservationError",
    "TrainsObservation",
    "parse_observation",
    "railcar_numbers",
]
"""The format's words, the line's length and the lock places included (the recognizer's zones
use them; they are stated once, in ``host.trains.rules``)."""


class MalformedObservationError(BadInputError):
    """An observation that is not in the format, or shows a table that cannot exist."""


@cache
def railcar_numbers() -> frozenset[int]:
    """The numbers the deck's railcars carry (the deck data says: 1 to 84)."""
    return frozenset(card.number("number") for card in load_deck("trains").cards)


@dataclass(frozen=True)
class TrainsObservation:
    """What a Game of Trains table shows at a stable moment, as the camera reports it."""

    lines: tuple[tuple[int | None, ...], ...]
    """Each seat's railcar numbers, from that player's left to right (None: unreadable)."""
    faceup: tuple[int | None, ...]
    """Numbers face up beside the draw pile, in the order they lie (rows, left to right)."""
    locks: tuple[tuple[int, str], ...] = ()
    """(seat, place) of each lock tab, the place being a ``Lock`` value (``left``, ...)."""

    def to_json(self) -> dict[str, Any]:
        """The public JSON object."""
        return {"lines": [list(line) for line in self.lines], "faceup": list(self.faceup),
                "locks": [[seat, slot] for seat, slot in self.locks]}

    def dumps(self) -> str:
        """One line of JSON."""
        return json.dumps(self.to_json(), separators=(", ", ": "))

    @classmethod
    def of(cls, position: Position) -> TrainsObservation:
        """What a camera would see of ``position`` (the face-up cards in number order)."""
        return cls(
            tuple(tuple(line) for line in position.lines),
            tuple(sorted(position.faceup)),
            tuple(sorted((seat, lock.value) for seat in range(position.seats)
                         for lock in position.protect_slots(seat))))

    # The referee's reading: what the table holds, whatever order the face-up cards lie in
    # (worked out once per observation: the referee asks often).

    @cached_property
    def cards_in_lines(self) -> tuple[tuple[int, ...], ...]:
        """``lines`` with 0 where a card could not be read (``unreadable`` says where)."""
        return tuple(tuple(0 if card is None else card for card in line) for line in self.lines)

    @cached_property
    def faceup_cards(self) -> frozenset[int]:
        """The numbers read face up beside the draw pile (their order does not matter)."""
        return frozenset(card for card in self.faceup if card is not None)

    @cached_property
    def lock_places(self) -> frozenset[tuple[int, Lock]]:
        """The (seat, place) pairs showing a protect card."""
        return frozenset((seat, Lock(place)) for seat, place in self.locks)

    @cached_property
    def unreadable(self) -> tuple[str, ...]:
        """Where the camera saw a card it could not read clearly (``null`` in the JSON): such a
        table is not judged until it is read."""
        lines = [f"place {place + 1} of seat {seat}'s line"
                 for seat, line in enumerate(self.lines)
                 for place, card in enumerate(line) if card is None]
        return (*lines, *(["the face-up area"] * self.faceup.count(None)))

    def same_table(self, other: TrainsObservation) -> bool:
        """True when both show the same cards in the same places (face-up order aside)."""
        return (self.cards_in_lines, self.faceup_cards, self.lock_places) == (
            other.cards_in_lines, other.faceup_cards, other.lock_places)

    @staticmethod
    def from_json(data: Any, seats: int | None = None) -> TrainsObservation:
        """Parse the public JSON object (``seats``: the table's seat count, once known), with a
        one-line reason for anything wrong."""
        if not isinstance(data, dict):
            raise MalformedObservationError("an observation is a JSON object")
        lines, faceup, locks = data.get("lines"), data.get("faceup", []), data.get("locks", [])
        if not isinstance(lines, list) or not all(isinstance(line, list) for line in lines):
            raise MalformedObservationError('"lines" must be a list of lines')
        if seats is not None and len(lines) != seats:
            raise MalformedObservationError(f"{len(lines)} lines seen at a table of {seats} seats")
        if not MIN_SEATS <= len(lines) <= MAX_SEATS:
            raise MalformedObservationError(
                f'"lines" must list one line per seat ({MIN_SEATS}-{MAX_SEATS} seats)')
        for seat, line in enumerate(lines):
            if len(line) != LINE_LENGTH:
                raise MalformedObservationError(
                    f"seat {seat}'s line has {len(line)} cards, not {LINE_LENGTH}")
        if not isinstance(faceup, list):
            raise MalformedObservationError('"faceup" must be a list of numbers')
        if not isinstance(locks, list):
            raise MalformedObservationError('"locks" must be a list of [seat, slot]')
        places = {lock.value for lock in Lock}
        for lock in locks:
            if (not isinstance(lock, list) or len(lock) != 2 or not isinstance(lock[0], int)
                    or isinstance(lock[0], bool) or not 0 <= lock[0] < len(lines)
                    or lock[1] not in places):
                raise MalformedObservationError(
                    f"{lock!r} is not a lock [seat, left|middle|right]")
        return TrainsObservation(
            tuple(tuple(_number(card, f"seat {seat}'s line") for card in line)
                  for seat, line in enumerate(lines)),
            tuple(_number(card, "the face-up area") for card in faceup),
            tuple((int(seat), str(place)) for seat, place in locks))


def _number(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if (not isinstance(value, int) or isinstance(value, bool)
            or value not in railcar_numbers()):
        numbers = railcar_numbers()
        raise MalformedObservationError(
            f"{value!r} in {where} is not a number {min(numbers)}..{max(numbers)}")
    return value


def parse_observation(data: Any, seats: int | None = None) -> TrainsObservation:
    """An observation's JSON object as the referee takes it; ``seats`` is the table's seat
    count once known (MalformedObservationError for a bad object, or a card seen twice)."""
    seen = TrainsObservation.from_json(data, seats)
    where_seen: dict[int, str] = {}
    for where, cards in [(f"seat {s}'s line", line) for s, line in enumerate(seen.lines)] + [
        ("the face-up area", seen.faceup)
    ]:
        for card in cards:
            if card is None:
                continue
            if card in where_seen:
                raise MalformedObservationError(
                    f"the {card} is seen in {where_seen[card]} and {where}")
            where_seen[card] = where
    return seen
