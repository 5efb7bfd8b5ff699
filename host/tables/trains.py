"""The Game of Trains at the table: ``TableGame`` descriptor, demo and words."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, TextIO

from host.errors import BadInputError
from host.jsonl import read_json_lines
from host.table_game import DemoTable, Scene, TableGame
from host.trains.bots import GreedyBot
from host.trains.observation import TrainsObservation, parse_observation
from host.trains.position import Phase, Position, apply, check_seats
from host.trains.referee import Referee, open_referee, parse_opening
from vision.pipeline import Pipeline
from vision.trains_zones import TrainsZones

MAX_DEMO_MOVES = 2000
"""A demo that has not ended by then stops (greedy bots finish far sooner)."""


def read_observations(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read a whole observation file, checking every line first, so that a bad line fails the
    file with a one-line reason before any verdict is printed."""
    rows = read_json_lines(path)
    number, opening = rows[0]
    try:
        seats = parse_opening(opening).seats
        for number, row in rows[1:]:  # noqa: B007 - the number names the failing line below
            parse_observation(row, seats)
    except BadInputError as error:
        raise BadInputError(f"{path}:{number}: {error}") from None
    return opening, [row for _, row in rows[1:]]


def referee_file(path: Path, out: TextIO) -> int:
    """Judge a recorded game: one JSON verdict per observation."""
    opening, observations = read_observations(path)
    judge = open_referee(opening)
    print(json.dumps(judge.opening().to_json()), file=out)
    for observation in observations:
        print(json.dumps(judge.feed(observation).to_json()), file=out, flush=True)
    return 0


def demo_table(seed: int, players: int) -> DemoTable:
    """A seeded game between greedy bots: the table as dealt (with ``seats`` and ``first``),
    then after every move, to the win (or the move limit)."""
    rng = random.Random(seed)
    table = Position.deal(players, rng.randrange(players), rng)
    bot = GreedyBot(rng)
    seen = [{"seats": table.seats, "first": table.first, **TrainsObservation.of(table).to_json()}]
    while table.phase is not Phase.OVER and len(seen) <= MAX_DEMO_MOVES:
        table = apply(table, bot.choose(table))
        seen.append(TrainsObservation.of(table).to_json())
    return DemoTable(seen, [Scene(TrainsObservation.from_json(line)) for line in seen])


def show(referee: Referee) -> list[str]:
    """Each seat's line, in numbers."""
    return [f"     seat {seat}: " + " ".join(f"{card:2}" for card in line)
            for seat, line in enumerate(referee.game.position.lines)]


def ending(referee: Referee, turns: int) -> list[str]:
    """The lines as they ended, and the winner."""
    winner = referee.game.position.winner
    won = [] if winner is None else [f"Seat {winner} wins after {turns} moves."]
    return show(referee) + won


GAME = TableGame[Referee](
    name="trains",
    title="The Game of Trains",
    check_seats=check_seats,
    open_referee=open_referee,
    referee_file=referee_file,
    pipeline=lambda players, references: Pipeline(deck="trains", zones=TrainsZones(players),
                                                  references=references),
    demo=demo_table,
    show=show,
    ending=ending,
    draw=Referee.table,
    turn_word="moves",
)
"""The Game of Trains, as the app plays it."""
