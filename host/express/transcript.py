"""A played Express hand as the referee would receive it: the table after each turn (and, if
asked, now and then mid-turn) and the seat buttons a real table needs, line by line.

The tests, the benchmark and the demo use it to show the referee a table that follows a known
hand; each line comes with the seat LEDs' picture the referee should then show, when it ends a
turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from host.express.game import ExpressGame, Phase
from host.express.moves import Accept, Derail
from host.express.referee import observation_of
from host.turns import TurnIndicator

Line = tuple[dict[str, Any], TurnIndicator | None]
"""One referee line, and the LEDs' picture once it ends a turn (None while a turn goes on)."""


def observation_lines(game: ExpressGame, looks: random.Random | None = None,
                      seen: Callable[[ExpressGame], dict[str, Any]] = observation_of
                      ) -> list[Line]:
    """The referee file for ``game``'s moves so far: the opening (seats, first player), then the
    table whenever a turn ends. A turn that leaves the table as it was (taking the discard top
    and discarding a card of that name; with no counts of the cards held and discarded, any turn
    ending with a discard of the top card's name) ends with its seat's button; a Derailment
    taken names its target with that seat's button; with no counts of the cards held, a seat
    going out presses its button after its last turn. ``looks``: also show the table mid-turn,
    one time in five; ``seen``: what is shown of a table (by default all that an observer
    counting hands sees)."""
    replay = ExpressGame(game.setup, game.cards)
    lines: list[Line] = [({"seats": game.players, "first": game.setup.first}, None)]
    last = seen(replay)
    derailed: int | None = None
    for move in game.record:
        actor = replay.current
        replay.push(move)
        derailed = move.seat if isinstance(move, Derail) else derailed
        if replay.phase in (Phase.DRAW, Phase.OVER):
            table = seen(replay)
            turn = [table]
            if table == last or _unseen_end(last, table):
                turn.append({"event": "button", "seat": actor})
            if derailed is not None and isinstance(move, Accept):
                turn.append({"event": "button", "seat": derailed})
            if replay.went_out is not None and "hands" not in table:
                turn.append({"event": "button", "seat": replay.went_out})
            lines += [(line, None) for line in turn[:-1]]
            lines.append((turn[-1], replay.turn_indicator()))
            last, derailed = table, None
        elif looks is not None and replay.phase is Phase.PLAY and looks.random() < 0.2:
            lines.append((seen(replay), None))
    return lines


def _unseen_end(last: dict[str, Any], table: dict[str, Any]) -> bool:
    """True when, with no counts of the cards held and discarded, a turn's end does not show:
    the discard pile's top and the special slot look as they did."""
    return ("discards" not in table and table["discard"] == last["discard"]
            and table["special"] == last["special"])
