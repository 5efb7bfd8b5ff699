"""The journal: every game kept in a local SQLite file, so a crash or a pulled cable loses at
most the turn in progress.

A game is its settings plus an append-only list of entries: the referee's inputs that were
committed (observations, dice events), the moves, board events, dice commitments and reveals,
and undos. Each entry is written in its own transaction before anyone is told about it, so
killing the process at any moment leaves a consistent file; resuming replays the inputs.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any
from urllib.parse import quote

from host.arguments import data_folder
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
_COLUMNS = {
    "games": {"id", "game", "seats", "settings", "started", "status", "winners"},
    "entries": {"game_id", "seq", "kind", "payload", "at"},
}
"""The columns a Conductor journal's tables have (anything else is another program's file)."""


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
    return data_folder() / "games.sqlite"


class Access(Enum):
    """How a command opens the journal."""

    CREATE = "create"
    """Start games: the file (and its folder) is made when missing."""
    EXISTING = "existing"
    """Go on with a game (``resume``): the file must exist; nothing is created."""
    READ = "read"
    """Only look (``games``, ``export``): opened read-only, nothing is created or written."""


@dataclass(frozen=True)
class DamagedGame:
    """A journaled game whose record cannot be read (the other games stay usable)."""

    id: int
    """The game's number in this journal."""
    reason: str
    """What is wrong, for people."""


class Journal:
    """An open journal file."""

    def __init__(self, path: Path | None = None, access: Access = Access.CREATE) -> None:
        self.path = path or default_path()
        if access is not Access.CREATE and not self.path.is_file():
            raise JournalError(
                f"no journal at {self.path}"
                + ("" if self.path.exists() else " (no game has been journaled there)")
            )
        try:
            if access is Access.CREATE:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, isolation_level=None)
            else:
                mode = "ro" if access is Access.READ else "rw"
                uri = f"file:{quote(str(self.path.absolute()))}?mode={mode}"
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None)
            self._check_is_a_journal()
            if access is not Access.READ:
                # WAL with full syncs: a write either fully lands or never happened, even on a
                # kill.
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.execute("PRAGMA foreign_keys=ON")
                self._db.executescript(_SCHEMA)
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except JournalError:
            self._close_quietly()
            raise
        except sqlite3.DatabaseError as error:
            self._close_quietly()
            raise JournalError(
                f"{self.path} is not a Conductor journal (SQLite says: {error})"
            ) from None
        except (OSError, sqlite3.Error) as error:
            self._close_quietly()
            raise JournalError(f"cannot open the journal {self.path}: {error}") from None

    def _check_is_a_journal(self) -> None:
        """Refuse a newer journal, or another program's SQLite file (never write into it)."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"{self.path} was written by a newer Conductor (journal version {version})"
            )
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
        tables = {name for (name,) in self._db.execute(query)}
        if not tables:
            return  # a new, empty file
        for table, columns in _COLUMNS.items():
            found = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if not columns <= found:
                others = ", ".join(sorted(tables)[:3])
                raise JournalError(
                    f"{self.path} is not a Conductor journal (it holds the tables {others})"
                )

    def _close_quietly(self) -> None:
        db = getattr(self, "_db", None)
        if db is not None:
            db.close()

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
        with self._errors("cannot journal a new game"):
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
        with self._errors(f"cannot journal game {game_id}"), self._transaction():
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
        with self._errors(f"cannot journal game {game_id}"):
            self._db.execute(
                "UPDATE games SET status = 'over', winners = ? WHERE id = ?",
                (json.dumps(winners), game_id),
            )

    def entries(self, game_id: int) -> list[Entry]:
        """A game's entries in order (JournalError naming the game if one cannot be read)."""
        self.summary(game_id)
        with self._errors(f"game {game_id} cannot be read"):
            rows = self._db.execute(
                "SELECT seq, kind, payload, at FROM entries WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        entries = []
        for seq, kind, payload, at in rows:
            where = f"{self.path}: game {game_id} is damaged (entry {seq}"
            try:
                entry_kind = EntryKind(kind)
            except ValueError:
                raise JournalError(f"{where} has the unknown kind {str(kind)[:20]!r})") from None
            try:
                data = json.loads(payload)
            except (ValueError, TypeError, RecursionError):
                data = None
            if not isinstance(data, dict):
                raise JournalError(f"{where} does not hold a JSON object)")
            entries.append(Entry(seq, entry_kind, data, at))
        return entries

    def games(self) -> list[GameSummary | DamagedGame]:
        """Every journaled game, newest first; a game whose record is damaged is listed as
        such, the others stay readable."""
        with self._errors("cannot list the games"):
            ids = [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY id DESC")]
        listed: list[GameSummary | DamagedGame] = []
        for game_id in ids:
            try:
                listed.append(self.summary(game_id))
            except JournalError as error:
                listed.append(DamagedGame(game_id, str(error).rpartition(" is damaged ")[2]))
        return listed

    def summary(self, game_id: int) -> GameSummary:
        """One game's summary (JournalError if there is no such game or it is damaged)."""
        if not 0 < game_id < 2**63:
            raise JournalError(f"no game {game_id} in {self.path}")
        with self._errors(f"game {game_id} cannot be read"):
            row = self._db.execute(
                "SELECT id, game, seats, settings, started, status, winners FROM games "
                "WHERE id = ?",
                (game_id,),
            ).fetchone()
            kinds = [
                kind
                for (kind,) in self._db.execute(
                    "SELECT kind FROM entries WHERE game_id = ? AND kind IN ('move', 'undo')",
                    (game_id,),
                )
            ]
        if row is None:
            raise JournalError(f"no game {game_id} in {self.path}")
        turns = 0
        for kind in kinds:
            turns += 1 if kind == "move" else -1
        try:
            settings = json.loads(row[3])
            winners = json.loads(row[6]) if row[6] else []
            summary = GameSummary(
                id=row[0],
                game=str(row[1]),
                seats=int(row[2]),
                settings=settings,
                started=float(row[4]),
                status=str(row[5]),
                winners=[int(seat) for seat in winners],
                turns=turns,
            )
        except (ValueError, TypeError, RecursionError):
            summary = None
        if summary is None or not isinstance(settings, dict):
            raise JournalError(f"{self.path}: game {game_id} is damaged (its settings or "
                               "winners cannot be read)")
        return summary

    def opening(self, game_id: int) -> dict[str, Any]:
        """The table the game's referee started from (its first input line)."""
        opening = self.summary(game_id).settings.get("opening")
        if not isinstance(opening, dict):
            raise JournalError(f"{self.path}: game {game_id} is damaged (no opening table)")
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

    @contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """SQLite's errors (a damaged page, a full disk, a read-only file) as one line."""
        try:
            yield
        except sqlite3.Error as error:
            raise JournalError(f"{self.path}: {doing} ({error})") from None

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
