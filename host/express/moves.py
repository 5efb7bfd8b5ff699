"""What a player can do in Express, one action at a time, and its JSON form.

A turn is several actions: a draw, any number of plays, then one ending action (a discard, a
Disaster or a Turntable). A Disaster played against another seat waits for that seat's answer
(``Protect`` with the matching Way Car, or ``Accept``). The record of a hand is its list of
actions; ``move_to_json``/``move_from_json`` give each one's JSON line.
"""

from __future__ import annotations

from dataclasses import dataclass

from host.engine import MoveCodec, flag, listed, optional, pair, text, whole


@dataclass(frozen=True)
class DrawFromDeck:
    """Step 1: draw two cards from the deck (one if only one is left)."""


@dataclass(frozen=True)
class TakeDiscard:
    """Step 1: take the top card of the discard pile."""


@dataclass(frozen=True)
class StartTrain:
    """Step 2: lay a card from hand as the Loco of a new train."""

    card: str
    """The card laid as the Loco."""
    diesel: bool = False
    """True to lay a Diesel card face up (it earns DIESEL); otherwise the Loco lies face down."""


@dataclass(frozen=True)
class AddCar:
    """Step 2: play a car from hand onto the end of one of your trains."""

    card: str
    """The card played."""
    train: int
    """Index of the train among the player's trains."""
    as_type: str | None = None
    """For a Wild Car, the car type it is played as; None for any other card."""


@dataclass(frozen=True)
class PlayWayCar:
    """Step 2: put a Way Car from hand into play, on its own."""

    card: str
    """The Way Car."""


@dataclass(frozen=True)
class ExchangeLoco:
    """Step 2: swap a train's Loco with a card from hand (the old Loco goes to hand)."""

    train: int
    """Index of the train among the player's trains."""
    card: str
    """The card from hand that becomes the Loco."""
    diesel: bool = False
    """True to lay a Diesel card face up."""


@dataclass(frozen=True)
class TakeBackLoco:
    """Step 2: pick up the Loco of a train that has no cars yet (the train is gone)."""

    train: int
    """Index of the train among the player's trains."""


@dataclass(frozen=True)
class Discard:
    """Step 3: discard a card; discarding your last card goes out."""

    card: str
    """The card discarded."""


@dataclass(frozen=True)
class BreakCar:
    """Step 3, Broken Car: the last car of another seat's train (no Caboose) is discarded."""

    seat: int
    """The seat attacked."""
    train: int
    """Index of the train among that seat's trains."""


@dataclass(frozen=True)
class Steal:
    """Step 3, Steal: take the last car of another seat's train (no Caboose)."""

    seat: int
    """The seat attacked."""
    train: int
    """Index of the train among that seat's trains."""
    onto: int | None = None
    """One of your trains to play the car onto, or None to put it in your hand."""


@dataclass(frozen=True)
class SwitchEngines:
    """Step 3, Switch Engines: swap Locos between your trains and another seat's."""

    seat: int
    """The seat attacked."""
    pairs: tuple[tuple[int, int], ...]
    """Pairs (your train, their train) whose Locos change places; each train at most once."""


@dataclass(frozen=True)
class Derail:
    """Step 3, Derailment: another seat loses its next turn."""

    seat: int
    """The seat attacked."""


@dataclass(frozen=True)
class Wreck:
    """Step 3, Wreck: another seat's whole train, Loco included, is discarded."""

    seat: int
    """The seat attacked."""
    train: int
    """Index of the train among that seat's trains."""


@dataclass(frozen=True)
class PlayTurntable:
    """Step 3, Turntable: take another turn at once, then play reverses direction."""


@dataclass(frozen=True)
class Protect:
    """Answer to a Disaster: play the matching Way Car, which negates it and stays in play."""


@dataclass(frozen=True)
class Accept:
    """Answer to a Disaster: let it take effect."""


Move = (
    DrawFromDeck
    | TakeDiscard
    | StartTrain
    | AddCar
    | PlayWayCar
    | ExchangeLoco
    | TakeBackLoco
    | Discard
    | BreakCar
    | Steal
    | SwitchEngines
    | Derail
    | Wreck
    | PlayTurntable
    | Protect
    | Accept
)
Disaster = BreakCar | Steal | SwitchEngines | Derail | Wreck

#: The "action" word of each move in JSON.
ACTIONS: dict[str, type[Move]] = {
    "draw": DrawFromDeck,
    "take-discard": TakeDiscard,
    "start-train": StartTrain,
    "add-car": AddCar,
    "way-car": PlayWayCar,
    "exchange-loco": ExchangeLoco,
    "take-back-loco": TakeBackLoco,
    "discard": Discard,
    "broken-car": BreakCar,
    "steal": Steal,
    "switch-engines": SwitchEngines,
    "derailment": Derail,
    "wreck": Wreck,
    "turntable": PlayTurntable,
    "protect": Protect,
    "accept": Accept,
}
MOVE_CODEC: MoveCodec[Move] = MoveCodec(
    "an Express action",
    ACTIONS,
    {
        "card": text,
        "as_type": optional(text),
        "diesel": flag,
        "pairs": listed(pair(whole)),
        "train": whole,
        "seat": whole,
        "onto": optional(whole),
    },
)
move_to_json = MOVE_CODEC.to_json
move_from_json = MOVE_CODEC.from_json


def describe(move: Move) -> str:
    """The move in words, for the demo and the referee's log."""
    match move:
        case DrawFromDeck():
            return "draws from the deck"
        case TakeDiscard():
            return "takes the top of the discard pile"
        case StartTrain(card, diesel):
            return (
                "starts a train behind a face-up Diesel"
                if diesel
                else ("starts a train with a face-down Loco")
            )
        case AddCar(card, train, as_type):
            shown = f"a Wild Car as {as_type}" if as_type else card
            return f"adds {shown} to train {train}"
        case PlayWayCar(card):
            return f"puts Way Car {card} in play"
        case ExchangeLoco(train, _, _):
            return f"exchanges the Loco of train {train}"
        case TakeBackLoco(train):
            return f"picks up the bare Loco of train {train}"
        case Discard(card):
            return f"discards {card}"
        case BreakCar(seat, train):
            return f"plays Broken Car on seat {seat}'s train {train}"
        case Steal(seat, train, onto):
            where = "into hand" if onto is None else f"onto train {onto}"
            return f"plays Steal on seat {seat}'s train {train}, {where}"
        case SwitchEngines(seat, pairs):
            return f"plays Switch Engines with seat {seat}: {list(pairs)}"
        case Derail(seat):
            return f"plays Derailment: seat {seat} loses its next turn"
        case Wreck(seat, train):
            return f"plays Wreck on seat {seat}'s train {train}"
        case PlayTurntable():
            return "plays Turntable: another turn, then play reverses"
        case Protect():
            return "answers with the matching Way Car: no effect"
        case Accept():
            return "takes the Disaster"
    raise AssertionError(move)
