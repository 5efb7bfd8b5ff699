"""Who plays next round the table: direction, reversals, extra turns and lost turns.

One reading of turn order for every game that twists it (Express's Turntables and Derailments,
Train Line's Reverse and Express cards), shared by engines and referees so the seat LEDs follow
the same rules the engine plays by.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from host.turns import Direction


def reversed_direction(direction: Direction) -> Direction:
    """The other way round the table."""
    return Direction.COUNTERCLOCKWISE if direction is Direction.CLOCKWISE else Direction.CLOCKWISE


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
    """Per seat, the turns it will lose (a Derailment, a Train Line Express card)."""
    extra_turns: int = 0
    """Turns the current seat still takes at once (Turntables)."""
    pending_reversals: int = 0
    """Reversals to apply when the current seat's turns are over (Turntables)."""

    def __post_init__(self) -> None:
        if not self.lost:
            self.lost = [0] * self.players

    def after(self, seat: int) -> int:
        """The seat next to ``seat`` in the direction of play (lost turns not counted)."""
        step = 1 if self.direction is Direction.CLOCKWISE else -1
        return (seat + step) % self.players

    def reverse(self) -> None:
        """Play goes the other way round from now on."""
        self.direction = reversed_direction(self.direction)

    def another_turn_then_reverse(self) -> None:
        """A Turntable: another turn at once, then play reverses."""
        self.extra_turns += 1
        self.pending_reversals += 1

    def skip(self, seat: int) -> None:
        """``seat`` loses its next turn."""
        self.lost[seat] += 1

    def skipped(self) -> frozenset[int]:
        """Seats whose next turn will be lost."""
        return frozenset(seat for seat, count in enumerate(self.lost) if count)

    def pass_turn(self) -> None:
        """The current seat's turn is over: it plays again, or play moves on past lost turns
        (back to the current seat when every other seat loses its turn)."""
        if self.extra_turns:
            self.extra_turns -= 1
            return
        if self.pending_reversals % 2:
            self.reverse()
        self.pending_reversals = 0
        seat = self.after(self.current)
        while self.lost[seat]:
            self.lost[seat] -= 1
            seat = self.after(seat)
        self.current = seat
