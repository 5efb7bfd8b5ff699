"""Stillness: has the table stopped moving, and is nothing but cards lying on it?

Each frame is shrunk (to ``SHRUNK_WIDTH`` pixels wide, a quarter of 1280 x 720 and a sixth of 1920
x 1080: the same picture of the table whatever the camera's resolution, and averaging most of the
sensor's noise away) and compared in colour with the frame before it: pixels that changed by more
than the noise are motion. The noise is measured in the same comparison (most of the table is
always still, so the median change is the noise), so no camera needs calibrating. Global changes of
light (a webcam's exposure, a lamp's flicker) scale every pixel alike and are taken out first.

Motion alone cannot tell a hand that stopped over the table from a settled table, so each frame
is also compared with the last frame on which the table was settled (``keep``): whatever
differs there, outside the cards found in either frame, is something that is not a card (a
hand, an arm, a shadow) and the table is not clear. A card laid, taken or swapped changes the
picture only where a card lies now or lay then. Nor is the table clear when a card of the
settled table was not found although the picture where it lay has not changed: the recognizer
lost it for a moment, and the reading is not to be trusted at once.

Only the table (the play area the markers span, and a margin round it) is watched: people
moving behind the table do not hold the game up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.imaging import Image, Matrix, Points, transform_points
from vision.table import TABLE_HEIGHT_MM, TABLE_WIDTH_MM

SHRUNK_WIDTH = 320
"""Width frames are compared at (a quarter of 1280 x 720; the height keeps the frame's shape):
the margins below, in shrunk pixels, then cover as much of the table at any resolution."""
NOISE_FACTOR = 6.0
"""A pixel changed if it changed by more than this many times the frame's typical change (after
averaging with its neighbours, sensor noise and JPEG stay below five times)."""
MIN_CHANGE = 3.0
"""...and by at least this many grey levels (a very clean sensor's typical change is near
zero)."""
MOVING_SHARE = 0.001
"""Share of the table's pixels that must change between two frames for the table to be moving
(a hand or an arm covers 1-10 %, one changed card about 0.5 %, noise at most 0.03 %)."""
FOREIGN_SHARE = 0.001
"""Share of the table's pixels, outside every card, that may differ from the settled table
before something is taken to lie over it."""
LOST_CARD_CHANGE = 0.1
"""A card of the settled table that a frame did not find, where less than this share of its
picture changed, is still there: the recognizer lost it."""
CARD_MARGIN = 2
"""Shrunk pixels round each card that are also the card's (its shadow, its rounded corners)."""
TABLE_MARGIN_MM = 90.0
"""How far beyond the markers' centres the watched table reaches (the markers themselves, the
lines' outer edges and the cards' shadows)."""


@dataclass(frozen=True)
class Calm:
    """What one frame says about the table's stillness."""

    moving: float
    """Share of the table's pixels that changed since the previous frame (1 on the first)."""
    foreign: float | None
    """Share of the table's pixels, outside the cards, that differ from the last settled table;
    None until the table has settled once, or when the frame's cards were not looked at."""

    @property
    def quiet(self) -> bool:
        """The frame is the previous one again, up to the sensor's noise."""
        return self.moving <= MOVING_SHARE

    @property
    def clear(self) -> bool:
        """Nothing but cards differs from the last settled table."""
        return self.foreign is not None and self.foreign <= FOREIGN_SHARE


def shrink_factor(width: int) -> float:
    """How many times smaller each way a frame ``width`` pixels wide is compared at."""
    return max(1.0, width / SHRUNK_WIDTH)


def shrink(image: Image) -> np.ndarray:
    """The frame at the scale stillness is judged at, as float32 BGR.

    Halved in 8 bits, then in floats: rounding a quarter-size picture to whole grey levels
    would hide the noise the thresholds are measured against.
    """
    if image.ndim == 2:
        image = np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    height, width = image.shape[:2]
    half = cv2.resize(image, (max(1, width // 2), max(1, height // 2)),
                      interpolation=cv2.INTER_AREA)
    factor = shrink_factor(width)
    size = (max(1, round(width / factor)), max(1, round(height / factor)))
    return np.asarray(cv2.resize(half.astype(np.float32), size, interpolation=cv2.INTER_AREA),
                      np.float32)


def changed(now: np.ndarray, then: np.ndarray) -> np.ndarray:
    """Pixels that changed between two shrunk frames by more than the sensor's noise, once the
    light's change is taken out."""
    # The light's change (a webcam's exposure, a lamp): each colour's median ratio, over every
    # third pixel each way (as good as all of them, a ninth of the work); most of the table
    # stands still, and a brighter light brightens the cards more than the cloth.
    sample_now, sample_then = now[::3, ::3].reshape(-1, 3), then[::3, ::3].reshape(-1, 3)
    gain = np.median(sample_now / np.maximum(sample_then, 1.0), axis=0)
    difference = cv2.subtract(now, cv2.transform(then, np.diag(gain).astype(np.float32)))
    # Neighbours averaged: noise largely cancels, anything the size of a finger does not.
    blue, green, red = cv2.split(np.abs(cv2.blur(difference, (3, 3))))
    change = cv2.max(cv2.max(blue, green), red)
    threshold = max(MIN_CHANGE, NOISE_FACTOR * float(np.median(change[::3, ::3])))
    return np.asarray(change > threshold, bool)


@dataclass
class Stillness:
    """Follows frames of one camera; ``look`` at each frame, ``keep`` the settled ones."""

    _previous: np.ndarray | None = field(default=None, repr=False)
    _last: np.ndarray | None = field(default=None, repr=False)
    _settled: np.ndarray | None = field(default=None, repr=False)
    _settled_cards: np.ndarray | None = field(default=None, repr=False)
    _settled_corners: list[Points] = field(default_factory=list, repr=False)
    _region: np.ndarray | None = field(default=None, repr=False)
    _region_of: Matrix | None = field(default=None, repr=False)
    _factor: float = field(default=4.0, repr=False)
    """``shrink_factor`` of the frame last given to ``motion`` (frames of another size may
    shrink to the same shape)..."""
    _settled_factor: float = field(default=4.0, repr=False)
    """...and of the settled one."""

    def motion(self, image: Image, image_to_table: Matrix | None = None) -> float:
        """Share of the table's pixels that changed since the previous frame (1 for the first
        frame, a frame of another size, an empty one). ``image_to_table`` (when known) says
        where the table is; without it the whole frame is watched."""
        if image.size == 0:
            return 1.0
        small = shrink(image)
        factor, self._factor = self._factor, shrink_factor(image.shape[1])
        previous, self._previous, self._last = self._previous, small, small
        region = self._table_region(small.shape[:2], image_to_table)
        if previous is None or previous.shape != small.shape or factor != self._factor:
            return 1.0
        moved = changed(small, previous)
        return _share(moved, region)

    def foreign(self, cards: Sequence[Points]) -> float | None:
        """For the frame last given to ``motion``, whose cards (corners in image pixels) are
        ``cards``: share of the table's pixels that differ from the settled table outside those
        cards and the settled table's, or that lie under a card of the settled table this frame
        missed although the picture there has not changed (a card the recognizer lost for a
        frame, not a card taken away). None before any frame was kept."""
        if self._settled is None or self._last is None or self._settled_cards is None:
            return None
        if self._settled.shape != self._last.shape or self._settled_factor != self._factor:
            return None
        differs = changed(self._last, self._settled)
        covered = self._settled_cards | _card_mask(self._last.shape[:2], cards, self._factor)
        region = self._region if self._region is not None else np.ones_like(covered)
        unexplained = differs & ~covered
        centres = [corners.mean(axis=0) for corners in cards]
        for corners in self._settled_corners:
            outline = np.round(corners).astype(np.float32).reshape(-1, 1, 2)
            if any(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0
                   for x, y in centres):
                continue
            under = _card_mask(self._last.shape[:2], [corners], self._factor, margin=0)
            if np.count_nonzero(differs & under) < LOST_CARD_CHANGE * np.count_nonzero(under):
                unexplained |= under
        return _share(unexplained, region)

    def look(self, image: Image, cards: Sequence[Points], image_to_table: Matrix | None = None
             ) -> Calm:
        """``motion`` then ``foreign`` for one frame whose cards are known."""
        moving = self.motion(image, image_to_table)
        return Calm(moving, self.foreign(cards))

    def keep(self, cards: Sequence[Points]) -> None:
        """The frame last given to ``motion`` shows the table settled, with these cards: compare
        later frames with it."""
        if self._last is not None:
            self._settled, self._settled_factor = self._last, self._factor
            self._settled_cards = _card_mask(self._last.shape[:2], cards, self._factor)
            self._settled_corners = list(cards)

    def _table_region(self, shape: tuple[int, int], image_to_table: Matrix | None
                      ) -> np.ndarray:
        if image_to_table is None:
            if self._region is None or self._region.shape != shape:
                self._region = np.ones(shape, bool)
                self._region_of = None
            return self._region
        if (self._region is not None and self._region_of is not None
                and self._region.shape == shape and np.array_equal(self._region_of,
                                                                   image_to_table)):
            return self._region
        margin = TABLE_MARGIN_MM
        corners = np.array([[-margin, -margin], [TABLE_WIDTH_MM + margin, -margin],
                            [TABLE_WIDTH_MM + margin, TABLE_HEIGHT_MM + margin],
                            [-margin, TABLE_HEIGHT_MM + margin]])
        to_image = np.asarray(np.linalg.inv(image_to_table), np.float64)
        pixels = transform_points(to_image, corners) / self._factor
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(pixels).astype(np.int32), 1)
        self._region, self._region_of = mask.astype(bool), image_to_table.copy()
        return self._region


def _card_mask(shape: tuple[int, int], cards: Sequence[Points], factor: float,
               margin: int = CARD_MARGIN) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    for corners in cards:
        cv2.fillConvexPoly(mask, np.round(corners / factor).astype(np.int32), 1)
    size = 2 * margin + 1
    return np.asarray(cv2.dilate(mask, np.ones((size, size), np.uint8)), bool)


def _share(pixels: np.ndarray, region: np.ndarray) -> float:
    inside = int(np.count_nonzero(region))
    if inside == 0:
        return 0.0
    return int(np.count_nonzero(pixels & region)) / inside
