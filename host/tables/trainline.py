"""Train Line Chicago at the table: ``TableGame`` descriptor and its demo in words.

The camera cannot read a Train Line board (its diagrams are lost: issue 12, part 6): the app
judges recorded observations or records (``conductor referee trainline``) and tells a bots'
game in words.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, TextIO

from host.jsonl import read_text_lines
from host.table_game import TableGame, opening_seats, seats_between
from host.trainline import bots
from host.trainline.game import PAWNS, Phase, TrainlineGame
from host.trainline.moves import Accept, Rebel, describe
from host.trainline.observer import TrainlineObserver, judge_observations
from host.trainline.referee import judge_lines
from host.turns import turn_words


def transcript(seed: int, players: int, out: TextIO) -> int:
    """Bots play one seeded game; print each turn in words and the winner."""
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
                f"{turn_words(game.turn_indicator(), 'game over')}",
                file=out,
            )
            turn, actor, begun, words = turn + 1, game.current, game.turns_begun, []
    names = ", ".join(f"seat {seat}" for seat in sorted(game.winners))
    print(f"winner: {names}, every pawn seated", file=out)
    return 0


def referee_file(path: Path, out: TextIO) -> int:
    """Judge camera observations, or a record's action lines (see docs/trainline.md)."""
    lines = read_text_lines(path)
    # A record starts with its set-up ("game": "trainline"); observations with "seats".
    first = next((line for line in lines if line.strip()), "")
    judge = judge_lines if '"game"' in first else judge_observations
    # Judged whole before printing: a malformed line fails the file with no half output.
    for verdict in list(judge(lines)):
        print(json.dumps(verdict), file=out)
    return 0


check_seats = seats_between("Train Line Chicago", min(PAWNS), max(PAWNS))
"""Train Line Chicago is for two to four."""


def open_referee(opening: dict[str, Any]) -> TrainlineObserver:
    """The referee for a game's opening line (``seats`` and ``first``)."""
    return TrainlineObserver(*opening_seats(opening, check_seats))


GAME = TableGame[TrainlineObserver](
    name="trainline",
    title="Train Line Chicago",
    check_seats=check_seats,
    open_referee=open_referee,
    referee_file=referee_file,
    transcript=transcript,
)
"""Train Line Chicago, as the app knows it so far."""
