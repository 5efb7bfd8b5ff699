"""The moves of a Rollecate game, as frozen values that serialise to one JSON object each.

A turn is: the automatic draw, then one action (``Pass``, ``Build`` or ``DiscardChaos``); a build
is followed by its dice (``Roll``, the chance outcomes), and the turn ends once every penalty card
or chaos card has been put on the discard pile, one ``Discard`` at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from host.errors import BadInputError
from host.rollecate.discard import DiscardStep
from host.rollecate.rules import Face


@dataclass(frozen=True)
class Pass:
    """Pass: the train moves one card forward if it can, and the player takes a penalty card."""


@dataclass(frozen=True)
class Build:
    """Add track cards of one value to the end of the railway, then roll for the ride."""

    cards: tuple[str, ...]
    """The cards added, in the order they are laid (names such as ``track-2``, ``broken-2``)."""


@dataclass(frozen=True)
class DiscardChaos:
    """Put one or more chaos cards from the hand on the discard pile (no train, no penalty)."""

    cards: tuple[str, ...]
    """The chaos cards discarded (their order is chosen by the following ``Discard`` moves)."""


@dataclass(frozen=True)
class Roll:
    """One roll of the dice for a ride: a chance outcome, from a random source or the board."""

    faces: tuple[Face, ...]
    """What each die shows; a roll has as many dice as the ride still needs, at most four."""

    @property
    def wheels(self) -> int:
        """Steps this roll moves the train."""
        return sum(face is Face.WHEEL for face in self.faces)


@dataclass(frozen=True)
class Discard:
    """Put one owed card (penalty card or chaos card) on the player's discard pile."""

    card: str
    """The card put down."""
    combine: bool
    """True if it combines with the top card: both go to the box."""

    @property
    def step(self) -> DiscardStep:
        """The same thing in the discard pile's terms."""
        return DiscardStep(self.card, self.combine)


Move = Pass | Build | DiscardChaos | Roll | Discard


def move_to_json(move: Move) -> dict[str, Any]:
    """The move as one JSON object (one line of a game's record)."""
    match move:
        case Pass():
            return {"action": "pass"}
        case Build(cards):
            return {"action": "build", "cards": list(cards)}
        case DiscardChaos(cards):
            return {"action": "discard-chaos", "cards": list(cards)}
        case Roll(faces):
            return {"action": "roll", "dice": [face.value for face in faces]}
        case Discard(card, combine):
            return {"action": "discard", "card": card, "combine": combine}


def move_from_json(data: object) -> Move:
    """The move a JSON object describes; BadInputError with the reason if it describes none."""
    if not isinstance(data, dict):
        raise BadInputError("a move is a JSON object")
    action = data.get("action")
    if action == "pass":
        return Pass()
    if action in ("build", "discard-chaos"):
        cards = _names(data.get("cards"))
        return Build(cards) if action == "build" else DiscardChaos(cards)
    if action == "roll":
        return Roll(parse_faces(data.get("dice")))
    if action == "discard":
        card, combine = data.get("card"), data.get("combine")
        if not isinstance(card, str) or not isinstance(combine, bool):
            raise BadInputError('a discard needs "card" (a name) and "combine" (true or false)')
        return Discard(card, combine)
    raise BadInputError(f"unknown action {action!r}")


def parse_faces(data: object) -> tuple[Face, ...]:
    """Dice faces from JSON: a list of "wheel" and "blank"."""
    if not isinstance(data, list) or not data:
        raise BadInputError('dice are a non-empty list of "wheel" and "blank"')
    try:
        return tuple(Face(face) for face in data)
    except ValueError:
        raise BadInputError(f'dice show "wheel" or "blank", not {data!r}') from None


def _names(data: object) -> tuple[str, ...]:
    if not isinstance(data, list) or not all(isinstance(name, str) for name in data):
        raise BadInputError('"cards" is a list of card names')
    return tuple(data)
