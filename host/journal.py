"""The journal: every game kept in a local SQLite file, so a crash or a pulled cable loses at
most the turn in progress.

A game is its settings plus an append-only list of entries: the referee's inputs that were
committed (observations, dice events), the moves, board events, dice commitments and reveals,
and undos. Each entry is written in its own transaction before anyone is told about it, so
killing the process at any moment leaves a consistent file; resuming replays the inputs.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from host.errors import BadInputError

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    seats INTEGER NOT NULL,
    settings TEXT NOT NULL,
    started REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    winners TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class JournalError(BadInputError):
    """The journal file cannot be opened or does not hold what was asked for."""


class EntryKind(Enum):
    """What an entry records."""

    INPUT = "input"
    """A referee input that was committed: an observation or a dice event, as JSON."""
    MOVE = "move"
    """The move the referee committed, in the game's record form."""
    UNDO = "undo"
    """The players took back the last committed turn."""
    BOARD_EVENT = "board-event"
    """Something the board reported: a button press, a roll."""
    DICE_COMMIT = "dice-commit"
    """The board's commitment (a hash) to the secret its rolls derive from."""
    DICE_REVEAL = "dice-reveal"
    """The board's secret, revealed at the end so every roll can be checked."""


@dataclass(frozen=True)
class Entry:
    """One journal entry."""

    seq: int
    """Its place in the game's journal, from 1."""
    kind: EntryKind
    """What it records."""
    payload: dict[str, Any]
    """The recorded data."""
    at: float
    """When it was written (seconds since the epoch)."""


@dataclass(frozen=True)
class GameSummary:
    """A journaled game, as ``conductor games`` lists it."""

    id: int
    """The game's number in this journal."""
    game: str
    """The game's name (``trains``, ``rollecate``, ...)."""
    seats: int
    """How many seats played."""
    settings: dict[str, Any]
    """How it was started (mode, seed, camera, board, ...)."""
    started: float
    """When it started (seconds since the epoch)."""
    status: str
    """``playing`` or ``over``."""
    winners: list[int]
    """The winning seats, once over."""
    turns: int
    """Moves committed and not taken back."""


def default_path() -> Path:
    """Where the journal lives unless ``--db`` says otherwise, by the platform's custom."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
        return base / "Conductor" / "games.sqlite"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Conductor" / "games.sqlite"
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "conductor" / "games.sqlite"


class Journal:
    """An open journal file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
            # WAL with full syncs: a write either fully lands or never happened, even on a kill.
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise JournalError(
                    f"{self.path} was written by a newer Conductor (journal version {version})"
                )
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except (OSError, sqlite3.Error) as error:
            raise JournalError(f"cannot open the journal {self.path}: {error}") from None

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start_game(self, game: str, seats: int, settings: dict[str, Any]) -> int:
        """Journal a new game; returns its id. ``settings["opening"]`` is the table the referee
        starts from (its first input line)."""
        cursor = self._db.execute(
            "INSERT INTO games (game, seats, settings, started) VALUES (?, ?, ?, ?)",
            (game, seats, json.dumps(settings), time.time()),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, kind: EntryKind, payload: dict[str, Any]) -> int:
        """Write one entry in its own transaction; returns its sequence number."""
        return self._write(game_id, [(kind, payload)])

    def record_input(self, game_id: int, data: dict[str, Any], move: dict[str, Any] | None) -> None:
        """Write a referee input and, when it committed a turn, that turn's move, in one
        transaction: a crash never leaves an input without its move or the reverse."""
        rows = [(EntryKind.INPUT, data)]
        if move is not None:
            rows.append((EntryKind.MOVE, move))
        self._write(game_id, rows)

    def _write(self, game_id: int, rows: list[tuple[EntryKind, dict[str, Any]]]) -> int:
        with self._transaction():
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?", (game_id,)
            ).fetchone()
            for offset, (kind, payload) in enumerate(rows, start=1):
                self._db.execute(
                    "INSERT INTO entries (game_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq + offset, kind.value, json.dumps(payload), time.time()),
                )
        return int(seq) + len(rows)

    def finish(self, game_id: int, winners: list[int]) -> None:
        """Mark a game as over."""
        self._db.execute(
            "UPDATE games SET status = 'over', winners = ? WHERE id = ?",
            (json.dumps(winners), game_id),
        )

    def entries(self, game_id: int) -> list[Entry]:
        """A game's entries in order."""
        self.summary(game_id)
        return [
            Entry(seq, EntryKind(kind), json.loads(payload), at)
            for seq, kind, payload, at in self._db.execute(
                "SELECT seq, kind, payload, at FROM entries WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        ]

    def games(self) -> list[GameSummary]:
        """Every journaled game, newest first."""
        ids = [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY id DESC")]
        return [self.summary(game_id) for game_id in ids]

    def summary(self, game_id: int) -> GameSummary:
        """One game's summary (JournalError if there is no such game)."""
        row = self._db.execute(
            "SELECT id, game, seats, settings, started, status, winners FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in {self.path}")
        kinds = [
            kind
            for (kind,) in self._db.execute(
                "SELECT kind FROM entries WHERE game_id = ? AND kind IN ('move', 'undo')",
                (game_id,),
            )
        ]
        turns = 0
        for kind in kinds:
            turns += 1 if kind == "move" else -1
        return GameSummary(
            id=row[0],
            game=row[1],
            seats=row[2],
            settings=json.loads(row[3]),
            started=row[4],
            status=row[5],
            winners=json.loads(row[6]) if row[6] else [],
            turns=turns,
        )

    def opening(self, game_id: int) -> dict[str, Any]:
        """The table the game's referee started from (its first input line)."""
        opening = self.summary(game_id).settings.get("opening")
        if not isinstance(opening, dict):
            raise JournalError(f"game {game_id} has no opening table")
        return opening

    def standing_inputs(self, game_id: int) -> list[dict[str, Any]]:
        """The referee inputs after the opening, undone turns left out, in order: fed to a new
        referee they rebuild the game exactly (inputs it judged illegal change nothing)."""
        turns: list[list[dict[str, Any]]] = []
        pending: list[dict[str, Any]] = []
        for entry in self.entries(game_id):
            if entry.kind is EntryKind.INPUT:
                pending.append(entry.payload)
            elif entry.kind is EntryKind.MOVE:
                turns.append(pending)
                pending = []
            elif entry.kind is EntryKind.UNDO:
                if turns:
                    turns.pop()
                pending = []
        return [data for turn in turns for data in turn] + pending

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
