"""Look at the cards the foreign-deck benchmark misses: cards fully in view that no card read
lies on.

For each seeded table of ``vision_benchmark.py --styles`` (the same decks, scenes, camera and
matching), the reader is run with its steps recorded: the outline search's outlines (found on
their own, and placed with a whole line, ``OutlineFinder._placed_lines``), each one's reading,
the overlap rule and the ghost rule. Each missed card is sorted by where it was lost
(``Miss.cause``):

- ``no peak``: no outline of the search lies on it (within the benchmark's match), nor any
  of the vote peaks examined within ``PEAK_NEAR_MM`` of its centre (too few edges: a card of
  the cloth's colour, or a busy cloth's peaks outranking it);
- ``no outline``: no outline lies on it, though a vote peak did (refined away or rejected);
  ``rail off`` when the nearest outline on it lies along its line by 8-45 mm at its turn (a
  rail's spacing or a card and a rail), ``off`` when the nearest lies elsewhere on it;
- ``not a card``: an outline lies on it, but its reading scored under ``CARD_SCORE``;
- ``overlap``: read as a card, then dropped for a better read card overlapping it;
- ``ghost rule``: read, unnamed and dropped as showing the cloth;
- ``matched away``: read and kept, but the benchmark matched it to a neighbour.

With the zone (line, pile, loose), the share under a hand and the card's contrast with the
cloth round it (grey levels). With ``--out``, each miss's frame crop is written three times
enlarged: the missed card in green, the outlines found on their own in blue, those placed with
a line in magenta, the cards kept in the end in white.

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python benchmarks/miss_dump.py --style rollecate \\
        --scale 1.5 --out /tmp/misses
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

import vision.deck_reader as deck_reader
from benchmarks.ghost_dump import ZOOM
from benchmarks.vision_benchmark import DECK_SETS, _match_px, _styled, matches
from vision.deck_scene import render_spread
from vision.imaging import Image, Points, transform_points
from vision.outline import REACH_MM, TOPDOWN_PX_PER_MM, Outline, OutlineFinder
from vision.pipeline import Pipeline
from vision.recognize import CARD_SCORE, CardReferences, Reading
from vision.scene import DIFFICULTIES, camera_scale
from vision.styles import STYLES

RAIL_OFF_MM = (8.0, 45.0)
"""How far along its line an outline on a card lies when a rail pulled it off."""
PEAK_NEAR_MM = 20.0
"""A vote peak this near a card's centre was a start for it."""


@dataclass
class _Record:
    """What the reader did with one frame."""

    own: list[Outline]
    placed: list[Outline]
    read: list[tuple[Points, Reading]]
    ghost_inputs: list[Points]
    ghost_verdict: list[bool]
    peaks: list[tuple[int, int]]


RECORD = _Record([], [], [], [], [], [])
_FIND = OutlineFinder.find
_ANGLES = OutlineFinder._angles
_OUTLINES = OutlineFinder._outlines
_READ = CardReferences.read
_GHOSTS = deck_reader.ghosts


_CALLS = [0]


def _find(self: OutlineFinder, *args: object, **kwargs: object) -> list[Outline]:
    _CALLS[0] = 0
    return _FIND(self, *args, **kwargs)  # type: ignore[arg-type]


def _outlines(self: OutlineFinder, *args: object, **kwargs: object) -> list[Outline]:
    found = _OUTLINES(self, *args, **kwargs)  # type: ignore[arg-type]
    # find() turns the poses found on their own into outlines first, then the placed ones.
    (RECORD.own if _CALLS[0] == 0 else RECORD.placed).extend(found)
    _CALLS[0] += 1
    return found


def _angles(self: OutlineFinder, peaks: list[tuple[int, int]], edges: object
            ) -> list[float | None]:
    # Every peak examined has its turn looked for.
    RECORD.peaks.extend(peaks)
    return _ANGLES(self, peaks, edges)  # type: ignore[arg-type]


def _read(self: CardReferences, frame: Image, corners: Points, *args: object,
          **kwargs: object) -> Reading:
    reading = _READ(self, frame, corners, *args, **kwargs)  # type: ignore[arg-type]
    RECORD.read.append((corners, reading))
    return reading


def _ghosts(view: Image, outlines: list[Points], doubtful: list[bool], sure: list[bool]
            ) -> list[bool]:
    verdict = _GHOSTS(view, outlines, doubtful, sure)
    RECORD.ghost_inputs[:] = outlines
    RECORD.ghost_verdict[:] = verdict
    return verdict


OutlineFinder.find = _find  # type: ignore[method-assign]
OutlineFinder._outlines = _outlines  # type: ignore[method-assign]
OutlineFinder._angles = _angles  # type: ignore[method-assign]
CardReferences.read = _read  # type: ignore[method-assign]
deck_reader.ghosts = _ghosts  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Miss:
    """One card in view that no card read lies on."""

    name: str
    zone: str
    cause: str
    detail: str
    under_hand: float
    contrast: float

    def __str__(self) -> str:
        return (f"{self.name}: {self.cause:<13} {self.zone:<10} hand {self.under_hand:.2f} "
                f"contrast {self.contrast:5.1f} {self.detail}")


def _contrast(image: Image, corners: Points) -> float:
    """Grey-level difference between a card's rim inside and the cloth just outside it."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    centre = corners.mean(axis=0)
    inner = np.zeros(grey.shape, np.uint8)
    outer = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(outer, np.round(centre + (corners - centre) * 1.12).astype(np.int32), 1)
    cv2.fillConvexPoly(inner, np.round(centre + (corners - centre) * 0.92).astype(np.int32), 1)
    ring_in = np.zeros_like(inner)
    cv2.fillConvexPoly(ring_in, np.round(corners).astype(np.int32), 1)
    rim_inside = (ring_in > 0) & (inner == 0)
    rim_outside = (outer > 0) & (ring_in == 0)
    return abs(float(grey[rim_inside].mean()) - float(grey[rim_outside].mean()))


def _near(centre_px: np.ndarray, corners_px: list[Points], reach: float) -> list[int]:
    return [index for index, corners in enumerate(corners_px)
            if float(np.hypot(*(corners.mean(axis=0) - centre_px))) < reach]


def dump_table(job: tuple[str, int, int, str, float, str | None]) -> list[Miss]:
    """The missed cards of one benchmark table, their crops written to a folder (None: not
    written)."""
    style, deck_seed, seed, level, scale, out = job
    camera_scale(scale)

    RECORD.own.clear()
    RECORD.placed.clear()
    RECORD.read.clear()
    RECORD.ghost_inputs.clear()
    RECORD.ghost_verdict.clear()
    RECORD.peaks.clear()
    deck, references = _styled(style, deck_seed)
    image, truth = render_spread(deck, seed, level)
    pipeline = Pipeline(deck=deck.deck.name, references=references)
    reading = pipeline.read(image)
    match = _match_px()
    misses: list[Miss] = []
    table_to_image = truth.table_to_image
    own_px = [transform_points(table_to_image, o.corners) for o in RECORD.own]
    placed_px = [transform_points(table_to_image, o.corners) for o in RECORD.placed]
    read_px = [corners for corners, _ in RECORD.read]
    kept_px = [card.corners for card in reading.cards]
    to_table = np.asarray(np.linalg.inv(table_to_image), np.float64)
    for seen, index in matches(truth, reading.cards):
        if index is not None or seen.occluded:
            continue
        centre = np.array(seen.centre)
        table = transform_points(to_table, seen.corners)
        axis = table[1] - table[0]
        axis /= np.linalg.norm(axis)
        candidates = _near(centre, own_px + placed_px, match)
        read_here = [i for i in _near(centre, read_px, match)
                     if RECORD.read[i][1].score >= CARD_SCORE]
        kept_near = _near(centre, kept_px, match)
        judged_px = [transform_points(table_to_image, c) for c in RECORD.ghost_inputs]
        ghost_near = [i for i in _near(centre, judged_px, match) if RECORD.ghost_verdict[i]]
        if not candidates:
            # The nearest outline on it, in table millimetres along its line.
            every = RECORD.own + RECORD.placed
            offsets = [np.subtract(o.centre, table.mean(axis=0)) for o in every]
            on_it = [(float(np.hypot(*off)), float(off @ axis)) for off in offsets
                     if np.hypot(*off) < 45.0]
            if on_it:
                distance, along = min(on_it)
                rail = (RAIL_OFF_MM[0] <= abs(along) <= RAIL_OFF_MM[1]
                        and abs(distance - abs(along)) < 0.3 * abs(along) + 3)
                cause = "rail off" if rail else "off"
                detail = f"nearest {distance:.1f} mm, {along:+.1f} along"
            else:
                cause, detail = "no outline", ""
            peaks = (np.array(RECORD.peaks, np.float64).reshape(-1, 2) / TOPDOWN_PX_PER_MM
                     - REACH_MM)
            if cause == "no outline" and not (np.hypot(*(peaks - table.mean(axis=0)).T)
                                              < PEAK_NEAR_MM).any():
                cause = "no peak"
        elif not read_here:
            best = max((RECORD.read[i][1].score for i in _near(centre, read_px, match)),
                       default=float("nan"))
            cause, detail = "not a card", f"best score {best:.2f}"
        elif ghost_near:
            cause, detail = "ghost rule", ""
        elif kept_near:
            cause, detail = "matched away", ""
        else:
            cause, detail = "overlap", ""
        inside = np.zeros(truth.hand_mask.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(seen.corners).astype(np.int32), 255)
        name = f"{style}-{level}-deck{deck_seed}-scene{seed}-{seen.name.replace('/', '_')}"
        miss = Miss(name, seen.zone, cause, detail,
                    float((truth.hand_mask[inside > 0] > 0).mean()),
                    _contrast(image, seen.corners))
        misses.append(miss)
        if out is not None:
            cv2.imwrite(str(Path(out) / f"{cause.replace(' ', '_')}-{name}.png"),
                        _crop(image, seen.corners, own_px, placed_px, kept_px))
    return misses


def _crop(image: Image, corners: Points, own: list[Points], placed: list[Points],
          kept: list[Points]) -> Image:
    drawn = cv2.resize(image, None, fx=ZOOM, fy=ZOOM, interpolation=cv2.INTER_NEAREST)

    def draw(points: Points, colour: tuple[int, int, int]) -> None:
        cv2.polylines(drawn, [np.round(points * ZOOM).astype(np.int32)], True, colour, 1,
                      cv2.LINE_AA)

    for outline in own:
        draw(outline, (255, 128, 0))
    for outline in placed:
        draw(outline, (255, 0, 255))
    for outline in kept:
        draw(outline, (255, 255, 255))
    draw(corners, (0, 220, 0))
    low = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 80, 0)
    high = np.ceil(corners.max(axis=0)).astype(int) + 80
    return np.asarray(drawn[low[1] * ZOOM:high[1] * ZOOM, low[0] * ZOOM:high[0] * ZOOM],
                      np.uint8)


def main() -> None:
    """Dump the missed cards of the chosen benchmark tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="folder the crops are written to")
    parser.add_argument("--style", action="append", choices=STYLES, help="deck style (repeat)")
    parser.add_argument("--level", action="append", choices=DIFFICULTIES, help="level (repeat)")
    parser.add_argument("--decks", choices=tuple(DECK_SETS), default="tuned")
    parser.add_argument("--scenes", type=int, default=17, help="tables per style and level")
    parser.add_argument("--scale", type=float, default=1.0, help="camera scale (1.5: 1080p)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    deck_seeds, first = DECK_SETS[args.decks]
    jobs = [(style, deck_seeds[index % len(deck_seeds)], first + index, level, args.scale,
             args.out)
            for style in args.style or STYLES for level in args.level or DIFFICULTIES
            for index in range(args.scenes)]
    causes: Counter[str] = Counter()
    with Pool(args.workers) as pool:
        for misses in pool.imap(dump_table, jobs, chunksize=1):
            for miss in misses:
                causes[miss.cause] += 1
                causes[f"{miss.cause} / {miss.zone.split(' ')[0]}"] += 1
                print(miss, flush=True)
    print(f"{len(jobs)} tables, {sum(v for k, v in causes.items() if '/' not in k)} missed:")
    for cause, count in sorted(causes.items()):
        print(f"  {cause:<28} {count}")


if __name__ == "__main__":
    main()
