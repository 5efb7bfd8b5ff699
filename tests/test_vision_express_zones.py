"""Zones of an Express table: each seat's trains as rows from the player's left, Way Cars, the
discard pile's top and the special slot; anything unsure makes no observation."""

from __future__ import annotations

import numpy as np
import pytest

from host.express.cards import Kind, standard_cards
from host.express.observation import ExpressObservation, TrainSeen
from host.express.referee import parse_observation
from vision.express_zones import DISCARD_PLACE_MM, ExpressZones
from vision.faces import CARD_WIDTH_MM
from vision.readings import CardReading
from vision.table import SEAT_EDGES, Edge, Placement, edge_direction, edge_distance, outward

CARDS = standard_cards()
WAY_CARS = frozenset(name for name in CARDS.info if CARDS.kind(name) is Kind.WAYCAR)
PITCH_MM = CARD_WIDTH_MM + 6.0
ROW_DEPTH_MM = (75.0, 165.0, 245.0)
"""Distance from the edge of each row's centre: the first train nearest the player."""


def card(name: str | None, centre: np.ndarray, degrees: float) -> CardReading:
    corners = Placement((float(centre[0]), float(centre[1])), degrees).corners()
    return CardReading(None if name is None else f"express/{name}", 1.0, corners, corners)


def seat_cards(edge: Edge, rows: list[list[str | None]]) -> list[CardReading]:
    """Rows of cards in front of the seat at ``edge``, each from the player's left."""
    middle = np.array(DISCARD_PLACE_MM)
    laid = []
    for depth, row in zip(ROW_DEPTH_MM, rows, strict=False):
        reach = edge_distance(edge, middle)
        start = middle + outward(edge) * (reach - depth)
        for place, name in enumerate(row):
            along = (place - (len(row) - 1) / 2) * PITCH_MM
            laid.append(card(name, start + edge_direction(edge) * along, edge.facing_degrees))
    return laid


def middle_cards(discard: str | None, special: list[str]) -> list[CardReading]:
    """The draw pile (face down) left of the discard pile, the special slot right of it."""
    x, y = DISCARD_PLACE_MM
    laid = [card(None, np.array([x - 1.3 * PITCH_MM, y]), 0.0)]
    if discard is not None:
        laid.append(card(discard, np.array([x, y]), 3.0))
    laid += [card(name, np.array([x + (1.3 + n) * PITCH_MM, y]), 0.0)
             for n, name in enumerate(special)]
    return laid


def shuffled(cards: list[CardReading], seed: int) -> list[CardReading]:
    return [cards[i] for i in np.random.default_rng(seed).permutation(len(cards))]


def test_a_two_seat_table_reads_as_its_trains_way_cars_and_discards() -> None:
    bottom, top = SEAT_EDGES[2]
    laid = [
        *seat_cards(bottom, [[None, "box-car", "box-car", "wild", "caboose"],
                             ["diesel", "mail", "coach"],
                             ["boom"]]),
        *seat_cards(top, [[None, "tank-car"]]),
        *middle_cards("reefer", ["derailment", "steal"]),
    ]
    read = ExpressZones(2, WAY_CARS).observation(shuffled(laid, 4))
    assert read == ExpressObservation(
        trains=((TrainSeen("face-down", ("box-car", "box-car", "wild:box-car", "caboose")),
                 TrainSeen("diesel", ("mail", "coach"))),
                (TrainSeen("face-down", ("tank-car",)),)),
        way_cars=(("boom",), ()),
        discard="reefer",
        special=("derailment", "steal"),
    )
    # What the zones read is an observation the referee takes.
    parse_observation(read.to_json(), 2, CARDS)


def test_each_seat_reads_its_trains_from_its_own_left() -> None:
    laid = [card for seat, edge in enumerate(SEAT_EDGES[4])
            for card in seat_cards(edge, [[None, "box-car", "box-car"], [None, f"{'mail'}"]]
                                   if seat == 1 else [[None, "flat-car"]])]
    read = ExpressZones(4, WAY_CARS).observation(shuffled([*laid, *middle_cards(None, [])], 9))
    assert read is not None
    assert read.trains[1] == (TrainSeen("face-down", ("box-car", "box-car")),
                              TrainSeen("face-down", ("mail",)))
    assert [len(trains) for trains in read.trains] == [1, 2, 1, 1]
    assert read.discard is None and read.special == ()


@pytest.mark.parametrize("rows", [
    [[None, "box-car", None]],                  # a car the recognizer could not name
    [["box-car", "box-car"]],                   # a row that does not start with a Loco
])
def test_a_table_not_read_for_sure_makes_no_observation(rows: list[list[str | None]]) -> None:
    bottom, top = SEAT_EDGES[2]
    laid = [*seat_cards(bottom, rows), *seat_cards(top, [[None, "tank-car"]]),
            *middle_cards("reefer", [])]
    assert ExpressZones(2, WAY_CARS).observation(laid) is None


def test_a_wild_car_its_mixed_train_does_not_settle_is_left_for_the_players_to_type() -> None:
    """During play the players say its type on the web view (the referee asks); the final
    count from a photo is never scored by guess."""
    bottom, top = SEAT_EDGES[2]
    laid = [*seat_cards(bottom, [[None, "mail", "wild", "coach"]]),
            *seat_cards(top, [[None, "tank-car"]]), *middle_cards("reefer", [])]
    read = ExpressZones(2, WAY_CARS).observation(laid)
    assert read is not None and read.trains[0] == (TrainSeen("face-down",
                                                             ("mail", "wild", "coach")),)
    assert ExpressZones(2, WAY_CARS).final_count(laid) is None
