"""Rollecate through the camera: the railway in order from the start tile, the wooden train,
the discard piles' top cards and the spread hands, read from rendered photographs."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from host.deck import load_deck
from host.rollecate.observation import RollecateObservation
from vision.faces import render_face
from vision.identify import face_patch, rendered_references
from vision.pipeline import Pipeline
from vision.readings import CardReading
from vision.rollecate_scene import (
    TrainPiece,
    lay_rollecate,
    random_rollecate_table,
    rollecate_layout,
)
from vision.rollecate_table import START_MARKER_ID, railway_centre, start_tile_centre
from vision.rollecate_zones import RollecateZones, covered_piles, rollecate_observation
from vision.scene import Look, difficulty, lay_table, photograph
from vision.table import Placement
from vision.train_piece import find_train


def _read(observation_seed: int, look_seed: int, hands: bool = False
          ) -> tuple[RollecateObservation | None, RollecateObservation]:
    table = random_rollecate_table(observation_seed, hands=hands)
    look = Look.draw(look_seed, difficulty("easy"))
    image, _ = photograph(lay_rollecate(table, look, look_seed), 0, hands=0)
    pipeline = Pipeline(deck="rollecate", zones=RollecateZones(len(table.discard)))
    read = pipeline.read(image).observation
    assert read is None or isinstance(read, RollecateObservation)
    return read, table


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_a_rendered_table_reads_as_the_table_it_was_drawn_from(seed: int) -> None:
    read, table = _read(seed, seed, hands=seed % 2 == 0)
    assert read == table, f"seed {seed}"


def test_the_train_is_found_on_a_wood_grain_tablecloth() -> None:
    # The cloth has the train's colour: only the cards are searched.
    seed = next(s for s in range(100) if Look.draw(s, difficulty("easy")).cloth == 1)
    read, table = _read(seed, seed)
    assert read == table, f"seed {seed}"


def _cards(table: RollecateObservation, seed: int) -> list[CardReading]:
    """The table's cards as a flawless recognizer would read them."""
    laid, _ = rollecate_layout(table, seed)
    return [CardReading(card.name, 1.0, card.placement.corners(), card.placement.corners())
            for card in laid if not card.face_down]


def test_the_railway_is_followed_from_the_start_tile_whatever_order_cards_are_found_in() -> None:
    names = ("track-2", "track-4", "broken-3", "track-1", "track-1", "track-2", "track-4",
             "track-3", "track-3", "broken-1")  # one row and a turn into the next
    table = RollecateObservation(names, 8, (("track-1",), (), ("chaos-2",)))
    cards = _cards(table, 12)
    shuffled = [cards[i] for i in np.random.default_rng(5).permutation(len(cards))]
    train = railway_centre(table.train)
    read = rollecate_observation(shuffled, 3, train, start_tile_centre())
    assert read == table
    # Without the start tile the order is unknown; without the train, where she stands.
    assert rollecate_observation(shuffled, 3, train, None) is None
    assert rollecate_observation(shuffled, 3, None, start_tile_centre()) is None
    # A card carried over the middle of the table, away from the railway, is not railway yet.
    stray = Placement((450.0, 480.0), 30.0).corners()
    carried = CardReading("rollecate/track-1", 1.0, stray, stray)
    assert rollecate_observation([*shuffled, carried], 3, train, start_tile_centre()) is None
    # An unreadable card makes the frame incomplete rather than a guess.
    unknown = [replace(card, name=None) if index == 0 else card
               for index, card in enumerate(shuffled)]
    assert rollecate_observation(unknown, 3, train, start_tile_centre()) is None


def test_the_hand_is_spread_beside_the_pile_and_read_from_the_players_left() -> None:
    table = random_rollecate_table(4, players=4, hands=True)
    cards = _cards(table, 4)
    read = rollecate_observation(cards, 4, railway_centre(table.train), start_tile_centre())
    assert read is not None and read.hands == table.hands and read.discard == table.discard


def test_the_start_tile_marker_is_found_with_the_table_markers() -> None:
    table = random_rollecate_table(3)
    look = Look.draw(3, difficulty("easy"))
    image, _ = photograph(lay_rollecate(table, look, 3), 0, hands=0)
    pipeline = Pipeline(deck="rollecate", zones=RollecateZones(len(table.discard)))
    reading = pipeline.read(image)
    assert reading.image_to_table is not None
    found = pipeline.table.extra[START_MARKER_ID]
    to_table = cv2.perspectiveTransform(found.reshape(1, 1, 2), reading.image_to_table)
    assert np.hypot(*(to_table.ravel() - start_tile_centre())) < 8.0


def test_two_trains_or_none_are_not_a_train() -> None:
    table = random_rollecate_table(9)
    look = Look.draw(9, difficulty("easy"))
    laid, pieces = rollecate_layout(table, 9)
    railway = [card for card in laid if card.zone.startswith("railway")]
    other = railway[(table.train + 1) % len(railway)].placement
    extra = TrainPiece((other.centre[0], other.centre[1] + 19.0), other.degrees)
    cards = [card.placement.corners() for card in railway]
    for shown, expected in ((pieces, 1), ([pieces[0]], 0), ([*pieces, extra], 2)):
        image, truth = photograph(lay_table(laid, look, shown), 0, hands=0)
        found = find_train(image, np.linalg.inv(truth.table_to_image), cards)
        assert (found is not None) == (expected == 1), f"{expected} trains"


def test_a_card_is_told_from_its_top_half_when_the_train_hides_the_rest() -> None:
    references = rendered_references("rollecate")
    deck = load_deck("rollecate")
    for card in deck.cards:
        face = render_face(card, 3.0)
        # Paint the band the train covers (its rails, and a little more) in wood colour.
        height = face.shape[0]
        face[round(height * 0.52):round(height * 0.92)] = (95, 165, 215)
        assert references.identify(face_patch(face), (0.5, 0.95)).name == card.id, card.id


def test_a_pile_card_the_recognizer_missed_is_not_read_as_an_empty_pile() -> None:
    names = ("track-2", "track-4", "broken-3", "track-1")
    table = RollecateObservation(names, 2, (("track-3",), ()))
    look = Look.draw(6, difficulty("easy"))
    image, _ = photograph(lay_rollecate(table, look, 6), 0, hands=0)
    pipeline = Pipeline(deck="rollecate", zones=RollecateZones(2))
    reading = pipeline.read(image)
    assert reading.observation == table and reading.image_to_table is not None
    # As if the pile's top card had not been found: its place still looks like a card.
    missed = [card for card in reading.cards if card.name != "rollecate/track-3"]
    assert covered_piles(image, reading.image_to_table, 2, missed) == {0}
    assert covered_piles(image, reading.image_to_table, 2, reading.cards) == set()
    corners = [card.table_corners for card in missed if card.table_corners is not None]
    train = find_train(image, reading.image_to_table, corners)
    assert train is not None
    start = start_tile_centre()
    assert rollecate_observation(missed, 2, train, start) is not None  # read as an empty pile
    assert rollecate_observation(missed, 2, train, start, frozenset({0})) is None
