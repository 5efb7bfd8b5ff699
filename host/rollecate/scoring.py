"""Final scoring: hand cards join the discard pile (no combining), lowest total wins.

Ties go to fewer cards, then fewer 4s, 3s, 2s and 1s (``TIE_BREAK_VALUES``); players still tied
share the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from host.rollecate.rules import TIE_BREAK_VALUES


@dataclass(frozen=True)
class SeatScore:
    """One seat's final count."""

    seat: int
    """The seat (0.. clockwise)."""
    total: int
    """The sum of the values of the discard pile and the hand."""
    cards: int
    """How many cards that is."""
    counts: tuple[int, ...]
    """How many of those cards have each value of ``TIE_BREAK_VALUES`` (4s, 3s, 2s, 1s)."""

    @property
    def key(self) -> tuple[int, ...]:
        """Lower is better: total, then cards, then the tie-break counts in order."""
        return (self.total, self.cards, *self.counts)

    def to_json(self) -> dict[str, Any]:
        """The seat's score as JSON."""
        counts = dict(zip(map(str, TIE_BREAK_VALUES), self.counts, strict=True))
        return {"seat": self.seat, "total": self.total, "cards": self.cards, "counts": counts}


@dataclass(frozen=True)
class Scoring:
    """The scores of every seat, ranked."""

    seats: tuple[SeatScore, ...]
    """Each seat's score, by seat."""
    ranking: tuple[tuple[int, ...], ...]
    """Places from first to last; seats sharing a place are tied all the way down."""
    decided_by: str
    """What separated the winner from the next place: "total", "cards", "4s", ...; "shared"
    when more than one seat wins (``winners`` names them)."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seat, or the seats sharing the win."""
        return self.ranking[0]

    def to_json(self) -> dict[str, Any]:
        """The scoring as JSON (``conductor score rollecate --json``)."""
        return {
            "seats": [seat.to_json() for seat in self.seats],
            "ranking": [list(place) for place in self.ranking],
            "winners": list(self.winners),
            "decided_by": self.decided_by,
        }


def score_seat(seat: int, values: Sequence[int]) -> SeatScore:
    """A seat's score from the values of all its cards (discard pile and hand together)."""
    counts = tuple(sum(1 for value in values if value == wanted) for wanted in TIE_BREAK_VALUES)
    return SeatScore(seat, sum(values), len(values), counts)


def score_table(seats: Sequence[Sequence[int]]) -> Scoring:
    """Score every seat from the values of its cards and rank them with the tie-breaks."""
    scores = tuple(score_seat(seat, values) for seat, values in enumerate(seats))
    places: list[list[int]] = []
    for score in sorted(scores, key=lambda score: (score.key, score.seat)):
        if places and scores[places[-1][0]].key == score.key:
            places[-1].append(score.seat)
        else:
            places.append([score.seat])
    return Scoring(scores, tuple(tuple(place) for place in places), _decided_by(scores, places))


def _decided_by(scores: tuple[SeatScore, ...], places: list[list[int]]) -> str:
    if len(places[0]) > 1:
        return "shared"  # whatever set the sharers apart from the rest, no level decided
    names = ["total", "cards", *(f"{value}s" for value in TIE_BREAK_VALUES)]
    first, second = scores[places[0][0]].key, scores[places[1][0]].key
    level = next(index for index, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
    return names[level]
