"""The table as the recognizer sees it from above: markers, seats, lines and the middle.

Table coordinates are millimetres in the top-down view: x to the right, y down, with the centres
of the four printed markers at the corners of a ``TABLE_WIDTH_MM`` x ``TABLE_HEIGHT_MM``
rectangle (marker 0 top left, 1 top right, 2 bottom right, 3 bottom left). The bottom edge is
the one nearest the camera. Seats sit along the edges, numbered clockwise seen from above
starting at the bottom edge (see ``SEAT_EDGES`` and docs/vision.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np

from host.trains.observation import LINE_LENGTH
from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM
from vision.imaging import Points

TABLE_WIDTH_MM = 900.0
"""Distance between the centres of the left and right markers."""
TABLE_HEIGHT_MM = 700.0
"""Distance between the centres of the top and bottom markers."""
MARKER_SIZE_MM = 50.0
"""Printed side of a marker (its black square)."""
MARKER_IDS = (0, 1, 2, 3)
"""ArUco ids (4x4_50 dictionary) at the top-left, top-right, bottom-right, bottom-left corners."""
LINE_GAP_MM = 8.0
"""Space between neighbouring railcars in a line, as laid out by the renderer."""
LINE_INSET_MM = 75.0
"""Distance from a table edge to the centres of the railcars in the line along it."""
EDGE_SLOTS = LINE_LENGTH
"""Places along each edge where cards lie: a Game of Trains line's railcars (Rollecate's piles
and spread hands use the same places)."""


class Edge(Enum):
    """A side of the table, where a seat sits."""

    BOTTOM = "bottom"
    LEFT = "left"
    TOP = "top"
    RIGHT = "right"

    @property
    def facing_degrees(self) -> float:
        """Rotation of the cards laid by a player at this edge (0: upright in the image).

        A player's cards face them: their tops point into the table.
        """
        return {Edge.BOTTOM: 0.0, Edge.LEFT: 90.0, Edge.TOP: 180.0, Edge.RIGHT: 270.0}[self]


SEAT_EDGES: dict[int, tuple[Edge, ...]] = {
    2: (Edge.BOTTOM, Edge.TOP),
    3: (Edge.BOTTOM, Edge.LEFT, Edge.RIGHT),
    4: (Edge.BOTTOM, Edge.LEFT, Edge.TOP, Edge.RIGHT),
}
"""Where each seat sits for each number of players: seat 0 at the bottom edge (nearest the
camera), then clockwise seen from above (bottom, left, top, right)."""


def rotation(degrees: float) -> Points:
    """The 2 x 2 matrix turning a vector by ``degrees`` (clockwise on screen, y down)."""
    radians = math.radians(degrees)
    c, s = math.cos(radians), math.sin(radians)
    return np.array([[c, -s], [s, c]], np.float64)


def edge_direction(edge: Edge) -> Points:
    """Unit vector along a player's line from their left to their right (table coordinates)."""
    return np.asarray(rotation(edge.facing_degrees) @ np.array([1.0, 0.0]), np.float64)


def slot_centre(edge: Edge, slot: int) -> Points:
    """Centre of railcar ``slot`` (0 = the player's leftmost) of the line along ``edge``."""
    pitch = CARD_WIDTH_MM + LINE_GAP_MM
    offset = (slot - (EDGE_SLOTS - 1) / 2) * pitch
    centre = np.array([TABLE_WIDTH_MM / 2, TABLE_HEIGHT_MM / 2])
    # Vector from the table centre towards the player at this edge.
    outward = np.asarray(rotation(edge.facing_degrees) @ np.array([0.0, 1.0]), np.float64)
    reach = (TABLE_HEIGHT_MM if edge in (Edge.BOTTOM, Edge.TOP) else TABLE_WIDTH_MM) / 2
    return np.asarray(centre + outward * (reach - LINE_INSET_MM) + edge_direction(edge) * offset,
                      np.float64)


def outward(edge: Edge) -> Points:
    """Unit vector from the table's middle towards the player sitting at ``edge``."""
    return np.asarray(rotation(edge.facing_degrees) @ np.array([0.0, 1.0]), np.float64)


def edge_distance(edge: Edge, point: Points) -> float:
    """How far a table point lies from the table edge where the seat at ``edge`` sits."""
    middle = np.array([TABLE_WIDTH_MM / 2, TABLE_HEIGHT_MM / 2])
    reach = (TABLE_HEIGHT_MM if edge in (Edge.BOTTOM, Edge.TOP) else TABLE_WIDTH_MM) / 2
    return reach - float((point - middle) @ outward(edge))


DRAW_PILE_MM = (TABLE_WIDTH_MM / 2 - 110.0, TABLE_HEIGHT_MM / 2)
"""Centre of the draw pile in the middle of the table."""
FACEUP_ORIGIN_MM = (TABLE_WIDTH_MM / 2 - 20.0, TABLE_HEIGHT_MM / 2 - 55.0)
"""Centre of the first face-up card: face-up cards lie in two rows right of the draw pile."""
FACEUP_PITCH_MM = (CARD_WIDTH_MM + 14.0, CARD_HEIGHT_MM + 22.0)
"""Spacing of the face-up cards along and between rows."""
FACEUP_PER_ROW = 3
"""Face-up cards per row before a second row starts."""


def faceup_centre(index: int) -> Points:
    """Where the renderer lays the ``index``-th face-up card."""
    row, column = divmod(index, FACEUP_PER_ROW)
    return np.array([FACEUP_ORIGIN_MM[0] + column * FACEUP_PITCH_MM[0],
                     FACEUP_ORIGIN_MM[1] + row * FACEUP_PITCH_MM[1]], np.float64)


@dataclass(frozen=True)
class Placement:
    """Where a card lies on the table (table coordinates)."""

    centre: tuple[float, float]
    """Centre of the card in millimetres."""
    degrees: float
    """Rotation of the card's top from pointing up in the top-down view (clockwise)."""

    def corners(self, width: float = CARD_WIDTH_MM, height: float = CARD_HEIGHT_MM) -> Points:
        """The card's corners: its top-left, top-right, bottom-right, bottom-left."""
        half = np.array([[-width, -height], [width, -height], [width, height], [-width, height]])
        turned = (rotation(self.degrees) @ (half / 2).T).T
        return np.asarray(turned + np.array(self.centre), np.float64)
