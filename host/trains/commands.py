"""The Game of Trains on the command line: demo, play, resume and referee."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from host.board.lights import BoardLights, board_lights
from host.camera_feed import CameraFeed, watch
from host.context import AppContext
from host.errors import BadInputError
from host.jsonl import read_json_lines
from host.play import open_camera, play_table, terminal_input
from host.session import Session
from host.table_loop import TableLoop, TableSeen
from host.trains.bots import GreedyBot
from host.trains.observation import Observation, parse_observation, parse_opening
from host.trains.position import Phase, Position, apply, check_seats
from host.trains.referee import Referee, open_referee
from vision.camera import RenderedCamera
from vision.observation import TrainsObservation
from vision.pipeline import Pipeline

MAX_DEMO_MOVES = 2000
"""A demo that has not ended by then stops (greedy bots finish far sooner)."""


def read_observations(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read a whole observation file, checking every line first, so that a bad line fails the
    file with a one-line reason before any verdict is printed."""
    rows = read_json_lines(path)
    number, opening = rows[0]
    try:
        seats = parse_opening(opening).seats
        for number, row in rows[1:]:  # noqa: B007 - the number names the failing line below
            parse_observation(row, seats)
    except BadInputError as error:
        raise BadInputError(f"{path}:{number}: {error}") from None
    return opening, [row for _, row in rows[1:]]


def referee(path: Path, out: TextIO) -> int:
    """Judge a recorded game: one JSON verdict per observation."""
    opening, observations = read_observations(path)
    judge = open_referee(opening)
    print(json.dumps(judge.observe(Observation.of(judge.game.position)).to_json()), file=out)
    for observation in observations:
        print(json.dumps(judge.judge(observation)), file=out, flush=True)
    return 0


class DemoGame:
    """The seeded game the demo's bots play, standing in for the real table."""

    def __init__(self, seed: int, players: int) -> None:
        self.rng = random.Random(seed)
        self.table = Position.deal(players, self.rng.randrange(players), self.rng)
        self.bot = GreedyBot(self.rng)

    def play_out(self) -> list[dict[str, Any]]:
        """The table as the camera would see it: as dealt (with ``seats`` and ``first``), then
        after every move, to the win (or the move limit)."""
        seen = [{"seats": self.table.seats, "first": self.table.first}]
        seen[0].update(Observation.of(self.table).to_json())
        while self.table.phase is not Phase.OVER and len(seen) <= MAX_DEMO_MOVES:
            self.table = apply(self.table, self.bot.choose(self.table))
            seen.append(Observation.of(self.table).to_json())
        return seen


def demo(seed: int, players: int, app: AppContext) -> int:
    """A seeded game between greedy bots, seen through the rendered camera (or directly with
    ``--camera none``), each turn judged by the referee from the table alone, journaled, shown
    on the seat LEDs of the simulated board, the terminal and the web view."""
    tables = DemoGame(seed, players).play_out()
    settings = {
        "mode": "demo",
        "seed": seed,
        "players": players,
        "camera": app.camera,
        "board": app.board,
    }
    session = Session.start("trains", tables[0], open_referee, app.journal, settings)
    app.say(
        f"The Game of Trains: {players} seats, seed {seed}; seat {tables[0]['first']} starts"
        f" (journaled as game {session.game_id})"
    )
    _show_lines(session.referee.game.position, app)
    return _watch(tables, session, app, seed)


def resume(game_id: int, app: AppContext) -> int:
    """Continue a journaled demo game from its last committed turn."""
    settings = app.journal.summary(game_id).settings
    if settings.get("mode") == "table":
        return _resume_table(game_id, app)
    if settings.get("mode") != "demo":
        raise BadInputError(f"game {game_id} cannot be resumed (it was a {settings.get('mode')})")
    session = Session.resume(app.journal, game_id, open_referee)
    seed = int(settings["seed"])
    tables = DemoGame(seed, int(settings["players"])).play_out()
    done = session.turns
    committed = Observation.of(session.referee.game.position).to_json()
    if done >= len(tables) or {**tables[done], "seats": None, "first": None} != {
        **committed,
        "seats": None,
        "first": None,
    }:
        raise BadInputError(f"game {game_id}'s journal does not match its seeded demo")
    app.say(f"Resuming game {game_id} after {done} moves")
    _show_lines(session.referee.game.position, app)
    return _watch(tables[done:], session, app, seed)


def _table_loop(session: Session[Any], app: AppContext, lights: BoardLights | None) -> TableLoop:
    """The table loop for a game of trains, drawing the committed table on the web view."""
    return TableLoop(
        session,
        app,
        "The Game of Trains",
        "trains",
        lights=lights,
        table_for_web=lambda: session.referee.table(),
    )


def _watch(
    tables: list[dict[str, Any]], session: Session[Referee], app: AppContext, seed: int
) -> int:
    """Referee the demo's tables as the camera shows them, to the win."""
    with board_lights(app.board, app.say) as lights:
        loop = _table_loop(session, app, lights)
        if app.camera == "none":
            for now, table in enumerate(tables[1:], start=1):
                loop.handle(TableSeen(table), float(now))
                loop.tick(float(now))
        else:
            players = session.referee.game.position.seats
            camera = RenderedCamera(
                [TrainsObservation.from_json(table) for table in tables], seed=seed
            )
            feed = CameraFeed(Pipeline(deck="trains", players=players), app.web)
            started = time.monotonic()
            watch(camera, feed, loop, realtime=app.web is not None)
            seconds = time.monotonic() - started
            app.say(
                f"camera: {feed.frames} rendered frames read in {seconds:.1f} s "
                f"({feed.frames / max(seconds, 1e-9):.0f} frames/s)"
            )
    position = session.referee.game.position
    _show_lines(position, app)
    if position.winner is None:
        app.say("The referee did not see the game to its end.")
        return 1
    app.say(f"Seat {position.winner} wins after {session.turns} moves.")
    return 0


def _show_lines(position: Position, app: AppContext) -> None:
    for seat, line in enumerate(position.lines):
        cards = " ".join(f"{card:2}" for card in line)
        app.say(f"     seat {seat}: {cards}")


def play(players: int, first: int, app: AppContext) -> int:
    """Referee a real table through the camera: the first settled table is the deal."""
    check_seats(players, first)
    settings = {"mode": "table", "camera": app.camera, "board": app.board}

    def session_for(table: dict[str, Any]) -> Session[Referee]:
        opening = {"seats": players, "first": first, **table}
        session = Session.start("trains", opening, open_referee, app.journal, settings)
        app.say(
            f"The Game of Trains: {players} seats, seat {first} starts "
            f"(journaled as game {session.game_id})"
        )
        _show_lines(session.referee.game.position, app)
        return session

    return _play_on(players, app, session_for, None)


def _resume_table(game_id: int, app: AppContext) -> int:
    """Continue a game played at a real table: the camera takes over from the journal."""
    session = Session.resume(app.journal, game_id, open_referee)
    app.say(f"Resuming game {game_id} after {session.turns} moves: put the table as shown")
    _show_lines(session.referee.game.position, app)
    return _play_on(session.referee.game.position.seats, app, None, session)


def _play_on(
    players: int,
    app: AppContext,
    session_for: Callable[[dict[str, Any]], Session[Referee]] | None,
    resumed: Session[Referee] | None,
) -> int:
    opener = open_camera(app.camera)
    feed = CameraFeed(Pipeline(deck="trains", players=players), app.web)
    with board_lights(app.board, app.say) as lights:

        def make_loop(session: Session[Any]) -> TableLoop:
            return _table_loop(session, app, lights)

        loop = play_table(
            session_for=session_for,
            make_loop=make_loop,
            opener=opener,
            feed=feed,
            app=app,
            lights=lights,
            live=app.camera.isdigit(),
            terminal=terminal_input(),
            resumed=resumed,
        )
    if loop is None:
        app.say("The camera never showed a whole table: no game was started.")
        return 1
    position = loop.session.referee.game.position
    _show_lines(position, app)
    if position.winner is not None:
        app.say(f"Seat {position.winner} wins after {loop.session.turns} moves.")
    else:
        app.say(f"Stopped after {loop.session.turns} moves; `conductor resume` goes on.")
    return 0
