"""Finding cards in a frame: every card's frame outline, its corners and its window, rectified.

Our card faces have a dark frame line round a paper window. In a locally thresholded frame
(dark = set), each frame line is a closed ring and the window is a hole in it whose edge is a
quadrilateral, whatever the tablecloth or a touching card does outside the ring; what is drawn
inside the window (number, icon band) are islands that leave the hole's edge alone. So
candidates are holes that are convex quadrilaterals of a window's shape; with the table's
homography they must also have a window's size in millimetres, which rejects nearly everything
else a busy cloth offers.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.faces import WINDOW_HEIGHT_MM, WINDOW_INSET_MM, WINDOW_WIDTH_MM
from vision.imaging import Image, Matrix, Points, transform_points
from vision.table import TABLE_HEIGHT_MM, TABLE_WIDTH_MM

SIZE_TOLERANCE = 0.1
"""How far a candidate's sides may differ from a window's (relative), given the homography."""
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
MIN_PAPER_CONTRAST = 30
"""How much lighter (grey levels) a window's middle must be than the frame line around it: a
card back, a dark tile of the cloth or a hole between cards is not a card's paper window."""
TABLE_REACH_MM = 60.0
"""How far beyond the markers' centres cards are looked for, when the table is known."""
Threshold = tuple[int, int]
"""A local threshold: the neighbourhood (pixels, a few frame-line widths) and how much darker
than it a pixel must be to count as ink."""
THRESHOLD: Threshold = (21, 8)
"""The local threshold frame lines are looked for with: it keeps a small card's window clear of
what is drawn in it."""
FAINT_THRESHOLD: Threshold = (41, 2)
"""A wider, fainter one, which closes the frame line of a small, blurred card where
``THRESHOLD`` leaves a gap for its window to leak through (cards on the far side of a steep
table). It traces the cloth's grain too, about tripling the finder's time, so only a game
whose tables need it asks for it (Express: tuning seeds 2000-2019 of
``benchmarks/express_camera.py``, medium tables read right 45-55 % with ``THRESHOLD`` alone,
65-70 % with both; docs/vision.md)."""


@dataclass(frozen=True)
class FoundCard:
    """A card outline found in a frame (identity not yet known)."""

    window: Points
    """The window's corners in image pixels, clockwise, starting at a short side. Whether that
    side is the card's top or bottom is settled by identification."""
    patch: Image
    """The window rectified in grey, same orientation as ``window``: ``PATCH_SIZE`` plus
    ``PATCH_PAD`` pixels on every side."""

    def card_corners(self, turned: bool) -> Points:
        """The card's own corners (top-left, top-right, bottom-right, bottom-left) in pixels.

        ``turned``: the card lies the other way round from ``window``'s order (180 degrees).
        """
        matrix = window_to_image(self.window)
        low, high = -WINDOW_INSET_MM, WINDOW_WIDTH_MM + WINDOW_INSET_MM
        bottom = WINDOW_HEIGHT_MM + WINDOW_INSET_MM
        corners = np.array([[low, low], [high, low], [high, bottom], [low, bottom]])
        found = transform_points(matrix, corners)
        return np.roll(found, 2, axis=0) if turned else found


def window_to_image(window: Points) -> Matrix:
    """Homography from window millimetres (origin at the window's top-left) to pixels."""
    source = np.array([[0, 0], [WINDOW_WIDTH_MM, 0], [WINDOW_WIDTH_MM, WINDOW_HEIGHT_MM],
                       [0, WINDOW_HEIGHT_MM]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(source, window.astype(np.float32)), np.float64)


NEXT = np.array([1, 2, 3, 0])
"""Index of each corner's successor round a quadrilateral."""


def _clockwise(points: Points) -> Points:
    """Corners in clockwise order on screen (y down)."""
    x, y = points[:, 0], points[:, 1]
    area = float(np.dot(x, y[NEXT]) - np.dot(y, x[NEXT]))
    return points if area > 0 else points[::-1].copy()


def _sides(points: Points) -> tuple[float, float]:
    """Mean length of sides 0-1 / 2-3 and of sides 1-2 / 3-0."""
    step = points[NEXT] - points
    lengths = np.hypot(step[:, 0], step[:, 1])
    return float(lengths[0] + lengths[2]) / 2, float(lengths[1] + lengths[3]) / 2


def _shape_ok(points: Points, to_table: Matrix | None, slack: float = 1.0) -> Points | None:
    """The corners ordered to start at a short side, or None if not a card window's shape
    (``slack`` widens the tolerance, for rough corners before refining)."""
    measured = transform_points(to_table, points) if to_table is not None else points
    first, second = _sides(measured)
    if first > second:  # start at a short side: the card's top or bottom
        points, measured = np.roll(points, -1, axis=0), np.roll(measured, -1, axis=0)
        first, second = second, first
    if to_table is not None:
        if (abs(first / WINDOW_WIDTH_MM - 1) > SIZE_TOLERANCE * slack
                or abs(second / WINDOW_HEIGHT_MM - 1) > SIZE_TOLERANCE * slack):
            return None
    elif not ASPECT_RANGE[0] <= first / max(second, 1e-6) <= ASPECT_RANGE[1]:
        return None
    return points


def patch_of(grey_image: Image, window: Points) -> Image:
    """The window with corners ``window``, rectified with its padding (sampled at twice the
    size, then averaged down)."""
    width, height = PATCH_SIZE
    inset = PATCH_MARGIN_MM
    sx = (WINDOW_WIDTH_MM - 2 * inset) / width
    sy = (WINDOW_HEIGHT_MM - 2 * inset) / height
    to_frame = np.array([[sx / 2, 0, inset - PATCH_PAD * sx], [0, sy / 2, inset - PATCH_PAD * sy],
                         [0, 0, 1]])
    size = (width + 2 * PATCH_PAD, height + 2 * PATCH_PAD)
    matrix = window_to_image(window) @ to_frame
    big = cv2.warpPerspective(grey_image, matrix, (2 * size[0], 2 * size[1]),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(cv2.resize(big, size, interpolation=cv2.INTER_AREA), np.uint8)


def ink(grey_image: Image, threshold: Threshold = THRESHOLD) -> Image:
    """Pixels darker than their neighbourhood by the ``threshold`` (255), the rest 0."""
    block, offset = threshold
    marked = cv2.adaptiveThreshold(grey_image, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                   cv2.THRESH_BINARY_INV, block, offset)
    return np.asarray(marked, np.uint8)


def _refine(contour: Points, corners: Points) -> Points:
    """Corners where lines fitted to each side's contour points meet.

    ``approxPolyDP`` keeps contour points, which blur pulls about; the meeting points of the
    four fitted sides are steadier.
    """
    ends = corners[[1, 2, 3, 0]]
    lengths = np.hypot(*(ends - corners).T)
    if lengths.min() < 4:
        return corners
    units = (ends - corners) / lengths[:, None]
    relative = contour[None, :, :] - corners[:, None, :]
    along = relative[..., 0] * units[:, None, 0] + relative[..., 1] * units[:, None, 1]
    across = np.abs(relative[..., 1] * units[:, None, 0] - relative[..., 0] * units[:, None, 1])
    near = (along > 0.15 * lengths[:, None]) & (along < 0.85 * lengths[:, None]) & (across < 3)
    points, directions = corners.copy(), units.copy()
    for side in range(4):
        chosen = contour[near[side]]
        if len(chosen) >= 3:
            vx, vy, x0, y0 = cv2.fitLine(chosen.astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                         0.01).ravel()
            points[side], directions[side] = (x0, y0), (vx, vy)
    # Corner k is where side k-1 meets side k: solve p1 + t d1 = p2 + u d2.
    p1, d1 = points[[3, 0, 1, 2]], directions[[3, 0, 1, 2]]
    p2, d2 = points, directions
    cross = d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]
    if np.abs(cross).min() < 1e-6:
        return corners
    offset = p2 - p1
    t = (offset[:, 0] * d2[:, 1] - offset[:, 1] * d2[:, 0]) / cross
    result = p1 + t[:, None] * d1
    if float(np.abs(result - corners).max()) > 6:  # a bad fit: trust the polygon
        return corners
    return np.asarray(result, np.float64)


def _size_error(points: Points, to_table: Matrix | None) -> float:
    """How far (relative) a candidate's sides are from a window's (0: exact)."""
    if to_table is None:
        return 0.0
    first, second = _sides(transform_points(to_table, points))
    return max(abs(first / WINDOW_WIDTH_MM - 1), abs(second / WINDOW_HEIGHT_MM - 1))


def _table_box(grey_image: Image, image_to_table: Matrix | None
               ) -> tuple[np.ndarray, np.ndarray]:
    """The part of the frame worth searching: the table and its markers' surroundings (when the
    table is known), else the whole frame."""
    height, width = grey_image.shape[:2]
    whole = (np.array([0, 0]), np.array([width, height]))
    if image_to_table is None:
        return whole
    try:
        to_image = np.asarray(np.linalg.inv(image_to_table), np.float64)
    except np.linalg.LinAlgError:
        return whole
    reach = TABLE_REACH_MM
    corners = np.array([[-reach, -reach], [TABLE_WIDTH_MM + reach, -reach],
                        [TABLE_WIDTH_MM + reach, TABLE_HEIGHT_MM + reach],
                        [-reach, TABLE_HEIGHT_MM + reach]])
    seen = transform_points(to_image, corners)
    if not np.isfinite(seen).all():
        return whole
    low = np.clip(np.floor(seen.min(axis=0)), 0, [width, height]).astype(int)
    high = np.clip(np.ceil(seen.max(axis=0)), 0, [width, height]).astype(int)
    if (high - low).min() < 32:
        return whole
    return low, high


def find_cards(grey_image: Image, image_to_table: Matrix | None = None,
               thresholds: tuple[Threshold, ...] = (THRESHOLD,)) -> list[FoundCard]:
    """Every card window in a grey frame, rectified.

    ``image_to_table``: homography to table millimetres, if the table was found; without it
    only the window's shape is checked (more false candidates, which identification rejects).
    ``thresholds``: the local thresholds the windows are looked for with, pooled.
    Where candidates overlap, the one closest to a window's size wins (without a homography the
    smallest).
    """
    low, high = _table_box(grey_image, image_to_table)
    searched = np.ascontiguousarray(grey_image[low[1]:high[1], low[0]:high[0]])
    candidates = [candidate for threshold in thresholds
                  for candidate in _windows(ink(searched, threshold), low, image_to_table)]
    candidates.sort(key=lambda candidate: (candidate[0], candidate[1]))
    found: list[FoundCard] = []
    centres: list[Points] = []
    for _, _, corners in candidates:
        centre = corners.mean(axis=0)
        reach = 0.3 * min(_sides(corners))
        if centres and float(np.hypot(*(np.array(centres) - centre).T).min()) < reach:
            continue
        patch = patch_of(grey_image, corners)
        if _is_paper(patch):
            found.append(FoundCard(corners, patch))
            centres.append(centre)
    return found


def _windows(marked: Image, low: np.ndarray, image_to_table: Matrix | None
             ) -> list[tuple[float, float, Points]]:
    """The holes of an ink image (``marked``, cut from the frame at ``low``) that have a card
    window's shape: each with its size error, area and corners in frame pixels."""
    contours, hierarchy = cv2.findContours(marked, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE,
                                           offset=(int(low[0]), int(low[1])))
    if hierarchy is None:
        return []
    candidates: list[tuple[float, float, Points]] = []
    # A window of MIN_AREA_PX has a rim of at least four times its square root in pixels.
    min_rim = 4 * MIN_AREA_PX ** 0.5
    for contour, links in zip(contours, hierarchy[0], strict=True):
        if links[3] < 0 or len(contour) < min_rim:  # not a hole in a dark blob, or too small
            continue
        area = cv2.contourArea(contour)
        if area < MIN_AREA_PX:
            continue
        # Blur can join an icon or digit to the frame, denting the hole; its convex hull is the
        # window again (the side fits below ignore the dent's points).
        hull = cv2.convexHull(contour)
        polygon = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        if len(polygon) != 4:
            continue
        corners = _clockwise(polygon.reshape(4, 2).astype(np.float64))
        if _shape_ok(corners, image_to_table, slack=2.5) is None:  # cheap test before refining
            continue
        corners = _refine(contour.reshape(-1, 2).astype(np.float64), corners)
        ordered = _shape_ok(corners, image_to_table)
        if ordered is not None:
            candidates.append((_size_error(ordered, image_to_table), area, ordered))
    return candidates


def _is_paper(patch: Image) -> bool:
    """Whether a rectified window is light paper inside a darker frame line."""
    inside = float(np.median(patch[2 * PATCH_PAD:-2 * PATCH_PAD, 2 * PATCH_PAD:-2 * PATCH_PAD]))
    rim = np.concatenate([patch[0], patch[-1], patch[:, 0], patch[:, -1]])
    return inside - float(rim.mean()) > MIN_PAPER_CONTRAST
