"""Our printable Express faces: what is drawn inside the frame of each Express card.

``vision.faces`` draws the card and its frame (the layout every deck shares) and hands the blank
face here. A person reads the card's name, its kind's colour band and its value; the recognizer
reads mostly the mark: a 3 x 3 grid of big dots, a different pattern per card, any two patterns
differing in at least ``MARK_DISTANCE`` dots, so a blurred, small card is still told from every
other (names such as Box Car and Flat Car alone differ in too few strokes).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

import cv2
import numpy as np

from host.deck import Card, load_deck
from vision.imaging import Image

EXPRESS_INK = (40, 40, 40)
"""Frame colour of the Express deck (near black, BGR)."""
KIND_COLOURS: dict[str, tuple[int, int, int]] = {
    "freight": (40, 90, 150),
    "passenger": (140, 90, 30),
    "wild": (40, 140, 40),
    "caboose": (40, 40, 180),
    "diesel": (20, 120, 170),
    "disaster": (30, 30, 150),
    "turntable": (120, 40, 120),
    "waycar": (110, 110, 30),
}
"""Colour of each kind's band and mark (BGR), so players tell kinds apart at a glance."""
MARK_DISTANCE = 3
"""Fewest dots by which any two cards' marks differ."""
MARK_PITCH_MM = 12.0
"""Spacing of the mark's dots (a 3 x 3 grid centred low on the card)."""
MARK_CENTRE_MM = (31.5, 60.0)
"""Centre of the mark's grid on the card (millimetres from the card's top-left)."""


@lru_cache(maxsize=1)
def marks() -> dict[str, tuple[int, ...]]:
    """Each Express card's mark (nine dots, 1 filled), in deck order: the first patterns, in
    counting order, that differ from all earlier ones in ``MARK_DISTANCE`` dots or more."""
    chosen: list[tuple[int, ...]] = []
    for pattern in product((0, 1), repeat=9):
        if sum(pattern) >= 2 and all(
                sum(a != b for a, b in zip(pattern, other, strict=True)) >= MARK_DISTANCE
                for other in chosen):
            chosen.append(pattern)
    names = [card.name for card in load_deck("express").cards]
    if len(chosen) < len(names):
        raise ValueError("too few distinct marks for the Express deck")
    return dict(zip(names, chosen, strict=False))


def _text(face: Image, text: str, centre_mm: tuple[float, float], width_mm: float,
          px_per_mm: float, colour: tuple[int, int, int]) -> None:
    """``text`` centred on a point, scaled to ``width_mm`` wide (at most 8 mm tall)."""
    font, thickness = cv2.FONT_HERSHEY_SIMPLEX, max(1, round(0.7 * px_per_mm))
    (w, h), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min(width_mm * px_per_mm / w, 8.0 * px_per_mm / h)
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = (round(centre_mm[0] * px_per_mm - w / 2), round(centre_mm[1] * px_per_mm + h / 2))
    cv2.putText(face, text, origin, font, scale, colour, thickness, cv2.LINE_AA)


def express_face(face: Image, card: Card, px_per_mm: float) -> Image:
    """Draw ``card`` into ``face``, a blank card with its frame drawn (``vision.faces``)."""
    def mm(value: float) -> int:
        return round(value * px_per_mm)

    colour = KIND_COLOURS[card.text("kind")]
    # The kind's band across the top, the value in a disc on it, the name below.
    cv2.rectangle(face, (mm(10), mm(10)), (mm(53), mm(22)), colour, -1)
    cv2.circle(face, (mm(31.5), mm(16)), mm(8), (245, 245, 245), -1, cv2.LINE_AA)
    cv2.circle(face, (mm(31.5), mm(16)), mm(8), colour, mm(1.2), cv2.LINE_AA)
    _text(face, str(card.number("value")), (31.5, 16.0), 6.0, px_per_mm, (30, 30, 30))
    words = card.name.replace("-", " ").upper().split()
    for row, word in enumerate(words):
        _text(face, word, (31.5, 32.5 + row * 9.0 - (len(words) - 1) * 4.5),
              min(40.0, 5.5 * len(word)), px_per_mm, (30, 30, 30))
    for index, filled in enumerate(marks()[card.name]):
        row, column = divmod(index, 3)
        centre = (mm(MARK_CENTRE_MM[0] + (column - 1) * MARK_PITCH_MM),
                  mm(MARK_CENTRE_MM[1] + (row - 1) * MARK_PITCH_MM))
        if filled:
            cv2.circle(face, centre, mm(4.6), colour, -1, cv2.LINE_AA)
        else:
            cv2.circle(face, centre, mm(1.2), colour, -1, cv2.LINE_AA)
    return np.asarray(face, np.uint8)
