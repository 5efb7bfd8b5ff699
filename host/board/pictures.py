"""The LED picture the host sends, and how a game's TurnIndicator becomes one."""

from __future__ import annotations

from dataclasses import dataclass, field

from host.turns import Direction, TurnIndicator

#: Dice faces as the board reports them: ints for d6, words for the others.
Face = int | str


@dataclass(frozen=True)
class DiceShown:
    """Dice shown on the board's dice LEDs."""

    kind: str
    """The kind of die (``d6``, ``wheel``, ``doors``)."""
    faces: tuple[Face, ...]
    """The faces, one per die LED (at most four)."""


@dataclass(frozen=True)
class Picture:
    """Everything the seat and dice LEDs should show, sent whole (PROTOCOL.md section 4)."""

    seats: int = 0
    """Seats in play; the arcs of other seats stay dark."""
    turn: int | None = None
    """The seat on turn (its arc pulses), or None."""
    direction: Direction = Direction.CLOCKWISE
    """Which way play goes on (a light travels that way on the seat on turn)."""
    skipped: frozenset[int] = field(default_factory=frozenset)
    """Seats whose next turn is skipped."""
    winners: frozenset[int] = field(default_factory=frozenset)
    """Winning seats, once the game is over."""
    alert: bool = False
    """True while the referee warns about an illegal move (red flash)."""
    dice: DiceShown | None = None
    """Dice to show, or None."""
    level: int = 255
    """Requested brightness 0-255 (the firmware caps it)."""

    def with_dice(self, shown: DiceShown | None) -> Picture:
        """The same picture showing other dice."""
        return Picture(
            self.seats,
            self.turn,
            self.direction,
            self.skipped,
            self.winners,
            self.alert,
            shown,
            self.level,
        )

    def to_wire(self) -> dict[str, object]:
        """The ``pic`` object of a ``show`` message."""
        shown: dict[str, object] | None = None
        if self.dice is not None:
            shown = {"kind": self.dice.kind, "faces": list(self.dice.faces)}
        return {
            "seats": self.seats,
            "turn": self.turn,
            "dir": 1 if self.direction is Direction.CLOCKWISE else -1,
            "skip": sorted(self.skipped),
            "win": sorted(self.winners),
            "alert": self.alert,
            "dice": shown,
            "level": self.level,
        }


def picture_for(
    indicator: TurnIndicator, shown: DiceShown | None = None, level: int = 255
) -> Picture:
    """The LED picture for a game's turn indicator, optionally with dice on show."""
    return Picture(
        seats=indicator.seats,
        turn=indicator.on_turn,
        direction=indicator.direction,
        skipped=indicator.skipped,
        winners=indicator.winners,
        alert=indicator.alert,
        dice=shown,
        level=level,
    )
