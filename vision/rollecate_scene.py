"""Rendered Rollecate tables: the railway, the wooden train, the start tile, discard piles and
spread hands, photographed like any other table (``vision.scene``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from host.deck import load_deck
from host.rollecate.observation import RollecateObservation
from vision import scene
from vision.imaging import Image, Points
from vision.markers import marker_image
from vision.rollecate_table import (
    SPREAD_MOST,
    START_MARKER_ID,
    START_MARKER_MM,
    TRAIN_SIZE_MM,
    final_spread_centre,
    hand_centre,
    pile_centre,
    railway_centre,
    spread_centre,
    start_tile_centre,
)
from vision.scene import (
    OWN_FACES,
    FaceSource,
    LaidCard,
    Look,
    Piece,
    Tabletop,
    canvas_points,
    difficulty,
    lay_table,
    photograph,
)
from vision.table import SEAT_EDGES, TABLE_WIDTH_MM, Placement, rotation

DRAW_PILE_MM = (TABLE_WIDTH_MM - 100.0, 50.0)
"""The face-down draw pile lies in a corner, out of the seats' and the railway's way."""
TRACK_BAND_MM = 19.0
"""How far below a card's centre its rails run (the train stands on them)."""
WOOD = (95, 165, 215)
"""The train's colour (BGR): light, warm wood."""


def _polygon(centre: Points, degrees: float, size: tuple[float, float]) -> np.ndarray:
    """Canvas pixel corners of a ``size`` (along, across) rectangle turned by ``degrees``."""
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * np.array(size) / 2
    turned = (rotation(degrees) @ half.T).T + centre
    return np.round(canvas_points(turned)).astype(np.int32)


@dataclass(frozen=True)
class TrainPiece:
    """The wooden train, standing on a card's rails, seen from above."""

    centre: tuple[float, float]
    """Centre in table millimetres."""
    degrees: float
    """Turn of its length from the table's x axis (clockwise)."""

    def draw(self, canvas: Image) -> None:
        """A soft shadow, the body with its cab, chimney and wheels."""
        centre = np.array(self.centre)
        length, width = TRAIN_SIZE_MM
        # The shadow is worked out round the train only: the canvas is large.
        outline = _polygon(centre + np.array([2.5, 2.5]), self.degrees, (length + 2, width + 2))
        low = np.maximum(outline.min(axis=0) - 12, 0)
        high = np.minimum(outline.max(axis=0) + 12, [canvas.shape[1], canvas.shape[0]])
        region = canvas[low[1]:high[1], low[0]:high[0]]
        shadow = np.zeros(region.shape[:2], np.uint8)
        cv2.fillConvexPoly(shadow, outline - low, 255)
        soft = cv2.GaussianBlur(shadow, (0, 0), 3).astype(np.float32)[..., None] / 255
        region[:] = np.asarray(region * (1 - 0.45 * soft), np.uint8)
        along = rotation(self.degrees) @ np.array([1.0, 0.0])
        across = rotation(self.degrees) @ np.array([0.0, 1.0])
        for side in (-1, 1):  # wheels peek out on both sides
            for step in (-0.32, 0.0, 0.32):
                wheel = canvas_points(np.array([centre + along * step * length
                                                + across * side * width / 2]))[0]
                cv2.circle(canvas, (round(wheel[0]), round(wheel[1])),
                           round(3.5 * scene.CANVAS_PX_PER_MM), (35, 35, 40), -1, cv2.LINE_AA)
        cv2.fillConvexPoly(canvas, _polygon(centre, self.degrees, TRAIN_SIZE_MM), WOOD,
                           cv2.LINE_AA)
        cab = centre - along * length * 0.3
        cv2.fillConvexPoly(canvas, _polygon(cab, self.degrees, (length * 0.3, width * 0.9)),
                           (80, 145, 200), cv2.LINE_AA)
        chimney = canvas_points(np.array([centre + along * length * 0.3]))[0]
        cv2.circle(canvas, (round(chimney[0]), round(chimney[1])),
                   round(3.0 * scene.CANVAS_PX_PER_MM), (45, 70, 110), -1, cv2.LINE_AA)


@dataclass(frozen=True)
class StartTile:
    """The printed start tile: the start marker on white paper, and a green arrow."""

    centre: tuple[float, float]
    """Centre of the marker in table millimetres."""

    def draw(self, canvas: Image) -> None:
        """White paper, the marker, and the arrow pointing along the railway."""
        centre = np.array(self.centre)
        cv2.fillConvexPoly(canvas, _polygon(centre + np.array([6.0, 0.0]), 0.0,
                                            (START_MARKER_MM + 28, START_MARKER_MM + 16)),
                           (235, 238, 240), cv2.LINE_AA)
        side = round(START_MARKER_MM * scene.CANVAS_PX_PER_MM)
        low = canvas_points(centre[None, :] - START_MARKER_MM / 2)[0].astype(int)
        marker = cv2.cvtColor(marker_image(START_MARKER_ID, side), cv2.COLOR_GRAY2BGR)
        canvas[low[1]:low[1] + side, low[0]:low[0] + side] = marker
        tip = centre + np.array([START_MARKER_MM / 2 + 18, 0.0])
        arrow = np.array([tip, tip + np.array([-9.0, -8.0]), tip + np.array([-9.0, 8.0])])
        cv2.fillConvexPoly(canvas, np.round(canvas_points(arrow)).astype(np.int32),
                           (60, 170, 60), cv2.LINE_AA)


def rollecate_layout(observation: RollecateObservation, seed: int, jitter_degrees: float = 3.0
                     ) -> tuple[list[LaidCard], list[Piece]]:
    """Cards and pieces of a Rollecate table as players lay them (a little crooked)."""
    rng = np.random.default_rng([seed, 29])
    edges = SEAT_EDGES[len(observation.discard)]
    laid: list[LaidCard] = []
    for offset in range(int(rng.integers(4, 8))):
        centre = np.array(DRAW_PILE_MM) + rng.normal(0, 1.0, 2) + offset * 0.4
        laid.append(LaidCard("", _placement(centre, 90 + float(rng.normal(0, 3))), True, "pile"))
    railway: list[Placement] = []
    for index, name in enumerate(observation.railway):
        # Players build from wherever they sit: a card may lie either way up.
        degrees = 180.0 * int(rng.integers(0, 2)) + float(rng.normal(0, jitter_degrees / 2))
        placement = _placement(railway_centre(index) + rng.normal(0, 1.5, 2), degrees)
        railway.append(placement)
        laid.append(LaidCard(f"rollecate/{name}", placement, False, f"railway {index}"))
    for seat, pile in enumerate(observation.discard):
        edge = edges[seat]
        for depth, name in enumerate(pile):
            placement = _placement(pile_centre(edge) + rng.normal(0, 2.0, 2),
                                   edge.facing_degrees + float(rng.normal(0, 4)))
            laid.append(LaidCard(f"rollecate/{name}", placement, False, f"discard {seat} {depth}"))
        for index, name in enumerate(observation.hands[seat] if observation.hands else ()):
            assert observation.hands is not None
            centre = hand_centre(edge, index, len(observation.hands[seat]))
            placement = _placement(centre + rng.normal(0, 2.0, 2),
                                   edge.facing_degrees + float(rng.normal(0, jitter_degrees)))
            laid.append(LaidCard(f"rollecate/{name}", placement, False, f"hand {seat} {index}"))
        for index, name in enumerate(_spread_cards(observation, seat)):
            centre = (final_spread_centre(edge, index, len(edges)) if not observation.railway
                      else hand_centre(edge, index, len(_spread_cards(observation, seat))))
            placement = _placement(centre + rng.normal(0, 2.0, 2),
                                   edge.facing_degrees + float(rng.normal(0, jitter_degrees)))
            laid.append(LaidCard(f"rollecate/{name}", placement, False, f"spread {seat} {index}"))
    pieces: list[Piece] = []
    if observation.railway:  # cleared away, start tile and all, for the final count
        # The start tile stays put from one table to the next (its own random stream).
        tile = start_tile_centre() + np.random.default_rng([seed, 31]).normal(0, 2.0, 2)
        pieces.append(StartTile(_pair(tile)))
    if railway:
        card = railway[min(observation.train, len(railway) - 1)]
        on_rails = rotation(card.degrees) @ np.array([0.0, TRACK_BAND_MM])
        centre = np.array(card.centre) + on_rails + rng.normal(0, 1.5, 2)
        pieces.append(TrainPiece(_pair(centre), card.degrees + float(rng.normal(0, 4))))
    return laid, pieces


def _spread_cards(observation: RollecateObservation, seat: int) -> tuple[str, ...]:
    """A seat's cards spread out for the final count (none before it)."""
    return observation.spread[seat] if observation.spread is not None else ()


def lay_rollecate(observation: RollecateObservation, look: Look, seed: int,
                  faces: FaceSource = OWN_FACES) -> Tabletop:
    """A Rollecate table drawn for ``look`` (cards laid from ``seed``, faces from ``faces``),
    ready to photograph."""
    cards, pieces = rollecate_layout(observation, seed, look.level.jitter_degrees)
    return lay_table(cards, look, pieces, faces)


def random_rollecate_table(seed: int, players: int | None = None,
                           hands: bool = False) -> RollecateObservation:
    """A seeded random Rollecate table for tests and benchmarks: a railway of 4 to 26 cards
    with rails, the train somewhere on it, each seat's pile top (or an empty pile), and the
    spread hands if ``hands``. Cards are drawn from the deck without replacement."""
    rng = random.Random(seed)
    seats = players or rng.randint(2, 4)
    deck = [card.name for card in load_deck("rollecate").cards for _ in range(card.count)]
    rng.shuffle(deck)
    with_rails = [name for name in deck if not name.startswith("chaos")]
    length = rng.randint(4, 26)
    railway = tuple(with_rails[:length])
    rest = deck.copy()
    for name in railway:
        rest.remove(name)
    piles = tuple(() if rng.random() < 0.25 else (rest.pop(),) for _ in range(seats))
    shown = tuple(tuple(rest.pop() for _ in range(rng.randint(0, 4))) for _ in range(seats))
    train = rng.randrange(length)
    if hands and not any(piles) and any(shown):
        # Every pile's place empty and cards spread: the camera reads a final count.
        spread = tuple(tuple(sorted(cards)) for cards in shown)
        return RollecateObservation(railway, train, piles, spread=spread)
    return RollecateObservation(railway, train, piles, shown if hands else None)


def _placement(centre: Points, degrees: float) -> Placement:
    return Placement(_pair(centre), degrees)


def _pair(point: Points) -> tuple[float, float]:
    return float(point[0]), float(point[1])


def render_final_count(seats: Sequence[Sequence[str]], seed: int, level: str = "easy",
                       railway: Sequence[str] = (), faces: FaceSource = OWN_FACES) -> Image:
    """A photograph of the final count: each seat's cards (names without the deck) spread in
    rows in front of the player; the railway, if given, still in the middle with its tile;
    the faces from ``faces``."""
    edges = SEAT_EDGES[len(seats)]
    rng = np.random.default_rng([seed, 37])
    laid: list[LaidCard] = []
    for seat, cards in enumerate(seats):
        if len(cards) > SPREAD_MOST:
            raise ValueError(f"at most {SPREAD_MOST} cards are spread per seat")
        edge = edges[seat]
        for index, name in enumerate(cards):
            placement = _placement(spread_centre(edge, index) + rng.normal(0, 2.0, 2),
                                   edge.facing_degrees + float(rng.normal(0, 3)))
            laid.append(LaidCard(f"rollecate/{name}", placement, False, f"spread {seat} {index}"))
    pieces: list[Piece] = []
    for index, name in enumerate(railway):
        placement = _placement(railway_centre(index) + rng.normal(0, 1.5, 2),
                               float(rng.normal(0, 2)))
        laid.append(LaidCard(f"rollecate/{name}", placement, False, f"railway {index}"))
    if railway:
        pieces.append(StartTile(_pair(start_tile_centre())))
    look = Look.draw(seed, difficulty(level))
    image, _ = photograph(lay_table(laid, look, pieces, faces), 0, hands=0)
    return image
