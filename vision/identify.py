"""Identification: which enrolled card a rectified window shows, with a confidence, or unknown.

Windows are compared as band-pass images (difference of Gaussians: flat paper and the light
level drop out, strokes stay). First every enrolled reference is scored by correlation in both
orientations (a flattened window turned 180 degrees is the same vector reversed), with what all
cards of the deck share projected out; then the few best are re-scored by sliding each over the
padded window, which forgives an outline found a pixel or two off. The best match is accepted
only if it is good in itself and clearly better than the best match of any other card;
otherwise the card is unknown: a wrong name is far worse than no name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from host.deck import load_deck
from host.errors import BadInputError
from vision.detect import PATCH_PAD, PATCH_SIZE, patch_of
from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM, WINDOW_INSET_MM, render_face
from vision.imaging import Image, Points

MIN_SCORE = 0.6
"""Aligned correlation below which a window matches nothing enrolled."""
MIN_BALANCE = 0.15
"""How far towards the best reference, from halfway to any other card's (0) to the best
reference itself (0.5), a window must lie to be named. The confidence is twice this."""
MIN_PART_BALANCE = 0.1
"""``MIN_BALANCE`` when part of the window is hidden. Measured on 229 rendered cards under the
train (easy and medium): no wrong name above 0.065, 90 % named at 0.1 (79 % at 0.15)."""
SHORTLIST = 4
"""How many first-round matches are re-scored with alignment."""

Features = npt.NDArray[np.float32]


def features(patch: Image) -> Features:
    """The band-pass image identification compares (same size as ``patch``)."""
    image = patch.astype(np.float32)
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 0.8) - cv2.GaussianBlur(image, (0, 0), 4.0),
                      np.float32)


def _centre(feature_map: Features) -> Features:
    return feature_map[PATCH_PAD:PATCH_PAD + PATCH_SIZE[1], PATCH_PAD:PATCH_PAD + PATCH_SIZE[0]]


def _unit(vector: Features) -> Features:
    centred = vector - vector.mean()
    norm = float(np.linalg.norm(centred))
    return np.asarray(centred / norm if norm > 1e-6 else centred, np.float32)


@dataclass(frozen=True)
class Identity:
    """What identification says of one found card."""

    name: str | None
    """The card's public name (``trains/42``), or None when it cannot be read clearly."""
    confidence: float
    """0 to 1: how far the best match stands out from the best other card."""
    turned: bool
    """The card lies upside down relative to its found frame's corner order."""
    score: float
    """Aligned correlation of the best match (diagnostics)."""


class References:
    """Enrolled card windows of one deck, ready to compare with."""

    def __init__(self, deck: str, patches: Mapping[str, list[Image]]) -> None:
        """``patches``: for each card name (``deck/card``), one or more rectified windows as
        ``FoundCard.patch`` gives them (with padding)."""
        names: list[str] = []
        maps: list[Features] = []
        expected = (PATCH_SIZE[1] + 2 * PATCH_PAD, PATCH_SIZE[0] + 2 * PATCH_PAD)
        for name, images in patches.items():
            for image in images:
                if image.shape != expected:
                    raise BadInputError(f"reference of {name} is not a rectified window")
                names.append(name)
                maps.append(_centre(features(image)).copy())
        if not names:
            raise BadInputError(f"no references enrolled for deck {deck!r}")
        self._setup(deck, names, np.stack(maps))

    def _setup(self, deck: str, names: list[str], maps: Features) -> None:
        self.deck = deck
        self.names = names
        self.maps = maps
        self._ids = np.array([sorted(set(names)).index(n) for n in names])
        vectors = np.stack([_unit(m.ravel()) for m in maps])
        # How alike two references are, upright against upright and against turned: a margin
        # between two near twins means more than the same margin between strangers.
        self._alike = np.stack([vectors @ vectors.T, vectors @ vectors[:, ::-1].T])
        # What every card of the deck shares (the frame, the icon band's place) says nothing
        # about which card it is, yet weighs in a plain correlation: project it out.
        common = vectors.mean(axis=0) + vectors[:, ::-1].mean(axis=0)
        self._common = np.asarray(common / max(float(np.linalg.norm(common)), 1e-6), np.float32)
        self._vectors = np.stack([self._specific(v) for v in vectors])

    def _specific(self, vector: Features) -> Features:
        rest = vector - float(vector @ self._common) * self._common
        norm = float(np.linalg.norm(rest))
        return np.asarray(rest / norm if norm > 1e-6 else rest, np.float32)

    @property
    def cards(self) -> list[str]:
        """Names of the enrolled cards."""
        return sorted(set(self.names))

    def identify(self, patch: Image, hidden: tuple[float, float] | None = None) -> Identity:
        """Identity of a rectified, padded window (see the module's decision rule).

        ``hidden``: a band of the window (top and bottom, as shares of its height) that
        something covers, such as a game piece standing on the card; only the rest is compared.
        """
        if hidden is not None:
            return self._identify_in_part(patch, hidden)
        upright = features(patch)
        turned = upright[::-1, ::-1].copy()
        vector = _unit(_centre(upright).ravel())
        first = np.concatenate([self._vectors @ self._specific(vector),
                                self._vectors @ self._specific(vector[::-1].copy())])
        count = len(self.names)
        shortlist = np.argsort(-first)[:SHORTLIST]
        scored = []
        for index in shortlist:
            reference, is_turned = int(index) % count, bool(index >= count)
            fit = cv2.matchTemplate(turned if is_turned else upright, self.maps[reference],
                                    cv2.TM_CCOEFF_NORMED)
            scored.append((float(fit.max()), reference, is_turned))
        scored.sort(reverse=True)
        score, best, is_turned = scored[0]
        # Where the window lies between the best reference (0.5) and each other card's (-0.5),
        # measured along the line joining them: only the pixels where they differ count.
        balance = 0.5
        for other_score, other, other_turned in scored[1:]:
            if self._ids[other] == self._ids[best]:
                continue
            alike = float(self._alike[int(other_turned != is_turned), best, other])
            balance = min(balance, (score - other_score) / max(2 * (1 - alike), 1e-3))
        confidence = float(np.clip(balance * 2, 0.0, 1.0))
        name = self.names[best]
        if score < MIN_SCORE or balance < MIN_BALANCE:
            return Identity(None, confidence, is_turned, score)
        return Identity(name, confidence, is_turned, score)

    def _identify_in_part(self, patch: Image, hidden: tuple[float, float]) -> Identity:
        """Every reference, both ways round, correlated over the visible rows only; the same
        decision rule as ``identify``, with references compared over those rows too."""
        upright = features(patch)
        turned = upright[::-1, ::-1].copy()
        height = PATCH_SIZE[1]
        keep = np.ones((height, PATCH_SIZE[0]), np.float32)
        keep[max(0, int(hidden[0] * height)):min(height, int(np.ceil(hidden[1] * height)))] = 0
        best: dict[str, tuple[float, int, bool]] = {}
        for reference, name in enumerate(self.names):
            for is_turned, image, mask in ((False, upright, keep), (True, turned, keep[::-1])):
                fit = cv2.matchTemplate(image, self.maps[reference], cv2.TM_CCORR_NORMED,
                                        mask=mask)
                score = float(fit.max())
                if score > best.get(name, (-1.0, 0, False))[0]:
                    best[name] = (score, reference, is_turned)
        ranked = sorted(best.values(), reverse=True)
        score, chosen, is_turned = ranked[0]
        mask = (keep[::-1] if is_turned else keep).ravel()
        shown = _unit(self.maps[chosen].ravel() * mask)
        balance = 0.5
        for other_score, other, other_turned in ranked[1:SHORTLIST]:
            other_map = self.maps[other][::-1, ::-1] if other_turned != is_turned else self.maps[
                other]
            alike = float(shown @ _unit(other_map.ravel() * mask))
            balance = min(balance, (score - other_score) / max(2 * (1 - alike), 1e-3))
        confidence = float(np.clip(balance * 2, 0.0, 1.0))
        if score < MIN_SCORE or balance < MIN_PART_BALANCE:
            return Identity(None, confidence, is_turned, score)
        return Identity(self.names[chosen], confidence, is_turned, score)

    def save(self, path: Path) -> None:
        """Store the references (``.npz``) for ``load``."""
        try:
            with path.open("wb") as file:
                np.savez_compressed(file, deck=np.array(self.deck), names=np.array(self.names),
                                    maps=self.maps)
        except OSError as error:
            raise BadInputError(f"cannot write {path}: {error.strerror}") from None

    @classmethod
    def load(cls, path: Path) -> References:
        """References stored by ``save``."""
        try:
            with np.load(path, allow_pickle=False) as data:
                deck = str(data["deck"])
                names = [str(n) for n in data["names"]]
                maps = np.asarray(data["maps"], np.float32)
        except (OSError, KeyError, ValueError) as error:
            raise BadInputError(f"cannot read references {path}: {error}") from None
        if maps.shape != (len(names), PATCH_SIZE[1], PATCH_SIZE[0]) or not names:
            raise BadInputError(f"references {path} do not fit this version's window size")
        references = cls.__new__(cls)
        references._setup(deck, names, maps)
        return references


def face_patch(face: Image) -> Image:
    """The rectified window of a flat, upright card face image (a scan, or ``render_face``)."""
    height, width = face.shape[:2]
    sx, sy = width / CARD_WIDTH_MM, height / CARD_HEIGHT_MM
    low = (WINDOW_INSET_MM * sx, WINDOW_INSET_MM * sy)
    high = ((CARD_WIDTH_MM - WINDOW_INSET_MM) * sx, (CARD_HEIGHT_MM - WINDOW_INSET_MM) * sy)
    window: Points = np.array([[low[0], low[1]], [high[0], low[1]], [high[0], high[1]],
                               [low[0], high[1]]], np.float64)
    grey_face = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) if face.ndim == 3 else face
    return patch_of(np.asarray(grey_face, np.uint8), window)


def rendered_references(deck: str) -> References:
    """References from Conductor's own drawn faces of ``deck`` (the rendered/printed deck)."""
    cards = load_deck(deck).cards
    return References(deck, {card.id: [face_patch(render_face(card, 3.0))] for card in cards})
