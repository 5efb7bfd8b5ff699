"""Rendered table photographs: cards laid out as in play, seen by a webcam, with its flaws.

A scene is drawn top-down on a tablecloth (printed markers at the corners, shadows under the
cards), then seen through a pinhole camera 30-60 degrees from vertical and spoiled the way real
webcam pictures are: uneven light, glare, shadows, hands over the table, lens blur, sensor noise
and JPEG. Everything is drawn from a seed, so a scene is the same on every machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Protocol

import cv2
import numpy as np

from host.deck import load_deck
from host.trains.observation import TrainsObservation
from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM, TAB_MM, card_mask, render_back, render_face
from vision.imaging import Image, Matrix, Points, frame_px, transform_points
from vision.markers import marker_image
from vision.table import (
    DRAW_PILE_MM,
    MARKER_IDS,
    MARKER_SIZE_MM,
    SEAT_EDGES,
    TABLE_HEIGHT_MM,
    TABLE_WIDTH_MM,
    Placement,
    faceup_centre,
    outward,
    slot_centre,
)

FRAME_SIZE = (1280, 720)
"""Width and height of rendered camera frames."""
CANVAS_PX_PER_MM = 1.6
"""Resolution of the top-down drawing the camera view is made from (``camera_scale`` changes
it)."""
SET_ON_CANVAS_PX_PER_MM = CANVAS_PX_PER_MM
"""The drawing's resolution for a 1280 x 720 camera, on which its sizes in pixels were set."""
CLOTH_MARGIN_MM = 130.0
"""How far the tablecloth reaches beyond the markers."""
UNDER = "under"
"""Zone prefix of a card lying partly under another in a pile (ground truth: occluded)."""


@dataclass(frozen=True)
class Difficulty:
    """How hard a rendered photograph is to read: ranges the scene's flaws are drawn from."""

    name: str
    """``easy``, ``medium`` or ``hard``."""
    tilt: tuple[float, float]
    """Camera angle from vertical, degrees."""
    blur: tuple[float, float]
    """Gaussian lens blur sigma, pixels."""
    noise: tuple[float, float]
    """Sensor noise sigma, grey levels."""
    light: float
    """Strength of uneven light (0: flat, 0.5: the dim side gets half the light)."""
    glare: float
    """Chance of a glare spot, and its strength."""
    shadow: float
    """Chance of a cast shadow over the table."""
    hands: float
    """Chance of each of up to two hands reaching over the table."""
    busy_cloth: float
    """Chance of a busy (checked or flowered) tablecloth rather than plain cloth or wood."""
    jpeg: tuple[int, int]
    """JPEG quality range (100: no compression)."""
    jitter_degrees: float
    """How crooked cards in a line are laid."""


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty("easy", (30.0, 40.0), (0.4, 0.9), (1.0, 3.0), 0.2, 0.0, 0.0, 0.0, 0.2,
                       (95, 100), 2.0),
    "medium": Difficulty("medium", (35.0, 50.0), (0.7, 1.3), (3.0, 6.0), 0.35, 0.5, 0.4, 0.3,
                         0.5, (80, 95), 4.0),
    "hard": Difficulty("hard", (45.0, 60.0), (1.0, 1.8), (5.0, 9.0), 0.5, 0.8, 0.6, 0.6, 0.8,
                       (60, 85), 6.0),
}
"""The difficulty levels tests and benchmarks use."""


def difficulty(name: str) -> Difficulty:
    """The difficulty level called ``name``; ValueError for an unknown one."""
    try:
        return DIFFICULTIES[name]
    except KeyError:
        raise ValueError(f"unknown difficulty {name!r} (try {', '.join(DIFFICULTIES)})") from None


@dataclass(frozen=True)
class LaidCard:
    """A card on the table as the renderer lays it."""

    name: str
    """The card's public name, ``deck/card``; ``None`` for a card lying face down."""
    placement: Placement
    """Where it lies."""
    face_down: bool = False
    """A card of the draw pile, showing its back."""
    zone: str = ""
    """What it is in the game: ``line s i``, ``faceup i``, ``tab s i`` or ``pile``."""


@dataclass(frozen=True)
class SeenCard:
    """Ground truth of a face-up card in a rendered photograph."""

    name: str
    """The card's public name."""
    corners: Points
    """Its corners in image pixels: its own top-left, top-right, bottom-right, bottom-left."""
    occluded: bool
    """Partly hidden by a hand or out of the picture (a reader may miss it)."""
    zone: str
    """What it is in the game (see ``LaidCard.zone``)."""

    @property
    def centre(self) -> tuple[float, float]:
        """Centre in image pixels."""
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)


@dataclass(frozen=True)
class GroundTruth:
    """What a rendered photograph shows."""

    cards: tuple[SeenCard, ...]
    """Every face-up card with a full face (tucked lock tabs and the draw pile excluded)."""
    table_to_image: Matrix
    """Homography from table millimetres to image pixels."""
    observation: TrainsObservation | None
    """The observation the scene was drawn from, if it was a Game of Trains table."""
    hand_mask: Image = field(repr=False)
    """255 where a hand covers the picture."""


@dataclass(frozen=True)
class Look:
    """Everything random about a photograph except the cards: camera, light, cloth, flaws."""

    seed: int
    """Seed the look was drawn from."""
    level: Difficulty
    """The difficulty level it was drawn at."""
    tilt: float
    """Camera angle from vertical, degrees."""
    yaw: float
    """Camera turn about the vertical, degrees."""
    roll: float
    """Camera roll, degrees."""
    fill: float
    """Share of the frame the table spans."""
    blur: float
    """Lens blur sigma, pixels."""
    noise: float
    """Sensor noise sigma."""
    cloth: int
    """Which tablecloth pattern."""
    hands: int
    """How many hands reach over the table."""

    @staticmethod
    def draw(seed: int, level: Difficulty) -> Look:
        """A look drawn from ``seed`` within the ranges of ``level``."""
        rng = np.random.default_rng([seed, 7])
        busy = rng.random() < level.busy_cloth
        return Look(
            seed=seed, level=level,
            tilt=float(rng.uniform(*level.tilt)), yaw=float(rng.uniform(-6, 6)),
            roll=float(rng.uniform(-3, 3)), fill=float(rng.uniform(0.82, 0.95)),
            blur=float(rng.uniform(*level.blur)), noise=float(rng.uniform(*level.noise)),
            cloth=int(rng.integers(2, 5) if busy else rng.integers(0, 2)),
            hands=int(sum(rng.random() < level.hands for _ in range(2))),
        )


def camera_scale(factor: float) -> None:
    """Render as a webcam with ``factor`` times the pixels along each side (1920 x 1080 at 1.5)
    from now on: the frame and the drawing of the table (kept finer than the camera by as much)
    grow alike, so every card is seen at ``factor`` times the px/mm, and the glare, shadows,
    hands and cloth keep their size on the table. Blur, noise and JPEG stay what they are in
    the camera's own pixels: the same class of webcam, with a sensor of more pixels."""
    global FRAME_SIZE, CANVAS_PX_PER_MM
    FRAME_SIZE = (round(1280 * factor), round(720 * factor))
    CANVAS_PX_PER_MM = SET_ON_CANVAS_PX_PER_MM * factor


def _canvas_finer() -> float:
    """How many times finer than for a 1280 x 720 camera the drawing is (``camera_scale``)."""
    return CANVAS_PX_PER_MM / SET_ON_CANVAS_PX_PER_MM


@contextmanager
def scaled_camera(factor: float) -> Iterator[None]:
    """``camera_scale`` for the frames rendered within, then 1280 x 720 again."""
    camera_scale(factor)
    try:
        yield
    finally:
        camera_scale(1.0)


def camera_homography(look: Look) -> Matrix:
    """Homography from table millimetres to frame pixels for the look's camera pose."""
    tilt, yaw = math.radians(look.tilt), math.radians(look.yaw)
    distance = 1300.0
    # World: x right, y towards the camera's side, z into the table (right-handed).
    position = np.array([0.0, distance * math.sin(tilt), -distance * math.cos(tilt)])
    forward = -position / distance
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(forward, right)
    world_to_camera = np.stack([right, down, forward])
    turn = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])
    reach = MARKER_SIZE_MM
    table = np.array([[-reach, -reach], [TABLE_WIDTH_MM + reach, -reach],
                      [TABLE_WIDTH_MM + reach, TABLE_HEIGHT_MM + reach],
                      [-reach, TABLE_HEIGHT_MM + reach]])
    centred = (table - [TABLE_WIDTH_MM / 2, TABLE_HEIGHT_MM / 2]) @ turn.T
    world = np.concatenate([centred, np.zeros((4, 1))], axis=1)
    seen = (world - position) @ world_to_camera.T
    projected = seen[:, :2] / seen[:, 2:3]
    roll = math.radians(look.roll)
    projected = projected @ np.array([[math.cos(roll), math.sin(roll)],
                                      [-math.sin(roll), math.cos(roll)]])
    low, high = projected.min(axis=0), projected.max(axis=0)
    width, height = FRAME_SIZE
    scale = look.fill * min(width / (high[0] - low[0]), height / (high[1] - low[1]))
    pixels = (projected - (low + high) / 2) * scale + [width / 2, height / 2]
    return np.asarray(cv2.getPerspectiveTransform(table.astype(np.float32),
                                                  pixels.astype(np.float32)), np.float64)


@lru_cache(maxsize=4)
def _cloth(look: Look, shape: tuple[int, int]) -> Image:
    """A tablecloth: plain, wood, checked, flowered or striped, by ``look.cloth``.

    Drawn at a quarter of the canvas resolution and enlarged: cloth patterns are coarse, and the
    camera's blur hides the rest.
    """
    rng = np.random.default_rng([look.seed, 11])
    # Drawn at the same resolution whatever the canvas's (``camera_scale``), so the cloth's
    # pattern is the same size on the table.
    finer = _canvas_finer()
    height, width = round(shape[0] / finer) // 4, round(shape[1] / finer) // 4
    base = rng.uniform(40, 200, 3)
    wobble = cv2.resize(rng.normal(0, 1, (height // 16 + 2, width // 16 + 2)).astype(np.float32),
                        (width, height), interpolation=cv2.INTER_CUBIC)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    if look.cloth == 0:  # plain cloth
        image = base + wobble[..., None] * 8
    elif look.cloth == 1:  # wood grain
        base = np.array([40, 90, 150]) * rng.uniform(0.6, 1.2)
        grain = np.sin(ys * 0.2 + wobble * 2 + np.sin(xs * 0.016) * 3)
        image = base * (1 + 0.15 * grain[..., None])
    elif look.cloth == 2:  # gingham
        other = rng.uniform(40, 230, 3)
        period = float(rng.uniform(8, 15))
        a = (np.floor(xs / period) % 2)[..., None]
        b = (np.floor(ys / period) % 2)[..., None]
        image = base * (1 - (a + b) / 2) + other * (a + b) / 2 + wobble[..., None] * 5
    elif look.cloth == 3:  # flowers: many overlapping coloured blobs
        image = np.empty((height, width, 3), np.float32)
        image[:] = base
        for _ in range(700):
            centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
            colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
            radius = int(rng.integers(2, 8))
            cv2.circle(image, centre, radius, colour, -1, cv2.LINE_AA)
            cv2.circle(image, centre, max(1, radius // 3), (230.0, 230.0, 230.0), -1, cv2.LINE_AA)
    else:  # stripes
        other = rng.uniform(0, 255, 3)
        period = float(rng.uniform(5, 12))
        stripe = (np.sin(xs * (2 * math.pi / period) + ys * 0.1) > 0.3)[..., None]
        image = np.where(stripe, other, base) + wobble[..., None] * 6
    small = np.asarray(np.clip(image, 0, 255), np.uint8)
    return np.asarray(cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR),
                      np.uint8)


class FaceSource(Protocol):
    """Where the renderer gets card faces from: our own faces, or a deck drawn in a published
    game's style (``vision.styles.StyledDeck``)."""

    @property
    def card_mm(self) -> tuple[float, float]:
        """Card width and height, millimetres."""

    def face(self, name: str, px_per_mm: float) -> Image:
        """The face of card ``name`` (``deck/card``), BGR, portrait, top up."""

    def mask(self, px_per_mm: float) -> Image:
        """The card's silhouette (255 inside) at the face's size."""


class OwnFaces:
    """Conductor's own printable faces (``vision.faces``) of the shipped decks."""

    card_mm = (CARD_WIDTH_MM, CARD_HEIGHT_MM)

    def face(self, name: str, px_per_mm: float) -> Image:
        """Our face of card ``name``."""
        return _own_face(name, px_per_mm)

    def mask(self, px_per_mm: float) -> Image:
        """Our cards' silhouette."""
        return _own_mask(px_per_mm)


OWN_FACES = OwnFaces()
"""The faces tables are drawn with unless told otherwise."""


@lru_cache(maxsize=256)
def _own_face(name: str, px_per_mm: float) -> Image:
    deck, card = name.split("/", 1)
    return render_face(load_deck(deck).card(card), px_per_mm)


@lru_cache(maxsize=4)
def _back(width: int, height: int) -> Image:
    return np.asarray(cv2.resize(render_back(CANVAS_PX_PER_MM), (width, height)), np.uint8)


@lru_cache(maxsize=4)
def _own_mask(px_per_mm: float) -> Image:
    return card_mask(px_per_mm)


def canvas_points(points: Points) -> Points:
    """Table millimetres to pixels of the top-down canvas a table is drawn on."""
    return (points + CLOTH_MARGIN_MM) * CANVAS_PX_PER_MM


def _paste(canvas: Image, cover: Image, laid: LaidCard, faces: FaceSource) -> None:
    """Draw one card onto the top-down canvas, and mark where it lies in ``cover``."""
    mask = faces.mask(CANVAS_PX_PER_MM)
    height, width = mask.shape
    face = (_back(width, height) if laid.face_down else faces.face(laid.name, CANVAS_PX_PER_MM))
    source = np.array([[0, 0], [width, 0], [width, height]], np.float32)
    corners = canvas_points(laid.placement.corners(*faces.card_mm))
    target = corners[:3]
    low = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 4, 0)
    high = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 8,
                      [canvas.shape[1], canvas.shape[0]])
    size = (int(high[0] - low[0]), int(high[1] - low[1]))
    if size[0] <= 0 or size[1] <= 0:
        return
    affine = cv2.getAffineTransform(source, (target - low).astype(np.float32))
    warped = cv2.warpAffine(face, affine, size, flags=cv2.INTER_AREA)
    coverage = cv2.warpAffine(mask, affine, size)
    alpha = coverage.astype(np.float32)[..., None] / 255.0
    roi = canvas[low[1]:high[1], low[0]:high[0]]
    roi[:] = (roi * (1 - alpha) + warped * alpha).astype(np.uint8)
    cover_roi = cover[low[1]:high[1], low[0]:high[0]]
    np.maximum(cover_roi, coverage, out=cover_roi)


def _markers(canvas: Image) -> None:
    paper = MARKER_SIZE_MM * 1.4
    for marker_id, (x, y) in zip(MARKER_IDS, [(0, 0), (TABLE_WIDTH_MM, 0),
                                              (TABLE_WIDTH_MM, TABLE_HEIGHT_MM),
                                              (0, TABLE_HEIGHT_MM)], strict=True):
        low = canvas_points(np.array([[x - paper / 2, y - paper / 2]]))[0].astype(int)
        side = round(paper * CANVAS_PX_PER_MM)
        canvas[low[1]:low[1] + side, low[0]:low[0] + side] = 235
        inner = round(MARKER_SIZE_MM * CANVAS_PX_PER_MM)
        start = low + (side - inner) // 2
        marker = cv2.cvtColor(marker_image(marker_id, inner), cv2.COLOR_GRAY2BGR)
        canvas[start[1]:start[1] + inner, start[0]:start[0] + inner] = marker


def _hand(rng: np.random.Generator, table_to_image: Matrix) -> Image:
    """Mask of a hand and forearm reaching from a frame edge to somewhere over the table."""
    width, height = FRAME_SIZE
    mask = np.zeros((height, width), np.uint8)
    target_mm = np.array([[rng.uniform(60, TABLE_WIDTH_MM - 60),
                           rng.uniform(60, TABLE_HEIGHT_MM - 60)]])
    tip = transform_points(table_to_image, target_mm)[0]
    side = int(rng.integers(0, 3))
    start = [np.array([rng.uniform(0, width), height + 40]),
             np.array([-40, rng.uniform(0, height)]),
             np.array([width + 40, rng.uniform(0, height)])][side]
    direction = (tip - start) / max(1.0, float(np.linalg.norm(tip - start)))
    scale = float(rng.uniform(0.8, 1.2)) * frame_px(1.0, width)
    arm = int(70 * scale)
    wrist = tip - direction * 60 * scale
    cv2.line(mask, (int(start[0]), int(start[1])), (int(wrist[0]), int(wrist[1])), 255, arm)
    palm = tip - direction * 40 * scale
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(60 * scale), int(48 * scale)), angle,
                0, 360, 255, -1)
    normal = np.array([-direction[1], direction[0]])
    for finger in range(4):
        base = palm + direction * 35 * scale + normal * (finger - 1.5) * 22 * scale
        end = base + direction * rng.uniform(45, 75) * scale + normal * (finger - 1.5) * 8 * scale
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in end), 255,
                 int(18 * scale))
    thumb = palm + normal * 50 * scale * (1 if rng.random() < 0.5 else -1)
    cv2.line(mask, tuple(int(v) for v in palm), tuple(int(v) for v in thumb), 255, int(20 * scale))
    return mask


def _expose(image: Image, look: Look, hands: Sequence[Image]) -> tuple[np.ndarray, int]:
    """Light, glare, shadows, hands and blur, in the order a camera suffers them; returns the
    exposure (float, before the sensor's noise) and the JPEG quality.

    Light, glare, shadows and skin belong to the look: a webcam's scene is lit the same from
    frame to frame.
    """
    still = np.random.default_rng([look.seed, 23])
    level = look.level
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height:8, 0:width:8].astype(np.float32)
    angle = still.uniform(0, 2 * math.pi)
    ramp = (xs * math.cos(angle) + ys * math.sin(angle)) / max(width, height)
    ramp = (ramp - ramp.min()) / max(1e-6, float(ramp.max() - ramp.min()))
    light = 1.0 - level.light * still.uniform(0.5, 1.0) * ramp
    gain = float(still.uniform(0.85, 1.1))
    # Sizes in pixels below were drawn for 1280 x 720: a camera of more pixels sees the same
    # glare and shadows on the table, so they grow with the frame.
    finer = frame_px(1.0, width)
    if still.random() < level.shadow:
        shadow = np.zeros_like(light)
        points = (still.uniform(0, 1, (5, 2)) * [width / 8, height / 8]).astype(np.int32)
        cv2.fillConvexPoly(shadow, cv2.convexHull(points), 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 6 * finer)
        light = light * (1 - float(still.uniform(0.2, 0.45)) * shadow)
    light = cv2.resize(light * gain, (width, height), interpolation=cv2.INTER_LINEAR)
    lit = image.astype(np.float32) * light[..., None]
    if still.random() < level.glare:
        glare = np.zeros((height // 8, width // 8), np.float32)
        centre = (int(still.integers(0, width // 8)), int(still.integers(0, height // 8)))
        cv2.circle(glare, centre, round(int(still.integers(4, 14)) * finer), 1.0, -1)
        glare = cv2.resize(cv2.GaussianBlur(glare, (0, 0), 4 * finer), (width, height))
        lit += glare[..., None] * 255 * level.glare * float(still.uniform(0.5, 1.0))
    skin = np.array(still.uniform([60, 90, 150], [130, 160, 230]), np.float32)
    for mask in hands:
        soft = cv2.GaussianBlur(mask, (0, 0), 2).astype(np.float32)[..., None] / 255
        dark = np.roll(soft, (round(25 * finer), round(18 * finer)), axis=(0, 1))
        lit *= 1 - 0.35 * dark
        shading = 0.8 + 0.3 * cv2.GaussianBlur(mask, (0, 0), 12 * finer).astype(np.float32) / 255
        lit = lit * (1 - soft) + skin * shading[..., None] * soft
    if look.blur > 0:
        lit = cv2.GaussianBlur(lit, (0, 0), look.blur)
    return lit, int(still.integers(level.jpeg[0], level.jpeg[1] + 1))


def _sensor(exposure: np.ndarray, quality: int, look: Look, rng: np.random.Generator) -> Image:
    """What changes every frame: the sensor's noise; then the webcam's JPEG."""
    # OpenCV's generator, seeded from ``rng``: several times faster than numpy's at this size.
    noise = np.empty(exposure.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    channels = exposure.shape[-1] if exposure.ndim == 3 else 1
    cv2.randn(noise, np.zeros(channels), np.full(channels, float(look.noise)))
    result = np.asarray(np.clip(exposure + noise, 0, 255), np.uint8)
    if quality < 100:
        ok, data = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            result = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return result


def _occluded(corners: Points, hands: Image) -> bool:
    width, height = FRAME_SIZE
    if (corners < 2).any() or (corners > [width - 2, height - 2]).any():
        return True
    polygon = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(polygon, np.round(corners).astype(np.int32), 255)
    inside = int(np.count_nonzero(polygon))
    covered = int(np.count_nonzero(polygon & hands))
    return covered > 0.01 * max(1, inside)


@dataclass(frozen=True)
class Tabletop:
    """A drawn top-down table with its cards, ready to be photographed many times."""

    canvas: Image = field(repr=False)
    """The top-down drawing (tablecloth, markers, cards with shadows)."""
    cards: tuple[LaidCard, ...]
    """Every card drawn."""
    look: Look
    """Camera and flaws of the photographs."""
    card_mm: tuple[float, float] = (CARD_WIDTH_MM, CARD_HEIGHT_MM)
    """Card width and height of the deck drawn."""
    still: dict[str, tuple[np.ndarray, int]] = field(default_factory=dict, repr=False,
                                                     compare=False)
    """The exposure without hands, once worked out: frames of a still table differ only by
    the sensor's noise, so a video renders each table once."""


class Piece(Protocol):
    """Something other than a card on the table (a game piece, a printed tile), drawn over the
    cards."""

    def draw(self, canvas: Image) -> None:
        """Draw onto the top-down canvas (``canvas_points`` maps table millimetres to it)."""


def lay_table(cards: Sequence[LaidCard], look: Look, pieces: Sequence[Piece] = (),
              faces: FaceSource = OWN_FACES) -> Tabletop:
    """Draw cards (then pieces) on the look's tablecloth (the slow part of rendering, done once
    per layout), with faces from ``faces``."""
    shape = (round((TABLE_HEIGHT_MM + 2 * CLOTH_MARGIN_MM) * CANVAS_PX_PER_MM),
             round((TABLE_WIDTH_MM + 2 * CLOTH_MARGIN_MM) * CANVAS_PX_PER_MM))
    canvas = _cloth(look, shape).copy()  # the cached cloth stays clean
    _markers(canvas)
    # Cards cast a soft shadow down-right: darken the cloth under the shifted, blurred cover
    # (worked out at a quarter of the resolution), then draw the cards over it.
    cover = np.zeros(shape, np.uint8)
    small = (shape[1] // 4, shape[0] // 4)
    layer = canvas.copy()
    for laid in cards:
        _paste(layer, cover, laid, faces)
    finer = _canvas_finer()  # the shadow's size on the table at any canvas resolution
    shade = cv2.GaussianBlur(cv2.resize(cover, small, interpolation=cv2.INTER_AREA), (0, 0),
                             1.2 * finer)
    shade = np.roll(shade, (round(2 * finer), round(finer)), axis=(0, 1))
    darkening = cv2.resize(255 - (shade.astype(np.uint16) * 100 // 255).astype(np.uint8),
                           (shape[1], shape[0]))
    shaded = cv2.multiply(canvas, cv2.merge([darkening] * 3), scale=1 / 255)
    result = np.asarray(np.where((cover > 0)[..., None], layer, shaded), np.uint8)
    for piece in pieces:
        piece.draw(result)
    return Tabletop(result, tuple(cards), look, faces.card_mm)


def photograph(table: Tabletop, shot: int, hands: int | None = None,
               observation: TrainsObservation | None = None) -> tuple[Image, GroundTruth]:
    """One camera frame of a laid table; ``shot`` varies noise (and hands, unless given)."""
    look = table.look
    rng = np.random.default_rng([look.seed, 13, shot])
    table_to_image = camera_homography(look)
    canvas_to_table = np.array([[1 / CANVAS_PX_PER_MM, 0, -CLOTH_MARGIN_MM],
                                [0, 1 / CANVAS_PX_PER_MM, -CLOTH_MARGIN_MM], [0, 0, 1]])
    count = look.hands if hands is None else hands
    hand_masks = [_hand(rng, table_to_image) for _ in range(count)]
    union = np.zeros((FRAME_SIZE[1], FRAME_SIZE[0]), np.uint8)
    for mask in hand_masks:
        union |= mask
    exposed = table.still.get("bare") if not hand_masks else None
    if exposed is None:
        image = cv2.warpPerspective(table.canvas, table_to_image @ canvas_to_table, FRAME_SIZE,
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                    borderValue=(38, 44, 52))
        exposed = _expose(np.asarray(image, np.uint8), look, hand_masks)
        if not hand_masks:
            table.still["bare"] = exposed
    image = _sensor(*exposed, look, rng)
    seen = []
    for laid in table.cards:
        if laid.face_down or laid.zone.startswith("tab"):
            continue
        corners = transform_points(table_to_image, laid.placement.corners(*table.card_mm))
        hidden = laid.zone.startswith(UNDER) or _occluded(corners, union)
        seen.append(SeenCard(laid.name, corners, hidden, laid.zone))
    return image, GroundTruth(tuple(seen), table_to_image, observation, union)


def _protect_number(observation: TrainsObservation) -> int:
    """A protect card not shown elsewhere on the table, to draw under a locked railcar.

    Only its lock band shows, so which one does not matter; the deck map says which are protect
    cards.
    """
    shown = {n for line in observation.lines for n in line} | set(observation.faceup)
    for card in load_deck("trains").cards:
        if card.text("ability") == "protect" and card.number("number") not in shown:
            return card.number("number")
    return 8


def trains_layout(observation: TrainsObservation, seed: int, jitter_degrees: float = 3.0
                  ) -> list[LaidCard]:
    """Cards of a Game of Trains table as players lay them (a little crooked)."""
    rng = np.random.default_rng([seed, 17])
    edges = SEAT_EDGES[len(observation.lines)]
    laid: list[LaidCard] = []
    for offset in range(int(rng.integers(4, 8))):  # the draw pile, a slightly messy stack
        centre = np.array(DRAW_PILE_MM) + rng.normal(0, 1.0, 2) + offset * 0.4
        laid.append(LaidCard("", Placement((float(centre[0]), float(centre[1])),
                                           float(rng.normal(0, 3))), True, "pile"))
    locks = {(seat, slot) for seat, slot in observation.locks}
    for seat, line in enumerate(observation.lines):
        edge = edges[seat]
        for slot, number in enumerate(line):
            centre = slot_centre(edge, slot) + rng.normal(0, 1.5, 2)
            degrees = edge.facing_degrees + float(rng.normal(0, jitter_degrees / 2))
            slot_name = {0: "left", 3: "middle", 6: "right"}.get(slot)
            if slot_name is not None and (seat, slot_name) in locks:
                # The protect card shows TAB_MM of its ability band below the railcar.
                shift = outward(edge) * TAB_MM
                tab = centre + shift
                laid.append(LaidCard(f"trains/{_protect_number(observation)}",
                                     Placement((float(tab[0]), float(tab[1])), degrees),
                                     False, f"tab {seat} {slot}"))
            laid.append(LaidCard(f"trains/{number}",
                                 Placement((float(centre[0]), float(centre[1])), degrees),
                                 False, f"line {seat} {slot}"))
    for index, number in enumerate(observation.faceup):
        centre = faceup_centre(index) + rng.normal(0, 4, 2)
        laid.append(LaidCard(f"trains/{number}", Placement((float(centre[0]), float(centre[1])),
                                                           float(rng.normal(0, 8))),
                             False, f"faceup {index}"))
    return laid


def random_trains_table(seed: int, players: int | None = None) -> TrainsObservation:
    """A seeded random Game of Trains table (distinct cards: each seat's line, up to three
    face-up cards, a few locks), for tests and benchmarks."""
    rng = random.Random(seed)
    seats = players or rng.randint(2, 4)
    numbers = rng.sample(range(1, 85), 7 * seats + 3)
    lines = tuple(tuple(numbers[7 * s:7 * s + 7]) for s in range(seats))
    faceup = tuple(numbers[7 * seats:7 * seats + rng.randint(0, 3)])
    locks = tuple((s, slot) for s in range(seats) for slot in ("left", "middle", "right")
                  if rng.random() < 0.15)
    return TrainsObservation(lines, faceup, locks)


def render_table(observation: TrainsObservation, seed: int, level: str | Difficulty = "medium",
                 ) -> tuple[Image, GroundTruth]:
    """A seeded webcam photograph (1280 x 720 BGR) of a Game of Trains table, with ground truth.

    The observation decides the cards; the seed decides everything else (camera, cloth, light,
    hands, noise) within the ranges of the difficulty ``level`` (``easy``, ``medium``, ``hard``).
    """
    chosen = difficulty(level) if isinstance(level, str) else level
    look = Look.draw(seed, chosen)
    table = lay_table(trains_layout(observation, seed, chosen.jitter_degrees), look)
    return photograph(table, 0, observation=observation)


def render_cards(names: Sequence[str], seed: int, level: str | Difficulty = "medium",
                 faces: FaceSource = OWN_FACES) -> tuple[Image, GroundTruth]:
    """A photograph of any cards (``deck/card`` names, faces from ``faces``) laid in rows in
    the middle of the table."""
    chosen = difficulty(level) if isinstance(level, str) else level
    rng = np.random.default_rng([seed, 19])
    per_row = 8
    laid = []
    for index, name in enumerate(names):
        row, column = divmod(index, per_row)
        x = 130.0 + column * 92.0 + float(rng.normal(0, 3))
        y = 120.0 + row * (faces.card_mm[1] + 30) + float(rng.normal(0, 3))
        laid.append(LaidCard(name, Placement((x, y), float(rng.normal(0, 6))), False,
                             f"row {index}"))
    look = replace(Look.draw(seed, chosen))
    return photograph(lay_table(laid, look, faces=faces), 0)
