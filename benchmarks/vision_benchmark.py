"""Measure the webcam card recognizer on rendered table photographs.

Prints, for 1280 x 720 frames with 28 cards, the per-frame latency (p50, p95) and frames per
second of the whole pipeline (markers, cards, identities, zones), and for N rendered scenes
per difficulty level: cards found (recall over cards fully in view), correct, wrong and unknown
identities, with the same counts for a simple baseline: whole-card template matching without
rectification (each card's upright bounding box, turned by quarter turns, against every face).
The baseline is handed the true card positions, so only its identification is compared.

    python benchmarks/vision_benchmark.py --scenes 500 --workers 2
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from functools import lru_cache
from multiprocessing import Pool

import cv2
import numpy as np

from host.deck import load_deck
from host.trains.observation import TrainsObservation
from vision.faces import render_face
from vision.imaging import Image, grey
from vision.pipeline import Pipeline
from vision.scene import (
    DIFFICULTIES,
    GroundTruth,
    Look,
    difficulty,
    lay_table,
    photograph,
    random_trains_table,
    render_table,
    trains_layout,
)
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
        if distances and min(distances) < 15:
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


def _near_any(centre: tuple[float, float], truth: GroundTruth) -> bool:
    return any(np.hypot(*np.subtract(centre, seen.centre)) < 15 for seen in truth.cards)


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


def main() -> None:
    """Run the benchmark and print its numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=500,
                        help="scenes per difficulty level (0: latency only)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the scenes")
    parser.add_argument("--frames", type=int, default=300,
                        help="frames for the latency run (0: skip it)")
    args = parser.parse_args()

    if args.frames > 0:
        p50, p95, fps, cpu_ms = latency(args.frames)
        print(f"latency, 1280x720 with 28 cards, {args.frames} frames: p50 {p50:.1f} ms, "
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
    with Pool(args.workers) as pool:
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
