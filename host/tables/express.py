"""Express at the table: ``TableGame`` descriptor, its demo in words and its scoring.

The camera cannot read an Express table yet (issue 12, part 5): the app judges recorded
observations (``conductor referee express``), scores a table and tells a bots' hand in words.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, TextIO

from host.express import bots
from host.express.cards import standard_cards
from host.express.game import MAX_PLAYERS, MIN_PLAYERS, ExpressGame, Phase
from host.express.moves import Accept, Protect, describe
from host.express.referee import ExpressReferee, judge_lines
from host.express.scoring import load_table, score_seat, scores_as_json, scores_as_text
from host.jsonl import read_text_lines
from host.table_game import TableGame, opening_seats, seats_between
from host.turns import turn_words


def transcript(seed: int, players: int, out: TextIO) -> int:
    """Bots play one seeded hand; print each turn in words and the final scores."""
    rng = random.Random(seed)
    game = ExpressGame.new(players, rng)
    print(f"Express, {players} players, seed {seed}", file=out)
    turn, actor = 1, game.current
    words: list[str] = []
    while game.phase is not Phase.OVER:
        seat = game.acting_seat
        if not words:
            actor = game.current
        move = bots.choose(game, rng)
        game.push(move)
        if isinstance(move, Protect | Accept):
            words.append(f"seat {seat} {describe(move)}")
        else:
            words.append(describe(move))
        if game.phase in (Phase.DRAW, Phase.OVER):
            print(
                f"turn {turn}, seat {actor}: {'; '.join(words)} "
                f"(hand {len(game.seats[actor].hand)}) -> "
                f"{turn_words(game.turn_indicator(), 'hand over')}",
                file=out,
            )
            turn, words = turn + 1, []
    ended = "the draw pile is empty" if game.went_out is None else f"seat {game.went_out} goes out"
    print(f"hand ends: {ended}", file=out)
    for line in scores_as_text(game.scores()):
        print(line, file=out)
    return 0


def score(path: Path, as_json: bool, out: TextIO, players: int | None = None) -> int:
    """Score an end-of-hand table description (see docs/express.md)."""
    cards = standard_cards()
    scores = [score_seat(seat, cards) for seat in load_table(path)]
    if as_json:
        print(json.dumps(scores_as_json(scores)), file=out)
    else:
        for line in scores_as_text(scores):
            print(line, file=out)
    return 0


def referee_file(path: Path, out: TextIO) -> int:
    """Judge a recorded sequence of Express observations (see docs/express.md)."""
    lines = read_text_lines(path)
    # Judged whole before printing: a malformed line fails the file with no half output.
    for verdict in list(judge_lines(lines)):
        print(json.dumps(verdict), file=out)
    return 0


check_seats = seats_between("Express", MIN_PLAYERS, MAX_PLAYERS)
"""Express is for two to six."""


def open_referee(opening: dict[str, Any]) -> ExpressReferee:
    """The referee for a hand's opening line (``seats`` and ``first``)."""
    return ExpressReferee(*opening_seats(opening, check_seats))


GAME = TableGame[ExpressReferee](
    name="express",
    title="Express",
    check_seats=check_seats,
    open_referee=open_referee,
    referee_file=referee_file,
    transcript=transcript,
    score=score,
)
"""Express, as the app knows it so far."""
