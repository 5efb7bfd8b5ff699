"""The ``conductor`` command: one entry point, a sub-command per job.

Sub-commands that belong to one part of the app (``board``, ``vision``, ...) are registered by
that part's own module, listed in ``COMMAND_MODULES``; each module's ``register`` adds its
sub-parsers and sets ``run`` (a function of the parsed arguments returning the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from host import table_runner
from host.context import AppContext
from host.errors import BadInputError
from host.games import GAMES, table_game
from host.journal import Journal, default_path
from host.web.server import Address, WebView

#: Modules that add their own sub-commands (each has ``register(subcommands)``).
COMMAND_MODULES: tuple[str, ...] = ("host.board.cli", "vision.cli")

Subcommands = Any  # argparse's sub-parser action has no public type


@contextmanager
def _app(args: argparse.Namespace) -> Iterator[AppContext]:
    """The terminal, the journal and (with ``--web``) the web view, closed when the job ends."""
    web = None
    if getattr(args, "web", None):
        web = WebView(Address.parse(args.web), share=args.share)
        print(f"web view: {web.url}" + (f"  (PIN {web.pin})" if web.pin else ""), flush=True)
    try:
        with Journal(args.db) as journal:
            yield AppContext(
                out=sys.stdout,
                journal=journal,
                pace=args.pace,
                web=web,
                camera=getattr(args, "camera", None) or "rendered",
                board=getattr(args, "board", None) or "sim",
            )
    finally:
        if web is not None:
            web.close()


def _demo(args: argparse.Namespace) -> int:
    game = table_game(args.game)
    with _app(args) as app:
        return table_runner.demo(game, seed=args.seed, players=args.players, app=app)


def _play(args: argparse.Namespace) -> int:
    game = table_game(args.game)
    with _app(args) as app:
        return table_runner.play(game, players=args.players, first=args.first, app=app)


def _games(args: argparse.Namespace) -> int:
    with Journal(args.db) as journal:
        games = journal.games()
    if not games:
        print(f"no games journaled in {args.db or default_path()}")
    for game in games:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.started))
        mode = game.settings.get("mode", "table")
        outcome = (
            "won by seat " + " and ".join(map(str, game.winners)) if game.winners else game.status
        )
        print(
            f"{game.id:4}  {started}  {game.game:10} {game.seats} seats  {mode:5} "
            f"{game.turns:4} turns  {outcome}"
        )
    return 0


def _export(args: argparse.Namespace) -> int:
    with Journal(args.db) as journal:
        inputs = [journal.opening(args.id), *journal.standing_inputs(args.id)]
        lines = [json.dumps(data) for data in inputs]
    text = "\n".join(lines) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            args.output.write_text(text, encoding="utf-8")
        except OSError as error:
            raise BadInputError(f"cannot write {args.output}: {error.strerror}") from None
    return 0


def _resume(args: argparse.Namespace) -> int:
    with _app(args) as app:
        summary = app.journal.summary(args.id)
        # Unless told otherwise, a game goes on with the camera and board it was played with.
        app.camera = args.camera or str(summary.settings.get("camera", "rendered"))
        app.board = args.board or str(summary.settings.get("board", "sim"))
        return table_runner.resume(table_game(summary.game), game_id=args.id, app=app)


def _referee(args: argparse.Namespace) -> int:
    return table_game(args.game).referee_file(args.file, sys.stdout)


def _score(args: argparse.Namespace) -> int:
    game = table_game(args.game)
    if game.score is None:
        raise BadInputError(f"{game.title} has no score yet")
    if args.players is not None and not game.photo_scoring:
        raise BadInputError(f"--players is for a photo of the table; {args.game} is scored "
                            "from a JSON file")
    return game.score(args.file, args.json, sys.stdout, args.players)


def _web_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--web",
        nargs="?",
        const="127.0.0.1:8080",
        metavar="ADDR",
        help="serve the web view while it runs (default 127.0.0.1:8080; localhost only)",
    )
    parser.add_argument(
        "--share", action="store_true", help="let other devices watch too (they need the PIN)"
    )


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, with every registered sub-command."""
    parser = argparse.ArgumentParser(
        prog="conductor",
        description="Referee, dice roller and scorer for train games played on a real table.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    games = sorted(GAMES)

    demo = commands.add_parser("demo", help="play a whole seeded game on the embedded defaults")
    demo.add_argument("game", nargs="?", default="trains", choices=games)
    demo.add_argument("--seed", type=int, default=1, help="seed of the game (default 1)")
    demo.add_argument("--players", type=int, default=3, help="number of seats (default 3)")
    demo.add_argument("--pace", type=float, default=0.0, help="seconds between turns")
    demo.add_argument(
        "--camera",
        choices=("rendered", "none"),
        default="rendered",
        help="rendered: the recognizer reads a rendered video of the game (default); "
        "none: the referee gets the tables directly (fast)",
    )
    demo.add_argument(
        "--board",
        default="sim",
        help="sim: the simulated dice/LED board (default); none; auto; or a serial port",
    )
    demo.add_argument("--db", type=Path, help="the journal file (default: per-user data folder)")
    _web_options(demo)
    demo.set_defaults(run=_demo)

    play = commands.add_parser("play", help="referee a real table through the camera")
    play.add_argument("game", choices=games)
    play.add_argument("--players", type=int, required=True, help="number of seats (2 to 4)")
    play.add_argument("--first", type=int, default=0, help="the seat that starts (default 0)")
    play.add_argument("--camera", default="0", help="webcam index or video file (default 0)")
    play.add_argument(
        "--board", default="auto", help="auto (find it by USB id), sim, none, or a serial port"
    )
    play.add_argument("--db", type=Path, help="the journal file (default: per-user data folder)")
    play.add_argument("--pace", type=float, default=0.0, help=argparse.SUPPRESS)
    _web_options(play)
    play.set_defaults(run=_play)

    games_command = commands.add_parser("games", help="list the journaled games")
    games_command.add_argument("--db", type=Path, help="the journal file")
    games_command.set_defaults(run=_games)

    export = commands.add_parser("export", help="write a game's observations for re-judging")
    export.add_argument("id", type=int, help="the game's number (see conductor games)")
    export.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    export.add_argument("--db", type=Path, help="the journal file")
    export.set_defaults(run=_export)

    resume = commands.add_parser("resume", help="continue a journaled game after a crash")
    resume.add_argument("id", type=int, help="the game's number (see conductor games)")
    resume.add_argument("--pace", type=float, default=0.0, help="seconds between turns")
    resume.add_argument(
        "--camera",
        help="a demo: rendered or none; a game at a table: webcam index or video file "
        "(default: as the game was played)",
    )
    resume.add_argument(
        "--board", help="sim, none, auto or a serial port (default: as the game was played)"
    )
    resume.add_argument("--db", type=Path, help="the journal file")
    _web_options(resume)
    resume.set_defaults(run=_resume)

    referee = commands.add_parser("referee", help="judge a recorded game, one verdict per line")
    referee.add_argument("game", choices=games)
    referee.add_argument("file", type=Path, help="observations, one JSON object per line")
    referee.set_defaults(run=_referee)

    score = commands.add_parser("score", help="score an end-of-game table")
    score.add_argument("game", choices=games)
    score.add_argument("file", type=Path, help="the table as JSON (Rollecate: or a photo)")
    score.add_argument("--json", action="store_true", help="print JSON instead of text")
    score.add_argument("--players", type=int,
                       help="seats at the table, for a photo (default: the edges cards lie along)")
    score.set_defaults(run=_score)

    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; exit status 0 on success, 2 on bad input with a one-line reason."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except BadInputError as error:
        print(f"conductor: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("conductor: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``conductor demo | head``): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return status
