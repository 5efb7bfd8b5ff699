"""A game of The Game of Trains as its record: the starting table and the list of moves.

Undo replays all but the last push from the start, so the record is the only truth. A push is a
whole turn (as the record and the referee write it), a seat's decision alone, or one card the
draw pile deals (a chance outcome); the record writes each turn whole, on one line.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import replace

from host.errors import BadInputError, IllegalMoveError
from host.trains.moves import Drawn, Move
from host.trains.position import (
    Phase,
    Position,
    decisions,
    drawable,
    keep_choices,
    play,
    sample_chance,
)


class Game:
    """A game in progress: ``push`` a move, ``pop`` the last one, ask for ``legal_moves``."""

    def __init__(self, start: Position) -> None:
        self.start = start.copy()
        self.pushed: list[Move | Drawn] = []
        self.position = start.copy()

    @property
    def moves(self) -> list[Move]:
        """The turns so far, each whole: its decision with the cards drawn for it."""
        turns: list[Move] = []
        for move in self.pushed:
            if isinstance(move, Move):
                turns.append(move)
            else:
                last = turns[-1]
                shuffle = last.shuffle or move.shuffle
                turns[-1] = replace(last, drawn=(*last.drawn, move.card), shuffle=shuffle)
        return turns

    @property
    def over(self) -> bool:
        """True once a line is ascending."""
        return self.position.phase is Phase.OVER

    def is_chance_node(self) -> bool:
        """True when the draw pile owes a line its next card."""
        return self.position.is_chance_node()

    def sample_chance(self, rng: random.Random) -> Drawn:
        """The card now owed, drawn from ``rng`` (see ``position.sample_chance``)."""
        if not self.is_chance_node():
            raise IllegalMoveError("no card is owed from the draw pile now")
        return sample_chance(self.position, rng)

    def push(self, move: Move | Drawn) -> Position:
        """Play ``move`` (IllegalMoveError if it breaks a rule) and return the new position."""
        self.position = play(self.position, move)
        self.pushed.append(move)
        return self.position

    def pop(self) -> Move | Drawn:
        """Take back the last push by replaying all the others from the start."""
        if not self.pushed:
            raise IllegalMoveError("nothing to undo")
        move = self.pushed.pop()
        self.position = self.replay(self.pushed)
        return move

    def replay(self, moves: Iterable[Move | Drawn]) -> Position:
        """The position after playing ``moves`` from the start."""
        position = self.start
        for move in moves:
            position = play(position, move)
        return position

    def chance_outcomes(self) -> list[tuple[Drawn, float]]:
        """At a chance node, the cards the draw pile may deal, alike likely (a known pile's top
        card for sure). A known pile that ran out deals from a reshuffle whose orders are too many
        to list: ``sample_chance`` deals from it."""
        position = self.position
        if not position.is_chance_node() or (position.known_pile and not position.draw_count):
            return []
        cards = drawable(position)
        return [(Drawn(card), 1 / len(cards)) for card in cards]

    def legal_moves(self) -> list[Move | Drawn]:
        """The seat's decisions (each choice of the face-up card kept apart), or at a chance node
        the chance outcomes."""
        position = self.position
        if position.is_chance_node():
            return [outcome for outcome, _ in self.chance_outcomes()]
        return [
            replace(decision, keep=keep)
            for decision in decisions(position)
            for keep in keep_choices(position, decision)
        ]

    def record(self) -> list[str]:
        """The game as JSON lines: the starting position, then one turn a line."""
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
