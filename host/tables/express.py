"""Express at the table: ``TableGame`` descriptor, its inputs, its demo in words and its scoring.

``conductor play express`` referees from the camera (``vision.express_zones``), the seat buttons
naming what it cannot see (a Derailment's target, a turn that left the table looking the same);
``conductor score express`` counts a table file or a photo of the final count. The demo is told
in words: a bots' hand outgrows the camera's marked area (docs/express.md).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

from host.errors import BadInputError
from host.express import bots
from host.express.cards import ExpressCards, Kind, standard_cards
from host.express.game import MAX_PLAYERS, MIN_PLAYERS, ExpressGame, Phase
from host.express.moves import Accept, Protect, describe
from host.express.referee import ExpressReferee, judge_lines
from host.express.scoring import (
    SeatTable,
    load_table,
    score_seat,
    scores_as_json,
    scores_as_text,
    train_from_json,
)
from host.jsonl import read_text_lines
from host.table_game import (
    PHOTO_SUFFIXES,
    GameInputs,
    TableGame,
    opening_seats,
    seats_between,
)
from host.turns import turn_words
from vision.deck_references import DeckReferences
from vision.express_zones import ExpressZones, seats_seen, with_backs
from vision.imaging import read_image, scaled_for_reading, size_read
from vision.pipeline import Pipeline
from vision.table import SEAT_EDGES


def transcript(seed: int, players: int, out: TextIO,
               pause: Callable[[], None] = lambda: None) -> int:
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
            pause()
    ended = "the draw pile is empty" if game.went_out is None else f"seat {game.went_out} goes out"
    print(f"hand ends: {ended}", file=out)
    for line in scores_as_text(game.scores()):
        print(line, file=out)
    return 0


def score(path: Path, as_json: bool, out: TextIO, players: int | None = None,
          references: DeckReferences | None = None) -> int:
    """Score an end-of-hand table: a description (see docs/express.md), or a photo of every
    seat's trains, Way Cars and the cards left in hand spread in front of the player (read
    with ``references``: None for Conductor's own faces)."""
    cards = standard_cards()
    if path.suffix.lower() in PHOTO_SUFFIXES:
        table = photo_table(path, players, cards, None if as_json else out, references)
    else:
        table = load_table(path)
    scores = [score_seat(seat, cards) for seat in table]
    if as_json:
        print(json.dumps(scores_as_json(scores)), file=out)
    else:
        for line in scores_as_text(scores):
            print(line, file=out)
    return 0


def photo_table(path: Path, players: int | None, cards: ExpressCards, out: TextIO | None,
                references: DeckReferences | None = None) -> list[SeatTable]:
    """Each seat's table read from a photo of the final count (BadInputError, saying what to
    do, for anything the camera cannot read for sure: a photo is never scored by guess)."""
    pipeline = Pipeline(deck="express", references=references)
    photo = read_image(path)
    image, _ = scaled_for_reading(photo)
    if out is not None:  # a big photo takes a while: say what is going on
        print(f"reading {path.name} ({size_read(photo, image)})…", file=out, flush=True)
    reading = pipeline.read(image)
    if reading.image_to_table is None:
        raise BadInputError(f"{path}: the table markers are not in the photo")
    if any(card.name is None for card in reading.cards):
        raise BadInputError(f"{path}: a card could not be read: spread the cards so none "
                            "covers another, and take the photo again")
    found = with_backs(image, reading.image_to_table, reading.cards)
    seats = players or seats_seen(found)
    if seats is None or seats not in SEAT_EDGES:
        raise BadInputError(f"{path}: cannot tell the seats apart (give --players, and keep "
                            "each player's cards in front of them)")
    count = ExpressZones(seats, way_car_names(cards)).final_count(found)
    if count is None:
        raise BadInputError(
            f"{path}: the trains cannot be read for sure: lay each train in a row from its Loco "
            "(face down, or the Diesel), the cards left in hand in a row of their own, and a "
            "Wild Car only in a train of one car type (or score from a table file)")
    table = [SeatTable(f"seat {seat}",
                       tuple(train_from_json(train.to_json(), f"seat {seat}, train {number}",
                                             cards)
                             for number, train in enumerate(count.table.trains[seat])),
                       count.table.way_cars[seat], count.hands[seat])
             for seat in range(seats)]
    if out is not None:
        print(f"read from {path.name}: {len(found)} cards, {seats} seats", file=out)
    return table


def way_car_names(cards: ExpressCards) -> frozenset[str]:
    """The Way Cars' card names."""
    return frozenset(name for name in cards.info if cards.kind(name) is Kind.WAYCAR)


def referee_file(path: Path, out: TextIO) -> int:
    """Judge a recorded sequence of Express observations (see docs/express.md)."""
    lines = read_text_lines(path)
    # Judged whole before printing: a malformed line fails the file with no half output.
    for verdict in list(judge_lines(lines)):
        print(json.dumps(verdict), file=out)
    return 0


def is_event(line: Mapping[str, Any]) -> bool:
    """A seat's button, not a table."""
    return line.get("event") == "button"


def typed_line(text: str) -> dict[str, Any] | None:
    """``button N`` (seat N's button, typed): the target of a Derailment, or seat N saying its
    turn is done; None for anything else."""
    words = text.lower().split()
    if len(words) == 2 and words[0] in ("button", "seat") and words[1].isdigit():
        return {"event": "button", "seat": int(words[1])}
    return None


INPUTS = GameInputs(
    typed=typed_line,
    button=lambda press: {"event": "button", "seat": press.seat},
    help="button N (seat N's button: a Derailment's target, or done when the table shows no "
         "change)",
    is_event=is_event,
)
"""Express's inputs besides the camera: seat buttons, pressed or typed."""


def show(referee: ExpressReferee) -> list[str]:
    """Each seat's trains, in words."""
    lines = []
    for seat, trains in enumerate(referee.table.trains):
        shown = "; ".join(" ".join(("Diesel" if train.diesel else "Loco",
                                    *(car.as_type for car in train.cars)))
                          for train in trains) or "no trains"
        lines.append(f"     seat {seat}: {shown}")
    return lines


def ending(referee: ExpressReferee, turns: int) -> list[str]:
    """How to score once the hand is over (the camera cannot see the hands)."""
    if not referee.over:
        return []
    return [f"Express: the hand is over after {turns} turns: spread each seat's trains, Way Cars "
            "and hand as docs/express.md shows, photograph them and run "
            "`conductor score express PHOTO`"]


def camera_pipeline(players: int, references: DeckReferences | None = None) -> Pipeline:
    """The recognizer reading an Express table of ``players`` seats, one at each table edge
    (its cards read with ``references``: None for Conductor's own faces)."""
    if players not in SEAT_EDGES:
        raise BadInputError(f"the camera reads Express tables of {min(SEAT_EDGES)} to "
                            f"{max(SEAT_EDGES)} seats, one a table edge")
    return Pipeline(deck="express", zones=ExpressZones(players, way_car_names(standard_cards())),
                    references=references)


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
    pipeline=camera_pipeline,
    inputs=INPUTS,
    score=score,
    photo_scoring=True,
    show=show,
    ending=ending,
)
"""Express, as the app knows it so far."""
