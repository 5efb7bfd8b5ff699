"""Express at the table: ``TableGame`` descriptor, its inputs, its demo in words and its scoring.

``conductor play express`` referees from the camera (``vision.express_zones``), the seat buttons
naming what it cannot see (a Derailment's target, a turn that left the table looking the same);
``conductor score express`` counts a table file or a photo of the final count. The demo shows a
bots' hand through the rendered camera, as ``demo trains`` and ``demo rollecate`` do.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from host.errors import BadInputError, warn
from host.express import bots
from host.express.cards import CABOOSE, WILD, ExpressCards, Kind, standard_cards
from host.express.game import MAX_PLAYERS, MIN_PLAYERS, ExpressGame
from host.express.moves import AddCar, Move, Steal
from host.express.observation import ExpressObservation
from host.express.referee import ExpressReferee, judge_lines, observation_of
from host.express.scoring import (
    SeatTable,
    load_table,
    score_seat,
    scores_as_json,
    scores_as_text,
    train_from_json,
)
from host.express.transcript import observation_lines
from host.jsonl import read_text_lines
from host.table_game import (
    PHOTO_SUFFIXES,
    DemoTable,
    GameInputs,
    Scene,
    TableGame,
    WebInputs,
    opening_seats,
    seats_between,
)
from vision.calibration import EmptyTable
from vision.deck_references import DeckReferences
from vision.detect import FAINT_THRESHOLD, THRESHOLD
from vision.express_scene import TableDoesNotFit, express_layout
from vision.express_zones import ExpressZones, seats_seen, with_backs
from vision.imaging import read_image, scaled_for_reading, size_read
from vision.pipeline import Pipeline
from vision.table import SEAT_EDGES


def demo_table(seed: int, players: int) -> DemoTable:
    """A seeded hand between bots, as the referee reads it (every table with the counts of the
    cards held and discarded, ``--camera none``) and as the camera shows it (``camera_view``),
    each seat's button where the camera cannot tell a turn's end or a Derailment's target."""
    rng = random.Random(seed)
    game = ExpressGame.new(players, rng)
    bots.play_out(game, rng, allowed=lambda move: camera_reads(game, move))
    lines = [line for line, _ in observation_lines(game)]
    shown = [line for line, _ in observation_lines(
        game, seen=lambda table: camera_view(observation_of(table), game.cards).to_json())]
    opening = ExpressGame(game.setup, game.cards)
    scenes = [Scene(camera_view(observation_of(opening), game.cards))]
    for line in shown[1:]:
        view = None if is_event(line) else ExpressObservation.from_json(line, players)
        if view is None or view == scenes[-1].view:  # the camera sees no change
            events = () if view is not None else (line,)
            scenes[-1] = Scene(scenes[-1].view, (*scenes[-1].events, *events))
        else:
            scenes.append(Scene(view))
    return DemoTable(lines, scenes, unseen=_not_laid(scenes, players, seed), still_frames=11,
                     hand_frames=4, note="     (the seats' buttons are the bots', pressed where "
                     "the camera cannot tell a turn's end or a Derailment's target)")


def camera_reads(game: ExpressGame, move: Move) -> bool:
    """False for a play whose table the camera cannot read: one leaving a Wild Car in a train
    of several car types (Caboose aside), or of a type other than the one it stands for. No
    input names a Wild Car's type yet, so the demo's bots keep to the others."""
    trains = game.seats[game.current].trains
    match move:
        case AddCar(card, train, as_type):
            cars = [*((car.card, car.as_type) for car in trains[train].cars),
                    (card, as_type or card)]
        case Steal(victim, train, onto) if onto is not None:
            stolen = game.seats[victim].trains[train].cars[-1]
            cars = [*((car.card, car.as_type) for car in trains[onto].cars),
                    (stolen.card, stolen.as_type)]
        case _:
            return True
    others = {card for card, _ in cars if card not in (WILD, CABOOSE)}
    return all(card != WILD or {as_type} == others for card, as_type in cars)


def camera_view(table: Mapping[str, Any], cards: ExpressCards) -> ExpressObservation:
    """What the camera sees of a table: no counts of the cards held or discarded, and in the
    special slot only the Disasters and Turntables (the cars a Disaster takes lie face down
    under the draw pile's place: the referee does not need them, and a spread row of them
    outgrows the table's middle)."""
    seen = ExpressObservation.from_json(table, len(table["trains"]))
    special = tuple(name for name in seen.special
                    if cards.kind(name) in (Kind.DISASTER, Kind.TURNTABLE))
    return ExpressObservation(seen.trains, seen.way_cars, seen.discard, special)


def _not_laid(scenes: Sequence[Scene], players: int, seed: int) -> str | None:
    """Why the rendered camera cannot show these tables (None: it can)."""
    zones = ExpressZones(players, way_car_names(standard_cards()))
    for turn, scene in enumerate(scenes):
        assert isinstance(scene.view, ExpressObservation)
        if any(any(car.startswith(f"{zones.wild}:") for car in train.cars)
               and zones.wild_type([car.split(":")[0] for car in train.cars]) is None
               for trains in scene.view.trains for train in trains):
            return (f"from table {turn} a Wild Car lies in a train of several car types, and "
                    "the camera cannot tell which it stands for")
        try:
            express_layout(scene.view, seed)
        except TableDoesNotFit as error:
            return f"table {turn} outgrows the camera's marked area ({error})"
    return None


def score(path: Path, as_json: bool, out: TextIO, players: int | None = None,
          references: DeckReferences | None = None, calibration: EmptyTable | None = None
          ) -> int:
    """Score an end-of-hand table: a description (see docs/express.md), or a photo of every
    seat's trains, Way Cars and the cards left in hand spread in front of the player (read
    with ``references``: None for Conductor's own faces)."""
    cards = standard_cards()
    if path.suffix.lower() in PHOTO_SUFFIXES:
        table = photo_table(path, players, cards, None if as_json else out, references, calibration)
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
                references: DeckReferences | None = None,
                calibration: EmptyTable | None = None) -> list[SeatTable]:
    """Each seat's table read from a photo of the final count (BadInputError, saying what to
    do, for anything the camera cannot read for sure: a photo is never scored by guess)."""
    pipeline = Pipeline(deck="express", references=references, thresholds=EXPRESS_THRESHOLDS)
    if calibration is not None:  # read at the size a photo is read at
        pipeline.use_empty_table(calibration.scaled(), warn)
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
    if found is None:
        raise BadInputError(f"{path}: a face-down card cannot be told from the cloth: lay the "
                            "cards on a plainer cloth, apart, and take the photo again")
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
    """A seat's button or a Wild Car's type, not a table."""
    return line.get("event") in ("button", "wild")


def typed_line(text: str) -> dict[str, Any] | None:
    """``button N`` (seat N's button, typed): the target of a Derailment, or seat N saying its
    turn is done; None for anything else."""
    words = text.lower().split()
    if len(words) == 2 and words[0] in ("button", "seat") and words[1].isdigit():
        return {"event": "button", "seat": int(words[1])}
    return None


def web_offers(referee: ExpressReferee, by_hand: bool) -> list[dict[str, Any]]:
    """The entries on the web view: a Wild Car's type while a table waits for it (one lying in
    a passenger train of several types), a Derailment's target while one is awaited, else the
    seat on turn saying its turn is done (a table that looks the same). A Loco exchange needs
    no entry: the referee does not judge face-down Locos."""
    if referee.over:
        return []
    if referee.needs_wild is not None:
        seat, train, car = referee.needs_wild
        where = {"seat": seat, "train": train, "car": car}
        return [{"name": "wild", "label": f"Seat {seat}, train {train + 1}: the Wild Car, car "
                 f"{car + 1}, stands for",
                 "choices": [{"label": name, "value": {**where, "as_type": name}}
                             for name in passenger_types(referee.cards)]}]
    if referee.needs_target is not None:
        return [{"name": "button", "label": "Derailment: the seat that loses its turn",
                 "choices": [{"label": f"Seat {seat}", "value": seat}
                             for seat in range(referee.seats) if seat != referee.current]}]
    return [{"name": "button", "label": f"Seat {referee.current}'s turn is over (the table "
             "shows no change)", "choices": [{"label": "Done", "value": referee.current}]}]


def web_line(name: str, value: Any) -> dict[str, Any]:
    """A seat's button pressed on the web view, or a Wild Car's type."""
    if name == "wild" and isinstance(value, dict):
        return {"event": "wild", **{key: value.get(key)
                                    for key in ("seat", "train", "car", "as_type")}}
    if name != "button" or not isinstance(value, int) or isinstance(value, bool):
        raise BadInputError("an Express entry is a seat's button or a Wild Car's type")
    return {"event": "button", "seat": value}


def passenger_types(cards: ExpressCards) -> list[str]:
    """The car types a Wild Car in a passenger train may stand for."""
    return sorted(name for name in cards.info if cards.kind(name) is Kind.PASSENGER)


INPUTS = GameInputs(
    typed=typed_line,
    button=lambda press: {"event": "button", "seat": press.seat},
    help="button N (seat N's button: a Derailment's target, or done when the table shows no "
         "change)",
    is_event=is_event,
    web=WebInputs(offers=web_offers, line=web_line),
)
"""Express's inputs besides the camera: seat buttons, pressed, typed or tapped on the web
view."""


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


EXPRESS_THRESHOLDS = (THRESHOLD, FAINT_THRESHOLD)
"""Express tables spread many small cards to the far side: the finder also looks with the
faint threshold (``vision.detect``)."""


def camera_pipeline(players: int, references: DeckReferences | None = None) -> Pipeline:
    """The recognizer reading an Express table of ``players`` seats, one at each table edge
    (its cards read with ``references``: None for Conductor's own faces)."""
    if players not in SEAT_EDGES:
        raise BadInputError(f"the camera reads Express tables of {min(SEAT_EDGES)} to "
                            f"{max(SEAT_EDGES)} seats, one a table edge")
    return Pipeline(deck="express", zones=ExpressZones(players, way_car_names(standard_cards())),
                    references=references, thresholds=EXPRESS_THRESHOLDS)


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
    demo=demo_table,
    pipeline=camera_pipeline,
    inputs=INPUTS,
    score=score,
    photo_scoring=True,
    show=show,
    ending=ending,
    demo_seats=2,  # 3 or 4 seats' hands outgrow the marked area (docs/express.md, "The demo")
)
"""Express, as the app knows it so far."""
