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

from host.errors import BadInputError
from host.jsonl import loads
from host.trainline.game import IllegalMoveError, Phase, TrainlineGame
from host.trainline.moves import describe, move_from_json, move_to_json


def judge_lines(lines: Sequence[str]) -> Iterator[dict[str, Any]]:
    """One verdict per action line after the set-up line."""
    rows = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    if not rows:
        raise BadInputError("an empty record")
    game = TrainlineGame.from_record_lines([rows[0][1]])
    for number, line in rows[1:]:
        try:
            data = loads(line)
        except json.JSONDecodeError as error:
            raise BadInputError(f"line {number}: not JSON ({error.msg})") from None
        try:
            move = move_from_json(data)
        except BadInputError as error:
            raise BadInputError(f"line {number}: {error}") from None
        seat = game.acting_seat
        try:
            game.push(move)
        except IllegalMoveError as error:
            yield {"line": number, "verdict": "illegal", "seat": seat, "reason": str(error)}
            continue
        verdict = "win" if game.phase is Phase.OVER else "move"
        shown = game.turn_indicator()
        yield {
            "line": number,
            "verdict": verdict,
            "seat": seat,
            "move": move_to_json(move),
            "said": describe(move),
            "next_seat": shown.on_turn,
            "direction": shown.direction.value,
            "skipped": sorted(shown.skipped),
            "winners": sorted(shown.winners),
        }
