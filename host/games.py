"""The games Conductor knows, by the names used on the command line, in files and the journal.

Each game's ``TableGame`` descriptor (``host.table_game``) lives in ``host.tables``; it is
imported only when its game is asked for, so one game's dependencies never slow down another's
commands.
"""

from __future__ import annotations

import importlib
from typing import Any

from host.errors import BadInputError
from host.table_game import TableGame

GAMES: dict[str, str] = {
    "trains": "host.tables.trains",
    "rollecate": "host.tables.rollecate",
    "express": "host.tables.express",
    "trainline": "host.tables.trainline",
}
"""Each game's name and the module holding its descriptor (``GAME``)."""


COMMANDS: dict[str, frozenset[str]] = {
    "trains": frozenset({"demo", "play", "resume", "referee"}),
    "rollecate": frozenset({"demo", "play", "resume", "referee", "score"}),
    "express": frozenset({"demo", "play", "resume", "referee", "score"}),
    "trainline": frozenset({"demo", "play", "resume", "referee"}),
}
"""The commands each game's descriptor can run, so help offers only what works without
importing every descriptor (a test checks them against the descriptors)."""


def offering(command: str) -> list[str]:
    """The games that have ``command`` (for the command line's choices)."""
    return sorted(name for name, commands in COMMANDS.items() if command in commands)


def table_game(game: str) -> TableGame[Any]:
    """The game's descriptor, or a clear error for a game Conductor does not know."""
    module = GAMES.get(game)
    if module is None:
        known = ", ".join(sorted(GAMES))
        raise BadInputError(f"unknown game {game!r} (known: {known})")
    found = importlib.import_module(module).GAME
    assert isinstance(found, TableGame)
    return found
