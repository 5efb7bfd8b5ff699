"""A played Train Line game as the camera referee would receive it, line by line: the pawns and
the cards played after each turn, each roll of the boarding die, and the seat's button for a
turn that ends without a move.

The tests and the benchmark use it to show the observer a table that follows a known game; each
line comes with the seat LEDs' picture the observer should then show, when it ends a turn.
"""

from __future__ import annotations

from typing import Any

from host.trainline.game import Phase, TrainlineGame
from host.trainline.moves import BoardingDie, EndTurn
from host.trainline.observer import cards_played, observation_of
from host.turns import TurnIndicator

Line = tuple[dict[str, Any], TurnIndicator | None]
"""One observer line, and the LEDs' picture once it ends a turn (None while a turn goes on)."""


def observation_lines(game: TrainlineGame) -> list[Line]:
    """The observer file for ``game``'s moves so far: the opening (seats, first player), then a
    line for every roll and every turn's end."""
    replay = TrainlineGame(game.setup, game.layout, game.cards)
    lines: list[Line] = [({"seats": len(game.players), "first": game.setup.first}, None)]
    played: list[str] = []
    for move in game.record:
        begun, actor = replay.turns_begun, replay.current
        if isinstance(move, EndTurn):  # the table as it stands, then the seat's button
            lines.append((observation_of(replay, played), None))
            played = []
        replay.push(move)
        played += cards_played(move)
        if isinstance(move, BoardingDie):
            lines.append(({"event": "roll", "open": move.doors_open}, None))
        if isinstance(move, EndTurn):
            lines.append(({"event": "button", "seat": actor}, replay.turn_indicator()))
        elif replay.turns_begun != begun or replay.phase is Phase.OVER:
            lines.append((observation_of(replay, played), replay.turn_indicator()))
            played = []
    return lines
