"""A 1920 x 1080 webcam is read end to end: a foreign deck's table names no card wrong and at
least as many right as at 1280 x 720, a still table keeps its cards without being searched
again, and arms and shadows passing over a table make no event (``vision.scene.camera_scale``
renders the finer camera)."""

from collections.abc import Iterator

import numpy as np
import pytest

from vision.deck_scene import render_spread, spread_layout
from vision.motion_scene import judge, passing_hands
from vision.pipeline import Pipeline
from vision.readings import FrameReading
from vision.recognize import CardReferences
from vision.scene import GroundTruth, Look, difficulty, lay_table, photograph, scaled_camera
from vision.styles import StyledDeck, styled_deck
from vision.trains_zones import TrainsZones
from vision.watcher import TableWatcher

HD = 1.5
"""1920 x 1080 against 1280 x 720."""


@pytest.fixture(scope="module")
def bordered() -> tuple[StyledDeck, CardReferences]:
    """The white-bordered tuning deck and its references, enrolled from flat scans."""
    deck = styled_deck("bordered", 1)
    return deck, CardReferences(deck.deck.name, deck.card_mm, deck.scans(), complete=True)


@pytest.fixture
def hd() -> Iterator[None]:
    """Frames rendered within the test are a 1920 x 1080 webcam's."""
    with scaled_camera(HD):
        yield


def _right_and_wrong(reading: FrameReading, truth: GroundTruth, match_px: float
                     ) -> tuple[int, int]:
    """Cards in view named right, and cards named wrong (one read is matched to one card)."""
    right = wrong = 0
    for seen in truth.cards:
        if seen.occluded:
            continue
        near = [card for card in reading.cards
                if np.hypot(*np.subtract(card.centre, seen.centre)) < match_px]
        right += any(card.name == seen.name for card in near)
        wrong += any(card.name is not None and card.name != seen.name for card in near)
    return right, wrong


@pytest.mark.parametrize(("seed", "level"), [(301, "medium"), (302, "hard")])
def test_a_1080p_table_names_none_wrong_and_as_many_right_as_at_720p(
        bordered: tuple[StyledDeck, CardReferences], seed: int, level: str) -> None:
    deck, references = bordered
    counts = {}
    for scale in (1.0, HD):
        with scaled_camera(scale):
            image, truth = render_spread(deck, seed, level)
        assert image.shape[1] == round(1280 * scale)
        reading = Pipeline(deck=deck.deck.name, references=references).read(image)
        counts[scale] = _right_and_wrong(reading, truth, 15 * scale)
    (right_720, wrong_720), (right_1080, wrong_1080) = counts[1.0], counts[HD]
    assert wrong_1080 == wrong_720 == 0, (seed, level, counts)
    assert right_1080 >= right_720 > 0, (seed, level, counts)


@pytest.mark.usefixtures("hd")
def test_a_still_1080p_table_keeps_its_cards_and_is_not_searched_again(
        bordered: tuple[StyledDeck, CardReferences]) -> None:
    deck, references = bordered
    seed = 304
    table = lay_table(spread_layout(deck, seed), Look.draw(seed, difficulty("hard")), faces=deck)
    pipeline = Pipeline(deck=deck.deck.name, references=references, marker_every=1)
    first = pipeline.read(photograph(table, 0, hands=0)[0])
    named = {card.name for card in first.cards if card.name is not None}
    reader = pipeline._deck_reader
    assert reader is not None and first.image_to_table is not None and len(named) >= 10
    for shot in range(1, 5):
        reading = pipeline.read(photograph(table, shot, hands=0)[0])
        assert reading.image_to_table is not None
        assert np.array_equal(reading.image_to_table, first.image_to_table), shot
        assert reader.searched == [], shot  # nothing changed but the sensor's noise
        assert {card.name for card in reading.cards if card.name is not None} == named, shot


@pytest.mark.usefixtures("hd")
def test_arms_and_shadows_passing_over_a_1080p_table_make_no_false_event() -> None:
    # Seed 3: an arm stops dead still and swaps a railcar, a shadow sweeps across.
    clip = passing_hands(3, "easy")
    watcher = TableWatcher(Pipeline(zones=TrainsZones(len(clip.before.lines))))
    watched = judge(clip, lambda frame: watcher.read(frame.timestamp, frame.image)[1])
    assert next(iter(clip)).image.shape == (1080, 1920, 3)
    assert [event for _, event in watched.events] == [clip.before, clip.after]
    assert watched.false == watched.misread == watched.unread == watched.extra == 0
    assert not watched.missed


@pytest.mark.usefixtures("hd")
def test_a_line_of_rollecate_cards_none_of_them_named_alone_is_walked_from_its_outlines(
        ) -> None:
    """Benchmark table 307, hard, at 1080p: on the wood cloth, in dim light, every outline
    the search finds on the line along the table's near edge lies a rail's spacing off its
    card, and no card of the table was named. Guessed a rail's spacing along from those
    outlines, a card of the line names and the line is walked from it (before: 0 named)."""
    deck = styled_deck("rollecate", 1)
    references = CardReferences(deck.deck.name, deck.card_mm, deck.scans(), complete=True)
    image, truth = render_spread(deck, 307, "hard")
    reading = Pipeline(deck=deck.deck.name, references=references).read(image)
    right, wrong = _right_and_wrong(reading, truth, 15 * HD)
    assert wrong == 0
    assert right >= 3, right
