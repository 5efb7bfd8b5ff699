"""Express turn order: Turntables (another turn, then play reverses) and Derailments (lost turns).

Shared by the engine and the referee, so the seat LEDs follow one reading of the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from host.turns import Direction


@dataclass
class TurnOrder:
    """Who plays, which way play goes, and the turns still owed or lost."""

    players: int
    """How many seats play."""
    current: int
    """The seat on turn."""
    direction: Direction = Direction.CLOCKWISE
    """The direction of play."""
    lost: list[int] = field(default_factory=list)
    """Per seat, the turns it will lose (Derailments)."""
    extra_turns: int = 0
    """Turns the current seat still takes at once (Turntables)."""
    pending_reversals: int = 0
    """Reversals to apply when the current seat's turns are over (Turntables)."""

    def __post_init__(self) -> None:
        if not self.lost:
            self.lost = [0] * self.players

    def turntable(self) -> None:
        """A Turntable: another turn at once, then play reverses."""
        self.extra_turns += 1
        self.pending_reversals += 1

    def derail(self, seat: int) -> None:
        """A Derailment: ``seat`` loses its next turn."""
        self.lost[seat] += 1

    def skipped(self) -> frozenset[int]:
        """Seats whose next turn will be lost."""
        return frozenset(seat for seat, count in enumerate(self.lost) if count)

    def pass_turn(self) -> None:
        """The current seat's turn is over: it plays again, or play moves on."""
        if self.extra_turns:
            self.extra_turns -= 1
            return
        if self.pending_reversals % 2:
            self.direction = (
                Direction.COUNTERCLOCKWISE
                if self.direction is Direction.CLOCKWISE
                else Direction.CLOCKWISE
            )
        self.pending_reversals = 0
        step = 1 if self.direction is Direction.CLOCKWISE else -1
        seat = self.current
        while True:
            seat = (seat + step) % self.players
            if not self.lost[seat]:
                self.current = seat
                return
            self.lost[seat] -= 1
