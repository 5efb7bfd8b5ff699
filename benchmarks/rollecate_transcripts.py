"""The Rollecate referee against an independent engine's games, as a camera shows them.

Plays N seeded games per policy (random and greedy, 2 to 4 seats in turn) with the second
engine in tests/rollecate_tables.py, shows each to the referee the way a camera and a board
would (top cards only, missed and repeated views, piles out of view, other seats' buttons, the
final count spread out) and counts games with a false ``illegal``, lost turns, inexact final
counts and counts wrong without saying so, with the referee's time per game. The default seeds
start at 10000: the tests use 0-99, so these were not tuned on.

    PYTHONPATH=. python benchmarks/rollecate_transcripts.py --games 500 [--final hands]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from rollecate_tally import run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="seeds (each played by both "
                        "policies)")
    parser.add_argument("--first-seed", type=int, default=10_000)
    parser.add_argument("--final", choices=("spread", "hands"), default="spread",
                        help="the end as every card spread out, or the hands only")
    args = parser.parse_args()
    started = time.perf_counter()
    tally = run(range(args.first_seed, args.first_seed + args.games), args.final)
    wall = time.perf_counter() - started
    times = sorted(tally.seconds)
    print(f"{tally.games} games (seeds {args.first_seed}-{args.first_seed + args.games - 1}, "
          f"random and greedy), {tally.verdicts} verdicts, final count: {args.final}")
    print(f"false illegal: {len(tally.false_illegal)}; lost turns: {len(tally.lost_turns)}; "
          f"inexact counts: {len(tally.inexact)}; wrong silently: {len(tally.silent)}")
    print(f"referee (processor time): {1000 * statistics.median(times):.0f} ms per game (p50), "
          f"{1000 * times[int(0.95 * (len(times) - 1))]:.0f} ms p95, "
          f"{1000 * times[-1]:.0f} ms worst ({tally.slowest[1]}); {wall:.1f} s wall in all")
    for kind, games in tally.problems().items():
        print(f"{kind}:")
        for game in games[:10]:
            print(f"  {game}")


if __name__ == "__main__":
    main()
