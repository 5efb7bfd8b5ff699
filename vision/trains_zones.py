"""Zones of The Game of Trains: each seat's line of seven, the face-up cards and lock tabs.

Cards are placed by their centres in table millimetres (``vision.table``): a card lying in the
band along an edge where a seat sits belongs to that seat's line, ordered by that player's left
to right (``edge_direction``); cards in the middle are face up. A line that does not show exactly
seven cards makes the frame incomplete (None) rather than a guess: a hand over it, most likely.
A lock tab is the ability band of a protect card showing beyond the outer edge of the leftmost,
middle or rightmost railcar; it is recognised by comparison with the protect card's band.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from host.deck import load_deck
from host.trains.observation import LINE_LENGTH, Lock, TrainsObservation
from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM, TAB_MM, render_face
from vision.imaging import Image
from vision.readings import CardReading, TableFrame
from vision.table import (
    LINE_INSET_MM,
    SEAT_EDGES,
    TABLE_HEIGHT_MM,
    TABLE_WIDTH_MM,
    Edge,
    edge_direction,
    outward,
)

BAND_HALF_DEPTH_MM = 45.0
"""How far from a line's centre-line (across it) a card may lie and still be in the line."""
LINE_REACH_MM = 330.0
"""How far along the edge from its middle a line's cards may lie."""
TAB_SIZE = (44, 16)
"""Pixels of a rectified lock-tab strip."""
TAB_STRIP_MM = (5.0, CARD_HEIGHT_MM + 3.0, CARD_WIDTH_MM - 5.0, CARD_HEIGHT_MM + TAB_MM - 3.0)
"""The strip a lock tab shows, in the railcar's own millimetres (x0, y0, x1, y1)."""
TAB_PAD = 3
"""Pixels the strip is grown by on every side, so the template can slide a little."""
PAPER_BOX_MM = (12.0, 50.0, 51.0, 56.0)
"""Plain paper of a railcar, between its number and its icon (its own millimetres)."""
MIN_TAB_SCORE = 0.6
"""Correlation with the protect card's band above which a strip is a lock tab."""
FACEUP_ROW_MM = 60.0
"""Face-up cards whose centres are this close across are in the same row."""


@lru_cache(maxsize=len(Edge))
def _line_axes(edge: Edge) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Middle of the line along ``edge``, its outward and its left-to-right unit vectors."""
    middle = np.array([TABLE_WIDTH_MM / 2, TABLE_HEIGHT_MM / 2])
    reach = (TABLE_HEIGHT_MM if edge in (Edge.BOTTOM, Edge.TOP) else TABLE_WIDTH_MM) / 2
    return middle + outward(edge) * (reach - LINE_INSET_MM), outward(edge), edge_direction(edge)


def _edge_offset(edge: Edge, point: np.ndarray) -> tuple[float, float]:
    """(across, along) of a table point relative to the line along ``edge``."""
    line_middle, across, along = _line_axes(edge)
    relative = point - line_middle
    return float(relative @ across), float(relative @ along)


def _seat_edges(lines: dict[Edge, list[CardReading]], players: int | None) -> tuple[Edge, ...]:
    if players is not None:
        return SEAT_EDGES[players]
    occupied = {edge for edge, cards in lines.items() if len(cards) >= 4}
    for edges in SEAT_EDGES.values():
        if set(edges) == occupied:
            return edges
    return ()


def trains_observation(cards: Sequence[CardReading], grey_frame: Image,
                       players: int | None = None) -> TrainsObservation | None:
    """The observation the cards make, or None when a line is incomplete or the seats unclear.

    Every card needs ``table_corners``. ``players`` fixes the seats (``SEAT_EDGES``); None
    infers them from the edges where lines lie.
    """
    lines: dict[Edge, list[CardReading]] = {edge: [] for edge in Edge}
    middle: list[CardReading] = []
    for card in cards:
        if card.table_corners is None:
            return None
        centre = card.table_corners.mean(axis=0)
        for edge in Edge:
            across, along = _edge_offset(edge, centre)
            if abs(across) < BAND_HALF_DEPTH_MM and abs(along) < LINE_REACH_MM:
                lines[edge].append(card)
                break
        else:
            middle.append(card)
    edges = _seat_edges(lines, players)
    if not edges or any(lines[edge] and edge not in edges for edge in Edge):
        return None
    seats: list[list[CardReading]] = []
    for edge in edges:
        line = sorted(lines[edge],
                      key=lambda c: _edge_offset(edge, c.table_corners.mean(axis=0))[1]
                      if c.table_corners is not None else 0.0)
        if len(line) != LINE_LENGTH:
            return None
        seats.append(line)
    locks = tuple((seat, lock.value) for seat, line in enumerate(seats)
                  for lock in Lock if _has_tab(line[lock.place], grey_frame))
    return TrainsObservation(
        lines=tuple(tuple(_number(card) for card in line) for line in seats),
        faceup=tuple(_number(card) for card in _faceup_order(middle)),
        locks=locks)


@dataclass(frozen=True)
class TrainsZones:
    """The zones of a Game of Trains table (a ``vision.readings.Zones``)."""

    players: int | None = None
    """Seats at the table (2-4), or None to infer them from the lines laid out."""

    def observe(self, frame: TableFrame) -> tuple[tuple[CardReading, ...],
                                                  TrainsObservation | None]:
        """The cards as read, and the observation they make (None: a line incomplete)."""
        return frame.cards, trains_observation(frame.cards, frame.grey, self.players)


@lru_cache(maxsize=1)
def _railcar_numbers() -> dict[str, int]:
    """Each trains card's number by its public name (the deck file is read once)."""
    return {card.id: card.number("number") for card in load_deck("trains").cards}


def _number(card: CardReading) -> int | None:
    return None if card.name is None else _railcar_numbers().get(card.name)


def _faceup_order(cards: list[CardReading]) -> list[CardReading]:
    """Rows from the top of the table, each left to right (as the top-down view shows them)."""
    centres = {id(card): card.table_corners.mean(axis=0) for card in cards
               if card.table_corners is not None}
    ordered = sorted(cards, key=lambda card: float(centres[id(card)][1]))
    rows: list[list[CardReading]] = []
    for card in ordered:
        if rows and abs(float(centres[id(card)][1] - centres[id(rows[-1][0])][1])) < FACEUP_ROW_MM:
            rows[-1].append(card)
        else:
            rows.append([card])
    return [card for row in rows for card in sorted(row, key=lambda c: float(centres[id(c)][0]))]


def _sample(grey_frame: Image, card: CardReading, box_mm: tuple[float, float, float, float],
            size: tuple[int, int]) -> Image:
    """A box of the card's own millimetres (x0, y0, x1, y1), rectified to ``size`` pixels."""
    x0, y0, x1, y1 = box_mm
    to_card = np.array([[(x1 - x0) / size[0], 0, x0], [0, (y1 - y0) / size[1], y0], [0, 0, 1]])
    return np.asarray(cv2.warpPerspective(grey_frame, card.card_to_image() @ to_card, size,
                                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                          borderMode=cv2.BORDER_REPLICATE), np.uint8)


def _padded(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The strip grown by ``TAB_PAD`` pixels' worth on every side, for sliding the template."""
    x0, y0, x1, y1 = box
    px, py = (x1 - x0) / TAB_SIZE[0] * TAB_PAD, (y1 - y0) / TAB_SIZE[1] * TAB_PAD
    return x0 - px, y0 - py, x1 + px, y1 + py


@lru_cache(maxsize=1)
def _tab_template() -> np.ndarray:
    """What a lock tab looks like: the band of a protect card, below a railcar's edge."""
    deck = load_deck("trains")
    protect = next(card for card in deck.cards if card.text("ability") == "protect")
    px_per_mm = 4.0
    face = cv2.cvtColor(render_face(protect, px_per_mm), cv2.COLOR_BGR2GRAY)
    # The protect card lies TAB_MM further out than its railcar: shift the strip back.
    x0, y0, x1, y1 = TAB_STRIP_MM
    strip = face[round((y0 - TAB_MM) * px_per_mm):round((y1 - TAB_MM) * px_per_mm),
                 round(x0 * px_per_mm):round(x1 * px_per_mm)]
    small = cv2.resize(strip, TAB_SIZE, interpolation=cv2.INTER_AREA)
    return _tab_features(np.asarray(small, np.uint8))


def _tab_features(strip: Image) -> np.ndarray:
    """Tabs are small and often blurred: compare them on coarser detail than card windows."""
    image = strip.astype(np.float32)
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 1.2) - cv2.GaussianBlur(image, (0, 0), 5.0),
                      np.float32)


def _has_tab(card: CardReading, grey_frame: Image) -> bool:
    """Whether a protect card's lock tab shows beyond the railcar's outer edge.

    The strip there must look like the protect card's band (a lock between frame lines) and
    be as light as the railcar's own paper (a busy cloth can mimic the shapes, not the paper).
    """
    size = (TAB_SIZE[0] + 2 * TAB_PAD, TAB_SIZE[1] + 2 * TAB_PAD)
    strip = _sample(grey_frame, card, _padded(TAB_STRIP_MM), size)
    score = float(cv2.matchTemplate(_tab_features(strip), _tab_template(),
                                    cv2.TM_CCOEFF_NORMED).max())
    paper = _sample(grey_frame, card, PAPER_BOX_MM, (20, 4))
    inner = strip[TAB_PAD:-TAB_PAD, TAB_PAD:-TAB_PAD]
    light = float(np.percentile(inner, 75)) >= 0.8 * float(np.percentile(paper, 75))
    return score > MIN_TAB_SCORE and light
