"""Watching a table: the recognizer, stillness and the stabilizer, frame by frame.

``TableWatcher.read(timestamp, image)`` is what an app calls for each camera frame. A frame
that moved (a hand, an arm, a shadow passing) is not read at all: nothing it shows could be
reported, and skipping it lets a slow machine catch up with the camera while players reach
over the table. A still frame is read, compared with the last settled table, and handed to the
stabilizer; a settled frame becomes the table later frames are compared with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vision.imaging import Image
from vision.pipeline import Pipeline
from vision.readings import FrameReading, Observation
from vision.stabilizer import Stabilizer
from vision.stillness import Calm, Stillness


@dataclass
class TableWatcher:
    """Turns the frames of one camera into settled observations of one table."""

    pipeline: Pipeline
    """The recognizer (deck, references, players)."""
    stabilizer: Stabilizer[Observation] = field(
        default_factory=lambda: Stabilizer[Observation](quick=fully_read))
    """Decides when a reading is reported."""
    stillness: Stillness = field(default_factory=Stillness)
    """Motion since the last frame, and what lies on the table that is not a card."""
    by_stillness: bool = True
    """Settle by stillness; False: read every frame and settle by the clock alone (the
    stabilizer's 0.6 s vote), as before stillness was judged."""
    skipped: int = 0
    """Frames not read because they moved."""

    def read(self, timestamp: float, image: Image
             ) -> tuple[FrameReading | None, Observation | None]:
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


def fully_read(observation: Observation) -> bool:
    """Every card of the observation was named (an unread card is ``null`` in every game's
    JSON). A card read as unknown may be named at the next look (the recognizer is unsure near
    its limits), so such a table is reported only once it has stood for the stabilizer's whole
    window."""
    return not _holds_null(observation.to_json())


def _holds_null(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_holds_null(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_holds_null(item) for item in value)
    return False
