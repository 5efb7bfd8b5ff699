"""Rendered tables of any deck: cards touching in lines, overlapped piles, loose cards.

A table of a game we have no zones for still has to be read card by card: lines of cards laid
edge to edge along the table's edges (each facing its player, so some lie upside down in the
picture), a pile or two of overlapping cards (only the top one is to be named; the rest are
ground-truthed as hidden) and loose cards at any angle in the middle. Faces come from a
``vision.styles.StyledDeck``, photographed like any other table (``vision.scene``).
"""

from __future__ import annotations

import itertools

import numpy as np

from vision.imaging import Image
from vision.scene import (
    UNDER,
    Difficulty,
    GroundTruth,
    LaidCard,
    Look,
    difficulty,
    lay_table,
    photograph,
)
from vision.styles import StyledDeck
from vision.table import TABLE_HEIGHT_MM, TABLE_WIDTH_MM, Placement

LINE_GAP_MM = (0.0, 1.5)
"""Gap between neighbouring cards of a line: they touch, or nearly."""
MIDDLE_MM = ((190.0, 150.0), (710.0, 550.0))
"""Where piles and loose cards lie: the middle, clear of the lines along the edges."""


def _line(names: list[str], start: np.ndarray, step: np.ndarray, degrees: float,
          rng: np.random.Generator) -> list[LaidCard]:
    laid = []
    centre = start.astype(np.float64)
    for name in names:
        turn = degrees + float(rng.normal(0, 1.0))
        jitter = rng.normal(0, 0.7, 2)
        laid.append(LaidCard(name, Placement((float(centre[0] + jitter[0]),
                                              float(centre[1] + jitter[1])), turn), False,
                             f"line {degrees:.0f}"))
        centre = centre + step * (1 + rng.uniform(*LINE_GAP_MM) / float(np.linalg.norm(step)))
    return laid


def spread_layout(deck: StyledDeck, seed: int) -> list[LaidCard]:
    """The cards of a seeded table: three lines, one or two piles and loose cards."""
    rng = np.random.default_rng([seed, 29])
    width, height = deck.card_mm
    names = [card.id for card in deck.deck.cards]
    order = [names[int(i)] for i in rng.permutation(len(names))]
    # Near twins side by side are the hard case: put a few runs of the deck's order in lines.
    if rng.random() < 0.5:
        start = int(rng.integers(0, len(names) - 4))
        run = names[start:start + 4]
        order = run + [name for name in order if name not in run]
    taken = itertools.cycle(order)
    laid: list[LaidCard] = []
    bottom = int(rng.integers(5, 8))
    laid += _line([next(taken) for _ in range(bottom)],
                  np.array([TABLE_WIDTH_MM / 2 - (bottom - 1) / 2 * width, TABLE_HEIGHT_MM - 70]),
                  np.array([width, 0.0]), 0.0, rng)
    top = int(rng.integers(4, 7))
    laid += _line([next(taken) for _ in range(top)],
                  np.array([TABLE_WIDTH_MM / 2 + (top - 1) / 2 * width, 70.0]),
                  np.array([-width, 0.0]), 180.0, rng)
    side = int(rng.integers(3, 6))
    laid += _line([next(taken) for _ in range(side)],
                  np.array([70.0, TABLE_HEIGHT_MM / 2 - (side - 1) / 2 * width]),
                  np.array([0.0, width]), 90.0, rng)
    spots: list[np.ndarray] = []
    low, high = np.array(MIDDLE_MM[0]), np.array(MIDDLE_MM[1])
    reach = float(np.hypot(width, height))
    for _ in range(200):
        spot = rng.uniform(low, high)
        if all(np.linalg.norm(spot - other) > reach + 4 for other in spots):
            spots.append(spot)
        if len(spots) == 8:
            break
    piles = int(rng.integers(1, 3))
    for index, spot in enumerate(spots):
        degrees = float(rng.uniform(0, 360))
        if index < piles:  # a pile: cards shifted and turned a little, the last on top
            count = int(rng.integers(2, 4))
            for layer in range(count):
                shift = rng.normal(0, 9, 2) if layer < count - 1 else np.zeros(2)
                turn = degrees + (float(rng.normal(0, 12)) if layer < count - 1 else 0.0)
                zone = f"{UNDER} pile {index}" if layer < count - 1 else f"pile {index}"
                laid.append(LaidCard(next(taken), Placement(
                    (float(spot[0] + shift[0]), float(spot[1] + shift[1])), turn), False, zone))
        else:
            laid.append(LaidCard(next(taken), Placement((float(spot[0]), float(spot[1])),
                                                        degrees), False, "loose"))
    return laid


def render_spread(deck: StyledDeck, seed: int, level: str | Difficulty = "medium",
                  ) -> tuple[Image, GroundTruth]:
    """A seeded webcam photograph (1280 x 720 BGR) of a table of ``deck``'s cards."""
    chosen = difficulty(level) if isinstance(level, str) else level
    look = Look.draw(seed, chosen)
    return photograph(lay_table(spread_layout(deck, seed), look, faces=deck), 0)
