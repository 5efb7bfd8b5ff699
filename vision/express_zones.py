"""Zones of an Express table: each seat's trains as rows of cards in front of the player, its
Way Cars, the discard pile's top card and the special discard slot.

A card within its seat's depth (``SEAT_DEPTH_MM``) of a seat's edge is that seat's. Its cards
lie in rows along the edge, the first train nearest the player; each row reads from the player's
left, and holds one train or several, one empty place (``TRAIN_GAP_MM``) apart: each train from
its Loco (a face-down card, which the recognizer finds but cannot name, or the Diesel Loco face
up), then its cars. Way Cars lie in the seat's zone too and are told apart by name. In the
middle, the card on the discard pile's place is the pile's top; the other named cards there are
the special discard slot, oldest first (in rows from the far side, each from the left as the
first seat sees it); cards face down there are the draw pile.
Whatever cannot be read for sure (a car without a name, a row not starting with a Loco, a Wild
Car whose type its train does not settle) makes the frame incomplete (None), never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from host.express.observation import ExpressObservation, TrainSeen
from vision.card_backs import search_backs
from vision.imaging import Image, Matrix, Points, transform_points
from vision.readings import CardReading, TableFrame
from vision.table import (
    SEAT_EDGES,
    TABLE_HEIGHT_MM,
    TABLE_WIDTH_MM,
    Edge,
    edge_direction,
    edge_distance,
    outward,
)
from vision.unread_cards import unread_card

DECK_PREFIX = "express/"
SEAT_REACH_MM = 260.0
"""How far from its edge a card tells which way its player faces (``seats_seen``)."""
LONG_EDGES = (Edge.BOTTOM, Edge.TOP)
"""The table's long edges: their seats' zones take the corners."""
SEAT_DEPTH_MM: dict[int, dict[Edge, float]] = {
    2: {Edge.BOTTOM: 282.0, Edge.TOP: 282.0},
    3: {Edge.BOTTOM: 282.0, Edge.LEFT: 282.0, Edge.RIGHT: 282.0},
    4: {Edge.BOTTOM: 188.0, Edge.TOP: 188.0, Edge.LEFT: 282.0, Edge.RIGHT: 282.0},
}
"""How far from its edge each seat's zone reaches, by the number of seats: three rows of cards
(two for the long edges of four seats, which leaves the short edges' seats room along their
edges); the rest of the table is the middle. The long edges' zones run the table's whole
length, a short edge's zone lies between them."""
ROW_TOLERANCE_MM = 30.0
"""Cards whose distances from the edge differ by less than this lie in the same row."""
CAR_GAP_MM = 100.0
"""Most distance between the centres of two neighbouring cards of a train: a train's cards lie
side by side."""
TRAIN_GAP_MM = 170.0
"""Most distance between the centres of the last card of a train and the Loco of the next in
the same row: they lie one empty place apart. A wider gap, or a gap between ``CAR_GAP_MM`` and
this one with no Loco after it, is a card the recognizer did not find."""
DISCARD_PLACE_MM = (TABLE_WIDTH_MM / 2, TABLE_HEIGHT_MM / 2)
"""Where the discard pile lies: the middle of the table (the draw pile to its left, the special
slot to its right)."""
DISCARD_REACH_MM = 45.0
"""How far from its place the discard pile's top card may lie."""


@dataclass(frozen=True)
class FinalCount:
    """An Express table at the end of a hand, as spread out for scoring."""

    table: ExpressObservation
    """Each seat's trains and Way Cars."""
    hands: tuple[tuple[str, ...], ...]
    """The cards each seat was left holding (a Wild Car as ``wild``)."""


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
        """The cards as read (the face-down ones found by their backs added, without a name),
        and the observation they make (None: something is unclear, or a back may have gone
        unfound). A face-up card the
        recognizer could not name makes no observation: it would read as a face-down Loco; nor
        does paper where no card was found (``vision.unread_cards``): a card not read."""
        cards = with_backs(frame.image, frame.image_to_table, frame.cards)
        if cards is None:
            return frame.cards, None
        if any(card.name is None for card in frame.cards) or unread_card(
                frame.image, frame.image_to_table,
                [card.table_corners for card in cards if card.table_corners is not None],
                [card.table_corners for card in frame.cards if card.table_corners is not None]):
            return cards, None
        return cards, self.observation(cards)

    def observation(self, cards: Sequence[CardReading]) -> ExpressObservation | None:
        """The observation the cards make (a card without a name lies face down), or None
        when some part cannot be read for sure."""
        read = self._read(cards, hands=False)
        return None if read is None else read[0]

    def final_count(self, cards: Sequence[CardReading]) -> FinalCount | None:
        """The table at the end of a hand, each seat's hand cards spread in a row of their own
        (the row that does not start with a Loco), or None when some part cannot be read."""
        read = self._read(cards, hands=True)
        return None if read is None else FinalCount(*read)

    def _read(self, cards: Sequence[CardReading], hands: bool
              ) -> tuple[ExpressObservation, tuple[tuple[str, ...], ...]] | None:
        edges = SEAT_EDGES[self.players]
        zones: list[list[CardReading]] = [[] for _ in edges]
        middle: list[CardReading] = []
        for card in cards:
            if card.table_corners is None:
                return None
            seat = seat_of(card.table_corners.mean(axis=0), self.players)
            (middle if seat is None else zones[seat]).append(card)
        trains: list[tuple[TrainSeen, ...]] = []
        ways: list[tuple[str, ...]] = []
        held: list[tuple[str, ...]] = []
        for edge, zone in zip(edges, zones, strict=True):
            way = [card for card in zone if _name(card) in self.way_cars]
            rows = _rows(edge, [card for card in zone if _name(card) not in self.way_cars])
            hand = [row for row in rows if hands and _name(row[0]) not in (None, self.diesel)]
            if len(hand) > 1 or any(None in map(_name, row) for row in hand):
                return None
            held.append(tuple(str(_name(card)) for row in hand for card in row))
            seat_trains = [self._train(cars, said=not hands) for row in rows
                           if row not in hand for cars in _split(row)]
            if any(train is None for train in seat_trains):
                return None
            trains.append(tuple(train for train in seat_trains if train is not None))
            ways.append(tuple(str(_name(card)) for card in _along(edge, way)))
        discard, special = _middle(middle)
        return ExpressObservation(tuple(trains), tuple(ways), discard, special), tuple(held)

    def wild_type(self, cars: Sequence[str | None]) -> str | None:
        """The type the camera gives a Wild Car in a train of these cars (names as seen): the
        one type of the other cars, Caboose aside; None if they are of several types or none."""
        others = {name for name in cars if name not in (self.wild, "caboose")}
        return str(next(iter(others))) if len(others) == 1 else None

    def _train(self, row: list[CardReading] | None, said: bool = False) -> TrainSeen | None:
        """One train's cards as a train, or None if they do not read as one for sure; a Wild
        Car whose type the table does not settle is left ``wild`` when the players will
        ``said`` it (during play, on the web view), else the train is unsure."""
        if not row:
            return None
        names = [_name(card) for card in row]
        loco, cars = names[0], names[1:]
        if loco not in (None, self.diesel) or None in cars:
            return None
        if self.wild in cars:
            settled = self.wild_type(cars)
            if settled is None and not said:
                return None  # the Wild Car's type is the players' to say
            if settled is not None:
                cars = [f"{self.wild}:{settled}" if name == self.wild else name for name in cars]
        return TrainSeen("diesel" if loco == self.diesel else "face-down",
                         tuple(str(name) for name in cars))


def with_backs(image: Image, image_to_table: Matrix, cards: Sequence[CardReading]
               ) -> tuple[CardReading, ...] | None:
    """The cards found face up, and after them those lying face down (found by their backs,
    ``vision.card_backs``), without a name; None when a back may have gone unfound."""
    search = search_backs(image, image_to_table)
    if search.unsure:
        return None
    to_image = np.asarray(np.linalg.inv(image_to_table), np.float64)
    return (*cards, *(CardReading(None, 0.0, transform_points(to_image, corners), corners)
                      for corners in search.backs))


def seats_seen(cards: Sequence[CardReading]) -> int | None:
    """How many seats a table has, from the edges its cards face (a player lays cards facing
    them; None: no seating fits)."""
    every = SEAT_EDGES[max(SEAT_EDGES)]
    used = set()
    for card in cards:
        if card.name is None or card.table_corners is None:
            continue  # a back shows no way up
        top_left, top_right, bottom_right, bottom_left = card.table_corners
        up = (top_left + top_right - bottom_left - bottom_right) / 2
        edge = max(every, key=lambda edge: float(-up @ outward(edge)))
        if edge_distance(edge, card.table_corners.mean(axis=0)) < SEAT_REACH_MM:
            used.add(edge)
    return next((players for players, edges in SEAT_EDGES.items() if set(edges) == used), None)


def seat_of(point: Points, players: int) -> int | None:
    """The seat whose zone holds a table point (``SEAT_DEPTH_MM``: the long edges' zones first,
    as they take the corners), or None: the middle of the table."""
    edges = SEAT_EDGES[players]
    for edge in sorted(edges, key=lambda edge: edge not in LONG_EDGES):
        if edge_distance(edge, point) < SEAT_DEPTH_MM[players][edge]:
            return edges.index(edge)
    return None


def _split(row: list[CardReading]) -> list[list[CardReading] | None]:
    """A row's trains, split where one empty place lies between two cards; None in place of
    the row's trains when a gap is wider than that (a card not found)."""
    trains: list[list[CardReading]] = [row[:1]]
    for before, card in pairwise(row):
        gap = float(np.hypot(*(_centre(card) - _centre(before))))
        if gap > TRAIN_GAP_MM:
            return [None]
        if gap > CAR_GAP_MM:
            trains.append([])
        trains[-1].append(card)
    return list(trains)


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
    special = [card for row in _middle_rows([card for card in named if card is not top])
               for card in row]
    return (None if top is None else _name(top)), tuple(str(_name(card)) for card in special)


def _middle_rows(cards: list[CardReading]) -> list[list[CardReading]]:
    """The special slot's rows, from the far side (as the first seat sees it), each from the
    left."""
    return [sorted(row, key=lambda card: float(_centre(card)[0]))
            for row in reversed(_rows(Edge.BOTTOM, cards))]
