"""Look at the ghosts of the foreign-deck benchmark: outlines the reader keeps where no card lies.

For each seeded table of ``vision_benchmark.py --styles`` (the same decks, scenes and matching:
an outline further than 15 px from every card, in view or hidden, is a ghost), prints one line
per ghost with what lies round it, and writes its frame crop as a PNG, three times enlarged:
the ghost's outline in red, the cards really there in green (hidden ones in yellow), the other
outlines kept in blue. What it prints, per ghost (``Ghost``): a first sorting by cause
(``card off``: it lies on a real card, off by ``off`` mm, and usually no other outline found that
card; ``hand``: part of it lies under a hand; ``cloth``: neither), the share of it the real card
covers, that card's zone, the share under a hand, and the ghost rule's own figures
(``vision.cloth``: its own part's share of the cloth's colours, and its halves' largest). The
crops are for sorting the ``cloth`` ones further by eye (stripes, flowers, a card's band or a
line's side continued into the cloth).

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python benchmarks/ghost_dump.py --out /tmp/ghosts
    OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python benchmarks/ghost_dump.py --style bordered \
        --level hard --scenes 17 --decks held-out --out /tmp/ghosts
    OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python benchmarks/ghost_dump.py --scale 1.5 --out /tmp/g
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

import vision.cloth
import vision.deck_reader as deck_reader
from benchmarks.vision_benchmark import DECK_SETS, _match_px, _styled
from vision.cloth import Cloth
from vision.deck_scene import render_spread
from vision.imaging import Image, Points, transform_points
from vision.pipeline import Pipeline
from vision.readings import CardReading
from vision.scene import DIFFICULTIES, GroundTruth, camera_scale
from vision.styles import STYLES

ZOOM = 3
"""Enlargement of the crops written."""

Judged = tuple[Image, list[Points], list[bool]]
"""The ghost rule's last inputs: the top-down view, the outlines and which are sure cards."""


JUDGED: list[Judged] = []
"""What the reader's ghost rule judged, in this process, latest last."""
_RULE = vision.cloth.ghosts


def _recorded(view: Image, outlines: list[Points], doubtful: list[bool], sure: list[bool]
              ) -> list[bool]:
    """The reader's ghost rule, its inputs kept in ``JUDGED``."""
    JUDGED.append((view.copy(), list(outlines), list(sure)))
    return _RULE(view, outlines, doubtful, sure)


deck_reader.ghosts = _recorded  # type: ignore[attr-defined]  # looked up at each read


ON_A_CARD = 0.3
"""Share of a ghost a real card covers from which it is that card, the outline off it."""
NEAR_A_HAND = 0.02
"""Share of a ghost under a hand from which it is the hand's edge or shadow."""


@dataclass(frozen=True)
class Ghost:
    """One outline kept where no card lies, and what lies round it."""

    name: str
    """Style, level, deck, scene and its index among the frame's cards."""
    on_card: float
    """The largest share of it a real card covers (in view or hidden)."""
    off_mm: float
    """How far its centre lies from that card's (or the nearest card's) centre."""
    found_elsewhere: bool
    """Whether another outline kept lies on that card."""
    zone: str
    """That card's zone, ", hidden" added when it is under a hand or another card."""
    under_hand: float
    """Share of it under a hand."""
    cloth: tuple[float, float] | None
    """The ghost rule's figures: its own part's share of the cloth's colours and its halves'
    largest (None where the cloth could not be learnt)."""
    confidence: float
    """The namer's confidence."""
    named: bool
    """Whether it was given a name."""

    @property
    def cause(self) -> str:
        """A first sorting: a card's outline off it (``card off``, or ``card again`` where
        another outline found that card too), a hand's edge or shadow, or the cloth (its
        stripes or flowers, a card's or a line's side continued into it)."""
        if self.on_card >= ON_A_CARD:
            return "card off" if not self.found_elsewhere else "card again"
        return "hand" if self.under_hand >= NEAR_A_HAND else "cloth"

    def __str__(self) -> str:
        cloth = "-" if self.cloth is None else f"{self.cloth[0]:.2f}/{self.cloth[1]:.2f}"
        return (f"{self.name}: {self.cause:<10} card {self.on_card:.2f} off {self.off_mm:5.1f} mm "
                f"({self.zone}{'' if self.found_elsewhere else ', found nowhere else'}) "
                f"hand {self.under_hand:.2f} cloth {cloth} confidence {self.confidence:.2f}"
                f"{' NAMED' if self.named else ''}")


def _ghost(name: str, ghost: CardReading, truth: GroundTruth, kept: list[CardReading],
           judged: Judged | None) -> Ghost:
    """What lies round one ghost (``kept``: the frame's other cards)."""
    assert ghost.table_corners is not None
    table_mm = ghost.table_corners
    to_table = np.asarray(np.linalg.inv(truth.table_to_image), np.float64)
    area = float(cv2.contourArea(table_mm.astype(np.float32)))
    cards = [transform_points(to_table, seen.corners) for seen in truth.cards]
    shares = [float(cv2.intersectConvexConvex(table_mm.astype(np.float32),
                                              card.astype(np.float32))[0]) / area
              for card in cards]
    centre = table_mm.mean(axis=0)
    distances = [float(np.hypot(*(card.mean(axis=0) - centre))) for card in cards]
    near = int(np.argmax(shares)) if max(shares) >= ON_A_CARD else int(np.argmin(distances))
    seen = truth.cards[near]
    inside = np.zeros(truth.hand_mask.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(ghost.corners).astype(np.int32), 255)
    cloth = None
    if judged is not None:
        view, outlines, sure = judged
        found = Cloth.of(view, outlines, sure)
        others = [corners for corners in outlines if np.abs(corners - table_mm).max() > 1e-6]
        if found is not None and len(others) < len(outlines):
            cloth = found.shares(table_mm, others)
    return Ghost(name, max(shares), distances[near], any(
        np.hypot(*np.subtract(card.centre, seen.centre)) < _match_px()
        for card in kept),
        seen.zone + (", hidden" if seen.occluded else ""),
        float((truth.hand_mask[inside > 0] > 0).mean()), cloth, ghost.confidence,
        ghost.name is not None)


def _crop(image: Image, ghost: CardReading, truth: GroundTruth, kept: list[CardReading]
          ) -> Image:
    """The frame round a ghost, enlarged, with the outlines drawn."""
    drawn = cv2.resize(image, None, fx=ZOOM, fy=ZOOM, interpolation=cv2.INTER_NEAREST)

    def draw(corners: Points, colour: tuple[int, int, int]) -> None:
        points = np.round(corners * ZOOM).astype(np.int32)
        cv2.polylines(drawn, [points], True, colour, 1, cv2.LINE_AA)

    for card in kept:
        draw(card.corners, (255, 128, 0))
    for seen in truth.cards:
        draw(seen.corners, (0, 220, 255) if seen.occluded else (0, 200, 0))
    draw(ghost.corners, (0, 0, 255))
    low = np.maximum(np.floor(ghost.corners.min(axis=0)).astype(int) - 50, 0)
    high = np.ceil(ghost.corners.max(axis=0)).astype(int) + 50
    return np.asarray(drawn[low[1] * ZOOM:high[1] * ZOOM, low[0] * ZOOM:high[0] * ZOOM],
                      np.uint8)


def dump_table(job: tuple[str, int, int, str, str | None]) -> list[Ghost]:
    """The ghosts of one benchmark table (style, deck seed, scene seed, level), their crops
    written to a folder (None: not written)."""
    style, deck_seed, seed, level, out = job

    JUDGED.clear()
    deck, references = _styled(style, deck_seed)
    image, truth = render_spread(deck, seed, level)
    reading = Pipeline(deck=deck.deck.name, references=references).read(image)
    # Matched as the benchmark matches: cards in view first, then hidden ones.
    matched: set[int] = set()
    for seen in sorted(truth.cards, key=lambda card: card.occluded):
        distances = [np.inf if index in matched else
                     float(np.hypot(*np.subtract(card.centre, seen.centre)))
                     for index, card in enumerate(reading.cards)]
        if distances and min(distances) < _match_px():
            matched.add(int(np.argmin(distances)))
    found = []
    for index, card in enumerate(reading.cards):
        if index in matched or card.table_corners is None:
            continue
        name = f"{style}-{level}-deck{deck_seed}-scene{seed}-{index}"
        kept = [other for place, other in enumerate(reading.cards) if place != index]
        if out is not None:
            cv2.imwrite(str(Path(out) / f"{name}.png"), _crop(image, card, truth, kept))
        found.append(_ghost(name, card, truth, kept, JUDGED[-1] if JUDGED else None))
    return found


def main() -> None:
    """Dump the ghosts of the chosen benchmark tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder the crops are written to")
    parser.add_argument("--style", action="append", choices=STYLES, help="deck style (repeat)")
    parser.add_argument("--level", action="append", choices=DIFFICULTIES, help="level (repeat)")
    parser.add_argument("--decks", choices=tuple(DECK_SETS), default="tuned")
    parser.add_argument("--scenes", type=int, default=17, help="tables per style and level")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="a webcam with this many times the pixels along each side (1.5: "
                             "1920 x 1080), as the benchmark's --scale")
    args = parser.parse_args()
    if not 0.25 <= args.scale <= 4:
        parser.error("--scale takes 0.25-4")
    Path(args.out).mkdir(parents=True, exist_ok=True)
    deck_seeds, first = DECK_SETS[args.decks]
    jobs: list[tuple[str, int, int, str, str | None]] = [
        (style, deck_seeds[index % len(deck_seeds)], first + index, level, args.out)
        for style in args.style or STYLES for level in args.level or DIFFICULTIES
        for index in range(args.scenes)]
    causes: Counter[str] = Counter()
    with Pool(args.workers, initializer=camera_scale, initargs=(args.scale,)) as pool:
        for ghosts in pool.imap(dump_table, jobs, chunksize=2):
            for ghost in ghosts:
                causes[ghost.cause] += 1
                print(ghost, flush=True)
    print(f"{len(jobs)} tables, {sum(causes.values())} ghosts: " + ", ".join(
        f"{cause} {count}" for cause, count in causes.most_common()))


if __name__ == "__main__":
    main()
