"""A simple seeded player for demos and tests: greedy, with random tie-breaks."""

from __future__ import annotations

import random
from collections.abc import Callable

import host.engine as engine
from host.engine import greedy_choice
from host.express.cards import WILD
from host.express.game import HAND_LIMIT, ExpressGame
from host.express.moves import (
    Accept,
    AddCar,
    Discard,
    DrawFromDeck,
    ExchangeLoco,
    Move,
    PlayWayCar,
    Protect,
    StartTrain,
    TakeBackLoco,
    TakeDiscard,
)


def _worth(game: ExpressGame, move: Move) -> float:
    """How much the bot likes a move (higher is better)."""
    hand = game.seats[game.current].hand
    match move:
        case Protect():
            return 100
        case Accept():
            return 0
        case DrawFromDeck():
            return 3
        case TakeDiscard():
            top = game.discard_pile[-1]
            fits = (
                any(
                    game.why_illegal(AddCar(top, train)) is None
                    for train in range(len(game.seats[game.current].trains))
                )
                if top != WILD
                else True
            )
            return 5 if fits else 0
        case Discard(card) if len(hand) == 1:
            return 1000
        case AddCar(card, _, as_type):
            return 50 + (10 if as_type is None else 0) + game.cards[card].value
        case PlayWayCar():
            return 40
        case StartTrain(card, diesel):
            if len(hand) <= HAND_LIMIT + 1:
                return -5
            return 30 if diesel else 20 - game.cards[card].value
        case ExchangeLoco() | TakeBackLoco():
            return -10
        case Discard(card):
            return 10 + game.cards[card].value
    return 15  # a Disaster or Turntable


def choose(game: ExpressGame, rng: random.Random,
           allowed: Callable[[Move], bool] = lambda move: True) -> Move:
    """The bot's move for the seat that must act now, among the legal moves ``allowed`` likes
    (all of them if it likes none)."""
    moves = game.legal_moves()
    return greedy_choice([move for move in moves if allowed(move)] or moves,
                         lambda move: _worth(game, move), rng)


def play_out(game: ExpressGame, rng: random.Random, limit: int = 5000,
             allowed: Callable[[Move], bool] = lambda move: True) -> None:
    """Let bots play the hand to its end (or ``limit`` moves), choosing among the moves
    ``allowed`` likes."""
    engine.play_out(game, lambda: choose(game, rng, allowed), limit)
