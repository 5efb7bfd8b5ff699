"""Command-line adapter for Express: ``conductor demo|score|referee express``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TextIO

from host.context import AppContext
from host.express import bots
from host.express.cards import standard_cards
from host.express.game import ExpressGame, Phase
from host.express.moves import Accept, Protect, describe
from host.express.referee import judge_lines
from host.express.scoring import load_table, score_seat, scores_as_json, scores_as_text
from host.jsonl import read_text_lines
from host.turns import TurnIndicator


def _turn_line(turn: TurnIndicator) -> str:
    if turn.on_turn is None:
        return "hand over"
    skipped = f", skipping seat(s) {sorted(turn.skipped)}" if turn.skipped else ""
    return f"next: seat {turn.on_turn}, {turn.direction.value}{skipped}"


def demo(seed: int, players: int, app: AppContext) -> int:
    """Bots play one seeded hand; print each turn in words and the final scores."""
    out = app.out
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
                f"(hand {len(game.seats[actor].hand)}) -> {_turn_line(game.turn_indicator())}",
                file=out,
            )
            turn, words = turn + 1, []
            app.pause()
    ended = "the draw pile is empty" if game.went_out is None else f"seat {game.went_out} goes out"
    print(f"hand ends: {ended}", file=out)
    for line in scores_as_text(game.scores()):
        print(line, file=out)
    return 0


def score(path: Path, as_json: bool, out: TextIO) -> int:
    """Score an end-of-hand table description (see docs/express.md)."""
    cards = standard_cards()
    scores = [score_seat(seat, cards) for seat in load_table(path)]
    if as_json:
        print(json.dumps(scores_as_json(scores)), file=out)
    else:
        for line in scores_as_text(scores):
            print(line, file=out)
    return 0


def referee(path: Path, out: TextIO) -> int:
    """Judge a recorded sequence of Express observations (see docs/express.md)."""
    lines = read_text_lines(path)
    # Judged whole before printing: a malformed line fails the file with no half output.
    for verdict in list(judge_lines(lines)):
        print(json.dumps(verdict), file=out)
    return 0
