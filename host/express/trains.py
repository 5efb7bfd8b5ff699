"""Trains on the table: which car may follow which, and what a finished train scores."""

from __future__ import annotations

from dataclasses import dataclass

from host.express.cards import CABOOSE, COACH, WILD, ExpressCards, Kind

#: Trains shorter than this score nothing (a Loco plus 1-2 cars).
SCORING_CARS = 3
#: A Wild Car ending a train of at least this many cars lets the next car be of any type.
WILD_TRANSITION_AFTER = 2
#: DAYLIGHT EXPRESS needs this many Coach cars.
DAYLIGHT_COACHES = 6
#: Ruling: the four doubling bonuses are "Passenger Train bonuses", so they apply only to a
#: train whose cars (the Caboose aside) are all passenger cars; a freight train never doubles.
BONUSES_NEED_PASSENGER_TRAIN = True

DIESEL_BONUS = "DIESEL"
CONSIST_BONUS = "CONSIST"
COMPLETE_BONUS = "COMPLETE"
DAYLIGHT_BONUS = "DAYLIGHT EXPRESS"


@dataclass(frozen=True)
class Car:
    """One car in a train."""

    card: str
    """The card lying there, for example ``coach`` or ``wild``."""
    as_type: str
    """The car type it counts as: its own name, or what a Wild Car was played as."""


@dataclass(frozen=True)
class Train:
    """A Loco and the cars behind it, in the order they were played."""

    loco: str
    """The card lying as the Loco (face down, unless it is a face-up Diesel)."""
    diesel: bool = False
    """True when the Loco is a Diesel card lying face up (the DIESEL bonus)."""
    cars: tuple[Car, ...] = ()
    """The cars, first to last."""

    @property
    def has_caboose(self) -> bool:
        """True once a Caboose ends the train."""
        return bool(self.cars) and self.cars[-1].card == CABOOSE

    @property
    def scoring(self) -> bool:
        """True when the train has enough cars to score."""
        return len(self.cars) >= SCORING_CARS


def why_car_cannot_follow(train: Train, car: Car, cards: ExpressCards) -> str | None:
    """The reason ``car`` cannot be added to the end of ``train``, or None if it can."""
    kind = cards.kind(car.card)
    if kind not in (Kind.FREIGHT, Kind.PASSENGER, Kind.WILD, Kind.CABOOSE):
        return f"{car.card} is not a car"
    if kind is not Kind.WILD and car.as_type != car.card:
        return f"{car.card} can only count as itself"
    if train.has_caboose:
        return "no car may follow a Caboose"
    if kind is Kind.CABOOSE:
        if len(train.cars) < SCORING_CARS - 1:
            return "a Caboose cannot be the 1st or 2nd car of a train"
        return None
    if kind is Kind.WILD and cards.kind(car.as_type) not in (Kind.FREIGHT, Kind.PASSENGER):
        return f"a Wild Car cannot be played as {car.as_type}"
    if not train.cars:
        return "a Wild Car cannot be the only car on a train" if kind is Kind.WILD else None
    last = train.cars[-1]
    if last.card == WILD and len(train.cars) > WILD_TRANSITION_AFTER:
        return None
    if cards.kind(car.as_type) is Kind.PASSENGER:
        if cards.kind(last.as_type) is not Kind.PASSENGER:
            return f"a passenger car cannot follow {last.as_type}"
        return None
    if cards.kind(last.as_type) is Kind.PASSENGER:
        return f"a freight car cannot follow {last.as_type}"
    if last.as_type != car.as_type:
        return f"a freight train uses one car type only ({last.as_type}, not {car.as_type})"
    return None


@dataclass(frozen=True)
class TrainScore:
    """What one train scores, and why."""

    cars: int
    """How many cars the train has (the Loco not counted)."""
    base: int
    """The sum of its car values (0 for a train of 1-2 cars)."""
    bonuses: tuple[str, ...]
    """The doubling bonuses that apply, in the rulebook's order."""
    cancelled: tuple[str, ...]
    """Bonuses the train earned but a Caboose cancelled."""
    total: int
    """The train's points: base doubled once per bonus."""

    def explain(self) -> str:
        """One line a player can check by hand."""
        if self.cars < SCORING_CARS:
            return f"{self.cars} car(s): a train needs {SCORING_CARS}+ cars to score, 0"
        parts = [f"{self.cars} cars worth {self.base}"]
        value = self.base
        for bonus in self.bonuses:
            value *= 2
            parts.append(f"{bonus} doubles to {value}")
        if self.cancelled:
            parts.append(f"Caboose cancels {', '.join(self.cancelled)}")
        return "; ".join(parts) + f" = {self.total}"


def earned_bonuses(train: Train, cards: ExpressCards) -> list[str]:
    """The Passenger Train bonuses the train's cars earn, ignoring any Caboose."""
    kinds = [cards.kind(car.as_type) for car in train.cars if car.card != CABOOSE]
    if BONUSES_NEED_PASSENGER_TRAIN and any(kind is not Kind.PASSENGER for kind in kinds):
        return []
    types = [car.as_type for car in train.cars if car.card != CABOOSE]
    orders = [cards[name].order for name in types]
    earned = []
    if train.diesel:
        earned.append(DIESEL_BONUS)
    if len(set(types)) > 1 and orders == sorted(orders):
        earned.append(CONSIST_BONUS)
    if set(cards.passenger_types()) <= set(types):
        earned.append(COMPLETE_BONUS)
    if types.count(COACH) >= DAYLIGHT_COACHES:
        earned.append(DAYLIGHT_BONUS)
    return earned


def score_train(train: Train, cards: ExpressCards) -> TrainScore:
    """Score one train: car values, doubled per bonus, unless short or cancelled by a Caboose."""
    if not train.scoring:
        return TrainScore(len(train.cars), 0, (), (), 0)
    base = sum(cards[car.as_type].value for car in train.cars)
    earned = tuple(earned_bonuses(train, cards))
    if train.has_caboose:
        return TrainScore(len(train.cars), base, (), earned, base)
    return TrainScore(len(train.cars), base, earned, (), base * 2 ** len(earned))
