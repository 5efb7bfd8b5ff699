"""The recognizer's frame loop: table, cards, identities and zones (The Game of Trains,
Rollecate).

``Pipeline.read(frame)`` turns one camera frame into a ``FrameReading``; a ``Stabilizer`` then
decides when the table has settled (see ``vision.stabilizer``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.deck_reader import DeckReader
from vision.detect import FoundCard, find_cards, window_to_image
from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM, WINDOW_HEIGHT_MM
from vision.identify import Identity, References, rendered_references
from vision.imaging import Image, Matrix, Points, grey, transform_points
from vision.markers import TableFinder
from vision.observation import TableObservation
from vision.recognize import CardReferences
from vision.rollecate_table import START_MARKER_ID, TRAIN_SIZE_MM
from vision.train_piece import find_train

STILL_PIXELS = 1.5
"""A window whose corners moved less than this since the last frame has not moved."""
STILL_GREY = 6.0
"""Mean grey-level change of a window below which it shows the same card as last frame."""
STILL_PEAK = 25.0
"""...and the change in its most changed spots (the 99.5th percentile, after a 3x3 blur that
averages sensor noise away) below which no stroke appeared or vanished: a card swapped for one
whose number differs in a single digit changes only a few percent of the window, too little for
the mean, but its strokes change by over 100 grey levels."""

TRAIN_MARGIN_MM = 7.0
"""Rows either side of the train's body also left out when reading the card it stands on: its
wheels stick out at the sides, and it casts a shadow."""


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

    @property
    def centre(self) -> tuple[float, float]:
        """Centre in image pixels."""
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    def card_to_image(self) -> Matrix:
        """Homography from the card's own millimetres (origin top-left) to image pixels."""
        source = np.array([[0, 0], [CARD_WIDTH_MM, 0], [CARD_WIDTH_MM, CARD_HEIGHT_MM],
                           [0, CARD_HEIGHT_MM]], np.float32)
        return np.asarray(cv2.getPerspectiveTransform(source, self.corners.astype(np.float32)),
                          np.float64)

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
    observation: TableObservation | None = None
    """The game's observation (``trains`` and ``rollecate`` decks), when every zone is
    complete."""


@dataclass
class Pipeline:
    """Reads frames of one table with one deck.

    ``players``: seats at the table (2-4), or None to infer them from the lines laid out.
    ``marker_every``: look for the markers every this many frames (the camera stands still;
    between looks, and while markers are covered, the last good homography is used).
    """

    deck: str = "trains"
    """Deck the cards come from."""
    references: References | CardReferences | None = None
    """Enrolled references: our framed faces' windows (``References``; by default Conductor's
    own rendered faces of ``deck``) or any deck's whole faces (``CardReferences``)."""
    players: int | None = None
    """Number of seats for the zones (None: infer; Rollecate's zones need it)."""
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

    def __post_init__(self) -> None:
        if self.references is None:
            self.references = rendered_references(self.deck)
        if isinstance(self.references, CardReferences):
            self._deck_reader = DeckReader(self.references)

    def read(self, frame: Image) -> FrameReading:
        """Read one BGR (or grey) frame."""
        from vision.rollecate_zones import covered_piles, rollecate_observation, seat_of
        from vision.zones import trains_observation

        assert self.references is not None
        markers = 0
        if self.table.homography is None or self.frames % self.marker_every == 0:
            self.table.update(frame)
            markers = self.table.seen
        self.frames += 1
        to_table = self.table.homography
        grey_frame = grey(frame)
        cards = []
        seen = []
        if self._deck_reader is not None:
            cards = [CardReading(card.reading.name, card.reading.confidence, card.corners,
                                 card.table_corners)
                     for card in self._deck_reader.read(frame, to_table)]
        for found in find_cards(grey_frame, to_table) if self._deck_reader is None else ():
            assert isinstance(self.references, References)
            identity = self._remembered(found) or self.references.identify(found.patch)
            seen.append((found, identity))
            corners = found.card_corners(identity.turned)
            table_corners = transform_points(to_table, corners) if to_table is not None else None
            cards.append(CardReading(identity.name, identity.confidence, corners, table_corners))
        self._seen = seen
        observation: TableObservation | None = None
        if self.deck == "trains" and to_table is not None:
            observation = trains_observation(cards, grey_frame, self.players)
        elif self.deck == "rollecate" and to_table is not None and self.players is not None:
            train = find_train(frame, to_table, [
                card.table_corners for card in cards if card.table_corners is not None
                and seat_of(card.table_corners.mean(axis=0), self.players) is None])
            if train is not None and seen:
                cards = [self._under_train(found, card, train, to_table)
                         for (found, _), card in zip(seen, cards, strict=True)]
            observation = rollecate_observation(
                cards, self.players, train, self.table.on_table(START_MARKER_ID),
                covered_piles(frame, to_table, self.players, cards))
        return FrameReading(tuple(cards), to_table, markers, observation)

    def _under_train(self, found: FoundCard, card: CardReading, train: Points,
                     to_table: Matrix) -> CardReading:
        """``card`` read again without the band of its window the train stands on, if it does.

        The train stands on the rails, across the card, so it hides a band of rows.
        """
        from vision.rollecate_zones import lies_on

        assert isinstance(self.references, References)
        if card.table_corners is None or not lies_on(train, card.table_corners):
            return card
        to_window = np.linalg.inv(window_to_image(found.window)) @ np.linalg.inv(to_table)
        row = float(transform_points(to_window, train[None, :])[0, 1]) / WINDOW_HEIGHT_MM
        half = (TRAIN_SIZE_MM[1] / 2 + TRAIN_MARGIN_MM) / WINDOW_HEIGHT_MM
        identity = self.references.identify(found.patch, (row - half, row + half))
        corners = found.card_corners(identity.turned)
        return CardReading(identity.name, identity.confidence, corners,
                           transform_points(to_table, corners))

    def _remembered(self, found: FoundCard) -> Identity | None:
        """Last frame's identity of a card whose window has neither moved nor changed."""
        for previous, identity in self._seen:
            if np.abs(previous.window - found.window).max() > STILL_PIXELS:
                continue
            change = np.abs(previous.patch.astype(np.int16) - found.patch).astype(np.uint8)
            peak = float(np.percentile(cv2.blur(change, (3, 3)), 99.5))
            if float(change.mean()) <= STILL_GREY and peak <= STILL_PEAK:
                return identity
        return None
