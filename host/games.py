"""The games Conductor knows, by the names used on the command line, in files and the journal.

Each game has a command-line adapter module that may offer ``demo``, ``referee`` and ``score``
(see ``host.cli``); the adapter is imported only when its game is asked for, so one game's
dependencies never slow down another's commands.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from host.errors import BadInputError


@dataclass(frozen=True)
class GameEntry:
    """A game as the command line sees it."""

    name: str
    """The game's name on the command line, in files and in the journal."""
    title: str
    """What people call it."""
    adapter: str
    """Dotted name of the module with the game's ``demo``/``referee``/``score`` functions."""
    players: tuple[int, int]
    """The fewest and most players the game is for (its rules' constants; a test checks)."""
    commands: frozenset[str]
    """The adapter's functions, so help offers only what works without importing it."""


GAMES: dict[str, GameEntry] = {
    entry.name: entry
    for entry in (
        GameEntry("trains", "The Game of Trains", "host.trains.commands", (2, 4),
                  frozenset({"demo", "play", "resume", "referee"})),
        GameEntry("rollecate", "Rollecate", "host.rollecate.commands", (2, 4),
                  frozenset({"demo", "play", "resume", "referee", "score"})),
        GameEntry("express", "Express", "host.express.commands", (2, 6),
                  frozenset({"demo", "referee", "score"})),
        GameEntry("trainline", "Train Line Chicago", "host.trainline.commands", (2, 4),
                  frozenset({"demo", "referee"})),
    )
}


def offering(command: str) -> list[str]:
    """The games that have ``command`` (for the command line's choices)."""
    return sorted(name for name, entry in GAMES.items() if command in entry.commands)


def check_players(game: str, players: int) -> None:
    """Refuse a number of players the game is not for, with one line."""
    entry = GAMES[game]
    low, high = entry.players
    if not low <= players <= high:
        raise BadInputError(f"{entry.title} is for {low} to {high} players, not {players}")


def adapter(game: str, function: str) -> object:
    """The game's command-line function ``function``, or a clear error if it has none."""
    entry = GAMES.get(game)
    if entry is None:
        known = ", ".join(sorted(GAMES))
        raise BadInputError(f"unknown game {game!r} (known: {known})")
    module: ModuleType = importlib.import_module(entry.adapter)
    found = getattr(module, function, None)
    if found is None:
        raise BadInputError(f"{entry.title} has no {function} yet")
    return found
