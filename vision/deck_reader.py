"""Reading the cards of any enrolled deck in a frame: outlines found (``vision.outline``), then
named from their whole faces (``vision.recognize``), frame after frame.

A card lying still keeps its name without being read again: its outline has not moved (1.5 mm,
1.5 degrees) and its pixels have not changed (as ``vision.pipeline`` decides for our framed
cards). An outline that matches no enrolled card at all (``CARD_SCORE``) is not a card: a
cloth's pattern or a hand's edge that happened to look like a card's outline.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.imaging import Image, Matrix, Points, transform_points
from vision.outline import Outline, OutlineFinder, apart, raw_outlines
from vision.recognize import CARD_SCORE, CardReferences, Reading

CANDIDATE_OVERLAP = 0.6
"""Overlap (share of a card) of outlines that are all named before the better is kept."""
STILL_MM = 1.5
"""A card whose outline moved less than this since the last frame has not moved."""
STILL_DEGREES = 1.5
"""...nor turned more than this."""
STILL_GREY = 6.0
"""Mean grey-level change of a card's pixels below which it shows the same card."""
STILL_PEAK = 25.0
"""...and the change of its most changed spots (99.5th percentile after a 3 x 3 blur), below
which no stroke appeared or vanished (a number changed in a corner)."""
STILL_FRAME = (320, 180)
"""Size the whole frame is shrunk to (4 x 4 pixel blocks at 1280 x 720) to see whether
anything at all changed since the last frame searched."""
STILL_FRAME_GREY = 10.0
"""Largest block change (grey levels) of a frame in which nothing changed: sensor noise and
JPEG stay below it; a card laid, taken or turned, a hand, or a corner index changed exceed it."""
STILL_PX_PER_MM = 1.0
"""Resolution of the picture kept to see whether a card changed."""


@dataclass(frozen=True)
class SeenCard:
    """A card read in a frame."""

    reading: Reading
    """Its name (or None), confidence and way round."""
    corners: Points
    """Its own corners in image pixels (top-left first, by its name's way round)."""
    table_corners: Points | None
    """The same in table millimetres, when the table is known."""
    outline: Outline | None = field(default=None, repr=False)
    """The outline it was found as (None on the raw view)."""
    look: Image | None = field(default=None, repr=False)
    """Its grey picture at ``STILL_PX_PER_MM``, to see whether it changed."""


@dataclass
class DeckReader:
    """Finds and names the cards of one enrolled deck, frame after frame."""

    references: CardReferences
    """The enrolled faces."""
    finder: OutlineFinder = field(init=False)
    _last: list[SeenCard] = field(default_factory=list, repr=False)
    _last_frame: tuple[Image, Matrix] | None = field(default=None, repr=False)
    """The last frame searched (shrunk, grey) and its homography."""

    def __post_init__(self) -> None:
        self.finder = OutlineFinder(self.references.card_mm)

    def read(self, frame: Image, image_to_table: Matrix | None) -> list[SeenCard]:
        """Every card in a BGR frame (``image_to_table``: the table's homography, if known)."""
        colour = frame if frame.ndim == 3 else np.asarray(
            cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), np.uint8)
        cards: list[SeenCard] = []
        if image_to_table is None:
            for corners in raw_outlines(colour, self.references.card_mm):
                reading = self.references.read(colour, corners)
                if reading.score >= CARD_SCORE:
                    cards.append(SeenCard(reading, _turn(reading.corners, reading.turned), None))
            self._last, self._last_frame = [], None
            return cards
        shrunk = np.asarray(cv2.resize(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), STILL_FRAME,
                                       interpolation=cv2.INTER_AREA), np.uint8)
        if (self._last_frame is not None
                and np.array_equal(self._last_frame[1], image_to_table)
                and float(cv2.absdiff(shrunk, self._last_frame[0]).max()) <= STILL_FRAME_GREY):
            return self._last  # nothing moved anywhere: the same cards, the same names
        self._last_frame = (shrunk, image_to_table)
        to_image = np.asarray(np.linalg.inv(image_to_table), np.float64)
        # Outlines that overlap much are all named, then the better named kept: along a line
        # of touching cards an outline straddling two can fit the edges as well as the true
        # one, but not a reference's picture.
        for outline in self.finder.find(colour, image_to_table, CANDIDATE_OVERLAP):
            corners = transform_points(to_image, outline.corners)
            look = np.asarray(cv2.cvtColor(self.references.sample(
                colour, corners, STILL_PX_PER_MM), cv2.COLOR_BGR2GRAY), np.uint8)
            reading = self._remembered(outline, look) or self.references.read(colour, corners)
            if reading.score < CARD_SCORE:
                continue
            placed = reading.corners
            cards.append(SeenCard(reading, _turn(placed, reading.turned),
                                  _turn(transform_points(image_to_table, placed), reading.turned),
                                  outline, look))
        cards = [cards[index] for index in apart(
            [card.table_corners for card in cards if card.table_corners is not None],
            [card.reading.score for card in cards], self.references.card_mm)]
        self._last = cards
        return cards

    def _remembered(self, outline: Outline, look: Image) -> Reading | None:
        for card in self._last:
            before = card.outline
            if before is None or card.look is None:
                continue
            moved = float(np.hypot(*np.subtract(outline.centre, before.centre)))
            turned = abs((outline.degrees - before.degrees + 90.0) % 180.0 - 90.0)
            if moved > STILL_MM or turned > STILL_DEGREES or card.look.shape != look.shape:
                continue
            change = cv2.absdiff(card.look, look)
            peak = float(np.percentile(cv2.blur(change, (3, 3)), 99.5))
            if float(change.mean()) <= STILL_GREY and peak <= STILL_PEAK:
                # An outline's corners start from its turn modulo 180 degrees: across 0/180
                # they start at the other end.
                wrapped = abs(outline.degrees - before.degrees) > 90.0
                return replace(card.reading, turned=card.reading.turned != wrapped)
        return None


def _turn(corners: Points, turned: bool) -> Points:
    return np.roll(corners, 2, axis=0) if turned else corners
