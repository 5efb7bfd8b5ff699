"""Monte-Carlo figures for Rollecate with the simple bot: game length, derails, scores, speed.

Run from the checkout: ``PYTHONPATH=. python benchmarks/rollecate_montecarlo.py [--games N]``.
Prints, per player count, the average number of turns and of moves (actions, rolls and single
discards), how often a ride derails, the average score of each seat
(seat 0 plays first), how often each seat wins (shared wins counted for every sharer) and how
many games per second the engine plays.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

from host.rollecate.bots import simple_policy
from host.rollecate.moves import Pass
from host.rollecate.state import GameState


@dataclass
class Tally:
    """Sums over the games played with one player count."""

    games: int = 0
    turns: int = 0
    moves: int = 0
    rides: int = 0
    derails: int = 0
    passes: int = 0
    penalty_cards: int = 0
    scores: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)


def play(players: int, rng: random.Random, tally: Tally) -> None:
    """One game with every seat played by ``simple_policy``; dice from ``rng``."""
    state = GameState.new(players, rng)
    if not tally.scores:
        tally.scores, tally.wins = [0] * players, [0] * players
    while not state.over:
        move = state.roll_dice(rng) if state.is_chance_node() else simple_policy(state)
        effect = state.push(move)
        tally.passes += isinstance(move, Pass)
        if effect.ride is not None:
            tally.penalty_cards += len(effect.penalty)
            if not isinstance(move, Pass):
                tally.rides += 1
                tally.derails += effect.ride.derailed
    scoring = state.scores()
    tally.games += 1
    tally.turns += state.turns
    tally.moves += len(state.history)
    for seat in scoring.seats:
        tally.scores[seat.seat] += seat.total
    for seat in scoring.winners:
        tally.wins[seat] += 1


def main() -> None:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"Rollecate Monte-Carlo, simple bot, {args.games} games per count, seed {args.seed}")
    for players in (2, 3, 4):
        tally = Tally()
        started = time.perf_counter()
        for _ in range(args.games):
            play(players, rng, tally)
        elapsed = time.perf_counter() - started
        games = tally.games
        scores = " ".join(f"{total / games:.1f}" for total in tally.scores)
        wins = " ".join(f"{100 * won / games:.0f}%" for won in tally.wins)
        derail_rate = tally.derails / max(tally.rides, 1)
        print(
            f"{players} players: {tally.turns / games:.1f} turns/game "
            f"({tally.moves / games:.1f} moves), "
            f"{tally.rides / games:.1f} rides/game, derail rate {derail_rate:.1%} of rides, "
            f"{tally.passes / games:.1f} passes/game, "
            f"{tally.penalty_cards / games:.1f} penalty cards/game"
        )
        print(f"  average score by seat: {scores}; wins by seat: {wins}")
        print(f"  {games / elapsed:.0f} games/s ({elapsed:.1f} s)")


if __name__ == "__main__":
    main()
