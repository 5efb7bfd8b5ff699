"""The Train Line Chicago referee over a recorded game's actions (a record, not a camera).

Given a record (the set-up line with both decks, then one action per line, the boarding die's
outcome included, as the board reports it), each action line gets a verdict. An illegal action
is reported with its reason and left out, so play can go on from the last legal state. Camera
observations are judged by ``host.trainline.observer``. See ``docs/trainline.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from host.errors import IllegalMoveError
from host.jsonl import json_objects, judged
from host.trainline.game import Phase, TrainlineGame
from host.trainline.moves import describe, move_to_json, moves_from_json


def judge_lines(lines: Sequence[str]) -> Iterator[dict[str, Any]]:
    """One verdict per action line after the set-up line."""
    (_, head), *rows = json_objects(lines)
    game = TrainlineGame.from_record_lines([json.dumps(head)])
    yield from judged(rows, lambda data: _judge(game, data))


def _judge(game: TrainlineGame, data: dict[str, Any]) -> dict[str, Any]:
    """The verdict on one action line, played on ``game`` if it is legal."""
    moves = moves_from_json(data)
    seat = game.acting_seat
    try:
        # An older board line's die roll always follows a legal board, so a line that fails,
        # fails at its first move and leaves the game as it was.
        for move in moves:
            game.push(move)
    except IllegalMoveError as error:
        return {"verdict": "illegal", "seat": seat, "reason": str(error)}
    shown = game.turn_indicator()
    return {
        "verdict": "win" if game.phase is Phase.OVER else "move",
        "seat": seat,
        # An older board line holding its die roll is echoed whole, as it was written.
        "move": data if len(moves) > 1 else move_to_json(moves[0]),
        "said": "; ".join(describe(move) for move in moves),
        "next_seat": shown.on_turn,
        "direction": shown.direction.value,
        "skipped": sorted(shown.skipped),
        "winners": sorted(shown.winners),
    }
