"""What the camera reports of a Game of Trains table, and its validation.

The format is public (docs/formats.md): ``{"lines": [[12, 30, ...], ...], "faceup": [55, 7],
"locks": [[0, "left"]]}``. ``lines[s]`` is seat s's seven railcars from that player's left to
right; ``faceup`` the cards beside the draw pile; ``locks`` the places showing a protect card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from host.errors import BadInputError
from host.trains.position import DECK_SIZE, Phase, Position, check_seats
from host.trains.rules import LINE_LENGTH, Lock


class MalformedObservationError(BadInputError):
    """An observation that is not in the format, or shows a table that cannot exist."""


@dataclass(frozen=True)
class Observation:
    """The table as seen at a stable moment."""

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
    """Check an observation's JSON object; ``seats`` is the table's seat count once known."""
    if not isinstance(data, dict):
        raise MalformedObservationError("an observation is a JSON object")
    lines, faceup, locks = data.get("lines"), data.get("faceup", []), data.get("locks", [])
    if not isinstance(lines, list) or not all(isinstance(line, list) for line in lines):
        raise MalformedObservationError('"lines" must be a list of lines')
    if seats is not None and len(lines) != seats:
        raise MalformedObservationError(f"{len(lines)} lines seen at a table of {seats} seats")
    for seat, line in enumerate(lines):
        if len(line) != LINE_LENGTH:
            raise MalformedObservationError(
                f"seat {seat}'s line has {len(line)} cards, not {LINE_LENGTH}"
            )
    if not isinstance(faceup, list):
        raise MalformedObservationError('"faceup" must be a list of numbers')
    seen: dict[int, str] = {}
    unreadable: list[str] = []
    for where, cards in [(f"seat {s}'s line", line) for s, line in enumerate(lines)] + [
        ("the face-up area", faceup)
    ]:
        for place, card in enumerate(cards):
            if card is None:
                unreadable.append(f"place {place + 1} of {where}" if "line" in where else where)
                continue
            if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= DECK_SIZE:
                raise MalformedObservationError(f"{card!r} in {where} is not a number 1..84")
            if card in seen:
                raise MalformedObservationError(f"the {card} is seen in {seen[card]} and {where}")
            seen[card] = where
    if not isinstance(locks, list):
        raise MalformedObservationError('"locks" must be a list of [seat, "left"|"middle"|"right"]')
    parsed_locks: set[tuple[int, Lock]] = set()
    for lock in locks:
        if (
            not isinstance(lock, list)
            or len(lock) != 2
            or not isinstance(lock[0], int)
            or isinstance(lock[0], bool)
            or not 0 <= lock[0] < len(lines)
            or lock[1] not in {lock.value for lock in Lock}
        ):
            raise MalformedObservationError(f"{lock!r} is not a lock [seat, left|middle|right]")
        parsed_locks.add((lock[0], Lock(lock[1])))
    return Observation(
        lines=tuple(tuple(0 if card is None else card for card in line) for line in lines),
        faceup=frozenset(card for card in faceup if card is not None),
        locks=frozenset(parsed_locks),
        unreadable=tuple(unreadable),
    )


def parse_opening(data: Any) -> Position:
    """The first observation of a game: the table after dealing or after set-up.

    It carries ``"seats"`` and ``"first"``; ``"phase"`` (``"draft"`` or ``"play"``) says
    whether the set-up draft is still to come. Without it, a table with no face-up cards and
    every line descending is taken as just dealt.
    """
    if not isinstance(data, dict):
        raise MalformedObservationError("an observation is a JSON object")
    seats, first = data.get("seats"), data.get("first", 0)
    if not isinstance(seats, int) or isinstance(seats, bool):
        raise MalformedObservationError('the first observation needs "seats", the seat count')
    if not isinstance(first, int) or isinstance(first, bool):
        raise MalformedObservationError('"first" must be the number of the seat that starts')
    check_seats(seats, first)
    observation = parse_observation(data, seats)
    if observation.unreadable:
        raise MalformedObservationError(
            "the first observation must show every card: cannot read " + observation.unreadable[0]
        )
    if observation.locks:
        raise MalformedObservationError("no protect card can lie out before the first turn")
    phase_name = data.get("phase")
    if phase_name is None:
        dealt = not observation.faceup and all(
            list(line) == sorted(line, reverse=True) for line in observation.lines
        )
        phase = Phase.DRAFT if dealt else Phase.PLAY
    elif phase_name in ("draft", "play"):
        phase = Phase(phase_name)
    else:
        raise MalformedObservationError('"phase" must be "draft" or "play"')
    lines = [list(line) for line in observation.lines]
    return Position.from_table(seats, first, lines, sorted(observation.faceup), phase)
