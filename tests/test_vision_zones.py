"""Zones of The Game of Trains: lines in each player's left-to-right order, face-up cards, locks."""

import numpy as np
import pytest

from vision.faces import CARD_HEIGHT_MM, CARD_WIDTH_MM
from vision.pipeline import Pipeline
from vision.readings import CardReading
from vision.scene import random_trains_table, render_table
from vision.table import SEAT_EDGES, Edge, Placement, edge_direction, slot_centre
from vision.trains_zones import TrainsZones, trains_observation


@pytest.mark.parametrize("seed", [11, 12, 13, 14, 15, 16])
def test_a_rendered_table_reads_as_the_observation_it_was_drawn_from(seed: int) -> None:
    table = random_trains_table(seed)
    image, _ = render_table(table, seed, "easy")
    assert Pipeline(zones=TrainsZones()).read(image).observation == table


def test_each_player_reads_their_line_from_their_own_left() -> None:
    # Seen from above with seat 0 at the bottom: bottom reads left to right, the left edge's
    # player top to bottom, the top edge's right to left, the right edge's bottom to top.
    assert np.allclose(edge_direction(Edge.BOTTOM), [1, 0])
    assert np.allclose(edge_direction(Edge.LEFT), [0, 1])
    assert np.allclose(edge_direction(Edge.TOP), [-1, 0])
    assert np.allclose(edge_direction(Edge.RIGHT), [0, -1])
    assert SEAT_EDGES[4] == (Edge.BOTTOM, Edge.LEFT, Edge.TOP, Edge.RIGHT)


def _reading(name: str, edge: Edge, slot: int, shift: float = 0.0) -> CardReading:
    centre = slot_centre(edge, slot) + edge_direction(edge) * shift
    table = Placement((float(centre[0]), float(centre[1])), edge.facing_degrees).corners()
    return CardReading(name, 1.0, table, table)


def test_cards_out_of_order_on_the_table_come_out_in_seat_order_and_gaps_are_incomplete() -> None:
    numbers = {Edge.BOTTOM: [1, 2, 3, 4, 5, 6, 7], Edge.TOP: [8, 9, 10, 11, 12, 13, 14]}
    cards = [_reading(f"trains/{n}", edge, slot) for edge, line in numbers.items()
             for slot, n in enumerate(line)]
    blank = np.full((720, 1280), 128, np.uint8)
    shuffled = [cards[i] for i in np.random.default_rng(3).permutation(len(cards))]
    observation = trains_observation(shuffled, blank, players=2)
    assert observation is not None
    assert observation.lines == ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14))
    assert observation.locks == ()
    # A card missing from a line (a hand over it) makes the reading incomplete, not shorter.
    assert trains_observation(shuffled[1:], blank, players=2) is None
    # An unknown card keeps its place, as null.
    unknown = [CardReading(None, 0.0, c.corners, c.table_corners) if c.name == "trains/3" else c
               for c in shuffled]
    read = trains_observation(unknown, blank, players=2)
    assert read is not None and read.lines[0] == (1, 2, None, 4, 5, 6, 7)


def test_a_card_lying_in_the_middle_is_face_up() -> None:
    lines = [_reading(f"trains/{10 * s + k + 1}", edge, k)
             for s, edge in enumerate(SEAT_EDGES[3]) for k in range(7)]
    middle = Placement((450.0, 300.0), 10.0).corners(CARD_WIDTH_MM, CARD_HEIGHT_MM)
    faceup = CardReading("trains/70", 1.0, middle, middle)
    read = trains_observation([*lines, faceup], np.zeros((10, 10), np.uint8))
    assert read is not None
    assert read.faceup == (70,)
    assert [line[0] for line in read.lines] == [1, 11, 21]


@pytest.mark.parametrize("seed", [21, 38])
def test_lock_tabs_are_read_only_where_a_protect_card_lies(seed: int) -> None:
    table = random_trains_table(seed, players=4)
    assert len(table.locks) >= 3  # the seeds are chosen so, and every other slot is free
    image, _ = render_table(table, seed, "easy")
    read = Pipeline(zones=TrainsZones()).read(image).observation
    assert read is not None
    assert set(read.locks) == set(table.locks)


def test_a_card_swapped_in_place_between_frames_is_read_afresh() -> None:
    # Still cards keep last frame's identity; a different card in the same place must not.
    from vision.scene import Look, difficulty, lay_table, photograph, trains_layout

    before = random_trains_table(51, players=2)
    shown = {*before.lines[0], *before.lines[1], *before.faceup}
    changed = next(n for n in range(84, 0, -1) if n not in shown)
    after = type(before)(((*before.lines[0][:2], changed, *before.lines[0][3:]),
                          before.lines[1]), before.faceup, before.locks)
    look = Look.draw(51, difficulty("easy"))
    frames = [photograph(lay_table(trains_layout(table, 51), look), shot)[0]
              for shot, table in enumerate((before, before, after))]
    pipeline = Pipeline(zones=TrainsZones(2))
    readings = [pipeline.read(frame).observation for frame in frames]
    assert readings == [before, before, after]


def test_a_card_swapped_for_one_a_single_digit_apart_is_read_afresh() -> None:
    # A draw seen by the rendered camera: seat 1's 75 is replaced by the 35 in the same place
    # and laid face up. 75 for 35 changes a few percent of the window, too little for the mean
    # grey change; a stale 75 would be a wrong identity, the worst error the recognizer can make.
    from host.trains.observation import TrainsObservation
    from vision.camera import RenderedCamera
    from vision.stabilizer import Stabilizer

    tables = [
        {"lines": [[78, 47, 33, 22, 40, 12, 48], [75, 66, 56, 51, 28, 21, 65]], "faceup": [5]},
        {"lines": [[78, 47, 33, 22, 40, 12, 48], [35, 66, 56, 51, 28, 21, 65]], "faceup": [5, 75]},
    ]
    observations = [TrainsObservation.from_json({**table, "locks": []}) for table in tables]
    pipeline, stable = Pipeline(zones=TrainsZones(2)), Stabilizer[TrainsObservation]()
    reported = []
    for frame in RenderedCamera(observations, seed=2):
        change = stable.feed(frame.timestamp, pipeline.read(frame.image).observation)
        if change is not None:
            reported.append(change)
    assert reported == observations
