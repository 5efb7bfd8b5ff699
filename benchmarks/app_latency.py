"""Latency of the whole app: from a card change in front of the camera to the LED command on
the wire to the board.

A seeded game is rendered beforehand, then played back in real time (15 frames/s); every frame
goes through the recognizer, the stabilizer, the referee and the journal, and the seat LEDs of
the simulated board (the real firmware in the MicroPython unix port) follow. For each turn the
clock starts at the capture time of the first frame showing the new table and stops when the
LED picture for the next seat is handed to the serial link. The clock starts when the cards
change, half-way through the hand's pass over the table (the hand is still there for a few
frames); the stabilizer then waits for 0.6 s of agreeing frames by design.

Run on demand: ``python benchmarks/app_latency.py [--seeds 26 13] [--players 2]``.
"""

from __future__ import annotations

import argparse
import io
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from host.board import BoardLink, SimulatedBoard
from host.board.lights import BoardLights
from host.camera_feed import CameraFeed
from host.context import AppContext
from host.journal import Journal
from host.session import Session
from host.table_loop import TableLoop
from host.tables.trains import demo_table
from host.trains.observation import TrainsObservation
from host.trains.referee import open_referee
from vision.camera import RenderedCamera
from vision.pipeline import Pipeline
from vision.trains_zones import TrainsZones


def measure(seed: int, players: int, folder: Path) -> list[float]:
    """Seconds from each new table's first frame to its LED command, for one game."""
    tables = demo_table(seed, players).lines
    camera = RenderedCamera([TrainsObservation.from_json(t) for t in tables], seed=seed)
    journal = Journal(folder / f"games-{seed}.sqlite")
    app = AppContext(out=io.StringIO(), journal=journal)
    session = Session.start("trains", tables[0], open_referee, journal, {"mode": "benchmark"})
    sent: list[float] = []
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link:
        show = link.show

        def timed_show(picture: Any, timeout: float = 3.0) -> None:
            sent.append(time.monotonic())
            show(picture, timeout)

        link.show = timed_show  # type: ignore[method-assign]
        lights = BoardLights(link)
        loop = TableLoop(session, app, "trains", "trains", lights=lights)
        feed = CameraFeed(Pipeline(deck="trains", zones=TrainsZones(players)))
        changed_at: list[float] = []
        previous = None
        frames = list(camera)  # rendered beforehand: a real camera's frames cost the app nothing
        started = time.monotonic()
        for frame in frames:
            due = started + frame.timestamp
            time.sleep(max(0.0, due - time.monotonic()))
            if frame.shown is not None and frame.shown != previous:
                if previous is not None:
                    # The cards changed half-way through the hand's pass over the table.
                    under_hand = camera.hand_frames - camera.hand_frames // 2
                    changed_at.append(due - under_hand / camera.fps)
                previous = frame.shown
            turns = session.turns
            seen = feed.read(frame)
            if seen is not None:
                loop.handle(seen, frame.timestamp)
            if session.turns != turns:
                time.sleep(0.05)  # let the lights thread hand the picture to the link
                changed_at[-1] = sent[-1] - changed_at[-1]  # latency, replacing the start time
            if loop.over:
                break
        lights.close()
    journal.close()
    return changed_at


def main() -> None:
    """Print the measurements."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, nargs="+", default=[26, 13])
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in args.seeds:
            game = measure(seed, args.players, Path(folder))
            print(
                f"seed {seed}: {len(game)} turns, latencies (s): "
                + " ".join(f"{value:.2f}" for value in game)
            )
            latencies += game
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(
        f"card change to LED command on the wire: {len(latencies)} turns, "
        f"p50 {statistics.median(latencies) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms "
        f"(the stabilizer's wait for 600 ms of agreeing frames included)"
    )


if __name__ == "__main__":
    main()
