"""Measure Express through the camera: rendered random Express tables read back, one frame each.

Per difficulty level and seat count, N seeded random tables (1-3 trains a seat, Locos face down
or the Diesel, Way Cars, the discard top, up to two special discards; seeds from 1000 on, none
of them used in the tests or in tuning; ``--first 2000`` for tuning seeds): observations complete
and right, incomplete (the frame
is skipped: the stabilizer waits) and complete but wrong (the dangerous kind), and the
per-frame latency.

    python benchmarks/express_camera.py --tables 100
"""

from __future__ import annotations

import argparse
import statistics
import time

from host.tables.express import camera_pipeline
from vision.express_scene import random_express_table, render_express
from vision.pipeline import Pipeline

LEVELS = ("easy", "medium")
HELD_OUT = 1000
"""The seeds the figures in docs/vision.md are measured on, never tuned on."""
TUNING = 2000
"""Where tuning seeds start."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40, help="tables per level and seat count")
    parser.add_argument("--level", choices=LEVELS, action="append", help="levels (default both)")
    parser.add_argument("--seats", type=int, choices=(2, 3, 4), action="append",
                        help="seat counts (default 2, 3 and 4)")
    parser.add_argument("--first", type=int, default=HELD_OUT,
                        help=f"first seed (default {HELD_OUT}: held out; tune on {TUNING} on)")
    args = parser.parse_args()
    print("level   seats  tables  right  incomplete  wrong  p50 / p95 ms per frame")
    for level in args.level or LEVELS:
        for players in args.seats or (2, 3, 4):
            right = incomplete = wrong = 0
            times = []
            made = camera_pipeline(players)
            for seed in range(args.first, args.first + args.tables):
                table = random_express_table(seed, players)
                image = render_express(table, seed, level)
                # A fresh pipeline per table (no identities carried over from the last one).
                pipeline = Pipeline(deck="express", zones=made.zones, references=made.references,
                                    thresholds=made.thresholds)
                started = time.perf_counter()
                reading = pipeline.read(image)
                times.append((time.perf_counter() - started) * 1000)
                if reading.observation is None:
                    incomplete += 1
                elif reading.observation == table:
                    right += 1
                else:
                    wrong += 1
            share = 100 / args.tables
            p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
            print(f"{level:7} {players:5} {args.tables:7} {right * share:5.1f}% "
                  f"{incomplete * share:9.1f}% {wrong * share:5.1f}%  "
                  f"{statistics.median(times):.0f} / {p95:.0f}")


if __name__ == "__main__":
    main()
