"""Measure the webcam card recognizer on rendered table photographs.

Prints, for 1280 x 720 frames with 28 cards, the per-frame latency (p50, p95) and frames per
second of the whole pipeline (markers, cards, identities, zones), and for N rendered scenes
per difficulty level: cards found (recall over cards fully in view), correct, wrong and unknown
identities, with the same counts for a simple baseline: whole-card template matching without
rectification (each card's upright bounding box, turned by quarter turns, against every face).
The baseline is handed the true card positions, so only its identification is compared.

With ``--styles``, the same for foreign decks without a frame line (``vision.styles``: full-bleed
artwork with near twins, white-bordered, plain, and published-look Trains and Rollecate): each
deck is enrolled from flat scans of its faces, then read on seeded tables with lines of touching
cards, piles (only the top card counts) and loose cards at any angle (``vision.deck_scene``).
Deck seed 1 and scene seeds from 300 are the ones tuned on; held-out decks (seeds 100-103) on
scene seeds from 5000 are reported on their own lines (``DECK_SETS``; ``--decks fresh`` is a
third set, for one purpose only). Ghosts are outlines where no card lies;
"named" ghosts got a name. With ``--cloth`` the empty table (same camera, cloth and light) is
looked at first (``Pipeline.learn_cloth``). With ``--naming`` only naming is measured: each
card in view is handed to the namer at its true corners (jittered by ``NAMING_JITTER_MM``,
started from either end), with the time per card; ``--style`` picks styles; ``--scale 1.5``
renders the tables as a webcam with 1.5 times the pixels along each side would see them (1920 x
1080: cards at 1.5 times the px/mm), for the whole pipeline, naming alone and the timings alike;
``--shots 8`` photographs each table 8 times in fresh
noise and names every card at freshly jittered corners each time, a hunt for the rare wrong
name one look misses. ``--left-out 3`` enrolls each deck without every third card (a deck
enrolled in part: any name for a card left out is wrong); ``--decks tuned`` runs the tuning
deck only.

    python benchmarks/vision_benchmark.py --scenes 500 --workers 2
    python benchmarks/vision_benchmark.py --styles --scenes 30 --workers 2
    python benchmarks/vision_benchmark.py --styles --scenes 17 --scale 1.5 --frames 20
    OPENBLAS_NUM_THREADS=1 python benchmarks/vision_benchmark.py --styles --naming --scenes 8
    OPENBLAS_NUM_THREADS=1 python benchmarks/vision_benchmark.py --styles --naming --scenes 4 \
        --shots 8 --frames 0
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache, partial
from multiprocessing import Pool

import cv2
import numpy as np

from host.deck import load_deck
from host.trains.observation import TrainsObservation
from vision import scene
from vision.deck_scene import render_spread, spread_layout
from vision.faces import render_face
from vision.imaging import Image, frame_px, grey, transform_points
from vision.pipeline import Pipeline
from vision.readings import CardReading
from vision.recognize import CardReferences
from vision.scene import (
    DIFFICULTIES,
    UNDER,
    GroundTruth,
    Look,
    SeenCard,
    camera_scale,
    difficulty,
    lay_table,
    photograph,
    random_trains_table,
    render_table,
    trains_layout,
)
from vision.styles import STYLES, StyledDeck, styled_deck
from vision.trains_zones import TrainsZones

TEMPLATE = (40, 56)
BASELINE_MIN_SCORE = 0.0


@lru_cache(maxsize=1)
def _templates() -> tuple[list[str], np.ndarray]:
    """Whole-card grey templates of every trains face, upright and turned, as unit vectors."""
    names, vectors = [], []
    for card in load_deck("trains").cards:
        face = cv2.resize(grey(render_face(card, 2.0)), TEMPLATE, interpolation=cv2.INTER_AREA)
        for turned in (face, face[::-1, ::-1]):
            vector = turned.astype(np.float32).ravel()
            vector -= vector.mean()
            names.append(card.id)
            vectors.append(vector / np.linalg.norm(vector))
    return names, np.stack(vectors)


def baseline_identify(image: Image, corners: np.ndarray) -> str | None:
    """Whole-card template matching on the card's upright bounding box, no rectification."""
    names, matrix = _templates()
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    crop = grey(image)[max(0, y0):y1, max(0, x0):x1]
    if crop.size == 0:
        return None
    if crop.shape[1] > crop.shape[0]:  # lying sideways: a quarter turn to stand it up
        crop = np.ascontiguousarray(np.rot90(crop))
    best_score, best_name = -1.0, None
    for candidate in (crop, np.ascontiguousarray(crop[:, ::-1][::-1, :])):
        vector = cv2.resize(candidate, TEMPLATE, interpolation=cv2.INTER_AREA).astype(
            np.float32).ravel()
        vector -= vector.mean()
        vector /= max(float(np.linalg.norm(vector)), 1e-6)
        scores = matrix @ vector
        index = int(np.argmax(scores))
        if scores[index] > best_score:
            best_score, best_name = float(scores[index]), names[index]
    return best_name if best_score >= BASELINE_MIN_SCORE else None


def score_scene(job: tuple[int, str]) -> Counter[str]:
    """Counts for one rendered scene."""
    seed, level = job
    table = random_trains_table(seed)
    image, truth = render_table(table, seed, level)
    reading = Pipeline(zones=TrainsZones()).read(image)
    counts: Counter[str] = Counter()
    matched = set()
    for seen in truth.cards:
        if seen.occluded:
            continue
        counts["visible"] += 1
        distances = [float(np.hypot(*np.subtract(card.centre, seen.centre)))
                     for card in reading.cards]
        if distances and min(distances) < _match_px():
            index = int(np.argmin(distances))
            matched.add(index)
            name = reading.cards[index].name
            counts["found"] += 1
            counts["unknown" if name is None else "correct" if name == seen.name else "wrong"] += 1
        base = baseline_identify(image, seen.corners)
        counts["base_" + ("unknown" if base is None else
                          "correct" if base == seen.name else "wrong")] += 1
    # Outlines found where no card lies fully in view (under a hand, say) and given a name.
    counts["spurious_named"] += sum(1 for index, card in enumerate(reading.cards)
                                    if index not in matched and card.name is not None
                                    and not _near_any(card.centre, truth))
    counts["observation_complete"] += reading.observation is not None
    counts["observation_right"] += reading.observation == table
    counts["scenes"] += 1
    return counts


MATCH_PX = 15.0
"""A card read within this many pixels of a card laid (at 1280 x 720, as many more as the
camera has) is that card."""


def _match_px() -> float:
    return frame_px(MATCH_PX, scene.FRAME_SIZE[0])


def matches(truth: GroundTruth, cards: Sequence[CardReading]
            ) -> Iterator[tuple[SeenCard, int | None]]:
    """Each true card with the index of the card read as it (the nearest not taken yet, within
    ``MATCH_PX``), or None.

    Cards in view first; a card under another (or a hand) only against what is left, so the top
    card of a pile, lying a few millimetres off the one below, is not blamed on it; and of those,
    a pile's top (under a hand) before the cards under it, for the same reason."""
    taken: set[int] = set()
    for seen in sorted(truth.cards, key=lambda card: (card.occluded,
                                                      card.zone.startswith(UNDER))):
        distances = [float(np.hypot(*np.subtract(card.centre, seen.centre)))
                     if index not in taken else np.inf for index, card in enumerate(cards)]
        index = int(np.argmin(distances)) if distances else -1
        if index >= 0 and distances[index] < _match_px():
            taken.add(index)
            yield seen, index
        else:
            yield seen, None


def _near_any(centre: tuple[float, float], truth: GroundTruth) -> bool:
    return any(np.hypot(*np.subtract(centre, seen.centre)) < _match_px() for seen in truth.cards)


def latency(frames: int) -> tuple[float, float, float, float]:
    """p50 and p95 milliseconds per frame, frames per second, and CPU milliseconds per frame
    (all threads; a steadier number when other programs share the machine), 28 cards at
    1280 x 720, a different table every frame (nothing carried over from the last)."""
    images = []
    for seed in range(10):
        table = random_trains_table(1000 + seed, players=4)
        table = TrainsObservation(table.lines, (), table.locks)  # exactly 28 cards
        look = Look.draw(1000 + seed, difficulty("medium"))
        laid = lay_table(trains_layout(table, 1000 + seed), look)
        images.append(photograph(laid, 0, hands=0)[0])  # all 28 in view, every zone read
    pipeline = Pipeline(zones=TrainsZones(4))
    for image in images[:3]:  # warm up caches and references
        pipeline.read(image)
    times = []
    cpu = time.process_time()
    start = time.perf_counter()
    for index in range(frames):
        begin = time.perf_counter()
        pipeline.read(images[index % len(images)])
        times.append((time.perf_counter() - begin) * 1000)
    elapsed = time.perf_counter() - start
    cpu_ms = (time.process_time() - cpu) * 1000 / frames
    times.sort()
    return (statistics.median(times), times[int(0.95 * (len(times) - 1))], frames / elapsed,
            cpu_ms)


def still_latency(tables: int = 10, frames: int = 12) -> tuple[float, float]:
    """p50 milliseconds and frames per second while tables lie still (the common case in
    play): for each of the latency tables, a rendered camera's frames with fresh noise every
    frame, timed after the first."""
    from vision.camera import RenderedCamera

    times = []
    for seed in range(tables):
        table = random_trains_table(1000 + seed, players=4)
        table = TrainsObservation(table.lines, (), table.locks)
        camera = RenderedCamera([table], seed=1000 + seed, level="medium", still_frames=frames)
        images = [frame.image for frame in camera]
        pipeline = Pipeline(zones=TrainsZones(4))
        pipeline.read(images[0])
        for image in images[1:]:
            begin = time.perf_counter()
            pipeline.read(image)
            times.append((time.perf_counter() - begin) * 1000)
    return statistics.median(times), 1000 * len(times) / sum(times)


DECK_SETS = {"tuned": ((1,), 300), "held-out": ((100, 101, 102, 103), 5000),
             "fresh": ((600, 601, 602, 603), 11000)}
"""Each set of foreign decks: its deck seeds and its first scene seed. The rules are tuned on
"tuned"; "held-out" is reported and never tuned on. "fresh" had been looked at by no one on 28
November 2026, 01:35 UTC: a rule reshaped after a held-out deck showed it a wrong name or a
lost card can no longer be judged on the held-out decks, so it is confirmed on these once,
after which they are held out too (say so in docs/vision-history.md, and draw the next fresh
set from new seeds). Spent before: decks 200-203 on scenes from 7000 (lines started from their
outlines, rollwalk3), decks 400-403 on scenes from 9000 (the cloth in light made even,
ghosts5)."""
LEFT_OUT = 0
"""With ``--left-out N``: every Nth card of a deck (the Nth, the 2Nth...) is not enrolled (0:
every card is)."""


def _worker(scale: float, left_out: int) -> None:
    """A scenes' worker: the camera's scale and the cards left out of enrollment."""
    global LEFT_OUT
    camera_scale(scale)
    LEFT_OUT = left_out


@lru_cache(maxsize=8)
def _styled(style: str, seed: int) -> tuple[StyledDeck, CardReferences]:
    """A foreign deck and its references, enrolled from flat 6 px/mm scans of its faces (all
    but every ``LEFT_OUT``th card, when set)."""
    deck = styled_deck(style, seed)
    cards = [card.id for index, card in enumerate(deck.deck.cards)
             if not LEFT_OUT or (index + 1) % LEFT_OUT]
    return deck, CardReferences(deck.deck.name, deck.card_mm, deck.scans(cards),
                                complete=not LEFT_OUT)


def score_styled(job: tuple[str, int, int, str]) -> Counter[str]:
    """Counts for one rendered table of a foreign deck."""
    return _score_styled(job, cloth=False)


def score_styled_on_cloth(job: tuple[str, int, int, str]) -> Counter[str]:
    """The same, the empty table looked at first (``Pipeline.learn_cloth``): the same
    camera, cloth and light, another frame's noise."""
    return _score_styled(job, cloth=True)


def _score_styled(job: tuple[str, int, int, str], cloth: bool) -> Counter[str]:
    style, deck_seed, seed, level = job
    deck, references = _styled(style, deck_seed)
    image, truth = render_spread(deck, seed, level)
    pipeline = Pipeline(deck=deck.deck.name, references=references)
    if cloth:
        empty, _ = photograph(lay_table([], Look.draw(seed, difficulty(level)), faces=deck), 1,
                              hands=0)
        assert pipeline.learn_cloth(empty), (style, seed, level)
    reading = pipeline.read(image)
    counts: Counter[str] = Counter()
    matched: set[int] = set()
    for seen, index in matches(truth, reading.cards):
        hit = index is not None
        if index is not None:
            matched.add(index)
        name = reading.cards[index].name if index is not None else None
        if seen.occluded:  # only a wrong name counts
            counts["wrong"] += name is not None and name != seen.name
            if name is not None and name != seen.name:
                counts[_wrong_key(style, deck_seed, seed, seen, name)] += 1
            continue
        counts["visible"] += 1
        if hit:
            counts["found"] += 1
            counts["unknown" if name is None else "correct" if name == seen.name else "wrong"] += 1
            if name is not None and name != seen.name:
                counts[_wrong_key(style, deck_seed, seed, seen, name)] += 1
    ghosts = [card for index, card in enumerate(reading.cards) if index not in matched]
    counts["ghosts"] += len(ghosts)
    counts["named_ghosts"] += sum(card.name is not None for card in ghosts)
    counts["scenes"] += 1
    return counts


def _frame_size() -> str:
    width, height = scene.FRAME_SIZE
    return f"{width}x{height}"


NAMING_JITTER_MM = 0.7
"""Outline error the naming-only run puts on the true corners (an outline found a little off)."""


def jittered(corners: np.ndarray, card_mm: tuple[float, float],
             rng: np.random.Generator) -> np.ndarray:
    """A card's true ``corners`` as an outline hands them to the namer: each moved by
    ``NAMING_JITTER_MM`` (one standard deviation, at the card's px/mm across) and started from
    either end (the draws ``name_styled`` makes, card after card, from its table's ``rng``)."""
    scale = float(np.hypot(*(corners[1] - corners[0]))) / card_mm[0]
    moved = corners + rng.normal(0, NAMING_JITTER_MM * scale, (4, 2))
    return np.roll(moved, 2 * int(rng.integers(0, 2)), axis=0)


def name_styled(job: tuple[str, int, int, str], shots: int = 1) -> Counter[str]:
    """Naming alone on one rendered table of a foreign deck: every card in view is handed to
    the namer at its true corners, jittered by ``NAMING_JITTER_MM`` and started from either
    end, as outlines come (no outline search, so it runs many times faster). With ``shots``
    the table is photographed that many times in fresh sensor noise, each card jittered afresh
    every time: a hunt for the rare wrong name that one look misses."""
    style, deck_seed, seed, level = job
    deck, references = _styled(style, deck_seed)
    table = lay_table(spread_layout(deck, seed), Look.draw(seed, difficulty(level)), faces=deck)
    rng = np.random.default_rng([seed, deck_seed, 71])
    counts: Counter[str] = Counter()
    for image, truth in (photograph(table, shot) for shot in range(shots)):
        for seen in truth.cards:
            if seen.occluded:
                continue
            corners = jittered(seen.corners, deck.card_mm, rng)
            begin = time.perf_counter()
            name = references.read(image, corners).name
            counts["naming_us"] += round(1e6 * (time.perf_counter() - begin))
            counts["visible"] += 1
            counts["found"] += 1
            counts["unknown" if name is None else "correct" if name == seen.name else "wrong"] += 1
            if name is not None and name != seen.name:
                counts[_wrong_key(style, deck_seed, seed, seen, name)] += 1
    counts["scenes"] += 1
    return counts


WRONG = "wrong name: "
"""Counter keys that describe one wrong name (printed after the table)."""


def _wrong_key(style: str, deck_seed: int, seed: int, seen: SeenCard, name: str) -> str:
    """A wrong name, described for the report: which card for which, where, how large."""
    across = float(np.hypot(*(seen.corners[1] - seen.corners[0])))
    down = float(np.hypot(*(seen.corners[3] - seen.corners[0])))
    return (f"{WRONG}{style} deck {deck_seed} scene {seed}: {seen.name!r} named {name!r} "
            f"({across:.0f} x {down:.0f} px)")


def styled_latency(frames: int) -> None:
    """Time per frame (1280 x 720, or as ``camera_scale`` set) of a 28-card table of the artwork
    deck, fresh every frame and still, and where the time goes."""
    from vision.markers import TableFinder

    deck, references = _styled("artwork", 1)
    images = []
    for seed in range(6):
        look = Look.draw(2000 + seed, difficulty("medium"))
        laid = spread_layout(deck, 2000 + seed)[:28]
        images.append(photograph(lay_table(laid, look, faces=deck), 0, hands=0)[0])
    # The twin classifiers of these cards' resolutions are learnt once (kept for the session,
    # a first frame's cost, reported in docs/vision.md), not on every timed frame: each table
    # read fresh, as the timed frames are (one pipeline would keep the last table's markers).
    for image in images:
        Pipeline(deck=deck.deck.name, references=references).read(image)
    times, cpu = [], []
    for index in range(frames):
        pipeline = Pipeline(deck=deck.deck.name, references=references)
        begin, begin_cpu = time.perf_counter(), time.process_time()
        pipeline.read(images[index % len(images)])
        times.append((time.perf_counter() - begin) * 1000)
        cpu.append((time.process_time() - begin_cpu) * 1000)
    times.sort()
    cpu.sort()
    # CPU time (all threads) is the steadier figure when other programs share the machine.
    print(f"foreign deck, {_frame_size()}, 28 cards, a new table every frame: p50 "
          f"{statistics.median(times):.0f} ms, p95 {times[int(0.95 * (len(times) - 1))]:.0f} ms, "
          f"{1000 * len(times) / sum(times):.1f} fps; CPU p50 {statistics.median(cpu):.0f} ms, "
          f"p95 {cpu[int(0.95 * (len(cpu) - 1))]:.0f} ms", flush=True)
    pipeline = Pipeline(deck=deck.deck.name, references=references)
    table = lay_table(spread_layout(deck, 2000)[:28], Look.draw(2000, difficulty("medium")),
                      faces=deck)
    shots = [photograph(table, shot, hands=0)[0] for shot in range(12)]
    pipeline.read(shots[0])
    still = []
    for image in shots[1:]:
        begin = time.perf_counter()
        pipeline.read(image)
        still.append((time.perf_counter() - begin) * 1000)
    print(f"foreign deck, one still table (noise only changes): p50 "
          f"{statistics.median(still):.0f} ms, {1000 * len(still) / sum(still):.1f} fps")
    changed, changed_cpu, searched, parts_changed = [], [], [], Counter[str]()
    for seed in range(6):
        look = Look.draw(2000 + seed, difficulty("medium"))
        laid = spread_layout(deck, 2000 + seed)[:28]
        before = photograph(lay_table(laid[:-1], look, faces=deck), 0, hands=0)[0]
        after = photograph(lay_table(laid, look, faces=deck), 0, hands=0)[0]
        pipeline = Pipeline(deck=deck.deck.name, references=references)
        pipeline.read(before)
        reader = pipeline._deck_reader
        assert reader is not None
        begin, begin_cpu = time.perf_counter(), time.process_time()
        pipeline.read(after)
        changed.append((time.perf_counter() - begin) * 1000)
        changed_cpu.append((time.process_time() - begin_cpu) * 1000)
        width, height = reader.finder.size
        searched.append(sum((r - left) * (b - top) for left, top, r, b in reader.searched or [
            (0, 0, width, height)]) / (width * height))
        homography = pipeline.table.homography
        assert homography is not None
        for window in reader.searched or [None]:
            begin = time.perf_counter()
            found = reader.finder.find(after, homography, window=window)
            parts_changed["outlines"] += time.perf_counter() - begin
            begin = time.perf_counter()
            for outline in found[:1]:  # the card laid; the rest keep their names
                references.read(after, transform_points(np.linalg.inv(homography),
                                                        outline.corners))
            parts_changed["naming one card"] += time.perf_counter() - begin
    changed.sort()
    print(f"foreign deck, one card laid on the table: p50 {statistics.median(changed):.0f} ms, "
          f"max {changed[-1]:.0f} ms, {1000 * len(changed) / sum(changed):.1f} fps (CPU p50 "
          f"{statistics.median(changed_cpu):.0f} ms); searched "
          f"{100 * statistics.mean(searched):.0f} % of the table; outlines "
          f"{1000 * parts_changed['outlines'] / len(changed):.0f} ms, naming one card "
          f"{1000 * parts_changed['naming one card'] / len(changed):.0f} ms")
    parts: Counter[str] = Counter()
    finder = TableFinder()
    reader = Pipeline(deck=deck.deck.name, references=references)._deck_reader
    assert reader is not None
    for image in images:
        begin = time.process_time()
        finder.update(image)
        parts["markers"] += time.process_time() - begin
        assert finder.homography is not None
        begin = time.process_time()
        outlines = reader.finder.find(image, finder.homography)
        parts["outlines"] += time.process_time() - begin
        to_image = np.linalg.inv(finder.homography)
        begin = time.process_time()
        for outline in outlines:
            references.read(image, transform_points(to_image, outline.corners))
        parts["naming"] += time.process_time() - begin
    print("where the time goes (fresh table, CPU): " + ", ".join(
        f"{part} {1000 * total / len(images):.0f} ms" for part, total in parts.items()))


def styles_report(scenes: int, workers: int, naming: bool = False,
                  styles: tuple[str, ...] = STYLES, cloth: bool = False, scale: float = 1.0,
                  shots: int = 1, decks: str = "both", left_out: int = 0,
                  levels: tuple[str, ...] = tuple(DIFFICULTIES)) -> None:
    """Print recall, correct, wrong, unknown and ghosts per deck style and level (``naming``:
    naming alone, at the true corners, with the time per card instead of ghosts; ``cloth``:
    the empty table looked at first; ``scale``: a webcam with that many times the pixels,
    ``camera_scale``; ``shots``: with ``naming``, photographs a table, ``name_styled``;
    ``decks``: tuned, held-out, both or fresh (``DECK_SETS``); ``left_out``: ``LEFT_OUT``;
    ``levels``: the difficulty levels measured)."""
    print(f"{'style':<10} {'decks':<9} {'level':<7} {'scenes':>6} {'cards':>6} {'recall':>7} "
          f"{'correct':>8} {'wrong':>6} {'unknown':>8} " +
          ("ms/card" if naming else f"{'ghosts':>7} {'named':>6}"))
    grand: Counter[str] = Counter()
    wanted = ("tuned", "held-out") if decks == "both" else (decks,)
    with Pool(workers, initializer=_worker, initargs=(scale, left_out)) as pool:
        for style in styles:
            for deck_set in wanted:
                deck_seeds, first_scene = DECK_SETS[deck_set]
                for level in levels:
                    jobs = [(style, deck_seeds[index % len(deck_seeds)], first_scene + index,
                             level) for index in range(scenes)]
                    total: Counter[str] = Counter()
                    score = (partial(name_styled, shots=shots) if naming else
                             score_styled_on_cloth if cloth else score_styled)
                    for counts in pool.imap_unordered(score, jobs, chunksize=2):
                        total.update(counts)
                    grand.update(total)
                    visible = max(1, total["visible"])
                    print(f"{style:<10} {deck_set:<9} {level:<7} {total['scenes']:>6} "
                          f"{total['visible']:>6} {100 * total['found'] / visible:>6.1f}% "
                          f"{100 * total['correct'] / visible:>7.1f}% {total['wrong']:>6} "
                          f"{100 * total['unknown'] / visible:>7.1f}% " +
                          (f"{total['naming_us'] / 1000 / visible:>7.2f}" if naming else
                           f"{total['ghosts']:>7} {total['named_ghosts']:>6}"), flush=True)
    for key in sorted(key for key in grand if key.startswith(WRONG)):
        print(key if grand[key] == 1 else f"{key} x{grand[key]}")
    print(f"all: {grand['visible']} cards in view, {grand['wrong']} wrong names, "
          f"{grand['ghosts']} ghosts ({grand['named_ghosts']} named)")


def main() -> None:
    """Run the benchmark and print its numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=500,
                        help="scenes per difficulty level (0: latency only)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the scenes")
    parser.add_argument("--frames", type=int, default=300,
                        help="frames for the latency run (0: skip it)")
    parser.add_argument("--styles", action="store_true",
                        help="foreign decks without a frame line (scenes per style, decks and "
                             "level)")
    parser.add_argument("--naming", action="store_true",
                        help="with --styles: naming alone, handed each card's true corners")
    parser.add_argument("--style", action="append", choices=STYLES,
                        help="with --styles: only this deck style (repeat for more)")
    parser.add_argument("--level", action="append", choices=DIFFICULTIES,
                        help="with --styles: only this difficulty level (repeat for more)")
    parser.add_argument("--cloth", action="store_true",
                        help="with --styles: the empty table looked at first (as `vision "
                             "calibrate` does), so cards are also found where it differs")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="a webcam with this many times the pixels along each side (1.5: "
                             "1920 x 1080), for every measure")
    parser.add_argument("--shots", type=int, default=1,
                        help="with --styles --naming: photographs of each table, in fresh "
                             "noise, every card jittered afresh (a hunt for rare wrong names)")
    parser.add_argument("--decks", choices=("both", *DECK_SETS), default="both",
                        help="with --styles: the tuning deck, the held-out decks, both, or "
                             "the fresh decks (see DECK_SETS before using them)")
    parser.add_argument("--left-out", type=int, default=0, metavar="N",
                        help="with --styles --naming: enroll a deck without every Nth card "
                             "(a deck enrolled in part: any name for one of them is wrong)")
    args = parser.parse_args()
    if args.left_out and not (args.styles and args.naming and args.left_out >= 2):
        parser.error("--left-out takes 2 or more, with --styles --naming")
    if args.shots != 1 and not (args.styles and args.naming and args.shots >= 1):
        parser.error("--shots takes 1 or more, with --styles --naming")
    if not 0.25 <= args.scale <= 4:
        parser.error("--scale takes 0.25-4")
    camera_scale(args.scale)  # the timings render here; the scenes' workers are told too

    if args.styles:
        if args.frames > 0 and not args.naming:
            styled_latency(args.frames)
        if args.scenes > 0:
            styles_report(args.scenes, args.workers, args.naming, tuple(args.style or STYLES),
                          args.cloth, args.scale, args.shots, args.decks, args.left_out,
                          tuple(args.level or DIFFICULTIES))
        return

    if args.frames > 0:
        p50, p95, fps, cpu_ms = latency(args.frames)
        print(f"latency, {_frame_size()} with 28 cards, {args.frames} frames: p50 {p50:.1f} ms, "
              f"p95 {p95:.1f} ms, {fps:.1f} fps, {cpu_ms:.1f} ms CPU per frame", flush=True)
        still_p50, still_fps = still_latency()
        print(f"latency, one still table (noise only changes): p50 {still_p50:.1f} ms, "
              f"{still_fps:.1f} fps", flush=True)
    if args.scenes <= 0:
        return
    header = (f"{'level':<7} {'scenes':>6} {'cards':>6} {'recall':>7} {'correct':>8} "
              f"{'wrong':>7} {'unknown':>8} {'spurious':>8} {'obs ok':>7} | baseline: "
              f"{'correct':>8} {'wrong':>7} {'unknown':>8}")
    print(header)
    with Pool(args.workers, initializer=camera_scale, initargs=(args.scale,)) as pool:
        for level in DIFFICULTIES:
            total: Counter[str] = Counter()
            jobs = [(seed, level) for seed in range(args.scenes)]
            for counts in pool.imap_unordered(score_scene, jobs, chunksize=4):
                total.update(counts)
            visible = max(1, total["visible"])

            def share(key: str, total: Counter[str] = total, visible: int = visible) -> str:
                return f"{100 * total[key] / visible:.2f}%"

            print(f"{level:<7} {total['scenes']:>6} {total['visible']:>6} {share('found'):>7} "
                  f"{share('correct'):>8} {share('wrong'):>7} {share('unknown'):>8} "
                  f"{total['spurious_named']:>8} "
                  f"{100 * total['observation_right'] / max(1, total['scenes']):>6.1f}% | "
                  f"{'':>9} {share('base_correct'):>8} {share('base_wrong'):>7} "
                  f"{share('base_unknown'):>8}", flush=True)
    print("recall, correct, wrong, unknown: shares of the cards fully in view; spurious: names "
          "given where no card is; obs ok: frames whose whole observation is right.")


if __name__ == "__main__":
    main()
