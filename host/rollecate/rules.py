"""The rules of Rollecate as pure functions, with the rulings (PRODUCT.md) as named constants.

Both the full-information engine (``state``) and the table referee (``referee``) judge builds,
rides, passes and penalty cards with these functions, so a house rule is a one-line change here.
Positions on the railway count cards from its start: 0 is the first card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from host.rollecate.cards import Kind, RollecateCard


class Face(Enum):
    """What a Rollecate die shows."""

    WHEEL = "wheel"
    BLANK = "blank"


#: Each die has 4 wheel faces and 2 blank faces (ruling).
DIE_FACES: tuple[Face, ...] = (Face.WHEEL,) * 4 + (Face.BLANK,) * 2
#: The box holds 4 dice: a build of value V rolls V dice in batches of at most this many.
DICE_PER_ROLL = 4
#: The value rule: two neighbouring track cards never differ by exactly this much.
FORBIDDEN_DIFFERENCE = 2
#: The starting railway's length, and where the train starts (the 3rd card).
STARTING_RAILWAY = 4
TRAIN_START = 2
#: Cards removed unseen at set-up, by the number of players.
REMOVED_UNSEEN: dict[int, int] = {2: 11, 3: 9, 4: 7}
#: Cards dealt to each player at set-up.
STARTING_HAND = 2
#: A pass moves the train this many cards (if it can) and costs this many penalty cards.
PASS_STEPS = 1
PASS_PENALTY = 1
#: Passing over or stopping on a broken track costs this many penalty cards.
BROKEN_TRACK_PENALTY = 1
#: Tie-breaks after the total and the card count: fewer cards of these values, in this order.
TIE_BREAK_VALUES: tuple[int, ...] = (4, 3, 2, 1)
#: The seats the rules are written for.
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def build_problem(last: RollecateCard, cards: Sequence[RollecateCard]) -> str | None:
    """Why adding ``cards`` after ``last`` (the railway's last card) is illegal, or None."""
    if not cards:
        return "a build adds at least one track card"
    for card in cards:
        if not card.has_rails:
            return f"the {card.name} cannot be built: chaos cards have no rails"
    values = sorted({card.value for card in cards})
    if len(values) > 1:
        shown = ", ".join(str(value) for value in values)
        return f"a build adds cards of one value only, not {shown}"
    value = values[0]
    if abs(value - last.value) == FORBIDDEN_DIFFERENCE:
        return (
            f"a {value} cannot follow a {last.value}: "
            f"neighbouring track cards never differ by {FORBIDDEN_DIFFERENCE}"
        )
    return None


def dice_for(cards: Sequence[RollecateCard]) -> int:
    """How many dice a build rolls: the total value of the cards added."""
    return sum(card.value for card in cards)


def roll_sizes(dice: int) -> list[int]:
    """The batches in which ``dice`` dice are rolled, at most ``DICE_PER_ROLL`` at a time."""
    full, rest = divmod(dice, DICE_PER_ROLL)
    return [DICE_PER_ROLL] * full + ([rest] if rest else [])


@dataclass(frozen=True)
class Ride:
    """Where the train goes and what it costs: the outcome of a ride or a pass."""

    start: int
    """The card the train stood on (it never costs a penalty card)."""
    stop: int
    """The card the train ends on."""
    steps: int
    """The steps the dice (or the pass) asked for."""
    missed: int
    """Steps the train could not complete: it derailed by this many (0 on a pass)."""
    broken: tuple[int, ...]
    """Broken tracks passed over or stopped on, by position."""
    penalty: int
    """Penalty cards owed: the missed steps, one per broken track, plus a pass's own."""

    @property
    def derailed(self) -> bool:
        """True if the train ran off the end and was put on the last card."""
        return self.missed > 0


def _broken_between(railway: Sequence[RollecateCard], start: int, stop: int) -> tuple[int, ...]:
    return tuple(
        position for position in range(start + 1, stop + 1) if railway[position].kind is Kind.BROKEN
    )


def ride(railway: Sequence[RollecateCard], train: int, steps: int) -> Ride:
    """The train rides ``steps`` cards from ``train``; past the end it derails (last card)."""
    stop = min(train + steps, len(railway) - 1)
    missed = steps - (stop - train)
    broken = _broken_between(railway, train, stop)
    return Ride(train, stop, steps, missed, broken, missed + BROKEN_TRACK_PENALTY * len(broken))


def pass_ride(railway: Sequence[RollecateCard], train: int) -> Ride:
    """A pass: the train moves one card forward if it can (never derails), one penalty card."""
    stop = min(train + PASS_STEPS, len(railway) - 1)
    broken = _broken_between(railway, train, stop)
    return Ride(
        train, stop, stop - train, 0, broken, PASS_PENALTY + BROKEN_TRACK_PENALTY * len(broken)
    )


def penalty_count(train: int, owed: int) -> int:
    """Penalty cards actually taken from the start of the railway: never the train's own card."""
    return min(owed, train)
