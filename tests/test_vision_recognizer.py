"""Finding and naming cards on a fixed, seeded set of rendered table photographs.

Each test fails when accuracy on its set drops below a threshold a little under what the
recognizer reaches today (benchmarks/vision_benchmark.py measures it on many more scenes).
"""

from functools import lru_cache

import numpy as np
import pytest

from vision.detect import find_cards
from vision.identify import rendered_references
from vision.imaging import Image, grey, transform_points
from vision.markers import TableFinder
from vision.pipeline import Pipeline
from vision.readings import CardReading
from vision.scene import GroundTruth, random_trains_table, render_table

SEEDS = {"easy": range(100, 104), "medium": range(200, 204), "hard": range(300, 303)}


@lru_cache(maxsize=16)
def _scene(seed: int, level: str) -> tuple[Image, GroundTruth]:
    return render_table(random_trains_table(seed), seed, level)


def _tally(level: str, use_markers: bool = True) -> dict[str, int]:
    """Cards visible in full, found, named right, named wrong, unknown over a level's set."""
    counts = dict.fromkeys(("visible", "found", "correct", "wrong", "unknown"), 0)
    pipeline = Pipeline()
    for seed in SEEDS[level]:
        image, truth = _scene(seed, level)
        if use_markers:
            pipeline = Pipeline()  # each scene is another camera
            cards = pipeline.read(image).cards
        else:
            cards = tuple(_raw_cards(image))
        for seen in truth.cards:
            if seen.occluded:
                continue
            counts["visible"] += 1
            near = [c for c in cards
                    if np.linalg.norm(np.subtract(c.centre, seen.centre)) < 15]
            if not near:
                continue
            counts["found"] += 1
            name = near[0].name
            key = "unknown" if name is None else "correct" if name == seen.name else "wrong"
            counts[key] += 1
    return counts


def _raw_cards(image: Image) -> list[CardReading]:
    """Cards read without the table's homography (markers ignored)."""
    references = rendered_references("trains")
    cards = []
    for found in find_cards(grey(image), None):
        identity = references.identify(found.patch)
        cards.append(CardReading(identity.name, identity.confidence,
                                 found.card_corners(identity.turned), None))
    return cards


@pytest.mark.parametrize(("level", "recall", "correct"),
                         [("easy", 0.97, 0.97), ("medium", 0.95, 0.9), ("hard", 0.7, 0.55)])
def test_cards_are_found_and_named_and_never_misnamed(level: str, recall: float,
                                                      correct: float) -> None:
    counts = _tally(level)
    assert counts["found"] >= recall * counts["visible"], counts
    assert counts["correct"] >= correct * counts["visible"], counts
    assert counts["wrong"] == 0, counts


def test_without_markers_cards_are_still_read_from_the_raw_view() -> None:
    counts = _tally("easy", use_markers=False)
    assert counts["found"] >= 0.85 * counts["visible"], counts
    assert counts["correct"] >= 0.85 * counts["visible"], counts
    assert counts["wrong"] == 0, counts


def test_the_table_is_kept_while_a_hand_covers_the_markers() -> None:
    image, truth = _scene(100, "easy")
    finder = TableFinder()
    found = finder.update(image)
    assert found is not None and finder.seen == 4
    covered = image.copy()
    covered[:, :] = (90, 120, 170)  # a hand over everything
    assert finder.update(covered) is found
    assert finder.seen == 0
    # The homography maps the table to where the renderer put it.
    corners = np.array([[0.0, 0.0], [900.0, 700.0]])
    back = transform_points(found, transform_points(truth.table_to_image, corners))
    assert np.abs(back - corners).max() < 3.0


def test_something_that_is_no_card_is_unknown_not_a_guess() -> None:
    references = rendered_references("trains")
    rng = np.random.default_rng(7)
    blank = np.full((66, 46), 230, np.uint8)
    noise = rng.integers(0, 255, (66, 46)).astype(np.uint8)
    stripes = np.tile((np.arange(46) % 8 < 4).astype(np.uint8) * 200, (66, 1))
    for patch in (blank, noise, stripes):
        assert references.identify(patch).name is None
