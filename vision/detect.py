"""Finding cards in a frame: every card's frame outline, its corners and its window, rectified.

Our card faces have a dark frame line inside a white margin. In a locally thresholded frame
(dark = set), each frame line is a closed ring whose outside edge is a quadrilateral: the white
margin keeps it apart from the tablecloth and from touching cards, and whatever is drawn inside
(number, icon band) stays inside. So candidates are the outer boundaries of dark blobs that are
convex quadrilaterals of a card frame's shape; with the table's homography they must also have a
card frame's size in millimetres, which rejects nearly everything else a busy cloth offers.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.faces import (
    CARD_HEIGHT_MM,
    CARD_WIDTH_MM,
    FRAME_INSET_MM,
    WINDOW_INSET_MM,
)
from vision.imaging import Image, Matrix, Points, transform_points

FRAME_WIDTH_MM = CARD_WIDTH_MM - 2 * FRAME_INSET_MM
"""Outside width of a card's frame line."""
FRAME_HEIGHT_MM = CARD_HEIGHT_MM - 2 * FRAME_INSET_MM
"""Outside height of a card's frame line."""
SIZE_TOLERANCE = 0.09
"""How far a candidate's sides may differ from a frame's (relative), given the homography."""
ASPECT_RANGE = (0.45, 0.95)
"""Short side over long side allowed without a homography (perspective squeezes cards)."""
MIN_AREA_PX = 300.0
"""Smallest frame worth reading, in image pixels (about 14 x 21)."""
PATCH_SIZE = (40, 60)
"""Width and height of a rectified window, the unit identification compares."""
PATCH_MARGIN_MM = 1.0
"""How far inside the window the patch starts, so the frame line never leaks into it."""
PATCH_PAD = 3
"""Extra pixels rectified around the patch on every side, so identification can slide the
reference a little over an outline found slightly off."""
THRESHOLD_BLOCK = 21
"""Neighbourhood of the local threshold, pixels (a few frame-line widths)."""
THRESHOLD_OFFSET = 8
"""How much darker than its neighbourhood a pixel must be to count as ink."""


@dataclass(frozen=True)
class FoundCard:
    """A card outline found in a frame (identity not yet known)."""

    frame: Points
    """The frame line's outer corners in image pixels, clockwise, starting at a short side.
    Whether that side is the card's top or bottom is settled by identification."""
    patch: Image
    """The window rectified in grey, same orientation as ``frame``: ``PATCH_SIZE`` plus
    ``PATCH_PAD`` pixels on every side."""

    def card_corners(self, turned: bool) -> Points:
        """The card's own corners (top-left, top-right, bottom-right, bottom-left) in pixels.

        ``turned``: the card lies the other way round from ``frame``'s order (180 degrees).
        """
        matrix = frame_to_image(self.frame)
        low, high = -FRAME_INSET_MM, FRAME_WIDTH_MM + FRAME_INSET_MM
        bottom = FRAME_HEIGHT_MM + FRAME_INSET_MM
        corners = np.array([[low, low], [high, low], [high, bottom], [low, bottom]])
        found = transform_points(matrix, corners)
        return np.roll(found, 2, axis=0) if turned else found


def frame_to_image(frame: Points) -> Matrix:
    """Homography from frame millimetres (origin at the frame's outer top-left) to pixels."""
    source = np.array([[0, 0], [FRAME_WIDTH_MM, 0], [FRAME_WIDTH_MM, FRAME_HEIGHT_MM],
                       [0, FRAME_HEIGHT_MM]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(source, frame.astype(np.float32)), np.float64)


def _clockwise(points: Points) -> Points:
    """Corners in clockwise order on screen (y down)."""
    x, y = points[:, 0], points[:, 1]
    area = float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return points if area > 0 else points[::-1].copy()


def _sides(points: Points) -> tuple[float, float]:
    """Mean length of sides 0-1 / 2-3 and of sides 1-2 / 3-0."""
    lengths = np.linalg.norm(points - np.roll(points, -1, axis=0), axis=1)
    return float(lengths[0] + lengths[2]) / 2, float(lengths[1] + lengths[3]) / 2


def _shape_ok(points: Points, to_table: Matrix | None) -> Points | None:
    """The corners ordered to start at a short side, or None if not a card frame's shape."""
    measured = transform_points(to_table, points) if to_table is not None else points
    first, second = _sides(measured)
    if first > second:  # start at a short side: the card's top or bottom
        points, measured = np.roll(points, -1, axis=0), np.roll(measured, -1, axis=0)
        first, second = second, first
    if to_table is not None:
        if (abs(first / FRAME_WIDTH_MM - 1) > SIZE_TOLERANCE
                or abs(second / FRAME_HEIGHT_MM - 1) > SIZE_TOLERANCE):
            return None
    elif not ASPECT_RANGE[0] <= first / max(second, 1e-6) <= ASPECT_RANGE[1]:
        return None
    return points


def patch_of(grey_image: Image, frame: Points) -> Image:
    """The window inside ``frame``, rectified with its padding (sampled at twice the size,
    then averaged down)."""
    width, height = PATCH_SIZE
    inset = WINDOW_INSET_MM - FRAME_INSET_MM + PATCH_MARGIN_MM
    sx = (FRAME_WIDTH_MM - 2 * inset) / width
    sy = (FRAME_HEIGHT_MM - 2 * inset) / height
    to_frame = np.array([[sx / 2, 0, inset - PATCH_PAD * sx], [0, sy / 2, inset - PATCH_PAD * sy],
                         [0, 0, 1]])
    size = (width + 2 * PATCH_PAD, height + 2 * PATCH_PAD)
    matrix = frame_to_image(frame) @ to_frame
    big = cv2.warpPerspective(grey_image, matrix, (2 * size[0], 2 * size[1]),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(cv2.resize(big, size, interpolation=cv2.INTER_AREA), np.uint8)


def ink(grey_image: Image) -> Image:
    """Pixels darker than their neighbourhood (255), the rest 0."""
    return np.asarray(cv2.adaptiveThreshold(grey_image, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                            cv2.THRESH_BINARY_INV, THRESHOLD_BLOCK,
                                            THRESHOLD_OFFSET), np.uint8)


def _refine(contour: Points, corners: Points) -> Points:
    """Corners where lines fitted to each side's contour points meet.

    ``approxPolyDP`` keeps contour points, which blur and rounded corners pull inwards; the
    meeting points of the four fitted sides are steadier.
    """
    lines = []
    for index in range(4):
        start, end = corners[index], corners[(index + 1) % 4]
        direction = end - start
        length = float(np.linalg.norm(direction))
        if length < 4:
            return corners
        unit = direction / length
        relative = contour - start
        along = relative @ unit
        across = np.abs(relative @ np.array([-unit[1], unit[0]]))
        chosen = contour[(along > 0.15 * length) & (along < 0.85 * length) & (across < 3)]
        if len(chosen) < 3:
            lines.append((start, unit))
            continue
        vx, vy, x0, y0 = cv2.fitLine(chosen.astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    refined = []
    for index in range(4):
        (p1, d1), (p2, d2) = lines[index - 1], lines[index]
        matrix = np.array([d1, -d2]).T
        if abs(float(np.linalg.det(matrix))) < 1e-6:
            return corners
        t = np.linalg.solve(matrix, p2 - p1)
        refined.append(p1 + t[0] * d1)
    result = np.array(refined, np.float64)
    if float(np.abs(result - corners).max()) > 6:  # a bad fit: trust the polygon
        return corners
    return result


def _size_error(points: Points, to_table: Matrix | None) -> float:
    """How far (relative) a candidate's sides are from a frame's (0: exact)."""
    if to_table is None:
        return 0.0
    first, second = _sides(transform_points(to_table, points))
    return max(abs(first / FRAME_WIDTH_MM - 1), abs(second / FRAME_HEIGHT_MM - 1))


def find_cards(grey_image: Image, image_to_table: Matrix | None = None) -> list[FoundCard]:
    """Every card frame in a grey frame, with its rectified window.

    ``image_to_table``: homography to table millimetres, if the table was found; without it
    only the frame's shape is checked (more false candidates, which identification rejects).
    Where several outlines nest (the frame, and a dark ring of tablecloth around the card), the
    one closest to a frame's size wins, or without a homography the innermost.
    """
    contours, hierarchy = cv2.findContours(ink(grey_image), cv2.RETR_CCOMP,
                                           cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    candidates: list[tuple[float, float, Points]] = []
    for contour, links in zip(contours, hierarchy[0], strict=True):
        if links[3] >= 0:  # a hole, not the outside of a dark blob
            continue
        area = cv2.contourArea(contour)
        if area < MIN_AREA_PX:
            continue
        polygon = cv2.approxPolyDP(contour, 0.03 * cv2.arcLength(contour, True), True)
        if len(polygon) != 4 or not cv2.isContourConvex(polygon):
            continue
        corners = _clockwise(polygon.reshape(4, 2).astype(np.float64))
        corners = _refine(contour.reshape(-1, 2).astype(np.float64), corners)
        ordered = _shape_ok(corners, image_to_table)
        if ordered is None:
            continue
        candidates.append((_size_error(ordered, image_to_table), area, ordered))
    candidates.sort(key=lambda candidate: (candidate[0], candidate[1]))
    found: list[FoundCard] = []
    for _, _, corners in candidates:
        centre = corners.mean(axis=0)
        reach = 0.3 * min(_sides(corners))
        if any(np.linalg.norm(centre - card.frame.mean(axis=0)) < reach for card in found):
            continue
        found.append(FoundCard(corners, patch_of(grey_image, corners)))
    return found
