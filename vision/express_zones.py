"""Zones of an Express table: each seat's trains as rows of cards in front of the player, its
Way Cars, the discard pile's top card and the special discard slot.

A card within ``SEAT_REACH_MM`` of a seat's edge is that seat's. Its cards lie in rows along the
edge, one train a row, the first train nearest the player; each row reads from the player's
left: the Loco (a face-down card, which the recognizer finds but cannot name, or the Diesel Loco
face up), then the cars. Way Cars lie in the seat's zone too and are told apart by name. In the
middle, the card on the discard pile's place is the pile's top; the other named cards there are
the special discard slot, oldest (leftmost) first; cards face down there are the draw pile.
Whatever cannot be read for sure (a car without a name, a row not starting with a Loco, a Wild
Car whose type its train does not settle) makes the frame incomplete (None), never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from host.express.observation import ExpressObservation, TrainSeen
from vision.imaging import Points
from vision.readings import CardReading, TableFrame
from vision.table import (
    SEAT_EDGES,
    TABLE_HEIGHT_MM,
    TABLE_WIDTH_MM,
    Edge,
    edge_direction,
    edge_distance,
)

DECK_PREFIX = "express/"
SEAT_REACH_MM = 260.0
"""How far from a seat's edge its trains may lie (three rows of cards)."""
ROW_TOLERANCE_MM = 30.0
"""Cards whose distances from the edge differ by less than this lie in the same row."""
DISCARD_PLACE_MM = (TABLE_WIDTH_MM / 2, TABLE_HEIGHT_MM / 2)
"""Where the discard pile lies: the middle of the table (the draw pile to its left, the special
slot to its right)."""
DISCARD_REACH_MM = 45.0
"""How far from its place the discard pile's top card may lie."""


@dataclass(frozen=True)
class ExpressZones:
    """The zones of an Express table (a ``vision.readings.Zones``)."""

    players: int
    """Seats at the table (2-4: the table's edges)."""
    way_cars: frozenset[str]
    """The Way Cars' card names (deck data: ``boom``, ``light-crane``, ...)."""
    diesel: str = "diesel"
    """The Diesel Loco's card name."""
    wild: str = "wild"
    """The Wild Car's card name."""

    def observe(self, frame: TableFrame) -> tuple[tuple[CardReading, ...],
                                                  ExpressObservation | None]:
        """The cards as read, and the observation they make (None: something is unclear)."""
        return frame.cards, self.observation(frame.cards)

    def observation(self, cards: Sequence[CardReading]) -> ExpressObservation | None:
        """The observation the cards make, or None when some part cannot be read for sure."""
        edges = SEAT_EDGES[self.players]
        zones: list[list[CardReading]] = [[] for _ in edges]
        middle: list[CardReading] = []
        for card in cards:
            if card.table_corners is None:
                return None
            centre = card.table_corners.mean(axis=0)
            distances = [edge_distance(edge, centre) for edge in edges]
            seat = int(np.argmin(distances))
            (zones[seat] if distances[seat] < SEAT_REACH_MM else middle).append(card)
        trains: list[tuple[TrainSeen, ...]] = []
        ways: list[tuple[str, ...]] = []
        for edge, zone in zip(edges, zones, strict=True):
            way = [card for card in zone if _name(card) in self.way_cars]
            seat_trains = [self._train(row) for row in _rows(edge, [
                card for card in zone if _name(card) not in self.way_cars])]
            if any(train is None for train in seat_trains):
                return None
            trains.append(tuple(train for train in seat_trains if train is not None))
            ways.append(tuple(str(_name(card)) for card in _along(edge, way)))
        discard, special = _middle(middle)
        return ExpressObservation(tuple(trains), tuple(ways), discard, special)

    def _train(self, row: list[CardReading]) -> TrainSeen | None:
        """One row as a train, or None if it does not read as one for sure."""
        names = [_name(card) for card in row]
        loco, cars = names[0], names[1:]
        if loco not in (None, self.diesel) or None in cars:
            return None
        others = {name for name in cars if name != self.wild and name != "caboose"}
        if self.wild in cars:
            if len(others) != 1:
                return None  # the Wild Car's type is the players' to say
            cars = [f"{self.wild}:{next(iter(others))}" if name == self.wild else name
                    for name in cars]
        return TrainSeen("diesel" if loco == self.diesel else "face-down",
                         tuple(str(name) for name in cars))


def _name(card: CardReading) -> str | None:
    return None if card.name is None else card.name.removeprefix(DECK_PREFIX)


def _centre(card: CardReading) -> Points:
    assert card.table_corners is not None
    return np.asarray(card.table_corners.mean(axis=0), np.float64)


def _along(edge: Edge, cards: list[CardReading]) -> list[CardReading]:
    """From the player's left to their right."""
    return sorted(cards, key=lambda card: float(_centre(card) @ edge_direction(edge)))


def _rows(edge: Edge, cards: list[CardReading]) -> list[list[CardReading]]:
    """Rows along the edge, nearest the player first, each from the player's left."""
    rows: list[list[CardReading]] = []
    depth = -np.inf
    for card in sorted(cards, key=lambda card: edge_distance(edge, _centre(card))):
        distance = edge_distance(edge, _centre(card))
        if distance - depth > ROW_TOLERANCE_MM:
            rows.append([])
            depth = distance
        rows[-1].append(card)
    return [_along(edge, row) for row in rows]


def _middle(cards: list[CardReading]) -> tuple[str | None, tuple[str, ...]]:
    """The discard pile's top and the special slot, oldest first (face-down cards left out)."""
    named = [card for card in cards if card.name is not None]
    place = np.array(DISCARD_PLACE_MM)
    top = min(named, key=lambda card: float(np.hypot(*(_centre(card) - place))), default=None)
    if top is not None and float(np.hypot(*(_centre(top) - place))) > DISCARD_REACH_MM:
        top = None
    special = sorted((card for card in named if card is not top),
                     key=lambda card: float(_centre(card)[0]))
    return (None if top is None else _name(top)), tuple(str(_name(card)) for card in special)
