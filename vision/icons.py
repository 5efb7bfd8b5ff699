"""The eight ability icons of The Game of Trains, drawn with lines, boxes and arrows.

Icons show railcars as small boxes and what the ability does to them, in white on the band's
colour, so they read the same printed or on a screen and survive a blurry webcam.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2

from vision.imaging import Image

Box = tuple[int, int, int, int]
WHITE = (255, 255, 255)


def _railcars(face: Image, box: Box, count: int, crossed: int | None = None,
              locked: bool = False) -> list[tuple[int, int]]:
    """Draw ``count`` railcars across the band; return their centres."""
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    car_w, car_h = width // (count * 2), height // 3
    thickness = max(1, height // 16)
    centres = []
    for index in range(count):
        cx = x0 + round(width * (index + 0.5) / count)
        cy = y0 + round(height * 0.62)
        cv2.rectangle(face, (cx - car_w // 2, cy - car_h // 2), (cx + car_w // 2, cy + car_h // 2),
                      WHITE, thickness, cv2.LINE_AA)
        if index == crossed:
            reach = car_w * 3 // 4
            cv2.line(face, (cx - reach, cy - reach), (cx + reach, cy + reach), WHITE,
                     thickness * 2, cv2.LINE_AA)
            cv2.line(face, (cx - reach, cy + reach), (cx + reach, cy - reach), WHITE,
                     thickness * 2, cv2.LINE_AA)
        centres.append((cx, cy))
    return centres


def _arc(face: Image, start: tuple[int, int], end: tuple[int, int], lift: int, both: bool,
         thickness: int) -> None:
    """An arrow arching over the band from ``start`` to ``end``."""
    mid = ((start[0] + end[0]) // 2, min(start[1], end[1]) - lift)
    top_start = (start[0], start[1] - lift // 2)
    top_end = (end[0], end[1] - lift // 2)
    cv2.line(face, top_start, mid, WHITE, thickness, cv2.LINE_AA)
    cv2.arrowedLine(face, mid, top_end, WHITE, thickness, cv2.LINE_AA, tipLength=0.45)
    if both:
        cv2.arrowedLine(face, mid, top_start, WHITE, thickness, cv2.LINE_AA, tipLength=0.45)


def _swap(face: Image, box: Box, distance: int) -> None:
    cars = _railcars(face, box, 2 + distance)
    lift = (box[3] - box[1]) // 3
    _arc(face, cars[0], cars[distance + 1], lift, True, max(1, (box[3] - box[1]) // 12))


def _move(face: Image, box: Box, right: bool) -> None:
    cars = _railcars(face, box, 3)
    start, end = (cars[0], cars[2]) if right else (cars[2], cars[0])
    _arc(face, start, end, (box[3] - box[1]) // 3, False, max(1, (box[3] - box[1]) // 12))


def _remove(face: Image, box: Box, which: int) -> None:
    _railcars(face, box, 7 if which == 3 else 5, crossed=which if which != 4 else 4)


def _protect(face: Image, box: Box) -> None:
    """A padlock: body and shackle."""
    x0, y0, x1, y1 = box
    cx, height = (x0 + x1) // 2, y1 - y0
    body_w, body_h = height * 2 // 3, height * 4 // 10
    top = y0 + height * 45 // 100
    cv2.ellipse(face, (cx, top), (body_w * 3 // 10, height * 25 // 100), 0, 180, 360, WHITE,
                max(1, height // 10), cv2.LINE_AA)
    cv2.rectangle(face, (cx - body_w // 2, top), (cx + body_w // 2, top + body_h), WHITE, -1)


ICONS: dict[str, Callable[[Image, Box], None]] = {
    "swap-adjacent": lambda face, box: _swap(face, box, 0),
    "swap-across-one": lambda face, box: _swap(face, box, 1),
    "move-two-right": lambda face, box: _move(face, box, True),
    "move-two-left": lambda face, box: _move(face, box, False),
    "remove-leftmost": lambda face, box: _remove(face, box, 0),
    "remove-middle": lambda face, box: _remove(face, box, 3),
    "remove-rightmost": lambda face, box: _remove(face, box, 4),
    "protect": _protect,
}
"""How to draw each ability of The Game of Trains (names as in the deck file)."""


def draw_ability(face: Image, ability: str, box: Box) -> None:
    """Draw the icon of ``ability`` inside ``box`` (x0, y0, x1, y1) of ``face``."""
    ICONS[ability](face, box)
