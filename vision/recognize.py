"""Naming cards of any enrolled deck from their whole face, in colour, near twins included.

References are the enrolled faces, whole (no frame line needed), at ``REF_PX_PER_MM``. A card
found on the table is read in three steps:

1. **Shortlist**: the card, shrunk to a thumbnail in Lab colour (each channel's mean removed,
   so the light's level drops out but hue stays), is correlated with every reference both ways
   round; the likeliest reference is slid over the card to place it (an outline can be off
   along a line of touching cards), and its band-pass grey map is correlated with every
   reference too (cards of one colour, such as a plain design, differ only in grey). The best
   few of each go on.
2. **Fine match**: band-pass grey maps at ``FINE_PX_PER_MM`` slid a little over each other;
   the best is the candidate name.
3. **Near twins** (learnt at enrollment: references alike over most of the card once what the
   whole deck shares is left out, such as one artwork with another number, and twins of
   twins): the group's classifier (``vision.twins``), learnt from simulated photographs of the
   group at this card's resolution, decides which twin it is, and how surely.
4. **No other card may come near it** on the whole-card match (``MIN_STRANGER_BALANCE``).

A card is named only if every step is sure; otherwise it is ``None`` with its confidence: a
wrong name is far worse than no name.
"""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
import signal
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from host.errors import BadInputError
from vision.identify import References
from vision.imaging import Image, Points
from vision.twin_check import CLASSIFIER_SHARE, PairCheck, agreed, differ
from vision.twins import (
    MODEL,
    RUNG_BASE,
    RUNG_RATIO,
    STATE,
    Box,
    Rungs,
    State,
    TwinClassifier,
    fits,
    needed_margin,
    resolution,
    rung,
)

REF_PX_PER_MM = 2.0
"""Resolution references are kept at (about a webcam's best on a card, doubled)."""
FINE_PX_PER_MM = 1.0
"""Resolution of the whole-card fine match."""
THUMB = (12, 16)
"""Width and height of the colour thumbnail the shortlist compares."""
PAD = 2
"""Pixels of slack round a sampled map, for sliding the reference over it."""
SEARCH_PAD = 6
"""Slack of the first, wider slide that places the card (millimetres at ``FINE_PX_PER_MM``
1.0): an outline can be off by this much along a line of touching cards."""
INSET_MM = 2.0
"""Card border left out of the maps (the rounded corners show the cloth)."""
SHORTLIST = 5
"""How many (card, way round) of the colour shortlist go to the fine match."""
MIN_SCORE = 0.5
"""Fine correlation below which a card matches nothing enrolled (named None)."""
TWIN_MIN_SCORE = 0.7
"""...and below which a near twin is not named: its twin is told on a few small regions, which
a card matching its whole face this poorly (half under another card or a hand, an outline a
few millimetres off) may show wrong. On the tuning deck's tables (seed 1, Trains look, full
pipeline) the three wrong twins the classifier and the check agreed on matched 0.56-0.67; of
58 right twins on six of those tables one matched less than 0.7."""
SLIDE_RIVAL_GAP = 0.05
"""How near the best (correlation) another place of the placing slide, ``SLIDE_RIVAL_MM`` or
more from it, must come for the slide to be unsure where the card lies: a face that repeats
itself (a Rollecate track's sleepers) fits a step off nearly as well as in place..."""
SLIDE_RIVAL_MM = 2.5
"""...(the slide's own peak spans about a millimetre each way)..."""
SLIDE_UNSURE_MARGIN = 0.03
"""...and then how far above ``twin_min_score`` a near twin's whole-card score must lie. A
Rollecate chaos-1 slid a sleeper's step (4 mm) off matched 0.652 there against the 0.65 bar,
and in that place its pips leaned to chaos-2's (tuning table 301, easy, 1920 x 1080, its
corners jittered as ``vision_benchmark.py --naming`` does: named chaos-2 once pairs of
patches lying together were read as one region, ``twin_check._merged``). Of the 1,244 near
twins named at jittered true corners on the tuning tables 300-305 (every style and level at
1920 x 1080), 31 were placed by a slide this unsure, all Rollecate, the one wrong name among
them 0.002 above its bar and the right ones 0.018 (a hard table's track-2, now left unnamed)
and then 0.043 or more."""
TWIN_MIN_SCORE_SHARP = 0.65
"""...and for a card seen at ``TWIN_SHARP_PX_PER_MM`` or more along its shorter side: so large
in the picture, a card matches its face worse mostly through what lies over it or its light,
not through blur that could hide its twin regions (``twin_min_score``)..."""
TWIN_SHARP_PX_PER_MM = 1.0
"""...(``TWIN_MIN_SCORE_SHARP``). Near-twin reads on deck seed 1's tables 300-316 (naming at
jittered true corners, both twin guards agreeing): the wrong twin that only the whole-card
score refused lay at 0.81 px/mm (a plain rose read as lime at 1280 x 720, 0.64; named at a
bar of 0.6); at 1920 x 1080 no wrong twin scored under 0.7 with both guards agreeing, and of
the right twins refused by the score alone, 14 of 75 lay at 1 px/mm or more."""
CARD_SCORE = 0.25
"""Fine correlation below which an outline is not a card of this deck at all (a ghost)."""
MIN_STRANGER_BALANCE = 0.12
"""How far towards the best reference, from halfway to another card's that is no near twin (0)
to the best itself (0.5), a card must lie on the whole-card match to be named: the whole card
differs, so a small share of the way is already many pixels' worth of evidence. The way is
measured with what the deck's cards all share left out (``_alike``), while a card's scores
are plain correlations: against a card that shares most of its look, even a perfect read
lies short of this (a Rollecate-look broken track and the whole track of its number: 0.07).
The confidence is twice the least such share (of what is demanded, times this)."""
STRANGER_REACH = 0.5
"""In a deck enrolled whole (``CardReferences.complete``), against such a card a card need only
lie this share of the way a perfect read would (``_reach``) towards the best. At 1920 x 1080 a
broken track's whole track of the same number reaches the shortlist (at 1280 x 720 it seldom
did), and it left a fifth to a quarter of the Rollecate look's easy cards ``null``; right reads
lay 0.75-1.1 of the way, a few against a turned card 0.25-0.4 (deck seed 1, naming at jittered
true corners). Only in a whole deck: with
a card left out of enrollment (the whole track 4), this rule was all that kept the card's
twin from being named (the whole track 3, by the twin classifier 2-9 times as sure as it needs
and the reference check agreeing; the broken track 3 lay 0.9-1.1 of the way off)."""
TWIN_ALIKE = 0.8
"""Fine correlation of two references above which they are near twins, told apart only in the
region where they differ."""
TWIN_REGION_SHARE = 0.35
"""A near-twin region: where the references differ by at least this share of their largest
difference (smoothed), grown by a millimetre."""

COMMON_RUNGS = tuple((across, down) for across in range(-3, 4) for down in range(-3, 4)
                     if abs(across - down) <= 2)
"""Resolutions (``vision.twins.rung``s along a card's width and height) whose twin classifiers
enrollment learns and saves: a 1280 x 720 webcam sees cards at 0.5-1.2 px/mm and a 1920 x 1080
one at 0.75-1.8 (rungs -3 to 3 reach 0.41-1.96), and the table's tilt makes one side's up to
1.75 times the other's (two rungs). On the benchmark's tables (deck seed 1 and 100-103, every
style and level) 95 % of the cards at 720p and 94 % at 1080p are seen at one of these; the
rest, whose sides are three rungs apart or more (a card lying along a steeply tilted table),
learn theirs on first sight."""
LADDER_PX_PER_MM = (RUNG_BASE * RUNG_RATIO ** (min(min(pair) for pair in COMMON_RUNGS) - 0.5),
                    RUNG_BASE * RUNG_RATIO ** (max(max(pair) for pair in COMMON_RUNGS) + 0.5))
"""The resolutions (px/mm) ``COMMON_RUNGS`` reach, lowest and highest."""


class DamagedTwinsError(BadInputError):
    """A references file whose saved twin classifiers are damaged (enroll the deck again)."""


Floats = npt.NDArray[np.float32]
Group = tuple[tuple[int, bool], ...]
"""A group of near twins as (reference, turned), seen from its lowest reference upright."""


def _band_pass(image: npt.NDArray[np.generic], sigma: float) -> Floats:
    picture = np.asarray(image, np.float32)
    return np.asarray(cv2.GaussianBlur(picture, (0, 0), 0.7) - cv2.GaussianBlur(picture, (0, 0),
                                                                               sigma), np.float32)


def _unit(vector: Floats) -> Floats:
    centred = vector - vector.mean()
    norm = float(np.linalg.norm(centred))
    return np.asarray(centred / norm if norm > 1e-6 else centred, np.float32)


def _thumb(face_bgr: Image) -> Floats:
    """Lab thumbnail of a card face (upright), channel means removed, as a unit vector."""
    small = cv2.resize(face_bgr, THUMB, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab -= lab.reshape(-1, 3).mean(axis=0)
    return _unit(lab.ravel())


def _ncc(image: Floats, template: Floats) -> float:
    return float(cv2.matchTemplate(image, template, cv2.TM_CCOEFF_NORMED).max())


def _rival(fit: np.ndarray, peak: tuple[int, int], apart: float) -> float:
    """The best of a slide's correlation map ``fit`` at least ``apart`` pixels from its
    ``peak`` (x, y): -1 where none lies so far."""
    ys, xs = np.mgrid[0:fit.shape[0], 0:fit.shape[1]]
    far = (xs - peak[0]) ** 2 + (ys - peak[1]) ** 2 >= apart * apart
    return float(fit[far].max()) if far.any() else -1.0


def twin_min_score(scale: tuple[float, float]) -> float:
    """The whole-card correlation below which a near twin seen at ``scale`` px/mm (along its
    width and height) is not named."""
    return TWIN_MIN_SCORE_SHARP if min(scale) >= TWIN_SHARP_PX_PER_MM else TWIN_MIN_SCORE


@dataclass(frozen=True)
class Reading:
    """What naming says of one found card."""

    name: str | None
    """The card's public name, or None when it cannot be told clearly."""
    confidence: float
    """0 to 1: how clearly the best match beats every rival where they differ."""
    turned: bool
    """The card lies the other way round from the corners it was found with."""
    score: float
    """Fine correlation with the best reference (below ``CARD_SCORE``: not a card)."""
    corners: Points
    """The card's corners as the match placed them (the outline's, moved to where the
    picture fits best), in the order of the corners given (not turned)."""


class CardReferences:
    """The enrolled faces of one deck, ready to name cards with."""

    def __init__(self, deck: str, card_mm: tuple[float, float],
                 faces: Mapping[str, list[Image]], complete: bool = False) -> None:
        """``faces``: for each card name (``deck/card``), one or more upright BGR face images
        (any resolution; each is resized to the card at ``REF_PX_PER_MM``); ``complete``:
        they are every card of the deck (``complete``)."""
        self.deck = deck
        self.complete = complete
        """Every card of the deck is enrolled: a card on the table is one of these, so one
        that shares most of another's look need lie only ``STRANGER_REACH`` of the way
        towards its own. In a deck enrolled in part a named twin must also look like itself in
        every region where it differs from another twin (``vision.twin_check.EVERY_REGION``)
        and like its simulated photographs (``vision.twins.Verdict.typical``): a card left out
        may be one more twin."""
        self.card_mm = (float(card_mm[0]), float(card_mm[1]))
        size = self._size(REF_PX_PER_MM)
        names, stored = [], []
        for name, images in faces.items():
            for image in images:
                if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 8:
                    raise BadInputError(f"reference of {name} is not a colour picture")
                stored.append(cv2.resize(image, size, interpolation=cv2.INTER_AREA))
                names.append(name)
        if not names:
            raise BadInputError(f"no references enrolled for deck {deck!r}")
        self.names = names
        self.faces = np.stack(stored)
        self._thumbs = np.stack([_thumb(face) for face in self.faces])
        self._fine = [self._fine_map(face, REF_PX_PER_MM) for face in self.faces]
        self._grey = [cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
                      for face in self.faces]
        self._sharp = [_band_pass(grey, 3.0) for grey in self._grey]
        fine = np.stack([_unit(m.ravel()) for m in self._fine])
        turned = fine[:, ::-1]  # a map turned round is its vector reversed
        # What every card of the deck shares (a border, a layout) says nothing about which
        # card it is: near twins are cards alike once it is left out.
        common = fine.mean(axis=0) + turned.mean(axis=0)
        common /= max(float(np.linalg.norm(common)), 1e-6)

        def specific(vectors: Floats) -> Floats:
            rest = vectors - np.outer(vectors @ common, common)
            return np.asarray(rest / np.maximum(np.linalg.norm(rest, axis=1, keepdims=True),
                                                1e-6), np.float32)

        self._alike = np.stack([specific(fine) @ specific(fine).T,
                                specific(fine) @ specific(turned).T])
        # How far towards each reference from halfway to another a card read perfectly lies,
        # on the scale of ``_alike`` (its scores are plain correlations).
        self._reach = (1 - np.stack([fine @ fine.T, fine @ turned.T])) / np.maximum(
            2 * (1 - self._alike), 1e-3)
        self._groups: dict[int, tuple[list[tuple[int, bool]], list[Box]]] = {}
        self._classifiers: dict[tuple[Group, Rungs], TwinClassifier] = {}
        self._saved: dict[tuple[Group, Rungs], State] = {}
        """Classifiers read from a references file, taken up on first use."""
        self._pairs = PairCheck(self.card_mm, self._grey, self._sharp, REF_PX_PER_MM,
                                in_part=not complete)

    def _size(self, px_per_mm: float) -> tuple[int, int]:
        return round(self.card_mm[0] * px_per_mm), round(self.card_mm[1] * px_per_mm)

    def _fine_map(self, face: Image, px_per_mm: float) -> Floats:
        """The band-pass grey map of a face at ``FINE_PX_PER_MM``, border inset left out."""
        size = self._size(FINE_PX_PER_MM)
        grey = cv2.cvtColor(cv2.resize(face, size, interpolation=cv2.INTER_AREA),
                            cv2.COLOR_BGR2GRAY)
        inset = round(INSET_MM * FINE_PX_PER_MM)
        return _band_pass(grey, 3.0)[inset:-inset, inset:-inset].copy()

    @property
    def cards(self) -> list[str]:
        """Names of the enrolled cards."""
        return sorted(set(self.names))

    def sample(self, frame: Image, corners: Points, px_per_mm: float, pad: int = 0,
               box_mm: tuple[float, float, float, float] | None = None) -> Image:
        """The card with ``corners`` (top-left, top-right, bottom-right, bottom-left, image
        pixels) sampled upright at ``px_per_mm``, within ``box_mm`` (x0, y0, x1, y1 on the
        card; default the whole card), with ``pad`` pixels more on each side."""
        x0, y0, x1, y1 = box_mm or (0.0, 0.0, *self.card_mm)
        source = np.array([[0, 0], [self.card_mm[0], 0], [*self.card_mm], [0, self.card_mm[1]]],
                          np.float32)
        card_to_image = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
        step = 1.0 / px_per_mm
        # Pixel centres: pixel (i, j) of the sample sits at card (x0 + (i + 0.5 - pad) step, ...).
        to_card = np.array([[step, 0, x0 + (0.5 - pad) * step], [0, step, y0 + (0.5 - pad) * step],
                            [0, 0, 1]])
        size = (round((x1 - x0) * px_per_mm) + 2 * pad, round((y1 - y0) * px_per_mm) + 2 * pad)
        return np.asarray(cv2.warpPerspective(frame, card_to_image @ to_card, size,
                                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                              borderMode=cv2.BORDER_REPLICATE), np.uint8)

    def read(self, frame: Image, corners: Points, least_score: float = -np.inf,
             only_named: bool = False, twin_bar: float = 1.0,
             thumbnails: Floats | None = None) -> Reading:
        """Name the card lying at ``corners`` in a BGR frame (see the module's steps).

        ``twin_bar``: how many times what the check of near twins asks (``agreed``) a card
        with near twins must clear to be named (more for a card placed less surely);
        ``thumbnails``: ``thumbnails`` at these corners, where the caller looked already.

        A caller that drops every reading scoring under ``least_score``, and (``only_named``)
        every one that names no card, gets such a reading back as soon as it is sure to be
        one, unnamed with confidence 0, without the near twins' checks (or the rest of them,
        once one twin refuses the name): on a new table most outlines named are line placings
        straddling two cards, or a card and the cloth, and those checks were nearly half of
        what naming them cost."""
        ways = (corners, np.roll(corners, 2, axis=0))
        shortlist = self._shortlist(frame, ways, thumbnails)
        # The card's picture pins where it lies better than an outline can (a white border
        # touching the next card's): slide the likeliest reference over a wider margin.
        leader, leader_turned = shortlist[0]
        wide = self._fine_sample(frame, ways[leader_turned], SEARCH_PAD)
        fit = cv2.matchTemplate(wide, self._fine[leader], cv2.TM_CCOEFF_NORMED)
        _, placed, _, (dx, dy) = cv2.minMaxLoc(fit)
        unsure = _rival(fit, (dx, dy), SLIDE_RIVAL_MM * FINE_PX_PER_MM) > placed - SLIDE_RIVAL_GAP
        shift = np.array([dx - SEARCH_PAD, dy - SEARCH_PAD], np.float64) / FINE_PX_PER_MM
        if leader_turned:
            shift = -shift
        corners = self.shifted(corners, shift)
        ways = (corners, np.roll(corners, 2, axis=0))
        # An outline a few millimetres off can leave the card's own face off the shortlist
        # (then a look-alike is named, with no rival to stop it): shortlist again where the
        # card now lies.
        shortlist += [candidate for candidate in self._shortlist(frame, ways)
                      if candidate not in shortlist]
        # The card's map either way round, sampled only if a candidate or its twin needs it,
        # and its score with each reference either way round, once (a twin scored on the
        # shortlist is scored again below: a quarter of the scores of a new artwork table).
        observed: dict[bool, Floats] = {}
        matched: dict[tuple[int, bool], float] = {}

        def fine(reference: int, turned: bool) -> float:
            if (reference, turned) not in matched:
                if turned not in observed:
                    observed[turned] = self._fine_sample(frame, ways[turned], PAD)
                matched[reference, turned] = _ncc(observed[turned], self._fine[reference])
            return matched[reference, turned]

        scored: dict[str, tuple[float, int, bool]] = {}
        for reference, turned in shortlist:
            score = fine(reference, turned)
            name = self.names[reference]
            if score > scored.get(name, (-2.0, 0, False))[0]:
                scored[name] = (score, reference, turned)
        ranked = sorted(scored.values(), reverse=True)
        score, best, turned = ranked[0]
        group, boxes = self._group(best)
        least_named = (twin_min_score(resolution(self.card_mm, corners))
                       + (SLIDE_UNSURE_MARGIN if unsure else 0.0) if len(group) > 1
                       else MIN_SCORE)
        floor = max(least_score, least_named) if only_named else least_score
        # The classifier may name another twin, scored then on its own reference.
        if score < floor and max(fine(other, turned != flip) for other, flip in group) < floor:
            return Reading(None, 0.0, turned, score, corners)
        sure = 1.0
        if len(group) > 1:
            # Near twins score alike on the whole card: the group's classifier decides, where
            # they differ, which twin it is.
            member, sure = self._which_twin(frame, ways[turned], group, boxes)
            best, flip = group[member]
            turned = turned != flip
            score = fine(best, turned) if member else score
        # ...and no other card of the deck may come near it.
        strangers, stranger_balance = self._strangers(ranked, group, best, turned, score)
        if only_named and (score < least_named or strangers < 1.0
                           or sure < CLASSIFIER_SHARE * twin_bar):
            # Unnamed whatever the check of twins says (``agreed`` reaches ``twin_bar`` only
            # from ``twin_bar`` times ``CLASSIFIER_SHARE`` of the classifier's margin).
            return Reading(None, 0.0, turned, score, corners)
        # The classifier learnt from simulation, which flatters; the twin is named only if
        # the references themselves agree, against every twin of another name. At or below
        # 0 the card is unnamed whatever the check says (``agreed`` never lifts a verdict
        # above 0): no need to compare the references.
        if len(group) > 1 and sure > 0:
            others = [(other, other_flip != flip) for other, other_flip in group
                      if self.names[other] != self.names[best]]
            classifier, weighed, worst = sure, np.inf, np.inf
            for check in self._pairs.each(frame, ways[turned], best, others):
                weighed = min(weighed, check.weighed)
                if not self.complete:
                    # A card left out of enrollment may be one more twin: it must look like
                    # the named twin in every region where the twins differ, and lie near it
                    # there, not only nearer it than the other twin (it may be a third).
                    worst = min(worst, check.worst, check.near)
                if only_named and min(agreed(classifier, weighed), worst) < twin_bar:
                    # Each twin more can only lower it: unnamed whatever they say.
                    return Reading(None, 0.0, turned, score, corners)
            sure = min(agreed(classifier, weighed), worst)
        clear = min(sure, 2.0, strangers)
        confidence = float(np.clip(min(0.5 * min(sure, 1.0), stranger_balance) * 2, 0.0, 1.0))
        named = score >= least_named and clear >= 1.0 and (len(group) == 1 or sure >= twin_bar)
        return Reading(self.names[best] if named else None, confidence, turned, score, corners)

    def _strangers(self, ranked: list[tuple[float, int, bool]], group: list[tuple[int, bool]],
                   best: int, turned: bool, score: float) -> tuple[float, float]:
        """How clearly the card (the reference ``best``, ``turned``, scoring ``score``) lies
        nearer it than every other card of the ``ranked`` (score, reference, turned) that is
        no twin of it (1: just enough), and how far towards it, from halfway (0) to itself
        (0.5), on the scale of ``MIN_STRANGER_BALANCE`` (both infinite with no such card)."""
        clear, balance = np.inf, np.inf
        twins = {reference for reference, _ in group}
        for other_score, other, other_turned in ranked:
            if other in twins or self.names[other] == self.names[best]:
                continue
            side = int(other_turned != turned)
            alike = float(self._alike[side, best, other])
            part = (score - other_score) / max(2 * (1 - alike), 1e-3)
            needed = (min(MIN_STRANGER_BALANCE,
                              STRANGER_REACH * float(self._reach[side, best, other]))
                      if self.complete else MIN_STRANGER_BALANCE)
            balance = min(balance, part * MIN_STRANGER_BALANCE / needed)
            clear = min(clear, part / needed)
        return clear, balance

    def thumbnails(self, frame: Image, corners: Points) -> Floats:
        """How like each reference, either way round, the colour thumbnail at ``corners`` is
        (-1 to 1; every reference upright first, then every one turned): a look far cheaper
        than ``read``, which shortlists by it (and can be handed it)."""
        return self._thumb_likeness(frame, (corners, np.roll(corners, 2, axis=0)))

    def _shortlist(self, frame: Image, ways: tuple[Points, Points],
                   likeness: Floats | None = None) -> list[tuple[int, bool]]:
        """The (reference, turned) whose colour thumbnails are likest the card's, seen at
        ``ways`` (its corners either way round; ``likeness``: ``_thumb_likeness`` there, if
        taken already)."""
        first = self._thumb_likeness(frame, ways) if likeness is None else likeness
        count = len(self.names)
        return [(int(i) % count, bool(i >= count)) for i in np.argsort(-first)[:SHORTLIST]]

    def _thumb_likeness(self, frame: Image, ways: tuple[Points, Points]) -> Floats:
        """Each reference's thumbnail correlation with the card's, seen at ``ways`` (every
        reference upright first, then every one turned)."""
        thumbs = [_thumb(self.sample(frame, way, THUMB[0] / self.card_mm[0])) for way in ways]
        return np.asarray(np.concatenate([self._thumbs @ thumb for thumb in thumbs]),
                          np.float32)

    def _which_twin(self, frame: Image, corners: Points, group: list[tuple[int, bool]],
                    boxes: list[Box]) -> tuple[int, float]:
        """Which member of a group of near twins (reference, turned) the card at ``corners``
        (the group's first member's way round) is, and how surely: 1 or more when it is far
        likelier than every twin of another name and (in a deck enrolled in part) looks like
        its simulated photographs."""
        # One classifier serves every member of a group: it is keyed by the members as seen
        # from the first of them (the lowest reference) upright.
        anchor_flip = min(group)[1]
        canonical = self._canonical(group)
        if anchor_flip:
            corners = np.roll(corners, 2, axis=0)
        scale = resolution(self.card_mm, corners)
        verdict = self._classifier(canonical, rung(scale)).judge(frame, corners)
        chosen = int(np.argmax(verdict.likelihood))
        name = self.names[canonical[chosen][0]]
        others = [value for (reference, _), value in zip(canonical, verdict.likelihood,
                                                         strict=True)
                  if self.names[reference] != name]
        margin = float(verdict.likelihood[chosen] - max(others)) if others else np.inf
        reference, flip = canonical[chosen]
        member = group.index((reference, flip != anchor_flip))
        # Looking like the twin's simulated photographs guards against a card left out of
        # enrollment, which may lie near none of them. In a deck enrolled whole the card is
        # one of the group, and one far from every twin's photographs (the sharpest cards
        # of a 1080p table) is still likeliest its own.
        typical = self.complete or bool(verdict.typical[chosen])
        return member, (margin / needed_margin(scale) if typical else 0.0)

    def _canonical(self, group: list[tuple[int, bool]]) -> Group:
        """A group of twins as seen from its lowest reference upright (one classifier serves
        every member)."""
        anchor_flip = min(group)[1]
        return tuple(sorted((reference, flip != anchor_flip) for reference, flip in group))

    def _classifier(self, canonical: Group, rungs: Rungs) -> TwinClassifier:
        """The classifier of a group of twins (as ``_canonical`` gives it) at a resolution
        (``vision.twins.rung``), learnt on first use."""
        key = (canonical, rungs)
        if key not in self._classifiers:
            saved = self._saved.pop(key, None)
            restored = None
            # Saved for regions the references no longer give (ValueError): learnt again.
            if saved is not None:
                with contextlib.suppress(ValueError):
                    restored = TwinClassifier.restore(*self._twins(canonical), rungs, saved)
            self._classifiers[key] = restored or TwinClassifier(*self._twins(canonical), rungs)
        return self._classifiers[key]

    def _twins(self, canonical: Group) -> tuple[list[Image], tuple[float, float], list[Box]]:
        """What a classifier of a group of twins is learnt from: the group's grey faces (each
        turned as the group sees it), the card's size, and where they differ."""
        faces = [self._grey[reference][::-1, ::-1] if flip else self._grey[reference]
                 for reference, flip in canonical]
        return faces, self.card_mm, self._group(canonical[0][0])[1]

    def _group(self, best: int) -> tuple[list[tuple[int, bool]], list[Box]]:
        """The near twins of reference ``best`` (itself first): (reference, turned) for every
        reference alike over most of the card, and where they differ (boxes in card
        millimetres)."""
        if best not in self._groups:
            # Twins of twins are twins: the group is closed, so that the card's own twin is in
            # it whichever member scored best on the whole card.
            group = [(best, False)]
            for reference, turned in group:
                for flip in (False, True):
                    for other in np.nonzero(self._alike[int(flip), reference] >= TWIN_ALIKE)[0]:
                        if (int(other), turned != flip) not in group:
                            group.append((int(other), turned != flip))
            boxes: list[Box] = []
            if len(group) > 1:
                maps = np.stack([self._sharp[other][::-1, ::-1] if flip else self._sharp[other]
                                 for other, flip in group])
                spread = cv2.GaussianBlur(maps.std(axis=0), (0, 0), 2.0)
                grow = round(REF_PX_PER_MM)
                marked = cv2.dilate((spread >= TWIN_REGION_SHARE * float(spread.max())).astype(
                    np.uint8), np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
                parts, _, stats, _ = cv2.connectedComponentsWithStats(marked)
                largest = max(int(stats[k, 4]) for k in range(1, parts))
                boxes = [(x / REF_PX_PER_MM, y / REF_PX_PER_MM, (x + w) / REF_PX_PER_MM,
                          (y + h) / REF_PX_PER_MM)
                         for x, y, w, h, area in (stats[k] for k in range(1, parts))
                         if area >= 0.1 * largest]
            self._groups[best] = (group, boxes)
        return self._groups[best]

    def shifted(self, corners: Points, shift_mm: npt.NDArray[np.float64]) -> Points:
        """``corners`` of a card moved by ``shift_mm`` in the card's own millimetres."""
        width, height = self.card_mm
        source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        to_image = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
        moved = (source + shift_mm).reshape(-1, 1, 2).astype(np.float32)
        return np.asarray(cv2.perspectiveTransform(moved, to_image), np.float64).reshape(-1, 2)

    def _fine_sample(self, frame: Image, corners: Points, pad: int) -> Floats:
        """The band-pass grey map of the card at ``corners``, with ``pad`` pixels of slack."""
        box = (INSET_MM, INSET_MM, self.card_mm[0] - INSET_MM, self.card_mm[1] - INSET_MM)
        grey = cv2.cvtColor(self.sample(frame, corners, FINE_PX_PER_MM, pad + 3, box),
                            cv2.COLOR_BGR2GRAY)
        return _band_pass(grey, 3.0)[3:-3, 3:-3]

    def twin_groups(self) -> list[Group]:
        """Every group of near twins of the deck (each once, as ``_canonical`` gives it)."""
        groups: list[Group] = []
        for best in range(len(self.names)):
            group = self._group(best)[0]
            if len(group) > 1 and self._canonical(group) not in groups:
                groups.append(self._canonical(group))
        return groups

    def learn_twins(self, rungs: tuple[Rungs, ...] = COMMON_RUNGS,
                    progress: Callable[[int, int, Group], None] | None = None,
                    workers: int | None = None) -> None:
        """Learn every group's twin classifier at each resolution of ``rungs`` now, rather than
        on first sight, in ``workers`` processes (default: one per core this process may use;
        1: in this one); ``progress(done, groups, group)`` after each group. Ctrl-C stops
        the workers and raises KeyboardInterrupt here."""
        groups = self.twin_groups()
        # (Those read from a file are kept as they are, to be taken up on first use.)
        jobs = [(group, step) for group in groups for step in rungs
                if (group, step) not in self._classifiers and (group, step) not in self._saved]
        workers = min(len(jobs), workers or (len(os.sched_getaffinity(0))
                                             if hasattr(os, "sched_getaffinity")
                                             else os.cpu_count() or 1))
        if multiprocessing.current_process().daemon:
            workers = min(workers, 1)  # a pool's worker may not start processes of its own
        left = Counter(group for group, _ in jobs)
        done = len(groups) - len(left)
        learnt: Iterator[State] | None = None
        with contextlib.ExitStack() as stack:
            if workers > 1:
                # Spawned, not forked: a child forked while one of OpenCV's threads holds a
                # lock waits on it for ever (it hung a CI run). The caller's script must guard
                # its entry point with ``if __name__ == "__main__"``, as ours do.
                pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(
                    workers, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN)))
                learnt = pool.imap(_learnt, [(*self._twins(group), step) for group, step in jobs])
            for group, step in jobs:
                if learnt is None:
                    self._classifier(group, step)
                else:
                    self._classifiers[(group, step)] = TwinClassifier.restore(
                        *self._twins(group), step, next(learnt))
                left[group] -= 1
                if not left[group]:
                    done += 1
                    if progress is not None:
                        progress(done, len(groups), group)

    def fingerprint(self) -> str:
        """What the saved twin classifiers were learnt from (the faces, their names, the card's
        size and ``MODEL``): classifiers saved under another fingerprint are learnt again."""
        digest = hashlib.sha256(f"{MODEL} {self.card_mm} {self.names}".encode())
        digest.update(np.ascontiguousarray(self.faces).tobytes())
        return digest.hexdigest()

    def save(self, path: Path) -> None:
        """Store the references (``.npz``) for ``load``, with every twin classifier learnt so
        far (docs/formats.md)."""
        arrays: dict[str, Any] = {"kind": np.array("faces"), "deck": np.array(self.deck),
                                  "card_mm": np.array(self.card_mm),
                                  "names": np.array(self.names), "faces": self.faces,
                                  "complete": np.array(self.complete),
                                  "twins_of": np.array(self.fingerprint())}
        keys = []
        states: dict[tuple[Group, Rungs], State] = {
            **self._saved, **{key: classifier.state()
                                    for key, classifier in self._classifiers.items()}}
        for index, ((group, steps), state) in enumerate(sorted(states.items(),
                                                               key=lambda item: item[0])):
            keys.append(" ".join(f"{reference}:{int(flip)}" for reference, flip in group)
                        + f"@{steps[0]}x{steps[1]}")
            arrays.update({f"twin{index}_{field}": array for field, array in state.items()})
        arrays["twins"] = np.array(keys, dtype=str)
        try:
            with zipfile.ZipFile(path, "w") as packed:
                for key, array in arrays.items():
                    # The faces shrink sevenfold; the classifiers' floats by a tenth, for
                    # several times the time: only the faces are compressed.
                    member = zipfile.ZipInfo(f"{key}.npy", (1980, 1, 1, 0, 0, 0))
                    member.compress_type = (zipfile.ZIP_DEFLATED if key == "faces"
                                            else zipfile.ZIP_STORED)
                    with packed.open(member, "w", force_zip64=True) as file:
                        np.lib.format.write_array(file, np.asanyarray(array),
                                                  allow_pickle=False)
        except OSError as error:
            raise BadInputError(f"cannot write {path}: {error.strerror}") from None

    def restore_twins(self, data: Mapping[str, npt.NDArray[np.generic]], origin: str) -> int:
        """Take the twin classifiers saved in a references file (``save``), to be used on first
        sight; how many. None (0) when they were learnt from other references or by another
        ``MODEL`` (they are learnt again on first use); ``DamagedTwinsError`` when they are
        damaged (one that only reads other regions than the references give is learnt
        again)."""
        if "twins" not in data or str(data.get("twins_of", "")) != self.fingerprint():
            return 0
        damaged = DamagedTwinsError(f"{origin}: its saved twin classifiers are damaged "
                                    "(enroll the deck again)")
        try:
            keys = [str(key) for key in np.atleast_1d(data["twins"])]
            for index, key in enumerate(keys):
                members, steps = key.split("@")
                group = tuple((int(reference), flip == "1") for reference, flip in
                              (member.split(":") for member in members.split()))
                across, down = (int(step) for step in steps.split("x"))
                if (not group or any(not 0 <= reference < len(self.names)
                                     for reference, _ in group)
                        or group != self._canonical(self._group(group[0][0])[0])
                        or not -20 < across < 20 or not -20 < down < 20):
                    raise damaged
                state = {field: np.asarray(data[f"twin{index}_{field}"]) for field in STATE}
                if not fits(state, len(group)):
                    raise damaged
                self._saved[(group, (across, down))] = state
        except (KeyError, ValueError, TypeError):
            raise damaged from None
        return len(keys)


def _learnt(job: tuple[list[Image], tuple[float, float], list[Box], Rungs]) -> State:
    """A twin classifier learnt in a worker process, as arrays (``learn_twins``)."""
    return TwinClassifier(*job).state()


WEBCAM_PX_PER_MM = 0.9
"""Resolution a card is assumed seen at when judging whether two cards can be told apart: a
1280 x 720 webcam with a 70 degree field of view, 1.0 m above the table."""
WEBCAM_VIEWS = (
    ("a 1920x1080 webcam with a 70 degree view 1.0 m above the table (1.35 px/mm)",
     1.5 * WEBCAM_PX_PER_MM),
    ("a 1280x720 one (0.9 px/mm)", WEBCAM_PX_PER_MM),
)
"""The cameras the enrollment report judges pairs for, in words and px/mm: the 1080p a webcam is
asked for (``vision.camera.WEBCAM_MODE``) and the 720p many give."""
def too_alike(references: CardReferences, px_per_mm: float = WEBCAM_PX_PER_MM
              ) -> list[tuple[str, str, bool]]:
    """Pairs of enrolled cards (name, name, second turned) the camera will not tell apart at
    ``px_per_mm``: near twins whose twin classifier, learnt at that resolution, does not name
    most of the first's held-back simulated photographs clearly against the second (by what
    naming demands of it when the reference check agrees); and any other two cards that
    differ nowhere by ``TELL_APART_GREY``."""
    size = references._size(px_per_mm)
    grey = references._grey
    names = references.names
    pairs = {(first, second, turned)
             for first in range(len(grey)) for second in range(first, len(grey))
             if names[first] != names[second]
             for turned in (False, True)
             if not differ(grey[first], grey[second], turned, size)}
    for canonical in references.twin_groups():
        unclear = references._classifier(canonical, rung((px_per_mm, px_per_mm))).unclear(
            CLASSIFIER_SHARE * needed_margin((px_per_mm, px_per_mm)))
        for mine, (first, first_flip) in enumerate(canonical):
            for yours, (second, second_flip) in enumerate(canonical):
                if names[first] != names[second] and unclear[mine, yours] > 0.5:
                    low, high = sorted((first, second))
                    pairs.add((low, high, first_flip != second_flip))
    return [(names[first], names[second], turned) for first, second, turned in sorted(pairs)]


def load_references(path: Path) -> CardReferences | References:
    """References written by ``vision enroll``: whole faces (``CardReferences``) or our
    framed faces' windows (``vision.identify.References``)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            whole = "kind" in data.files and str(data["kind"]) == "faces"
            if whole:
                return faces_in(data, str(path))
    except BadInputError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as error:
        raise BadInputError(f"cannot read references {path}: {error}") from None
    return References.load(path)


def faces_in(data: Mapping[str, npt.NDArray[np.generic]], origin: str) -> CardReferences:
    """References from a loaded ``.npz`` written by ``CardReferences.save``."""
    try:
        card_mm = tuple(float(v) for v in data["card_mm"])
        names = [str(n) for n in data["names"]]
        faces = np.asarray(data["faces"], np.uint8)
        deck = str(data["deck"])
        # Files written before it was kept are taken as a deck enrolled in part.
        complete = "complete" in data and bool(np.asarray(data["complete"]).item())
    except (KeyError, ValueError, TypeError):
        raise BadInputError(f"{origin} is not a references file") from None
    if len(card_mm) != 2 or faces.ndim != 4 or len(faces) != len(names):
        raise BadInputError(f"{origin} is not a references file")
    grouped: dict[str, list[Image]] = {}
    for name, face in zip(names, faces, strict=True):
        grouped.setdefault(name, []).append(face)
    references = CardReferences(deck, (card_mm[0], card_mm[1]), grouped, complete)
    references.restore_twins(data, origin)
    return references
