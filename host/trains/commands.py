"""``conductor demo trains`` and ``conductor referee trains``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, TextIO

from host.errors import BadInputError
from host.trains.bots import GreedyBot
from host.trains.observation import Observation, parse_observation, parse_opening
from host.trains.position import Phase, Position, apply
from host.trains.referee import Referee, Verdict

MAX_DEMO_MOVES = 2000
"""A demo that has not ended by then stops (greedy bots finish far sooner)."""


def read_observations(path: Path) -> tuple[Position, list[Observation]]:
    """Read a whole observation file, or fail on its first bad line with a one-line reason."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BadInputError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise BadInputError(f"{path} is not a text file") from None
    rows: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append((number, json.loads(line)))
        except json.JSONDecodeError as error:
            raise BadInputError(f"{path}:{number}: not JSON ({error.msg})") from None
    if not rows:
        raise BadInputError(f"{path} holds no observation")
    number, opening = rows[0]
    try:
        start = parse_opening(opening)
        observations = [Observation.of(start)]
        for number, row in rows[1:]:  # noqa: B007 - the number names the failing line below
            observations.append(parse_observation(row, start.seats))
    except BadInputError as error:
        raise BadInputError(f"{path}:{number}: {error}") from None
    return start, observations


def referee(path: Path, out: TextIO) -> int:
    """Judge a recorded game: one JSON verdict per observation."""
    start, observations = read_observations(path)
    judge = Referee(start)
    for observation in observations:
        print(json.dumps(judge.observe(observation).to_json()), file=out, flush=True)
    return 0


def demo(seed: int, players: int, out: TextIO) -> int:
    """A seeded game between greedy bots, each turn judged by the referee from the table alone."""
    rng = random.Random(seed)
    table = Position.deal(players, rng.randrange(players), rng)
    judge = Referee(Position.from_table(players, table.first, table.lines, [], Phase.DRAFT))
    bot = GreedyBot(rng)
    print(f"The Game of Trains: {players} seats, seed {seed}; seat {table.first} starts", file=out)
    _show_lines(table, out)
    for turn in range(1, MAX_DEMO_MOVES + 1):
        table = apply(table, bot.choose(table))
        verdict = judge.observe(Observation.of(table))
        print(f"{turn:3}. {_say(verdict)}", file=out, flush=True)
        if verdict.verdict not in ("move", "win"):
            print("the referee disagrees with the table: stopping", file=out)
            return 1
        if table.phase is Phase.OVER:
            _show_lines(table, out)
            print(f"Seat {table.winner} wins after {turn} moves.", file=out)
            return 0
    print(f"No winner after {MAX_DEMO_MOVES} moves.", file=out)
    return 0


def _say(verdict: Verdict) -> str:
    facts = verdict.to_json()
    if "move" in facts:
        text = str(facts["move"]["text"])
        return text + (f" — seat {verdict.seat} WINS" if verdict.verdict == "win" else "")
    return f"{verdict.verdict}: {facts.get('reason', '')}"


def _show_lines(position: Position, out: TextIO) -> None:
    for seat, line in enumerate(position.lines):
        cards = " ".join(f"{card:2}" for card in line)
        print(f"     seat {seat}: {cards}", file=out)
