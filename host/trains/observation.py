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
from functools import cache
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
    "Observation",
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


@dataclass(frozen=True)
class Observation:
    """The referee's reading of a table: the cards as sets, the locks by place."""

    lines: tuple[tuple[int, ...], ...]
    """Each seat's railcars from that player's left to right."""
    faceup: frozenset[int]
    """The numbers lying face up beside the draw pile (their order does not matter)."""
    locks: frozenset[tuple[int, Lock]]
    """The (seat, place) pairs showing a protect card."""
    unreadable: tuple[str, ...] = ()
    """Where the camera saw a card it could not read clearly (``null`` in the JSON): such a
    table is not judged until it is read. Those places hold 0 in ``lines``."""

    @classmethod
    def of(cls, position: Position) -> Observation:
        """What a camera would see of ``position``."""
        return cls(
            lines=tuple(tuple(line) for line in position.lines),
            faceup=frozenset(position.faceup),
            locks=frozenset(
                (seat, lock)
                for seat in range(position.seats)
                for lock in position.protect_slots(seat)
            ),
        )

    def to_json(self) -> dict[str, Any]:
        """The public JSON form."""
        return {
            "lines": [list(line) for line in self.lines],
            "faceup": sorted(self.faceup),
            "locks": sorted([seat, lock.value] for seat, lock in self.locks),
        }


def parse_observation(data: Any, seats: int | None = None) -> Observation:
    """The referee's reading of an observation's JSON object; ``seats`` is the table's seat
    count once known (MalformedObservationError for a bad object, or a card seen twice)."""
    seen = TrainsObservation.from_json(data, seats)
    where_seen: dict[int, str] = {}
    unreadable: list[str] = []
    for where, cards in [(f"seat {s}'s line", line) for s, line in enumerate(seen.lines)] + [
        ("the face-up area", seen.faceup)
    ]:
        for place, card in enumerate(cards):
            if card is None:
                unreadable.append(f"place {place + 1} of {where}" if "line" in where else where)
                continue
            if card in where_seen:
                raise MalformedObservationError(
                    f"the {card} is seen in {where_seen[card]} and {where}")
            where_seen[card] = where
    return Observation(
        lines=tuple(tuple(0 if card is None else card for card in line) for line in seen.lines),
        faceup=frozenset(card for card in seen.faceup if card is not None),
        locks=frozenset((seat, Lock(place)) for seat, place in seen.locks),
        unreadable=tuple(unreadable),
    )
