"""What the seat LEDs show about turn order, in words every game can produce.

Each game engine reports a ``TurnIndicator``; the app turns it into the board's LED picture. The
engines never know about LEDs, and the board never knows about games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Direction(Enum):
    """Which way play goes round the table. Seats are numbered 0.. clockwise."""

    CLOCKWISE = "clockwise"
    COUNTERCLOCKWISE = "counterclockwise"


@dataclass(frozen=True)
class TurnIndicator:
    """Whose turn it is and how play goes on from there."""

    seats: int
    """How many seats play (2 to 4)."""
    on_turn: int | None
    """The seat to play now, or None when the game is over."""
    direction: Direction = Direction.CLOCKWISE
    """The direction of play."""
    skipped: frozenset[int] = field(default_factory=frozenset)
    """Seats whose next turn will be skipped (a lost turn, an express skip, ...)."""
    winners: frozenset[int] = field(default_factory=frozenset)
    """The winning seat or seats, once the game is over."""
    alert: bool = False
    """True while the referee is warning about an illegal move."""
    unscored: bool = False
    """True when the game is over but its winners are not known yet (an Express hand, scored
    from the table afterwards)."""

    @property
    def over(self) -> bool:
        """True once the game is over: it has winners, or it ended unscored."""
        return bool(self.winners) or self.unscored


def turn_words(turn: TurnIndicator, over: str) -> str:
    """Who plays next and how play goes on, in words; ``over`` once nobody does."""
    if turn.on_turn is None:
        return over
    skipped = f", skipping seat(s) {sorted(turn.skipped)}" if turn.skipped else ""
    return f"next: seat {turn.on_turn}, {turn.direction.value}{skipped}"
