"""A second opinion on near twins: the card compared with each twin's reference where they differ.

The twin classifier (``vision.twins``) learns from simulated photographs, and simulation
flatters: it leaves out glare, uneven light and a JPEG's worst, so a few cards it was very
sure of were the other twin. This check knows nothing of simulation: it reads the regions
where two twins differ, aligned on what they share round them, and correlates them with both
references blurred as the camera blurs that card (``CAMERA_BLURS``: measured on it, in the
camera's own pixels, so the model follows the resolution). A twin is named only when both
agree, each by its own margin (a wrong name is far worse than none).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, NamedTuple, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from vision.imaging import Image, Points
from vision.twins import _band_pass, _standard, card_to_image, resolution, sample_box

Floats = npt.NDArray[np.float32]
Scale = tuple[float, float]
"""Pixels per millimetre along a card's width and height."""
Blur = tuple[float, float]
"""A Gaussian blur's sigma along a reference's width and height (reference pixels)."""
PixelBox = tuple[int, int, int, int]
"""x0, y0, x1, y1 in reference pixels."""
Region = tuple[float, float, float, float]
"""A region where two twins differ, read: its size, the card's correlation with each twin and
theirs with each other."""

MIN_BALANCE = 0.17
"""How far towards the named twin, from halfway to another's (0) to the twin itself (0.5), a
card must lie, the classifier agreeing. Alone this check needed 0.28 (wrong twins reached
0.255). Measured with the classifier on deck seed 1's tables (naming at jittered true
corners, 5 tables per style and level, 694 near twins): of the classifier's wrong picks the
check gave at most 0.13 (a full-bleed 32 read as 30 on a hard table), and none of them was
also sure by the classifier's own margin."""
CLASSIFIER_SHARE = 0.2
"""Share of the twin classifier's own margin (``vision.twins.needed_margin``) a twin needs when
this check agrees by ``MIN_BALANCE``..."""
SURE_CLASSIFIER = 2.0
"""...and the classifier margin (in the same shares) past which this check need only reach
``SURE_CHECK`` of ``MIN_BALANCE``..."""
SURE_CHECK = 0.6
"""...(see ``agreed``)."""
LOW_RESOLUTION = 0.8
"""Pixels per millimetre below which a card is small in the picture..."""
MIN_BALANCE_LOW = 0.18
"""...and must lie this far towards its twin (blur and noise move a small card's few pixels
further)."""
EVERY_REGION = 0.25
"""In a deck enrolled in part, how far towards the named twin, from halfway to another's (0)
to the twin itself (0.5), a card must lie in *each* region where they differ, not only on
all of them weighed by size. A card left out of enrollment is one more twin that nothing
learnt tells from the enrolled ones; where its own glyph differs from the named twin's it
lies away from it, or halfway (a Trains-look 18 read as 10: the region of the second digit,
towards 58). Measured on a Trains-look deck enrolled without every third card (deck seed 1,
tables 300-302, every level, naming at true corners, 25 November 2026): the 10 (720p) and 11
(1080p) cards left out that were named as their twin lay at most 0.14 in their worst region;
of the enrolled twins named, 54 of 94 (720p) and 88 of 124 (1080p) lay 0.25 or more."""
NEAR_EVERY_REGION = 0.3
"""In a deck enrolled in part, how near the named twin a card must lie in *each* region where
it differs from another twin, on the scale of ``EVERY_REGION`` but judged against the named
twin alone: 0.5 less half of what it falls short of the correlation a true copy would reach
there (``_expected``) over the twins' distance (one less their correlation), so 0.5 is as
near as a true copy and 0 as far from it as the other twin. The balance is relative (nearer
this twin than that one?), and a card left out lies off the line between them: a full-bleed
33 between enrolled 34 and 35 differs from both in its second digit, so it can lie nearer 35
than 34 there and still far from 35. Measured on deck seed 1 enrolled without every third
card (naming at jittered true corners, tables 300-305, artwork, plain and Trains looks,
every level, 29 November 2026): at 1920 x 1080 the 5 cards left out named as a twin (33 as
35 twice, 27 as 25, 39 as 38, Trains 81 as 41) lay at most 0.284 in their worst region, and
442 of the 510 enrolled twins named lay 0.3 or more (judged against the twin's distance
alone, one less the card's correlation, 0.275 was needed and kept 357); at 1280 x 720, 93 of
130 (the cards left out named there lay below 0). Benchmark (naming, tuning deck enrolled
without every third card, 17 tables per level, 1920 x 1080, with ``NEAR_EVERY_REGION_LOW``):
wrong names 16 -> 2 (two plain hard: a left-out 6 as 4 and 12 as 11 lie near the named twin
where it differs from the twins enrolled, and differ from it elsewhere), correct artwork
61.6/49.9/26.0 -> 47.2/41.7/18.3 %, plain 54.3/43.1/18.2 -> 42.3/37.0/15.2 %, Trains
61.7/58.8/43.0 -> 61.5/57.3/40.2 % (easy/medium/hard); at 1280 x 720 (8 tables) 3 -> 0
wrong, correct about a third less."""
NEAR_EVERY_REGION_LOW = 0.45
"""...and below ``LOW_RESOLUTION`` px/mm across (blur and noise leave a small card's expected
correlation so low that a third glyph passes for noise): a full-bleed 33 seen at 0.74 x 1.22
px/mm (tuning table 311, hard, 1920 x 1080, enrolled without every third card) lay 0.44 near
its enrolled twin 35 and was named. On tables 300-305 at 1920 x 1080, 8 of the 510 enrolled
twins named lay below 0.8 px/mm across, 2 of them 0.45 or more; at 1280 x 720 20 of 92."""
CONTEXT_PX = 8
"""Reference pixels round a region that align the card before the region is compared (what
the twins share there: a badge's rim, the other digit)."""
REGION_SHARE = 0.35
"""A region: where two references differ by at least this share of their largest difference
(smoothed), grown by a millimetre."""
CAMERA_BLURS = (0.5, 0.8, 1.1, 1.4, 1.7, 2.0)
"""Blurs (Gaussian sigma, in the camera's own pixels) the references are tried at; a card is
compared with both twins at the one under which both fit it best round where they differ
(the same for both, so it favours neither). A webcam's blur is its lens, its pixels and its
JPEG, the same in its own pixels whatever the frame size, so in millimetres it shrinks as the
card grows in the picture; a blur fixed at 0.6 px (before) was far sharper than a hard
table's camera (1-1.8 px, and its pixels and JPEG add about 0.4) and left a right read short
of the balance. Measured on deck seed 1 (naming at jittered true corners, tables 300-305,
artwork, Trains and Rollecate looks, medium and hard, 1920 x 1080): of the right twins the
classifier was sure of, a fixed 0.6 px left 188 short of the balance, a fixed 1.1 px 115,
the blur fitted on each card 78. Blurred that far, twins can correlate 0.92-0.99 where they
differ and noise seems a balance (two 720p artwork cards lay 2.5-2.8 balances towards the
wrong twin; a full-pipeline 1080p one 3.6-5.5, named wrong): so a card that leans to the
other twin on the sharpest references is not cleared (``PairCheck.each``)."""
KEPT_READS = 4096
"""How many blurred reference maps, and as many pairs of twins read round a region, are kept
for the next card (each some 4-9 kB)."""
TELL_APART_GREY = 18.0
"""Grey levels by which two cards must differ somewhere (3 x 3 pixels averaged, at the
camera's resolution) to be told apart; a pair seen to differ by less (at each side's px/mm,
through the blur measured on the card) needs ``MIN_BALANCE`` times as much more as it differs
less (``PairCheck._clear``)."""


LEAST_BLUR = 0.8
"""Blur (pixels) of the 3 x 3 Gaussian ``differ`` assumes: a pair judged as the camera sees
it (``PairCheck._seen_difference``) is judged through the blur measured on the card only where it
is more."""


def _tenth(px_per_mm: float) -> float:
    """A resolution rounded down to a tenth of a px/mm (at least 0.1), as pairs are judged."""
    return max(0.1, float(np.floor(px_per_mm * 10) / 10))


def differ(first: Floats, second: Floats, turned: bool, size: tuple[int, int],
           blur: float | None = None) -> bool:
    """Whether two grey faces, shrunk to ``size`` (and the second turned), differ somewhere
    (3 x 3 pixels averaged) by ``TELL_APART_GREY``, blurred by a 3 x 3 Gaussian or, given,
    by ``blur`` pixels of that size."""
    return difference(first, second, turned, size, blur) >= TELL_APART_GREY


def difference(first: Floats, second: Floats, turned: bool, size: tuple[int, int],
               blur: float | None = None) -> float:
    """By how many grey levels two grey faces, shrunk to ``size`` (and the second turned),
    differ where they differ most (3 x 3 pixels averaged), blurred by a 3 x 3 Gaussian or,
    given, by ``blur`` pixels of that size."""

    def seen(face: Floats) -> Floats:
        shrunk = cv2.resize(face, size, interpolation=cv2.INTER_AREA)
        return np.asarray(cv2.GaussianBlur(shrunk, (3, 3), 0) if blur is None
                          else cv2.GaussianBlur(shrunk, (0, 0), blur), np.float32)

    mine, theirs = seen(first), seen(second)
    if turned:
        theirs = theirs[::-1, ::-1]
    return float(cv2.blur(np.abs(mine - theirs), (3, 3)).max())


def agreed(classifier: float, check: float) -> float:
    """How clearly (1: just enough) a twin is named when the twin classifier gives it
    ``classifier`` of its own margin and this check ``check`` of ``MIN_BALANCE`` (the least
    over every twin of another name). Each may be less sure than it would need to be alone,
    because the other must agree: a fifth of the classifier's margin with the check's whole
    balance, or twice the margin with 0.6 of the balance.

    Measured on deck seed 1 only (naming at jittered true corners, scenes 300-305 of every
    style with near twins and level, 1,487 near twins, the simulation with glare, light and
    perspective): of the right picks, the classifier's margin alone vetoed 309 and the
    check alone 48 (548 both), at every resolution below 1 px/mm more by the margin; the
    214 wrong picks reached at most 0.55 of the margin and 0.80 of the balance, and no more
    than 0.45 of what this rule demands (a plain card's rose read as lime, hard table:
    0.31 of the margin, 0.45 of the balance). With the whole margin and balance demanded
    (before), 368 right picks were named; with this rule 623."""
    return max(min(classifier / CLASSIFIER_SHARE, check),
               min(classifier / SURE_CLASSIFIER, check / SURE_CHECK))


def _balance(regions: list[Region]) -> tuple[float, float]:
    """How far towards the first twin, from halfway to the second (0) to the first itself
    (0.5), a card lies on its regions weighed by size, and in the one where it lies least."""
    totals, weights = np.zeros(3), 0.0
    for weight, *scores in regions:
        weights += weight
        totals += weight * np.array(scores)
    mine, theirs, alike = totals / max(weights, 1.0)
    worst = min(((mine_one - their_one) / max(2 * (1 - alike_one), 1e-3)
                 for _, mine_one, their_one, alike_one in regions), default=0.0)
    return float((mine - theirs) / max(2 * (1 - alike), 1e-3)), float(worst)


def _near(regions: list[Region], expected: list[float]) -> float:
    """How near the first twin alone, from as far from it as the second (0) to as near as a
    true copy (0.5), a card lies in the region where it lies least near it, given the
    correlation a true copy would reach in each (``NEAR_EVERY_REGION``)."""
    return float(min((0.5 - max(0.0, copy - mine_one) / max(2 * (1 - alike_one), 1e-3)
                      for (_, mine_one, _, alike_one), copy in zip(regions, expected,
                                                                   strict=True)),
                     default=0.0))


def _expected(window: Floats, mine: Floats, inner: tuple[slice, slice]) -> float:
    """The correlation with a twin's band-pass map ``mine`` that a true copy of it would reach
    in region ``inner`` of ``window`` (the card aligned on the region's surroundings), from
    what the card shows round the region, where the twins are alike: the card's contrast
    there (fitted on the twin's) times the twin's signal in the region, against the noise
    left round it by that fit (blur, noise and JPEG alike)."""
    outside = np.ones(mine.shape, bool)
    outside[inner] = False
    around = mine[outside].astype(np.float64)
    seen = window[outside].astype(np.float64)
    centred = around - around.mean()
    gain = float(centred @ (seen - seen.mean()) / max(float(centred @ centred), 1e-9))
    noise = float(np.var(seen - seen.mean() - gain * centred))
    signal = gain * gain * float(np.var(mine[inner].astype(np.float64)))
    return float(np.sqrt(signal / max(signal + noise, 1e-9)))


def _merged(boxes: list[PixelBox]) -> list[PixelBox]:
    """``boxes`` with any two that lie within ``CONTEXT_PX`` of each other made one (their
    bounding box, in the place of the first box to grow), until none do. A region is aligned
    on what surrounds it, which must be what the twins share: where that holds part of another
    region (the letters of one word, split where the two words happen to agree), the card's
    strokes can slide onto the other twin's.
    A plain 'nut' read against 'mint' (tuning table 304, medium, 1920 x 1080) split into 'n'
    and 'ut'/'nt'; aligned alone, the card's 'ut' slid onto 'mint''s 'nt' and leaned to it.
    An artwork's two corner badges lie far apart and stay two regions."""
    merged = list(boxes)
    first = 0
    while first < len(merged):
        other = next((index for index, box in enumerate(merged)
                      if index != first and _within_context(merged[first], box)), None)
        if other is None:
            first += 1
            continue
        one, two = merged[first], merged.pop(other)
        first -= other < first
        merged[first] = (min(one[0], two[0]), min(one[1], two[1]),
                         max(one[2], two[2]), max(one[3], two[3]))
    return merged


def _within_context(one: PixelBox, other: PixelBox) -> bool:
    """Whether two boxes lie within ``CONTEXT_PX`` of each other (one's context reaches the
    other)."""
    return (one[0] - CONTEXT_PX < other[2] and other[0] - CONTEXT_PX < one[2]
            and one[1] - CONTEXT_PX < other[3] and other[1] - CONTEXT_PX < one[3])


class Clear(NamedTuple):
    """How far past what it demands a card lies towards a named twin from another (1 is just
    enough, below 1 not enough)."""

    weighed: float
    """On all the regions where the two differ, weighed by size (``MIN_BALANCE``)."""
    worst: float
    """In the region where it lies least towards it (``EVERY_REGION``: a deck enrolled in
    part)."""
    near: float
    """How near the named twin alone, against what a true copy would reach, it lies in the
    region where it lies least near it (``NEAR_EVERY_REGION``: a deck enrolled in part; not
    read, infinite, in a deck enrolled whole)."""
    blur: float
    """The camera's blur measured on the card (of ``CAMERA_BLURS``, camera pixels)."""


class _Pair(NamedTuple):
    """Two twins round a region where they differ, blurred alike."""

    both: Floats
    """The two twins' band-pass maps round the region (what aligns the card), each
    standardised, added: a card's normalised correlation with it, times ``reach``, is the sum
    of its correlations with each (one slide of the card instead of two)..."""
    reach: float
    """...``both``'s length."""
    inner: tuple[slice, slice]
    """The region within them."""
    mine: Floats
    """The first twin in the region, standardised (zero mean, unit length)..."""
    yours: Floats
    """...the second's..."""
    alike: float
    """...and their correlation."""


class _Card(NamedTuple):
    """What reading one card against each of its twins shares (``PairCheck.each``)."""

    observed: dict[PixelBox, Floats]
    """Its band-pass picture round each region (by the region's box)..."""
    looks: dict[tuple[PixelBox, int, int], Floats]
    """...and the region, standardised, at each shift it was read at."""


Kept = TypeVar("Kept")


class _Kept(Generic[Kept]):
    """What was made for one card, kept for the next, the least lately used let go beyond
    ``KEPT_READS``: the blur follows each card's resolution, so the keys never stop coming
    (kept without a bound, the blurred maps and the pairs held 600 MB after 18 Trains-look
    tables at 1920 x 1080); a table needs about 2,400 of each."""

    def __init__(self) -> None:
        self._kept: OrderedDict[Hashable, Kept] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], Kept]) -> Kept:
        """The value kept under ``key``, made now if there is none."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        made = self._kept[key] = make()
        if len(self._kept) > KEPT_READS:
            self._kept.popitem(last=False)
        return made


class PairCheck:
    """Where a card lies between two near twins, judged on their references alone."""

    def __init__(self, card_mm: tuple[float, float], grey: list[Floats], sharp: list[Floats],
                 ref_px_per_mm: float, in_part: bool = False) -> None:
        """``grey``: the references' grey faces at ``ref_px_per_mm``; ``sharp``: their
        band-pass maps; ``in_part``: a deck enrolled in part, whose cards must also lie near
        the named twin (``Clear.near``, not read otherwise)."""
        self.card_mm = card_mm
        self.in_part = in_part
        self._grey = grey
        self._sharp = sharp
        self._px_per_mm = ref_px_per_mm
        self._regions: dict[tuple[int, int, bool], list[PixelBox]] = {}
        self._difference_cache: dict[tuple[int, int, bool, float, float, float | None],
                                     float] = {}
        self._blur_maps: _Kept[Floats] = _Kept()
        self._pair_maps: _Kept[_Pair] = _Kept()

    def each(self, frame: Image, corners: Points, mine: int, twins: list[tuple[int, bool]]
             ) -> Iterator[Clear]:
        """How far past what naming demands the card at ``corners`` (reference ``mine``'s way
        round) lies towards ``mine`` from each of its ``twins`` (reference, turned), on all
        the regions where they differ weighed by size and in the worst of them (``Clear``);
        twin by twin, each read only when asked for (a caller that has seen enough stops)."""
        scale = resolution(self.card_mm, corners)
        # Twins that differ from ``mine`` in the same place (a corner's number) share the
        # card's picture there and where it was read.
        card = _Card({}, {})
        for theirs, flip in twins:
            yield self._clear(frame, corners, mine, theirs, flip, scale, card)

    def _clear(self, frame: Image, corners: Points, mine: int, theirs: int, flip: bool,
               scale: Scale, card: _Card) -> Clear:
        """``clear`` of one twin, ``card``'s shared reads kept for the next."""
        tellable = self._tellable(mine, theirs, flip, scale)
        if not tellable and scale[1] <= scale[0]:
            # At this card's resolution the two differ by less than noise (seen no finer
            # down it than across, nor would they as the camera sees it).
            return Clear(0.0, 0.0, 0.0, 0.0)
        blur, regions, sharp, expected = self._regions_read(frame, corners, mine, theirs,
                                                            flip, scale, card)
        seen = self._seen_difference(mine, theirs, flip, scale, blur)
        if not tellable and seen < TELL_APART_GREY:
            return Clear(0.0, 0.0, 0.0, 0.0)
        weighed, worst = _balance(regions)
        near = _near(regions, expected) if self.in_part else np.inf
        # The blur that fits best can blur the twins until they are all but one, where noise
        # seems a balance: a card that leans to the other twin on the sharpest references,
        # which keep the most of where they differ, is not cleared whatever the blur says.
        leaning, _ = _balance(sharp)
        if leaning < 0:
            weighed, worst = min(weighed, leaning), min(worst, leaning)
        # The balance is set against how much the twins differ as seen, so noise moves it
        # as much more as they differ less: judged at the px/mm across alone through a 3 x 3
        # blur, a full-bleed 33 seen at 1.01 x 0.76 px/mm through 1.7 px of blur was
        # "tellable" from its 35 (39 grey levels; 10 as the camera saw it), and a quarter
        # of a pixel's move of its outline swung the check between -5 and +1.8 balances
        # (fresh deck 401, scene 9005, hard, 1280 x 720: named 35 at 1.07).
        needs = (MIN_BALANCE if scale[0] >= LOW_RESOLUTION else MIN_BALANCE_LOW) * max(
            1.0, TELL_APART_GREY / max(seen, 1e-3))
        near_needs = NEAR_EVERY_REGION if scale[0] >= LOW_RESOLUTION else NEAR_EVERY_REGION_LOW
        return Clear(weighed / needs, worst / EVERY_REGION, near / near_needs, blur)

    def _regions_read(self, frame: Image, corners: Points, mine: int, theirs: int, flip: bool,
                      scale: Scale, card: _Card
                      ) -> tuple[float, list[Region], list[Region], list[float]]:
        """The camera's blur (pixels), and read with the references blurred by it and by the
        sharpest of ``CAMERA_BLURS``: for each region where twins ``mine`` and
        ``theirs`` differ: its size, the card's correlation with each and theirs with each
        other; and under the camera's blur the correlation with ``mine`` a true copy of it
        would reach in each region (``_expected``). Each region is aligned once for both
        references, on its surroundings (what the twins share), so neither can slide its
        strokes onto the card's. The references are blurred as the camera blurs at ``scale``
        pixels per millimetre along the card's width and height (a tilted table sees one side
        coarser): by the one of ``CAMERA_BLURS`` under which both fit the card best, on the
        regions and what surrounds them."""
        to_picture = card_to_image(self.card_mm, corners)
        slack = 4
        seen = []
        for box in self._region(mine, theirs, flip):
            grown = self.grown(mine, box)
            if box not in card.observed:
                box_mm = (grown[0] / self._px_per_mm, grown[1] / self._px_per_mm,
                          grown[2] / self._px_per_mm, grown[3] / self._px_per_mm)
                card.observed[box] = _band_pass(
                    sample_box(frame, to_picture, box_mm, slack + 4))[4:-4, 4:-4]
            seen.append((box, grown, card.observed[box]))
        best: tuple[float, float, list[Region], list[tuple[PixelBox, int, int, _Pair]]] = (
            -np.inf, 0.0, [], [])
        sharp: list[Region] = []
        for camera in CAMERA_BLURS:
            blur = self._reference_blur(camera, scale)
            fits, regions, windows = 0.0, [], []
            for box, grown, observed in seen:
                pair = self._pair(mine, theirs, flip, box, grown, blur)
                fit = cv2.matchTemplate(observed, pair.both, cv2.TM_CCOEFF_NORMED)
                _, most, _, (dx, dy) = cv2.minMaxLoc(fit)
                # The best shift is mostly the same under every blur and for every twin.
                if (box, dx, dy) not in card.looks:
                    window = observed[dy:dy + pair.both.shape[0], dx:dx + pair.both.shape[1]]
                    card.looks[box, dx, dy] = _standard(window[pair.inner].ravel())
                look = card.looks[box, dx, dy]
                windows.append((grown, dx, dy, pair))
                fits += float(most) * pair.reach * pair.mine.size
                regions.append((float(pair.mine.size), float(look @ pair.mine),
                                float(look @ pair.yours), pair.alike))
            sharp = sharp or regions
            if fits > best[0]:
                best = (fits, camera, regions, windows)
        expected = []
        if self.in_part:  # only a deck enrolled in part asks how near (``Clear.near``)
            blur = self._reference_blur(best[1], scale)
            for (grown, dx, dy, pair), (_, _, observed) in zip(best[3], seen, strict=True):
                ours = self._blurred(mine, False, grown, blur)
                window = observed[dy:dy + ours.shape[0], dx:dx + ours.shape[1]]
                expected.append(_expected(window, ours, pair.inner))
        return best[1], best[2], sharp, expected

    def grown(self, mine: int, box: PixelBox) -> PixelBox:
        """Region ``box`` of reference ``mine`` with ``CONTEXT_PX`` round it, within the
        reference."""
        height, width = self._grey[mine].shape
        x0, y0, x1, y1 = box
        return (max(0, x0 - CONTEXT_PX), max(0, y0 - CONTEXT_PX),
                min(width, x1 + CONTEXT_PX), min(height, y1 + CONTEXT_PX))

    def _pair(self, mine: int, theirs: int, flip: bool, box: PixelBox, grown: PixelBox,
              blur: Blur) -> _Pair:
        """Twins ``mine`` and ``theirs`` (turned if ``flip``) in ``grown`` round region
        ``box``, as a camera blurring by ``blur`` reference pixels sees them (kept for the
        next card: it depends on the references alone)."""
        return self._pair_maps.get((mine, theirs, flip, box, blur),
                                   lambda: self._pair_made(mine, theirs, flip, box, grown, blur))

    def _pair_made(self, mine: int, theirs: int, flip: bool, box: PixelBox, grown: PixelBox,
                   blur: Blur) -> _Pair:
        """``_pair``, made."""
        x0, y0, x1, y1 = box
        inner = (slice(y0 - grown[1], y1 - grown[1]), slice(x0 - grown[0], x1 - grown[0]))
        ours_map = self._blurred(mine, False, grown, blur)
        theirs_map = self._blurred(theirs, flip, grown, blur)
        both = (_standard(ours_map.ravel()) + _standard(theirs_map.ravel())).reshape(
            ours_map.shape)
        ours = _standard(ours_map[inner].ravel())
        yours = _standard(theirs_map[inner].ravel())
        return _Pair(both, float(np.linalg.norm(both)), inner, ours, yours, float(ours @ yours))

    def _reference_blur(self, camera: float, scale: Scale) -> Blur:
        """A blur of ``camera`` pixels of a camera seeing the card at ``scale`` px/mm (along
        its width and height), in reference pixels along each (to a quarter, at least half a
        pixel: kept for the next card)."""
        across, down = (round(max(0.5, camera * self._px_per_mm / max(value, 0.1)) * 4) / 4
                        for value in scale)
        return across, down

    def _region(self, mine: int, theirs: int, flip: bool) -> list[PixelBox]:
        """Where twins ``mine`` and ``theirs`` (turned if ``flip``) differ: boxes in reference
        pixels, one per patch of difference (such as each corner's index). In a deck enrolled
        whole, patches lying within ``CONTEXT_PX`` of each other are one region (``_merged``).
        A deck enrolled in part reads each alone: a card left out differs from the named twin
        in one patch of their difference (a Trains-look 48 from its 40 in the 8's waist), and
        merged with the patches where it agrees, that region no longer leans away
        (``EVERY_REGION``: 48 and 78 were named 40 and 70 beside their twins, easy table)."""
        key = (mine, theirs, flip)
        if key not in self._regions:
            ours, yours = self._sharp[mine], self._sharp[theirs]
            if flip:
                yours = yours[::-1, ::-1]
            difference = cv2.GaussianBlur(np.abs(ours - yours), (0, 0), 2.0)
            marked = difference >= REGION_SHARE * float(difference.max())
            parts, _, boxes, _ = cv2.connectedComponentsWithStats(marked.astype(np.uint8))
            grow = round(self._px_per_mm)
            height, width = difference.shape
            largest = max(int(boxes[k, 4]) for k in range(1, parts))
            patches = [(max(0, x - grow), max(0, y - grow), min(width, x + w + grow),
                        min(height, y + h + grow))
                       for x, y, w, h, area in (boxes[k] for k in range(1, parts))
                       if area >= 0.1 * largest]
            self._regions[key] = patches if self.in_part else _merged(patches)
        return self._regions[key]

    def _tellable(self, first: int, second: int, flip: bool, scale: Scale) -> bool:
        """Whether two references differ somewhere by ``TELL_APART_GREY`` seen at the card's
        px/mm across (``scale``'s first, rounded down to a tenth) along both its sides. Judged
        at each side's own px/mm, a plain deck's 6 seen at 0.79 px/mm across and 1.23 down
        (tuning table 309, hard, 1080p) was told from its 4 and named 4; judged at the coarser
        side along both, right twins went unnamed (artwork easy, tuning deck at 1080p, 17
        scenes: 90.9 % correct fell to 84.1 %)."""
        across = _tenth(scale[0])
        return self._difference(first, second, flip, (across, across), None) >= TELL_APART_GREY

    def _seen_difference(self, first: int, second: int, flip: bool, scale: Scale,
                         camera: float) -> float:
        """By how many grey levels two references differ where they differ most as the
        camera sees the card: at its px/mm along each side (``scale``, rounded down to a
        tenth) and through ``camera`` pixels of blur (measured on the card), or
        ``difference``'s own where that is no more than ``LEAST_BLUR``."""
        return self._difference(first, second, flip, (_tenth(scale[0]), _tenth(scale[1])),
                                camera if camera > LEAST_BLUR else None)

    def _difference(self, first: int, second: int, flip: bool, px_per_mm: Scale,
                    blur: float | None) -> float:
        """``difference`` of two references shrunk to ``px_per_mm`` along the card's width
        and height, through ``blur`` (kept for the next pair)."""
        key = (first, second, flip, *px_per_mm, blur)
        if key not in self._difference_cache:
            size = (round(self.card_mm[0] * px_per_mm[0]), round(self.card_mm[1] * px_per_mm[1]))
            self._difference_cache[key] = difference(self._grey[first], self._grey[second],
                                                     flip, size, blur)
        return self._difference_cache[key]

    def _blurred(self, reference: int, flip: bool, box: PixelBox, blur: Blur) -> Floats:
        """A reference's band-pass map in ``box`` (of the reference turned, if ``flip``), as
        a camera blurring by ``blur`` reference pixels sees it (kept for the next card)."""
        return self._blur_maps.get((reference, flip, box, blur),
                                   lambda: self._blur_made(reference, flip, box, blur))

    def _blur_made(self, reference: int, flip: bool, box: PixelBox, blur: Blur) -> Floats:
        """``_blurred``, made."""
        grey = self._grey[reference][::-1, ::-1] if flip else self._grey[reference]
        x0, y0, x1, y1 = box
        height, width = grey.shape
        margin = 8
        low_x, low_y = max(0, x0 - margin), max(0, y0 - margin)
        cut = np.ascontiguousarray(grey[low_y:min(height, y1 + margin),
                                        low_x:min(width, x1 + margin)])
        mapped = _band_pass(np.asarray(cv2.GaussianBlur(cut, (0, 0), blur[0], sigmaY=blur[1]),
                                       np.float32))
        return mapped[y0 - low_y:y1 - low_y, x0 - low_x:x1 - low_x].copy()
