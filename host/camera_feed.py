"""Between the camera and the game loop: frames in, table events out.

Each frame goes through the recognizer; the stabilizer reports the table only once it has been
still for a moment (a hand over the table reports nothing), and the web view gets an annotated
frame now and then so the players see what Conductor sees.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import cv2

from host.table_loop import TableLoop, TableSeen
from host.web.server import WebView
from vision.annotate import annotate
from vision.camera import CameraFrame
from vision.pipeline import Pipeline
from vision.readings import Observation
from vision.stabilizer import Stabilizer

WEB_FRAME_SECONDS = 0.5
"""How often (in the video's seconds) an annotated frame goes to the web view."""
JPEG_QUALITY = 80


class CameraFeed:
    """Reads frames of one table and reports each settled change."""

    def __init__(self, pipeline: Pipeline, web: WebView | None = None) -> None:
        self.pipeline = pipeline
        self.stabilizer: Stabilizer[Observation] = Stabilizer()
        self.web = web
        self.frames = 0
        self._published_at: float | None = None

    def read(self, frame: CameraFrame) -> TableSeen | None:
        """Take one frame; the table event it completes, if any."""
        self.frames += 1
        reading = self.pipeline.read(frame.image)
        if self.web is not None and (
            self._published_at is None or frame.timestamp - self._published_at >= WEB_FRAME_SECONDS
        ):
            ok, jpeg = cv2.imencode(
                ".jpg", annotate(frame.image, reading), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]
            )
            if ok:
                self.web.publish_frame(jpeg.tobytes())
                self._published_at = frame.timestamp
        change = self.stabilizer.feed(frame.timestamp, reading.observation)
        return None if change is None else TableSeen(change.to_json())


def watch(
    camera: Iterable[CameraFrame],
    feed: CameraFeed,
    loop: TableLoop,
    realtime: bool,
    after_table: Callable[[TableSeen, float], None] | None = None,
) -> None:
    """Run a finite camera (a video, the rendered demo) through the feed into the loop until the
    game is won or the video ends; ``realtime`` plays it at its own speed for people watching.
    ``after_table`` hears of each settled table once the loop has judged it (the demo's board
    events follow the tables they belong to)."""
    started = time.monotonic()
    for frame in camera:
        if realtime:
            time.sleep(max(0.0, frame.timestamp - (time.monotonic() - started)))
        event = feed.read(frame)
        if event is not None:
            loop.handle(event, frame.timestamp)
            if after_table is not None:
                after_table(event, frame.timestamp)
        loop.tick(frame.timestamp)
        if loop.over:
            return
