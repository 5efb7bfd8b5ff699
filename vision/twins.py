"""Telling near twins apart: a classifier per group of twins, learnt from simulated photographs.

Near twins (one artwork, another number; one plain design, another word) differ only in a few
small regions. Where a webcam sees a card at 0.5-1.1 px/mm, a corner number is 4-9 pixels tall
and comparing it with each reference is at the mercy of blur and noise. So for each group of
twins, at each resolution the camera sees a card at, the namer learns how the group's cards
*look through a camera*: every reference is photographed many times over in simulation (the
card's own pixel size along each side, any turn, an outline a little off, blur, sensor noise),
read back exactly as a found card is read, and a linear discriminant (Fisher's LDA, on the
leading principal components) is fitted to the regions where the twins differ. A card is named
only when the discriminant puts it far more likely one twin than every other *and* it looks
like that twin's simulated photographs (a card whose own reference is missing looks like
none of them).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.imaging import Image, Points

Floats = npt.NDArray[np.float32]

FEATURE_PX_PER_MM = 2.0
"""Resolution the twin regions are read at (a card's detail is finer than the camera's)."""
SLACK = 3
"""Feature pixels each region may slide to align with the group's mean look."""
SAMPLES = 20
"""Simulated photographs of each twin per group and resolution the classifier is fitted to..."""
CHECKS = 6
"""...and more, kept out of the fit, that say how far from its twin's mean a card may lie."""
COMPONENTS = 30
"""Principal components the discriminant works in."""
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
SCALE_STEP = 0.1
"""Resolutions (px/mm along each side of a card) are rounded to this; a classifier each."""
LOG_ODDS = 16.0
"""Log-likelihood (natural) by which the best twin must beat every twin of another name to be
named. Simulation flatters: on the tuning tables (deck seed 1) wrong twins reached 13.5 (a
plain card's "moss" read as "mint" at 1 px/mm)."""
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
    """Pixels per millimetre along a card's width and height, rounded to ``SCALE_STEP``."""
    across = (np.hypot(*(corners[1] - corners[0])) + np.hypot(*(corners[2] - corners[3]))) / 2
    down = (np.hypot(*(corners[3] - corners[0])) + np.hypot(*(corners[2] - corners[1]))) / 2
    return (max(SCALE_STEP, round(across / card_mm[0] / SCALE_STEP) * SCALE_STEP),
            max(SCALE_STEP, round(down / card_mm[1] / SCALE_STEP) * SCALE_STEP))


@dataclass(frozen=True)
class Verdict:
    """What a twin classifier says of one card."""

    likelihood: npt.NDArray[np.float64]
    """Log-likelihood of each twin of the group (up to a shared constant)."""
    typical: npt.NDArray[np.bool_]
    """Whether the card looks like each twin's simulated photographs at all."""


class TwinClassifier:
    """Fisher's discriminant over the regions where a group of twins differ, at one
    resolution, learnt from simulated photographs of each twin."""

    def __init__(self, faces: list[Image], card_mm: tuple[float, float], boxes: list[Box],
                 scale: tuple[float, float], seed: int = 0) -> None:
        """``faces``: the twins' grey faces (the same size, upright as the card is read) at
        ``ref_px_per_mm`` = face width / card width; ``boxes``: where they differ."""
        self.card_mm = card_mm
        self.boxes = boxes
        rng = np.random.default_rng([seed, 7])
        ref_px_per_mm = faces[0].shape[1] / card_mm[0]
        # The mean look of the group, blurred as this camera blurs, aligns every region.
        blur = 0.8 * ref_px_per_mm / max(min(scale), 0.1)
        mean_face = np.mean([cv2.GaussianBlur(face.astype(np.float32), (0, 0), blur)
                             for face in faces], axis=0)
        to_ref = np.diag([ref_px_per_mm, ref_px_per_mm, 1.0])
        self._templates = [_band_pass(sample_box(mean_face, to_ref, box, 0)) for box in boxes]
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
                samples.append(self.features(*_photograph(part, ref_px_per_mm, area, scale,
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
        self._axes = np.ascontiguousarray(axes[:COMPONENTS], np.float32)
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


def _photograph(part: Image, ref_px_per_mm: float, area: Box, scale: tuple[float, float],
                rng: np.random.Generator) -> tuple[Floats, npt.NDArray[np.float64]]:
    """A simulated webcam picture (grey) of ``part``, the ``area`` of a card, and the
    card-to-picture homography the namer would believe (an outline a little off)."""
    scale = (scale[0] + rng.uniform(-0.5, 0.5) * SCALE_STEP,
             scale[1] + rng.uniform(-0.5, 0.5) * SCALE_STEP)  # the whole step rounded to it
    angle = rng.uniform(0, 2 * np.pi)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    linear = turn @ np.diag(scale)  # card millimetres to camera pixels
    x0, y0, x1, y1 = area
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) @ linear.T
    low = corners.min(axis=0) - 4
    size = (int(np.ceil(np.ptp(corners[:, 0]))) + 8, int(np.ceil(np.ptp(corners[:, 1]))) + 8)
    truth = np.eye(3)
    truth[:2, :2], truth[:2, 2] = linear, -low
    from_face = truth @ np.array([[1 / ref_px_per_mm, 0, x0], [0, 1 / ref_px_per_mm, y0],
                                  [0, 0, 1.0]])
    # The lens blurs the card before the sensor samples it (and averages what falls in a
    # pixel): blur the face at its own resolution, then warp.
    sigma = np.sqrt(float(rng.uniform(*BLUR_PX)) ** 2 + 0.3)
    blurred = cv2.GaussianBlur(part.astype(np.float32), (0, 0), sigma * ref_px_per_mm / scale[0],
                               sigmaY=sigma * ref_px_per_mm / scale[1])
    picture = cv2.warpPerspective(blurred, from_face, size, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
    picture = picture + rng.normal(0, rng.uniform(*NOISE_GREY), picture.shape)
    # A webcam's JPEG: its 8 x 8 blocks and lost detail are part of what a card looks like.
    quality = int(rng.integers(*JPEG_QUALITY))
    _, packed = cv2.imencode(".jpg", np.clip(np.round(picture), 0, 255).astype(np.uint8),
                             [cv2.IMWRITE_JPEG_QUALITY, quality])
    shot: Floats = np.asarray(cv2.imdecode(packed, cv2.IMREAD_GRAYSCALE), np.float32)
    skew = np.radians(rng.normal(0, JITTER_DEGREES))
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    nudge = np.eye(3)
    nudge[:2, :2] = [[np.cos(skew), -np.sin(skew)], [np.sin(skew), np.cos(skew)]]
    nudge[:2, 2] = centre - nudge[:2, :2] @ centre + rng.normal(0, JITTER_MM, 2)
    return shot, np.asarray(truth @ nudge, np.float64)
