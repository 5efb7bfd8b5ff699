"""The recognizer's frame loop: table, cards, identities, then the game's zones.

``Pipeline.read(frame)`` turns one camera frame into a ``FrameReading``; the zones it was given
(``vision.readings.Zones``, one builder per game) group the cards into the game's observation;
a ``Stabilizer`` then decides when the table has settled (see ``vision.stabilizer``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.calibration import EmptyTable
from vision.deck_reader import DeckReader
from vision.detect import THRESHOLD, FoundCard, Threshold, find_cards, window_to_image
from vision.faces import WINDOW_HEIGHT_MM
from vision.identify import Identity, References, rendered_references
from vision.imaging import Image, Matrix, Points, frame_px, grey, transform_points
from vision.markers import TableFinder
from vision.readings import CardReading, FrameReading, Observation, TableFrame, Zones
from vision.recognize import CardReferences

STILL_PIXELS = 1.5
"""A window whose corners moved less than this since the last frame has not moved (pixels of a
1280 x 720 frame; as many more as a frame is wider)."""
STILL_GREY = 6.0
"""Mean grey-level change of a window below which it shows the same card as last frame."""
STILL_PEAK = 25.0
"""...and the change in its most changed spots (the 99.5th percentile, after a 3x3 blur that
averages sensor noise away) below which no stroke appeared or vanished: a card swapped for one
whose number differs in a single digit changes only a few percent of the window, too little for
the mean, but its strokes change by over 100 grey levels."""


@dataclass
class Pipeline:
    """Reads frames of one table with one deck.

    ``marker_every``: look for the markers every this many frames (the camera stands still;
    between looks, and while markers are covered, the last good homography is used).
    """

    deck: str = "trains"
    """Deck the cards come from."""
    zones: Zones | None = None
    """The game's zone builder, making its observation of the cards (None: cards only)."""
    references: References | CardReferences | None = None
    """Enrolled references: our framed faces' windows (``References``; by default Conductor's
    own rendered faces of ``deck``) or any deck's whole faces (``CardReferences``)."""
    thresholds: tuple[Threshold, ...] = (THRESHOLD,)
    """The local thresholds cards are looked for with (``vision.detect.find_cards``): the
    first alone, and all of them when the zones find the table unclear with the first."""
    marker_every: int = 3
    """Frames between looks for the table markers."""
    table: TableFinder = field(default_factory=TableFinder)
    """Keeps the table's homography across frames."""
    frames: int = 0
    """Frames read so far."""
    _seen: list[tuple[FoundCard, Identity]] = field(default_factory=list, repr=False)
    """Last frame's cards, so a card lying still is not identified afresh every frame."""

    _deck_reader: DeckReader | None = field(default=None, repr=False)
    """Finds and names cards by their outline, for whole-face references."""
    _empty_table: tuple[EmptyTable, Callable[[str], None]] | None = field(default=None,
                                                                          repr=False)
    """The calibrated empty table, and who is told when a frame's camera is not the one
    calibrated."""
    _fitted: tuple[int, ...] = field(default=(), repr=False)
    """The frame size the empty table was last learnt or left out for."""

    def __post_init__(self) -> None:
        if self.references is None:
            self.references = rendered_references(self.deck)
        if isinstance(self.references, CardReferences):
            self._deck_reader = DeckReader(self.references)

    def learn_cloth(self, empty: Image) -> bool:
        """Look at the empty table once (a BGR frame, markers in view): an enrolled deck's
        cards are then also found where the frame differs from its cloth, so a card of the
        cloth's colour shows its outline. False (nothing learnt) without markers or for our
        framed faces, which are found by their frame line."""
        to_table = TableFinder().update(empty)
        if to_table is None or self._deck_reader is None:
            return False
        self._deck_reader.finder.learn_cloth(empty, to_table)
        return True

    def use_empty_table(self, empty: EmptyTable, warn: Callable[[str], None]) -> bool:
        """Read with the empty table ``vision calibrate`` kept (as ``learn_cloth``), except
        frames from another camera than the one calibrated (``warn`` is told why, once a
        frame size). False (nothing to learn) for our framed faces, found by their frame
        line."""
        if self._deck_reader is None:
            return False
        self._empty_table = (empty, warn)
        return True

    def read(self, frame: Image) -> FrameReading:
        """Read one BGR (or grey) frame."""
        assert self.references is not None
        markers = 0
        if self.table.homography is None or self.frames % self.marker_every == 0:
            self.table.update(frame)
            markers = self.table.seen
        self.frames += 1
        to_table = self.table.homography
        if self._empty_table is not None and frame.shape[:2] != self._fitted:
            self._fit_empty_table(frame)
        grey_frame = grey(frame)
        reading = self._read_cards(frame, grey_frame, to_table, markers, self.thresholds[:1])
        if reading.observation is None and to_table is not None and len(self.thresholds) > 1:
            # The other thresholds find cards the first misses, more slowly: only for a table
            # the first leaves unclear.
            reading = self._read_cards(frame, grey_frame, to_table, markers, self.thresholds)
        return reading

    def _fit_empty_table(self, frame: Image) -> None:
        """Learn the calibrated empty table if ``frame`` comes from the camera it was seen
        with; otherwise say why not and read without it."""
        assert self._empty_table is not None and self._deck_reader is not None
        empty, warn = self._empty_table
        self._fitted = frame.shape[:2]
        finder = self._deck_reader.finder
        unfit = empty.unfit(frame)
        if unfit is None:
            finder.learn_cloth(empty.image, empty.image_to_table)
        else:
            finder.cloth = None
            warn(f"calibration left out: {empty.path} was {unfit}")

    def _read_cards(self, frame: Image, grey_frame: Image, to_table: Matrix | None,
                    markers: int, thresholds: tuple[Threshold, ...]) -> FrameReading:
        """The frame's cards found with ``thresholds``, named, and the zones' observation."""
        assert self.references is not None
        cards = []
        seen = []
        if self._deck_reader is not None:
            card_mm = self._deck_reader.references.card_mm
            cards = [CardReading(card.reading.name, card.reading.confidence, card.corners,
                                 card.table_corners, card_mm)
                     for card in self._deck_reader.read(frame, to_table)]
        for found in (find_cards(grey_frame, to_table, thresholds)
                      if self._deck_reader is None else ()):
            assert isinstance(self.references, References)
            identity = (self._remembered(found, frame_px(STILL_PIXELS, frame.shape[1]))
                        or self.references.identify(found.patch))
            seen.append((found, identity))
            corners = found.card_corners(identity.turned)
            table_corners = transform_points(to_table, corners) if to_table is not None else None
            cards.append(CardReading(identity.name, identity.confidence, corners, table_corners))
        self._seen = seen
        observation: Observation | None = None
        readings = tuple(cards)
        if self.zones is not None and to_table is not None:
            table_frame = TableFrame(
                frame, grey_frame, to_table, readings, self.table.on_table,
                # Only a framed card's window can be read again without a band; a whole-face
                # reading stays as it was.
                lambda index, point, half: (self._reread(seen[index][0], point, half, to_table)
                                            if seen else cards[index]))
            readings, observation = self.zones.observe(table_frame)
        return FrameReading(readings, to_table, markers, observation)

    def _reread(self, found: FoundCard, point: Points, half: float, to_table: Matrix
                ) -> CardReading:
        """``found`` read again without the band of its window within ``half`` millimetres of
        a table point (a piece standing across the card hides those rows)."""
        assert isinstance(self.references, References)
        to_window = np.linalg.inv(window_to_image(found.window)) @ np.linalg.inv(to_table)
        row = float(transform_points(to_window, point[None, :])[0, 1]) / WINDOW_HEIGHT_MM
        band = half / WINDOW_HEIGHT_MM
        identity = self.references.identify(found.patch, (row - band, row + band))
        corners = found.card_corners(identity.turned)
        return CardReading(identity.name, identity.confidence, corners,
                           transform_points(to_table, corners))

    def _remembered(self, found: FoundCard, still_px: float) -> Identity | None:
        """Last frame's identity of a card whose window has neither moved (``still_px``) nor
        changed."""
        for previous, identity in self._seen:
            if np.abs(previous.window - found.window).max() > still_px:
                continue
            change = np.abs(previous.patch.astype(np.int16) - found.patch).astype(np.uint8)
            peak = float(np.percentile(cv2.blur(change, (3, 3)), 99.5))
            if float(change.mean()) <= STILL_GREY and peak <= STILL_PEAK:
                return identity
        return None
