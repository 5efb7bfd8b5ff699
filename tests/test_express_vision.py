"""Express at the camera: our printable faces, identified in rendered photographs; rendered
Express tables read back into the referee's observation."""

from __future__ import annotations

import numpy as np
import pytest

from host.deck import load_deck
from vision.express_faces import MARK_DISTANCE, marks
from vision.pipeline import Pipeline
from vision.scene import render_cards

EXPRESS_CARDS = [card.id for card in load_deck("express").cards]


def test_every_card_has_its_own_mark() -> None:
    patterns = list(marks().values())
    assert len(patterns) == len(EXPRESS_CARDS)
    for index, one in enumerate(patterns):
        for other in patterns[index + 1:]:
            assert np.sum(np.array(one) != np.array(other)) >= MARK_DISTANCE


@pytest.mark.parametrize(("seed", "level"), [(1, "easy"), (2, "medium"), (3, "medium")])
def test_express_faces_are_named_in_photographs(seed: int, level: str) -> None:
    """Every card found is named, and named right; on an easy table every card is found (finding
    cards under glare and hands is the detector's, measured in docs/vision.md)."""
    image, truth = render_cards(EXPRESS_CARDS, seed, level)
    reading = Pipeline(deck="express").read(image)
    named = {}
    for card in reading.cards:
        centre = card.corners.mean(axis=0)
        nearest = min(truth.cards, key=lambda seen: float(np.hypot(*(centre - seen.centre))))
        assert card.name == nearest.name, f"seed {seed}: {nearest.name} read as {card.name}"
        named[nearest.name] = card.name
    visible = {seen.name for seen in truth.cards if not seen.occluded}
    assert len(named) >= (len(visible) if level == "easy" else len(visible) - 3), f"seed {seed}"
