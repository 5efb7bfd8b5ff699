"""What the camera reports of an Express table: the public trains, Way Cars and discards.

The format is public (docs/express.md): ``{"trains": [[{"loco": "face-down", "cars": ["mail",
"wild:coach"]}], ...], "way_cars": [["boom"], ...], "discard": "box-car", "discards": 4,
"special": ["derailment"], "hands": [5, 7, 10]}``. ``ExpressObservation`` is that object, typed:
the recognizer's zones make it, the referee reads it (``host.express.referee.parse_observation``
checks the cards). It knows card names only, never the rules, so the recognizer may use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from host.errors import BadInputError

LOCOS = ("face-down", "diesel")
"""How a train's Loco shows: a face-down Loco card, or a Diesel Loco face up."""


@dataclass(frozen=True)
class TrainSeen:
    """One train as it lies: its Loco and its cars from the Loco on."""

    loco: str = "face-down"
    """``face-down`` or ``diesel``."""
    cars: tuple[str, ...] = ()
    """The cars' card names; a Wild Car as ``wild:TYPE`` (the type it stands for)."""

    def to_json(self) -> dict[str, Any]:
        """The public JSON object."""
        return {"loco": self.loco, "cars": list(self.cars)}

    @staticmethod
    def from_json(data: Any, where: str) -> TrainSeen:
        """Parse one train, with a one-line reason for anything wrong."""
        if not isinstance(data, dict) or not isinstance(data.get("cars", []), list):
            raise BadInputError(f'{where}: a train is {{"loco": ..., "cars": [...]}}')
        loco = data.get("loco", "face-down")
        if loco not in LOCOS:
            raise BadInputError(f'{where}: "loco" is "face-down" or "diesel", not {loco!r}')
        cars = data.get("cars", [])
        for position, name in enumerate(cars, start=1):
            if not isinstance(name, str):
                raise BadInputError(f"{where}, car {position}: a car is a card name")
        return TrainSeen(str(loco), tuple(cars))


@dataclass(frozen=True)
class ExpressObservation:
    """The public Express table at a stable moment."""

    trains: tuple[tuple[TrainSeen, ...], ...]
    """Each seat's trains, in the order they lie."""
    way_cars: tuple[tuple[str, ...], ...]
    """Each seat's Way Cars in play."""
    discard: str | None = None
    """The top card of the discard pile, if any."""
    special: tuple[str, ...] = ()
    """The special discard slot, oldest card first."""
    discards: int | None = None
    """How many cards the discard pile holds, if someone counted them (a camera cannot)."""
    hands: tuple[int, ...] | None = None
    """How many cards each seat holds, if someone says (a camera cannot see it)."""

    def to_json(self) -> dict[str, Any]:
        """The public JSON object (``discards`` and ``hands`` only when known)."""
        data: dict[str, Any] = {
            "trains": [[train.to_json() for train in seat] for seat in self.trains],
            "way_cars": [list(cars) for cars in self.way_cars],
            "discard": self.discard,
        }
        if self.discards is not None:
            data["discards"] = self.discards
        data["special"] = list(self.special)
        if self.hands is not None:
            data["hands"] = list(self.hands)
        return data

    @staticmethod
    def from_json(data: Any, seats: int) -> ExpressObservation:
        """Parse the public JSON object for a table of ``seats``, with a one-line reason for
        anything wrong in its shape (the referee checks the cards)."""
        if not isinstance(data, dict):
            raise BadInputError("an observation is a JSON object")
        trains, way_cars = data.get("trains"), data.get("way_cars", [[] for _ in range(seats)])
        if (not isinstance(trains, list) or len(trains) != seats
                or not isinstance(way_cars, list) or len(way_cars) != seats):
            raise BadInputError(f'"trains" and "way_cars" need one list per seat ({seats})')
        seat_trains = []
        for seat, listed in enumerate(trains):
            if not isinstance(listed, list):
                raise BadInputError(f"trains of seat {seat}: a list of trains")
            seat_trains.append(tuple(TrainSeen.from_json(train, f"seat {seat}, train {n}")
                                     for n, train in enumerate(listed)))
        discard, discards, hands = data.get("discard"), data.get("discards"), data.get("hands")
        if discard is not None and not isinstance(discard, str):
            raise BadInputError('"discard" is the top card\'s name, or null')
        if discards is not None and (not isinstance(discards, int) or isinstance(discards, bool)):
            raise BadInputError('"discards" is a number of cards')
        if hands is not None and (
            not isinstance(hands, list) or len(hands) != seats
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in hands)
        ):
            raise BadInputError(f'"hands" is a list of {seats} card counts')
        return ExpressObservation(
            tuple(seat_trains),
            tuple(_names(cars, f"way cars of seat {seat}") for seat, cars in enumerate(way_cars)),
            discard,
            _names(data.get("special", []), "special"),
            discards,
            tuple(hands) if hands is not None else None,
        )


def _names(data: Any, where: str) -> tuple[str, ...]:
    if not isinstance(data, list) or not all(isinstance(name, str) for name in data):
        raise BadInputError(f"{where}: a list of card names")
    return tuple(data)
