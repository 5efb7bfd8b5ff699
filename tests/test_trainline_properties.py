"""Property tests over random Train Line games: conservation, undo, records, turn order."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from host.trainline.game import PAWNS, Phase, TrainlineGame
from host.trainline.moves import Move, PlayExpress, PlayReverse
from host.turns import Direction

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def pick(game: TrainlineGame, rng: random.Random) -> Move:
    """A random legal move, leaning on Express and Reverse; the boarding die rolled fairly."""
    if game.is_chance_node():
        return game.sample_chance(rng)
    moves = game.legal_moves()
    twisty = [m for m in moves if isinstance(m, PlayExpress | PlayReverse)]
    return rng.choice(twisty) if twisty and rng.random() < 0.6 else rng.choice(moves)


@settings(max_examples=20, deadline=None)
@given(seed=seeds, players=st.integers(2, 4))
def test_cards_and_pawns_are_conserved(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = TrainlineGame.new(players, rng, first=rng.randrange(players))
    deck = Counter(game.cards.number_deck() + game.cards.action_deck())
    for _ in range(300):
        if game.phase is Phase.OVER:
            break
        game.push(pick(game, rng))
        assert game.all_cards() == deck
        seated = [cell for player in game.players for cell in player.seated]
        assert len(seated) == len(set(seated))  # one pawn per seat
        for seat, player in enumerate(game.players):
            assert game.pawn_count(seat) == PAWNS[players]
            assert min(player.supply, player.tokens) >= 0


@settings(max_examples=10, deadline=None)
@given(seed=seeds, length=st.integers(1, 60))
def test_undo_goes_back_to_the_start_and_records_replay(seed: int, length: int) -> None:
    rng = random.Random(seed)
    game = TrainlineGame.new(3, rng)
    start = game.record_lines()
    snapshots = []
    for _ in range(length):
        if game.phase is Phase.OVER:
            break
        snapshots.append(game.record_lines())
        game.push(pick(game, rng))
    replayed = TrainlineGame.from_record_lines(game.record_lines())
    assert replayed.turn_indicator() == game.turn_indicator()
    assert [p.seated for p in replayed.players] == [p.seated for p in game.players]
    while game.record:
        game.pop()
        assert game.record_lines() == snapshots.pop()
    assert game.record_lines() == start


@settings(max_examples=30, deadline=None)
@given(seed=seeds, players=st.integers(2, 4))
def test_turn_indicator_follows_express_and_reverse(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = TrainlineGame.new(players, rng, first=rng.randrange(players))
    seat, step, target = game.current, 1, (game.current + 1) % players
    skips = [0] * players
    for _ in range(400):
        if game.phase is Phase.OVER:
            break
        begun = game.turns_begun
        move = pick(game, rng)
        game.push(move)
        if isinstance(move, PlayExpress):  # the next player loses a turn; targets move on
            skips[target] += 1
            target = (target + step) % players
        elif isinstance(move, PlayReverse):  # play and targets turn round
            step = -step
            target = (seat + step) % players
        if game.phase is Phase.OVER:
            break
        if game.turns_begun != begun:
            seat = (seat + step) % players
            while skips[seat]:
                skips[seat] -= 1
                seat = (seat + step) % players
            target = (seat + step) % players
        shown = game.turn_indicator()
        if game.phase is Phase.MAIN:
            assert shown.on_turn == seat
        assert shown.direction is (Direction.CLOCKWISE if step == 1 else
                                   Direction.COUNTERCLOCKWISE)
        assert shown.skipped == {s for s, n in enumerate(skips) if n}
