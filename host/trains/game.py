"""A game of The Game of Trains as its record: the starting table and the list of moves.

Undo replays all but the last move from the start, so the record is the only truth.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

from host.errors import BadInputError
from host.trains.moves import Move
from host.trains.position import Position, apply, legal_moves


class Game:
    """A game in progress: ``push`` a move, ``pop`` the last one, ask for ``legal_moves``."""

    def __init__(self, start: Position) -> None:
        self.start = start.copy()
        self.moves: list[Move] = []
        self.position = start.copy()

    def push(self, move: Move) -> Position:
        """Play ``move`` (IllegalMoveError if it breaks a rule) and return the new position."""
        self.position = apply(self.position, move)
        self.moves.append(move)
        return self.position

    def pop(self) -> Move:
        """Take back the last move by replaying all the others from the start."""
        if not self.moves:
            raise IndexError("no move to take back")
        move = self.moves.pop()
        self.position = self.replay(self.moves)
        return move

    def replay(self, moves: Iterable[Move]) -> Position:
        """The position after playing ``moves`` from the start."""
        position = self.start
        for move in moves:
            position = apply(position, move)
        return position

    def legal_moves(self, rng: random.Random) -> list[Move]:
        """Every legal move, chance outcomes dealt from the known draw pile."""
        return legal_moves(self.position, rng)

    def record(self) -> list[str]:
        """The game as JSON lines: the starting position, then one move a line."""
        return [json.dumps({"start": self.start.to_json()})] + [
            json.dumps(move.to_json()) for move in self.moves
        ]

    @classmethod
    def from_record(cls, lines: Iterable[str]) -> Game:
        """Rebuild a game from ``record()``'s lines, checking every move again."""
        rows = [line for line in lines if line.strip()]
        if not rows:
            raise BadInputError("an empty game record")
        try:
            game = cls(Position.from_json(json.loads(rows[0])["start"]))
            for row in rows[1:]:
                game.push(Move.from_json(json.loads(row)))
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise BadInputError(f"not a Game of Trains record ({error})") from None
        except ValueError as error:
            raise BadInputError(f"the record holds an illegal move: {error}") from None
        return game
