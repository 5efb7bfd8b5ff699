"""The cloth round the cards, and outlines that show the cloth rather than a card.

The outline search finds a card's shape wherever edges line up: a striped or checked cloth's
stripes, a card's side continued into the cloth, a card's band and the cloth beyond it, a
marker sheet's margin. Such an outline matches no enrolled card well, but a real card the namer
cannot tell apart may match none well either, so the reference score cannot tell a ghost from
a card left unnamed. What lies inside it can: a ghost shows the cloth, a card paper and print.

The cloth is learnt from the frame itself (no calibration): the table seen from above, shrunk,
its colours counted where no outline and no marker lies. Its colours are the commonest there,
those making up ``CLOTH_SHARE`` of it, less any the cards sure to be cards show more often (a
flowered cloth's pink blobs, the pink of a deck's paper). An unnamed outline whose own part
(not under another card found), or a half of it, is mostly of the cloth's colours is no card.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.imaging import Image, Matrix, Points
from vision.markers import MARKER_CENTRES_MM
from vision.table import MARKER_SIZE_MM, TABLE_HEIGHT_MM, TABLE_WIDTH_MM

CLOTH_PX_PER_MM = 0.4
"""Resolution the table is looked at for its cloth (a stripe or a check is still several pixels
wide; a card 25 x 35 pixels)."""
VIEW_SIZE = (round(TABLE_WIDTH_MM * CLOTH_PX_PER_MM), round(TABLE_HEIGHT_MM * CLOTH_PX_PER_MM))
"""Width and height of the table seen from above at that resolution."""
LEVELS = 8
"""Bins per colour channel (of 256 grey levels each)."""
CLOTH_SHARE = 0.9
"""The cloth's colours: the commonest bins that together hold this share of its pixels."""
CARD_MARGIN_MM = 4.0
"""Margin round every outline found (a card's shadow, an outline a little off) left out of the
cloth's sample."""
MARKER_MARGIN_MM = 20.0
"""Margin round a marker's black square (its sheet's white paper) left out of the sample."""
MIN_CLOTH_PX = 500
"""Fewest pixels of cloth (a table covered in cards shows none), and of the sure cards' paper
(one card's), worth learning colours from."""

Bins = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Sample:
    """Where one frame's table, seen from above and shrunk, shows its cloth and where the
    paper of the cards sure to be cards: drawn once for the cloth as seen and made even."""

    cloth: npt.NDArray[np.bool_]
    """Neither an outline found (with its ``CARD_MARGIN_MM``) nor a marker's sheet lies there."""
    paper: npt.NDArray[np.bool_]
    """Inside an outline sure to be a card, its margin (rounded corners, an outline a little
    off) left out."""
    outlines: list[Points]
    """Every outline found (corners in table millimetres)."""

    @classmethod
    def of(cls, shape: tuple[int, ...], outlines: list[Points], sure: list[bool]) -> Sample:
        """The sample of the shrunk view (``shape``) with these ``outlines`` found, those
        ``sure`` to be cards telling their paper."""
        scale = CLOTH_PX_PER_MM
        taken = _covered(shape, outlines)
        half = (MARKER_SIZE_MM / 2 + MARKER_MARGIN_MM) * scale
        for x, y in MARKER_CENTRES_MM.values():
            cv2.rectangle(taken, (round(x * scale - half), round(y * scale - half)),
                          (round(x * scale + half), round(y * scale + half)), 255, -1)
        paper = _inside(shape, [corners for corners, card in zip(outlines, sure, strict=True)
                                if card])
        return cls(taken == 0, paper, outlines)


@dataclass(frozen=True)
class Cloth:
    """The colours of the cloth on one frame's table, and where outlines lie over it."""

    bins: Bins
    """Each pixel's colour bin in the shrunk top-down view."""
    common: npt.NDArray[np.bool_]
    """For each colour bin: whether it is one of the cloth's colours."""

    @classmethod
    def of(cls, view: Image, outlines: list[Points], sure: list[bool], even: bool = False
           ) -> Cloth | None:
        """The cloth of a table seen from above (``table_view``), from the table outside the
        ``outlines`` (corners in table millimetres) and the markers, told from the cards by
        those outlines ``sure`` to be cards, its light made ``even`` (``_evenly_lit``) or as
        seen; None where too little of either shows."""
        return cls.learnt(view, Sample.of(view.shape, outlines, sure), even)

    @classmethod
    def learnt(cls, view: Image, sample: Sample, even: bool = False) -> Cloth | None:
        """``of``, with where the cloth and the sure cards' paper lie already drawn."""
        if even and np.count_nonzero(sample.cloth) >= MIN_CLOTH_PX:
            view = _evenly_lit(view, sample.cloth)
        step = 256 // LEVELS
        quantized = np.asarray(view, np.int32) // step
        bins = np.asarray((quantized[..., 0] * LEVELS + quantized[..., 1]) * LEVELS
                          + quantized[..., 2], np.int32)
        cloth = bins[sample.cloth]
        papers = [bins[sample.paper]]
        if cloth.size < MIN_CLOTH_PX or papers[0].size < MIN_CLOTH_PX:
            return None
        # A deck read mostly unnamed (a plain deck at 720p, a hard Trains-look table) has few
        # sure cards to teach its paper; made even, its unnamed cards' colours can move into
        # the cloth's commonest bins (the light falls on them as on the cloth), and on the
        # tuning tables one card so went. Every outline found shows mostly the deck's paper.
        if even:
            papers.append(bins[_inside(bins.shape, sample.outlines)])
        counts = np.bincount(cloth, minlength=LEVELS ** 3)
        order = np.argsort(-counts)
        needed = int(np.searchsorted(np.cumsum(counts[order]), CLOTH_SHARE * cloth.size)) + 1
        common = np.zeros(LEVELS ** 3, np.bool_)
        common[order[:needed]] = True
        # A colour both show is the cloth's only where the cloth shows it more often.
        for paper in papers:
            common &= counts / cloth.size > np.bincount(paper, minlength=LEVELS ** 3) / paper.size
        return cls(bins, common)

    def shares(self, corners: Points, others: list[Points]) -> tuple[float, float]:
        """Share of the outline at ``corners`` (table millimetres) showing the cloth's colours,
        counting only its part not under one of ``others`` (1.0 when all of it is), and the
        largest such share of its four halves (top, bottom, left, right; 0.0 when under)."""
        # Another card's margin (its shadow) is left out here as it is from the cloth's sample.
        return self._shares(corners, _covered(self.bins.shape, others) == 0, (0, 0))

    def _shares(self, corners: Points, free: npt.NDArray[np.bool_], origin: tuple[int, int]
                ) -> tuple[float, float]:
        """``shares``, counting only the outline's pixels that are ``free``, in the part of
        the view as large as ``free`` whose top-left pixel is ``origin`` (the outline's
        box)."""
        if free.size == 0:  # wholly off the table
            return 1.0, 0.0
        scale = CLOTH_PX_PER_MM
        top_left, top_right, bottom_right, bottom_left = corners
        left, right = (top_left + bottom_left) / 2, (top_right + bottom_right) / 2
        top, bottom = (top_left + top_right) / 2, (bottom_left + bottom_right) / 2
        parts = [corners, np.array([top_left, top_right, right, left]),
                 np.array([left, right, bottom_right, bottom_left]),
                 np.array([top_left, top, bottom, bottom_left]),
                 np.array([top, top_right, bottom_right, bottom])]
        bins = self.bins[origin[1]:origin[1] + free.shape[0], origin[0]:origin[0] + free.shape[1]]
        found = []
        for part in parts:
            inside = np.zeros(free.shape, np.uint8)
            cv2.fillConvexPoly(inside, np.round(part * scale).astype(np.int32) - origin, 255)
            own = bins[(inside > 0) & free]
            found.append(float(self.common[own].mean()) if own.size else -1.0)
        whole = found[0] if found[0] >= 0 else 1.0
        return whole, max(0.0, *found[1:])


LIGHT_STEP = 4
"""One pixel in this many along each axis of the view is fitted the light's plane."""


def _evenly_lit(view: Image, cloth: npt.NDArray[np.bool_]) -> Image:
    """``view`` with its light made even: each pixel's brightness divided by a plane fitted
    to the (logarithm of the) brightness of the ``cloth`` pixels, as bright on average over
    them as before.

    Light falling off across the table darkens the dim end's cloth by a bin or more, where
    its colours are too rare over the whole table to be among the cloth's; a card lies in the
    same light, so its colours move with the cloth's. A plane: a curved fit followed the
    cloth's own pattern and the cards' shadows, and on the tuning tables left more ghosts."""
    # A plane needs few of the cloth's pixels: one in LIGHT_STEP along each axis.
    ys, xs = np.nonzero(cloth[::LIGHT_STEP, ::LIGHT_STEP])
    brightness = np.log(view[ys * LIGHT_STEP, xs * LIGHT_STEP].mean(axis=1) + 1.0)
    ys, xs = ys * LIGHT_STEP, xs * LIGHT_STEP
    design = np.stack([np.ones(ys.size), xs, ys])
    normal = design @ design.T
    if np.linalg.matrix_rank(normal) < 3:  # the pixels on one line: no plane to fit
        return view
    _, across, down = np.linalg.solve(normal, design @ brightness)
    mean = float(np.mean(across * xs + down * ys))
    height, width = cloth.shape
    # The plane's exponential is a product of one along the rows and one down the columns.
    gain = np.asarray(np.exp(mean - across * np.arange(width))[np.newaxis, :]
                      * np.exp(-down * np.arange(height))[:, np.newaxis], np.float32)
    return np.asarray(np.minimum(view * gain[..., np.newaxis], 255), np.uint8)


def table_view(frame: Image, image_to_table: Matrix) -> Image:
    """The table of a BGR frame seen from above at ``CLOTH_PX_PER_MM``, the markers' centres
    at its corners."""
    scale = CLOTH_PX_PER_MM
    to_view = np.array([[scale, 0, 0], [0, scale, 0], [0, 0, 1]], np.float64) @ image_to_table
    return np.asarray(cv2.warpPerspective(frame, to_view, VIEW_SIZE, flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE), np.uint8)


def within(view: Image, table_to_view: Matrix) -> Image:
    """``table_view`` picked out of a finer top-down view of the same frame, one already
    warped (``table_to_view``: table millimetres to its pixels, a whole multiple of
    ``CLOTH_PX_PER_MM`` with its origin on a whole pixel): every few pixels of it are the very
    points ``table_view`` samples, so the frame is not warped again."""
    step = table_to_view[0, 0] / CLOTH_PX_PER_MM
    left, top = table_to_view[0, 2], table_to_view[1, 2]
    if not (float(step).is_integer() and float(left).is_integer() and float(top).is_integer()
            and table_to_view[1, 1] == table_to_view[0, 0]):
        raise ValueError("the view's pixels do not fall on the cloth's")
    step, left, top = int(step), int(left), int(top)
    width, height = VIEW_SIZE
    return view[top:top + step * height:step, left:left + step * width:step]


def _covered(shape: tuple[int, ...], outlines: list[Points], origin: tuple[int, int] = (0, 0)
             ) -> Image:
    """255 where one of the outlines (table millimetres) or its ``CARD_MARGIN_MM`` lies, in the
    shrunk top-down view (``shape``: the part of it whose top-left pixel is ``origin``)."""
    scale = CLOTH_PX_PER_MM
    covered = np.zeros(shape[:2], np.uint8)
    if covered.size == 0:
        return covered
    for corners in outlines:
        cv2.fillConvexPoly(covered, np.round(corners * scale).astype(np.int32) - origin, 255)
    margin = max(1, round(CARD_MARGIN_MM * scale))
    return np.asarray(cv2.dilate(covered, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8)),
                      np.uint8)


def _inside(shape: tuple[int, ...], outlines: list[Points]) -> npt.NDArray[np.bool_]:
    """Where the shrunk top-down view (``shape``) lies inside one of the ``outlines`` (table
    millimetres), their ``CARD_MARGIN_MM`` margins (rounded corners, an outline a little off)
    left out."""
    scale = CLOTH_PX_PER_MM
    inside = np.zeros(shape[:2], np.uint8)
    for corners in outlines:
        cv2.fillConvexPoly(inside, np.round(corners * scale).astype(np.int32), 255)
    margin = max(1, round(CARD_MARGIN_MM * scale))
    return np.asarray(cv2.erode(inside, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8))
                      > 0, np.bool_)


def _box(corners: Points, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Left, top, right and bottom of the part of the shrunk top-down view (``shape``) an
    outline (table millimetres) with its ``CARD_MARGIN_MM`` can cover."""
    points = np.round(corners * CLOTH_PX_PER_MM).astype(np.int32)
    margin = max(1, round(CARD_MARGIN_MM * CLOTH_PX_PER_MM))
    left, top = np.clip(points.min(axis=0) - margin, 0, (shape[1], shape[0]))
    right, bottom = np.clip(points.max(axis=0) + margin + 1, (left, top), (shape[1], shape[0]))
    return int(left), int(top), int(right), int(bottom)


CLOTH_ONLY = 0.7
"""Share of an outline's own part in the cloth's colours from which it shows only cloth."""
HALF_ON_CLOTH = 0.85
"""The same for one half of it (an outline half on a card, half on the cloth). On the tuning
deck's tables no unnamed card showed 0.8 in any half; with ``CLOTH_ONLY`` 106 of 122 ghosts
go."""
MARKER_COVER = 0.5
"""Share of a marker's black square an outline covers from which it is the marker's sheet."""


def ghosts(view: Image, outlines: list[Points], doubtful: list[bool], sure: list[bool]
           ) -> list[bool]:
    """For each outline (corners in table millimetres), whether it is not a card: a
    ``doubtful`` one (not named) that covers a marker's square, or whose own part, or a half
    of it, shows the cloth of the table seen from above in ``view`` (``table_view``). The
    cloth is told from the cards by the outlines ``sure`` to be cards (named, or matching a
    card well). Outlines not doubtful are never ghosts."""
    verdict = [doubt and _on_marker(corners) for corners, doubt in
               zip(outlines, doubtful, strict=True)]
    judged = [index for index, doubt in enumerate(doubtful) if doubt and not verdict[index]]
    # The cloth as seen, and in light made even: each finds ghosts the other misses (the
    # dim end of a cloth in light falling off; a stripe's colour split across bins once made
    # even), and on the tuning tables neither took a card the other kept.
    if not judged:
        return verdict
    sample = Sample.of(view.shape, outlines, sure)
    clothes = [cloth for cloth in (Cloth.learnt(view, sample, even) for even in (False, True))
               if cloth is not None]
    if not clothes:
        return verdict
    # How many outlines (with their margins) cover each pixel: the others' are that less its
    # own. Each is drawn in its own box, not over the whole view.
    boxes = [_box(corners, clothes[0].bins.shape) for corners in outlines]
    own = [_covered((bottom - top, right - left), [corners], (left, top)) > 0
           for corners, (left, top, right, bottom) in zip(outlines, boxes, strict=True)]
    count = np.zeros(clothes[0].bins.shape, np.int32)
    for (left, top, right, bottom), mine in zip(boxes, own, strict=True):
        count[top:bottom, left:right] += mine
    for index in judged:
        left, top, right, bottom = boxes[index]
        free = count[top:bottom, left:right] - own[index] == 0
        verdict[index] = any(whole >= CLOTH_ONLY or half >= HALF_ON_CLOTH for whole, half in
                             (cloth._shares(outlines[index], free, (left, top))
                              for cloth in clothes))
    return verdict


def _on_marker(corners: Points) -> bool:
    half = MARKER_SIZE_MM / 2
    outline = corners.astype(np.float32)
    return any(cv2.intersectConvexConvex(outline, np.array(
        [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]],
        np.float32))[0] >= MARKER_COVER * MARKER_SIZE_MM ** 2
        for x, y in MARKER_CENTRES_MM.values())
