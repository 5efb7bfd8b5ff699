"""The outline search's faster steps against plain reference versions of them, on seeded
tables of every deck style, and naming's shortcut: what the search finds and what naming says
must not depend on how fast they are."""

from collections.abc import Iterator

import cv2
import numpy as np
import numpy.typing as npt
import pytest

import vision.recognize
import vision.twin_check
from vision.deck_scene import render_spread
from vision.imaging import Image
from vision.markers import TableFinder
from vision.outline import (
    ALONG,
    ANGLE_SLACK_MM,
    EDGE_STRENGTH,
    FAINT_STRENGTH,
    FIT_CAP,
    TOPDOWN_PX_PER_MM,
    Floats,
    OutlineFinder,
    _colour_gradient,
    _Edges,
    _Gradient,
)
from vision.styles import STYLES, styled_deck

TABLES = [(style, level, 4100 + index) for index, (style, level) in enumerate(
    (style, level) for style in STYLES for level in ("easy", "medium", "hard"))]


def _reference_gradient(view: Image) -> tuple[Floats, Floats]:
    """Each pixel's gradient of its strongest channel, picked by argmax."""
    smooth = cv2.GaussianBlur(view, (3, 3), 0)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    channel = np.argmax(gx * gx + gy * gy, axis=2)[..., None]
    return (np.take_along_axis(gx, channel, axis=2)[..., 0],
            np.take_along_axis(gy, channel, axis=2)[..., 0])


def _reference_angle(finder: OutlineFinder, peak: tuple[int, int], gx: Floats, gy: Floats,
                     magnitude: Floats, angles: Floats) -> float | None:
    """One peak's main edge direction, from its own square of the view (``magnitude`` and
    ``angles``, modulo 90 degrees, of the gradient ``gx``, ``gy``)."""
    scale = TOPDOWN_PX_PER_MM
    reach = int(0.5 * float(np.hypot(*finder.card_mm)) * scale) + 2
    x, y = peak
    top, left = max(0, y - reach), max(0, x - reach)
    window = (slice(top, y + reach + 1), slice(left, x + reach + 1))
    ys, xs = np.nonzero(magnitude[window] > EDGE_STRENGTH)
    if not len(xs):
        return None
    strength = magnitude[window][ys, xs]
    nx, ny = gx[window][ys, xs] / strength, gy[window][ys, xs] / strength
    dx, dy = xs + (left - x), ys + (top - y)
    along, across = np.abs(dx * nx + dy * ny), np.abs(dx * ny - dy * nx)
    half_width, half_height = (size / 2 * scale for size in finder.card_mm)
    slack = ANGLE_SLACK_MM * scale
    side = (((np.abs(along - half_width) < slack) & (across < half_height))
            | ((np.abs(along - half_height) < slack) & (across < half_width)))
    if side.any():
        ys, xs, strength = ys[side], xs[side], strength[side]
    histogram = np.bincount(angles[window][ys, xs].astype(np.int64) % 90, weights=strength,
                            minlength=90)
    smooth = np.convolve(np.concatenate([histogram[-2:], histogram, histogram[:2]]),
                         np.ones(5), "valid")
    return float(np.argmax(smooth)) + 0.5


def _reference_fit(finder: OutlineFinder, gradient: _Gradient,
                   centres: npt.NDArray[np.float64], turns: npt.NDArray[np.float64], every: int = 1,
                   strength: float = FAINT_STRENGTH) -> tuple[Floats, Floats]:
    """Each pose's fit and support (on edges of ``strength``) on every ``every``-th rim
    sample, turning every rim normal by its own rotation."""
    scale = TOPDOWN_PX_PER_MM
    radians = np.radians(turns).astype(np.float32)
    c, s = np.cos(radians)[:, None], np.sin(radians)[:, None]
    points = finder.rim.points[::every].astype(np.float32)
    normals = finder.rim.normals[::every].astype(np.float32)
    px, py = points[:, 0] * scale, points[:, 1] * scale
    xs = centres[:, 0:1].astype(np.float32) + c * px - s * py
    ys = centres[:, 1:2].astype(np.float32) + s * px + c * py
    nx = c * normals[:, 0] - s * normals[:, 1]
    ny = s * normals[:, 0] + c * normals[:, 1]
    sampled = cv2.remap(gradient.xy, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    sx, sy = sampled[..., 0], sampled[..., 1]
    along = np.abs(sx * nx + sy * ny)
    aligned = along > ALONG * np.hypot(sx, sy)
    # Summed sample by sample as the fast path sums them (a row per rim sample), so the fit
    # is compared to the last bit: the test is of where the samples lie and how they turn.
    fit = np.ascontiguousarray((np.minimum(along, FIT_CAP) * aligned).T).mean(axis=0)
    return fit, (aligned & (along > strength)).mean(axis=1)


@pytest.mark.parametrize(("style", "level", "seed"), TABLES)
def test_the_fast_steps_give_what_the_plain_ones_do(style: str, level: str, seed: int) -> None:
    deck = styled_deck(style, 1)
    image, _ = render_spread(deck, seed, level)
    table = TableFinder()
    table.update(image)
    assert table.homography is not None, (style, level, seed)
    finder = OutlineFinder(deck.card_mm)
    view = finder.view(image, table.homography)
    gx, gy = _colour_gradient(view)
    expected_gx, expected_gy = _reference_gradient(view)
    assert np.array_equal(gx, expected_gx) and np.array_equal(gy, expected_gy), seed
    edges = _Edges.of(gx, gy)
    peaks, _ = finder._peaks(edges)
    assert len(peaks) > 20, seed  # a table of cards: the angles below are many, not a few
    magnitude = cv2.magnitude(gx, gy)
    angles = np.degrees(np.arctan2(gy, gx)) % 90.0
    assert finder._angles(peaks, edges) == [
        _reference_angle(finder, peak, gx, gy, magnitude, angles) for peak in peaks], (
        style, level, seed)
    # Poses round the peaks, turned every way, including whole quarter turns.
    rng = np.random.default_rng(seed)
    centres = np.array(peaks, np.float64).repeat(4, axis=0) + rng.normal(0, 3, (4 * len(peaks), 2))
    turns = np.concatenate([rng.uniform(0, 360, 3 * len(peaks)), np.arange(len(peaks)) * 90.0])
    gradient = _Gradient(np.asarray(cv2.merge([gx, gy]), np.float32))
    fit, support, _ = finder._score(gradient, centres, turns, by_side=False)
    expected_fit, expected_support = _reference_fit(finder, gradient, centres, turns)
    assert np.array_equal(fit, expected_fit), (style, level, seed)
    assert np.array_equal(support, expected_support), (style, level, seed)
    # The rim's samples are kept per subsampling: a sparser one must not reuse the full rim.
    fit, support, _ = finder._score(gradient, centres, turns, 3, by_side=False)
    expected_fit, expected_support = _reference_fit(finder, gradient, centres, turns, 3)
    assert np.array_equal(fit, expected_fit), (style, level, seed)
    assert np.array_equal(support, expected_support), (style, level, seed)
    # Support on sure edges, as the search judges which outlines are faint.
    _, support, _ = finder._score(gradient, centres, turns, by_side=False,
                                  strength=EDGE_STRENGTH)
    _, expected_support = _reference_fit(finder, gradient, centres, turns,
                                         strength=EDGE_STRENGTH)
    assert np.array_equal(support, expected_support), (style, level, seed)


@pytest.mark.parametrize("verdict", [0.0, -0.4])
def test_an_unsure_twin_skips_the_pair_check(verdict: float,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Naming skips the pair check once the classifier's verdict is at or below 0. That is
    right only while agreeing with the check never lifts such a verdict above 0: the card must
    read the same (unnamed, confidence 0) whatever the check would answer."""
    for check in (-3.0, 0.0, 0.5, 5.0, np.inf):
        assert vision.twin_check.agreed(verdict, check) <= 0, (verdict, check)
    deck = styled_deck("artwork", 1)
    references = vision.recognize.CardReferences(deck.deck.name, deck.card_mm, deck.scans(),
                                                   complete=True)
    image, truth = render_spread(deck, 4101, "easy")
    which_twin = vision.recognize.CardReferences._which_twin

    def twin_with_verdict(*args: object) -> tuple[int, float]:
        member, _ = which_twin(*args)  # type: ignore[arg-type]
        return member, verdict

    monkeypatch.setattr(vision.recognize.CardReferences, "_which_twin", twin_with_verdict)
    readings = []
    for answer in (5.0, -3.0):
        def each(_: vision.twin_check.PairCheck, frame: object, corners: object, mine: int,
                 twins: list[tuple[int, bool]], a: float = answer
                 ) -> Iterator[vision.twin_check.Clear]:
            return iter([vision.twin_check.Clear(a, a, a, 0.0) for _ in twins])

        monkeypatch.setattr(vision.twin_check.PairCheck, "each", each)
        readings.append([references.read(image, card.corners) for card in truth.cards
                         if not card.occluded])
    # The artwork deck's cards are all near twins: many unnamed at the verdict, none named.
    assert sum(reading.name is None for reading in readings[0]) > 5, verdict
    for first, second in zip(*readings, strict=True):
        assert (first.name, first.confidence, first.turned, first.score) == (
            second.name, second.confidence, second.turned, second.score), verdict
        assert np.array_equal(first.corners, second.corners), verdict
        assert first.name is None and first.confidence == 0.0, verdict
