"""The referee against games of an independent engine (tests/rollecate_tables.py), seen as a
camera sees them: no false ``illegal``, every turn counted, no count wrong without saying so.

The run is kept small for the suite; ``benchmarks/rollecate_transcripts.py`` runs more, on seeds
these tests never use.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

from rollecate_tables import CARDS, REMOVED, Camera, play
from rollecate_tally import run

SEEDS = range(100)
"""Seeds of the property run (each with both policies): 200 games, the end spread out."""


def test_the_referee_follows_every_game_and_counts_the_spread_exactly() -> None:
    tally = run(SEEDS)
    assert tally.games == 2 * len(SEEDS)
    assert tally.problems() == {}, tally.problems()


def test_with_the_hands_alone_a_count_may_be_inexact_but_never_silently_wrong() -> None:
    tally = run(range(60, 80), final="hands")
    problems = {kind: games for kind, games in tally.problems().items() if kind != "inexact"}
    assert problems == {}, problems
    assert tally.inexact  # piles seen by their top only hide cards: the spread is needed


def test_the_independent_engine_keeps_every_card_and_plays_36_turns() -> None:
    """Its own check, so that a wrong transcript is not blamed on the referee."""
    for seed in range(12):
        seats = 2 + seed % 3
        game = play(seed, seats, ("random", "greedy")[seed % 2])
        table = game.table
        assert table.turns == 36 and not table.draw, seed
        kept = Counter([*table.railway, *(c for p in table.piles for c in p),
                        *(c for h in table.hands for c in h)])
        assert not kept - Counter(CARDS), seed  # no card twice
        # Every card not on the table went to the box in pairs of equal value, or was removed.
        boxed = sum(Counter(CARDS).values()) - sum(kept.values()) - REMOVED[seats]
        assert boxed >= 0 and boxed % 2 == 0, seed


def test_the_camera_shows_top_cards_only_and_every_seat_button() -> None:
    game = play(7, 3, "random")
    lines = Camera(random.Random(7)).lines(game, final="hands")
    views = [line for line in lines[1:] if "railway" in line and "hands" not in line]
    assert all(pile is None or len(pile) <= 1 for v in views for pile in v["discard"])
    assert any(pile is None for v in views for pile in v["discard"])  # piles out of view
    assert any(a == b and "railway" in a for a, b in pairwise(lines))  # repeated views
    presses = [line for line in lines if line.get("done")]
    assert len(presses) >= game.table.turns
