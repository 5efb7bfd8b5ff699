"""Rendered videos of hands, arms and shadows moving over a table, to test stillness with.

``passing_hands(seed, level)`` is a seeded clip: a Game of Trains table stands still, then one
or two arms reach in from the players' sides along smooth paths, stop over the table for a
moment (trembling a little or not at all), wander, and leave; a shadow may sweep across the
table, stopping too. In half of the clips a hand changes the table while it is over it (a card
of a line swapped for a fresh one, which goes face up), as in play; in the other half the table
is the same after the hands are gone. Frames carry what lies on the table (``shown``) and
whether anything passes over it, so whoever watches the clip can tell a true event from a false
one.

The table is photographed once per layout by ``vision.scene`` (camera, cloth, light, cards); the
hands and shadows are drawn over that exposure here, each frame, then the sensor's noise and
the webcam's JPEG.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from host.trains.observation import TrainsObservation
from vision import scene
from vision.imaging import Image, Points, frame_px, transform_points
from vision.scene import (
    Look,
    Tabletop,
    camera_homography,
    difficulty,
    lay_table,
    photograph,
    random_trains_table,
    trains_layout,
)
from vision.table import TABLE_HEIGHT_MM, TABLE_WIDTH_MM

FPS = 30.0
"""Frame rate of the clips (a webcam's)."""


@dataclass(frozen=True)
class Pass:
    """One thing moving over the table: an arm with its hand, or a cast shadow."""

    path: Points
    """Where it is (its tip, image pixels) in each frame it is in view."""
    first: int
    """The frame it enters at."""
    arm: bool
    """An arm and hand (True) or a shadow (False)."""
    origin: Points
    """Where the arm comes from (off the frame), or the shadow's shape: its half axes."""
    tremble: float
    """Pixels the hand shakes by while it stops (0: perfectly still)."""

    def at(self, frame: int) -> Points | None:
        """Its tip in ``frame``, or None when it is not in view."""
        step = frame - self.first
        return self.path[step] if 0 <= step < len(self.path) else None


@dataclass(frozen=True)
class ClipFrame:
    """One frame of a clip."""

    timestamp: float
    """Seconds since the first frame."""
    image: Image
    """The BGR picture."""
    shown: TrainsObservation
    """The table under whatever passes over it."""
    passing: bool
    """An arm or a shadow shows in the frame."""


@dataclass(frozen=True)
class Clip:
    """A seeded video of things passing over one table, which may change under a hand."""

    seed: int
    before: TrainsObservation
    """The table at the start."""
    after: TrainsObservation
    """The table at the end (``before`` when no hand changed it)."""
    passes: tuple[Pass, ...]
    """Everything passing over the table."""
    change_at: int
    """The frame from which the table shows ``after``."""
    frames: int
    """Length of the clip."""
    look: Look
    """Camera, light and flaws."""

    @property
    def changes(self) -> bool:
        """A hand changes the table during the clip."""
        return self.after != self.before

    def __iter__(self) -> Iterator[ClipFrame]:
        tables = {False: _laid(self.before, self.seed, self.look),
                  True: _laid(self.after, self.seed, self.look)}
        rng = np.random.default_rng([self.seed, 41])
        for index in range(self.frames):
            changed = index >= self.change_at
            table = tables[changed]
            if "bare" not in table.still:
                photograph(table, 0, hands=0)  # works out the bare exposure, once per table
            exposure, quality = table.still["bare"]
            over = [(item, tip) for item in self.passes if (tip := item.at(index)) is not None]
            exposed, passing = _pass_over(exposure, self.look, over)
            image = _sensor(exposed, quality, self.look, rng)
            yield ClipFrame(index / FPS, image, self.after if changed else self.before, passing)


def _laid(observation: TrainsObservation, seed: int, look: Look) -> Tabletop:
    return lay_table(trains_layout(observation, seed, look.level.jitter_degrees), look)


def swapped(observation: TrainsObservation, rng: np.random.Generator) -> TrainsObservation:
    """The table after a player swapped one railcar for a fresh card (the old one face up)."""
    seat = int(rng.integers(len(observation.lines)))
    slot = int(rng.integers(7))
    used = {n for line in observation.lines for n in line} | set(observation.faceup)
    fresh = int(rng.choice([n for n in range(1, 85) if n not in used]))
    lines = [list(line) for line in observation.lines]
    old, lines[seat][slot] = lines[seat][slot], fresh
    faceup = (*observation.faceup, old) if len(observation.faceup) < 6 else observation.faceup
    return TrainsObservation(tuple(tuple(line) for line in lines), faceup, observation.locks)


def passing_hands(seed: int, level: str = "medium", change: bool | None = None) -> Clip:
    """A seeded clip of arms (and maybe a shadow) passing over a table; ``change`` forces
    whether a hand changes the table (default: every other seed)."""
    rng = np.random.default_rng([seed, 43])
    look = Look.draw(seed, difficulty(level))
    before = random_trains_table(seed, players=int(rng.integers(2, 5)))
    changes = bool(seed % 2) if change is None else change
    after = swapped(before, rng) if changes else before
    table_to_image = camera_homography(look)
    settle = int(rng.integers(18, 30))  # the table stands still first
    passes = []
    arms = 1 + int(rng.random() < 0.4)
    start = settle
    for _ in range(arms):
        item = _arm(rng, table_to_image, start)
        passes.append(item)
        start = item.first + int(rng.integers(3, 12))
    if rng.random() < 0.6:
        passes.append(_shadow(rng, table_to_image, settle + int(rng.integers(0, 20))))
    first = passes[0]
    # The table changes in the middle of the first arm's stop.
    change_at = first.first + len(first.path) // 2
    end = max(item.first + len(item.path) for item in passes)
    return Clip(seed, before, after, tuple(passes), change_at, end + int(rng.integers(15, 25)),
                look)


def _table_point(rng: np.random.Generator, table_to_image: Points) -> Points:
    point = np.array([[rng.uniform(40, TABLE_WIDTH_MM - 40),
                       rng.uniform(40, TABLE_HEIGHT_MM - 40)]])
    return np.asarray(transform_points(table_to_image, point)[0], np.float64)


def _glide(start: Points, end: Points, frames: int) -> Points:
    """Points from ``start`` to ``end`` over ``frames`` frames, speeding up then slowing down."""
    t = (1 - np.cos(np.linspace(0, math.pi, max(2, frames)))) / 2
    return np.asarray(start + (end - start) * t[:, None], np.float64)


def _stop(rng: np.random.Generator, at: Points, frames: int, tremble: float) -> Points:
    shake = rng.normal(0, tremble, (frames, 2)) if tremble > 0 else np.zeros((frames, 2))
    return np.asarray(at + shake, np.float64)


def _finer() -> float:
    """How many times finer than 1280 x 720 the camera is (``vision.scene.FRAME_SIZE``): sizes
    and distances in pixels below were drawn for 1280 x 720 and grow with the frame."""
    return frame_px(1.0, scene.FRAME_SIZE[0])


def _arm(rng: np.random.Generator, table_to_image: Points, first: int) -> Pass:
    """An arm from a player's side: in, a stop, perhaps a wander and a second stop, out."""
    width, height = scene.FRAME_SIZE
    off = 150 * _finer()
    origin = [np.array([rng.uniform(0.2, 0.8) * width, height + off]),
              np.array([-off, rng.uniform(0.2, 0.8) * height]),
              np.array([width + off, rng.uniform(0.2, 0.8) * height])][int(rng.integers(3))]
    tremble = float(rng.choice([0.0, 0.5, 1.5])) * _finer()
    outside = origin + (_table_point(rng, table_to_image) - origin) * 0.15
    target = _table_point(rng, table_to_image)
    pieces = [_glide(outside, target, int(rng.integers(8, 30))),
              _stop(rng, target, int(rng.integers(4, 15)), tremble)]
    if rng.random() < 0.5:  # hovering on to another place
        other = _table_point(rng, table_to_image)
        pieces += [_glide(target, other, int(rng.integers(6, 20))),
                   _stop(rng, other, int(rng.integers(3, 12)), tremble)]
        target = other
    pieces.append(_glide(target, outside, int(rng.integers(8, 25))))
    return Pass(np.concatenate(pieces), first, True, origin, tremble)


def _shadow(rng: np.random.Generator, table_to_image: Points, first: int) -> Pass:
    """A soft shadow (someone leaning over, an arm out of view) sweeping across the table."""
    width, height = scene.FRAME_SIZE
    off = 250.0 * _finer()
    start = np.array([-off, rng.uniform(0, height)])
    end = np.array([width + off, rng.uniform(0, height)])
    if rng.random() < 0.5:
        start, end = end, start
    middle = _table_point(rng, table_to_image)
    axes = np.array([rng.uniform(120, 260), rng.uniform(80, 160)]) * _finer()
    path = np.concatenate([_glide(start, middle, int(rng.integers(15, 40))),
                           _stop(rng, middle, int(rng.integers(0, 12)), 0.0),
                           _glide(middle, end, int(rng.integers(15, 40)))])
    return Pass(path, first, False, axes, 0.0)


def _arm_mask(origin: Points, tip: Points, scale: float) -> Image:
    """A forearm tapering from ``origin`` to the wrist, an open hand and fingers at ``tip``."""
    width, height = scene.FRAME_SIZE
    mask = np.zeros((height, width), np.uint8)
    along = (tip - origin) / max(1.0, float(np.linalg.norm(tip - origin)))
    across = np.array([-along[1], along[0]])
    wrist = tip - along * 70 * scale
    forearm = np.array([origin + across * 55 * scale, wrist + across * 30 * scale,
                        wrist - across * 30 * scale, origin - across * 55 * scale])
    cv2.fillConvexPoly(mask, np.round(forearm).astype(np.int32), 255)
    palm = tip - along * 35 * scale
    cv2.ellipse(mask, (round(palm[0]), round(palm[1])), (round(45 * scale), round(38 * scale)),
                math.degrees(math.atan2(along[1], along[0])), 0, 360, 255, -1)
    for finger in (-1.5, -0.5, 0.5, 1.5):
        root = palm + along * 25 * scale + across * finger * 18 * scale
        end = tip + along * 25 * scale + across * finger * 22 * scale
        cv2.line(mask, (round(root[0]), round(root[1])), (round(end[0]), round(end[1])), 255,
                 round(15 * scale))
    return mask


def _pass_over(exposure: np.ndarray, look: Look, over: list[tuple[Pass, Points]]
               ) -> tuple[np.ndarray, bool]:
    """The bare table's exposure with the arms, their shadows and cast shadows over it, and
    whether any of them shows in the frame at all."""
    if not over:
        return exposure, False
    lit = exposure.copy()
    width, height = scene.FRAME_SIZE
    small = (width // 4, height // 4)
    finer = _finer()
    skin = np.array(np.random.default_rng([look.seed, 47]).uniform([60, 90, 150],
                                                                   [130, 160, 230]), np.float32)
    seen = False
    for item, tip in over:
        if item.arm:
            mask = _arm_mask(item.origin, tip, finer)
            seen = seen or bool(mask.any())
            soft = cv2.GaussianBlur(mask, (0, 0), 1.5 + look.blur).astype(np.float32) / 255
            # The arm's own shadow, down and to the right of it (the light is high); soft
            # shadows are worked out at a quarter of the size.
            cast = _soft(np.roll(mask, (round(22 * finer), round(16 * finer)), axis=(0, 1)),
                         small, 2.0 * finer)
            lit *= (1 - 0.35 * cast)[..., None]
            lit = lit * (1 - soft[..., None]) + skin * soft[..., None]
        else:
            mask = np.zeros((small[1], small[0]), np.uint8)
            cv2.ellipse(mask, (round(tip[0] / 4), round(tip[1] / 4)),
                        (round(item.origin[0] / 4), round(item.origin[1] / 4)), 20, 0, 360, 255,
                        -1)
            shade = _soft(mask, small, 6.0 * finer)
            seen = seen or float(shade.max()) > 0.02
            strength = 0.2 + 0.2 * float(np.random.default_rng([look.seed, 53]).random())
            lit *= (1 - strength * shade)[..., None]
    return lit, seen


def _soft(mask: Image, small: tuple[int, int], sigma: float) -> np.ndarray:
    """A mask (full or quarter size) blurred by ``sigma`` quarter-size pixels, at full size,
    0 to 1."""
    if mask.shape[1] != small[0]:
        mask = np.asarray(cv2.resize(mask, small, interpolation=cv2.INTER_AREA), np.uint8)
    blurred = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), sigma)
    return np.asarray(cv2.resize(blurred, scene.FRAME_SIZE, interpolation=cv2.INTER_LINEAR),
                      np.float32)


def _sensor(exposure: np.ndarray, quality: int, look: Look, rng: np.random.Generator) -> Image:
    noise = np.empty(exposure.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(2**31)))  # OpenCV's noise: many times faster than numpy's
    cv2.randn(noise, np.zeros(3), np.full(3, look.noise))
    picture = np.asarray(cv2.add(exposure, noise, dtype=cv2.CV_8U), np.uint8)  # saturating
    if quality >= 100:
        return picture
    ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8) if ok else picture


@dataclass(frozen=True)
class Watched:
    """What a watcher reported over a clip, judged against the clip's truth."""

    events: tuple[tuple[int, TrainsObservation], ...]
    """Each event: the frame it came at, and the observation reported."""
    false: int
    """Events naming a card that is not there (or missing one, or in the wrong place) while, or
    within a second after, something passed over the table."""
    misread: int
    """The same with nothing passing for a second: the recognizer misreading a still table."""
    unread: int
    """Events of the true table with some cards read as unknown (null)."""
    extra: int
    """Events beyond the first table and its one change (a table reported again after an
    unknown card, and every false event)."""
    missed: bool
    """A hand changed the table and the new table was never reported with every card named
    (perhaps with one unknown: see ``unread``)."""
    delay: float | None
    """Seconds from the last frame anything passed to the report of the change."""


def agrees(seen: TrainsObservation, truth: TrainsObservation) -> bool:
    """``seen`` is ``truth`` with perhaps some cards read as unknown."""
    if len(seen.lines) != len(truth.lines) or len(seen.faceup) != len(truth.faceup):
        return False
    pairs = [*zip(seen.faceup, truth.faceup, strict=True)] + [
        pair for mine, theirs in zip(seen.lines, truth.lines, strict=True)
        for pair in zip(mine, theirs, strict=True)]
    return seen.locks == truth.locks and all(a is None or a == b for a, b in pairs)


def judge(clip: Clip, report: Callable[[ClipFrame], TrainsObservation | None]) -> Watched:
    """Feed every frame of ``clip`` to ``report`` (a watcher's settled observation, if any) and
    judge what it reported."""
    events: list[tuple[int, TrainsObservation]] = []
    false = misread = unread = 0
    last_passing: int | None = None
    changed_at: int | None = None
    for index, frame in enumerate(clip):
        if frame.passing:
            last_passing = index
        event = report(frame)
        if event is None:
            continue
        events.append((index, event))
        if not agrees(event, frame.shown):
            near = last_passing is not None and index - last_passing <= FPS
            false, misread = (false + 1, misread) if near else (false, misread + 1)
        elif event != frame.shown:
            unread += 1
        elif clip.changes and event == clip.after and changed_at is None:
            changed_at = index
    left = last_passing if last_passing is not None else 0
    delay = None if changed_at is None else max(0, changed_at - left) / FPS
    extra = max(0, len(events) - (2 if clip.changes else 1))
    return Watched(tuple(events), false, misread, unread, extra,
                   clip.changes and changed_at is None, delay)
