"""Finding the wooden train on the railway: by its colour, then by its size and shape.

The frame is looked at from above (rectified to table millimetres) and only on the railway's
cards, so the tablecloth never matters (a wood-grain cloth has the train's colour). On a card,
the train is the one blob of light, warm wood colour as big as the train: the card's brown
sleepers share the hue but are thin strokes, which an opening the width of half the train
removes; a hand is far bigger than the train.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.imaging import Image, Matrix, Points
from vision.rollecate_table import TRAIN_SIZE_MM

PX_PER_MM = 1.0
"""Resolution of the rectified view the train is looked for in."""
HUE_RANGE = (8, 28)
"""OpenCV hue (0-180) of the train's wood, under warm or cool light."""
MIN_SATURATION = 100
"""Wood is clearly coloured; card paper is nearly grey, and the sleepers printed on a card,
blurred together with the paper between them, are half as saturated as the train."""
MIN_VALUE = 80
"""Wood is light; the cards' brown ink is dark."""
AREA_RANGE = (0.5, 1.8)
"""A blob's area, relative to the train's, for it to be the train."""
OPENING_MM = 8.0
"""Strokes thinner than this (sleepers, rails, digits) are not the train."""


def find_train(frame: Image, image_to_table: Matrix, cards: Sequence[Points]) -> Points | None:
    """The train's centre in table millimetres, or None unless exactly one train shows.

    ``cards``: the railway cards' corners in table millimetres (where the train may stand).
    """
    if frame.ndim != 3 or not cards:
        return None
    everything = np.concatenate(cards)
    low = np.floor(everything.min(axis=0)) - 2
    high = np.ceil(everything.max(axis=0)) + 2
    size = (int((high[0] - low[0]) * PX_PER_MM), int((high[1] - low[1]) * PX_PER_MM))
    # Output pixel -> table millimetres -> image pixel.
    to_table = np.array([[1 / PX_PER_MM, 0, low[0]], [0, 1 / PX_PER_MM, low[1]], [0, 0, 1]])
    try:
        to_image = np.linalg.inv(image_to_table) @ to_table
    except np.linalg.LinAlgError:
        return None
    view = cv2.warpPerspective(frame, to_image, size,
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    hsv = cv2.cvtColor(view, cv2.COLOR_BGR2HSV)
    wood = cv2.inRange(hsv, (HUE_RANGE[0], MIN_SATURATION, MIN_VALUE), (HUE_RANGE[1], 255, 255))
    on_cards = np.zeros(wood.shape, np.uint8)
    for corners in cards:
        cv2.fillConvexPoly(on_cards, np.round((corners - low) * PX_PER_MM).astype(np.int32), 255)
    wood = cv2.bitwise_and(wood, on_cards)
    side = max(3, round(OPENING_MM * PX_PER_MM) | 1)
    wood = cv2.morphologyEx(wood, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    count, _, stats, centres = cv2.connectedComponentsWithStats(wood)
    expected = TRAIN_SIZE_MM[0] * TRAIN_SIZE_MM[1] * PX_PER_MM ** 2
    found = [centres[label] for label in range(1, count)
             if AREA_RANGE[0] <= stats[label, cv2.CC_STAT_AREA] / expected <= AREA_RANGE[1]]
    if len(found) != 1:
        return None
    return np.asarray(found[0] / PX_PER_MM + low, np.float64)
