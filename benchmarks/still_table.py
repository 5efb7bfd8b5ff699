"""What a still table costs the reader of a foreign deck, frame after frame.

The common case in play is a table nobody touches: the camera sees the same cards, only the
sensor's noise changes. Each table (``vision.deck_scene`` spreads, any style and level) is
photographed again and again with fresh noise and read by one ``Pipeline``, which fits the
markers again every few frames as in play. Printed per style, level and deck (the tuning deck
1 on scene seeds from 300, held-out decks 100-103 on scene seeds from 5000):

- whole: frames (per 100 still frames) on which the whole table was searched again;
- part: frames on which only windows round a change were searched;
- CPU milliseconds per still frame, p50 and p95 (the first frame, a new table, left out);
- renamed: cards whose name differs from the first frame's (found again on a later frame);
- wrong: names that are not the card lying there, over every frame.

With ``--hands`` every fourth frame has a hand over the table (the picture changes in part; the
camera has not moved), and the hand frames are counted among the frames.

    OPENBLAS_NUM_THREADS=1 python benchmarks/still_table.py --style artwork --level hard \
        --tables 4 --frames 25

``--scale 1.5``: a 1920 x 1080 webcam (``vision.scene.camera_scale``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from multiprocessing import Pool
from typing import Any

import numpy as np

from vision import scene
from vision.deck_scene import spread_layout
from vision.imaging import frame_px
from vision.pipeline import Pipeline
from vision.recognize import CardReferences
from vision.scene import Look, camera_scale, difficulty, lay_table, photograph
from vision.styles import STYLES, styled_deck

TUNING = ((1, 300),)
"""Deck seed and first scene seed tuned on."""
HELD_OUT = ((100, 5000), (101, 5000), (102, 5000), (103, 5000))
"""Decks and scenes never tuned on."""
MATCH_PX = 15.0
"""A card read within this many pixels of a card laid (at 1280 x 720; as many more as the camera
has) is that card."""


def still_table(job: tuple[str, int, int, str, int, bool]) -> tuple[Counter[str], list[float]]:
    """Counts and CPU milliseconds per frame for one table read ``frames`` times."""
    style, deck_seed, seed, level, frames, hands = job
    deck = styled_deck(style, deck_seed)
    references = CardReferences(deck.deck.name, deck.card_mm, deck.scans(), complete=True)
    look = Look.draw(seed, difficulty(level))
    table = lay_table(spread_layout(deck, seed), look, faces=deck)
    pipeline = Pipeline(deck=deck.deck.name, references=references)
    reader = pipeline._deck_reader
    assert reader is not None
    counts: Counter[str] = Counter()
    find = reader.finder.find

    def counted(*args: Any, **kwargs: Any) -> Any:
        # Told by the finder's calls, not the reader's state: any reader version is measured.
        counts["whole" if len(args) < 4 and kwargs.get("window") is None else "windows"] += 1
        return find(*args, **kwargs)

    reader.finder.find = counted  # type: ignore[method-assign]
    cpu: list[float] = []
    first: dict[int, str | None] = {}
    for shot in range(frames):
        image, truth = photograph(table, shot, hands=1 if hands and shot % 4 == 2 else 0)
        before = counts["whole"], counts["windows"]
        begin = time.process_time()
        reading = pipeline.read(image)
        spent = (time.process_time() - begin) * 1000
        searched = counts["whole"] - before[0], counts["windows"] - before[1]
        for index, card in enumerate(truth.cards):
            if card.occluded:
                continue
            distances = [float(np.hypot(*np.subtract(found.centre, card.centre)))
                         for found in reading.cards]
            nearest = int(np.argmin(distances)) if distances else -1
            name = (reading.cards[nearest].name if distances and distances[nearest]
                    < frame_px(MATCH_PX, scene.FRAME_SIZE[0]) else None)
            if name is not None and name != card.name:
                counts["wrong"] += 1
                print(f"WRONG {style} deck {deck_seed} scene {seed} {level} shot {shot}: "
                      f"{card.name!r} named {name!r}", flush=True)
            if shot == 0:
                first[index] = name
            elif name != first.get(index):
                counts["renamed"] += 1
        if shot == 0:
            continue
        cpu.append(spent)
        counts["frames"] += 1
        counts["whole frames"] += searched[0] > 0
        counts["part frames"] += searched[0] == 0 and searched[1] > 0
    return counts, cpu


def main() -> None:
    """Run the tables and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", action="append", choices=STYLES,
                        help="deck style (repeat for more; default artwork and bordered)")
    parser.add_argument("--level", action="append", choices=["easy", "medium", "hard"],
                        help="difficulty (repeat for more; default hard)")
    parser.add_argument("--tables", type=int, default=4, help="tables per deck line")
    parser.add_argument("--frames", type=int, default=26, help="frames per table")
    parser.add_argument("--hands", action="store_true",
                        help="a hand over the table on every fourth frame")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="a webcam with this many times the pixels along each side (1.5: "
                             "1920 x 1080)")
    args = parser.parse_args()
    if not 0.25 <= args.scale <= 4:
        parser.error("--scale takes 0.25-4")
    print(f"{'style':<10} {'level':<7} {'decks':<9} {'frames':>6} {'whole':>6} {'part':>6} "
          f"{'CPU p50':>8} {'p95':>6} {'renamed':>8} {'wrong':>6}  (whole, part per 100 "
          f"frames; CPU ms per frame)")
    with Pool(args.workers, initializer=camera_scale, initargs=(args.scale,)) as pool:
        for style in args.style or ["artwork", "bordered"]:
            for level in args.level or ["hard"]:
                for label, decks in (("tuned", TUNING), ("held-out", HELD_OUT)):
                    # Held-out decks take one table each in turn, so as many tables as tuned.
                    jobs = [(style, deck, first + index // len(decks), level, args.frames,
                             args.hands) for index in range(args.tables)
                            for deck, first in [decks[index % len(decks)]]]
                    total: Counter[str] = Counter()
                    cpu: list[float] = []
                    for counts, spent in pool.imap_unordered(still_table, jobs):
                        total.update(counts)
                        cpu += spent
                    cpu.sort()
                    frames = max(1, total["frames"])
                    print(f"{style:<10} {level:<7} {label:<9} {total['frames']:>6} "
                          f"{100 * total['whole frames'] / frames:>6.1f} "
                          f"{100 * total['part frames'] / frames:>6.1f} "
                          f"{statistics.median(cpu):>8.1f} {cpu[int(0.95 * (len(cpu) - 1))]:>6.1f} "
                          f"{total['renamed']:>8} {total['wrong']:>6}", flush=True)


if __name__ == "__main__":
    main()
