"""``conductor demo trains`` and ``conductor referee trains``."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, TextIO

from host.context import AppContext
from host.errors import BadInputError
from host.jsonl import read_json_lines
from host.session import COMMITTING, Session
from host.trains.bots import GreedyBot
from host.trains.observation import Observation, parse_observation, parse_opening
from host.trains.position import Phase, Position, apply
from host.trains.referee import Referee, open_referee
from host.web.snapshot import GameLog, snapshot

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


class _Simulation:
    """The seeded game the demo's bots play, standing in for the real table."""

    def __init__(self, seed: int, players: int) -> None:
        self.rng = random.Random(seed)
        self.table = Position.deal(players, self.rng.randrange(players), self.rng)
        self.bot = GreedyBot(self.rng)

    def opening(self) -> dict[str, Any]:
        """The first observation: the table as dealt."""
        seen = Observation.of(self.table).to_json()
        return {"seats": self.table.seats, "first": self.table.first, **seen}

    def step(self) -> dict[str, Any]:
        """The bot on turn plays; the table as the camera would then see it."""
        self.table = apply(self.table, self.bot.choose(self.table))
        return Observation.of(self.table).to_json()


def demo(seed: int, players: int, app: AppContext) -> int:
    """A seeded game between greedy bots, each turn judged by the referee from the table alone,
    journaled, told on the terminal and shown on the web view."""
    simulation = _Simulation(seed, players)
    settings = {"mode": "demo", "seed": seed, "players": players}
    session = Session.start("trains", simulation.opening(), open_referee, app.journal, settings)
    app.say(
        f"The Game of Trains: {players} seats, seed {seed}; seat {simulation.table.first} starts"
        f" (journaled as game {session.game_id})"
    )
    _show_lines(simulation.table, app)
    return _play_out(simulation, session, app, GameLog())


def resume(game_id: int, app: AppContext) -> int:
    """Continue a journaled demo game from its last committed turn."""
    settings = app.journal.summary(game_id).settings
    if settings.get("mode") != "demo":
        raise BadInputError(f"game {game_id} was not a demo game")
    session = Session.resume(app.journal, game_id, open_referee)
    simulation = _Simulation(int(settings["seed"]), int(settings["players"]))
    committed = session.referee.game.position
    for _ in session.referee.game.moves:
        simulation.step()
    if Observation.of(simulation.table) != Observation.of(committed):
        raise BadInputError(f"game {game_id}'s journal does not match its seeded demo")
    app.say(f"Resuming game {game_id} after {len(session.referee.game.moves)} moves")
    _show_lines(committed, app)
    log = GameLog()
    log.add("info", f"resumed after {len(session.referee.game.moves)} moves")
    return _play_out(simulation, session, app, log)


def _play_out(
    simulation: _Simulation, session: Session[Referee], app: AppContext, log: GameLog
) -> int:
    referee = session.referee
    _publish(referee, app, log, None)
    while referee.game.position.phase is not Phase.OVER:
        turn = len(referee.game.moves) + 1
        if turn > MAX_DEMO_MOVES:
            app.say(f"No winner after {MAX_DEMO_MOVES} moves.")
            return 0
        verdict = session.feed(simulation.step())
        text = _say(verdict)
        app.say(f"{turn:3}. {text}")
        log.add(verdict["verdict"], text)
        if verdict["verdict"] not in COMMITTING:
            app.say("the referee disagrees with the table: stopping")
            return 1
        _publish(referee, app, log, ("info", text))
        time.sleep(app.pace)
    _show_lines(referee.game.position, app)
    winner = referee.game.position.winner
    app.say(f"Seat {winner} wins after {len(referee.game.moves)} moves.")
    return 0


def _publish(
    referee: Referee, app: AppContext, log: GameLog, message: tuple[str, str] | None
) -> None:
    app.show(
        snapshot(
            game="trains",
            title="The Game of Trains",
            turn=referee.turn(),
            table=referee.table(),
            log=log,
            message=message,
        )
    )


def _say(verdict: dict[str, Any]) -> str:
    if "move" in verdict:
        text = str(verdict["move"]["text"])
        return text + (f" — seat {verdict['seat']} WINS" if verdict["verdict"] == "win" else "")
    return f"{verdict['verdict']}: {verdict.get('reason', '')}"


def _show_lines(position: Position, app: AppContext) -> None:
    for seat, line in enumerate(position.lines):
        cards = " ".join(f"{card:2}" for card in line)
        app.say(f"     seat {seat}: {cards}")
