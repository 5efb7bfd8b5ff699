"""Rendered Express tables: each seat's trains as rows of cards in front of the player (the Loco
face down, or the Diesel face up, at the player's left), its Way Cars at the right of its first
row, and in the middle the draw pile, the discard pile's top and the special discard slot;
photographed like any other table (``vision.scene``).

The places are those ``vision.express_zones`` reads: in each seat's zone, rows ``ROW_PITCH_MM``
apart from the nearest the player, cards ``CAR_PITCH_MM`` apart along the edge, the trains packed
one after another with an empty place between two (``pack``); in the middle a grid round the
discard pile's place. A table whose cards would overlap or stray into another seat's zone does
not fit the marked area and raises ``TableDoesNotFit`` (a real table is larger, or its players
overlap their cards).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from host.deck import load_deck
from host.express.observation import ExpressObservation, TrainSeen
from vision.express_zones import DISCARD_PLACE_MM, LONG_EDGES, SEAT_DEPTH_MM, seat_of
from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM
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

FIRST_ROW_MM = 47.0
"""How far from its edge the first row lies (card centres)."""
ROW_PITCH_MM = 94.0
"""Distance between two rows of cards (a card's height and a 6 mm gap)."""
CAR_PITCH_MM = 68.0
"""Distance between two cards of a row (a card's width and a 5 mm gap: the recognizer finds a
card by its frame line, so cards must not touch)."""
CORNER_MM = 28.0
"""How far from a corner of the marked area cards start (the markers, 50 mm squares centred on
the corners, reach 25 mm in)."""


class TableDoesNotFit(ValueError):
    """The table's cards cannot all lie apart within the marked area."""


def _length(edge: Edge) -> float:
    return TABLE_WIDTH_MM if edge in LONG_EDGES else TABLE_HEIGHT_MM


def _span(edge: Edge, players: int) -> tuple[float, float]:
    """Where cards may lie along a seat's edge (from the player's left corner): a long edge's
    whole length but the markers, a short edge's between the long edges' seats' zones."""
    if edge in LONG_EDGES:
        return CORNER_MM, _length(edge) - CORNER_MM
    depths = SEAT_DEPTH_MM[players]
    left, right = (Edge.TOP, Edge.BOTTOM) if edge is Edge.LEFT else (Edge.BOTTOM, Edge.TOP)
    return depths.get(left, CORNER_MM), _length(edge) - depths.get(right, CORNER_MM)


def seat_places(edge: Edge, players: int) -> list[list[Points]]:
    """The card centres of each row in front of the seat at ``edge`` (nearest the player first,
    each from the player's left), within the seat's zone."""
    low, high = _span(edge, players)
    middle = np.array(DISCARD_PLACE_MM)
    rows = []
    depth = FIRST_ROW_MM
    while depth + CARD_HEIGHT_MM / 2 <= SEAT_DEPTH_MM[players][edge]:
        count = int((high - low - CARD_WIDTH_MM) // CAR_PITCH_MM) + 1
        alongs = [low + CARD_WIDTH_MM / 2 + slot * CAR_PITCH_MM - _length(edge) / 2
                  for slot in range(count)]
        rows.append([np.asarray(middle + outward(edge) * (edge_distance(edge, middle) - depth)
                                + edge_direction(edge) * along, np.float64) for along in alongs])
        depth += ROW_PITCH_MM
    return rows


def middle_places(players: int) -> list[Points]:
    """The places in the middle, in the special slot's order (rows from the far side, each from
    the left), the discard pile's place (``DISCARD_PLACE_MM``) among them."""
    x, y = DISCARD_PLACE_MM
    places = []
    for row in range(-4, 5):
        for column in range(-7, 8):
            centre = np.array([x + column * CAR_PITCH_MM, y + row * ROW_PITCH_MM], np.float64)
            corners = Placement((float(centre[0]), float(centre[1])), 0.0).corners()
            if (corners.min() >= 0 and corners[:, 0].max() <= TABLE_WIDTH_MM
                    and corners[:, 1].max() <= TABLE_HEIGHT_MM
                    and all(seat_of(corner, players) is None for corner in corners)):
                places.append(centre)
    return places


def _train_cards(train: TrainSeen) -> list[str | None]:
    """A train's cards from the Loco on: None for a face-down Loco; a Wild Car as itself."""
    loco = "diesel" if train.loco == "diesel" else None
    return [loco, *(car.split(":", 1)[0] for car in train.cars)]


def pack(groups: Sequence[Sequence[str | None]], rows: Sequence[int]) -> list[tuple[int, int]]:
    """Row and place of each card of ``groups`` (trains, then the Way Cars) laid in order in rows
    of ``rows`` places: one empty place between two groups of a row, a group that does not fit
    what is left of a row starts the next (TableDoesNotFit when none is left)."""
    spots: list[tuple[int, int]] = []
    row, used = 0, 0
    for group in groups:
        if not group:
            continue
        start = used + 1 if used else 0
        if row < len(rows) and start + len(group) > rows[row]:
            row, start = row + 1, 0
        if row >= len(rows) or start + len(group) > rows[row]:
            raise TableDoesNotFit(f"a row of {len(group)} cards does not fit in front of its seat")
        spots += [(row, start + slot) for slot in range(len(group))]
        used = start + len(group)
    return spots


def express_layout(observation: ExpressObservation, seed: int, jitter_degrees: float = 3.0,
                   hands: Sequence[Sequence[str]] = ()) -> list[LaidCard]:
    """The cards of an Express table as players lay them (a little crooked): each seat's trains
    packed in rows (``pack``), its Way Cars after them, and at the final count (``hands``) each
    seat's cards left in hand in a row of their own beyond; in the middle the draw pile, the
    discard pile's top and the special slot."""
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
        rows = seat_places(edge, players)
        groups: list[Sequence[str | None]] = [_train_cards(train)
                                              for train in observation.trains[seat]]
        groups.append(observation.way_cars[seat])
        spots = pack(groups, [len(row) for row in rows])
        names = [name for group in groups for name in group]
        for (row, slot), name in zip(spots, names, strict=True):
            lay(name, rows[row][slot], edge.facing_degrees, f"train {seat} {row}")
        held = hands[seat] if hands else ()
        if held:
            row = spots[-1][0] + 1 if spots else 0
            if row >= len(rows) or len(held) > len(rows[row]):
                raise TableDoesNotFit(f"seat {seat}'s hand does not fit in front of it")
            for slot, name in enumerate(held):
                lay(name, rows[row][slot], edge.facing_degrees, f"hand {seat}")
    middle = middle_places(players)
    discard = next(index for index, centre in enumerate(middle)
                   if np.allclose(centre, DISCARD_PLACE_MM))
    draw, rest = discard - 1, [index for index in range(len(middle))
                               if index not in (discard - 1, discard)]
    if len(observation.special) > len(rest):
        raise TableDoesNotFit(f"{len(observation.special)} special discards do not fit in "
                              "the middle")
    for depth in range(int(rng.integers(3, 7))):
        lay(None, middle[draw] + depth * 0.4, 0.0, "pile")  # upright: it fits its place
    if observation.discard is not None:
        lay(observation.discard, middle[discard], 0.0, "discard")
    for index, name in zip(rest, observation.special, strict=False):
        lay(name, middle[index], 0.0, f"special {index}")
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

