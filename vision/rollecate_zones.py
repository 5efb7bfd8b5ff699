"""Zones of a Rollecate table: the railway in order from its start, the train, the discard piles
and the spread hands (the layout is in ``vision.rollecate_table``).

A card in a seat's zone is that seat's: the one on the pile's place is the top of its discard
pile, the others are its hand, spread out at the end of the game. Every other card is railway.
The railway is followed from the card nearest the start tile to each next nearest card; a card
it cannot reach (one being carried over the table), an unreadable card, an unseen start tile or
train all make the frame incomplete (None) rather than a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from host.rollecate.observation import RollecateObservation
from vision.imaging import Image, Matrix, Points, grey
from vision.readings import CardReading, TableFrame
from vision.rollecate_table import (
    LINK_REACH_MM,
    PILE_REACH_MM,
    SCORE_REACH_MM,
    SEAT_ZONE_MM,
    START_MARKER_ID,
    TRAIN_SIZE_MM,
    pile_centre,
)
from vision.table import SEAT_EDGES, Edge, edge_direction, edge_distance, slot_centre
from vision.train_piece import find_train

DECK_PREFIX = "rollecate/"
TRAIN_MARGIN_MM = 7.0
"""Rows either side of the train's body also left out when reading the card it stands on: its
wheels stick out at the sides, and it casts a shadow."""


@dataclass(frozen=True)
class RollecateZones:
    """The zones of a Rollecate table (a ``vision.readings.Zones``)."""

    players: int
    """Seats at the table (2-4)."""

    def observe(self, frame: TableFrame) -> tuple[tuple[CardReading, ...],
                                                  RollecateObservation | None]:
        """The cards (the one the train stands on read again without the train's band) and
        the observation they make (None: some part of the table cannot be read)."""
        cards = frame.cards
        to_table = frame.image_to_table
        train = find_train(frame.image, to_table, [
            card.table_corners for card in cards if card.table_corners is not None
            and seat_of(card.table_corners.mean(axis=0), self.players) is None])
        if train is not None:
            half = TRAIN_SIZE_MM[1] / 2 + TRAIN_MARGIN_MM
            cards = tuple(
                frame.reread(index, train, half)
                if card.table_corners is not None and lies_on(train, card.table_corners)
                else card for index, card in enumerate(cards))
        observation = rollecate_observation(
            cards, self.players, train, frame.marker_on_table(START_MARKER_ID),
            covered_piles(frame.image, to_table, self.players, cards))
        return cards, observation


def seat_of(point: Points, players: int) -> int | None:
    """The seat whose zone holds a table point, or None (the middle of the table)."""
    distances = [edge_distance(edge, point) for edge in SEAT_EDGES[players]]
    seat = int(np.argmin(distances))
    return seat if distances[seat] < SEAT_ZONE_MM else None


def rollecate_observation(cards: Sequence[CardReading], players: int, train_at: Points | None,
                          start: Points | None, covered: frozenset[int] = frozenset()
                          ) -> RollecateObservation | None:
    """The observation the table makes, or None when some part of it cannot be read.

    ``train_at`` is where the train was found (``vision.train_piece``) and ``start`` the start
    tile's centre, both in table millimetres, if they were seen. ``covered``: seats whose
    pile's place looks covered by a card (``covered_piles``): a pile read there as empty is a
    card not found, not an empty pile.
    """
    zones: list[list[tuple[Points, str]]] = [[] for _ in range(players)]
    middle: list[tuple[Points, str, Points]] = []
    placed: list[tuple[Points, str]] = []
    for card in cards:
        if card.name is None or card.table_corners is None:
            return None
        name = card.name.removeprefix(DECK_PREFIX)
        centre = card.table_corners.mean(axis=0)
        placed.append((centre, name))
        seat = seat_of(centre, players)
        if seat is None:
            middle.append((centre, name, card.table_corners))
        else:
            zones[seat].append((centre, name))
    order = _railway_links([centre for centre, _, _ in middle], start) if start is not None \
        else []
    if not order:
        return final_count(placed, players)  # no railway: cleared away for the final count
    if train_at is None:
        return None
    # Cards off the railway in the middle: the final count's inner rows, or a card on its
    # way somewhere (the frame is incomplete).
    further = _spread_further([middle[i][:2] for i in range(len(middle)) if i not in order],
                              players)
    if further is None:
        return None
    train = _card_under(train_at, [middle[i][2] for i in order])
    if train is None:
        return None
    piles: list[tuple[str, ...]] = []
    hands: list[tuple[str, ...]] = []
    for seat, edge in enumerate(SEAT_EDGES[players]):
        place = pile_centre(edge)
        on_place = [(float(np.hypot(*(centre - place))), index)
                    for index, (centre, _) in enumerate(zones[seat])]
        distance, nearest = min(on_place, default=(np.inf, -1))
        pile_index = nearest if distance < PILE_REACH_MM else -1
        if pile_index < 0 and seat in covered:
            return None
        piles.append((zones[seat][pile_index][1],) if pile_index >= 0 else ())
        rest = sorted((float(centre @ edge_direction(edge)), name)
                      for index, (centre, name) in enumerate(zones[seat]) if index != pile_index)
        hands.append(tuple(name for _, name in rest))
    railway = tuple(middle[i][1] for i in order)
    if not any(piles) and (any(hands) or any(further)):
        # Every pile's place empty, cards spread in front of the players: the final count.
        spread = tuple(tuple(sorted((*hand, *more))) for hand, more in zip(hands, further,
                                                                            strict=True))
        return RollecateObservation(railway, train, tuple(piles), spread=spread)
    if any(further):
        return None  # cards off the railway while a pile still stands: not a final count
    return RollecateObservation(
        railway=railway, train=train, discard=tuple(piles),
        hands=tuple(hands) if any(hands) else None)


def final_count(placed: list[tuple[Points, str]], players: int) -> RollecateObservation | None:
    """The final count with the railway cleared away: every card (centre, name) is the seat's
    whose edge is nearest, within ``SCORE_REACH_MM``; None if a card lies further in or no card
    shows (a table with no railway and no spread cannot be told from a bad frame)."""
    spread = _spread_further(placed, players)
    if spread is None or not placed:
        return None
    return RollecateObservation((), 0, tuple(() for _ in range(players)),
                                spread=tuple(tuple(sorted(names)) for names in spread))


def _spread_further(cards: list[tuple[Points, str]], players: int
                    ) -> list[tuple[str, ...]] | None:
    """Each seat's cards among ``cards`` (off the railway, beyond the seats' zones): the rows
    of a final count within ``SCORE_REACH_MM`` of a seat's edge; None if a card lies anywhere
    else."""
    found: list[list[str]] = [[] for _ in range(players)]
    edges = SEAT_EDGES[players]
    for centre, name in cards:
        distances = [edge_distance(edge, centre) for edge in edges]
        seat = int(np.argmin(distances))
        if distances[seat] >= SCORE_REACH_MM:
            return None
        found[seat].append(name)
    return [tuple(names) for names in found]


def lies_on(point: Points, corners: Points) -> bool:
    """True if a table point lies on the card with these corners (its edge included)."""
    return cv2.pointPolygonTest(corners.astype(np.float32), (float(point[0]), float(point[1])),
                                False) >= 0


def _card_under(point: Points, cards: list[Points]) -> int | None:
    """The position of the card whose outline holds ``point``."""
    return next((index for index, corners in enumerate(cards) if lies_on(point, corners)), None)


@dataclass(frozen=True)
class SpreadTable:
    """The end of a game, every card spread out in front of the player it belongs to."""

    seats: tuple[tuple[str, ...], ...]
    """Each seat's cards (discard pile and hand together), from the player's left."""
    railway: int
    """Cards left out as the railway (linked to the start tile)."""
    unread: int
    """Cards found but not read (a photo with any is not scored)."""


def spread_cards(cards: Sequence[CardReading], start: Points | None,
                 players: int | None = None) -> SpreadTable | None:
    """Each seat's cards in a photo of the final count, or None if the seats are unclear.

    A card belongs to the seat whose table edge is nearest, within ``SCORE_REACH_MM``; the
    railway (every card linked to the start tile, when it shows) and cards in the middle are
    left out. ``players`` fixes the seats; None takes the edges cards lie along.
    """
    railway: set[int] = set()
    placed = [card for card in cards if card.table_corners is not None]
    centres = [card.table_corners.mean(axis=0) for card in placed
               if card.table_corners is not None]
    if start is not None:
        order = _railway_links(centres, start)
        railway = set(order)
    near: dict[Edge, list[int]] = {edge: [] for edge in Edge}
    for index, centre in enumerate(centres):
        if index in railway:
            continue
        edge = min(Edge, key=lambda side: edge_distance(side, centre))
        if edge_distance(edge, centre) < SCORE_REACH_MM:
            near[edge].append(index)
    edges = SEAT_EDGES.get(players or 0) or next(
        (edges for edges in SEAT_EDGES.values() if set(edges) == {e for e in Edge if near[e]}),
        None)
    if edges is None or any(near[edge] for edge in Edge if edge not in edges):
        return None
    seats = tuple(
        tuple(placed[index].name or "" for index in sorted(
            near[edge], key=lambda i: float(centres[i] @ edge_direction(edge))))
        for edge in edges)
    unread = sum(1 for seat in seats for name in seat if not name)
    return SpreadTable(tuple(tuple(name.removeprefix(DECK_PREFIX) for name in seat if name)
                             for seat in seats), len(railway), unread)


def _railway_links(centres: list[Points], start: Points) -> list[int]:
    """The cards linked card to card from the start tile (the railway, whatever else lies
    about)."""
    points = np.array(centres) if centres else np.zeros((0, 2))
    here, left, order = start, list(range(len(centres))), []
    while left:
        distances = np.hypot(*(points[left] - here).T)
        nearest = int(np.argmin(distances))
        if distances[nearest] > LINK_REACH_MM:
            break
        here = points[left[nearest]]
        order.append(left.pop(nearest))
    return order


PAPER_STEP = 35.0
"""How much lighter (grey levels) than the empty cloth beside it a pile's place must be to look
covered by a card, and at most how much darker than the cards that were found."""
PAPER_BOX_MM = (36.0, 56.0)
"""The part of a pile's place compared: well inside a card lying there a little crooked."""


def covered_piles(frame: Image, image_to_table: Matrix, players: int,
                  cards: Sequence[CardReading]) -> frozenset[int]:
    """Seats whose pile's place looks like a card (lighter than the cloth where no card lies,
    nearly as light as the cards found): a pile the recognizer did not find there must not be
    read as empty."""
    centres = [card.table_corners.mean(axis=0) for card in cards
               if card.table_corners is not None]
    if not centres:
        return frozenset()
    # How a card lying there would look, measured the same way on cards that were found.
    card = float(np.median([_grey_box(frame, image_to_table, centre) for centre in centres[:6]]))
    covered = set()
    for seat, edge in enumerate(SEAT_EDGES[players]):
        place = pile_centre(edge)
        if any(np.hypot(*(centre - place)) < PILE_REACH_MM for centre in centres):
            continue  # a card was found there
        # The cloth beside the pile, where no card was found (in play, hands are held).
        free = next((spot for spot in (slot_centre(edge, slot) for slot in (3, 2, 4, 1))
                     if all(np.hypot(*(centre - spot)) > 70.0 for centre in centres)), None)
        if free is None:
            continue
        cloth = _grey_box(frame, image_to_table, free)
        pile = _grey_box(frame, image_to_table, place)
        if pile - cloth > PAPER_STEP and pile > card - PAPER_STEP:
            covered.add(seat)
    return frozenset(covered)


def _grey_box(frame: Image, image_to_table: Matrix, centre: Points) -> float:
    """Mean grey level of a ``PAPER_BOX_MM`` box round a table point."""
    width, height = PAPER_BOX_MM
    box_to_table = np.array([[1.0, 0, centre[0] - width / 2], [0, 1.0, centre[1] - height / 2],
                             [0, 0, 1]])
    to_image = np.linalg.inv(image_to_table) @ box_to_table
    box = cv2.warpPerspective(grey(frame), to_image, (int(width), int(height)),
                              flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP)
    return float(np.mean(box))
