"""Rendered Express tables: each seat's trains as rows of cards in front of the player (the Loco
face down, or the Diesel face up, at the player's left), its Way Cars at the right of its first
row, and in the middle the draw pile, the discard pile's top and the special discard slot;
photographed like any other table (``vision.scene``).

The places are those ``vision.express_zones`` reads: rows ``ROW_PITCH_MM`` apart from the first
train's, nearest the player; cars ``CAR_PITCH_MM`` apart along the edge. A table whose cards
would overlap or stray into another seat's zone does not fit the marked area and raises
``TableDoesNotFit`` (a real table is larger, or its players overlap their cards).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from host.deck import load_deck
from host.express.observation import ExpressObservation, TrainSeen
from vision.express_zones import DISCARD_PLACE_MM, seat_of
from vision.imaging import Image, Points
from vision.scene import LaidCard, Look, Tabletop, difficulty, lay_table, photograph
from vision.table import (
    SEAT_EDGES,
    TABLE_HEIGHT_MM,
    TABLE_WIDTH_MM,
    Edge,
    Placement,
    edge_direction,
    edge_distance,
    outward,
)

FIRST_ROW_MM = 52.0
"""How far from its edge the first train's row lies (card centres)."""
ROW_PITCH_MM = 96.0
"""Distance between two rows of trains."""
CAR_PITCH_MM = 70.0
"""Distance between two cards of a row."""
ROW_START_MM = 75.0
"""How far from the player's left corner of the table the first card of a row lies (the
markers sit in the corners)."""
MIDDLE_PITCH_MM = 90.0
"""Distance from the discard pile to the draw pile (left) and the special slot (right)."""


class TableDoesNotFit(ValueError):
    """The table's cards cannot all lie apart within the marked area."""


LEFT_NEIGHBOUR = {Edge.BOTTOM: Edge.LEFT, Edge.LEFT: Edge.TOP, Edge.TOP: Edge.RIGHT,
                  Edge.RIGHT: Edge.BOTTOM}
"""The edge at each seat's left-hand corner of the table."""


def place(edge: Edge, row: int, slot: int, players: int) -> Points:
    """Centre of card ``slot`` (0: the player's leftmost) of row ``row`` (0: nearest the
    player) in front of the seat at ``edge``. With a seat at the left-hand corner's other
    edge, a row starts as far from that edge as it lies from its own, so each card stays
    nearest its own player's edge."""
    middle = np.array(DISCARD_PLACE_MM)
    length = TABLE_WIDTH_MM if edge in (Edge.BOTTOM, Edge.TOP) else TABLE_HEIGHT_MM
    depth = FIRST_ROW_MM + row * ROW_PITCH_MM
    start = max(ROW_START_MM, depth + CAR_PITCH_MM / 2) \
        if LEFT_NEIGHBOUR[edge] in SEAT_EDGES[players] else ROW_START_MM
    along = -length / 2 + start + slot * CAR_PITCH_MM
    return np.asarray(middle + outward(edge) * (edge_distance(edge, middle) - depth)
                      + edge_direction(edge) * along, np.float64)


def middle_place(offset: int) -> Points:
    """Centre of a card in the middle: 0 the discard pile, -1 the draw pile, 1, 2, ... the
    special slot from its oldest card."""
    x, y = DISCARD_PLACE_MM
    return np.array([x + offset * MIDDLE_PITCH_MM, y], np.float64)


def _train_cards(train: TrainSeen) -> list[str | None]:
    """A train's cards from the Loco on: None for a face-down Loco; a Wild Car as itself."""
    loco = "diesel" if train.loco == "diesel" else None
    return [loco, *(car.split(":", 1)[0] for car in train.cars)]


def express_layout(observation: ExpressObservation, seed: int, jitter_degrees: float = 3.0,
                   hands: Sequence[Sequence[str]] = ()) -> list[LaidCard]:
    """The cards of an Express table as players lay them (a little crooked); ``hands``, at the
    final count, each seat's cards left in hand, spread in a row beyond its trains."""
    players = len(observation.trains)
    if players not in SEAT_EDGES:
        raise TableDoesNotFit(f"rendered Express tables seat 2 to 4, not {players}")
    rng = np.random.default_rng([seed, 41])
    laid: list[LaidCard] = []
    meant: list[LaidCard] = []  # where each card belongs, before a player's hand lays it

    def lay(name: str | None, centre: Points, degrees: float, zone: str) -> None:
        turn = degrees + float(rng.normal(0, jitter_degrees / 2))
        at = centre + rng.normal(0, 1.5, 2)
        card = "" if name is None else f"express/{name}"
        laid.append(LaidCard(card, Placement((float(at[0]), float(at[1])), turn), name is None,
                             zone))
        meant.append(LaidCard(card, Placement((float(centre[0]), float(centre[1])), degrees),
                              name is None, zone))

    for seat, edge in enumerate(SEAT_EDGES[players]):
        for row, train in enumerate(observation.trains[seat]):
            for slot, name in enumerate(_train_cards(train)):
                lay(name, place(edge, row, slot, players), edge.facing_degrees,
                    f"train {seat} {row}")
        for slot, name in enumerate(hands[seat] if hands else ()):
            lay(name, place(edge, len(observation.trains[seat]), slot, players),
                edge.facing_degrees,
                f"hand {seat}")
        slots = int((TABLE_WIDTH_MM if edge in (Edge.BOTTOM, Edge.TOP) else TABLE_HEIGHT_MM)
                    - 2 * ROW_START_MM) // int(CAR_PITCH_MM) + 1
        for index, name in enumerate(observation.way_cars[seat]):
            lay(name, place(edge, 0, slots - 1 - index, players), edge.facing_degrees,
                f"way {seat}")
    for depth in range(int(rng.integers(3, 7))):
        lay(None, middle_place(-1) + depth * 0.4, 90.0, "pile")
    if observation.discard is not None:
        lay(observation.discard, middle_place(0), 0.0, "discard")
    for index, name in enumerate(observation.special):
        lay(name, middle_place(1 + index), 0.0, f"special {index}")
    _check_fit(meant, players)
    return laid


def _check_fit(laid: Sequence[LaidCard], players: int) -> None:
    """TableDoesNotFit unless every card lies on the table, apart from the others, and in its
    own seat's zone (the pile's cards are stacked on purpose)."""
    boxes = []
    for card in laid:
        corners = card.placement.corners()
        low, high = corners.min(axis=0), corners.max(axis=0)
        if low[0] < 0 or low[1] < 0 or high[0] > TABLE_WIDTH_MM or high[1] > TABLE_HEIGHT_MM:
            raise TableDoesNotFit(f"{card.zone} runs off the marked area")
        seat = seat_of(np.array(card.placement.centre), players)
        owner = (int(card.zone.split()[1]) if card.zone.startswith(("train", "way", "hand"))
                 else None)
        if seat != owner:
            raise TableDoesNotFit(f"{card.zone} strays out of its zone")
        if card.zone != "pile":
            boxes.append((low, high, card.zone))
    for index, (low, high, zone) in enumerate(boxes):
        for other_low, other_high, other in boxes[index + 1:]:
            if np.all(low < other_high) and np.all(other_low < high):
                raise TableDoesNotFit(f"{zone} and {other} overlap")


def lay_express(observation: ExpressObservation, look: Look, seed: int) -> Tabletop:
    """An Express table drawn for ``look`` (cards laid from ``seed``), ready to photograph."""
    return lay_table(express_layout(observation, seed, look.level.jitter_degrees), look)


def render_express(observation: ExpressObservation, seed: int, level: str = "easy",
                   held: Sequence[Sequence[str]] = ()) -> Image:
    """A photograph of an Express table (no hand over it); ``held``: at the final count, each
    seat's cards left in hand, spread out (``express_layout``)."""
    look = Look.draw(seed, difficulty(level))
    table = lay_table(express_layout(observation, seed, look.level.jitter_degrees, held), look)
    image, _ = photograph(table, 0, hands=0)
    return image


def random_express_table(seed: int, players: int = 2) -> ExpressObservation:
    """A seeded random Express table that fits the marked area, for tests and benchmarks:
    1-3 trains a seat of a Loco (face down, or the Diesel) and 0-6 cars of one kind, Way Cars,
    a discard pile's top and up to two special discards, drawn from one deck."""
    rng = random.Random(seed)
    deck = load_deck("express")
    kinds = {card.name: card.text("kind") for card in deck.cards}
    ways = [name for name, kind in kinds.items() if kind == "waycar"]
    specials = [name for name, kind in kinds.items() if kind in ("disaster", "turntable")]

    def order(name: str) -> int:
        return deck.card(name).number("order") if kinds[name] == "passenger" else 0

    while True:
        left = [card.name for card in deck.cards for _ in range(card.count)
                if card.text("kind") in ("freight", "passenger", "diesel")]
        rng.shuffle(left)
        trains = []
        for _ in range(players):
            seat = []
            for _ in range(rng.randint(1, 3)):
                loco = "diesel" if rng.random() < 0.3 and "diesel" in left else "face-down"
                if loco == "diesel":
                    left.remove("diesel")
                first = next(name for name in left if name != "diesel")
                kind = kinds[first]
                cars = [name for name in left if kinds[name] == kind
                        and (kind == "passenger" or name == first)][:rng.randint(0, 6)]
                for name in cars:
                    left.remove(name)
                seat.append(TrainSeen(loco, tuple(sorted(cars, key=order))))
            trains.append(tuple(seat))
        rng.shuffle(ways)
        table = ExpressObservation(
            tuple(trains), tuple(tuple(ways[seat:seat + rng.randint(0, 1)])
                                 for seat in range(players)),
            rng.choice([None, *left]), tuple(rng.sample(specials, rng.randint(0, 2))))
        try:
            express_layout(table, seed)
        except TableDoesNotFit:
            continue
        return table

