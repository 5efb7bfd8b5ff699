"""A turn of The Game of Trains as data: what the seat decided and what chance dealt.

A ``Move`` is a whole turn as the record writes it (the decision with the cards drawn for it);
``Move.decision()`` is the player's part and each ``Drawn`` one chance outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from host.errors import BadInputError


class MoveKind(Enum):
    """The kinds of turn."""

    DRAFT = "draft"
    """Set-up: keep one of the cards drawn and put it into the line."""
    DRAW = "draw"
    """Draw the top card and put it into the line; the replaced card goes face up."""
    ABILITY = "ability"
    """Take a face-up card, discard it and use its ability."""


@dataclass(frozen=True)
class Move:
    """One turn. Places count railcars from the player's left, starting at 0."""

    seat: int
    """The seat taking the turn."""
    kind: MoveKind
    """Which of the kinds of turn this is."""
    slot: int | None = None
    """Draft or draw: the place replaced. Swap: the left place of the two. Move: the place the
    card moves from. Protect: the place guarded. Remove: None."""
    card: int | None = None
    """Draft: the railcar kept. Ability: the face-up railcar used. Draw: None."""
    drawn: tuple[int, ...] = ()
    """Chance: the railcars drawn into lines: the one drawn card of a draw, or the replacements
    after a remove, one per seat that removed a card, clockwise from the user (cut short by a
    win)."""
    keep: tuple[int, ...] = ()
    """The table's choice: when an odd number (3 or more) of face-up cards share an ability, the
    one of each such group that stays face up."""
    shuffle: tuple[int, ...] = ()
    """Chance, with a known draw pile only: the discard pile as reshuffled into the new draw
    pile (top card last) when the draw pile ran out during this move."""

    def decision(self) -> Move:
        """The move without its chance outcomes: what the player chose."""
        return Move(self.seat, self.kind, self.slot, self.card, keep=self.keep)

    def to_json(self) -> dict[str, Any]:
        """The move as a JSON object (the record's line format)."""
        data: dict[str, Any] = {"seat": self.seat, "kind": self.kind.value}
        for key in ("slot", "card"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        for key in ("drawn", "keep", "shuffle"):
            if getattr(self, key):
                data[key] = list(getattr(self, key))
        return data

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """Read a move written by ``to_json``."""
        try:
            return cls(
                seat=_integer(data["seat"]),
                kind=MoveKind(data["kind"]),
                slot=None if data.get("slot") is None else _integer(data["slot"]),
                card=None if data.get("card") is None else _integer(data["card"]),
                drawn=tuple(_integer(n) for n in data.get("drawn", ())),
                keep=tuple(_integer(n) for n in data.get("keep", ())),
                shuffle=tuple(_integer(n) for n in data.get("shuffle", ())),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise BadInputError(f"not a Game of Trains move: {data!r} ({error})") from None


@dataclass(frozen=True)
class Drawn:
    """Chance: the card the draw pile deals into a line (a chance outcome, not a choice)."""

    card: int
    """The railcar drawn."""
    shuffle: tuple[int, ...] = ()
    """With a known draw pile only: the discard pile as reshuffled into the emptied draw pile
    (top card last) before this card was drawn from it."""


def _integer(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{value!r} is not a whole number")
    return value
