"""How fast the Express engine and referee run: moves per second, hands per second.

Run: python benchmarks/express_engine.py [HANDS]   (prints numbers; asserts nothing)
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host.express import bots
from host.express.game import ExpressGame, Phase
from host.express.referee import judge_lines
from host.express.transcript import observation_lines


def main() -> None:
    """Play seeded bot hands, time legal_moves/push, undo and refereeing."""
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    moves = legal_calls = 0
    legal_time = push_time = 0.0
    games = []
    started = time.perf_counter()
    for seed in range(hands):
        rng = random.Random(seed)
        game = ExpressGame.new(2 + seed % 5, rng)
        while game.phase is not Phase.OVER:
            t0 = time.perf_counter()
            move = bots.choose(game, rng)
            t1 = time.perf_counter()
            game.push(move)
            legal_time += t1 - t0
            push_time += time.perf_counter() - t1
            moves += 1
            legal_calls += 1
        games.append(game)
    total = time.perf_counter() - started
    print(f"hands: {hands}, moves: {moves}, {hands / total:.1f} hands/s")
    print(f"bot choice (legal_moves + rating): {1e6 * legal_time / legal_calls:.0f} us/move")
    print(f"push (validate + apply): {1e6 * push_time / moves:.1f} us/move")
    game = games[-1]
    length = len(game.record)
    t0 = time.perf_counter()
    game.pop()
    print(f"undo by replay of a {length}-move hand: {1e3 * (time.perf_counter() - t0):.2f} ms")
    rng = random.Random(1)
    game = ExpressGame.new(3, rng)
    bots.play_out(game, rng)
    lines = [json.dumps(line) for line, _ in observation_lines(game)]
    t0 = time.perf_counter()
    verdicts = list(judge_lines(lines))
    elapsed = time.perf_counter() - t0
    print(f"referee: {len(verdicts)} observations in {1e3 * elapsed:.1f} ms "
          f"({1e6 * elapsed / len(verdicts):.0f} us each)")


if __name__ == "__main__":
    main()
