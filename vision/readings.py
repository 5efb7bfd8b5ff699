"""What the recognizer reads from one frame: the cards, where the table is, and the game's
observation the zones made of them.

A game's zones (``Zones``) get the frame as a ``TableFrame`` once the table and its cards are
read, and group the cards into the game's observation (its own typed object, with a JSON form).
The recognizer knows cards and zones; a game's rules live with its referee.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any, Protocol

import cv2
import numpy as np

from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM
from vision.imaging import Image, Matrix, Points


class Observation(Hashable, Protocol):
    """A game's observation: what its table shows at a stable moment (compared frame to frame
    by the stabilizer, written as JSON for the referee and the journal)."""

    def to_json(self) -> dict[str, Any]:
        """The game's public JSON object."""

@dataclass(frozen=True)
class CardReading:
    """One card found in a frame."""

    name: str | None
    """Its public name (``trains/42``), or None when it could not be read clearly."""
    confidence: float
    """0 to 1 (see ``vision.identify.Identity``)."""
    corners: Points
    """The card's corners in image pixels: its own top-left, top-right, bottom-right,
    bottom-left (for an unknown card, the top is a guess)."""
    table_corners: Points | None
    """The same corners in table millimetres, when the table was found."""
    card_mm: tuple[float, float] = (CARD_WIDTH_MM, CARD_HEIGHT_MM)
    """The card's width and height in millimetres: its deck's (``card_mm`` of the deck file)."""

    @property
    def centre(self) -> tuple[float, float]:
        """Centre in image pixels."""
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    def card_to_image(self) -> Matrix:
        """Homography from the card's own millimetres (origin top-left) to image pixels."""
        width, height = self.card_mm
        source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        return np.asarray(cv2.getPerspectiveTransform(source, self.corners.astype(np.float32)),
                          np.float64)

    def in_photo(self, factor: float) -> CardReading:
        """The reading of a photo shrunk by ``factor`` (``imaging.scaled_for_reading``), its
        corners put back in the photo's own pixels."""
        return replace(self, corners=self.corners / factor)

    def to_json(self) -> dict[str, object]:
        """The JSON ``conductor vision identify --json`` prints for a card."""
        x, y = self.centre
        return {"name": self.name, "confidence": round(self.confidence, 3),
                "corners": [[round(float(px), 1), round(float(py), 1)] for px, py in self.corners],
                "centre": [round(x, 1), round(y, 1)]}


@dataclass(frozen=True)
class FrameReading:
    """Everything read from one frame."""

    cards: tuple[CardReading, ...]
    """Every card found, named or not."""
    image_to_table: Matrix | None
    """Homography to table millimetres in use for this frame (maybe from an earlier frame)."""
    markers_seen: int
    """Table markers seen in this frame (0 when they were not looked for)."""
    observation: Observation | None = None
    """The game's observation, when the pipeline has zones and every zone is complete."""


@dataclass(frozen=True)
class TableFrame:
    """One frame as a game's zones see it: the table found and every card read."""

    image: Image
    """The camera's frame (BGR, or grey)."""
    grey: Image
    """The same frame in grey levels."""
    image_to_table: Matrix
    """Homography from image pixels to table millimetres."""
    cards: tuple[CardReading, ...]
    """Every card found, named or not, with its table corners."""
    marker_on_table: Callable[[int], Points | None]
    """Where another marker (a game's tile, by ArUco id) was last seen on the table."""
    reread: Callable[[int, Points, float], CardReading]
    """Card ``index`` read again leaving out the band of its face within ``half`` millimetres
    of a table point (a piece standing across it)."""


class Zones(Protocol):
    """How one game's table groups into its observation (a zone builder)."""

    def observe(self, frame: TableFrame) -> tuple[tuple[CardReading, ...], Observation | None]:
        """The cards (some read again, if a piece covered them) and the observation they make,
        or None while some zone is incomplete (a hand over the table)."""
