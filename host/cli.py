"""The ``conductor`` command: one entry point, a sub-command per job.

Sub-commands that belong to one part of the app (``board``, ``vision``, ...) are registered by
that part's own module, listed in ``COMMAND_MODULES``; each module's ``register`` adds its
sub-parsers and sets ``run`` (a function of the parsed arguments returning the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from host.errors import BadInputError
from host.games import GAMES, adapter

#: Modules that add their own sub-commands (each has ``register(subcommands)``).
COMMAND_MODULES: tuple[str, ...] = ("vision.cli",)

Subcommands = Any  # argparse's sub-parser action has no public type


def _demo(args: argparse.Namespace) -> int:
    run: Callable[..., int] = adapter(args.game, "demo")  # type: ignore[assignment]
    return run(seed=args.seed, players=args.players, out=sys.stdout)


def _referee(args: argparse.Namespace) -> int:
    run: Callable[..., int] = adapter(args.game, "referee")  # type: ignore[assignment]
    return run(path=args.file, out=sys.stdout)


def _score(args: argparse.Namespace) -> int:
    run: Callable[..., int] = adapter(args.game, "score")  # type: ignore[assignment]
    return run(path=args.file, as_json=args.json, out=sys.stdout)


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
    demo.set_defaults(run=_demo)

    referee = commands.add_parser("referee", help="judge a recorded game, one verdict per line")
    referee.add_argument("game", choices=games)
    referee.add_argument("file", type=Path, help="observations, one JSON object per line")
    referee.set_defaults(run=_referee)

    score = commands.add_parser("score", help="score an end-of-game table")
    score.add_argument("game", choices=games)
    score.add_argument("file", type=Path, help="the table as JSON")
    score.add_argument("--json", action="store_true", help="print JSON instead of text")
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
    return status
