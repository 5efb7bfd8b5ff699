"""Property tests over random games: conservation, scores, undo, JSON and records."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host.errors import IllegalMoveError
from host.rollecate.bots import simple_policy
from host.rollecate.cards import default_book
from host.rollecate.state import GameState

seeds = st.integers(0, 2**32 - 1)
players = st.integers(2, 4)


def _random_moves(state: GameState, rng: random.Random, limit: int) -> list[dict[str, object]]:
    """Play up to ``limit`` random moves, returning the state's JSON before each one."""
    snapshots = []
    for _ in range(limit):
        if state.over:
            break
        snapshots.append(state.to_json())
        chance = state.is_chance_node()
        state.push(state.roll_dice(rng) if chance else rng.choice(state.legal_moves()))
    return snapshots


@settings(max_examples=25, deadline=None)
@given(seed=seeds, count=players)
def test_cards_are_conserved_and_scores_are_piles_plus_hands(seed: int, count: int) -> None:
    rng = random.Random(seed)
    state = GameState.new(count, rng)
    deck = Counter(default_book().full_deck())
    while not state.over:
        move = state.roll_dice(rng) if state.is_chance_node() else rng.choice(state.legal_moves())
        state.push(move)
        assert state.cards_in_play() == deck
    assert state.draw_pile == []
    value = state.book.value
    for seat, score in enumerate(state.scores().seats):
        cards = [*state.discards[seat], *state.hands[seat]]
        assert score.total == sum(value(name) for name in cards)
        assert score.cards == len(cards)
    # Combined cards went to the box in pairs of equal value.
    for box in state.boxed:
        assert len(box) % 2 == 0
        assert all(value(a) == value(b) for a, b in zip(box[::2], box[1::2], strict=True))


@settings(max_examples=8, deadline=None)
@given(seed=seeds, count=players)
def test_undo_back_to_the_start_restores_every_state(seed: int, count: int) -> None:
    rng = random.Random(seed)
    state = GameState.new(count, rng)
    snapshots = _random_moves(state, rng, limit=1_000)  # a whole game
    assert state.over
    for snapshot in reversed(snapshots):
        state.pop()
        assert state.to_json() == snapshot
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        state.pop()


@settings(max_examples=20, deadline=None)
@given(seed=seeds, count=players, stop=st.integers(0, 200))
def test_states_and_records_round_trip_through_json(seed: int, count: int, stop: int) -> None:
    rng = random.Random(seed)
    state = GameState.new(count, rng)
    _random_moves(state, rng, limit=stop)
    assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state
    assert GameState.from_record(state.record()) == state


@settings(max_examples=10, deadline=None)
@given(seed=seeds, count=players)
def test_the_simple_bot_only_makes_legal_moves_and_finishes(seed: int, count: int) -> None:
    rng = random.Random(seed)
    state = GameState.new(count, rng)
    while not state.over:
        if state.is_chance_node():
            state.push(state.roll_dice(rng))
        else:
            move = simple_policy(state)
            assert move in state.legal_moves()
            state.push(move)
    assert state.turn_indicator().on_turn is None
    assert state.turn_indicator().winners == frozenset(state.scores().winners)


def test_chance_outcomes_are_a_probability_distribution() -> None:
    rng = random.Random(7)
    state = GameState.new(2, rng)
    while not state.is_chance_node():
        if state.over:
            raise AssertionError("seed 7 never builds")
        state.push(rng.choice(state.legal_moves()))
    outcomes = state.chance_outcomes()
    assert abs(sum(probability for _, probability in outcomes) - 1) < 1e-9
    assert {roll for roll, _ in outcomes} == set(state.legal_moves())
    assert len(outcomes) == 2 ** state.dice_to_roll()
