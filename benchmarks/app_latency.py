"""Latency of the whole app: from a card change in front of the camera to the LED command on
the wire to the board, and where the time goes.

A seeded game is rendered beforehand as a 30 frames/s video (each table still for 0.8 s, then
a hand over the table for 0.4 s while the cards change half-way through), then played back in
real time; every frame the app takes goes through the recognizer, stillness, the stabilizer,
the referee and the journal, and the seat LEDs of the simulated board (the real firmware in
the MicroPython unix port) follow. Like a webcam read by a busy program, the app always takes
the newest frame: frames that came while it was busy are dropped.

Each turn is timed from two starts: the card change (half-way through the hand's pass, as this
benchmark always did) and the hand gone (the first frame showing the new table bare: what
Conductor can act on). The stop is the LED picture for the next seat handed to the serial
link. Between them:

- hand: the hand still over the table after the cards changed (0.2 s, the player's);
- settle: from the first bare frame to the frame that settled the table;
- behind: from that frame's capture to the recognizer's verdict on it (reading it, and the
  frames the app was still busy with);
- referee: judging the table and writing the journal;
- LEDs: the lights thread handing the picture to the link.

``--by clock`` runs the stabilizer as it was before stillness (every frame read, 0.6 s of
agreeing frames) for comparison.

Run on demand: ``python benchmarks/app_latency.py [--seeds 26 13] [--players 2]
[--by stillness|clock] [--fps 30] [--scale 1.5]`` (``--scale 1.5``: a 1920 x 1080 webcam,
``vision.scene.camera_scale``).
"""

from __future__ import annotations

import argparse
import io
import statistics
import tempfile
import time
from dataclasses import dataclass
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
from vision.scene import camera_scale
from vision.trains_zones import TrainsZones
from vision.watcher import TableWatcher

STILL_SECONDS = 0.8
"""How long each table stands still in the video."""
HAND_SECONDS = 0.4
"""How long the hand is over the table while the cards change."""


@dataclass
class Turn:
    """Times (seconds of the video's clock) of one turn's way from the cards to the LEDs."""

    changed: float
    bare: float
    settled: float = 0.0
    read: float = 0.0
    judged: float = 0.0
    sent: float = 0.0


@dataclass
class Run:
    """One game's turns and how the app kept up."""

    turns: list[Turn]
    frames: int
    taken: int
    skipped: int
    busy: list[float]


def measure(seed: int, players: int, folder: Path, by: str, fps: float) -> Run:
    """Play one seeded game to the app in real time."""
    tables = demo_table(seed, players).lines
    hand_frames = round(HAND_SECONDS * fps)
    camera = RenderedCamera([TrainsObservation.from_json(t) for t in tables], seed=seed,
                            still_frames=round(STILL_SECONDS * fps), hand_frames=hand_frames,
                            fps=fps)
    journal = Journal(folder / f"games-{seed}-{by}.sqlite")
    app = AppContext(out=io.StringIO(), journal=journal)
    session = Session.start("trains", tables[0], open_referee, journal, {"mode": "benchmark"})
    sent: list[float] = []
    frames = list(camera)  # rendered beforehand: a real camera's frames cost the app nothing
    # The truth of each turn: where the cards changed and where the hand left.
    pending = [Turn(frames[index].timestamp - (hand_frames - hand_frames // 2) / fps,
                    frames[index].timestamp)
               for index in range(1, len(frames))
               if frames[index].shown is not None and frames[index - 1].shown is None]
    turns: list[Turn] = []
    busy: list[float] = []
    taken = 0
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link:
        show = link.show
        started = 0.0

        def timed_show(picture: Any, timeout: float = 3.0) -> None:
            sent.append(time.monotonic() - started)
            show(picture, timeout)

        link.show = timed_show  # type: ignore[method-assign]
        lights = BoardLights(link)
        loop = TableLoop(session, app, "trains", "trains", lights=lights)
        pipeline = Pipeline(deck="trains", zones=TrainsZones(players))
        feed = CameraFeed(pipeline)
        feed.watcher = TableWatcher(pipeline, by_stillness=by == "stillness")
        started = time.monotonic()
        index = 0
        while index < len(frames) and not loop.over:
            now = time.monotonic() - started
            if frames[index].timestamp > now:
                time.sleep(frames[index].timestamp - now)
                now = frames[index].timestamp
            while index + 1 < len(frames) and frames[index + 1].timestamp <= now:
                index += 1  # the app was busy: that frame is gone, a newer one is there
            frame = frames[index]
            index += 1
            taken += 1
            before = session.turns
            seen = feed.read(frame)
            read = time.monotonic() - started
            busy.append(read - max(now, frame.timestamp))
            if seen is not None:
                loop.handle(seen, frame.timestamp)
            if session.turns != before:
                turn = [t for t in pending if t.bare <= frame.timestamp][-1]
                turn.settled, turn.read = frame.timestamp, read
                turn.judged = time.monotonic() - started
                turns.append(turn)
        time.sleep(0.3)  # the last picture's way to the link
        lights.close()
    journal.close()
    for turn in turns:
        turn.sent = min((t for t in sent if t >= turn.judged - 1e-3), default=float("nan"))
    return Run(turns, len(frames), taken, feed.watcher.skipped, busy)


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


def main() -> None:
    """Print the measurements."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, nargs="+", default=[26, 13])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--by", choices=["stillness", "clock"], default="stillness")
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    if not 0.25 <= args.scale <= 4:
        parser.error("--scale takes 0.25-4")
    camera_scale(args.scale)
    turns: list[Turn] = []
    busy: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in args.seeds:
            run = measure(seed, args.players, Path(folder), args.by, args.fps)
            print(f"seed {seed}: {len(run.turns)} turns; frames {run.frames}, taken {run.taken}, "
                  f"not read (moving) {run.skipped}; latency from the change (s): "
                  + " ".join(f"{t.sent - t.changed:.2f}" for t in run.turns))
            turns += run.turns
            busy += run.busy
    parts = {
        "hand": [t.bare - t.changed for t in turns],
        "settle": [t.settled - t.bare for t in turns],
        "behind": [t.read - t.settled for t in turns],
        "referee": [t.judged - t.read for t in turns],
        "LEDs": [t.sent - t.judged for t in turns],
    }
    for start, name in (("changed", "card change"), ("bare", "hand gone")):
        values = [t.sent - getattr(t, start) for t in turns]
        print(f"{name} to LED command on the wire ({args.by}, {args.fps:g} fps): {len(values)} "
              f"turns, p50 {statistics.median(values) * 1000:.0f} ms, "
              f"p95 {percentile(values, 0.95) * 1000:.0f} ms")
    print("where the time goes, p50 / p95 (ms): " + ", ".join(
        f"{name} {statistics.median(v) * 1000:.0f} / {percentile(v, 0.95) * 1000:.0f}"
        for name, v in parts.items()))
    print(f"per frame taken, from its capture (or the app's return to the camera) to its "
          f"verdict: p50 {statistics.median(busy) * 1000:.0f} ms, "
          f"p95 {percentile(busy, 0.95) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
