"""Finding cards by their outline, without any frame line: a card is a rectangle of its deck's
known size in millimetres, its edge a step against the cloth or a neighbouring card.

The markers give the table plane, so the frame is looked at from straight above
(``TOPDOWN_PX_PER_MM``), where every card of a deck has the same size. There:

1. Edges, in colour (each pixel's gradient is that of its strongest channel), so a card the
   cloth's brightness still differs from it in hue.
2. Every edge pixel votes for where a card's centre would be if it lay on a long side (half a
   width along its gradient, either way) or a short side (half a height): a card's four sides
   pile their votes on its two axes, which cross at its centre. Peaks are candidates.
3. Each candidate's angle comes from the edge directions round it; its pose is refined to where
   the card's outline (straight sides; the rounded corners are left out) lies on edges running
   along it, and it is kept if enough of each side does (cards touching in a line, or lying in
   a pile, still show most of their outline; a glare spot or a hand hides a side's part).
   A pose kept is tried shifted along its axes onto the card's own rim, where one fits better
   (a picture's edge or a band with the cloth beyond can hold an outline off the card).
4. Overlapping candidates: the one whose outline is most complete wins (the top of a pile).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.imaging import Image, Matrix, Points, frame_px
from vision.markers import MARKER_CENTRES_MM
from vision.table import MARKER_SIZE_MM, TABLE_HEIGHT_MM, TABLE_WIDTH_MM

TOPDOWN_PX_PER_MM = 0.8
"""Resolution of the top-down view cards are looked for in (identification then reads the
camera's own pixels)."""
REACH_MM = 60.0
"""How far beyond the markers' centres cards are looked for."""
EDGE_STRENGTH = 40.0
"""Gradient (Sobel units along the outline's normal) an edge pixel needs to support a side
surely (and to vote for a card's centre)."""
FAINT_STRENGTH = 25.0
"""...and to support it at all: an outline kept only on such fainter edges (``_kept`` at
``EDGE_STRENGTH`` refuses it) is a faint outline, a card only where it is named
(``Outline.guess``). A dark card on a dark wooden cloth shows its sides at 25-40; a cloth's
stripes fit a card's outline at that strength too, but name no card."""
ALONG = 0.75
"""Share of an edge pixel's gradient that must lie along the outline's normal: an edge running
across the outline (artwork, a cloth's stripes) is no support."""
FIT_CAP = 4 * EDGE_STRENGTH
"""Gradient above which an edge counts no more in the fit (one very strong edge, such as a
marker's, must not outweigh the rest of the outline)."""
MIN_SUPPORT = 0.62
"""Share of a card's outline that must lie on edges."""
MIN_SIDE_SUPPORT = 0.25
"""...and of each side: three sides and a line through a card are not a card..."""
OPEN_SIDE_SUPPORT = 0.6
"""...unless each of the three is this well shown (a card touching another alike, whose shared
side shows no edge)."""
MAX_OVERLAP = 0.25
"""Share of a card's area another accepted card may cover (a pile's cards below the top)."""
MAX_CANDIDATES = 300
"""Vote peaks examined per frame (on a busy cloth a table shows 500-2,000: a line of cards on
stripes, each of whose cards fits its outline all round, can rank below 400)."""
WINDOW_CANDIDATES = 40
"""Fewest vote peaks examined in a window searched again round a change."""
REFINE_STEPS = ((12.0, 3.0), (6.0, 3.0), (3.0, 1.5), (1.5, 0.75), (0.75, 0.4), (0.4, 0.2))
"""Pose search steps (millimetres, degrees), coarse to fine: the first reaches a card whose
vote peak lies up to 9 mm off its centre."""
EARLY_SUPPORT = (0.3, 0.5, 0.55)
"""Support below which a candidate is dropped after the first steps (most vote peaks are the
crossings of other cards' axes or of the cloth's edges, far from any outline)."""
RIM_FROM_MM = 9.0
"""Shortest shift tried round a pose kept, along each of the card's axes (up to half a card
either way), for the card's own rim (``OutlineFinder._own_rims``; the refinement reaches
nearer ones)..."""
RIM_SHIFT_MM = 2.5
"""...and their spacing..."""
RIM_SURE = 0.9
"""...round a pose unless each of its sides lies this well on edges..."""
RIM_EVERY = 3
"""...scored on every so many rim samples..."""
RIM_PROMISE = 1.05
"""...the best shift is refined if its fit (unrefined) is this many times the pose's..."""
RIM_BETTER = 1.1
"""...and taken if it then fits this much better, with more of it on edges..."""
RIM_TOUCH = 0.05
"""...unless it then covers another pose more than before by this share of a card."""
ANGLE_SLACK_MM = 4.0
"""How far from where a side would lie (the peak taken for the centre) an edge may be and
still tell the card's turn."""
ANGLE_BATCH = 32
"""Peaks whose turns are worked out together (more, and their arrays leave the cache)."""
PEAK_FLOOR = 1.0
"""Smallest (blurred) vote count worth examining; a card's centre gets 2-6."""
LINE_ROUNDS = 8
"""How many cards along a line of touching cards are followed from one found."""
LINE_GAP_MM = 0.7
"""Gap assumed between touching cards of a line."""
LINE_SIDE_SUPPORT = 0.6
"""Support each of the two sides continuing a line needs for a card followed along it."""
CORNER_MARGIN_MM = 1.5
"""Outline left out at each end of a side, beyond the rounded corner."""
SAMPLE_MM = 2.5
"""Spacing of the outline's sample points."""
CHANGE_MARGIN_MM = 4.0
"""Margin round a changed part of the frame within which a card counts as touched by the
change (a block's edge, blur)."""
WINDOW_SLACK_MM = 12.0
"""Margin of a search window beyond the cards that may touch a change: how far a pose moves
while it is refined, plus the gradient's reach."""
LINE_SCAN_MM = 1.0
"""Spacing of the samples along a line's two long sides when its ends are looked for."""
LINE_BAND_MM = (-1.2, 0.0, 1.2)
"""Offsets across a line's side at which an edge counts as the side's (cards of a line lie a
little off its straight course)."""
LINE_TURNS = (-1.0, -0.5, 0.0, 0.5, 1.0)
"""Turns (degrees) of a line tried round its first card's: the line's course."""
LINE_CLOSE_MM = 12.0
"""Length of a break in a line's sides still bridged (a gap between cards, a glare spot)."""
LINE_DENSITY_MM = 8.0
"""Length over which the share of a line's side lying on edges is taken..."""
LINE_DENSITY = 0.4
"""...which each of its two long sides needs all along the line (a blurred, low-contrast
side is patchy)."""
LINE_SAME_MM = 4.0
"""A card of a line placed whole this near one found on its own is the same card."""
LINE_END_MM = 1.0
"""How far a line's end lies beyond the last sample whose two sides show (the rounded
corner)."""
LINE_PITCH_SLACK_MM = 1.5
"""How far a line's card pitch, from its length and its count of cards, may lie off the card's
width plus ``LINE_GAP_MM``."""
LINE_PHASE_MM = 5.0
"""A card found on a line this near (along it, modulo the pitch) to where the line's cards
were placed already adds no new placing of the line's cards."""
CLOTH_BLUR_MM = 2.0
"""Smoothing of a frame's difference from the empty table's cloth."""
CLOTH_GAIN = 3.0
"""Stretch of that difference before its gradient is taken (it is a tenth of the cloth's
brightness under a card of the cloth's colour)."""
WHOLE_TABLE_SHARE = 0.5
"""Share of the top-down view above which a change is searched as a whole new table."""

Floats = npt.NDArray[np.float32]
Window = tuple[int, int, int, int]
"""A rectangle of the top-down view: left, top, right, bottom (pixels, right and bottom
excluded)."""


@dataclass(frozen=True)
class Outline:
    """A card found by its outline, in table millimetres."""

    centre: tuple[float, float]
    """Centre on the table, millimetres."""
    degrees: float
    """Turn of the card's assumed top from pointing up (clockwise, 0-180: which end is the top
    is settled by identification)."""
    support: float
    """Share of the outline lying on edges."""
    corners: Points
    """Corners in table millimetres: assumed top-left, top-right, bottom-right, bottom-left."""
    guess: bool = False
    """Placed a pitch apart from a card found on its line (``OutlineFinder._placed_lines``),
    one of several placings of that line, or found on faint edges only (``FAINT_STRENGTH``): a
    card only where it is named."""


def _rotation(degrees: float) -> npt.NDArray[np.float64]:
    radians = np.radians(degrees)
    c, s = np.cos(radians), np.sin(radians)
    return np.array([[c, -s], [s, c]])


def card_corners_mm(centre: tuple[float, float], degrees: float,
                    card_mm: tuple[float, float]) -> Points:
    """Corners (top-left, top-right, bottom-right, bottom-left) of a card on the table."""
    width, height = card_mm
    half = np.array([[-width, -height], [width, -height], [width, height], [-width, height]]) / 2
    return np.asarray(half @ _rotation(degrees).T + np.array(centre), np.float64)


@dataclass(frozen=True)
class _Rim:
    """Sample points of a card's straight sides (card millimetres, centre origin), with their
    outward normals and which side each belongs to."""

    points: npt.NDArray[np.float64]
    normals: npt.NDArray[np.float64]
    side: npt.NDArray[np.int64]


def _rim(card_mm: tuple[float, float], radius_mm: float) -> _Rim:
    width, height = card_mm
    points, normals, sides = [], [], []
    margin = radius_mm + CORNER_MARGIN_MM
    for side, (length, offset, normal) in enumerate(
            ((width, height / 2, (0, -1)), (height, width / 2, (1, 0)),
             (width, height / 2, (0, 1)), (height, width / 2, (-1, 0)))):
        along = np.arange(-length / 2 + margin, length / 2 - margin + 1e-6, SAMPLE_MM)
        n = np.array(normal, np.float64)
        tangent = np.array([-n[1], n[0]])
        points.append(along[:, None] * tangent + n * offset)
        normals.append(np.repeat(n[None], len(along), axis=0))
        sides.append(np.full(len(along), side))
    return _Rim(np.concatenate(points), np.concatenate(normals), np.concatenate(sides))


@dataclass(frozen=True)
class _RimSamples:
    """Every so many of a rim's samples, as ``OutlineFinder._score`` turns them: in view
    pixels, 32-bit floats."""

    px: Floats
    py: Floats
    """A column: each sample's x and y (a row per sample)."""
    side: npt.NDArray[np.int64]
    blocks: list[tuple[slice, bool]]
    """Each side's block of samples (the rim lists its sides one after the other), and
    whether its normal lies along the card's x axis."""

    @staticmethod
    def of(rim: _Rim, every: int) -> _RimSamples:
        """Every ``every``-th sample of ``rim``."""
        points = rim.points[::every].astype(np.float32)
        normals = rim.normals[::every].astype(np.float32)
        side = rim.side[::every]
        scale = TOPDOWN_PX_PER_MM
        return _RimSamples(points[:, 0:1] * scale, points[:, 1:2] * scale, side,
                           [(slice(first, last), bool(normals[first, 0] != 0))
                            for first, last in _runs(side)])


@dataclass(frozen=True)
class _Gradient:
    """The top-down view's x and y gradient, two channels of one image: sampled together,
    both at once (bilinear, at OpenCV's weights rounded to a 32nd of a pixel)."""

    xy: Floats

    def at(self, xs: Floats, ys: Floats) -> tuple[Floats, Floats]:
        """The gradient's x and y at view pixels ``xs``, ``ys`` (a 2-D grid of them; 0 off
        the view)."""
        sampled = np.asarray(cv2.remap(self.xy, xs, ys, cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_CONSTANT), np.float32)
        return sampled[..., 0], sampled[..., 1]


@dataclass(frozen=True)
class Changes:
    """Where a frame changed since the last one searched, in the top-down view: the cards
    touching it are to be searched again, the rest kept."""

    zone: npt.NDArray[np.bool_]
    """Pixels of the top-down view that changed (with ``CHANGE_MARGIN_MM`` round them)."""
    windows: list[Window]
    """Rectangles of the view to search: every card touching the zone lies wholly inside
    one."""

    def touches(self, corners_mm: Points) -> bool:
        """Whether a card (corners in table millimetres) touches the changed zone."""
        polygon = np.rint((corners_mm + REACH_MM) * TOPDOWN_PX_PER_MM).astype(np.int32)
        height, width = self.zone.shape
        left, top = np.clip(polygon.min(axis=0), 0, (width, height))
        right, bottom = np.clip(polygon.max(axis=0) + 1, 0, (width, height))
        if right <= left or bottom <= top:
            return False
        mask = np.zeros((bottom - top, right - left), np.uint8)
        cv2.fillConvexPoly(mask, polygon - (left, top), 1)
        return bool((self.zone[top:bottom, left:right] & (mask > 0)).any())


class OutlineFinder:
    """Finds cards of one size on a table seen through a known homography."""

    def __init__(self, card_mm: tuple[float, float], radius_mm: float = 3.5) -> None:
        self.card_mm = card_mm
        self.cloth: Image | None = None
        """The empty table seen from above (``learn_cloth``), if it was looked at."""
        self.rim = _rim(card_mm, radius_mm)
        # _score runs hundreds of times a table on a few subsamplings of the same rim.
        self._rim_samples: dict[int, _RimSamples] = {}
        scale = TOPDOWN_PX_PER_MM
        self.size = (round((TABLE_WIDTH_MM + 2 * REACH_MM) * scale),
                     round((TABLE_HEIGHT_MM + 2 * REACH_MM) * scale))
        self.table_to_view = np.array([[scale, 0, REACH_MM * scale], [0, scale, REACH_MM * scale],
                                       [0, 0, 1]], np.float64)

    def view(self, frame: Image, image_to_table: Matrix, window: Window | None = None
             ) -> Image:
        """The table seen from straight above (BGR), at ``TOPDOWN_PX_PER_MM`` (``window``:
        only that rectangle of it)."""
        left, top, right, bottom = window or (0, 0, *self.size)
        shift = np.array([[1, 0, -left], [0, 1, -top], [0, 0, 1]], np.float64)
        return np.asarray(cv2.warpPerspective(frame, shift @ self.table_to_view @ image_to_table,
                                              (right - left, bottom - top),
                                              flags=cv2.INTER_LINEAR,
                                              borderMode=cv2.BORDER_REPLICATE), np.uint8)

    def learn_cloth(self, empty: Image, image_to_table: Matrix) -> None:
        """Remember the empty table (a BGR frame of it, with its homography): where a frame
        differs from it, a card's outline shows even where the card has the cloth's colour."""
        self.cloth = self.view(empty, image_to_table)

    def find(self, frame: Image, image_to_table: Matrix, max_overlap: float = MAX_OVERLAP,
             window: Window | None = None, rivals: bool = False, view: Image | None = None
             ) -> list[Outline]:
        """Every card outline on the table, most complete first, none covering a more
        complete one by more than ``max_overlap`` of its area (``window``: only cards lying
        wholly inside that rectangle of the top-down view, as ``Changes.windows`` gives).

        Cards of a line placed whole (``_placed_lines``) follow, where no card found on its
        own lies; with ``rivals``, also where one does, and placed a pitch apart from each card
        found on the line too (for a caller that names them all and keeps the better named:
        along a line of Rollecate's track cards the card found on its own sits a rail's
        spacing off, along a line of artwork cards the placed line may); faint outlines
        (``Outline.guess``, a card only where named) only with ``rivals``.
        ``view``: the frame's top-down view (of the window), where the caller has it already.
        """
        left, top = (window or (0, 0))[:2]
        view = self.view(frame, image_to_table, window) if view is None else view
        gx, gy = _colour_gradient(view)
        if self.cloth is not None:
            right, bottom = (window or (0, 0, *self.size))[2:]
            gx, gy = _with_cloth(view, self.cloth[top:bottom, left:right], gx, gy)
        edges = _Edges.of(gx, gy)
        peaks, reserve = self._peaks(edges)
        scale = TOPDOWN_PX_PER_MM
        gradient = _Gradient(np.asarray(cv2.merge([gx, gy]), np.float32))
        cards = self._cards(gradient, self._starts(peaks, edges))
        # A card's sides, and a track card's rails and sleepers, cast peaks inside the card
        # found there (on a Rollecate table about half the strongest): each peak so spent is
        # given to the next strongest lying outside every card found, where a loose card on a
        # busy cloth ranks in the hundreds. Refined apart: merged with the first poses, such
        # a start's pose can take the place of a card found before (rollpeaks).
        # Only a card alike touching a card found shows three sides (_kept), and that card
        # is walked to from it (_along_lines): a pose away from every card found, showing
        # three, is stripes or flowers.
        spent = int(self._inside(cards, peaks).sum())
        if spent and reserve:
            more = [reserve[index] for index in
                    np.flatnonzero(~self._inside(cards, reserve))[:spent]]
            loose = self._cards(gradient, self._starts(more, edges))
            cards = cards.joined(loose.chosen(loose.sides.min(axis=1) >= MIN_SIDE_SUPPORT))
        on_table = cards.centres / scale + np.array([left, top]) / scale - REACH_MM
        # A marker's white square: three of its sides fit a card's.
        cards = cards.chosen(np.all([np.hypot(*(on_table - marker).T) >= MARKER_SIZE_MM
                                     for marker in MARKER_CENTRES_MM.values()], axis=0))
        cards = cards.joined(self._along_lines(gradient, cards))
        _, support, sides = self._score(gradient, cards.centres, cards.turns,
                                        strength=EDGE_STRENGTH)
        faint = ~_kept(replace(cards, support=support, sides=sides))
        own = self._outlines(cards, (left, top), max_overlap, faint)
        # Placings of a line a rail apart fit its edges alike: all are kept, to be named.
        cut, phased = self._placed_lines(gradient, cards, rivals)
        placed = (self._outlines(cut, (left, top), 1.0)
                  + self._outlines(phased, (left, top), 1.0, True))
        # A placed card where one was found surely on its own already is that card.
        sure = [outline for outline in own if not outline.guess]
        centres = np.array([outline.centre for outline in sure], np.float64).reshape(-1, 2)
        turns = np.array([outline.degrees for outline in sure], np.float64)
        placed = [outline for outline in placed if not np.any(
            (np.hypot(*(np.array(outline.centre) - centres).T) < LINE_SAME_MM)
            & (_turns_apart(outline.degrees, turns) < 3.0))]
        both = own + placed
        if rivals:
            return both
        both = [outline for outline in both if not outline.guess]
        kept = apart([outline.corners for outline in both],
                     [float(len(both) - index) for index in range(len(both))], self.card_mm,
                     max_overlap)
        return [both[index] for index in sorted(kept)]

    def _outlines(self, cards: _Poses, corner: tuple[int, int], max_overlap: float,
                  guess: npt.NDArray[np.bool_] | bool = False) -> list[Outline]:
        """Poses of the view (whose top-left is ``corner`` of the whole view) as outlines on
        the table, most complete first, none covering a more complete one by more than
        ``max_overlap`` (``guess``: which are ``Outline.guess``, or whether all are)."""
        scale = TOPDOWN_PX_PER_MM
        guesses = np.broadcast_to(guess, len(cards.centres))
        found: list[Outline] = []
        for (cx, cy), turn, support, guessed in zip(cards.centres, cards.turns, cards.support,
                                                    guesses, strict=True):
            centre = ((cx + corner[0]) / scale - REACH_MM, (cy + corner[1]) / scale - REACH_MM)
            found.append(Outline(centre, float(turn) % 180.0, float(support),
                                 card_corners_mm(centre, float(turn) % 180.0, self.card_mm),
                                 bool(guessed)))
        kept = apart([outline.corners for outline in found],
                     [outline.support for outline in found], self.card_mm, max_overlap)
        return [found[index] for index in kept]

    def changes(self, changed: npt.NDArray[np.bool_], frame_size: tuple[int, int],
                image_to_table: Matrix) -> Changes | None:
        """Where a frame changed, from ``changed`` (blocks of the frame, any grid over the
        whole ``frame_size``); None when so much changed that the whole table is to be
        searched."""
        rows, columns = changed.shape
        block_x, block_y = frame_size[0] / columns, frame_size[1] / rows
        blocks_to_frame = np.array([[block_x, 0, (block_x - 1) / 2],
                                    [0, block_y, (block_y - 1) / 2], [0, 0, 1]], np.float64)
        warped = cv2.warpPerspective(
            changed.astype(np.uint8) * 255, self.table_to_view @ image_to_table @ blocks_to_frame,
            self.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        margin = 2 * round(CHANGE_MARGIN_MM * TOPDOWN_PX_PER_MM) + 1
        spread = np.asarray(cv2.dilate(warped, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (margin, margin))), np.uint8)
        count, _, stats, _ = cv2.connectedComponentsWithStats((spread > 0).astype(np.uint8))
        reach = round((float(np.hypot(*self.card_mm)) + WINDOW_SLACK_MM) * TOPDOWN_PX_PER_MM)
        width, height = self.size
        windows = [(max(0, int(x) - reach), max(0, int(y) - reach),
                    min(width, int(x + w) + reach), min(height, int(y + h) + reach))
                   for x, y, w, h, _ in stats[1:count]]
        windows = _merged(windows)
        if sum((right - left) * (bottom - top) for left, top, right, bottom in windows
               ) > WHOLE_TABLE_SHARE * width * height:
            return None
        return Changes(spread > 0, windows)

    def _peaks(self, edges: _Edges) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """Where many edge pixels' votes for a card centre meet, strongest first: those to
        examine, and the rest."""
        ys, xs, nx, ny = edges.ys, edges.xs, edges.nx, edges.ny
        if len(xs) == 0:
            return [], []
        height, width = edges.shape
        scale = TOPDOWN_PX_PER_MM
        cast = []
        for half in (self.card_mm[0] / 2 * scale, self.card_mm[1] / 2 * scale):
            for sign in (-1.0, 1.0):
                vx = np.rint(xs + sign * half * nx).astype(np.int64)
                vy = np.rint(ys + sign * half * ny).astype(np.int64)
                inside = (vx >= 0) & (vx < width) & (vy >= 0) & (vy < height)
                cast.append(vy[inside] * width + vx[inside])
        votes = np.bincount(np.concatenate(cast), minlength=width * height).astype(np.float64)
        grid = cv2.GaussianBlur(votes.reshape(height, width).astype(np.float32), (0, 0),
                                3.0 * scale)
        local = cv2.dilate(grid, cv2.getStructuringElement(
            cv2.MORPH_RECT, (int(12 * scale) | 1, int(12 * scale) | 1)))
        floor = PEAK_FLOOR
        py, px = np.nonzero((grid >= local) & (grid > floor))
        # A window examines as many peaks per area as the whole table, but never few: a card
        # just laid is among the strongest there.
        share = width * height / (self.size[0] * self.size[1])
        cap = max(WINDOW_CANDIDATES, round(MAX_CANDIDATES * share))
        ranked = [(int(px[i]), int(py[i])) for i in np.argsort(-grid[py, px])]
        return ranked[:cap], ranked[cap:]

    def _starts(self, peaks: list[tuple[int, int]], edges: _Edges
                ) -> list[tuple[tuple[int, int], float]]:
        """Each peak with its likely turn and a quarter turn on (a peak with no edges round
        it, none)."""
        return [(peak, degrees) for peak, main in zip(peaks, self._angles(peaks, edges),
                                                      strict=True)
                if main is not None for degrees in (main, main + 90.0)]

    def _inside(self, cards: _Poses, peaks: list[tuple[int, int]]) -> npt.NDArray[np.bool_]:
        """Which peaks lie inside one of the cards."""
        inside = np.zeros(len(peaks), bool)
        if not peaks or not len(cards.centres):
            return inside
        offsets = np.array(peaks, np.float64)[:, None] - cards.centres[None]
        radians = np.radians(cards.turns)
        c, s = np.cos(radians), np.sin(radians)
        half_width, half_height = (size / 2 * TOPDOWN_PX_PER_MM for size in self.card_mm)
        across = np.abs(offsets[..., 0] * c + offsets[..., 1] * s) < half_width
        down = np.abs(offsets[..., 1] * c - offsets[..., 0] * s) < half_height
        return np.asarray((across & down).any(axis=1), bool)

    def _angles(self, peaks: list[tuple[int, int]], edges: _Edges) -> list[float | None]:
        """Each peak's card's likely turn (None: no edges round it): the main direction
        (modulo 90 degrees) of the edges that could be its sides; the card's long side may
        lie either way, a turn 90 degrees on.

        A few dozen peaks a pass (not one numpy pass per peak): each peak's square of the view
        is read from a map of edge numbers, row by row as a peak's own pass read it,
        so each histogram sums the same strengths in the same order."""
        if not peaks:
            return []
        scale = TOPDOWN_PX_PER_MM
        reach = int(0.5 * float(np.hypot(*self.card_mm)) * scale) + 2
        half_width, half_height = (size / 2 * scale for size in self.card_mm)
        slack = ANGLE_SLACK_MM * scale
        # Each edge pixel's number in the list (-1: no edge), padded by the reach so every
        # peak's square lies inside; read row by row, a square lists its edges in order.
        numbers = np.full((edges.shape[0] + 2 * reach, edges.shape[1] + 2 * reach), -1,
                          np.int32)
        numbers[edges.ys + reach, edges.xs + reach] = np.arange(len(edges.ys), dtype=np.int32)
        squares = np.lib.stride_tricks.sliding_window_view(numbers, (2 * reach + 1,) * 2)
        # A side's pixel lies in a ring round the peak (a pixel beyond it cannot pass the test
        # below, with a pixel to spare for rounding): only the ring's pixels are tested.
        offsets = np.arange(-reach, reach + 1) ** 2
        distance = np.sqrt(offsets[:, None] + offsets[None, :]).ravel()
        ring = np.flatnonzero((distance > min(half_width, half_height) - slack - 1)
                              & (distance < max(np.hypot(half_width + slack, half_height),
                                                np.hypot(half_height + slack, half_width)) + 1))
        histograms, seen = [], []
        # A few dozen peaks at a time: their arrays stay in the processor's cache.
        for first in range(0, len(peaks), ANGLE_BATCH):
            x, y = np.array(peaks[first:first + ANGLE_BATCH], np.int64).T
            around = squares[y, x].reshape(len(x), -1)
            owner, index = _listed(around[:, ring])
            nx, ny = edges.nx[index], edges.ny[index]
            dx, dy = edges.xs[index] - x[owner], edges.ys[index] - y[owner]
            # A side's pixel lies half the card's width (or height) from the centre along its
            # gradient, and within the card across it; on a busy cloth most edges round a
            # card do not, and would swamp the histogram.
            along, across = np.abs(dx * nx + dy * ny), np.abs(dx * ny - dy * nx)
            side = (((np.abs(along - half_width) < slack) & (across < half_height))
                    | ((np.abs(along - half_height) < slack) & (across < half_width)))
            owner, index = owner[side], index[side]
            # Where no edge could be a side, all of them tell the turn.
            sideless = np.flatnonzero(np.bincount(owner, minlength=len(x)) == 0)
            every_owner, every_index = _listed(around[sideless])
            owner = np.concatenate([owner, sideless[every_owner]])
            index = np.concatenate([index, every_index])
            histograms.append(np.bincount(owner * 90 + edges.bins[index],
                                          weights=edges.strength[index],
                                          minlength=90 * len(x)).reshape(len(x), 90))
            seen.append(np.bincount(owner, minlength=len(x)) > 0)
        mains: list[float | None] = []
        for histogram, any_edge in zip(np.concatenate(histograms), np.concatenate(seen),
                                       strict=True):
            smooth = np.convolve(np.concatenate([histogram[-2:], histogram, histogram[:2]]),
                                 np.ones(5), "valid")
            mains.append(float(np.argmax(smooth)) + 0.5 if any_edge else None)
        return mains

    def _score(self, gradient: _Gradient, centres: npt.NDArray[np.float64],
               turns: npt.NDArray[np.float64], every: int = 1, by_side: bool = True,
               strength: float | None = None) -> tuple[Floats, Floats, Floats]:
        """For each pose: how strongly the rim lies on edges running along it (the fit, which
        peaks where the outline sits exactly on the card's edge), the support (share of rim
        samples on such edges) and the support of each side (``every``: use every so many rim
        samples; ``by_side`` False: no sides, an empty array; ``strength``: the gradient along
        the normal a sample on an edge shows, ``FAINT_STRENGTH`` unless given). ``gradient``:
        the view's x and y gradient."""
        if not len(centres):  # cv2.remap refuses an empty map
            empty = np.zeros(0, np.float32)
            return empty, empty, np.zeros((0, 4 if by_side else 0), np.float32)
        rim = self._rim_samples.get(every)
        if rim is None:
            rim = self._rim_samples[every] = _RimSamples.of(self.rim, every)
        radians = np.radians(turns).astype(np.float32)
        c, s = np.cos(radians), np.sin(radians)
        # A row per rim sample, a column per pose: each side is a block of whole rows.
        xs = centres[:, 0].astype(np.float32) + c * rim.px - s * rim.py
        ys = centres[:, 1].astype(np.float32) + s * rim.px + c * rim.py
        sx, sy = gradient.at(np.asarray(xs, np.float32), np.asarray(ys, np.float32))
        # The rim's normals point along the card's axes, so turned they are (cos, sin) or
        # (-sin, cos), either way: the gradient across the rim is its x or y component
        # turned.
        along = np.empty_like(sx)
        for part, across_x in rim.blocks:
            if across_x:
                np.abs(sx[part] * c + sy[part] * s, out=along[part])
            else:
                np.abs(sy[part] * c - sx[part] * s, out=along[part])
        aligned = along > ALONG * np.hypot(sx, sy)
        on_edge = aligned & (along > (FAINT_STRENGTH if strength is None else strength))
        fit = (np.minimum(along, FIT_CAP) * aligned).mean(axis=0)
        if not by_side:
            return fit, on_edge.mean(axis=0), np.zeros((len(fit), 0), np.float32)
        sides = np.stack([on_edge[rim.side == k].mean(axis=0) for k in range(4)], axis=1)
        return fit, on_edge.mean(axis=0), sides

    def _refine(self, gradient: _Gradient, centres: npt.NDArray[np.float64],
                turns: npt.NDArray[np.float64], steps: tuple[tuple[float, float], ...],
                early: tuple[float, ...] = (), merge: bool = True) -> _Poses:
        """Each start's pose moved to where the rim lies best on edges, through ``steps``
        (millimetres, degrees), with its support and each side's.

        All candidates are refined together (one array operation per step); after each of
        the first steps, candidates whose support is under ``early`` are dropped (far from
        any card's outline), and of poses that met only the best is kept (``merge``; else
        every start keeps its pose, in order).
        """
        scale = TOPDOWN_PX_PER_MM
        origin = np.arange(len(centres))
        offsets = np.array([-1.0, 0.0, 1.0])
        dx, dy, dt = (grid.ravel() for grid in np.meshgrid(offsets, offsets, offsets,
                                                           indexing="ij"))
        for step, (step_mm, step_degrees) in enumerate(steps):
            count = len(centres)
            if not count:
                break
            trial_centres = (centres[:, None, :] + np.stack([dx, dy], axis=1)[None]
                             * step_mm * scale).reshape(-1, 2)
            trial_turns = (turns[:, None] + dt[None] * step_degrees).ravel()
            fits, supports, _ = self._score(gradient, trial_centres, trial_turns,
                                            3 if step_mm >= REFINE_STEPS[0][0] else 1, False)
            best = np.argmax(fits.reshape(count, -1), axis=1)
            rows = np.arange(count)
            centres = trial_centres.reshape(count, -1, 2)[rows, best]
            turns = trial_turns.reshape(count, -1)[rows, best]
            support = supports.reshape(count, -1)[rows, best]
            keep = (_distinct(centres, turns, fits.reshape(count, -1)[rows, best],
                              step_mm * scale) if merge else np.ones(count, bool))
            if step < len(early):
                keep &= support >= early[step]
            centres, turns, origin = centres[keep], turns[keep], origin[keep]
        _, support, sides = self._score(gradient, centres, turns)
        return _Poses(centres, turns, support, sides, origin)

    def _cards(self, gradient: _Gradient, starts: list[tuple[tuple[int, int], float]]) -> _Poses:
        """The starts refined to where a card's outline lies, those good enough."""
        if not starts:
            return _Poses.none()
        poses = self._refine(gradient, np.array([peak for peak, _ in starts], np.float64),
                             np.array([degrees for _, degrees in starts], np.float64),
                             REFINE_STEPS, EARLY_SUPPORT)
        return self._own_rims(gradient, poses.chosen(_kept(poses)))

    def _own_rims(self, gradient: _Gradient, cards: _Poses) -> _Poses:
        """Each card kept moved onto its own rim where one lies beside it: a card's picture
        edge, band or rails with the cloth beyond can hold a card-sized outline off the card
        (12-57 mm), its vote peak too far from the card's centre for the refinement to reach.

        Shifts along either of the pose's axes, up to half a card, are scored; the best, if
        it comes near the pose's fit, is refined and taken where it fits clearly better and
        more of it lies on edges, unless it then covers another pose more."""
        if not len(cards.centres):
            return cards
        scale = TOPDOWN_PX_PER_MM
        width, height = self.card_mm
        steps = [np.arange(RIM_FROM_MM, half + 1e-6, RIM_SHIFT_MM) for half in
                 (width / 2, height / 2)]
        along = np.concatenate([np.concatenate([steps[0], -steps[0]]),
                                np.zeros(2 * len(steps[1]))])
        across = np.concatenate([np.zeros(2 * len(steps[0])),
                                 np.concatenate([steps[1], -steps[1]])])
        radians = np.radians(cards.turns)[:, None]
        c, s = np.cos(radians), np.sin(radians)
        trial_centres = cards.centres[:, None, :] + np.stack(
            [c * along - s * across, s * along + c * across], axis=2) * scale
        shifts = len(along)
        # A pose whose every side lies on edges is on a rim already.
        doubtful = np.flatnonzero(cards.sides.min(axis=1) < RIM_SURE)
        if not len(doubtful):
            return cards
        fits, _, _ = self._score(gradient, np.concatenate([
            cards.centres[doubtful], trial_centres[doubtful].reshape(-1, 2)]), np.concatenate([
                cards.turns[doubtful], np.repeat(cards.turns[doubtful], shifts)]), RIM_EVERY,
            False)
        own, trials = fits[:len(doubtful)], fits[len(doubtful):].reshape(-1, shifts)
        best = np.argmax(trials, axis=1)
        promising = trials[np.arange(len(doubtful)), best] >= RIM_PROMISE * own
        rows, best = doubtful[promising], best[promising]
        if not len(rows):
            return cards
        moved = self._refine(gradient, trial_centres[rows, best], cards.turns[rows],
                             REFINE_STEPS[-3:], merge=False)
        own_fit, _, _ = self._score(gradient, cards.centres[rows], cards.turns[rows],
                                    by_side=False)
        new_fit, _, _ = self._score(gradient, moved.centres, moved.turns, by_side=False)
        better = (_kept(moved) & (new_fit >= RIM_BETTER * own_fit)
                  & (moved.support > cards.support[rows]))
        centres, turns = cards.centres.copy(), cards.turns.copy()
        support, sides = cards.support.copy(), cards.sides.copy()
        for index, row in zip(np.flatnonzero(better), rows[better], strict=True):
            if self._covers_another(cards, row, moved.centres[index], moved.turns[index]):
                continue
            centres[row], turns[row] = moved.centres[index], moved.turns[index]
            support[row], sides[row] = moved.support[index], moved.sides[index]
        return _Poses(centres, turns, support, sides, cards.origin)

    def _covers_another(self, cards: _Poses, row: int, centre: npt.NDArray[np.float64],
                        turn: float) -> bool:
        """Whether a card's pose moved to ``centre`` and ``turn`` would cover another of
        ``cards`` more than its pose did (by ``RIM_TOUCH`` of a card; a card apart from it, or
        one better supported): that is another card's rim, not its own. Along a line of
        white-bordered cards touching end to end an outline from one picture's edge to the
        next lies wholly on edges, and a pile's lower card would move onto its top."""
        scale = TOPDOWN_PX_PER_MM
        size = (self.card_mm[0] * scale, self.card_mm[1] * scale)
        before = card_corners_mm(tuple(cards.centres[row]), float(cards.turns[row]),
                                 size).astype(np.float32)
        after = card_corners_mm((float(centre[0]), float(centre[1])), turn,
                                size).astype(np.float32)
        area = size[0] * size[1]
        for other in np.flatnonzero(np.hypot(*(cards.centres - centre).T) < np.hypot(*size)):
            if other == row:
                continue
            corners = card_corners_mm(tuple(cards.centres[other]), float(cards.turns[other]),
                                      size).astype(np.float32)
            covered = cv2.intersectConvexConvex(before, corners)[0]
            # A pose this card's pose covers much, and less well supported, is another guess
            # at the same card (a vote peak's other turn, an outline off the other way).
            if ((covered <= MAX_OVERLAP * area or cards.support[other] >= cards.support[row])
                    and cv2.intersectConvexConvex(after, corners)[0]
                    > covered + RIM_TOUCH * area):
                return True
        return False

    def _along_lines(self, gradient: _Gradient, cards: _Poses) -> _Poses:
        """Cards touching those found in a line, where the sides they share show no edge
        (touching cards alike).

        From each card found, across each side, the line is walked card by card: a
        neighbour laid edge to edge is taken if the two sides continuing the line lie on
        edges. A walk is kept only if it ends where a line of cards does: at a card whose far
        side shows, or at a card found already (a cloth's stripes run on past the card's
        length, and end nowhere in particular).
        """
        scale = TOPDOWN_PX_PER_MM
        width, height = self.card_mm
        steps = [np.array(normal) * (length + LINE_GAP_MM) * scale for normal, length in
                 (((0.0, -1.0), height), ((1.0, 0.0), width), ((0.0, 1.0), height),
                  ((-1.0, 0.0), width))]
        walks: list[tuple[npt.NDArray[np.float64], float, int, list[_Poses]]] = [
            (centre, float(turn), side, []) for centre, turn, shown in zip(
                cards.centres, cards.turns, cards.sides, strict=True)
            for side in range(4)]
        taken: list[_Poses] = []
        for _ in range(LINE_ROUNDS):
            going = []
            for centre, turn, side, members in walks:
                spot = centre + _rotation(turn) @ steps[side]
                if np.hypot(*(cards.centres - spot).T).min(initial=np.inf) < width / 2 * scale:
                    taken += members  # the line reached a card found already
                else:
                    going.append((spot, turn, side, members))
            if not going:
                break
            poses = self._refine(gradient, np.array([spot for spot, *_ in going]),
                                 np.array([turn for _, turn, *_ in going]), REFINE_STEPS[-3:],
                                 merge=False)
            walks = []
            for index, (_, _, side, members) in enumerate(going):
                shown = poses.sides[index]
                if min(shown[(side + 1) % 4], shown[(side + 3) % 4]) < LINE_SIDE_SUPPORT:
                    continue  # the line's sides end with no card at its end: not a line
                walked = [*members, poses.chosen(np.array([index]))]
                if shown[side] >= LINE_SIDE_SUPPORT:
                    taken += walked  # the line's last card
                else:
                    walks.append((poses.centres[index], float(poses.turns[index]), side,
                                  walked))
        return functools.reduce(_Poses.joined, taken, _Poses.none())

    def _placed_lines(self, gradient: _Gradient, cards: _Poses, phased: bool = True
                      ) -> tuple[_Poses, _Poses]:
        """The cards of lines of touching cards placed whole: card by card, a card's pose is
        pulled by whatever edges lie inside a line (Rollecate's rails repeat card after card,
        so an outline a rail's spacing off fits them as well as the true one), but the line's
        two long sides begin and end with the line.

        Through each card found, the sides along its width are followed both ways to where
        they stop (``_line_through``); a line holding a whole number of cards (two or more) is
        cut into them evenly, each refined a little. Longer lines first: a line that a break
        in its sides cut short is part of a longer one. Its ends can lie inside its end cards
        (a card of the cloth's colour shows its sides only in part) and its cut be off, so the
        line's cards are also placed a pitch apart from each card found on it that lies off
        the placings made already, modulo the pitch (``phased``: for a caller that names them
        all and keeps the better named). The lines cut evenly, then those other placings.
        """
        lines: list[_Line] = []
        tried: list[npt.NDArray[np.float64]] = []
        for index in np.argsort(-cards.support):
            centre = cards.centres[index]
            # A card on a line found already, or where another card was tried, adds nothing
            # (and following a line costs as much as finding the cards).
            if any(line.holds(centre) for line in lines) or any(
                    np.hypot(*(centre - other)) < LINE_SAME_MM * TOPDOWN_PX_PER_MM
                    for other in tried):
                continue
            tried.append(centre)
            line = self._line_through(gradient, centre, float(cards.turns[index]))
            if line is not None:
                lines.append(line)
        kept: list[_Line] = []
        for line in sorted(lines, key=lambda line: -line.count):
            if not any(other.holds(spot) for other in kept for spot in line.spots()):
                kept.append(line)
        placings: list[tuple[npt.NDArray[np.float64], float]] = []
        phase = LINE_PHASE_MM * TOPDOWN_PX_PER_MM
        for line in kept:
            phases = [line.along(line.spots()[0])]
            for centre, turn in zip(cards.centres, cards.turns, strict=True) if phased else ():
                if not line.holds(centre) or turn_apart(float(turn), line.turn) > 3.0:
                    continue
                offset = line.along(centre)
                if any(abs((offset - other + line.pitch / 2) % line.pitch - line.pitch / 2)
                       < phase for other in phases):
                    continue
                phases.append(offset)
                placings.append((line.phased(centre, phase), line.turn))
        def refined(chosen: list[tuple[npt.NDArray[np.float64], float]]) -> _Poses:
            return functools.reduce(_Poses.joined, (
                self._refine(gradient, spots, np.full(len(spots), turn), REFINE_STEPS[-3:],
                             merge=False) for spots, turn in chosen if len(spots)),
                _Poses.none())

        return refined([(line.spots(), line.turn) for line in kept]), refined(placings)

    def _line_through(self, gradient: _Gradient, centre: npt.NDArray[np.float64], turn: float
                      ) -> _Line | None:
        """The line of touching cards a card (centre in view pixels, turn) lies in, from
        where the two sides along its width stop showing, both ways; None if they stop at
        the card (a card alone), run on past ``LINE_ROUNDS`` cards (a cloth's stripes), or
        the line holds no whole number of cards."""
        scale = TOPDOWN_PX_PER_MM
        width, height = self.card_mm
        reach = LINE_ROUNDS * (width + LINE_GAP_MM) + width
        along = np.arange(-reach, reach + 1e-6, LINE_SCAN_MM)
        middle = len(along) // 2
        own = np.abs(along) <= width / 2 - CORNER_MARGIN_MM - 3.5
        window = round(LINE_DENSITY_MM / LINE_SCAN_MM)
        close = round(LINE_CLOSE_MM / LINE_SCAN_MM) | 1
        radians = np.radians(turn + np.array(LINE_TURNS))
        course = np.stack([np.cos(radians), np.sin(radians)], axis=1)  # (turns, 2)
        normal = np.stack([-course[:, 1], course[:, 0]], axis=1)
        across = (np.array([-1.0, 1.0])[:, None] * height / 2
                  + np.array(LINE_BAND_MM)[None])  # (sides, bands)
        # Each axis apart, the samples last (numpy is slow over a last axis of two).
        xs, ys = ((centre[axis] + (along[None, None, None, :] * course[:, axis, None, None, None]
                                   + across[None, :, :, None] * normal[:, axis, None, None, None])
                   * scale).astype(np.float32) for axis in (0, 1))  # (turns, sides, bands, samples)
        # One normal a row of samples (a turn's side and band), not one a sample.
        normals = np.repeat(normal, across.size, axis=0)[:, None]
        on_edge = _on_edge(gradient, xs.reshape(-1, len(along)), ys.reshape(-1, len(along)),
                           normals)
        shown = np.any(on_edge.reshape(xs.shape), axis=2)  # (turns, sides, samples)
        density = np.asarray(cv2.blur(shown.reshape(-1, len(along)).astype(np.float32),
                                      (window, 1), borderType=cv2.BORDER_CONSTANT),
                             np.float32).reshape(shown.shape)
        sides_shown = np.all(density >= LINE_DENSITY, axis=1).astype(np.uint8)
        both = np.asarray(cv2.morphologyEx(sides_shown, cv2.MORPH_CLOSE,
                                           np.ones((1, close), np.uint8)), np.uint8) > 0
        either = np.any(shown, axis=1)
        best: _Line | None = None
        for row in range(len(LINE_TURNS)):
            if both[row, own].mean() < 0.8:
                continue
            off = np.flatnonzero(~both[row])
            start = int(off[off < middle].max(initial=-1)) + 1
            end = int(off[off > middle].min(initial=len(along))) - 1
            if start == 0 or end == len(along) - 1:
                continue  # the sides run on past the reach: a cloth's stripes
            # The run's ends are blurred by the density's window: the outermost edge seen
            # near each is the line's.
            start += int(np.argmax(either[row, start:start + window]))
            end -= int(np.argmax(either[row, end - window + 1:end + 1][::-1]))
            length = float(along[end] - along[start]) + 2 * LINE_END_MM
            count = round((length + LINE_GAP_MM) / (width + LINE_GAP_MM))
            pitch = (length + LINE_GAP_MM) / max(count, 1)
            if count < 2 or abs(pitch - width - LINE_GAP_MM) > LINE_PITCH_SLACK_MM:
                continue
            if best is None or count > best.count:
                first = centre + (along[start] - LINE_END_MM) * course[row] * scale
                best = _Line(first, course[row], float(turn + LINE_TURNS[row]), count,
                             pitch * scale, width * scale, height * scale)
        return best


def _kept(poses: _Poses) -> npt.NDArray[np.bool_]:
    """Which poses lie well enough on edges to be a card."""
    weakest, next_weakest = np.sort(poses.sides, axis=1)[:, :2].T
    # A card at the end of a line of touching cards alike shows no edge where it touches
    # the next: three sides, each well shown, make a card too.
    return np.asarray((poses.support >= MIN_SUPPORT)
                      & ((weakest >= MIN_SIDE_SUPPORT) | (next_weakest >= OPEN_SIDE_SUPPORT)),
                      bool)


@dataclass(frozen=True)
class _Line:
    """A line of touching cards placed whole, in the top-down view (pixels)."""

    first: npt.NDArray[np.float64]
    """Where the line begins: the middle of its first card's outer side."""
    course: npt.NDArray[np.float64]
    """Unit vector along the line."""
    turn: float
    """The cards' turn (degrees)."""
    count: int
    """How many cards it holds."""
    pitch: float
    """Distance between neighbouring cards' centres."""
    width: float
    height: float
    """A card's size."""

    @property
    def length(self) -> float:
        """From its first card's outer side to its last card's."""
        return self.count * self.pitch - (self.pitch - self.width)

    def spots(self) -> npt.NDArray[np.float64]:
        """The cards' centres, the line cut evenly."""
        steps = (np.arange(self.count) + 0.5) * self.pitch - (self.pitch - self.width) / 2
        return np.asarray(self.first[None] + steps[:, None] * self.course[None], np.float64)

    def along(self, spot: npt.NDArray[np.float64]) -> float:
        """How far along the line a point lies from its beginning."""
        return float((spot - self.first) @ self.course)

    def holds(self, spot: npt.NDArray[np.float64]) -> bool:
        """Whether a card's centre lies on the line (within its length, and half a card's
        height across it)."""
        offset = spot - self.first
        across = abs(float(offset @ np.array([-self.course[1], self.course[0]])))
        return 0 < self.along(spot) < self.count * self.pitch and across < self.height / 2

    def phased(self, spot: npt.NDArray[np.float64], overlap: float
               ) -> npt.NDArray[np.float64]:
        """The cards' centres if a card of the line lies centred at ``spot``: a pitch apart
        both ways, every card that overlaps the line's length by ``overlap`` (its ends may
        lie inside its end cards, where their sides hardly show against the cloth)."""
        offset = self.along(spot)
        reach = self.pitch / 2 - overlap
        steps = offset + self.pitch * np.arange(np.ceil((-reach - offset) / self.pitch),
                                                np.floor((self.length + reach - offset)
                                                         / self.pitch) + 1)
        start = spot - offset * self.course
        return np.asarray(start[None] + steps[:, None] * self.course[None], np.float64)


def _on_edge(gradient: _Gradient, xs: Floats, ys: Floats, normals: npt.NDArray[np.float64]
             ) -> npt.NDArray[np.bool_]:
    """Whether an edge running across its normal lies at each point ``xs``, ``ys`` (view
    pixels, rows and columns of them; ``normals`` broadcast against them)."""
    sx, sy = gradient.at(xs, ys)
    across = np.abs(sx * normals[..., 0] + sy * normals[..., 1])
    return np.asarray((across > ALONG * np.hypot(sx, sy)) & (across > EDGE_STRENGTH), bool)


@dataclass(frozen=True)
class _Edges:
    """The top-down view's edge pixels, row by row (as ``np.nonzero`` lists them)."""

    shape: tuple[int, int]
    """Height and width of the view."""
    ys: npt.NDArray[np.int64]
    xs: npt.NDArray[np.int64]
    strength: Floats
    """Gradient magnitude."""
    nx: Floats
    ny: Floats
    """Gradient direction (unit vector)."""
    bins: npt.NDArray[np.int64]
    """Gradient direction modulo 90 degrees, whole degrees (0-89)."""

    @staticmethod
    def of(gx: Floats, gy: Floats) -> _Edges:
        """The pixels whose gradient (``gx``, ``gy``) exceeds ``EDGE_STRENGTH``."""
        magnitude = np.asarray(cv2.magnitude(gx, gy), np.float32)
        ys, xs = np.nonzero(magnitude > EDGE_STRENGTH)
        strength = magnitude[ys, xs]
        edge_gx, edge_gy = gx[ys, xs], gy[ys, xs]
        degrees = np.asarray(np.degrees(np.arctan2(edge_gy, edge_gx)) % 90.0, np.float32)
        return _Edges((gx.shape[0], gx.shape[1]), ys, xs, strength, edge_gx / strength,
                      edge_gy / strength, degrees.astype(np.int64) % 90)


@dataclass(frozen=True)
class _Poses:
    """Card poses in the top-down view (pixels, degrees) with their support."""

    centres: npt.NDArray[np.float64]
    turns: npt.NDArray[np.float64]
    support: Floats
    sides: Floats
    """Support of each side (top, right, bottom, left of the card as turned)."""
    origin: npt.NDArray[np.int64]
    """Index of the start each pose was refined from."""

    @staticmethod
    def none() -> _Poses:
        """No poses at all."""
        return _Poses(np.zeros((0, 2)), np.zeros(0), np.zeros(0, np.float32),
                      np.zeros((0, 4), np.float32), np.zeros(0, np.int64))

    def chosen(self, which: npt.NDArray[np.bool_] | npt.NDArray[np.int64]) -> _Poses:
        """Only the poses ``which`` marks."""
        return _Poses(self.centres[which], self.turns[which], self.support[which],
                      self.sides[which], self.origin[which])

    def joined(self, other: _Poses) -> _Poses:
        """These poses, then ``other``'s."""
        return _Poses(*(np.concatenate([mine, theirs]) for mine, theirs in zip(
            (self.centres, self.turns, self.support, self.sides, self.origin),
            (other.centres, other.turns, other.support, other.sides, other.origin),
            strict=True)))


def _merged(windows: list[Window]) -> list[Window]:
    """Rectangles joined wherever they overlap, so no card is searched for twice."""
    for first, a in enumerate(windows):
        for second in range(first + 1, len(windows)):
            b = windows[second]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                rest = [w for index, w in enumerate(windows) if index not in (first, second)]
                return _merged([*rest, (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                                        max(a[3], b[3]))])
    return windows


def _runs(labels: npt.NDArray[np.int64]) -> list[tuple[int, int]]:
    """The runs of equal neighbours in ``labels``: (first, last + 1) of each."""
    return list(itertools.pairwise([0, *(np.flatnonzero(np.diff(labels)) + 1).tolist(),
                                    len(labels)]))


def _listed(numbers: npt.NDArray[np.int32]) -> tuple[npt.NDArray[np.int64],
                                                     npt.NDArray[np.int64]]:
    """The edge numbers (-1: none) of each row of ``numbers``, in order, with their row."""
    present = numbers >= 0
    owner = np.repeat(np.arange(len(numbers)), present.sum(axis=1))
    return owner, numbers[present].astype(np.int64)


def _distinct(centres: npt.NDArray[np.float64], turns: npt.NDArray[np.float64],
              support: npt.NDArray[np.float64], reach: float) -> npt.NDArray[np.bool_]:
    """Which poses to keep: of poses that met (within ``reach`` pixels and 3 degrees, modulo
    180), the best supported."""
    order = np.argsort(-support)
    centres, turns = centres[order], turns[order]
    # Pairs lying within the reach along x (found through the poses sorted by x), then
    # tested in full: most of a table's poses meet none.
    by_x = np.argsort(centres[:, 0], kind="stable")
    xs = centres[by_x, 0]
    slack = reach + 1e-6  # a window no rounding narrows: the test below is exact
    low = np.searchsorted(xs, xs - slack, "left")
    counts = np.searchsorted(xs, xs + slack, "right") - low
    first = np.repeat(np.arange(len(xs)), counts)
    second = low[first] + np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    better, worse = by_x[first], by_x[second]  # in order of support: better lower
    pairs = better < worse
    better, worse = better[pairs], worse[pairs]
    near = np.hypot(*(centres[better] - centres[worse]).T) <= reach
    turn = _turns_apart(turns[better], turns[worse]) <= 3.0
    better, worse = better[near & turn], worse[near & turn]
    # Each pose is beaten by any better one that met it and was itself kept.
    kept = np.ones(len(order), bool)
    for index in np.unique(better):
        if kept[index]:
            kept[worse[better == index]] = False
    keep = np.zeros(len(order), bool)
    keep[order] = kept
    return keep


def _colour_gradient(view: Image) -> tuple[Floats, Floats]:
    """Sobel gradient of each pixel's strongest colour channel (lightly smoothed first)."""
    smooth = cv2.GaussianBlur(view, (3, 3), 0)
    gx = np.asarray(cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3), np.float32)
    gy = np.asarray(cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3), np.float32)
    energy = gx * gx + gy * gy
    # The first strongest channel (as argmax picks it), chosen plane by plane.
    blue, green, red = (energy[..., k] for k in range(3))
    first = (blue >= green) & (blue >= red)
    second = ~first & (green >= red)

    def strongest(gradient: Floats) -> Floats:
        return np.asarray(np.where(first, gradient[..., 0],
                                   np.where(second, gradient[..., 1], gradient[..., 2])),
                          np.float32)

    return strongest(gx), strongest(gy)


def _with_cloth(view: Image, cloth: Image, gx: Floats, gy: Floats) -> tuple[Floats, Floats]:
    """The colour gradient, or where it is stronger, the gradient of how far the view lies
    from the empty table's cloth (``cloth``, the same part of the view): a card the cloth's
    colour still covers the cloth's grain, and its rim is where that difference starts.

    The light may have changed since the cloth was seen: each colour is scaled by its median
    ratio first (most of the table is bare cloth)."""
    seen, bare = view.astype(np.float32) + 1.0, cloth.astype(np.float32) + 1.0
    ratio = np.median((seen / bare).reshape(-1, 3), axis=0)
    apart_ = np.abs(seen - bare * ratio).max(axis=2)
    # Smoothed (the cloth's fine grain under a flat card differs only here and there), then
    # stretched: a covered grain differs by a tenth of the cloth's brightness.
    smooth = np.asarray(cv2.GaussianBlur(apart_, (0, 0), CLOTH_BLUR_MM * TOPDOWN_PX_PER_MM)
                        * CLOTH_GAIN, np.float32)
    cx = np.asarray(cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3), np.float32)
    cy = np.asarray(cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3), np.float32)
    stronger = cx * cx + cy * cy > gx * gx + gy * gy
    return (np.asarray(np.where(stronger, cx, gx), np.float32),
            np.asarray(np.where(stronger, cy, gy), np.float32))


def turn_apart(first: float, second: float) -> float:
    """Degrees between two outlines' turns: a card's outline is the same turned half round."""
    return abs((first - second + 90.0) % 180.0 - 90.0)


def _turns_apart(first: float | npt.NDArray[np.float64], second: npt.NDArray[np.float64]
                 ) -> npt.NDArray[np.float64]:
    """``turn_apart`` of many turns at once."""
    return np.asarray(np.abs((first - second + 90.0) % 180.0 - 90.0), np.float64)


def apart(corners: list[Points], ranks: list[float], card_mm: tuple[float, float],
          max_overlap: float = MAX_OVERLAP) -> list[int]:
    """Indices of the cards to keep, best ``ranks`` first, leaving out any that another card
    kept covers by more than ``max_overlap`` of a card's area (corners in table mm)."""
    area = card_mm[0] * card_mm[1]
    reach = float(np.hypot(*card_mm))
    centres = np.array([points.mean(axis=0) for points in corners], np.float64).reshape(-1, 2)
    kept: list[int] = []
    for index in sorted(range(len(corners)), key=lambda i: -ranks[i]):
        polygon = corners[index].astype(np.float32)
        # Only cards kept within reach can cover it (one numpy pass, not one a card).
        near = np.array(kept, np.int64)[np.hypot(*(centres[kept] - centres[index]).T) < reach]
        if not any(cv2.intersectConvexConvex(polygon, corners[other].astype(np.float32))[0]
                   > max_overlap * area for other in near):
            kept.append(index)
    return kept


ALONG_MM = 3.0
"""Distance across within which an outline's side lies along another card's side."""
ALONG_DEGREES = 6.0
"""...and the largest turn between the two."""
ALONG_SAMPLES = 19
"""Points of a side (its ends left out) tested for lying along another card's side."""


def crosswise(corners: Points, others: list[Points]) -> float:
    """The largest share of one of an outline's sides (corners in table mm, top-left first)
    that lies along sides of the other kind of ``others`` (a long side along their short
    sides, or a short along their long ones): an outline turned square to cards it touches,
    one of its sides theirs. Sides differing in length by less than ``ALONG_MM`` (a square
    card's) are not of another kind."""
    best = 0.0
    for side in range(4):
        start, end = corners[side], corners[(side + 1) % 4]
        points = start + np.outer(np.linspace(0.05, 0.95, ALONG_SAMPLES), end - start)
        side_length = float(np.hypot(*(end - start)))
        direction = (end - start) / side_length
        along = np.zeros(ALONG_SAMPLES, np.bool_)
        for other in others:
            # Sides alternate in kind (top, right, bottom, left): the other kind is the
            # other parity.
            for crossing in range(1 - side % 2, 4, 2):
                first, last = other[crossing], other[(crossing + 1) % 4]
                length = float(np.hypot(*(last - first)))
                unit = (last - first) / length
                # A square card's sides are of no kind.
                if abs(length - side_length) < ALONG_MM or abs(float(
                        direction[0] * unit[1] - direction[1] * unit[0])) > np.sin(
                        np.radians(ALONG_DEGREES)):
                    continue
                offsets = points - first
                forward = offsets @ unit
                across = np.abs(offsets @ np.array([-unit[1], unit[0]]))
                along |= (forward >= 0) & (forward <= length) & (across <= ALONG_MM)
        best = max(best, float(along.mean()))
    return best


RAW_MIN_AREA_PX = 1500.0
"""Smallest card worth reading on the raw view, in pixels of a 1280 x 720 frame (a wider frame
sees the same card in as many more pixels each way)."""
RAW_ASPECT_SLACK = 0.2
"""How far (relative) a card's short-over-long side may be off on the raw view (perspective)."""


def raw_outlines(frame: Image, card_mm: tuple[float, float]) -> list[Points]:
    """Cards on the raw view (no table markers): closed outlines of a card's shape against a
    plainer background, largest first, as corners (top-left first, top a guess).

    Without the table's plane the card's size is unknown, so only its shape is checked; cards
    touching or lying on a busy cloth are not separated here.
    """
    edges = cv2.Canny(cv2.GaussianBlur(frame, (5, 5), 0), 40, 110)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    aspect = card_mm[0] / card_mm[1]
    min_area = RAW_MIN_AREA_PX * frame_px(1.0, frame.shape[1]) ** 2
    found: list[tuple[float, Points]] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        (cx, cy), (w, h), degrees = cv2.minAreaRect(contour)
        short, long = min(w, h), max(w, h)
        if abs(short / max(long, 1e-6) / aspect - 1) > RAW_ASPECT_SLACK or area < 0.8 * w * h:
            continue
        # Shrink by the dilation's pixel, and start at a short side.
        if w > h:
            degrees += 90.0
            w, h = h, w
        corners = card_corners_mm((cx, cy), degrees, (w - 2, h - 2))
        found.append((area, corners))
    return [corners for _, corners in sorted(found, key=lambda item: -item[0])]
