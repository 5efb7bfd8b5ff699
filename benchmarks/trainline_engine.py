"""How fast the Train Line Chicago engine runs: moves per second, games per second.

Run: python benchmarks/trainline_engine.py [GAMES]   (prints numbers; asserts nothing)
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host.trainline import bots
from host.trainline.game import Phase, TrainlineGame
from host.trainline.observer import judge_observations
from host.trainline.transcript import observation_lines


def main() -> None:
    """Play seeded bot games, time the bot's choice (legal_moves) and push."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    moves = 0
    choose_time = push_time = 0.0
    started = time.perf_counter()
    last = None
    for seed in range(games):
        rng = random.Random(seed)
        game = TrainlineGame.new(2 + seed % 3, rng)
        while game.phase is not Phase.OVER:
            t0 = time.perf_counter()
            move = bots.choose(game, rng)
            t1 = time.perf_counter()
            game.push(move)
            choose_time += t1 - t0
            push_time += time.perf_counter() - t1
            moves += 1
        last = game
    total = time.perf_counter() - started
    print(f"games: {games}, moves: {moves}, {games / total:.1f} games/s")
    print(f"bot choice (legal_moves + rating): {1e6 * choose_time / moves:.0f} us/move")
    print(f"push (validate + apply): {1e6 * push_time / moves:.1f} us/move")
    assert last is not None
    length = len(last.record)
    t0 = time.perf_counter()
    last.pop()
    print(f"undo by replay of a {length}-move game: {1e3 * (time.perf_counter() - t0):.2f} ms")
    observe(games=min(games, 20))


def observe(games: int) -> None:
    """Time the observation referee's search on observations of bot games."""
    count = 0
    elapsed = 0.0
    worst = 0.0
    for seed in range(games):
        rng = random.Random(seed)
        game = TrainlineGame.new(2 + seed % 3, rng)
        bots.play_out(game, rng)
        lines = [json.dumps(line) for line, _ in observation_lines(game)]
        t0 = time.perf_counter()
        for _ in judge_observations(lines):
            count += 1
        spent = time.perf_counter() - t0
        elapsed += spent
        worst = max(worst, spent)
    print(f"observation referee: {count} lines in {elapsed:.2f} s "
          f"({1e3 * elapsed / count:.1f} ms a line; slowest game {worst:.2f} s)")


if __name__ == "__main__":
    main()
