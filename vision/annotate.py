"""A frame with what the recognizer read drawn on it: for the web view and ``vision watch``."""

from __future__ import annotations

import cv2
import numpy as np

from vision.imaging import Image
from vision.readings import FrameReading


def annotate(image: Image, reading: FrameReading) -> Image:
    """A copy of the frame with every card's outline and name drawn on it."""
    out = image.copy() if image.ndim == 3 else np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR),
                                                          np.uint8)
    for card in reading.cards:
        colour = (60, 200, 60) if card.name else (40, 40, 230)
        corners = np.round(card.corners).astype(np.int32)
        cv2.polylines(out, [corners], True, colour, 2, cv2.LINE_AA)
        label = card.name.split("/", 1)[1] if card.name else "?"
        x, y = card.centre
        cv2.putText(out, label, (int(x) - 12, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    (255, 255, 255), 3, cv2.LINE_AA)
        cv2.putText(out, label, (int(x) - 12, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 1,
                    cv2.LINE_AA)
    status = f"table: {'found' if reading.image_to_table is not None else 'not found'}"
    cv2.putText(out, status, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2)
    return out
