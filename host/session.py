"""A refereed game in progress, kept in the journal: the piece the demo and the app share.

Every game's referee offers the same small surface (``GameReferee``): judge one input line (an
observation or a board event) into a verdict, take back the last turn, and say whose turn it is.
The session feeds it, journals each committed turn before anyone hears of it, and can rebuild
itself from the journal after a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from host.journal import EntryKind, Journal, JournalError
from host.turns import TurnIndicator

COMMITTING = ("move", "win")
"""Verdicts after which the referee's game has moved on, so their input is journaled."""


class GameReferee(Protocol):
    """What the app needs of any game's referee."""

    def judge(self, data: dict[str, Any]) -> dict[str, Any]:
        """Judge one input line; return the verdict's JSON (BadInputError if malformed)."""

    def undo(self) -> None:
        """Take back the last committed turn."""

    def turn(self) -> TurnIndicator:
        """Whose turn it is, for the seat LEDs."""


R = TypeVar("R", bound=GameReferee)


class Session(Generic[R]):
    """One journaled, refereed game; ``open_referee`` builds the game's referee from its opening
    table (the first input line)."""

    def __init__(self, referee: R, journal: Journal, game_id: int) -> None:
        self.referee = referee
        self.journal = journal
        self.game_id = game_id

    @classmethod
    def start(
        cls,
        game: str,
        opening: dict[str, Any],
        open_referee: Callable[[dict[str, Any]], R],
        journal: Journal,
        settings: dict[str, Any],
    ) -> Session[R]:
        """Start and journal a new game from its opening table."""
        referee = open_referee(opening)
        seats = referee.turn().seats
        game_id = journal.start_game(game, seats, {**settings, "opening": opening})
        return cls(referee, journal, game_id)

    @classmethod
    def resume(
        cls, journal: Journal, game_id: int, open_referee: Callable[[dict[str, Any]], R]
    ) -> Session[R]:
        """Rebuild a journaled game exactly where its last committed turn left it."""
        opening, *inputs = journal.committed_inputs(game_id)
        referee = open_referee(opening)
        for number, data in enumerate(inputs, start=1):
            verdict = referee.judge(data)
            if verdict["verdict"] not in COMMITTING:
                raise JournalError(
                    f"game {game_id}: journaled turn {number} no longer stands ({verdict})"
                )
        return cls(referee, journal, game_id)

    def feed(self, data: dict[str, Any]) -> dict[str, Any]:
        """Judge one input; a committed turn is journaled before the verdict is returned."""
        verdict = self.referee.judge(data)
        if verdict["verdict"] in COMMITTING:
            self.journal.commit_turn(self.game_id, [data], verdict.get("move", {}))
            winners = self.referee.turn().winners
            if winners:
                self.journal.finish(self.game_id, sorted(winners))
        return verdict

    def undo(self) -> None:
        """Take back the last committed turn, in the referee and in the journal."""
        self.referee.undo()
        self.journal.append(self.game_id, EntryKind.UNDO, {})
