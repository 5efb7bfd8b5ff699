"""Train Line Chicago at the table: ``TableGame`` descriptor, its web entries, its demo in words.

The camera cannot read a Train Line board (its diagrams are lost): at the table players enter
each action on the web view (tap a pawn, tap a cell, pick the cards played), the board rolls
the boarding die and lights the turn. The app also judges recorded observations or records
(``conductor referee trainline``) and tells a bots' game in words.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from host.errors import BadInputError
from host.jsonl import read_text_lines
from host.table_game import GameInputs, TableGame, WebInputs, opening_seats, seats_between
from host.trainline import bots
from host.trainline.cards import REBEL
from host.trainline.game import PAWNS, Phase, TrainlineGame
from host.trainline.moves import Accept, Rebel, describe
from host.trainline.observer import TrainlineObserver, judge_observations
from host.trainline.referee import judge_lines
from host.turns import turn_words


def transcript(seed: int, players: int, out: TextIO,
               pause: Callable[[], None] = lambda: None) -> int:
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
            pause()
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


def draw(referee: TrainlineObserver) -> dict[str, Any]:
    """The board for the web view: every cell (``space``: aisle, seat, passenger, start) and
    the pawns on it, each seat's pawns off the train, and the cards a player may pick."""
    game = referee.game
    pawns: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for seat, player in enumerate(game.players):
        for cell in player.seated:
            pawns.setdefault(cell, []).append({"seat": seat, "where": "seated"})
        if player.aisle is not None:
            pawns.setdefault(player.aisle, []).append({"seat": seat, "where": "aisle"})
        if player.missed is not None:
            pawns.setdefault(player.missed, []).append({"seat": seat, "where": "missed"})
    return {
        "kind": "trainline",
        "cells": [{"cell": list(cell), "space": space.name.lower(), "pawns": pawns.get(cell, [])}
                  for cell, space in sorted(game.layout.spaces.items())],
        "seats": [{"seat": seat, "seated": len(player.seated), "supply": player.supply,
                   "missed": player.missed is not None, "aisle": player.aisle is not None}
                  for seat, player in enumerate(game.players)],
        "pawns": PAWNS[len(game.players)],
        "phase": game.phase.value,
    }


def offers(referee: TrainlineObserver, by_hand: bool) -> list[dict[str, Any]]:
    """What players may enter now: the acting seat's action (taps and cards) and the end of
    its turn; an attack's answer; the boarding die when it is rolled by hand."""
    game, seat = referee.game, referee.game.acting_seat
    if game.phase is Phase.MAIN:
        cards = sorted(game.cards.numbers) + sorted(game.cards.ends_turn)
        return [
            {"name": "play", "label": f"Seat {seat}: tap your pawn and where it goes (or a "
             "start space, or the pawns an action card names), pick the cards played",
             "taps": True, "cards": cards, "takes": True},
            {"name": "end", "label": f"Seat {seat} ends the turn without moving",
             "choices": [{"label": "End the turn", "value": seat}]},
        ]
    if game.phase is Phase.RESPONSE:
        return [{"name": "answer", "label": f"Seat {seat}: answer the attack",
                 "choices": [{"label": "Rebel Passenger", "value": "rebel"},
                             {"label": "Let it happen", "value": "accept"}]}]
    if game.phase is Phase.BOARDING and by_hand:
        return [{"name": "roll", "label": f"Seat {seat}: the boarding die, rolled by hand",
                 "choices": [{"label": "Doors open", "value": "open"},
                             {"label": "Doors closed", "value": "closed"}]}]
    return []


def entry_line(name: str, value: Any) -> dict[str, Any]:
    """The referee line for a player's entry on the web view."""
    if name == "play" and isinstance(value, dict):
        return {"event": "play", "cells": value.get("cells", []),
                "cards": value.get("cards", []), "takes": value.get("takes"),
                "seat": value.get("seat")}
    if name == "end" and isinstance(value, int) and not isinstance(value, bool):
        return {"event": "button", "seat": value}
    if name == "answer" and value in ("rebel", "accept"):
        return {"event": "play", "cells": [], "cards": [REBEL] if value == "rebel" else []}
    if name == "roll" and value in ("open", "closed"):
        return rolled([value])
    raise BadInputError(f"no Train Line entry {name!r} with that value")


def rolled(faces: Sequence[str]) -> dict[str, Any]:
    """The boarding die as the board rolled it (``open`` or ``closed``)."""
    return {"event": "roll", "open": list(faces)[:1] == ["open"]}


def typed_line(text: str) -> dict[str, Any] | None:
    """``roll open`` / ``roll closed`` (the boarding die rolled by hand) or ``button N`` (seat
    N ends its turn); None for anything else."""
    words = text.lower().split()
    if len(words) == 2 and words[0] == "roll" and words[1] in ("open", "closed"):
        return rolled(words[1:])
    if len(words) == 2 and words[0] in ("button", "seat") and words[1].isdigit():
        return {"event": "button", "seat": int(words[1])}
    return None


def is_event(line: Mapping[str, Any]) -> bool:
    """Every line of a game at the table is an event: a roll, a seat's button, an entry."""
    return "event" in line


def show(referee: TrainlineObserver) -> list[str]:
    """Each seat's pawns: seated, in the aisle, off the train."""
    return [f"     seat {seat}: {len(player.seated)} seated, "
            f"{'1' if player.aisle else 'none'} in the aisle, {player.off_train()} off the train"
            for seat, player in enumerate(referee.game.players)]


def ending(referee: TrainlineObserver, turns: int) -> list[str]:
    """The winner, once every pawn of a seat is seated."""
    winners = sorted(referee.game.winners)
    if not winners:
        return []
    return [*show(referee), f"Seat {' and '.join(map(str, winners))} wins after {turns} turns: "
            "every pawn seated."]


INPUTS = GameInputs(
    typed=typed_line,
    button=lambda press: {"event": "button", "seat": press.seat},
    help="roll open, roll closed (the boarding die rolled by hand), button N (seat N ends its "
         "turn); the moves are entered on the web view",
    is_event=is_event,
    typed_dice="roll open, or roll closed",
    rolled=rolled,
    web=WebInputs(offers=offers, line=entry_line),
)
"""Train Line's inputs besides the camera: every action from the web view, the boarding die
from the board, a seat's short press ends its turn."""

GAME = TableGame[TrainlineObserver](
    name="trainline",
    title="Train Line Chicago",
    check_seats=check_seats,
    open_referee=open_referee,
    referee_file=referee_file,
    transcript=transcript,
    inputs=INPUTS,
    dice="doors",
    show=show,
    ending=ending,
    draw=draw,
)
"""Train Line Chicago, as the app plays it: from the web view."""
