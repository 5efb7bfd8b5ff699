"""Rollecate at the table: ``TableGame`` descriptor, demo, inputs, scoring and words.

The demo's bots play the whole game first (the engine, with its own seeded dice); the demo then
shows the referee that game the way a real table would: observations from the camera, and the
dice, passes and seat buttons as board events, each after the table it follows.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from host.errors import BadInputError, warn
from host.rollecate.bots import simple_policy
from host.rollecate.cards import Kind, default_book
from host.rollecate.observation import RollecateObservation, is_event
from host.rollecate.referee import LineReferee, judge_file, open_referee
from host.rollecate.rules import MAX_PLAYERS, MIN_PLAYERS, TIE_BREAK_VALUES
from host.rollecate.scoring import Scoring, score_table
from host.rollecate.state import GameState
from host.rollecate.table import check_possible, parse_table, read_json
from host.rollecate.transcript import table_lines
from host.rollecate.words import plural
from host.table_game import (
    PHOTO_SUFFIXES,
    DemoTable,
    GameInputs,
    Scene,
    TableGame,
    seats_between,
)
from vision.calibration import EmptyTable
from vision.deck_references import DeckReferences
from vision.imaging import read_image, scaled_for_reading, size_read
from vision.pipeline import Pipeline
from vision.rollecate_table import START_MARKER_ID
from vision.rollecate_zones import RollecateZones, spread_cards


def score(path: Path, as_json: bool, out: TextIO, players: int | None = None,
          references: DeckReferences | None = None, calibration: EmptyTable | None = None
          ) -> int:
    """Score an end-of-game table: a JSON file, or a photo of every player's cards spread out
    in front of them (read with ``references``: None for Conductor's own faces); print the
    scores, ranking and winner(s)."""
    book = default_book()
    if path.suffix.lower() in PHOTO_SUFFIXES:
        table = [[book.parse(name) for name in cards]
                 for cards in photo_table(path, players, out if not as_json else None,
                                                  references, calibration)]
        check_possible(table, book)
    else:
        table = parse_table(read_json(path), book)
    scoring = score_table([[card.value for card in cards] for cards in table])
    if as_json:
        print(json.dumps(scoring.to_json()), file=out)
    else:
        print(describe_scoring(scoring), file=out)
    return 0


def photo_table(path: Path, players: int | None, out: TextIO | None,
                references: DeckReferences | None = None,
                calibration: EmptyTable | None = None) -> list[tuple[str, ...]]:
    """Each seat's cards read from a photo of the final count (BadInputError, with what to do,
    when a card cannot be read or the seats are unclear: a photo is never scored by guess)."""
    pipeline = Pipeline(deck="rollecate", references=references)
    if calibration is not None:  # read at the size a photo is read at
        pipeline.use_empty_table(calibration.scaled(), warn)
    photo = read_image(path)
    image, _ = scaled_for_reading(photo)
    if out is not None:  # a big photo takes a while: say what is going on
        print(f"reading {path.name} ({size_read(photo, image)})…", file=out, flush=True)
    reading = pipeline.read(image)
    if reading.image_to_table is None:
        raise BadInputError(f"{path}: the table markers are not in the photo")
    spread = spread_cards(reading.cards, pipeline.table.on_table(START_MARKER_ID), players)
    if spread is None:
        raise BadInputError(f"{path}: cannot tell the seats apart (give --players, and keep "
                            "each player's cards in front of them)")
    if spread.unread:
        raise BadInputError(f"{path}: {plural(spread.unread, 'card')} could not be read: "
                            "spread the cards so none covers another, and take the photo again")
    if out is not None:
        left_out = f"; the railway ({plural(spread.railway, 'card')}) left out" \
            if spread.railway else ""
        print(f"read from {path.name}: {sum(map(len, spread.seats))} cards{left_out}", file=out)
        for seat, cards in enumerate(spread.seats):
            print(f"  seat {seat}: {' '.join(cards) or 'no cards'}", file=out)
    return list(spread.seats)


def describe_scoring(scoring: Scoring) -> str:
    """The scores as lines of text, for people."""
    lines = ["Rollecate: lowest total wins"]
    for seat in scoring.seats:
        counts = ", ".join(
            f"{value}s: {count}" for value, count in zip(TIE_BREAK_VALUES, seat.counts, strict=True)
        )
        lines.append(
            f"seat {seat.seat}: {plural(seat.total, 'point')}, {plural(seat.cards, 'card')} "
            f"({counts})"
        )
    for place, seats in enumerate(scoring.ranking, start=1):
        tied = " (tied)" if len(seats) > 1 else ""
        lines.append(f"{place}. " + ", ".join(f"seat {seat}" for seat in seats) + tied)
    winners = " and ".join(f"seat {seat}" for seat in scoring.winners)
    if len(scoring.winners) > 1:
        lines.append(f"winners: {winners} share the win (tied all the way)")
    else:
        lines.append(f"{winners} wins (decided by {scoring.decided_by})")
    return "\n".join(lines)


def referee_file(path: Path, out: TextIO) -> int:
    """Judge a recorded game (observations and dice events), one JSON verdict per line."""
    for verdict in judge_file(path):
        print(json.dumps(verdict), file=out)
    return 0


def demo_table(seed: int, players: int) -> DemoTable:
    """A seeded game between simple bots, as the referee reads it and the camera shows it."""
    rng = random.Random(seed)
    state = GameState.new(players, rng)
    while not state.over:
        state.push(state.roll_dice(rng) if state.is_chance_node() else simple_policy(state))
    lines = table_lines(state, every_card=True)
    return DemoTable(lines, scenes_of(lines), still_frames=11, hand_frames=4,
                     note="     (the dice are the seeded game's, typed in as if rolled on the "
                          "board)")


def scenes_of(lines: list[dict[str, Any]]) -> list[Scene]:
    """A referee file as a camera would show it: each table as the camera sees it (repeats
    merged), with the events that follow it."""
    scenes: list[Scene] = []
    for line in lines:
        if is_event(line):
            last = scenes[-1]
            scenes[-1] = Scene(last.view, (*last.events, line))
            continue
        view = camera_view(line)
        if "spread" in line and not any(line["spread"]):
            # Nothing to spread (every pile and hand empty): the camera sees no change, and
            # a seat's button ends the game.
            scenes[-1] = Scene(scenes[-1].view, (*scenes[-1].events, {"done": True}))
        elif not scenes or view != scenes[-1].view:
            scenes.append(Scene(view, ()))
    return scenes


def camera_view(line: Mapping[str, Any]) -> RollecateObservation:
    """What the camera sees of a table the engine describes: only each pile's top card, and
    at the final count every card spread out (each seat's sorted, as the camera reads them)."""
    spread = line.get("spread")
    return RollecateObservation(
        railway=tuple(line["railway"]),
        train=int(line["train"]),
        discard=tuple(tuple(pile[-1:]) for pile in line["discard"]),
        spread=tuple(tuple(sorted(cards)) for cards in spread) if spread is not None else None,
    )


def railway_words(railway: list[str] | tuple[str, ...], train: int) -> str:
    """The railway from its start by value (``b`` broken track), the train's card in brackets."""
    book = default_book()
    shown = [("b" if book.card(name).kind is Kind.BROKEN else "") + str(book.value(name))
             for name in railway]
    shown[train] = f"[{shown[train]}]"
    return " ".join(shown)


def show(referee: LineReferee) -> list[str]:
    """The railway, the train on its card."""
    return [f"     railway: {railway_words(referee.referee.railway, referee.referee.train)}"]


def ending(referee: LineReferee, turns: int) -> list[str]:
    """The final count, once the game is scored."""
    scoring = referee.referee.scoring
    return [] if scoring is None else [describe_scoring(scoring)]


FACE_WORDS = {"w": "wheel", "wheel": "wheel", "b": "blank", "blank": "blank"}
"""How dice typed at the terminal may be written."""


def typed_line(text: str) -> dict[str, Any] | None:
    """A referee line from what a player typed: ``roll w b w`` (dice rolled by hand), ``pass``
    or ``done``; None for anything else."""
    words = text.lower().replace(",", " ").split()
    if words == ["pass"]:
        return {"pass": True}
    if words == ["done"]:
        return {"done": True}
    if len(words) > 1 and words[0] in ("roll", "dice"):
        faces = [FACE_WORDS.get(word) for word in words[1:]]
        if None not in faces:
            return {"dice": faces}
    return None


def tell(line: Mapping[str, Any]) -> str | None:
    """A dice roll or a pass of the demo's game, in words."""
    if "dice" in line:
        wheels = line["dice"].count("wheel")
        return f"     dice: {' '.join(line['dice'])} ({plural(wheels, 'wheel')})"
    if "pass" in line:
        return "     the seat's button: pass"
    return None


INPUTS = GameInputs(
    typed=typed_line,
    button=lambda press: {"done": True, "seat": press.seat},
    help="roll w b ... (dice rolled by hand: w wheel, b blank), pass, done",
    is_event=is_event,
    tell=tell,
    typed_dice="roll w b ... (w wheel, b blank)",
)
"""Rollecate's inputs besides the camera: a seat's short press says its turn is done."""

GAME = TableGame[LineReferee](
    name="rollecate",
    title="Rollecate",
    check_seats=seats_between("Rollecate", MIN_PLAYERS, MAX_PLAYERS),
    open_referee=open_referee,
    referee_file=referee_file,
    pipeline=lambda players, references: Pipeline(deck="rollecate", zones=RollecateZones(players),
                                                  references=references),
    inputs=INPUTS,
    dice="wheel",
    demo=demo_table,
    score=score,
    photo_scoring=True,
    show=show,
    ending=ending,
    draw=LineReferee.table,
)
"""Rollecate, as the app plays it."""
