"""Our own card faces, drawn with OpenCV primitives: the rendered decks and the printable deck.

Every face shares one layout that the recognizer relies on: a cream card (63 x 88 mm, rounded
corners) with a dark frame line inset from its edge. The white margin outside the frame keeps
each card's frame a closed outline even when cards touch or lie on a busy tablecloth; the
inside of the frame (the "window") is what identification compares. The Game of Trains cards
carry a big railcar number and, in a band at the bottom of the window, their ability icon (a
protect card tucked under a railcar shows just that band: the lock tab). Rollecate cards show
their value and a piece of track: whole, broken, or the chaos swirl.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from host.deck import Card
from vision.icons import draw_ability
from vision.imaging import Image

CARD_WIDTH_MM = 63.0
"""A card's short side (standard poker size)."""
CARD_HEIGHT_MM = 88.0
"""A card's long side."""
FRAME_INSET_MM = 3.0
"""Distance from the card's edge to the outer edge of its frame line (the white margin)."""
FRAME_LINE_MM = 3.0
"""Thickness of the frame line."""
WINDOW_INSET_MM = FRAME_INSET_MM + FRAME_LINE_MM
"""Distance from the card's edge to the window (the inside of the frame)."""
WINDOW_WIDTH_MM = CARD_WIDTH_MM - 2 * WINDOW_INSET_MM
"""Width of the window."""
WINDOW_HEIGHT_MM = CARD_HEIGHT_MM - 2 * WINDOW_INSET_MM
"""Height of the window."""
TAB_MM = 24.0
"""How far a tucked protect card sticks out from under its railcar (its ability band shows)."""
BAND_TOP_MM = 60.0
"""Top of the ability band (where the icon is drawn), from the card's top edge."""
BAND_GAP_MM = 4.0
"""Paper left between the ability icon and the frame, so the window stays one clear hole."""
CORNER_RADIUS_MM = 3.0
"""Radius of the card's rounded corners."""

PAPER = (232, 241, 246)
"""Card stock colour (BGR): a warm white."""
TRAINS_INK = (70, 38, 24)
"""Frame and number colour of The Game of Trains deck (dark navy, BGR)."""
ROLLECATE_INK = (30, 50, 70)
"""Frame colour of the Rollecate deck (dark brown, BGR)."""

ABILITY_COLOURS: dict[str, tuple[int, int, int]] = {
    "swap-adjacent": (160, 90, 30),
    "swap-across-one": (150, 60, 110),
    "move-two-right": (40, 120, 40),
    "move-two-left": (30, 100, 120),
    "remove-leftmost": (40, 40, 170),
    "remove-middle": (20, 80, 190),
    "remove-rightmost": (80, 30, 150),
    "protect": (20, 20, 20),
}
"""Colour of each ability's icon (BGR), so people tell abilities apart at a glance."""


@dataclass(frozen=True)
class FaceSize:
    """Pixel size of a card face drawn at some resolution."""

    px_per_mm: float
    """Resolution of the drawing."""

    @property
    def width(self) -> int:
        """Width in pixels."""
        return round(CARD_WIDTH_MM * self.px_per_mm)

    @property
    def height(self) -> int:
        """Height in pixels."""
        return round(CARD_HEIGHT_MM * self.px_per_mm)


def _mm(value: float, px_per_mm: float) -> int:
    return round(value * px_per_mm)


def card_mask(px_per_mm: float, card_mm: tuple[float, float] = (CARD_WIDTH_MM, CARD_HEIGHT_MM),
              radius_mm: float = CORNER_RADIUS_MM) -> Image:
    """The card's silhouette (255 inside, rounded corners cut off) at a resolution."""
    mask = np.zeros((round(card_mm[1] * px_per_mm), round(card_mm[0] * px_per_mm)), np.uint8)
    radius = max(1, _mm(radius_mm, px_per_mm))
    w, h = mask.shape[1] - 1, mask.shape[0] - 1
    cv2.rectangle(mask, (radius, 0), (w - radius, h), 255, -1)
    cv2.rectangle(mask, (0, radius), (w, h - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - radius, radius), (radius, h - radius),
                   (w - radius, h - radius)):
        cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return mask


def _blank(px_per_mm: float, ink: tuple[int, int, int]) -> Image:
    size = FaceSize(px_per_mm)
    face = np.empty((size.height, size.width, 3), np.uint8)
    face[:] = PAPER
    inset = _mm(FRAME_INSET_MM + FRAME_LINE_MM / 2, px_per_mm)
    cv2.rectangle(face, (inset, inset), (size.width - 1 - inset, size.height - 1 - inset), ink,
                  max(1, _mm(FRAME_LINE_MM, px_per_mm)), cv2.LINE_AA)
    return face


def centred_text(face: Image, text: str, centre_mm: tuple[float, float], height_mm: float,
                  px_per_mm: float, colour: tuple[int, int, int], weight: float = 0.14,
                  max_width_mm: float = 1e9) -> None:
    """Draw ``text`` with its box centred on a point, ``height_mm`` tall (digit height) unless
    that would make it wider than ``max_width_mm``."""
    font = cv2.FONT_HERSHEY_DUPLEX
    thickness = max(1, round(height_mm * weight * px_per_mm))
    (w1, h1), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min(height_mm * px_per_mm / max(1, h1), max_width_mm * px_per_mm / max(1, w1))
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    x = round(centre_mm[0] * px_per_mm - w / 2)
    y = round(centre_mm[1] * px_per_mm + h / 2)
    cv2.putText(face, text, (x, y), font, scale, colour, thickness, cv2.LINE_AA)


def _trains_face(card: Card, px_per_mm: float) -> Image:
    face = _blank(px_per_mm, TRAINS_INK)
    number = card.number("number")
    ability = card.text("ability")
    centred_text(face, str(number), (CARD_WIDTH_MM / 2, 34.0), 26.0, px_per_mm, TRAINS_INK,
                  max_width_mm=WINDOW_WIDTH_MM - 10.0)
    # The corner index lets a person read a fanned hand; it is small enough not to matter to
    # the recognizer, which compares whole windows.
    centred_text(face, str(number), (13.0, 12.0), 5.0, px_per_mm, TRAINS_INK, 0.18)
    edge = WINDOW_INSET_MM + BAND_GAP_MM
    band = (_mm(edge, px_per_mm), _mm(BAND_TOP_MM, px_per_mm),
            _mm(CARD_WIDTH_MM - edge, px_per_mm), _mm(CARD_HEIGHT_MM - edge, px_per_mm))
    # The icon is drawn white on black, then painted in the ability's colour on the paper.
    stencil = np.zeros_like(face)
    draw_ability(stencil, ability, band)
    face[stencil[..., 0] > 127] = ABILITY_COLOURS[ability]
    return face


def _track(face: Image, px_per_mm: float, broken: bool) -> None:
    """Two rails with sleepers across the lower half; a broken track has a gap and a crack."""
    rail = (60, 60, 60)
    sleeper = (40, 90, 140)
    y0, y1 = 56.0, 70.0
    for x in np.arange(12.0, 50.0, 6.0):
        cv2.rectangle(face, (_mm(x, px_per_mm), _mm(y0 - 3, px_per_mm)),
                      (_mm(x + 3, px_per_mm), _mm(y1 + 3, px_per_mm)), sleeper, -1)
    for y in (y0, y1):
        if broken:
            cv2.line(face, (_mm(11, px_per_mm), _mm(y, px_per_mm)),
                     (_mm(27, px_per_mm), _mm(y + 2, px_per_mm)), rail, _mm(1.6, px_per_mm))
            cv2.line(face, (_mm(36, px_per_mm), _mm(y - 2, px_per_mm)),
                     (_mm(52, px_per_mm), _mm(y, px_per_mm)), rail, _mm(1.6, px_per_mm))
        else:
            cv2.line(face, (_mm(11, px_per_mm), _mm(y, px_per_mm)),
                     (_mm(52, px_per_mm), _mm(y, px_per_mm)), rail, _mm(1.6, px_per_mm))
    if broken:
        crack = np.array([[31, 48], [28, 55], [34, 61], [29, 68], [33, 76]], np.float64)
        cv2.polylines(face, [np.round(crack * px_per_mm).astype(np.int32)], False,
                      (30, 30, 200), _mm(1.8, px_per_mm), cv2.LINE_AA)


def _chaos(face: Image, px_per_mm: float) -> None:
    """A spiral of a few turns: the chaos card's mark."""
    turns = np.linspace(0.0, 4.4 * np.pi, 100)
    radius = 1.0 + turns * 0.9
    points = np.stack([31.5 + radius * np.cos(turns), 63.0 + radius * np.sin(turns)], axis=1)
    cv2.polylines(face, [np.round(points * px_per_mm).astype(np.int32)], False,
                  (120, 40, 120), _mm(1.6, px_per_mm), cv2.LINE_AA)


def _rollecate_face(card: Card, px_per_mm: float) -> Image:
    face = _blank(px_per_mm, ROLLECATE_INK)
    kind = card.text("kind")
    value = card.number("value")
    ink = {"track": ROLLECATE_INK, "broken": (30, 30, 180), "chaos": (120, 40, 120)}[kind]
    cv2.circle(face, (_mm(CARD_WIDTH_MM / 2, px_per_mm), _mm(26, px_per_mm)),
               _mm(12, px_per_mm), ink, _mm(1.5, px_per_mm), cv2.LINE_AA)
    centred_text(face, str(value), (CARD_WIDTH_MM / 2, 26.0), 14.0, px_per_mm, ink)
    # Wheel dots: as many as the value, for players counting dice at a glance; again down
    # both sides of the value, where the train standing on the rails never hides them.
    for index in range(value):
        x = CARD_WIDTH_MM / 2 + (index - (value - 1) / 2) * 6.0
        cv2.circle(face, (_mm(x, px_per_mm), _mm(46, px_per_mm)), _mm(1.8, px_per_mm), ink, -1,
                   cv2.LINE_AA)
        for side in (12.0, CARD_WIDTH_MM - 12.0):
            cv2.circle(face, (_mm(side, px_per_mm), _mm(20 + 5.5 * index, px_per_mm)),
                       _mm(1.6, px_per_mm), ink, -1, cv2.LINE_AA)
    # Each kind also has a mark in a top corner: the train standing on the rails hides the
    # lower half of the card it is on, and the top half alone must still tell the card.
    if kind == "chaos":
        _chaos(face, px_per_mm)
        diamond = np.array([[15.5, 12.5], [19, 16], [15.5, 19.5], [12, 16]], np.float64)
        cv2.fillConvexPoly(face, np.round(diamond * px_per_mm).astype(np.int32), ink,
                           cv2.LINE_AA)
    else:
        _track(face, px_per_mm, broken=kind == "broken")
    if kind == "broken":
        crack = np.array([[51.5, 10.5], [47.5, 13.5], [51, 17], [47, 20.5]], np.float64)
        cv2.polylines(face, [np.round(crack * px_per_mm).astype(np.int32)], False,
                      (30, 30, 200), _mm(2.2, px_per_mm), cv2.LINE_AA)
    return face


def render_face(card: Card, px_per_mm: float = 4.0) -> Image:
    """The face of ``card`` (BGR, portrait, top up) at ``px_per_mm`` pixels per millimetre.

    Only the decks Conductor ships faces for are drawn (``trains``, ``rollecate``); others raise
    ValueError. Pixels outside ``card_mask`` are paper-coloured; compose with the mask.
    """
    if card.deck == "trains":
        return _trains_face(card, px_per_mm)
    if card.deck == "rollecate":
        return _rollecate_face(card, px_per_mm)
    raise ValueError(f"no card faces are drawn for deck {card.deck!r}")


def render_back(px_per_mm: float = 4.0) -> Image:
    """The back shared by every deck: dark red with a lattice, and no frame (never a face)."""
    size = FaceSize(px_per_mm)
    back = np.empty((size.height, size.width, 3), np.uint8)
    back[:] = (40, 30, 120)
    step = max(2, _mm(6, px_per_mm))
    for offset in range(-size.height, size.width + size.height, step):
        cv2.line(back, (offset, 0), (offset + size.height, size.height), (50, 45, 140), 1)
        cv2.line(back, (offset, size.height), (offset + size.height, 0), (50, 45, 140), 1)
    return back
