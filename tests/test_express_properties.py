"""Property tests over random Express hands: conservation, scores, undo, records, turn order."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from host.express.cards import standard_cards
from host.express.game import ExpressGame, Phase, deck_for
from host.express.moves import (
    Accept,
    Derail,
    Discard,
    Move,
    PlayTurntable,
    Protect,
)
from host.express.scoring import parse_table, score_seat
from host.turns import Direction

CARDS = standard_cards()
ENDING = (Discard, Derail, PlayTurntable)


def random_hand(seed: int, players: int) -> tuple[ExpressGame, random.Random]:
    rng = random.Random(seed)
    return ExpressGame.new(players, rng, first=rng.randrange(players)), rng


def pick(game: ExpressGame, rng: random.Random) -> Move:
    """A random legal move, leaning towards ending the turn and towards turn-order cards."""
    moves = game.legal_moves()
    twisty = [m for m in moves if isinstance(m, Derail | PlayTurntable)]
    if twisty and rng.random() < 0.7:
        return rng.choice(twisty)
    ending = [m for m in moves if isinstance(m, ENDING)]
    if ending and rng.random() < 0.3:
        return rng.choice(ending)
    return rng.choice(moves)


def table_json(game: ExpressGame) -> str:
    """The engine's table written in the score command's table format."""
    seats = []
    for seat in game.seats:
        trains = [{"loco": "diesel" if t.diesel else "face-down",
                   "cars": [c.card if c.card == c.as_type else f"{c.card}:{c.as_type}"
                            for c in t.cars]} for t in seat.trains]
        seats.append({"trains": trains, "way_cars": seat.way_cars, "hand": seat.hand})
    return json.dumps({"seats": seats})


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=st.integers(2, 6))
def test_cards_are_conserved_and_scores_recomputed_from_the_table_match(seed: int,
                                                                       players: int) -> None:
    game, rng = random_hand(seed, players)
    deck = Counter(deck_for(players, CARDS))
    for _ in range(400):
        if game.phase is Phase.OVER:
            break
        game.push(pick(game, rng))
        assert game.all_cards() == deck
        if game.phase is Phase.PLAY:  # a play never takes a player's last card
            assert game.seats[game.current].hand
    rescored = [score_seat(seat, CARDS).total for seat in parse_table(table_json(game))]
    assert rescored == [score.total for score in game.scores()]


@settings(max_examples=15, deadline=None)
@given(seed=seeds, players=st.integers(2, 4), length=st.integers(1, 120))
def test_undo_goes_back_to_the_start_and_records_replay(seed: int, players: int,
                                                        length: int) -> None:
    game, rng = random_hand(seed, players)
    start = game.record_lines()
    snapshots = []
    for _ in range(length):
        if game.phase is Phase.OVER:
            break
        snapshots.append(game.record_lines())
        game.push(pick(game, rng))
    replayed = ExpressGame.from_record_lines(game.record_lines())
    assert replayed.record_lines() == game.record_lines()
    assert replayed.turn_indicator() == game.turn_indicator()
    while game.record:
        game.pop()
        assert game.record_lines() == snapshots.pop()
    assert game.record_lines() == start and game.seats[0].hand == list(game.setup.deck[:10])


class TurnModel:
    """The turn order as the rulebook tells it, kept apart from the engine."""

    def __init__(self, players: int, first: int) -> None:
        self.players, self.seat, self.step = players, first, 1
        self.lost = [0] * players
        self.again = 0
        self.reverse_after = 0

    def turn_ended(self, ended_by: Move, protected: bool, target: int | None) -> None:
        if isinstance(ended_by, PlayTurntable):
            self.again += 1  # another turn at once ...
            self.reverse_after += 1  # ... then play reverses
        if isinstance(ended_by, Derail) and not protected and target is not None:
            self.lost[target] += 1
        if self.again:
            self.again -= 1
            return
        if self.reverse_after % 2:
            self.step = -self.step
        self.reverse_after = 0
        seat = (self.seat + self.step) % self.players
        while self.lost[seat]:
            self.lost[seat] -= 1
            seat = (seat + self.step) % self.players
        self.seat = seat


@settings(max_examples=30, deadline=None)
@given(seed=seeds, players=st.integers(2, 6))
def test_turn_indicator_follows_turntables_and_derailments(seed: int, players: int) -> None:
    game, rng = random_hand(seed, players)
    model = TurnModel(players, game.current)
    ending: Move | None = None
    for _ in range(600):
        if game.phase is Phase.OVER:
            break
        move = pick(game, rng)
        game.push(move)
        if not isinstance(move, Protect | Accept) and game.phase is not Phase.PLAY:
            ending = move  # the move that ended the turn or awaits an answer
        if game.phase in (Phase.DRAW, Phase.OVER) and ending is not None:
            if game.phase is Phase.OVER:
                break
            protected = isinstance(move, Protect)
            target = ending.seat if isinstance(ending, Derail) else None
            model.turn_ended(ending, protected, target)
            ending = None
            shown = game.turn_indicator()
            assert shown.on_turn == model.seat
            expected = Direction.CLOCKWISE if model.step == 1 else Direction.COUNTERCLOCKWISE
            assert shown.direction is expected
            assert shown.skipped == {s for s, n in enumerate(model.lost) if n}
        elif game.phase is Phase.RESPONSE:
            assert game.turn_indicator().on_turn == game.pending.seat  # type: ignore[union-attr]
