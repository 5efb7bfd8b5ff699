"""Scoring a hand of Express from the table: trains, Way Cars in play, cards left in hand.

The table description read by ``conductor score express FILE.json`` is documented in
``docs/express.md``::

    {"seats": [{"name": "Ann",
                "trains": [{"loco": "diesel", "cars": ["mail", "coach", "wild:dome"]}],
                "way_cars": ["boom"], "hand": ["box-car"]}]}
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.errors import BadInputError
from host.express.cards import WILD, ExpressCards, Kind, standard_cards
from host.express.trains import Car, Train, TrainScore, score_train, why_car_cannot_follow
from host.jsonl import loads, read_text

#: Points for each Way Car in play.
WAY_CAR_POINTS = 5


@dataclass(frozen=True)
class SeatTable:
    """What one seat has at the end of a hand."""

    name: str
    """What to call the seat in the output."""
    trains: tuple[Train, ...]
    """Its trains, in the order they lie."""
    way_cars: tuple[str, ...]
    """Its Way Cars in play."""
    hand: tuple[str, ...]
    """The cards left in its hand."""


@dataclass(frozen=True)
class SeatScore:
    """One seat's score for the hand, with every part shown."""

    name: str
    """The seat's name."""
    trains: tuple[TrainScore, ...]
    """Each train's score, in table order."""
    way_cars: int
    """Points for Way Cars in play."""
    hand: int
    """Points lost for cards left in hand (zero or negative)."""

    @property
    def total(self) -> int:
        """The seat's points for the hand."""
        return sum(train.total for train in self.trains) + self.way_cars + self.hand


def score_seat(seat: SeatTable, cards: ExpressCards) -> SeatScore:
    """Score one seat's table."""
    return SeatScore(
        name=seat.name,
        trains=tuple(score_train(train, cards) for train in seat.trains),
        way_cars=WAY_CAR_POINTS * len(seat.way_cars),
        hand=-sum(cards[card].value for card in seat.hand),
    )


def winners(scores: Sequence[SeatScore]) -> list[int]:
    """The seats with the highest total (ties share the win)."""
    best = max(score.total for score in scores)
    return [seat for seat, score in enumerate(scores) if score.total == best]


def train_from_json(data: Any, where: str, cards: ExpressCards, check: bool = True) -> Train:
    """A train from its JSON description; ``check`` also enforces the car-order rules."""
    if not isinstance(data, dict) or not isinstance(data.get("cars", []), list):
        raise BadInputError(f'{where}: a train is {{"loco": ..., "cars": [...]}}')
    loco = data.get("loco", "face-down")
    if loco not in ("face-down", "diesel"):
        raise BadInputError(f'{where}: "loco" is "face-down" or "diesel", not {loco!r}')
    train = Train(loco="diesel" if loco == "diesel" else "unknown", diesel=loco == "diesel")
    if not isinstance(data.get("cars", []), list):
        raise BadInputError(f'{where}: "cars" is a list of card names')
    for position, name in enumerate(data.get("cars", []), start=1):
        if not isinstance(name, str):
            raise BadInputError(f"{where}, car {position}: a car is a card name")
        card, _, as_type = name.partition(":")
        if card not in cards.info:
            raise BadInputError(f"{where}, car {position}: no Express card {card!r}")
        if card == WILD and not as_type:
            raise BadInputError(f"{where}, car {position}: say what the Wild Car is, 'wild:coach'")
        car = Car(card, as_type or card)
        reason = why_car_cannot_follow(train, car, cards) if check else None
        if reason is not None:
            raise BadInputError(f"{where}, car {position}: {reason}")
        train = Train(train.loco, train.diesel, (*train.cars, car))
    return train


def cards_from_json(
    data: Any, where: str, kinds: tuple[Kind, ...], cards: ExpressCards
) -> list[str]:
    """A list of card names, each of one of ``kinds``."""
    if not isinstance(data, list) or not all(isinstance(name, str) for name in data):
        raise BadInputError(f"{where}: a list of card names")
    for name in data:
        if name not in cards.info or cards.kind(name) not in kinds:
            raise BadInputError(f"{where}: {name!r} cannot lie here")
    return list(data)


def parse_table(text: str, cards: ExpressCards | None = None) -> list[SeatTable]:
    """Read a table description, with a one-line reason for anything wrong."""
    cards = cards or standard_cards()
    try:
        data: Any = loads(text)
    except json.JSONDecodeError as error:
        raise BadInputError(f"not JSON ({error.msg} at line {error.lineno})") from None
    seats = data.get("seats") if isinstance(data, dict) else None
    if not isinstance(seats, list) or not seats:
        raise BadInputError('the table needs "seats": a list with one object per seat')
    table = []
    for index, seat in enumerate(seats):
        where = f"seat {index}"
        if not isinstance(seat, dict) or not isinstance(seat.get("trains", []), list):
            raise BadInputError(f'{where}: needs "trains" (a list)')
        trains = tuple(
            train_from_json(train, f"{where}, train {number}", cards)
            for number, train in enumerate(seat.get("trains", []))
        )
        way_cars = cards_from_json(
            seat.get("way_cars", []), f"{where}, way_cars", (Kind.WAYCAR,), cards
        )
        hand = cards_from_json(seat.get("hand", []), f"{where}, hand", tuple(Kind), cards)
        name = seat.get("name", f"seat {index}")
        table.append(SeatTable(str(name), trains, tuple(way_cars), tuple(hand)))
    return table


def load_table(path: Path) -> list[SeatTable]:
    """Read a table description file."""
    return parse_table(read_text(path))


def scores_as_json(scores: Sequence[SeatScore]) -> dict[str, Any]:
    """The scores in the JSON form printed by ``conductor score express --json``."""
    return {
        "game": "express",
        "seats": [
            {
                "name": score.name,
                "trains": [
                    {
                        "cars": train.cars,
                        "base": train.base,
                        "bonuses": list(train.bonuses),
                        "cancelled_by_caboose": list(train.cancelled),
                        "total": train.total,
                        "explanation": train.explain(),
                    }
                    for train in score.trains
                ],
                "way_cars": score.way_cars,
                "hand": score.hand,
                "total": score.total,
            }
            for score in scores
        ],
        "winners": winners(scores),
    }


def scores_as_text(scores: Sequence[SeatScore]) -> list[str]:
    """The scores as lines for people, explaining every doubling."""
    lines = []
    for score in scores:
        lines.append(f"{score.name}: {score.total}")
        for number, train in enumerate(score.trains, start=1):
            lines.append(f"  train {number}: {train.explain()}")
        lines.append(f"  way cars: {score.way_cars}")
        lines.append(f"  hand: {score.hand}")
    names = ", ".join(scores[seat].name for seat in winners(scores))
    lines.append(f"winner: {names}")
    return lines
