"""The referee's input: table observations and board events, one JSON object per line.

The format is public (docs/rollecate.md). An observation shows the table at a stable moment::

    {"railway": ["track-2", 4, "broken-1"], "train": 1, "discard": [[3], null, []]}

``railway`` lists the railway's cards from its start, ``train`` is the position of the card the
train stands on (0 is the first card), and ``discard`` has one entry per seat: the visible top
part of that seat's discard pile, bottom first (``[]`` is an empty pile, ``null`` not visible).
The first line also carries ``seats`` and ``first`` (the set-up). At the end, ``spread`` shows
each seat's every card (discard pile and hand) spread out for the final count (``null`` for a
seat, or a card, the camera cannot read), or ``hands`` each seat's hand alone. Events:
``{"dice": ["wheel", "blank", ...]}`` (a roll, from the board or typed in), ``{"pass": true}``
(a pass the table cannot show), ``{"done": true, "seat": 2}`` (a player says their turn is
complete: the seat's button; without ``seat``, the seat on turn). A ``spread`` line may carry
``"accepted": true``: the players accept the count as the table shows it, though the referee
disputed it.
Cards are given by name or by value (a value stands for the regular track card).
``RollecateObservation`` is what the camera reports, typed (the recognizer makes it, the rendered
camera draws it); ``TableView`` is the referee's reading of any observation line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from host.errors import BadInputError
from host.rollecate.cards import CardBook
from host.rollecate.moves import parse_faces
from host.rollecate.rules import Face

Piles = tuple[tuple[str, ...] | None, ...]
Spread = tuple[tuple[str | None, ...] | None, ...]


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
            raise BadInputError('a Rollecate observation has "railway", "train", "discard"')
        hands, spread = data.get("hands"), data.get("spread")
        return RollecateObservation(
            tuple(str(name) for name in data["railway"]), int(data["train"]),
            tuple(tuple(str(name) for name in pile) for pile in data.get("discard", [])),
            None if hands is None else tuple(tuple(str(name) for name in h) for h in hands),
            None if spread is None else tuple(tuple(str(name) for name in s) for s in spread))


@dataclass(frozen=True)
class TableView:
    """What one observation shows; absent parts are None."""

    railway: tuple[str, ...] | None
    """The railway's cards from its start, by name."""
    train: int | None
    """The position of the train's card (0 is the first card)."""
    discard: Piles | None
    """Each seat's visible discard pile (bottom first), None where it cannot be seen."""
    hands: tuple[tuple[str, ...], ...] | None
    """Each seat's hand, spread out at the end of the game."""
    spread: Spread | None = None
    """Each seat's every card (discard pile and hand), spread out for the final count; None
    for a seat, or a card, that cannot be read."""
    accepted: bool = False
    """The players accept this table as it is (the app's accept), though the referee
    disputed it."""


@dataclass(frozen=True)
class DiceEvent:
    """The board (or a person) rolled the dice."""

    faces: tuple[Face, ...]
    """What each die shows."""


@dataclass(frozen=True)
class PassEvent:
    """The player said "pass" (a button or a keyboard): needed when the table cannot show it."""


@dataclass(frozen=True)
class DoneEvent:
    """A player says their turn is complete (the seat's button, or typed in)."""

    seat: int | None = None
    """Whose button it was; None (typed in) means the seat on turn."""


Event = TableView | DiceEvent | PassEvent | DoneEvent


EVENT_KEYS = ("dice", "pass", "done")
"""Lines of a referee file that are board (or button) events, not observations."""


def is_event(line: Mapping[str, Any]) -> bool:
    """True for a dice roll, a pass or a seat button's press; False for an observation."""
    return any(key in line for key in EVENT_KEYS)


def parse_event(data: object, book: CardBook, seats: int | None) -> Event:
    """One line of a referee file; BadInputError with the reason if it is malformed."""
    if not isinstance(data, dict):
        raise BadInputError("each line is a JSON object")
    if "dice" in data:
        return DiceEvent(parse_faces(data["dice"]))
    if "done" in data:
        seat = data.get("seat")
        if data["done"] is not True or not (
            seat is None
            or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < (seats or 4))
        ):
            raise BadInputError('a done event is {"done": true} or {"done": true, "seat": N}')
        return DoneEvent(seat)
    if "pass" in data:
        if data["pass"] is not True:
            raise BadInputError('a pass event is {"pass": true}')
        return PassEvent()
    known = {"railway", "train", "discard", "hands", "spread", "accepted", "seats", "first",
             "draw_pile"}
    unknown = sorted(set(data) - known)
    if unknown or not set(data) & {"railway", "train", "discard", "hands", "spread"}:
        shown = ", ".join(unknown) if unknown else "nothing"
        raise BadInputError(f"not an observation or an event (it has {shown})")
    railway = data.get("railway")
    train = data.get("train")
    if (railway is None) != (train is None):
        raise BadInputError('"railway" and "train" go together')
    if train is not None and (not isinstance(train, int) or isinstance(train, bool)):
        raise BadInputError('"train" is the position of the train\'s card (0 is the first)')
    return TableView(
        railway=_cards(railway, book, "railway") if railway is not None else None,
        train=train,
        discard=_piles(data.get("discard"), book, seats),
        hands=_hands(data.get("hands"), book, seats),
        spread=_spread(data.get("spread"), book, seats),
        accepted=_accepted(data.get("accepted", False)),
    )


def _cards(data: object, book: CardBook, where: str) -> tuple[str, ...]:
    if not isinstance(data, list):
        raise BadInputError(f"{where}: expected a list of cards")
    try:
        return tuple(book.parse(token).name for token in data)
    except BadInputError as error:
        raise BadInputError(f"{where}: {error}") from None


def _per_seat(data: object, seats: int | None, where: str) -> list[object]:
    if not isinstance(data, list) or (seats is not None and len(data) != seats):
        count = f"{seats} " if seats is not None else ""
        raise BadInputError(f'"{where}" has one entry per seat ({count}lists)')
    return data


def _piles(data: object, book: CardBook, seats: int | None) -> Piles | None:
    if data is None:
        return None
    piles = _per_seat(data, seats, "discard")
    return tuple(
        None if pile is None else _cards(pile, book, f"seat {seat} discard")
        for seat, pile in enumerate(piles)
    )


def _hands(data: object, book: CardBook, seats: int | None) -> tuple[tuple[str, ...], ...] | None:
    if data is None:
        return None
    hands = _per_seat(data, seats, "hands")
    return tuple(_cards(hand, book, f"seat {seat} hand") for seat, hand in enumerate(hands))


def _spread(data: object, book: CardBook, seats: int | None) -> Spread | None:
    if data is None:
        return None
    spread = _per_seat(data, seats, "spread")
    read: list[tuple[str | None, ...] | None] = []
    for seat, cards in enumerate(spread):
        if cards is None:
            read.append(None)
            continue
        if not isinstance(cards, list):
            raise BadInputError(f"seat {seat} spread: expected a list of cards")
        try:
            read.append(tuple(None if token is None else book.parse(token).name
                              for token in cards))
        except BadInputError as error:
            raise BadInputError(f"seat {seat} spread: {error}") from None
    return tuple(read)


def _accepted(data: object) -> bool:
    if not isinstance(data, bool):
        raise BadInputError('"accepted" is true or false')
    return data
