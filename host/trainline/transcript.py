"""A played Train Line game as the referee would receive it, line by line: as the camera would
see it (the pawns and the cards played after each turn, each roll of the boarding die, and the
seat's button for a turn that ends without a move), or as players enter it on the web view.

The tests and the benchmark use it to show the observer a table that follows a known game; each
line comes with the seat LEDs' picture the observer should then show, when it ends a turn.
"""

from __future__ import annotations

from typing import Any

from host.trainline.game import Phase, TrainlineGame
from host.trainline.moves import (
    Accept,
    Board,
    BoardingDie,
    Cell,
    Eccentric,
    EndTurn,
    Enter,
    Exit,
    Move,
    MoveAlong,
    PanHandle,
    Rebel,
    TakeSeat,
    UsePass,
    UseToken,
)
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


def entry_lines(game: TrainlineGame) -> list[dict[str, Any]]:
    """``game``'s moves so far as players enter them on the web view (after the opening line):
    taps and cards for each action, the die as the board rolls it, a seat's button to end a
    turn. Discard tokens leave no line (they change only hands, which nobody sees)."""
    replay = TrainlineGame(game.setup, game.layout, game.cards)
    lines: list[dict[str, Any]] = [{"seats": len(game.players), "first": game.setup.first}]
    for move in game.record:
        line = _entry(replay, move)
        if line is not None:
            lines.append(line)
        replay.push(move)
    return lines


def _entry(game: TrainlineGame, move: Move) -> dict[str, Any] | None:
    """The web view's line for one move of ``game``."""
    cells: list[Cell | None] = []
    extra: dict[str, Any] = {}
    match move:
        case BoardingDie(doors_open):
            return {"event": "roll", "open": doors_open}
        case EndTurn():
            return {"event": "button", "seat": game.current}
        case UseToken():
            return None
        case Rebel() | Accept():
            return {"event": "play", "cells": [], "cards": cards_played(move)}
        case Board(start) | UsePass(start):
            cells = [start]
        case MoveAlong(to=to, slide_to=slide):
            cells = [game.players[game.current].aisle, to, *([slide] if slide else [])]
        case Exit(seats=seats) | Enter(seats=seats):
            cells = list(seats)
        case Eccentric(cell=cell) | TakeSeat(cell=cell):
            cells = [cell]
        case PanHandle(seat, card):
            extra = {"seat": seat, "takes": card}
    return {"event": "play", "cells": [list(cell) for cell in cells if cell is not None],
            "cards": cards_played(move), **extra}
