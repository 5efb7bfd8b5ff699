"""The Game of Trains observation: the public JSON the recognizer hands to the referee.

``{"lines": [[12, 30, ...], ...], "faceup": [55, 7], "locks": [[0, "left"]]}``: ``lines[s]`` is
seat s's seven railcar numbers from that player's left to right (``null`` where a card is there
but could not be read), ``faceup`` the numbers lying face up beside the draw pile, ``locks`` the
slots (``left``, ``middle``, ``right``) showing a protect card's lock tab.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from host.errors import BadInputError
from vision.table import LINE_LENGTH, SEAT_EDGES

LOCK_SLOTS: dict[str, int] = {"left": 0, "middle": 3, "right": 6}
"""Slots a protect card can guard, and the railcar position (0-6) each names."""


class ObservationError(BadInputError):
    """An observation that is not in the format above."""


@dataclass(frozen=True)
class TrainsObservation:
    """What a Game of Trains table shows at a stable moment."""

    lines: tuple[tuple[int | None, ...], ...]
    """Each seat's railcar numbers, from that player's left to right (None: unreadable)."""
    faceup: tuple[int | None, ...]
    """Numbers face up beside the draw pile, in the order they lie (rows, left to right)."""
    locks: tuple[tuple[int, str], ...] = ()
    """(seat, slot) of each lock tab, slot being ``left``, ``middle`` or ``right``."""

    def to_json(self) -> dict[str, Any]:
        """The public JSON object."""
        return {"lines": [list(line) for line in self.lines], "faceup": list(self.faceup),
                "locks": [[seat, slot] for seat, slot in self.locks]}

    def dumps(self) -> str:
        """One line of JSON."""
        return json.dumps(self.to_json(), separators=(", ", ": "))

    @staticmethod
    def from_json(data: Any) -> TrainsObservation:
        """Parse the public JSON object, with a one-line reason for anything wrong."""
        if not isinstance(data, dict):
            raise ObservationError("an observation is a JSON object")
        lines, faceup, locks = data.get("lines"), data.get("faceup", []), data.get("locks", [])
        if not isinstance(lines, list) or len(lines) not in SEAT_EDGES:
            raise ObservationError(f'"lines" must list one line per seat ({min(SEAT_EDGES)}-'
                                   f"{max(SEAT_EDGES)} seats)")
        parsed = []
        for seat, line in enumerate(lines):
            if not isinstance(line, list) or len(line) != LINE_LENGTH:
                raise ObservationError(f"line {seat} must hold {LINE_LENGTH} railcars")
            parsed.append(tuple(_number(value, f"line {seat}") for value in line))
        if not isinstance(faceup, list):
            raise ObservationError('"faceup" must be a list of numbers')
        if not isinstance(locks, list):
            raise ObservationError('"locks" must be a list of [seat, slot]')
        parsed_locks = []
        for lock in locks:
            if (not isinstance(lock, list) or len(lock) != 2 or not isinstance(lock[0], int)
                    or not 0 <= lock[0] < len(lines) or lock[1] not in LOCK_SLOTS):
                raise ObservationError(f"bad lock {lock!r}: [seat, left|middle|right]")
            parsed_locks.append((int(lock[0]), str(lock[1])))
        return TrainsObservation(tuple(parsed), tuple(_number(v, "faceup") for v in faceup),
                                 tuple(parsed_locks))


def _number(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 84:
        raise ObservationError(f"{where}: {value!r} is not a railcar number 1-84")
    return value


@dataclass(frozen=True)
class RollecateObservation:
    """What a Rollecate table shows at a stable moment (the referee's format, docs/rollecate.md).

    Cards are named without their deck (``track-2``, ``broken-3``, ``chaos-1``).
    """

    railway: tuple[str, ...]
    """The railway's cards in order from its start."""
    train: int
    """Position of the card the train stands on (0: the first card)."""
    discard: tuple[tuple[str, ...], ...]
    """Each seat's discard pile as far as it shows, bottom first: its top card, or nothing."""
    hands: tuple[tuple[str, ...], ...] | None = None
    """Each seat's hand spread out at the end of the game, from the player's left; None while
    no hand is shown."""
    spread: tuple[tuple[str, ...], ...] | None = None
    """The final count: each seat's every card (sorted by name), read when every pile's place
    is empty and cards lie spread in front of the players; None otherwise."""

    def to_json(self) -> dict[str, Any]:
        """The public JSON object."""
        data: dict[str, Any] = {"railway": list(self.railway), "train": self.train,
                                "discard": [list(pile) for pile in self.discard]}
        if self.hands is not None:
            data["hands"] = [list(hand) for hand in self.hands]
        if self.spread is not None:
            data["spread"] = [list(cards) for cards in self.spread]
        return data

    @staticmethod
    def from_json(data: Any) -> RollecateObservation:
        """Read the public JSON object back (names as given; the referee checks the cards)."""
        if not isinstance(data, dict) or not isinstance(data.get("railway"), list):
            raise ObservationError('a Rollecate observation has "railway", "train", "discard"')
        hands, spread = data.get("hands"), data.get("spread")
        return RollecateObservation(
            tuple(str(name) for name in data["railway"]), int(data["train"]),
            tuple(tuple(str(name) for name in pile) for pile in data.get("discard", [])),
            None if hands is None else tuple(tuple(str(name) for name in h) for h in hands),
            None if spread is None else tuple(tuple(str(name) for name in s) for s in spread))


TableObservation = TrainsObservation | RollecateObservation
"""Any game's observation the recognizer makes."""
