"""Shared helpers for the Rollecate tests: tables laid out by hand, random games."""

from __future__ import annotations

import random
from collections import Counter

from host.rollecate.cards import default_book
from host.rollecate.rules import Face
from host.rollecate.setup import Setup
from host.rollecate.state import GameState

W, B = Face.WHEEL, Face.BLANK


def table(
    railway: list[str],
    train: int,
    hands: list[list[str]],
    draw: list[str] | None = None,
    first: int = 0,
) -> GameState:
    """A game whose railway, train and hands are given; the rest of the deck is removed unseen.

    ``draw`` is the draw pile, top first; by default a long pile of 1s so the game goes on.
    The first player's draw comes from it, so hands are given before that draw.
    """
    book = default_book()
    draw = draw if draw is not None else ["track-1"] * 5
    used = Counter([*railway, *draw])
    for hand in hands:
        used.update(hand)
    rest = Counter(book.full_deck())
    rest.subtract(used)
    assert min(rest.values()) >= 0, "the table uses more cards than the deck has"
    setup = Setup(
        seats=len(hands),
        first=first,
        railway=tuple(railway),
        train=train,
        hands=tuple(tuple(hand) for hand in hands),
        draw_pile=tuple(draw),
        removed=tuple(sorted(rest.elements())),
    )
    return GameState.start(setup, book)


def play_randomly(state: GameState, rng: random.Random, limit: int = 10_000) -> None:
    """Play uniformly random legal moves (and random dice) until the game is over."""
    for _ in range(limit):
        if state.over:
            return
        move = state.roll_dice(rng) if state.is_chance_node() else rng.choice(state.legal_moves())
        state.push(move)
    raise AssertionError("the game did not end")
