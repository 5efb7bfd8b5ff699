"""Command-line adapter for Train Line Chicago: ``conductor demo|referee trainline``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TextIO

from host.context import AppContext
from host.jsonl import read_text_lines
from host.trainline import bots
from host.trainline.game import PAWNS, Phase, TrainlineGame
from host.trainline.moves import Accept, Rebel, describe
from host.trainline.observer import judge_observations
from host.trainline.referee import judge_lines
from host.turns import TurnIndicator


def _turn_line(turn: TurnIndicator) -> str:
    if turn.on_turn is None:
        return "game over"
    skipped = f", skipping seat(s) {sorted(turn.skipped)}" if turn.skipped else ""
    return f"next: seat {turn.on_turn}, {turn.direction.value}{skipped}"


def demo(seed: int, players: int, app: AppContext) -> int:
    """Bots play one seeded game; print each turn in words and the winner."""
    out = app.out
    rng = random.Random(seed)
    game = TrainlineGame.new(players, rng)
    print(
        f"Train Line Chicago, {players} players, {PAWNS.get(players)} pawns each, seed {seed}",
        file=out,
    )
    words: list[str] = []
    turn, actor, begun = 1, game.current, game.turns_begun
    while game.phase is not Phase.OVER:
        seat = game.acting_seat
        move = bots.choose(game, rng)
        game.push(move)
        words.append(
            f"seat {seat} {describe(move)}" if isinstance(move, Rebel | Accept) else describe(move)
        )
        if game.turns_begun != begun or game.acting_seat is None:
            seated = [len(player.seated) for player in game.players]
            print(
                f"turn {turn}, seat {actor}: {'; '.join(words)} (seated {seated}) -> "
                f"{_turn_line(game.turn_indicator())}",
                file=out,
            )
            turn, actor, begun, words = turn + 1, game.current, game.turns_begun, []
            app.pause()
    names = ", ".join(f"seat {seat}" for seat in sorted(game.winners))
    print(f"winner: {names}, every pawn seated", file=out)
    return 0


def referee(path: Path, out: TextIO) -> int:
    """Judge camera observations, or a record's action lines (see docs/trainline.md)."""
    lines = read_text_lines(path)
    # A record starts with its set-up ("game": "trainline"); observations with "seats".
    first = next((line for line in lines if line.strip()), "")
    judge = judge_lines if '"game"' in first else judge_observations
    # Judged whole before printing: a malformed line fails the file with no half output.
    for verdict in list(judge(lines)):
        print(json.dumps(verdict), file=out)
    return 0
