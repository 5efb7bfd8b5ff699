"""Measure Rollecate through the camera: reading rendered tables, and refereeing from top cards.

Part 1, the recognizer on N seeded random Rollecate tables per difficulty level (railway of 4 to
26 cards, the train somewhere on it, pile tops, sometimes spread hands), one frame each:
observations complete and right, incomplete (the frame is skipped: the stabilizer waits), and
complete but wrong (the dangerous kind); how often the card under the train is named, and the
per-frame latency.

Part 2, the referee seeing only what a camera sees (each pile's top card after every card put
down, the dice, the seat buttons) over G seeded games per policy (the demo's simple bots, and
random play, which leaves far more hidden): games with a false "illegal", games whose final
count had to say what it assumed, counts wrong without saying so, and milliseconds per game.

    python benchmarks/rollecate_camera.py --scenes 200 --games 200
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from rollecate_helpers import play_randomly

from host.rollecate.bots import simple_policy
from host.rollecate.referee import open_referee
from host.rollecate.state import GameState
from host.rollecate.transcript import table_lines
from host.tables.rollecate import scenes_of
from vision.pipeline import Pipeline
from vision.rollecate_scene import lay_rollecate, random_rollecate_table
from vision.rollecate_zones import RollecateZones
from vision.scene import DIFFICULTIES, Look, photograph


def read_tables(level: str, scenes: int) -> None:
    """Part 1 for one difficulty level."""
    right = incomplete = wrong = 0
    latencies: list[float] = []
    for seed in range(scenes):
        table = random_rollecate_table(seed, hands=seed % 3 == 0)
        look = Look.draw(seed, DIFFICULTIES[level])
        image, _ = photograph(lay_rollecate(table, look, seed), 0, hands=0)
        pipeline = Pipeline(deck="rollecate", zones=RollecateZones(len(table.discard)))
        pipeline.read(image)  # the first frame also finds the markers
        started = time.perf_counter()
        read = pipeline.read(image).observation
        latencies.append(time.perf_counter() - started)
        if read is None:
            incomplete += 1
        elif read == table:
            right += 1
        else:
            wrong += 1
    latencies.sort()
    print(f"{level:6} {scenes} tables: right {100 * right / scenes:5.1f} %, "
          f"incomplete {100 * incomplete / scenes:5.1f} %, wrong {100 * wrong / scenes:4.1f} %; "
          f"p50 {1000 * statistics.median(latencies):.1f} ms, "
          f"p95 {1000 * latencies[int(0.95 * len(latencies))]:.1f} ms per frame", flush=True)


def referee_games(policy: str, games: int) -> None:
    """Part 2 for one policy."""
    illegal = noted = silent = 0
    times: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        game = GameState.new(2 + seed % 3, rng)
        if policy == "random":
            play_randomly(game, rng)
        else:
            while not game.over:
                game.push(game.roll_dice(rng) if game.is_chance_node() else simple_policy(game))
        lines = table_lines(game, every_card=True)
        started = time.perf_counter()
        referee = open_referee(lines[0])
        verdicts = [referee.feed(line).to_json() for scene in scenes_of(lines)[1:]
                    for line in (scene.view.to_json(), *scene.events)]
        times.append(time.perf_counter() - started)
        illegal += any(verdict["verdict"] == "illegal" for verdict in verdicts)
        wins = [verdict for verdict in verdicts if verdict["verdict"] == "win"]
        said = any("did not see" in line for line in wins[-1]["instructions"]) if wins else False
        noted += said
        silent += (not wins or wins[-1]["scores"] != game.scores().to_json()) and not said
    times.sort()
    print(f"{policy:6} bots, {games} games: false illegal in {illegal}, final count says what "
          f"it assumed in {noted} ({100 * noted / games:.1f} %), wrong without saying so in "
          f"{silent}; {1000 * statistics.median(times):.0f} ms per game (p50), "
          f"{1000 * times[-1]:.0f} ms worst", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=int, default=100, help="tables per level")
    parser.add_argument("--games", type=int, default=100, help="games per policy")
    args = parser.parse_args()
    for level in DIFFICULTIES:
        read_tables(level, args.scenes)
    for policy in ("simple", "random"):
        referee_games(policy, args.games)


if __name__ == "__main__":
    main()
