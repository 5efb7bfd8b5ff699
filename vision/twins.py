"""Telling near twins apart: a classifier per group of twins, learnt from simulated photographs.

Near twins (one artwork, another number; one plain design, another word) differ only in a few
small regions. Where a webcam sees a card at 0.5-1.1 px/mm, a corner number is 4-9 pixels tall
and comparing it with each reference is at the mercy of blur and noise. So for each group of
twins, at each resolution the camera sees a card at, the namer learns how the group's cards
*look through a camera*: every reference is photographed many times over in simulation (the
card's own pixel size along each side, seen across a tilted table and in perspective, any
turn, an outline a little off, blur, uneven light and glare, sensor noise, JPEG),
read back exactly as a found card is read, and a linear discriminant (Fisher's LDA, on the
leading principal components) is fitted to the regions where the twins differ. A card is named
only when the discriminant puts it far more likely one twin than every other *and*, in a deck
enrolled in part, it looks like that twin's simulated photographs (a card whose own reference is
missing often looks like none of them, but not always: its regions are where the *enrolled*
twins differ, so such a deck asks more, ``vision.twin_check.EVERY_REGION``). In a deck enrolled
whole the card is one of the group, and a card sharper than most photographs lies further from
them than they do, yet nearest its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.imaging import Image, Points

Floats = npt.NDArray[np.float32]

FEATURE_PX_PER_MM = 2.0
"""Resolution the twin regions are read at (a card's detail is finer than the camera's)."""
SLACK = 3
"""Feature pixels each region may slide to align with the group's mean look."""
SAMPLES = 12
"""Simulated photographs of each twin per group and resolution the classifier is fitted to
(20 before: on the same tables, named at their true corners, 848 of 2,006 near-twin-deck cards
against 845, and through the whole pipeline 680 against 684, none wrong either way, for a
third less learning)..."""
CHECKS = 6
"""...and more, kept out of the fit, that say how far from its twin's mean a card may lie."""
COMPONENTS = 30
"""Principal components the discriminant works in (at least: see ``COMPONENTS_PER_TWIN``)..."""
COMPONENTS_PER_TWIN = 2.5
"""...and per twin of a big group. The leading components follow what varies most in the
simulated photographs, which is the camera (blur, light, glare, the outline's slip) as much
as the twin; with many twins (a plain deck's 24 numbers and words, one region each) 30 of
them kept too little of what tells 24 apart. Plain deck seed 1, naming at jittered true
corners at 1920 x 1080, tables 300-305: 108 of 134 easy and 76 of 122 medium cards named with
30, 118 and 84 with 60, 118 and 86 with 100 (more samples a twin, 24 instead of 12, did not
help). Groups of up to 12 twins are as before."""
SHRINK = 0.15
"""Share of the mean within-class variance added to every direction (regularisation)."""
JITTER_MM = 0.45
"""Outline error the simulation puts on a card's placement (after the namer's slide)."""
JITTER_DEGREES = 0.6
"""...and on its turn."""
BLUR_PX = (0.4, 1.9)
"""Camera blur (Gaussian sigma, camera pixels) the simulation draws from."""
NOISE_GREY = (1.0, 9.0)
"""Sensor noise (grey levels) the simulation draws from."""
JPEG_QUALITY = (60, 101)
"""JPEG quality the simulation draws from (100: next to no loss)."""
FORESHORTENING = (0.5, 0.87)
"""The table's tilt (30-60 degrees from vertical) shrinks one direction of the picture by
its cosine."""
PERSPECTIVE = 0.06
"""Up to this share smaller (px/mm) at one end of a card than at the other: the far end lies
further from the camera."""
FULL_CARD_MM = 88.0
"""The length ``PERSPECTIVE`` is spread over (a card's)."""
LIGHT_GAIN = (0.5, 1.1)
"""Light on the card, from a dim corner of the table to a bright lamp."""
LIGHT_SLOPE = 0.15
"""Spread of the light's change across the photographed part (share of its level)."""
GLARE_CHANCE = 0.35
"""Share of photographs with a glare spot..."""
GLARE_PX = (10.0, 40.0)
"""...its spread (Gaussian sigma, camera pixels)..."""
GLARE_GREY = (40.0, 200.0)
"""...and its strength at the centre (grey levels added; the sensor clips)."""
RUNG_BASE = 0.9
"""The resolution (px/mm along a side of a card) of the ladder's rung 0 (what a 1280 x 720
webcam 1.0 m above the table gives, which enrollment's report assumes)..."""
RUNG_RATIO = 1.25
"""...and the ratio between rungs: a card's resolution along each side is taken to the nearest
rung (``rung``), and one classifier serves each pair of rungs, learnt from photographs spread
over the whole rung. The camera's blur (``BLUR_PX``) already varies a card's look far more than
a quarter more pixels does: named at their true corners, 2,515 cards of every style (tuning and
held-out decks) gave 1,244 names with these rungs and 1,239 with rungs of 0.1 px/mm (44
classifiers over 0.5-1.2 px/mm instead of 19), none wrong either way."""
LOG_ODDS = 16.0
"""Log-likelihood (natural) by which the best twin beats every twin of another name for the
classifier to be sure alone (``needed_margin``; naming asks a share of it when the reference
check agrees, ``vision.twin_check.agreed``). With the simulation before glare, light and
perspective, wrong twins on the tuning tables (deck seed 1) reached 13.5 (a plain card's "moss"
read as "mint" at 1 px/mm); with them, 0.55 of it."""
OUTLIER_QUANTILE = 0.99
"""A card is like a twin's photographs if its distance lies within this quantile of theirs..."""
OUTLIER_MARGIN = 1.3
"""...times this (what simulation does not cover: glare, uneven light, a shadow). At 2.0 three
wrong twins got through on the tuning deck's hard tables (Trains look, 1.1 x 0.8 px/mm)."""
LOW_RESOLUTION = 0.8
"""Pixels per millimetre (along a card's shorter-seen side) below which a near twin must win
by more: by ``(LOW_RESOLUTION / px_per_mm) ** 2`` times ``LOG_ODDS``. On the tuning tables
(deck seed 1) the wrong twins the classifier was surest of were small cards (0.5-0.6 px/mm
across) on hard tables."""


def components(count: int) -> int:
    """How many principal components the discriminant of a group of ``count`` twins works in."""
    return max(COMPONENTS, round(COMPONENTS_PER_TWIN * count))


def needed_margin(scale: tuple[float, float]) -> float:
    """The log-likelihood margin a twin must win by, seen at ``scale`` px/mm: simulation
    flatters a small card most (JPEG, glare and perspective are cruder than it assumes)."""
    return LOG_ODDS * max(1.0, (LOW_RESOLUTION / min(scale)) ** 2)


Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 in a card's millimetres."""


def _standard(vector: Floats) -> Floats:
    centred = vector - vector.mean()
    norm = float(np.linalg.norm(centred))
    return np.asarray(centred / norm if norm > 1e-6 else centred, np.float32)


def _band_pass(image: Floats) -> Floats:
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 0.7) - cv2.GaussianBlur(image, (0, 0), 3.0),
                      np.float32)


def sample_box(image: Image | Floats, card_to_image: npt.NDArray[np.float64], box: Box, pad: int
               ) -> Floats:
    """Grey pixels of ``box`` (card millimetres) at ``FEATURE_PX_PER_MM``, ``pad`` pixels more
    each side, from a picture in which the card's millimetres map to pixels by
    ``card_to_image`` (3 x 3)."""
    x0, y0, x1, y1 = box
    step = 1.0 / FEATURE_PX_PER_MM
    to_card = np.array([[step, 0, x0 + (0.5 - pad) * step], [0, step, y0 + (0.5 - pad) * step],
                        [0, 0, 1]])
    size = (round((x1 - x0) * FEATURE_PX_PER_MM) + 2 * pad,
            round((y1 - y0) * FEATURE_PX_PER_MM) + 2 * pad)
    picture = cv2.warpPerspective(image, card_to_image @ to_card, size,
                                  flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_REPLICATE)
    if picture.ndim == 3:
        picture = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    return np.asarray(picture, np.float32)


def card_to_image(card_mm: tuple[float, float], corners: Points) -> npt.NDArray[np.float64]:
    """Homography from a card's millimetres to the picture's pixels, given its corners."""
    width, height = card_mm
    source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(source, corners.astype(np.float32)),
                      np.float64)


def resolution(card_mm: tuple[float, float], corners: Points) -> tuple[float, float]:
    """Pixels per millimetre along a card's width and height."""
    across = (np.hypot(*(corners[1] - corners[0])) + np.hypot(*(corners[2] - corners[3]))) / 2
    down = (np.hypot(*(corners[3] - corners[0])) + np.hypot(*(corners[2] - corners[1]))) / 2
    return float(across / card_mm[0]), float(down / card_mm[1])


Rungs = tuple[int, int]
"""A classifier's resolution: the ladder's rungs (``RUNG_RATIO``) along a card's width and
height."""


def rung(scale: tuple[float, float]) -> Rungs:
    """The nearest rungs of the ladder to a resolution (px/mm along each side)."""
    across, down = (round(float(np.log(max(value, 0.01) / RUNG_BASE) / np.log(RUNG_RATIO)))
                    for value in scale)
    return across, down


def rung_scale(rungs: Rungs) -> tuple[float, float]:
    """The resolution (px/mm along each side) at the middle of a pair of rungs."""
    return RUNG_BASE * RUNG_RATIO ** rungs[0], RUNG_BASE * RUNG_RATIO ** rungs[1]


@dataclass(frozen=True)
class Verdict:
    """What a twin classifier says of one card."""

    likelihood: npt.NDArray[np.float64]
    """Log-likelihood of each twin of the group (up to a shared constant)."""
    typical: npt.NDArray[np.bool_]
    """Whether the card looks like each twin's simulated photographs at all."""


MODEL = 4
"""Version of the simulation and the classifier: saved classifiers of another are learnt
again (they are saved under another fingerprint). 3: a ladder of rungs, axes in float16; 4: more
components for a big group (``COMPONENTS_PER_TWIN``)."""
State = dict[str, npt.NDArray[np.generic]]
"""A classifier's learnt arrays, by the names of ``STATE``."""
STATE = ("centre", "axes", "means", "precision", "limits", "check_likelihood", "check_tags")
"""The arrays a classifier is saved as (``TwinClassifier.state``)."""


def fits(state: State, count: int, size: int | None = None
         ) -> bool:
    """Whether saved arrays (``TwinClassifier.state``) are a classifier of ``count`` twins:
    shapes that agree with each other (and with ``size`` features, when known), floats that are
    finite, each held-out photograph's twin one of them."""
    centre, axes, means, precision, limits, likelihood, tags = (
        np.asarray(state[field]) for field in STATE)
    if axes.ndim != 2 or centre.ndim != 1:
        return False
    kept, features = axes.shape
    shapes = ((centre, (features,)), (axes, (kept, features)),
              (means, (count, kept)), (precision, (kept, kept)),
              (limits, (2,)), (likelihood, (count * CHECKS, count)), (tags, (count * CHECKS,)))
    floats = [array for array, _ in shapes[:-1]]
    return (0 < kept <= components(count) and size in (None, features)
            and tags.dtype.kind in "iu" and all(array.dtype.kind == "f" for array in floats)
            and all(array.shape == shape for array, shape in shapes)
            and all(bool(np.isfinite(array).all()) for array in floats)
            and bool(((tags.astype(np.int64) >= 0) & (tags.astype(np.int64) < count)).all()))


class TwinClassifier:
    """Fisher's discriminant over the regions where a group of twins differ, at one
    resolution, learnt from simulated photographs of each twin."""

    def __init__(self, faces: list[Image], card_mm: tuple[float, float], boxes: list[Box],
                 rungs: Rungs, seed: int = 0) -> None:
        """``faces``: the twins' grey faces (the same size, upright as the card is read) at
        ``ref_px_per_mm`` = face width / card width; ``boxes``: where they differ; ``rungs``:
        the resolution learnt for (``rung``)."""
        self._aligned(faces, card_mm, boxes, rungs)
        rng = np.random.default_rng([seed, 7])
        ref_px_per_mm = faces[0].shape[1] / card_mm[0]
        # Only the regions and their surroundings are photographed.
        margin = 6.0
        area = (max(0.0, min(box[0] for box in boxes) - margin),
                max(0.0, min(box[1] for box in boxes) - margin),
                min(card_mm[0], max(box[2] for box in boxes) + margin),
                min(card_mm[1], max(box[3] for box in boxes) + margin))
        cut = tuple(round(v * ref_px_per_mm) for v in area)
        samples, labels = [], []
        for member, face in enumerate(faces):
            part = np.ascontiguousarray(face[cut[1]:cut[3], cut[0]:cut[2]])
            for _ in range(SAMPLES + CHECKS):
                samples.append(self.features(*_photograph(part, ref_px_per_mm, area, rungs,
                                                          rng)))
                labels.append(member)
        # Each twin's last CHECKS photographs are kept out of the fit: what a card of the group
        # looks like *to the fitted classifier* is measured on them.
        everything, every_tag = np.stack(samples), np.array(labels)
        kept = np.arange(len(samples)) % (SAMPLES + CHECKS) < SAMPLES
        data, tags = everything[kept], every_tag[kept]
        self._centre = data.mean(axis=0)
        centred = data - self._centre
        # The leading principal axes, from the smaller of the two scatter matrices.
        if centred.shape[1] <= centred.shape[0]:
            _, vectors = np.linalg.eigh(centred.T @ centred)
            axes = vectors[:, ::-1].T
        else:
            values, vectors = np.linalg.eigh(centred @ centred.T)
            axes = (centred.T @ vectors[:, ::-1] / np.sqrt(np.maximum(values[::-1], 1e-9))).T
        # Saved as float16 (half the file; a unit axis's elements are about 0.02, and float16
        # keeps three digits of them): learnt with the saved values, so that a saved
        # classifier judges exactly as the learnt one.
        self._axes = np.ascontiguousarray(axes[:components(len(faces))], np.float16).astype(
            np.float32)
        projected = (data - self._centre) @ self._axes.T
        means = np.stack([projected[tags == k].mean(axis=0) for k in range(len(faces))])
        within = projected - means[tags]
        covariance = within.T @ within / max(1, len(data) - len(faces))
        covariance += SHRINK * float(np.trace(covariance)) / len(covariance) * np.eye(
            len(covariance))
        self._means = means
        self._precision = np.linalg.inv(covariance)
        checks = (everything[~kept] - self._centre)
        points = checks @ self._axes.T
        offsets = points - means[every_tag[~kept]]
        own = np.einsum("ij,jk,ik->i", offsets, self._precision, offsets)
        apart = points[:, None, :] - means[None]
        own_all = np.einsum("nkj,jl,nkl->nk", apart, self._precision, apart)
        self._typical = OUTLIER_MARGIN * float(np.quantile(own, OUTLIER_QUANTILE))
        residual = np.linalg.norm(checks - points @ self._axes, axis=1)
        self._residual = OUTLIER_MARGIN * float(np.quantile(residual, OUTLIER_QUANTILE))
        self._checks = (-own_all / 2, every_tag[~kept])

    def _aligned(self, faces: list[Image], card_mm: tuple[float, float], boxes: list[Box],
                 rungs: Rungs) -> None:
        """What a classifier needs besides what it learnt: its regions, and the group's mean
        look in them (blurred as this camera blurs) that aligns every region."""
        self.card_mm = card_mm
        self.boxes = boxes
        scale = rung_scale(rungs)
        ref_px_per_mm = faces[0].shape[1] / card_mm[0]
        blur = 0.8 * ref_px_per_mm / max(min(scale), 0.1)
        mean_face = np.mean([cv2.GaussianBlur(face.astype(np.float32), (0, 0), blur)
                             for face in faces], axis=0)
        to_ref = np.diag([ref_px_per_mm, ref_px_per_mm, 1.0])
        self._templates = [_band_pass(sample_box(mean_face, to_ref, box, 0)) for box in boxes]

    def state(self) -> State:
        """What was learnt, as arrays (named as ``STATE``), for ``restore``."""
        likelihood, tags = self._checks
        return {"centre": self._centre, "axes": self._axes.astype(np.float16),
                "means": self._means,
                "precision": self._precision,
                "limits": np.array([self._typical, self._residual]),
                "check_likelihood": likelihood, "check_tags": tags}

    @classmethod
    def restore(cls, faces: list[Image], card_mm: tuple[float, float], boxes: list[Box],
                rungs: Rungs, state: State) -> TwinClassifier:
        """The classifier ``state`` saved, for the same twins (``faces``, ``boxes``) at the same
        ``rungs``. ValueError when the arrays do not fit them (a damaged or foreign file)."""
        classifier = cls.__new__(cls)
        classifier._aligned(faces, card_mm, boxes, rungs)
        if not fits(state, len(faces), sum(template.size for template in classifier._templates)):
            raise ValueError("a saved twin classifier does not fit its twins")
        # Kept in the types they were learnt in, so that a saved classifier judges exactly
        # as the learnt one did.
        centre, axes, means, precision, limits, likelihood, tags = (
            cast(Floats, np.asarray(state[field])) for field in STATE)
        classifier._centre, classifier._means = centre, means
        classifier._axes = axes.astype(np.float32)
        classifier._precision = precision
        classifier._typical, classifier._residual = float(limits[0]), float(limits[1])
        classifier._checks = (likelihood, tags)
        return classifier

    def unclear(self, margin: float) -> npt.NDArray[np.float64]:
        """For each twin i and j: the share of i's held-back photographs whose likelihood
        of being i does not beat that of being j by ``margin``."""
        likelihood, tags = self._checks
        count = len(self._means)
        shares = np.zeros((count, count))
        for mine in range(count):
            own = likelihood[tags == mine]
            shares[mine] = np.mean(own[:, [mine]] - own < margin, axis=0)
        return shares

    def features(self, picture: Floats | Image, to_picture: npt.NDArray[np.float64]) -> Floats:
        """The card's regions read from a picture (``to_picture``: card millimetres to its
        pixels), each aligned on the group's mean look, as one standardised vector."""
        parts = []
        for box, template in zip(self.boxes, self._templates, strict=True):
            seen = _band_pass(sample_box(picture, to_picture, box, SLACK))
            fit = cv2.matchTemplate(seen, template, cv2.TM_CCOEFF_NORMED)
            _, _, _, (dx, dy) = cv2.minMaxLoc(fit)
            parts.append(seen[dy:dy + template.shape[0], dx:dx + template.shape[1]].ravel())
        return _standard(np.concatenate(parts))

    def judge(self, frame: Image, corners: Points) -> Verdict:
        """Which twin the card at ``corners`` (its top-left first) is, and how surely."""
        vector = self.features(frame, card_to_image(self.card_mm, corners)) - self._centre
        point = vector @ self._axes.T
        offsets = point - self._means
        distances = np.einsum("ij,jk,ik->i", offsets, self._precision, offsets)
        residual = float(np.linalg.norm(vector - point @ self._axes))
        typical = (distances <= self._typical) & (residual <= self._residual)
        return Verdict(-distances / 2, typical)


def _view(scale: tuple[float, float], rng: np.random.Generator) -> npt.NDArray[np.float64]:
    """A camera's linear view of a card (card millimetres to pixels, 2 x 2) with ``scale``
    px/mm along the card's sides: the table seen tilted foreshortens one direction of the
    picture, whatever way the card lies on it, so a card lying across the tilt is sheared, not
    only squeezed along its sides."""
    foreshortening = rng.uniform(*FORESHORTENING)
    lie = rng.uniform(0, np.pi)
    view = np.diag([1.0, foreshortening]) @ np.array([[np.cos(lie), -np.sin(lie)],
                                                      [np.sin(lie), np.cos(lie)]])
    view = view / np.linalg.norm(view, axis=0) * np.asarray(scale)  # each side at its scale
    angle = rng.uniform(0, 2 * np.pi)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return np.asarray(turn @ view, np.float64)


def _photograph(part: Image, ref_px_per_mm: float, area: Box, rungs: Rungs,
                rng: np.random.Generator) -> tuple[Floats, npt.NDArray[np.float64]]:
    """A simulated webcam picture (grey) of ``part``, the ``area`` of a card, seen anywhere
    within ``rungs``, and the card-to-picture homography the namer would believe (an outline a
    little off)."""
    middle = rung_scale(rungs)
    # Each side anywhere on its rung (every resolution ``rung`` takes to it).
    scale = (middle[0] * RUNG_RATIO ** rng.uniform(-0.5, 0.5),
             middle[1] * RUNG_RATIO ** rng.uniform(-0.5, 0.5))
    linear = _view(scale, rng)  # card millimetres to camera pixels, at the card's centre
    x0, y0, x1, y1 = area
    truth = np.eye(3)
    truth[:2, :2] = linear
    # Perspective: the card's far end is seen a few per cent smaller than its near end.
    direction = rng.normal(0, 1, 2)
    truth[2, :2] = (rng.uniform(0, PERSPECTIVE) / FULL_CARD_MM * direction
                    / max(float(np.linalg.norm(direction)), 1e-9))
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    truth[:2, 2] = -linear @ centre
    truth[2, 2] = 1.0 - float(truth[2, :2] @ centre)
    corners = cv2.perspectiveTransform(
        np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64), truth)[0]
    low = corners.min(axis=0) - 4
    size = (int(np.ceil(np.ptp(corners[:, 0]))) + 8, int(np.ceil(np.ptp(corners[:, 1]))) + 8)
    truth = np.array([[1.0, 0, -low[0]], [0, 1, -low[1]], [0, 0, 1]]) @ truth
    from_face = truth @ np.array([[1 / ref_px_per_mm, 0, x0], [0, 1 / ref_px_per_mm, y0],
                                  [0, 0, 1.0]])
    # The lens blurs the card before the sensor samples it (and averages what falls in a
    # pixel): blur the face at its own resolution, then warp.
    sigma = np.sqrt(float(rng.uniform(*BLUR_PX)) ** 2 + 0.3)
    blurred = cv2.GaussianBlur(part.astype(np.float32), (0, 0), sigma * ref_px_per_mm / scale[0],
                               sigmaY=sigma * ref_px_per_mm / scale[1])
    picture = _lit(np.asarray(cv2.warpPerspective(blurred, from_face, size,
                                                  flags=cv2.INTER_LINEAR,
                                                  borderMode=cv2.BORDER_REPLICATE), np.float32),
                   rng)
    # A sensor's noise is drawn per colour channel and grey averages it down (to 0.67 of it),
    # but a card photographed at all is never cleaner than NOISE_GREY's least: less let a
    # sharp, clean scan (a sheet of cards on a scanner lid) look like no twin at all.
    noisy = picture + rng.normal(0, rng.uniform(*NOISE_GREY), picture.shape)
    # A webcam's JPEG: its 8 x 8 blocks and lost detail are part of what a card looks like.
    quality = int(rng.integers(*JPEG_QUALITY))
    _, packed = cv2.imencode(".jpg", np.clip(np.round(noisy), 0, 255).astype(np.uint8),
                             [cv2.IMWRITE_JPEG_QUALITY, quality])
    shot: Floats = np.asarray(cv2.imdecode(packed, cv2.IMREAD_GRAYSCALE), np.float32)
    skew = np.radians(rng.normal(0, JITTER_DEGREES))
    nudge = np.eye(3)
    nudge[:2, :2] = [[np.cos(skew), -np.sin(skew)], [np.sin(skew), np.cos(skew)]]
    nudge[:2, 2] = centre - nudge[:2, :2] @ centre + rng.normal(0, JITTER_MM, 2)
    return shot, np.asarray(truth @ nudge, np.float64)


def _lit(picture: Floats, rng: np.random.Generator) -> Floats:
    """The card as the table's light shows it: dimmer or brighter, a gentle slope across it,
    and sometimes a glare spot that washes part of it out (the sensor clips at 255)."""
    height, width = picture.shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    slope = rng.normal(0, LIGHT_SLOPE, 2) / max(height, width)
    light = rng.uniform(*LIGHT_GAIN) * (1 + slope[0] * (xs - width / 2)
                                        + slope[1] * (ys - height / 2))
    lit = picture * light
    if rng.random() < GLARE_CHANCE:
        spread = rng.uniform(*GLARE_PX)
        centre = rng.uniform([-spread, -spread], [width + spread, height + spread])
        glow = np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * spread ** 2))
        lit = lit + rng.uniform(*GLARE_GREY) * glow
    return np.asarray(np.minimum(lit, 255.0), np.float32)
