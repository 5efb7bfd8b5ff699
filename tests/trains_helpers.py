"""Building Game of Trains tables by hand for the rule and referee tests."""

from __future__ import annotations

from host.trains.position import DECK_SIZE, Phase, Position, abilities
from host.trains.rules import Ability


def cards_with(ability: Ability) -> list[int]:
    """The railcars carrying ``ability`` in the deck data, lowest first."""
    return sorted(card for card, has in abilities().items() if has is ability)


def table(
    lines: list[list[int]],
    faceup: list[int] | None = None,
    draw_pile: list[int] | None = None,
    locks: list[dict[int, int]] | None = None,
    to_play: int = 0,
) -> Position:
    """A position in play with a known draw pile (top card last); the other cards are in the
    discard pile unless ``draw_pile`` is None, when every other card is in the draw pile."""
    faceup = faceup or []
    locks = locks or [{} for _ in lines]
    used = {c for line in lines for c in line} | set(faceup)
    used |= {c for seat in locks for c in seat.values()}
    rest = [card for card in range(1, DECK_SIZE + 1) if card not in used]
    if draw_pile is None:
        draw_pile, discard = rest, []
    else:
        discard = [card for card in rest if card not in draw_pile]
    return Position(
        seats=len(lines),
        first=0,
        lines=[list(line) for line in lines],
        locks=locks,
        faceup=list(faceup),
        draw_pile=list(draw_pile),
        draw_count=len(draw_pile),
        discard=discard,
        phase=Phase.PLAY,
        to_play=to_play,
        drafted=len(lines),
    )


def everywhere(position: Position) -> list[int]:
    """Every card's place, for conservation checks: sorted, it must be 1..84 exactly once each."""
    cards = [card for line in position.lines for card in line if card]
    cards += [card for seat in position.locks for card in seat.values()]
    cards += position.faceup + position.discard + (position.draw_pile or [])
    return sorted(cards)
