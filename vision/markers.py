"""The printed table markers: drawing them, and finding the table from them in a frame.

Four ArUco markers (dictionary 4x4_50, ids 0-3) taped at the table corners give the homography
from the camera image to table millimetres (``vision.table``). A hand over a marker must not lose
the table, so ``TableFinder`` keeps the last good homography until all four are seen again.

The camera stands still, so the homography is kept, too, while the markers lie where they lay
when it was fitted: fitted again on every noisy frame it would wander (by up to 24 px at the
table's far corners on a steep, blurred view), and everything found through it would move
with it. It is fitted again when the camera moved (a marker it was fitted from moved by more
than ``STEADY_PX``) or when more markers show than it was fitted from.

A marker the detector finds as a square but cannot read (small and blurred: the far corner of
a steep table) is looked for again where the markers it did read put it (ArUco's board
refinement), so the table is fitted from all four where it can be.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.imaging import Image, Matrix, Points, frame_px, grey, transform_points
from vision.rollecate_table import START_MARKER_ID, START_MARKER_MM
from vision.table import MARKER_IDS, MARKER_SIZE_MM, TABLE_HEIGHT_MM, TABLE_WIDTH_MM

DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
"""The ArUco dictionary the markers come from."""

MARKER_CENTRES_MM: dict[int, tuple[float, float]] = dict(zip(MARKER_IDS, [
    (0.0, 0.0), (TABLE_WIDTH_MM, 0.0), (TABLE_WIDTH_MM, TABLE_HEIGHT_MM), (0.0, TABLE_HEIGHT_MM)],
    strict=True))
"""Where each marker's centre is, in table millimetres."""
STEADY_PX = 2.5
"""A marker whose corners lie within this (their mean, image pixels) of where they lay when the
homography was fitted has not moved. Found again on still, noisy frames, a marker's corners
move by up to 1.6 px on hard rendered tables (0.35-1.1 px on medium ones); a camera turned by
a quarter of a degree moves the table's corners by about 3 px. Set at 1280 x 720; a frame of
more pixels allows as many more (``frame_px``): the same turn of the camera."""
REFOUND_PX = 10.0
"""How close (image pixels, at 1280 x 720) a square the detector could not read must lie to
where the markers read put a missing marker for it to be read again as that marker (OpenCV's
own default)..."""
REFOUND_FIT_PX = 4.0
"""...and how close its corners must then lie, on average, to where the table fitted from all
the markers puts them (pixels at 1280 x 720; a marker's corners are found within 0.2-2.2 px on
hard rendered tables), or it is taken for something else and left out."""


def marker_image(marker_id: int, side: int) -> Image:
    """Marker ``marker_id`` as a ``side`` x ``side`` grey image (black square, no white border)."""
    return np.asarray(cv2.aruco.generateImageMarker(DICTIONARY, marker_id, side), np.uint8)


def _marker_corners_mm(marker_id: int) -> np.ndarray:
    x, y = MARKER_CENTRES_MM[marker_id]
    h = MARKER_SIZE_MM / 2
    return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]], np.float64)


@dataclass
class TableFinder:
    """Finds the table in frames and remembers it while markers are covered."""

    homography: Matrix | None = None
    """Image pixels to table millimetres, from the last frame where enough markers showed."""
    seen: int = 0
    """How many markers the last frame showed."""
    extra: dict[int, np.ndarray] = field(default_factory=dict)
    """Centres in image pixels of other markers (a game's tiles), as last seen."""
    fitted: dict[int, Points] = field(default_factory=dict)
    """Corners in image pixels of the table markers the homography was fitted from."""

    def __post_init__(self) -> None:
        parameters = cv2.aruco.DetectorParameters()
        # Two threshold scales instead of three: printed markers are crisp and large enough,
        # and this halves the time the detector takes on a busy 720p frame.
        parameters.adaptiveThreshWinSizeMin = 5
        parameters.adaptiveThreshWinSizeMax = 15
        parameters.adaptiveThreshWinSizeStep = 10
        self._detector = cv2.aruco.ArucoDetector(DICTIONARY, parameters)
        self._board = cv2.aruco.Board(
            [np.hstack([_marker_corners_mm(marker_id), np.zeros((4, 1))]).astype(np.float32)
             for marker_id in MARKER_IDS], DICTIONARY, np.array(MARKER_IDS))

    def on_table(self, marker_id: int) -> Points | None:
        """Where another marker (a game's tile) was last seen, in table millimetres; None if
        it was not seen or the table is not found."""
        seen = self.extra.get(marker_id)
        if seen is None or self.homography is None:
            return None
        return np.asarray(transform_points(self.homography, seen[None, :])[0], np.float64)

    def update(self, frame: Image) -> Matrix | None:
        """Look for the markers in ``frame``; return the homography to use for it (maybe old).

        Two markers are enough (each gives four corners); with fewer, the last good one stays,
        and so it does while the markers have not moved (``STEADY_PX``).
        """
        markers = self._markers(grey(frame), frame.shape[1])
        self.seen = len(markers)
        if self.seen >= 2 and not self._steady(markers, frame_px(STEADY_PX, frame.shape[1])):
            found = _fitted(markers)
            if found is not None:
                self.homography = found
                self.fitted = markers
        return self.homography

    def _markers(self, image: Image, width: int) -> dict[int, Points]:
        """The table markers in ``image`` (grey, ``width`` pixels wide): their corners in
        image pixels, by id; other markers go to ``extra``."""
        corners, ids, rejected = self._detector.detectMarkers(image)
        read = set() if ids is None else {int(marker_id) for marker_id in ids.ravel()}
        if 2 <= len(read & set(MARKER_IDS)) < len(MARKER_IDS) and len(rejected):
            refine = self._detector.getRefineParameters()
            refine.minRepDistance = frame_px(REFOUND_PX, width)
            self._detector.setRefineParameters(refine)
            corners, ids, _, _ = self._detector.refineDetectedMarkers(
                image, self._board, corners, ids, rejected)
        markers: dict[int, Points] = {}
        for quad, marker_id in zip(corners, [] if ids is None else map(int, ids.ravel()),
                                   strict=True):
            points = np.asarray(quad, np.float64).reshape(4, 2)
            if marker_id in MARKER_CENTRES_MM:
                markers[marker_id] = points
            else:
                self.extra[marker_id] = points.mean(axis=0)
        refound = [marker_id for marker_id in markers if marker_id not in read]
        if refound:
            # Read again with fewer errors allowed for: kept only where the whole table agrees.
            found = _fitted(markers)
            limit = frame_px(REFOUND_FIT_PX, width)
            for marker_id in refound:
                if found is None or _misfit(found, marker_id, markers[marker_id]) > limit:
                    del markers[marker_id]
        return markers

    def _steady(self, markers: dict[int, Points], steady: float) -> bool:
        """Whether the homography stays for a frame showing ``markers`` (corners in image
        pixels): no more of them than it was fitted from, and every one of those seen lying
        still, within ``steady`` pixels (a camera turned about a point near one marker moves
        only the others; a hand over a marker hides it)."""
        if self.homography is None or len(markers) > len(self.fitted):
            return False
        common = [marker_id for marker_id in markers if marker_id in self.fitted]
        return bool(common) and all(
            float(np.hypot(*(markers[marker_id] - self.fitted[marker_id]).T).mean())
            <= steady for marker_id in common)


def _fitted(markers: dict[int, Points]) -> Matrix | None:
    """The homography from image pixels to table millimetres that ``markers`` (corners in
    image pixels, by id) give, if they give one."""
    found, _ = cv2.findHomography(
        np.concatenate(list(markers.values())),
        np.concatenate([_marker_corners_mm(marker_id) for marker_id in markers]))
    return None if found is None else np.asarray(found, np.float64)


def _misfit(to_table: Matrix, marker_id: int, corners: Points) -> float:
    """How far (mean, image pixels) ``corners`` lie from where ``to_table`` puts the corners
    of marker ``marker_id``."""
    to_image = np.asarray(np.linalg.inv(to_table), np.float64)
    expected = transform_points(to_image, _marker_corners_mm(marker_id))
    return float(np.hypot(*(expected - corners).T).mean())


A4_MM = (210.0, 297.0)
"""Paper size of the printable sheets."""


def marker_sheet(px_per_mm: float = 6.0) -> Image:
    """A printable A4 page (grey, white paper) with the four table markers and their places,
    and Rollecate's start tile.

    Print at 100 % (each table marker's black square must measure 50 mm), cut them apart and
    tape marker 0 at the far-left corner of the play area, then clockwise: 1 far right, 2 near
    right, 3 near left, "near" being the camera's side. The start tile lies just before the
    railway's first card, its arrow along the railway.
    """
    width, height = round(A4_MM[0] * px_per_mm), round(A4_MM[1] * px_per_mm)
    page = np.full((height, width), 255, np.uint8)
    places = ["far left", "far right", "near right", "near left"]
    for index, marker_id in enumerate(MARKER_IDS):
        column, row = index % 2, index // 2
        _cut_out(page, marker_id, MARKER_SIZE_MM, (30 + column * 95, 30 + row * 95),
                 f"{marker_id}: {places[index]}", px_per_mm)
    _cut_out(page, START_MARKER_ID, START_MARKER_MM, (30, 220),
             f"{START_MARKER_ID}: Rollecate start ->", px_per_mm)
    cv2.putText(page, "Print at 100%: big squares 50 mm",
                (round(15 * px_per_mm), round(288 * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                px_per_mm * 0.3, 0, max(1, round(px_per_mm / 4)), cv2.LINE_AA)
    return page


def _cut_out(page: Image, marker_id: int, side_mm: float, at_mm: tuple[float, float],
             label: str, px_per_mm: float) -> None:
    """One marker with its label and a dashed cut line round it, leaving the white border the
    detector needs."""
    side = round(side_mm * px_per_mm)
    x, y = round(at_mm[0] * px_per_mm), round(at_mm[1] * px_per_mm)
    page[y:y + side, x:x + side] = marker_image(marker_id, side)
    cv2.putText(page, label, (x, y + side + round(10 * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                px_per_mm * 0.35, 0, max(1, round(px_per_mm / 4)), cv2.LINE_AA)
    margin = round(10 * px_per_mm)
    box = (x - margin, y - margin, x + side + margin, y + side + round(16 * px_per_mm))
    dash, step = round(2 * px_per_mm), round(4 * px_per_mm)
    for start in range(box[0], box[2], step):
        end = min(start + dash, box[2])
        cv2.line(page, (start, box[1]), (end, box[1]), 160, 1)
        cv2.line(page, (start, box[3]), (end, box[3]), 160, 1)
    for start in range(box[1], box[3], step):
        end = min(start + dash, box[3])
        cv2.line(page, (box[0], start), (box[0], end), 160, 1)
        cv2.line(page, (box[2], start), (box[2], end), 160, 1)
