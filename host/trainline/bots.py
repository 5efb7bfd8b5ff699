"""A simple seeded player for demos and tests: greedy, with random tie-breaks and die rolls."""

from __future__ import annotations

import random

import host.engine as engine
from host.engine import greedy_choice
from host.trainline import moves
from host.trainline.game import TrainlineGame
from host.trainline.moves import Move
from host.trainline.tiles import Space


def _worth(game: TrainlineGame, move: Move) -> float:
    """How much the bot likes a move (higher is better)."""
    me = game.players[game.current]
    in_aisle = me.aisle is not None
    match move:
        case moves.Rebel():
            return 100
        case moves.Accept() | moves.EndTurn():
            return 0
        case moves.Enter():
            return 90
        case moves.MoveAlong(numbers, motion, passes, to):
            seat = game.layout.spaces[to] is Space.SEAT
            return (80 if seat else 20) - len(numbers) - motion - len(passes)
        case moves.TakeSeat():
            return 70
        case moves.UsePass():
            return -50 if in_aisle else 60
        case moves.Board():
            return -50 if in_aisle else 40
        case moves.Exit(_, seats):
            return 50 if seats else -20
        case moves.Eccentric():
            return 30
        case moves.PlayExpress():
            return 25
        case moves.PlusDiscard():
            return 15
        case moves.PanHandle():
            return 10
        case moves.PlayReverse():
            return 5
        case moves.UseToken():
            return -5
    return 0


def choose(game: TrainlineGame, rng: random.Random) -> Move:
    """The bot's move for the seat that must act now; the boarding die is rolled with ``rng``."""
    if game.is_chance_node():
        return game.sample_chance(rng)
    return greedy_choice(game.legal_moves(), lambda move: _worth(game, move), rng)


def play_out(game: TrainlineGame, rng: random.Random, limit: int = 5000) -> None:
    """Let bots play to the end (or ``limit`` moves)."""
    engine.play_out(game, lambda: choose(game, rng), limit)
