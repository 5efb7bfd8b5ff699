"""Cards lying face down, found by the colour of their backs.

A back has no frame line, so the card finder (``vision.detect``) never reports one; a game that
must know where face-down cards lie (an Express Loco) finds them here. The table is looked at
from above (table millimetres, ``BACK_PX_PER_MM``); pixels of the back's deep, dark crimson (wood,
skin and most cloths are orange, yellow or paler) are grouped, and
each group the size and shape of one card is one back. A group of another size (a pile's
overhang, a crimson cloth, two backs touching) is not a back, but a back may hide in it: a
group of at least half a card's area that is not one back makes the search unsure
(``BackSearch.unsure``), and the caller reads its table as incomplete, never as a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM
from vision.imaging import Image, Matrix, Points
from vision.table import TABLE_HEIGHT_MM, TABLE_WIDTH_MM

BACK_PX_PER_MM = 1.0
"""Resolution of the top-down view backs are looked for in."""
HUES = (168, 3)
"""The back's hues (OpenCV's 0-179 scale): crimson, from a little blue of red to red."""
LEAST_SATURATION = 150
"""The back's colour is deep (about 190 of 255); a pink or dusky red cloth is paler."""
MOST_VALUE = 170
"""...and dark (about 100 to 110 of 255 in even light)."""
SIZE_TOLERANCE = 0.15
"""How far a group's sides may differ from a card's (blur, a crooked view)."""
FILL = 0.8
"""Share of its rotated box a group must fill to be one card."""


UNSURE_AREA = 0.5
"""Share of a card's area from which a crimson group that is not one back may hide one."""


@dataclass(frozen=True)
class BackSearch:
    """The backs found on a table, and whether one may have gone unfound."""

    backs: list[Points]
    """The corners (table millimetres) of each back found, a 4 x 2 array in the box's order."""
    unsure: bool
    """True when a crimson group a back may hide in is not one back (a crimson cloth, a back
    touching another card or the cloth's pattern)."""


def find_backs(image: Image, image_to_table: Matrix) -> list[Points]:
    """The corners (table millimetres) of every card found lying face down on the table, each a
    4 x 2 array in the box's order (``search_backs`` also says whether one may be missing)."""
    return search_backs(image, image_to_table).backs


def search_backs(image: Image, image_to_table: Matrix) -> BackSearch:
    """The cards found lying face down on the table, and whether one may have gone unfound."""
    scale = np.diag([BACK_PX_PER_MM, BACK_PX_PER_MM, 1.0])
    size = (round(TABLE_WIDTH_MM * BACK_PX_PER_MM), round(TABLE_HEIGHT_MM * BACK_PX_PER_MM))
    view = cv2.warpPerspective(image, scale @ image_to_table, size, flags=cv2.INTER_AREA)
    hue, saturation, value = cv2.split(cv2.cvtColor(view, cv2.COLOR_BGR2HSV))
    crimson = (((hue >= HUES[0]) | (hue <= HUES[1])) & (saturation >= LEAST_SATURATION)
               & (value <= MOST_VALUE))
    # The lattice's lines and noise leave pinholes; flowers of a busy cloth touch the card.
    mask = cv2.morphologyEx(crimson.astype(np.uint8) * 255, cv2.MORPH_CLOSE,
                            np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    backs = []
    unsure = False
    card = np.array([CARD_WIDTH_MM, CARD_HEIGHT_MM]) * BACK_PX_PER_MM
    for contour in contours:
        box = cv2.minAreaRect(contour)
        sides = np.sort(np.array(box[1], np.float64))
        area = cv2.contourArea(contour)
        if (np.any(np.abs(sides / card - 1) > SIZE_TOLERANCE)
                or area < FILL * float(np.prod(sides))):
            unsure = unsure or area >= UNSURE_AREA * float(np.prod(card))
            continue
        backs.append(np.asarray(cv2.boxPoints(box), np.float64) / BACK_PX_PER_MM)
    return BackSearch(backs, unsure)
