"""The cloth round the cards, and outlines that show only cloth.

The outline search finds a card's shape wherever edges line up: a striped or checked cloth's
stripes, a card's side continued into the cloth, a marker sheet's margin. Such an outline
matches no enrolled card well, but a real card the namer cannot tell apart matches none well
either, so the reference score alone cannot tell a ghost from a card left unnamed. What can is
what lies inside it: a ghost shows the cloth, a card shows paper and print.

The cloth is learnt from the frame itself (no calibration): the table seen from above, shrunk,
its colours counted where no outline and no marker lies. The colours that make up most of
that are the cloth's. An outline whose own part (not under another card found) is mostly of the
cloth's colours shows cloth.
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
"""Fewest pixels of cloth worth learning its colours from (a table covered in cards has none)."""

Bins = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Cloth:
    """The colours of the cloth on one frame's table, and where outlines lie over it."""

    bins: Bins
    """Each pixel's colour bin in the shrunk top-down view."""
    common: npt.NDArray[np.bool_]
    """For each colour bin: whether it is one of the cloth's colours."""

    @classmethod
    def of(cls, frame: Image, image_to_table: Matrix, outlines: list[Points]) -> Cloth | None:
        """The cloth of a BGR frame, from the table outside the ``outlines`` (corners in table
        millimetres) and the markers; None where too little of it shows."""
        scale = CLOTH_PX_PER_MM
        to_view = np.array([[scale, 0, 0], [0, scale, 0], [0, 0, 1]], np.float64) @ image_to_table
        size = (round(TABLE_WIDTH_MM * scale), round(TABLE_HEIGHT_MM * scale))
        view = cv2.warpPerspective(frame, to_view, size, flags=cv2.INTER_AREA,
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
        if cloth.size < MIN_CLOTH_PX:
            return None
        counts = np.bincount(cloth, minlength=LEVELS ** 3)
        order = np.argsort(-counts)
        needed = int(np.searchsorted(np.cumsum(counts[order]), CLOTH_SHARE * cloth.size)) + 1
        common = np.zeros(LEVELS ** 3, np.bool_)
        common[order[:needed]] = True
        return cls(bins, common)

    def share(self, corners: Points, others: list[Points]) -> float:
        """Share of the outline at ``corners`` (table millimetres) showing the cloth's colours,
        counting only its part not under one of ``others`` (1.0 when all of it is)."""
        scale = CLOTH_PX_PER_MM
        inside = np.zeros(self.bins.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(corners * scale).astype(np.int32), 255)
        # Another card's margin (its shadow) is left out here as it is from the cloth's sample.
        under = _covered(self.bins.shape, others)
        own = self.bins[(inside > 0) & (under == 0)]
        return float(self.common[own].mean()) if own.size else 1.0


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
"""Share of an outline's own part in the cloth's colours from which it shows only cloth (on
the tuning tables ghosts on a striped cloth showed 0.7-1.0, unnamed cards mostly under 0.3)."""
MARKER_COVER = 0.5
"""Share of a marker's black square an outline covers from which it is the marker's sheet."""


def ghosts(frame: Image, image_to_table: Matrix, outlines: list[Points],
           doubtful: list[bool]) -> list[bool]:
    """For each outline (corners in table millimetres), whether it is not a card: a doubtful
    one (matching no enrolled card well enough to be named) that covers a marker's square, or
    whose own part shows only the cloth. Outlines not doubtful are never ghosts."""
    verdict = [doubt and _on_marker(corners) for corners, doubt in
               zip(outlines, doubtful, strict=True)]
    judged = [index for index, doubt in enumerate(doubtful) if doubt and not verdict[index]]
    cloth = Cloth.of(frame, image_to_table, outlines) if judged else None
    if cloth is None:
        return verdict
    for index in judged:
        others = [corners for other, corners in enumerate(outlines) if other != index]
        verdict[index] = cloth.share(outlines[index], others) >= CLOTH_ONLY
    return verdict


def _on_marker(corners: Points) -> bool:
    half = MARKER_SIZE_MM / 2
    outline = corners.astype(np.float32)
    return any(cv2.intersectConvexConvex(outline, np.array(
        [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]],
        np.float32))[0] >= MARKER_COVER * MARKER_SIZE_MM ** 2
        for x, y in MARKER_CENTRES_MM.values())
