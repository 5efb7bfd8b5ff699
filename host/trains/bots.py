"""Simple players for the demo and the benchmarks: they play to win, but only by what they see.

A bot decides between drawing and a face-up ability without knowing the top card, then places a
drawn card where it helps most, as a person would.
"""

from __future__ import annotations

import random
from bisect import bisect_left

from host.trains.moves import Move, MoveKind
from host.trains.position import DECK_SIZE, Position, abilities, apply, complete, decisions
from host.trains.rules import LINE_LENGTH, REMOVED_PLACE


def line_score(line: list[int]) -> float:
    """How close a line is to ascending: its longest ascending run of cards counts most, then
    how near each card lies to where its number belongs."""
    tails: list[int] = []
    for card in line:
        index = bisect_left(tails, card)
        tails[index : index + 1] = [card]
    spread = sum(
        abs(place - (card - 1) * LINE_LENGTH / DECK_SIZE) for place, card in enumerate(line)
    )
    return 10 * len(tails) - spread


class GreedyBot:
    """Uses the face-up ability that improves its line most, else draws and places the card
    where it improves the line most (or harms it least)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, position: Position) -> Move:
        """The bot's move, chance outcomes dealt from the simulation's known draw pile."""
        seat = position.to_play
        current = line_score(position.lines[seat])
        options = list(decisions(position))
        self.rng.shuffle(options)
        best: tuple[float, Move] | None = None
        for decision in options:
            if decision.kind is not MoveKind.ABILITY:
                continue
            assert decision.card is not None
            if abilities()[decision.card] in REMOVED_PLACE:
                continue  # its outcome is a blind draw: only worth it through the draw branch
            try:
                move = complete(position, decision, self.rng)
            except ValueError:
                continue
            gain = line_score(apply(position, move).lines[seat]) - current
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, move)
        if best is not None:
            return best[1]
        placements = [d for d in options if d.kind is not MoveKind.ABILITY]
        moves = [complete(position, decision, self.rng) for decision in placements]
        return max(moves, key=lambda move: line_score(apply(position, move).lines[seat]))
