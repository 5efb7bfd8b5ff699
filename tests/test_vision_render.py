"""The renderer: our own card faces and seeded photographs of a table."""

import numpy as np
import pytest

from host.deck import load_deck
from host.trains.observation import TrainsObservation
from vision.faces import render_face
from vision.identify import face_patch, rendered_references
from vision.scene import FRAME_SIZE, random_trains_table, render_table


@pytest.mark.parametrize("deck_name", ["trains", "rollecate"])
def test_every_card_of_a_deck_has_a_face_of_its_own(deck_name: str) -> None:
    # Drawn at another resolution than the references, each face is read as itself, upright,
    # and turned round as itself again.
    references = rendered_references(deck_name)
    for card in load_deck(deck_name).cards:
        window = face_patch(render_face(card, 5.0))
        upright = references.identify(window)
        turned = references.identify(np.ascontiguousarray(window[::-1, ::-1]))
        assert (upright.name, upright.turned) == (card.id, False)
        assert (turned.name, turned.turned) == (card.id, True)


def test_a_table_photograph_is_the_same_for_the_same_seed_and_differs_for_another() -> None:
    table = random_trains_table(3, players=2)
    first, truth = render_table(table, 3, "easy")
    again, _ = render_table(table, 3, "easy")
    other, _ = render_table(table, 4, "easy")
    assert first.shape == (FRAME_SIZE[1], FRAME_SIZE[0], 3)
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)
    assert truth.observation == table


def test_ground_truth_lists_every_face_with_corners_on_the_card() -> None:
    table = random_trains_table(5, players=4)
    image, truth = render_table(table, 5, "easy")
    expected = sum(len(line) for line in table.lines) + len(table.faceup)
    assert len(truth.cards) == expected
    names = {card.name for card in truth.cards}
    assert names == {f"trains/{n}" for line in table.lines for n in line} | {
        f"trains/{n}" for n in table.faceup}
    for card in truth.cards:
        if card.occluded:
            continue
        x, y = (int(v) for v in card.centre)
        # The middle of a card is paper-light, whatever the cloth beneath.
        assert image[y - 2:y + 3, x - 2:x + 3].mean() > 60


def test_an_unknown_difficulty_is_refused() -> None:
    with pytest.raises(ValueError, match="difficulty"):
        render_table(TrainsObservation(((1, 2, 3, 4, 5, 6, 7),) * 2, (), ()), 1, "brutal")
