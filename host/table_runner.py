"""The app's one way to run a game: ``demo``, ``play`` and ``resume`` for any game, from its
descriptor (``host.table_game.TableGame``).

A demo is a seeded game the bots played, shown to the referee as a table would show it: through
the rendered camera (or straight, with ``--camera none``), its board events following the tables
they belong to. ``play`` referees a real table through the camera; the first settled table is
the opening. Either is journaled, and ``resume`` goes on from the journal.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from host.board.lights import BoardLights, board_lights
from host.calibration_choice import calibration_settings, journaled_calibration
from host.camera_feed import CameraFeed, watch
from host.context import AppContext
from host.deck_choice import OWN_FACES, DeckChoice
from host.errors import BadInputError
from host.play import control_threads, play_table, terminal_input
from host.session import Session
from host.table_game import DemoTable, Scene, TableGame
from host.table_loop import BoardInput, Event, TableLoop, TableSeen
from vision.calibration import EmptyTable
from vision.camera import CameraFrame, RenderedCamera, camera_opener

Game = TableGame[Any]


def demo(game: Game, seed: int, players: int, app: AppContext) -> int:
    """A seeded game between bots, seen through the rendered camera (or directly with
    ``--camera none``), each turn judged by the referee from the table alone, journaled, shown
    on the seat LEDs of the simulated board, the terminal and the web view."""
    game.check_seats(players, 0)
    if game.demo is None:
        if game.transcript is None:
            raise BadInputError(f"{game.title} has no demo yet")
        return game.transcript(seed, players, app.out, app.pause)
    table = game.demo(seed, players)
    app = _camera_for(table, app, seed)
    opening = table.lines[0]
    settings = {"mode": "demo", "seed": seed, "players": players, "camera": app.camera,
                "board": app.board}
    session = Session.start(game.name, opening, game.open_referee, app.journal, settings)
    app.say(f"{game.title}: {players} seats, seed {seed}; seat {opening.get('first', 0)} starts "
            f"(journaled as game {session.game_id})")
    _say(app, game.show(session.referee))
    if table.note is not None:
        app.say(table.note)
    return _run_demo(game, table, 0, session, app, seed)


def play(game: Game, players: int, first: int, app: AppContext,
         deck: DeckChoice = OWN_FACES, calibration: EmptyTable | None = None) -> int:
    """Referee a real table through the camera (its cards read with ``deck``, by default
    Conductor's own faces, and an enrolled deck's with the ``calibration``'s empty table if
    there is one): the first settled table is the opening. A game no camera reads is played
    from the moves players enter on the web view."""
    game.check_seats(players, first)
    if game.played_on_web:
        need_web(game, app.web is not None)
        with board_lights(app.board, app.say) as lights:
            return play_on_web(game, players, first, app, lights)
    if game.pipeline is None:
        raise BadInputError(f"{game.title} has no play yet: the camera cannot read its table")
    opener = camera_opener(app.camera)
    with board_lights(app.board, app.say) as lights:
        return play_at_table(game, players, first, app, opener, lights, deck=deck,
                             calibration=calibration)


def resume(game: Game, game_id: int, app: AppContext, calibration: Path | None = None,
           no_calibration: bool = False) -> int:
    """Continue a journaled game from its last committed turn: a game at a table with the
    camera, board, deck and calibration it was played with (unless ``calibration`` names
    another or ``no_calibration``), a demo from its seed."""
    settings = app.journal.summary(game_id).settings
    mode = settings.get("mode")
    if mode == "demo":
        return _resume_demo(game, game_id, settings, app)
    if mode != "table" or (game.pipeline is None and not game.played_on_web):
        raise BadInputError(f"game {game_id} cannot be resumed (it was a {mode})")
    if game.played_on_web:
        return _resume_on_web(game, game_id, app)
    deck = DeckChoice.journaled(game.name, game_id, settings)
    empty = journaled_calibration(game_id, settings, calibration, no_calibration)
    session = Session.resume(app.journal, game_id, game.open_referee)
    app.say(f"Resuming game {game_id} after {session.turns} {game.turn_word}: "
            "put the table as shown")
    if deck.references is not None:
        app.say(f"cards read with {deck.references}, as when the game started")
    if empty is not None:
        app.say(f"the calibrated empty table: {empty.path}, as when the game started")
    _say(app, game.show(session.referee))
    opener = camera_opener(app.camera)
    with board_lights(app.board, app.say) as lights:
        return play_at_table(game, session.referee.turn_indicator().seats, 0, app, opener,
                             lights, resumed=session, deck=deck, calibration=empty)


def _resume_on_web(game: Game, game_id: int, app: AppContext) -> int:
    """A game played from the web view goes on from its journal, its moves entered there."""
    need_web(game, app.web is not None)
    session = Session.resume(app.journal, game_id, game.open_referee)
    app.say(f"Resuming game {game_id} after {session.turns} {game.turn_word}")
    _say(app, game.show(session.referee))
    with board_lights(app.board, app.say) as lights:
        return play_on_web(game, session.referee.turn_indicator().seats, 0, app, lights,
                           resumed=session)


def _resume_demo(game: Game, game_id: int, settings: Mapping[str, Any], app: AppContext) -> int:
    """A demo goes on from its seed: the bots play the seeded game again and it is shown from
    where the journal left it."""
    seed, players = int(settings.get("seed", 0)), int(settings.get("players", 0))
    game.check_seats(players, 0)
    if game.demo is None:
        raise BadInputError(f"game {game_id} was a demo: run conductor demo {game.name} --seed "
                            f"{seed} again")
    table = game.demo(seed, players)
    app = _camera_for(table, app, seed)
    session = Session.resume(app.journal, game_id, game.open_referee)
    if game.inputs is not None and any(game.inputs.is_event(line) for line in table.lines):
        return _resume_with_events(game, game_id, table, session, settings, app, seed)
    done = session.turns
    expected = game.open_referee(table.lines[0])
    for line in table.lines[1:done + 1]:
        expected.feed(line)
    if done >= len(table.lines) or _picture(game, expected) != _picture(game, session.referee):
        raise BadInputError(f"game {game_id}'s journal does not match its seeded demo")
    app.say(f"Resuming game {game_id} after {done} {game.turn_word}")
    _say(app, game.show(session.referee))
    return _run_demo(game, table, done, session, app, seed)


def _resume_with_events(game: Game, game_id: int, table: DemoTable, session: Session[Any],
                        settings: Mapping[str, Any], app: AppContext, seed: int) -> int:
    """A demo whose turns are a table and board events (not one line each) goes on from its
    journaled inputs: what is left of its lines, or of its scenes through the camera."""
    assert game.inputs is not None
    inputs = app.journal.standing_inputs(game_id)
    if app.camera == "none":
        try:
            lines = lines_left(table.lines, inputs)
        except BadInputError as error:
            raise BadInputError(f"game {game_id}: {error}") from None
        scenes = table.scenes
    elif settings.get("camera") == "none":
        # The same game, fed straight so far: the camera shows the rest of it.
        try:
            lines, scenes = [], scenes_after_lines(table, lines_left(table.lines, inputs))
        except BadInputError as error:
            raise BadInputError(f"game {game_id}: {error}") from None
    else:
        lines, scenes = [], scenes_left(table.scenes, inputs, game.inputs.is_event)
    app.say(f"Resuming game {game_id} after {session.turns} {game.turn_word}")
    _say(app, game.show(session.referee))
    rest = replace(table, lines=[table.lines[0], *lines], scenes=scenes)
    return _run_demo(game, rest, 0, session, app, seed)


def lines_left(lines: list[dict[str, Any]], inputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What is left of a demo fed straight to the referee (``--camera none``), once ``inputs``
    (the journaled ones, every line after the opening in order) were judged; BadInputError if
    they are not where that game was."""
    done = len(inputs)
    if inputs != lines[1 : 1 + done]:
        raise BadInputError("its journal does not follow its seeded demo fed straight to the "
                            "referee (resume it with --camera rendered)")
    return lines[1 + done :]


def scenes_after_lines(table: DemoTable, left: list[dict[str, Any]]) -> list[Scene]:
    """What is left to show through the camera of a demo fed straight to the referee so far
    (``--camera none``), with ``left`` its lines still to feed: the table it stands at, shown
    again with only its events not yet fed, then the scenes after it. A demo's lines are its
    scenes' tables and events one for one, in order (the tables fuller than a camera sees:
    the cards under a pile's top); BadInputError if they are not."""
    places = [(index, done) for index, scene in enumerate(table.scenes)
              for done in range(0 if index else 1, len(scene.events) + 1)]
    if len(places) != len(table.lines) - 1:
        raise BadInputError("its demo's lines are not its scenes (resume it with --camera none)")
    if len(left) == len(places):
        return table.scenes
    index, done = places[len(places) - len(left) - 1]
    current = table.scenes[index]
    return [Scene(current.view, current.events[done:]), *table.scenes[index + 1:]]


def scenes_left(scenes: list[Scene], inputs: list[dict[str, Any]],
                is_event: Callable[[Mapping[str, Any]], bool]) -> list[Scene]:
    """What is left to show of a demo through the camera, once ``inputs`` (the journaled ones)
    were judged: the table the game stands at, shown again, with only its events not yet
    judged, then the scenes after it. Tables the camera saw that are no scene's (a settled
    misreading, a repeat) move nothing."""
    shown, events_done = 0, 0
    for data in inputs:
        if is_event(data):
            events_done += 1
        elif shown < len(scenes) and data == scenes[shown].view.to_json():
            shown, events_done = shown + 1, 0
    if shown == 0:
        return scenes
    current = scenes[shown - 1]
    return [Scene(current.view, current.events[events_done:]), *scenes[shown:]]


def _camera_for(table: DemoTable, app: AppContext, seed: int) -> AppContext:
    """The app as the demo can run: a game the rendered camera cannot show is fed straight to
    the referee, saying why."""
    if table.unseen is None or app.camera == "none":
        return app
    app.say(f"The rendered camera cannot show seed {seed}: {table.unseen}; its tables go "
            "straight to the referee (--camera none)")
    return replace(app, camera="none")


def _picture(game: Game, referee: Any) -> object:
    """What tells two referees' games apart: the web view's table, or whose turn it is."""
    return game.draw(referee) if game.draw is not None else referee.turn_indicator()


def _run_demo(game: Game, table: DemoTable, start: int, session: Session[Any],
              app: AppContext, seed: int) -> int:
    """Referee the demo's game from line ``start`` (the opening: 0) to its end."""
    with board_lights(app.board, app.say) as lights:
        loop = _table_loop(game, session, app, lights)
        if app.camera == "none":
            for now, line in enumerate(table.lines[start + 1:], start=1):
                _feed(game, loop, line, float(now))
                loop.tick(float(now))
        else:
            assert game.pipeline is not None  # a game with a demo has a camera
            players = session.referee.turn_indicator().seats
            feed = CameraFeed(game.pipeline(players, None), app.web)
            started = time.monotonic()
            watch_scenes(game, table, table.scenes[start:], feed, loop, seed,
                         realtime=app.web is not None)
            seconds = time.monotonic() - started
            app.say(f"camera: {feed.frames} rendered frames read in {seconds:.1f} s "
                    f"({feed.frames / max(seconds, 1e-9):.0f} frames/s)")
    _say(app, game.ending(session.referee, session.turns))
    if not session.referee.turn_indicator().over:
        app.say("The referee did not see the game to its end.")
        return 1
    return 0


def watch_scenes(game: Game, table: DemoTable, scenes: list[Scene], feed: CameraFeed,
                 loop: TableLoop, seed: int, realtime: bool = False) -> None:
    """Show scenes to the referee through a rendered camera, each scene's board events
    following once the camera has seen its table settle."""
    camera = RenderedCamera([scene.view for scene in scenes], seed=seed,
                            still_frames=table.still_frames, hand_frames=table.hand_frames)
    shown = 0

    def after_table(seen: TableSeen, now: float) -> None:
        nonlocal shown
        if shown < len(scenes) and seen.observation == scenes[shown].view.to_json():
            for line in scenes[shown].events:
                _feed(game, loop, line, now)
            shown += 1

    watch(camera, feed, loop, realtime=realtime, after_table=after_table)


def _feed(game: Game, loop: TableLoop, line: dict[str, Any], now: float) -> None:
    """One line of the demo's record: a table the camera shows, or a board event, told."""
    if game.inputs is not None and game.inputs.is_event(line):
        told = game.inputs.tell(line)
        if told is not None:
            loop.app.say(told)
        loop.handle(BoardInput(line), now)
    else:
        loop.handle(TableSeen(line), now)


def _table_loop(game: Game, session: Session[Any], app: AppContext,
                lights: BoardLights | None, at_table: bool = False) -> TableLoop:
    """The loop for ``game``; at a table it keeps the board's roll button armed."""
    draw = game.draw
    return TableLoop(
        session, app, game.title, game.name, lights=lights,
        table_for_web=None if draw is None else lambda: draw(session.referee),
        dice=game.dice if at_table else None,
        dice_typed=game.inputs.typed_dice if game.inputs is not None else "",
        web_inputs=game.inputs.web if game.inputs is not None else None,
    )


def need_web(game: Game, web_given: bool) -> None:
    """BadInputError unless the web view is on for a game whose moves are entered there."""
    if not web_given:
        raise BadInputError(f"{game.title}'s moves are entered on the web view: give --web "
                            "(this computer) or --share (phones on the network)")


def play_on_web(game: Game, players: int, first: int, app: AppContext,
                lights: BoardLights | None, resumed: Session[Any] | None = None,
                terminal: TextIO | None = None) -> int:
    """``play`` for a game no camera reads: players enter each move on the web view, the
    board rolls its dice and lights the turn, until the win or until the players quit (``q``
    at the terminal, or Ctrl-C: the journal keeps every move for ``resume``)."""
    settings = {"mode": "table", "camera": "none", "board": app.board}
    session = resumed
    if session is None:
        session = Session.start(game.name, {"seats": players, "first": first},
                                game.open_referee, app.journal, settings)
        app.say(f"{game.title}: {players} seats, seat {first} starts (journaled as game "
                f"{session.game_id})")
        _say(app, game.show(session.referee))
    assert app.web is not None
    app.say(f"enter the moves on the web view: {app.web.url}")
    loop = _table_loop(game, session, app, lights, at_table=True)
    events: queue.Queue[Event] = queue.Queue()
    stopping = threading.Event()
    control_threads(app, lights, events, stopping, terminal or terminal_input(), game.inputs)
    try:
        loop.run(events)
    finally:
        stopping.set()
    _stopped(game, app, session)
    return 0


def play_at_table(game: Game, players: int, first: int, app: AppContext,
                  opener: Callable[[], Iterable[CameraFrame]], lights: BoardLights | None,
                  resumed: Session[Any] | None = None,
                  deck: DeckChoice = OWN_FACES, calibration: EmptyTable | None = None) -> int:
    """``play`` with its camera and board opened, to the win or the end of the video: the
    first settled table starts the game, unless a ``resumed`` one goes on from its journal."""
    assert game.pipeline is not None
    pipeline = game.pipeline(players, deck.read_with)
    # Journaled only when it is read with (our framed faces learn nothing from it), so
    # resuming never asks for a calibration the game did not use.
    used = calibration is not None and pipeline.use_empty_table(calibration, app.say)
    settings = {"mode": "table", "camera": app.camera, "board": app.board, **deck.settings(),
                **calibration_settings(calibration if used else None)}

    def session_for(table: dict[str, Any]) -> Session[Any]:
        opening = {"seats": players, "first": first, **table}
        session = Session.start(game.name, opening, game.open_referee, app.journal, settings)
        app.say(f"{game.title}: {players} seats, seat {first} starts "
                f"(journaled as game {session.game_id})")
        _say(app, game.show(session.referee))
        return session

    feed = CameraFeed(pipeline, app.web)
    loop = play_table(
        session_for=session_for if resumed is None else None,
        make_loop=lambda session: _table_loop(game, session, app, lights, at_table=True),
        opener=opener, feed=feed, app=app, lights=lights, live=app.camera.isdigit(),
        terminal=terminal_input(), resumed=resumed, inputs=game.inputs,
    )
    if loop is None:
        app.say("The camera never showed a whole table: no game was started.")
        return 1
    _stopped(game, app, loop.session)
    return 0


def _stopped(game: Game, app: AppContext, session: Session[Any]) -> None:
    """The end of a game at the table, or how to go on with it."""
    _say(app, game.ending(session.referee, session.turns))
    if not session.referee.turn_indicator().over:
        app.say(f"Stopped after {session.turns} {game.turn_word}; `conductor resume "
                f"{session.game_id}` goes on.")


def _say(app: AppContext, lines: Iterable[str]) -> None:
    for line in lines:
        app.say(line)
