"""What the app needs of any game's referee at a table: the protocol and its one verdict.

A game's record is its input lines (JSON objects: the opening table, then observations and
board events, as ``conductor export`` writes them): a referee opened on the opening line and fed
the rest rebuilds the game exactly, which is how a session takes a turn back and resumes (see
``host.session``). The app never looks inside a game's referee beyond ``TableReferee``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from host.turns import TurnIndicator

InputLine = Mapping[str, Any]
"""One input line in the game's public format: an observation or a board event."""

ENDS_TURN = ("move", "win")
"""Verdicts that end a turn: the move they carry is journaled with their input."""


@dataclass(frozen=True)
class Verdict:
    """A referee's answer to one input line; its JSON form is public (docs/formats.md)."""

    verdict: str
    """``waiting``, ``move``, ``win``, ``illegal`` or (games with dice) ``roll``."""
    seat: int | None
    """The seat the verdict is about (None once the game is over)."""
    fields: Mapping[str, Any] = field(default_factory=dict)
    """Everything else, in the game's words: ``move``, ``next_seat``, ``reason``, ``dice``,
    ``pending``, ``instructions``..."""

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Verdict:
        """A verdict from its JSON form."""
        rest = {key: value for key, value in data.items() if key not in ("verdict", "seat")}
        return cls(str(data["verdict"]), data.get("seat"), rest)

    def to_json(self) -> dict[str, Any]:
        """One JSON object, as ``conductor referee`` prints it."""
        return {"verdict": self.verdict, "seat": self.seat, **self.fields}

    @property
    def ends_turn(self) -> bool:
        """True for a move or a win: a turn is complete."""
        return self.verdict in ENDS_TURN

    @property
    def move(self) -> Mapping[str, Any]:
        """The move recognised (empty when there is none)."""
        move = self.fields.get("move")
        return move if isinstance(move, Mapping) else {}

    @property
    def reason(self) -> str:
        """Why a table is illegal (empty otherwise)."""
        return str(self.fields.get("reason", ""))

    @property
    def pending(self) -> str:
        """What is still to do in a turn half done, in words (empty when nothing is)."""
        pending = self.fields.get("pending")
        if pending:
            return str(pending)
        return "; ".join(self.fields.get("instructions", ()))


class TableReferee(Protocol):
    """Any game's referee as the app drives it."""

    def opening(self) -> Verdict:
        """The verdict on the opening line: who starts."""

    def feed(self, line: InputLine) -> Verdict:
        """Judge one input line (BadInputError if it is malformed)."""

    def turn_indicator(self) -> TurnIndicator:
        """Whose turn it is, for the seat LEDs."""

    @property
    def dice_wanted(self) -> int:
        """How many dice the board's roll button should roll now (0: none are due)."""


OpenReferee = Callable[[dict[str, Any]], TableReferee]
"""Opens a game's referee on its opening line (BadInputError if the line is malformed)."""
