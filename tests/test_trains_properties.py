"""Property tests over random games of The Game of Trains (hypothesis prints the failing seed).

Random games mix greedy and random moves so that they both last (reaching reshuffles) and end.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from trains_helpers import everywhere

from host.trains.bots import GreedyBot
from host.trains.game import Game
from host.trains.moves import Move
from host.trains.observation import TrainsObservation
from host.trains.position import DECK_SIZE, Phase, Position, apply, complete, decisions
from host.trains.referee import Referee

seeds = st.integers(min_value=0, max_value=2**32 - 1)
table_sizes = st.integers(min_value=2, max_value=4)


def random_game(seed: int, seats: int, length: int) -> Game:
    """A game of at most ``length`` moves: one move in four greedy, the rest random."""
    rng = random.Random(seed)
    game = Game(Position.deal(seats, rng.randrange(seats), rng))
    bot = GreedyBot(rng)
    while len(game.moves) < length and game.position.phase is not Phase.OVER:
        if rng.random() < 0.25:
            move = bot.choose(game.position)
        else:
            options = list(decisions(game.position))
            move = _completed(game.position, rng.choice(options), rng)
        game.push(move)
    return game


def _completed(position: Position, decision: Move, rng: random.Random) -> Move:
    from host.trains.position import keep_choices

    keep = rng.choice(keep_choices(position, decision))
    chosen = Move(decision.seat, decision.kind, decision.slot, decision.card, keep=keep)
    return complete(position, chosen, rng)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, seats=table_sizes)
def test_every_card_is_in_exactly_one_place_at_all_times(seed: int, seats: int) -> None:
    game = random_game(seed, seats, 250)
    position = game.start
    for move in game.moves:
        position = apply(position, move)
        assert everywhere(position) == list(range(1, DECK_SIZE + 1)), move
        assert position.draw_count == len(position.draw_pile or [])
        assert len(position.faceup) <= 8


@settings(max_examples=15, deadline=None)
@given(seed=seeds, seats=table_sizes)
def test_undo_restores_every_position_back_to_the_start(seed: int, seats: int) -> None:
    game = random_game(seed, seats, 60)
    history = [game.start.to_json()]
    for move in game.moves:
        history.append(apply(Position.from_json(history[-1]), move).to_json())
    while game.moves:
        assert game.position.to_json() == history[len(game.moves)]
        game.pop()
    assert game.position.to_json() == history[0]


@settings(max_examples=15, deadline=None)
@given(seed=seeds, seats=table_sizes)
def test_positions_moves_and_records_round_trip_through_json(seed: int, seats: int) -> None:
    game = random_game(seed, seats, 80)
    text = json.dumps(game.position.to_json())
    assert Position.from_json(json.loads(text)) == game.position
    for move in game.moves:
        assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move
    assert Game.from_record(game.record()).position == game.position


@settings(max_examples=20, deadline=None)
@given(seed=seeds, seats=table_sizes)
def test_the_referee_recognises_every_turn_from_the_table_alone(seed: int, seats: int) -> None:
    game = random_game(seed, seats, 200)
    opening = game.start
    referee = Referee(Position.from_table(seats, opening.first, opening.lines, [], Phase.DRAFT))
    position = opening
    for move in game.moves:
        position = apply(position, move)
        verdict = referee.observe(TrainsObservation.of(position)).to_json()
        assert verdict["verdict"] in ("move", "win"), (move, verdict)
        assert (
            verdict["move"]["kind"] == move.kind.value and verdict["move"].get("card") == move.card
        )
        assert TrainsObservation.of(referee.game.position) == TrainsObservation.of(position)
        assert referee.game.position.to_play == position.to_play
        # Nothing changed since: the referee waits.
        assert referee.observe(TrainsObservation.of(position)).verdict in ("waiting",)


@settings(max_examples=20, deadline=None)
@given(seed=seeds, seats=table_sizes, mutation=st.integers(min_value=0, max_value=3))
def test_the_referee_rejects_a_tampered_turn_and_keeps_its_position(
    seed: int, seats: int, mutation: int
) -> None:
    rng = random.Random(seed)
    game = random_game(seed, seats, 40)
    referee = Referee(
        Position.from_table(seats, game.start.first, game.start.lines, [], Phase.DRAFT)
    )
    for move in game.moves:
        referee.observe(TrainsObservation.of(apply(referee.game.position, move)))
    if game.position.phase is Phase.OVER:
        return
    committed = referee.game.position
    seen = TrainsObservation.of(committed)
    lines = [list(line) for line in seen.lines]
    seat, other = committed.to_play, (committed.to_play + 1) % seats
    if mutation == 0:  # the seat's own cards change order without any face-up card used
        i, j = sorted(rng.sample(range(7), 2))
        lines[seat][i], lines[seat][j] = lines[seat][j], lines[seat][i]
    elif mutation == 1:  # another seat swaps, out of turn
        lines[other][0], lines[other][1] = lines[other][1], lines[other][0]
    elif mutation == 2:  # two new cards appear in the seat's line at once
        fresh = sorted(committed.unseen())[:2]
        lines[seat][0], lines[seat][6] = fresh
    else:  # a card the referee saw discarded comes back before any reshuffle
        if not committed.discard or committed.draw_count == 0:
            return  # with the draw pile empty the discard pile is reshuffled: it may come back
        lines[seat][3] = committed.discard[-1]
    tampered = TrainsObservation(tuple(tuple(line) for line in lines), seen.faceup, seen.locks)
    verdict = referee.observe(tampered)
    assert verdict.verdict == "illegal", verdict
    assert verdict.to_json()["reason"]
    assert referee.game.position == committed
