"""How fast The Game of Trains runs: engine moves per second and referee time per turn.

Run on demand: ``python benchmarks/trains_benchmark.py [--games N] [--seed S]``. It prints numbers;
nothing here is asserted (timings on shared machines are noisy).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from host.trains.bots import GreedyBot
from host.trains.observation import TrainsObservation
from host.trains.position import Phase, Position, apply, legal_moves
from host.trains.referee import Referee


def engine_moves_per_second(games: int, seed: int) -> tuple[float, float]:
    """Random legal moves applied per second, and legal-move lists generated per second."""
    rng = random.Random(seed)
    applied, listed, apply_time, list_time = 0, 0, 0.0, 0.0
    for _ in range(games):
        position = Position.deal(3, 0, rng)
        for _ in range(300):
            started = time.perf_counter()
            moves = legal_moves(position, rng)
            list_time += time.perf_counter() - started
            listed += 1
            started = time.perf_counter()
            position = apply(position, rng.choice(moves))
            apply_time += time.perf_counter() - started
            applied += 1
            if position.phase is Phase.OVER:
                break
    return applied / apply_time, listed / list_time


def referee_turn_times(games: int, seed: int) -> list[float]:
    """Seconds the referee takes to judge each turn of greedy games, from observations only."""
    rng = random.Random(seed)
    times: list[float] = []
    for _ in range(games):
        seats = rng.randint(2, 4)
        position = Position.deal(seats, 0, rng)
        judge = Referee(Position.from_table(seats, 0, position.lines, [], Phase.DRAFT))
        bot = GreedyBot(rng)
        while position.phase is not Phase.OVER:
            position = apply(position, bot.choose(position))
            seen = TrainsObservation.of(position)
            started = time.perf_counter()
            verdict = judge.observe(seen)
            times.append(time.perf_counter() - started)
            assert verdict.verdict in ("move", "win"), verdict
    return times


def main() -> None:
    """Print the measurements."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    applied, listed = engine_moves_per_second(max(1, args.games // 10), args.seed)
    print(f"engine: {applied:,.0f} moves applied/s, {listed:,.0f} legal-move lists/s")
    times = sorted(referee_turn_times(args.games, args.seed))
    p50 = statistics.median(times) * 1000
    p95 = times[int(0.95 * (len(times) - 1))] * 1000
    print(
        f"referee: {len(times)} turns of {args.games} games, per turn p50 {p50:.2f} ms, "
        f"p95 {p95:.2f} ms, max {times[-1] * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
