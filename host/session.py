"""A refereed game in progress, kept in the journal: the piece the demo and the app share.

Every game's referee offers the same small surface (``host.referee.TableReferee``): judge one
input line (an observation or a board event) into a verdict, and say whose turn it is. The
session feeds it, journals every input (and the move it committed) before anyone hears the
verdict, takes a turn back by replaying all but the last turn's inputs, and rebuilds itself
from the journal after a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from host.errors import BadInputError
from host.journal import EntryKind, Journal
from host.referee import TableReferee, Verdict

R = TypeVar("R", bound=TableReferee)


class Session(Generic[R]):
    """One journaled, refereed game; ``open_referee`` builds the game's referee from its
    opening table (the first input line)."""

    def __init__(
        self,
        open_referee: Callable[[dict[str, Any]], R],
        opening: dict[str, Any],
        journal: Journal,
        game_id: int,
    ) -> None:
        self._open_referee = open_referee
        self._opening = opening
        self.referee = open_referee(opening)
        self.journal = journal
        self.game_id = game_id
        self._inputs: list[tuple[dict[str, Any], bool]] = []
        """Every input fed since the opening, and whether it ended a turn."""

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
        seats = open_referee(opening).turn_indicator().seats
        game_id = journal.start_game(game, seats, {**settings, "opening": opening})
        return cls(open_referee, opening, journal, game_id)

    @classmethod
    def resume(
        cls, journal: Journal, game_id: int, open_referee: Callable[[dict[str, Any]], R]
    ) -> Session[R]:
        """Rebuild a journaled game exactly where its last journaled input left it."""
        session = cls(open_referee, journal.opening(game_id), journal, game_id)
        session._replay(journal.standing_inputs(game_id))
        return session

    @property
    def turns(self) -> int:
        """Turns committed and standing."""
        return sum(1 for _, ended in self._inputs if ended)

    def feed(self, data: dict[str, Any]) -> Verdict:
        """Judge one input; it is journaled (with the move it committed) before the verdict is
        returned."""
        verdict = self.referee.feed(data)
        ended = verdict.ends_turn
        self.journal.record_input(self.game_id, data, dict(verdict.move) if ended else None)
        self._inputs.append((data, ended))
        shown = self.referee.turn_indicator()
        if ended and shown.over:  # with winners, or unscored (an Express hand)
            self.journal.finish(self.game_id, sorted(shown.winners))
        return verdict

    def undo(self) -> None:
        """Take back the last committed turn: replay every input before it."""
        ends = [index for index, (_, ended) in enumerate(self._inputs) if ended]
        if not ends:
            raise BadInputError("there is no turn to take back")
        keep = ends[-2] + 1 if len(ends) > 1 else 0
        self.journal.append(self.game_id, EntryKind.UNDO, {})
        self._replay([data for data, _ in self._inputs[:keep]])

    def _replay(self, inputs: list[dict[str, Any]]) -> None:
        self.referee = self._open_referee(self._opening)
        self._inputs = []
        for data in inputs:
            self._inputs.append((data, self.referee.feed(data).ends_turn))
