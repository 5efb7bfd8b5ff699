"""The ``conductor`` command: one entry point, a sub-command per job.

Sub-commands that belong to one part of the app (``board``, ``vision``, ...) are registered by
that part's own module, listed in ``COMMAND_MODULES``; each module's ``register`` adds its
sub-parsers and sets ``run`` (a function of the parsed arguments returning the exit status).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from host import table_runner
from host.arguments import game_number, pace, seats, seed
from host.context import AppContext
from host.deck_choice import DeckChoice
from host.errors import BadInputError
from host.games import offering, table_game
from host.journal import Access, DamagedGame, Journal, default_path
from host.table_game import PHOTO_SUFFIXES
from host.web.server import Address, WebView
from vision.calibration import calibration_options, chosen_calibration

#: Modules that add their own sub-commands (each has ``register(subcommands)``).
COMMAND_MODULES: tuple[str, ...] = ("host.board.cli", "vision.cli")

Subcommands = Any  # argparse's sub-parser action has no public type


@contextmanager
def _app(args: argparse.Namespace) -> Iterator[AppContext]:
    """The terminal, the journal and (with ``--web``) the web view, closed when the job ends."""
    web = None
    address = web_address(getattr(args, "web", None), getattr(args, "share", False))
    access = Access.EXISTING if args.run is _resume else Access.CREATE
    with Journal(args.db, access) as journal:  # a bad journal fails before the web view opens
        if address is not None:
            web = WebView(address, share=args.share)
            print(f"web view: {web.url}" + (f"  (PIN {web.pin})" if web.pin else ""), flush=True)
        try:
            yield AppContext(
                out=sys.stdout,
                journal=journal,
                pace=getattr(args, "pace", 0.0),
                web=web,
                camera=getattr(args, "camera", None) or "rendered",
                board=getattr(args, "board", None) or "sim",
            )
        finally:
            if web is not None:
                web.close()


DEFAULT_PORT = 8080
"""The web view's port unless ``--web`` names one."""


def web_address(web: str | None, share: bool) -> Address | None:
    """Where ``--web [ADDR]`` and ``--share`` serve the web view (None: no web view).

    ``--share`` alone serves it too (sharing a view nobody serves means nothing), on every
    interface so phones reach it; an address only this computer reaches cannot be shared.
    """
    if web is None and not share:
        return None
    if not web:
        return Address("0.0.0.0" if share else "127.0.0.1", DEFAULT_PORT)
    address = Address.parse(web)
    if share and address.local_only:
        raise BadInputError(
            f"--share on {address.host} reaches no other device: leave out the address "
            f"(--share serves on every interface) or give one like 0.0.0.0:{address.port}"
        )
    return address


def _demo(args: argparse.Namespace) -> int:
    game = table_game(args.game)
    players = game.demo_seats if args.players is None else args.players
    game.check_seats(players, 0)
    with _app(args) as app:
        return table_runner.demo(game, seed=args.seed, players=players, app=app)


def _play(args: argparse.Namespace) -> int:
    game = table_game(args.game)
    game.check_seats(args.players, args.first)
    if game.played_on_web:
        unread = [option for option, given in (("--camera", args.camera), ("--deck", args.deck),
                                               ("--references", args.references),
                                               ("--calibration", args.calibration)) if given]
        if unread:
            raise BadInputError(f"{game.title} is played from the web view, no camera reads "
                                f"its board: leave out {', '.join(unread)}")
        table_runner.need_web(game, args.web is not None or args.share)
    args.camera = args.camera or "0"
    # An unenrolled deck fails before the camera opens.
    deck = DeckChoice.chosen(args.game, args.deck, args.references)
    calibration = chosen_calibration(args.calibration, args.no_calibration)
    if args.board == "auto":
        _find_board_or_hint()
    with _app(args) as app:
        return table_runner.play(game, players=args.players, first=args.first, app=app,
                                 deck=deck, calibration=calibration)


def _find_board_or_hint() -> None:
    """Look for the board before anything starts, and say what else there is if none."""
    from host.board.ports import find_board

    try:
        find_board()
    except BadInputError as error:
        raise BadInputError(
            f"{error}; or play without one: --board none (type the dice), --board sim"
        ) from None


def _games(args: argparse.Namespace) -> int:
    path = args.db or default_path()
    if not path.exists():
        print(f"no games journaled in {path}")
        return 0
    with Journal(path, Access.READ) as journal:
        games = journal.games()
    if not games:
        print(f"no games journaled in {path}")
    for game in games:
        if isinstance(game, DamagedGame):
            print(f"{game.id:4}  damaged: {game.reason}")
            continue
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
    journal_path = args.db or default_path()
    if args.output is not None and _same_file(args.output, journal_path):
        raise BadInputError(f"-o {args.output} is the journal itself: writing there would "
                            "destroy every game in it")
    with Journal(journal_path, Access.READ) as journal:
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


def _same_file(output: Path, journal: Path) -> bool:
    """True when ``output`` is the journal or one of SQLite's files beside it."""
    for name in (journal, Path(f"{journal}-wal"), Path(f"{journal}-shm")):
        try:
            if output.resolve() == name.resolve() or output.samefile(name):
                return True
        except OSError:
            continue
    return False


DEMO_CAMERAS = ("rendered", "none")
"""What a demo is seen through (a demo's table exists only in its seed)."""


def _resume(args: argparse.Namespace) -> int:
    with _app(args) as app:
        summary = app.journal.summary(args.id)
        if summary.settings.get("mode") == "demo" and args.camera not in (None, *DEMO_CAMERAS):
            raise BadInputError(f"game {args.id} is a demo: its table is rendered from its "
                                f"seed, so --camera is rendered or none, not {args.camera!r}")
        if summary.settings.get("mode") == "demo" and args.calibration is not None:
            raise BadInputError(f"game {args.id} is a demo: its rendered table needs no "
                                "--calibration")
        # Unless told otherwise, a game goes on with the camera and board it was played with.
        app.camera = args.camera or str(summary.settings.get("camera", "rendered"))
        app.board = args.board or str(summary.settings.get("board", "sim"))
        return table_runner.resume(table_game(summary.game), game_id=args.id, app=app,
                                   calibration=args.calibration,
                                   no_calibration=args.no_calibration)


def _referee(args: argparse.Namespace) -> int:
    return table_game(args.game).referee_file(args.file, sys.stdout)


def _score(args: argparse.Namespace) -> int:
    game = table_game(args.game)
    if game.score is None:
        raise BadInputError(f"{game.title} has no score yet")
    if args.players is not None and not game.photo_scoring:
        raise BadInputError(f"--players is for a photo of the table; {args.game} is scored "
                            "from a JSON file")
    if args.players is not None:
        game.check_seats(args.players, 0)
    references = None
    photo = game.photo_scoring and args.file.suffix.lower() in PHOTO_SUFFIXES
    if args.deck is not None or args.references is not None or args.calibration is not None:
        if not photo:
            raise BadInputError("--deck, --references and --calibration are for a photo of "
                                f"the table ({', '.join(PHOTO_SUFFIXES)})")
        references = DeckChoice.chosen(args.game, args.deck, args.references).read_with
    calibration = (chosen_calibration(args.calibration, args.no_calibration) if photo
                   else None)
    return game.score(args.file, args.json, sys.stdout, args.players, references, calibration)


def _deck_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--deck", default=None,
                        help=f"{what}: the game's deck name or your deck file (default: "
                             "the game's own deck)")
    parser.add_argument("--references", type=Path, default=None,
                        help="your deck's enrolled references (conductor vision enroll; "
                             "default: Conductor's own printed faces)")


def _web_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--web",
        nargs="?",
        const="",
        metavar="ADDR",
        help=f"serve the web view while it runs (default 127.0.0.1:{DEFAULT_PORT}: this "
        "computer only)",
    )
    parser.add_argument(
        "--share",
        action="store_true",
        help=f"serve the web view to phones on the network too, with a PIN (implies --web; "
        f"default address 0.0.0.0:{DEFAULT_PORT})",
    )


class CommandLine(argparse.ArgumentParser):
    """argparse with its errors as one line and a hint, exit status 2 (the app's promise)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, with every registered sub-command."""
    parser = CommandLine(
        prog="conductor",
        description="Referee, dice roller and scorer for train games played on a real table.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = commands.add_parser("demo", help="play a whole seeded game on the embedded defaults")
    demo.add_argument("game", nargs="?", default="trains", choices=offering("demo"))
    demo.add_argument("--seed", type=seed, default=1, help="seed of the game (default 1)")
    demo.add_argument("--players", type=seats, default=None,
                      help="number of seats (default 3; Express 2, as many as its table shows "
                           "the camera)")
    demo.add_argument(
        "--pace", type=pace, default=0.0, help="seconds between turns, to follow it (default 0)"
    )
    demo.add_argument(
        "--camera",
        choices=DEMO_CAMERAS,
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

    play = commands.add_parser(
        "play", help="referee a real table through the camera (trainline: from the moves "
        "entered on the web view, --web or --share)")
    play.add_argument("game", choices=offering("play"))
    play.add_argument("--players", type=seats, required=True, help="number of seats (2 to 4)")
    play.add_argument("--first", type=int, default=0, help="the seat that starts (default 0)")
    play.add_argument("--camera", default=None,
                      help="webcam index or video file (default 0; not for trainline)")
    play.add_argument(
        "--board", default="auto", help="auto (find it by USB id), sim, none, or a serial port"
    )
    play.add_argument("--db", type=Path, help="the journal file (default: per-user data folder)")
    _deck_arguments(play, "the cards on the table")
    calibration_options(play)
    _web_options(play)
    play.set_defaults(run=_play)

    games_command = commands.add_parser("games", help="list the journaled games")
    games_command.add_argument("--db", type=Path, help="the journal file")
    games_command.set_defaults(run=_games)

    export = commands.add_parser("export", help="write a game's observations for re-judging")
    export.add_argument("id", type=game_number, help="the game's number (see conductor games)")
    export.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    export.add_argument("--db", type=Path, help="the journal file")
    export.set_defaults(run=_export)

    resume = commands.add_parser("resume", help="continue a journaled game after a crash")
    resume.add_argument("id", type=game_number, help="the game's number (see conductor games)")
    resume.add_argument("--pace", type=pace, default=0.0, help="seconds between turns")
    resume.add_argument(
        "--camera",
        help="a demo: rendered or none; a game at a table: webcam index or video file "
        "(default: as the game was played)",
    )
    resume.add_argument(
        "--board", help="sim, none, auto or a serial port (default: as the game was played)"
    )
    resume.add_argument("--db", type=Path, help="the journal file")
    calibration_options(resume, "the one the game was played with")
    _web_options(resume)
    resume.set_defaults(run=_resume)

    referee = commands.add_parser("referee", help="judge a recorded game, one verdict per line")
    referee.add_argument("game", choices=offering("referee"))
    referee.add_argument("file", type=Path, help="observations, one JSON object per line")
    referee.set_defaults(run=_referee)

    score = commands.add_parser("score", help="score an end-of-game table")
    score.add_argument("game", choices=offering("score"))
    score.add_argument("file", type=Path, help="the table as JSON (Rollecate: or a photo)")
    score.add_argument("--json", action="store_true", help="print JSON instead of text")
    score.add_argument("--players", type=seats,
                       help="seats at the table, for a photo (default: the edges cards lie along)")
    _deck_arguments(score, "the cards in a photo")
    calibration_options(score)
    score.set_defaults(run=_score)

    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands)
    return parser


OUTPUT_ERRORS = (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EROFS)
"""Errors writing the output (``> /dev/full``, a full or pulled disk): one line, exit 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; exit status 0 on success, 2 on bad input with a one-line reason."""
    # FFmpeg (behind OpenCV's video files) prints its own complaints about a broken file on
    # stderr, where our one line is the answer; it must be told before its first file.
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
        sys.stdout.flush()  # a full disk is found here, while it can still be reported
    except BadInputError as error:
        # One line, whatever a library put in the reason.
        print(f"conductor: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("conductor: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``conductor demo | head``): not an error worth a traceback.
        _drop_output()
        return 0
    except RecursionError:
        print("conductor: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except OSError as error:
        if error.errno not in OUTPUT_ERRORS:
            raise
        _drop_output()
        print(f"conductor: cannot write the output: {error.strerror}", file=sys.stderr)
        return 2
    return status


def _drop_output() -> None:
    """Send what is left of the output nowhere, so leaving does not fail on it again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
