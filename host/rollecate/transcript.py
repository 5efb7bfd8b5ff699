"""A played game as the referee would receive it: observations and board events, line by line.

The rendered camera and the tests use this to show a referee a table that follows a known game:
the set-up line, the table after each build, each roll of the dice, the table after each ride or
pass, the table when each turn is complete, and finally the final count: the railway cleared
away and every player's cards (discard pile and hand) spread out.
"""

from __future__ import annotations

from typing import Any

from host.rollecate.moves import Discard, DiscardChaos, Pass, Roll
from host.rollecate.state import GameState, Phase


def table_lines(game: GameState, every_card: bool = False) -> list[dict[str, Any]]:
    """The referee file (one JSON object per line) for the moves ``game`` has made so far.

    ``every_card``: show the table after each card put on a discard pile too (as a camera
    watching a player put them down one by one sees it), not only once all are down.
    """
    replay = GameState.start(game.setup, game.book)
    opening = {"seats": game.setup.seats, "first": game.setup.first, **replay.observation()}
    lines: list[dict[str, Any]] = [opening]
    shown = replay.observation()
    for move in game.history:
        seat = replay.seat
        replay.push(move)
        if isinstance(move, Roll):
            lines.append({"dice": [face.value for face in move.faces]})
        if isinstance(move, DiscardChaos):
            continue  # the chaos cards show on the pile as they go down
        mid_discard = replay.phase is Phase.DISCARD and replay.seat == seat
        if mid_discard and not isinstance(move, Pass | Roll) and not every_card:
            continue
        table = replay.observation()
        if table != shown:
            lines.append(table)
            shown = table
        elif isinstance(move, Pass):
            lines.append({"pass": True})  # a pass that changes nothing on the table
        if isinstance(move, Discard) and (replay.seat != seat or replay.over):
            lines.append({"done": True, "seat": seat})  # the seat's button: all cards down
    if replay.over:
        spread = [sorted((*pile, *hand)) for pile, hand in zip(replay.discards, replay.hands,
                                                                strict=True)]
        empty: list[list[str]] = [[] for _ in spread]
        lines.append({"railway": [], "train": 0, "discard": empty, "spread": spread})
    return lines
