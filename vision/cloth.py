"""The cloth round the cards, and outlines that show the cloth rather than a card.

The outline search finds a card's shape wherever edges line up: a striped or checked cloth's
stripes, a card's side continued into the cloth, a card's band and the cloth beyond it, a
marker sheet's margin. Such an outline matches no enrolled card well, but a real card the namer
cannot tell apart may match none well either, so the reference score cannot tell a ghost from
a card left unnamed. What lies inside it can: a ghost shows the cloth, a card paper and print.

The cloth is learnt from the frame itself (no calibration): the table seen from above, shrunk,
its colours counted where no outline and no marker lies. Its colours are the commonest there,
those making up ``CLOTH_SHARE`` of it, less any the cards sure to be cards show more often (a
flowered cloth's pink blobs, the pink of a deck's paper). An unnamed outline whose own part
(not under another card found), or a half of it, is mostly of the cloth's colours is no card.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.imaging import Image, Matrix, Points
from vision.markers import MARKER_CENTRES_MM
from vision.table import MARKER_SIZE_MM, TABLE_HEIGHT_MM, TABLE_WIDTH_MM

CLOTH_PX_PER_MM = 0.4
"""Resolution the table is looked at for its cloth (a stripe or a check is still several pixels
wide; a card 25 x 35 pixels)."""
LEVELS = 8
"""Bins per colour channel (of 256 grey levels each)."""
CLOTH_SHARE = 0.9
"""The cloth's colours: the commonest bins that together hold this share of its pixels."""
CARD_MARGIN_MM = 4.0
"""Margin round every outline found (a card's shadow, an outline a little off) left out of the
cloth's sample."""
MARKER_MARGIN_MM = 20.0
"""Margin round a marker's black square (its sheet's white paper) left out of the sample."""
MIN_CLOTH_PX = 500
"""Fewest pixels of cloth (a table covered in cards shows none), and of the sure cards' paper
(one card's), worth learning colours from."""

Bins = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Cloth:
    """The colours of the cloth on one frame's table, and where outlines lie over it."""

    bins: Bins
    """Each pixel's colour bin in the shrunk top-down view."""
    common: npt.NDArray[np.bool_]
    """For each colour bin: whether it is one of the cloth's colours."""

    @classmethod
    def of(cls, frame: Image, image_to_table: Matrix, outlines: list[Points],
           sure: list[bool]) -> Cloth | None:
        """The cloth of a BGR frame, from the table outside the ``outlines`` (corners in table
        millimetres) and the markers, told from the cards by those outlines ``sure`` to be
        cards; None where too little of either shows."""
        scale = CLOTH_PX_PER_MM
        to_view = np.array([[scale, 0, 0], [0, scale, 0], [0, 0, 1]], np.float64) @ image_to_table
        size = (round(TABLE_WIDTH_MM * scale), round(TABLE_HEIGHT_MM * scale))
        view = cv2.warpPerspective(frame, to_view, size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        step = 256 // LEVELS
        quantized = np.asarray(view, np.int32) // step
        bins = np.asarray((quantized[..., 0] * LEVELS + quantized[..., 1]) * LEVELS
                          + quantized[..., 2], np.int32)
        taken = _covered(bins.shape, outlines)
        half = (MARKER_SIZE_MM / 2 + MARKER_MARGIN_MM) * scale
        for x, y in MARKER_CENTRES_MM.values():
            cv2.rectangle(taken, (round(x * scale - half), round(y * scale - half)),
                          (round(x * scale + half), round(y * scale + half)), 255, -1)
        cloth = bins[taken == 0]
        # The cards' own colours: inside the sure cards, their margins (rounded corners, an
        # outline a little off) left out.
        papers = np.zeros(bins.shape, np.uint8)
        for corners, card in zip(outlines, sure, strict=True):
            if card:
                cv2.fillConvexPoly(papers, np.round(corners * scale).astype(np.int32), 255)
        margin = max(1, round(CARD_MARGIN_MM * scale))
        paper = bins[cv2.erode(papers, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8)) > 0]
        if cloth.size < MIN_CLOTH_PX or paper.size < MIN_CLOTH_PX:
            return None
        counts = np.bincount(cloth, minlength=LEVELS ** 3)
        order = np.argsort(-counts)
        needed = int(np.searchsorted(np.cumsum(counts[order]), CLOTH_SHARE * cloth.size)) + 1
        common = np.zeros(LEVELS ** 3, np.bool_)
        common[order[:needed]] = True
        # A colour both show is the cloth's only where the cloth shows it more often.
        common &= counts / cloth.size > np.bincount(paper, minlength=LEVELS ** 3) / paper.size
        return cls(bins, common)

    def shares(self, corners: Points, others: list[Points]) -> tuple[float, float]:
        """Share of the outline at ``corners`` (table millimetres) showing the cloth's colours,
        counting only its part not under one of ``others`` (1.0 when all of it is), and the
        largest such share of its four halves (top, bottom, left, right; 0.0 when under)."""
        # Another card's margin (its shadow) is left out here as it is from the cloth's sample.
        return self._shares(corners, _covered(self.bins.shape, others) == 0)

    def _shares(self, corners: Points, free: npt.NDArray[np.bool_]) -> tuple[float, float]:
        """``shares``, counting only the outline's pixels that are ``free``."""
        scale = CLOTH_PX_PER_MM
        top_left, top_right, bottom_right, bottom_left = corners
        left, right = (top_left + bottom_left) / 2, (top_right + bottom_right) / 2
        top, bottom = (top_left + top_right) / 2, (bottom_left + bottom_right) / 2
        parts = [corners, np.array([top_left, top_right, right, left]),
                 np.array([left, right, bottom_right, bottom_left]),
                 np.array([top_left, top, bottom, bottom_left]),
                 np.array([top, top_right, bottom_right, bottom])]
        found = []
        for part in parts:
            inside = np.zeros(self.bins.shape, np.uint8)
            cv2.fillConvexPoly(inside, np.round(part * scale).astype(np.int32), 255)
            own = self.bins[(inside > 0) & free]
            found.append(float(self.common[own].mean()) if own.size else -1.0)
        whole = found[0] if found[0] >= 0 else 1.0
        return whole, max(0.0, *found[1:])


def _covered(shape: tuple[int, ...], outlines: list[Points]) -> Image:
    """255 where one of the outlines (table millimetres) or its ``CARD_MARGIN_MM`` lies, in the
    shrunk top-down view."""
    scale = CLOTH_PX_PER_MM
    covered = np.zeros(shape[:2], np.uint8)
    for corners in outlines:
        cv2.fillConvexPoly(covered, np.round(corners * scale).astype(np.int32), 255)
    margin = max(1, round(CARD_MARGIN_MM * scale))
    return np.asarray(cv2.dilate(covered, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8)),
                      np.uint8)


CLOTH_ONLY = 0.7
"""Share of an outline's own part in the cloth's colours from which it shows only cloth."""
HALF_ON_CLOTH = 0.85
"""The same for one half of it (an outline half on a card, half on the cloth). On the tuning
deck's tables no unnamed card showed 0.8 in any half; with ``CLOTH_ONLY`` 106 of 122 ghosts
go."""
MARKER_COVER = 0.5
"""Share of a marker's black square an outline covers from which it is the marker's sheet."""


def ghosts(frame: Image, image_to_table: Matrix, outlines: list[Points], doubtful: list[bool],
           sure: list[bool]) -> list[bool]:
    """For each outline (corners in table millimetres), whether it is not a card: a
    ``doubtful`` one (not named) that covers a marker's square, or whose own part, or a half
    of it, shows the cloth. The cloth is told from the cards by the outlines ``sure`` to be
    cards (named, or matching a card well). Outlines not doubtful are never ghosts."""
    verdict = [doubt and _on_marker(corners) for corners, doubt in
               zip(outlines, doubtful, strict=True)]
    judged = [index for index, doubt in enumerate(doubtful) if doubt and not verdict[index]]
    cloth = Cloth.of(frame, image_to_table, outlines, sure) if judged else None
    if cloth is None:
        return verdict
    # How many outlines (with their margins) cover each pixel: the others' are that less its own.
    own = [_covered(cloth.bins.shape, [corners]) > 0 for corners in outlines]
    count = np.sum(own, axis=0)
    for index in judged:
        whole, half = cloth._shares(outlines[index], count - own[index] == 0)
        verdict[index] = whole >= CLOTH_ONLY or half >= HALF_ON_CLOTH
    return verdict


def _on_marker(corners: Points) -> bool:
    half = MARKER_SIZE_MM / 2
    outline = corners.astype(np.float32)
    return any(cv2.intersectConvexConvex(outline, np.array(
        [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]],
        np.float32))[0] >= MARKER_COVER * MARKER_SIZE_MM ** 2
        for x, y in MARKER_CENTRES_MM.values())
