"""Where things lie on a Rollecate table, as the recognizer reads it (and the renderer lays it).

The table is the same as for The Game of Trains (``vision.table``: markers, millimetres, seats
numbered clockwise from the bottom edge). Each seat has a zone along its edge, one card deep:
the discard pile lies at the player's right end of it (``pile_centre``) and, at the end of the
game, the hand is spread out to the pile's left. Everything else face up is the railway, laid
end to end in the middle; its start is marked by the printed start tile (ArUco marker
``START_MARKER_ID``, the green arrow of the rulebook's picture), put just before the first card.
The wooden train stands on the railway.
"""

from __future__ import annotations

import numpy as np

from vision.faces import CARD_WIDTH_MM
from vision.imaging import Points
from vision.table import EDGE_SLOTS, Edge, outward, slot_centre

START_MARKER_ID = 4
"""ArUco id (4x4_50 dictionary, like the table markers) of the railway's start tile."""
START_MARKER_MM = 40.0
"""Printed side of the start tile's black square."""
SEAT_ZONE_MM = 150.0
"""A card whose centre is closer than this to a seat's table edge is in that seat's zone."""
SCORE_REACH_MM = 290.0
"""For the final count, cards spread out up to this far from a seat's edge are that seat's
(rows of cards in front of each player, the railway left in the middle or cleared away)."""
PILE_SLOT = EDGE_SLOTS - 1
"""The discard pile lies where the last card of a trains line would: the player's right."""
PILE_REACH_MM = 0.6 * CARD_WIDTH_MM
"""How far from the pile's place its top card may lie."""
RAILWAY_ORIGIN_MM = (250.0, 205.0)
"""Where the renderer lays the railway's first card."""
RAILWAY_PITCH_MM = (CARD_WIDTH_MM + 6.0, 100.0)
"""The renderer's spacing of railway cards along a row, and between rows."""
RAILWAY_PER_ROW = 7
"""Cards per row before the renderer's railway turns back along the next row."""
LINK_REACH_MM = 125.0
"""Neighbouring railway cards' centres lie at most this far apart (a turn included)."""
TRAIN_SIZE_MM = (40.0, 20.0)
"""Length and width of the wooden train, seen from above."""


def pile_centre(edge: Edge) -> Points:
    """The place of the discard pile of the seat at ``edge``."""
    return slot_centre(edge, PILE_SLOT)


def hand_centre(edge: Edge, index: int, cards: int) -> Points:
    """Where the renderer spreads the ``index``-th of ``cards`` hand cards (left of the pile)."""
    if cards <= PILE_SLOT:
        return slot_centre(edge, index)
    # More cards than places (rare): they overlap, and the covered ones cannot be read.
    start, end = slot_centre(edge, 0), slot_centre(edge, PILE_SLOT - 1)
    return np.asarray(start + (end - start) * index / (cards - 1), np.float64)


def railway_centre(index: int) -> Points:
    """Where the renderer lays the railway's ``index``-th card: rows that turn back and forth."""
    row, column = divmod(index, RAILWAY_PER_ROW)
    if row % 2:
        column = RAILWAY_PER_ROW - 1 - column
    x0, y0 = RAILWAY_ORIGIN_MM
    return np.array([x0 + column * RAILWAY_PITCH_MM[0], y0 + row * RAILWAY_PITCH_MM[1]],
                    np.float64)


def spread_centre(edge: Edge, index: int) -> Points:
    """Where the renderer spreads a seat's ``index``-th card for the final count: a row of
    seven along the edge, then a row of five further in (clear of the neighbours' rows)."""
    if index < EDGE_SLOTS:
        return slot_centre(edge, index)
    inner = index - EDGE_SLOTS + 1
    return np.asarray(slot_centre(edge, inner) - outward(edge) * SPREAD_ROW_MM, np.float64)


SPREAD_ROW_MM = 98.0
"""Between the rows of cards spread out for the final count."""
SPREAD_MOST = 2 * EDGE_SLOTS - 2
"""Cards the renderer can spread for one seat."""


def start_tile_centre() -> Points:
    """Where the renderer puts the start tile: just before the railway's first card."""
    x0, y0 = RAILWAY_ORIGIN_MM
    return np.array([x0 - RAILWAY_PITCH_MM[0] - 12.0, y0], np.float64)


FINAL_ROWS: dict[int, tuple[tuple[int, ...], ...]] = {
    2: (tuple(range(EDGE_SLOTS)),) * 3,
    3: (tuple(range(EDGE_SLOTS)), (1, 2, 3, 4, 5), (2, 3, 4)),
    4: (tuple(range(EDGE_SLOTS)), (1, 2, 3, 4, 5), (2, 3, 4)),
}
"""The places (line slots) of each row of a seat's cards at the final count, the railway cleared
away, by the number of players: rows nearer the middle are shorter where neighbours sit beside."""


def final_spread_centre(edge: Edge, index: int, players: int) -> Points:
    """Where the renderer lays a seat's ``index``-th card at the final count with the railway
    cleared away: the rows of ``FINAL_ROWS``, the first along the edge, then further in; more
    cards than places overlap on the last place (they cannot be read: the referee waits)."""
    for row, slots in enumerate(FINAL_ROWS[players]):
        if index < len(slots):
            inward = outward(edge) * SPREAD_ROW_MM * row
            return np.asarray(slot_centre(edge, slots[index]) - inward, np.float64)
        index -= len(slots)
    return final_spread_centre(edge, final_spread_most(players) - 1, players)


def final_spread_most(players: int) -> int:
    """How many cards a seat can spread readably at the final count (the railway cleared)."""
    return sum(len(slots) for slots in FINAL_ROWS[players])
