"""Rollecate on the command line: ``conductor demo|referee|score rollecate``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from host.context import AppContext
from host.errors import BadInputError
from host.rollecate.cards import default_book
from host.rollecate.demo import play_demo
from host.rollecate.referee import judge_file
from host.rollecate.rules import MAX_PLAYERS, MIN_PLAYERS, TIE_BREAK_VALUES
from host.rollecate.scoring import Scoring, score_table
from host.rollecate.table import parse_table, read_json


def score(path: Path, as_json: bool, out: TextIO) -> int:
    """Score an end-of-game table file; print the scores, ranking and winner(s)."""
    table = parse_table(read_json(path), default_book())
    scoring = score_table([[card.value for card in cards] for cards in table])
    if as_json:
        print(json.dumps(scoring.to_json()), file=out)
    else:
        print(describe_scoring(scoring), file=out)
    return 0


def describe_scoring(scoring: Scoring) -> str:
    """The scores as lines of text, for people."""
    lines = ["Rollecate: lowest total wins"]
    for seat in scoring.seats:
        counts = ", ".join(
            f"{value}s: {count}" for value, count in zip(TIE_BREAK_VALUES, seat.counts, strict=True)
        )
        lines.append(f"seat {seat.seat}: {seat.total} points, {seat.cards} cards ({counts})")
    for place, seats in enumerate(scoring.ranking, start=1):
        tied = " (tied)" if len(seats) > 1 else ""
        lines.append(f"{place}. " + ", ".join(f"seat {seat}" for seat in seats) + tied)
    winners = " and ".join(f"seat {seat}" for seat in scoring.winners)
    if len(scoring.ranking) == 1:
        lines.append(f"winners: {winners} share the win (tied all the way)")
    else:
        verb = "share the win" if len(scoring.winners) > 1 else "wins"
        lines.append(f"{winners} {verb} (decided by {scoring.decided_by})")
    return "\n".join(lines)


def referee(path: Path, out: TextIO) -> int:
    """Judge a recorded game (observations and dice events), one JSON verdict per line."""
    for verdict in judge_file(path):
        print(json.dumps(verdict), file=out)
    return 0


def demo(seed: int, players: int, app: AppContext) -> int:
    """Play and print a seeded game between simple bots."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadInputError(f"Rollecate is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    for line in play_demo(seed, players):
        app.say(line)
    return 0
