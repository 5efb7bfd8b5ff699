"""Cards on the table that no reading explains: paper where no card was found.

A card the finder misses (small and dark on the far side of the table, blurred, in glare) would
make a table read as holding fewer cards: a train one car short, a Way Car gone. Before such a
reading is trusted, the table is looked at from above: paper (as light as the cards found, and
clearly lighter than the cloth) covering a good part of a card's area where no found card or
back lies is a card not read, and the frame is incomplete.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM
from vision.imaging import Image, Matrix, Points, grey
from vision.table import MARKER_SIZE_MM, TABLE_HEIGHT_MM, TABLE_WIDTH_MM

PAPER_STEP = 35.0
"""Paper is told from the cloth (median grey where no card lies) only if the found cards' paper
is at least twice this lighter; paper is then anything lighter than ``PAPER_LEVEL`` of the way
from the cloth to them."""
PAPER_LEVEL = 0.3
"""How far from the cloth's grey towards the found cards' paper paper begins: low, as a card
the finder missed is a small one on the far side, dimmer than those found (Express tuning seeds
2080-2199, medium: at halfway, 5 tables read complete but wrong)."""
PAPER_PERCENTILE = 90
"""The found cards' paper: this percentile of their grey levels (ink and backs are darker)."""
UNREAD_SHARE = 0.35
"""Share of a card's area that unexplained paper must cover to be a card not read."""
CARD_MARGIN_MM = 6
"""How far round each found card its own paper may spill (crooked edges, blur, shadow)."""


def unread_card(image: Image, image_to_table: Matrix, found: Sequence[Points],
                faces: Sequence[Points] | None = None) -> bool:
    """Whether paper the size of a good part of a card lies where none of the ``found`` cards
    (table corners, face up or down) does, or may lie unseen (a cloth nearly as light as the
    cards: paper cannot be told from it). ``faces``: the cards found face up, if known; with
    none, no paper is known to compare with, and nothing is said to be unread."""
    size = (round(TABLE_WIDTH_MM), round(TABLE_HEIGHT_MM))
    view = cv2.warpPerspective(grey(image), image_to_table, size, flags=cv2.INTER_AREA)
    known = np.zeros(view.shape, np.uint8)
    for corners in found:
        cv2.fillConvexPoly(known, np.round(corners).astype(np.int32), 255)
    inside = known > 0
    if faces is not None and not faces:
        return False  # no paper found to compare with (an empty table but for backs)
    known = np.asarray(cv2.dilate(known, np.ones((2 * CARD_MARGIN_MM + 1,) * 2, np.uint8)),
                       np.uint8)
    # The marker sheets at the corners are paper too.
    reach = round(MARKER_SIZE_MM)
    for x in (0, size[0] - reach):
        for y in (0, size[1] - reach):
            known[y:y + reach, x:x + reach] = 255
    free = known == 0
    if not inside.any() or not free.any():
        return False
    cloth = float(np.median(view[free]))
    card = float(np.percentile(view[inside], PAPER_PERCENTILE))
    if card - cloth < 2 * PAPER_STEP:
        return True  # a cloth nearly as light as the cards: a card missed cannot be ruled out
    paper = ((view > cloth + PAPER_LEVEL * (card - cloth)) & free).astype(np.uint8)
    paper = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(paper)
    least = UNREAD_SHARE * CARD_WIDTH_MM * CARD_HEIGHT_MM
    return any(stats[label, cv2.CC_STAT_AREA] >= least for label in range(1, count))
