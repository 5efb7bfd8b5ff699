"""Rollecate on the command line: ``conductor demo|play|referee|score rollecate``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

from host.board.lights import BoardLights, board_lights
from host.camera_feed import CameraFeed, watch
from host.context import AppContext
from host.errors import BadInputError
from host.play import GameInputs, open_camera, play_table, terminal_input
from host.rollecate.cards import Kind, default_book
from host.rollecate.demo import DemoGame, Scene
from host.rollecate.observation import is_event
from host.rollecate.referee import judge_file, open_referee
from host.rollecate.rules import MAX_PLAYERS, MIN_PLAYERS, TIE_BREAK_VALUES
from host.rollecate.scoring import Scoring, score_table
from host.rollecate.table import check_possible, parse_table, read_json
from host.rollecate.words import plural
from host.session import Session
from host.table_loop import BoardInput, TableLoop, TableSeen
from vision.camera import CameraFrame, RenderedCamera
from vision.imaging import read_image
from vision.pipeline import Pipeline
from vision.rollecate_table import START_MARKER_ID
from vision.rollecate_zones import spread_cards

PHOTO_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")
"""A score file with one of these is a photo of the final count."""


def score(path: Path, as_json: bool, out: TextIO, players: int | None = None) -> int:
    """Score an end-of-game table: a JSON file, or a photo of every player's cards spread out
    in front of them; print the scores, ranking and winner(s)."""
    book = default_book()
    if path.suffix.lower() in PHOTO_SUFFIXES:
        table = [[book.parse(name) for name in cards]
                 for cards in photo_table(path, players, out if not as_json else None)]
        check_possible(table, book)
    else:
        table = parse_table(read_json(path), book)
    scoring = score_table([[card.value for card in cards] for cards in table])
    if as_json:
        print(json.dumps(scoring.to_json()), file=out)
    else:
        print(describe_scoring(scoring), file=out)
    return 0


def photo_table(path: Path, players: int | None, out: TextIO | None) -> list[tuple[str, ...]]:
    """Each seat's cards read from a photo of the final count (BadInputError, with what to do,
    when a card cannot be read or the seats are unclear: a photo is never scored by guess)."""
    pipeline = Pipeline(deck="rollecate")
    reading = pipeline.read(read_image(path))
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


def referee(path: Path, out: TextIO) -> int:
    """Judge a recorded game (observations and dice events), one JSON verdict per line."""
    for verdict in judge_file(path):
        print(json.dumps(verdict), file=out)
    return 0


def demo(seed: int, players: int, app: AppContext) -> int:
    """A seeded game between simple bots, seen through the rendered camera (or fed straight to
    the referee with ``--camera none``), refereed from the table and the dice, journaled, and
    shown on the seat LEDs of the simulated board, the terminal and the web view."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadInputError(f"Rollecate is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    game = DemoGame(seed, players)
    settings = {"mode": "demo", "seed": seed, "players": players, "camera": app.camera,
                "board": app.board}
    session = Session.start("rollecate", game.lines[0], open_referee, app.journal, settings)
    opening = game.lines[0]
    app.say(
        f"Rollecate: {players} seats, seed {seed}; seat {opening['first']} starts "
        f"(journaled as game {session.game_id})"
    )
    app.say(f"     railway: {railway_words(opening['railway'], opening['train'])}")
    app.say("     (the dice are the seeded game's, typed in as if rolled on the board)")
    with board_lights(app.board, app.say) as lights:
        loop = _table_loop(session, app, lights)
        if app.camera == "none":
            for now, line in enumerate(game.lines[1:], start=1):
                if is_event(line):
                    _board_event(loop, line, float(now))
                else:
                    loop.handle(TableSeen(line), float(now))
                loop.tick(float(now))
        else:
            _watch_rendered(game, loop, app, seed, players)
    scoring = session.referee.referee.scoring
    if scoring is None:
        app.say("The referee did not see the game to its end.")
        return 1
    app.say(describe_scoring(scoring))
    return 0


def _watch_rendered(game: DemoGame, loop: TableLoop, app: AppContext, seed: int,
                    players: int) -> None:
    """Show the game to the referee through the rendered camera."""
    feed = CameraFeed(Pipeline(deck="rollecate", players=players), app.web)
    started = time.monotonic()
    watch_scenes(game.scenes(), feed, loop, seed, realtime=app.web is not None)
    seconds = time.monotonic() - started
    app.say(
        f"camera: {feed.frames} rendered frames read in {seconds:.1f} s "
        f"({feed.frames / max(seconds, 1e-9):.0f} frames/s)"
    )


def watch_scenes(scenes: list[Scene], feed: CameraFeed, loop: TableLoop, seed: int,
                 realtime: bool = False) -> None:
    """Show scenes to the referee through a rendered camera, each scene's board events
    following once the camera has seen its table settle."""
    camera = RenderedCamera([scene.view for scene in scenes], seed=seed, still_frames=11,
                            hand_frames=4)
    shown = 0

    def after_table(seen: TableSeen, now: float) -> None:
        nonlocal shown
        if shown < len(scenes) and seen.observation == scenes[shown].view.to_json():
            for line in scenes[shown].events:
                _board_event(loop, line, now)
            shown += 1

    watch(camera, feed, loop, realtime=realtime, after_table=after_table)


def _board_event(loop: TableLoop, line: dict[str, Any], now: float) -> None:
    """A dice roll, pass or button press of the demo's game, told and then judged."""
    if "dice" in line:
        wheels = line["dice"].count("wheel")
        loop.app.say(f"     dice: {' '.join(line['dice'])} ({plural(wheels, 'wheel')})")
    elif "pass" in line:
        loop.app.say("     the seat's button: pass")
    loop.handle(BoardInput(line), now)


def _table_loop(session: Session[Any], app: AppContext, lights: BoardLights | None) -> TableLoop:
    return TableLoop(session, app, "Rollecate", "rollecate", lights=lights,
                     table_for_web=lambda: session.referee.table())


def railway_words(railway: list[str], train: int) -> str:
    """The railway from its start by value (``b`` broken track), the train's card in brackets."""
    book = default_book()
    shown = [("b" if book.card(name).kind is Kind.BROKEN else "") + str(book.value(name))
             for name in railway]
    shown[train] = f"[{shown[train]}]"
    return " ".join(shown)


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


INPUTS = GameInputs(
    typed=typed_line,
    button=lambda press: {"done": True, "seat": press.seat},
    help="roll w b ... (dice rolled by hand: w wheel, b blank), pass, done",
)
"""Rollecate's inputs besides the camera: a seat's short press says its turn is done."""


def play(players: int, first: int, app: AppContext) -> int:
    """Referee a real table through the camera; the board rolls the dice (its roll button is
    armed with the dice each build needs) or the players type them in."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadInputError(f"Rollecate is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not 0 <= first < players:
        raise BadInputError(f"--first is a seat from 0 to {players - 1}")
    opener = open_camera(app.camera)
    with board_lights(app.board, app.say) as lights:
        return play_at_table(players, first, app, opener, lights)


def resume(game_id: int, app: AppContext) -> int:
    """Continue a game played at a real table from its last journaled input (after a crash or
    an unplugged cable), with the camera and board it was played with."""
    settings = app.journal.summary(game_id).settings
    if settings.get("mode") != "table":
        raise BadInputError(f"game {game_id} was a demo: run conductor demo rollecate --seed "
                            f"{settings.get('seed')} again")
    session = Session.resume(app.journal, game_id, open_referee)
    players = session.referee.referee.seats
    app.say(f"Resuming game {game_id} after {session.turns} turns: put the table as shown")
    opener = open_camera(app.camera)
    with board_lights(app.board, app.say) as lights:
        return play_at_table(players, 0, app, opener, lights, resumed=session)


def play_at_table(players: int, first: int, app: AppContext,
                  opener: Callable[[], Iterable[CameraFrame]],
                  lights: BoardLights | None, resumed: Session[Any] | None = None) -> int:
    """``play`` with its camera and board opened: the first settled table is the set-up
    (unless a ``resumed`` game goes on from its journal)."""
    settings = {"mode": "table", "camera": app.camera, "board": app.board}

    def session_for(table: dict[str, Any]) -> Session[Any]:
        opening = {"seats": players, "first": first, **table}
        session = Session.start("rollecate", opening, open_referee, app.journal, settings)
        app.say(f"Rollecate: {players} seats, seat {first} starts "
                f"(journaled as game {session.game_id})")
        app.say(f"     railway: {railway_words(opening['railway'], opening['train'])}")
        return session

    def arm(verdict: dict[str, Any]) -> None:
        if verdict.get("verdict") != "roll":
            return
        if lights is not None:
            lights.arm_dice("wheel", int(verdict["dice"]))
            app.say("     press the board's roll button")
        else:
            app.say("     type the dice: roll w b ... (w wheel, b blank)")

    def make_loop(session: Session[Any]) -> TableLoop:
        loop = _table_loop(session, app, lights)
        loop.on_verdict = arm
        return loop

    if resumed is not None and resumed.referee.referee.dice_wanted:
        arm({"verdict": "roll", "dice": resumed.referee.referee.dice_wanted})  # still due

    feed = CameraFeed(Pipeline(deck="rollecate", players=players), app.web)
    loop = play_table(session_for=session_for, make_loop=make_loop, opener=opener, feed=feed,
                      app=app, lights=lights, live=app.camera.isdigit(),
                      terminal=terminal_input(), resumed=resumed, inputs=INPUTS)
    if loop is None:
        app.say("The camera never showed a whole table: no game was started.")
        return 1
    scoring = loop.session.referee.referee.scoring
    if scoring is not None:
        app.say(describe_scoring(scoring))
    else:
        app.say(f"Stopped after {loop.session.turns} turns (journaled as game "
                f"{loop.session.game_id}).")
    return 0
