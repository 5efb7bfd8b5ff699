"""A played Express hand as the referee would receive it: the table after each turn (and, if
asked, now and then mid-turn) and the seat buttons a real table needs, line by line.

The tests, the benchmark and the demo use it to show the referee a table that follows a known
hand; each line comes with the seat LEDs' picture the referee should then show, when it ends a
turn.
"""

from __future__ import annotations

import random
from typing import Any

from host.express.game import ExpressGame, Phase
from host.express.moves import Accept, Derail
from host.express.referee import observation_of
from host.turns import TurnIndicator

Line = tuple[dict[str, Any], TurnIndicator | None]
"""One referee line, and the LEDs' picture once it ends a turn (None while a turn goes on)."""


def observation_lines(game: ExpressGame, looks: random.Random | None = None) -> list[Line]:
    """The referee file for ``game``'s moves so far: the opening (seats, first player), then the
    table whenever a turn ends. A turn that leaves the table as it was (taking the discard top and
    discarding a card of that name) ends with its seat's button; a Derailment taken names its
    target with that seat's button. ``looks``: also show the table mid-turn, one time in five."""
    replay = ExpressGame(game.setup, game.cards)
    lines: list[Line] = [({"seats": game.players, "first": game.setup.first}, None)]
    last = observation_of(replay)
    derailed: int | None = None
    for move in game.record:
        actor = replay.current
        replay.push(move)
        derailed = move.seat if isinstance(move, Derail) else derailed
        if replay.phase in (Phase.DRAW, Phase.OVER):
            table = observation_of(replay)
            turn = [table]
            if table == last:
                turn.append({"event": "button", "seat": actor})
            if derailed is not None and isinstance(move, Accept):
                turn.append({"event": "button", "seat": derailed})
            lines += [(line, None) for line in turn[:-1]]
            lines.append((turn[-1], replay.turn_indicator()))
            last, derailed = table, None
        elif looks is not None and replay.phase is Phase.PLAY and looks.random() < 0.2:
            lines.append((observation_of(replay), None))
    return lines
