"""A simple Rollecate player for the demo and the Monte-Carlo benchmark.

It builds to shed the most points from its hand, less the penalty cards the ride is expected to
cost (exactly, from the dice odds), passes when every build looks worse than one penalty card,
discards chaos cards only when they combine, and always follows the discard advisor.
"""

from __future__ import annotations

import math

from host.rollecate.discard import advise
from host.rollecate.moves import Build, Discard, DiscardChaos, Move, Pass
from host.rollecate.rules import DIE_FACES, Face
from host.rollecate.state import GameState, Phase

#: What the bot expects one penalty card to cost: the average value of a track card.
PENALTY_POINTS = 2.5
#: The chance that one die shows a wheel.
WHEEL_CHANCE = DIE_FACES.count(Face.WHEEL) / len(DIE_FACES)


def simple_policy(state: GameState) -> Move:
    """The bot's move in ``state`` (not at a chance node: the dice are not the bot's)."""
    if state.phase is Phase.DISCARD:
        step = advise(state.discards[state.seat], state.owed, state.book.value).steps[0]
        return Discard(step.card, step.combine)
    if state.phase is not Phase.ACTION:
        raise ValueError(f"the bot does not choose in the {state.phase.value} phase")
    best: tuple[float, Move] = (-PENALTY_POINTS if state.train else 0.0, Pass())
    for move in state.legal_moves():
        if isinstance(move, Build):
            score = _build_score(state, move)
        elif isinstance(move, DiscardChaos):
            pile = state.discards[state.seat]
            score = advise(pile, move.cards, state.book.value).points_saved - 0.5
        else:
            continue
        if score > best[0]:
            best = (score, move)
    return best[1]


def _build_score(state: GameState, move: Build) -> float:
    """Points shed from the hand, less the penalty cards an average ride would cost."""
    value = sum(state.book.value(card) for card in move.cards)
    room = len(state.railway) + len(move.cards) - 1 - state.train
    expected_missed = sum(
        math.comb(value, wheels)
        * WHEEL_CHANCE**wheels
        * (1 - WHEEL_CHANCE) ** (value - wheels)
        * (wheels - room)
        for wheels in range(room + 1, value + 1)
    )
    return value - PENALTY_POINTS * expected_missed
