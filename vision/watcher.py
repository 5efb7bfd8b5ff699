"""Watching a table: the recognizer, stillness and the stabilizer, frame by frame.

``TableWatcher.read(timestamp, image)`` is what an app calls for each camera frame. A frame
that moved (a hand, an arm, a shadow passing) is not read at all: nothing it shows could be
reported, and skipping it lets a slow machine catch up with the camera while players reach
over the table. A still frame is read, compared with the last settled table, and handed to the
stabilizer; a settled frame becomes the table later frames are compared with.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.imaging import Image
from vision.observation import TableObservation, TrainsObservation
from vision.pipeline import FrameReading, Pipeline
from vision.stabilizer import Stabilizer
from vision.stillness import Calm, Stillness


@dataclass
class TableWatcher:
    """Turns the frames of one camera into settled observations of one table."""

    pipeline: Pipeline
    """The recognizer (deck, references, players)."""
    stabilizer: Stabilizer[TableObservation] = field(
        default_factory=lambda: Stabilizer[TableObservation](quick=fully_read))
    """Decides when a reading is reported."""
    stillness: Stillness = field(default_factory=Stillness)
    """Motion since the last frame, and what lies on the table that is not a card."""
    by_stillness: bool = True
    """Settle by stillness; False: read every frame and settle by the clock alone (the
    stabilizer's 0.6 s vote), as before stillness was judged."""
    skipped: int = 0
    """Frames not read because they moved."""

    def read(self, timestamp: float, image: Image
             ) -> tuple[FrameReading | None, TableObservation | None]:
        """One frame: what was read of it (None for a moving frame, which is not read) and the
        settled observation it reports, if any."""
        if not self.by_stillness:
            read = self.pipeline.read(image)
            return read, self.stabilizer.feed(timestamp, read.observation)
        moving = self.stillness.motion(image, self.pipeline.table.homography)
        reading: FrameReading | None = None
        calm = Calm(moving, None)
        if not calm.quiet:
            self.skipped += 1
        else:
            reading = self.pipeline.read(image)
            calm = Calm(moving, self.stillness.foreign([card.corners for card in reading.cards]))
        change = self.stabilizer.feed(timestamp, None if reading is None
                                      else reading.observation, calm)
        if self.stabilizer.settled and reading is not None:
            self.stillness.keep([card.corners for card in reading.cards])
        return reading, change


def fully_read(observation: TableObservation) -> bool:
    """Every card of the observation was named. A card read as unknown may be named at the next
    look (the recognizer is unsure near its limits), so such a table is reported only once it
    has stood for the stabilizer's whole window. (A Rollecate table with an unread card is no
    observation at all.)"""
    if isinstance(observation, TrainsObservation):
        return (None not in observation.faceup
                and all(None not in line for line in observation.lines))
    return True
