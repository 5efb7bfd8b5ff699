"""What the engines share: push (check, apply, record), pop by replay, the record as JSON lines,
each move's JSON form, and the bots' loop.

An engine's state is its set-up plus the list of moves made (the record); undo replays all but
the last move from the set-up, so the record is the only truth. Moves are frozen dataclasses
written as ``{"action": name, field: value, ...}``, tuples as JSON lists.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, fields
from typing import Any, Generic, Self, TypeVar

from host.errors import BadInputError, IllegalMoveError
from host.jsonl import json_objects
from host.turn_order import TurnOrder
from host.turns import Direction, TurnIndicator

M = TypeVar("M")

Reader = Callable[[Any], Any]
"""Reads one field's JSON value into the move's value; ValueError if it is not one."""


class RecordedGame(ABC, Generic[M]):
    """A game whose state is its set-up and its record of moves."""

    #: The game's name in records (``"game"`` on the set-up line).
    name: str
    #: How this game's moves read and write JSON.
    codec: MoveCodec[M]

    record: list[M]
    """Every move made, in order."""

    @abstractmethod
    def _start(self) -> None:
        """Lay the table as the set-up leaves it (the record is not touched)."""

    @abstractmethod
    def _candidates(self) -> Iterable[M]:
        """Moves worth asking ``why_illegal`` about: every legal move is among them."""

    @abstractmethod
    def why_illegal(self, move: M) -> str | None:
        """Why ``move`` is not allowed now, or None if it is."""

    @abstractmethod
    def _apply(self, move: M) -> None:
        """Carry out a legal move."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the game has ended."""

    def is_chance_node(self) -> bool:
        """True when the next move is chance's (a die, a draw), not a player's."""
        return False

    def chance_outcomes(self) -> list[tuple[M, float]]:
        """At a chance node, every outcome with its probability (the legal moves there)."""
        return []

    def sample_chance(self, rng: random.Random) -> M:
        """A chance outcome drawn from ``rng`` with the right odds (at a chance node only)."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalMoveError("no chance outcome is due")
        moves = [move for move, _ in outcomes]
        return rng.choices(moves, [weight for _, weight in outcomes])[0]

    @abstractmethod
    def _head(self) -> dict[str, Any]:
        """The record's set-up line, without ``"game"``."""

    @classmethod
    @abstractmethod
    def _from_head(cls, head: dict[str, Any]) -> Self:
        """The game as its set-up line describes it (BadInputError if it describes none)."""

    @classmethod
    def _moves_from_json(cls, data: dict[str, Any]) -> list[M]:
        """The moves one record line holds (one, unless an older format packed more)."""
        return [cls.codec.from_json(data)]

    def legal_moves(self) -> list[M]:
        """Every legal move now."""
        return [move for move in self._candidates() if self.why_illegal(move) is None]

    def push(self, move: M) -> None:
        """Play ``move``, or raise IllegalMoveError saying why it is not allowed."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        self._apply(move)
        self.record.append(move)

    def pop(self) -> M:
        """Undo the last move (the game is replayed from its set-up without it)."""
        if not self.record:
            raise IllegalMoveError("nothing to undo")
        *kept, last = self.record
        self.record = []
        self._start()
        for move in kept:
            self.push(move)
        return last

    def record_lines(self) -> list[str]:
        """The game as JSON lines: the set-up, then one move per line."""
        head = {"game": self.name, **self._head()}
        return [_dumps(head)] + [_dumps(self.codec.to_json(move)) for move in self.record]

    @classmethod
    def from_record_lines(cls, lines: Sequence[str]) -> Self:
        """Replay a record; a bad line is a BadInputError naming it."""
        (_, head), *rows = json_objects(lines, None)
        if head.get("game") != cls.name:
            raise BadInputError(f'line 1: needs "game": "{cls.name}" and the set-up')
        game = cls._from_head(head)
        for number, row in rows:
            try:
                for move in cls._moves_from_json(row):
                    game.push(move)
            except (IllegalMoveError, BadInputError) as error:
                raise BadInputError(f"line {number}: {error}") from None
        return game


class TurnBasedGame(RecordedGame[M]):
    """A recorded game played in turns round the table, its order kept by a ``TurnOrder``."""

    order: TurnOrder
    """Who plays, which way, and the turns owed or lost."""

    @property
    def current(self) -> int:
        """The seat on turn."""
        return self.order.current

    @property
    def direction(self) -> Direction:
        """The direction of play."""
        return self.order.direction

    @property
    @abstractmethod
    def answering(self) -> int | None:
        """The seat that must answer an attack before play goes on, if any."""

    @abstractmethod
    def _winners(self) -> frozenset[int]:
        """The winning seats (none before the end)."""

    @property
    def acting_seat(self) -> int | None:
        """The seat whose action is awaited (an attack's target while it answers)."""
        if self.over:
            return None
        answering = self.answering
        return self.current if answering is None else answering

    def turn_indicator(self) -> TurnIndicator:
        """What the seat LEDs show."""
        return TurnIndicator(
            seats=self.order.players,
            on_turn=self.acting_seat,
            direction=self.direction,
            skipped=self.order.skipped(),
            winners=self._winners(),
        )


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


class MoveCodec(Generic[M]):
    """Moves (frozen dataclasses) to and from ``{"action": name, field: value, ...}``."""

    def __init__(
        self, what: str, actions: Mapping[str, type[M]], readers: Mapping[str, Reader]
    ) -> None:
        self.what = what
        """The game's moves in words, for errors: ``an Express action``."""
        self.actions = dict(actions)
        self.readers = dict(readers)
        """How each field name's JSON value is read."""
        self._names = {kind: name for name, kind in self.actions.items()}

    def to_json(self, move: M) -> dict[str, Any]:
        """The move as a JSON object; tuples become lists."""
        data: dict[str, Any] = {"action": self._names[type(move)]}
        for spec in fields(move):  # type: ignore[arg-type]
            data[spec.name] = _plain(getattr(move, spec.name))
        return data

    def from_json(self, data: Any) -> M:
        """Read a move's JSON object, with a one-line reason if it is not one."""
        if not isinstance(data, dict) or data.get("action") not in self.actions:
            raise BadInputError(f"not {self.what}: {data!r}"[:120])
        kind = self.actions[data["action"]]
        where = f"action {data['action']!r}"
        specs = fields(kind)  # type: ignore[arg-type]
        unknown = set(data) - {"action"} - {spec.name for spec in specs}
        if unknown:
            raise BadInputError(f"{where}: unknown field(s) {sorted(unknown)}")
        values = {}
        for spec in specs:
            if spec.name not in data:
                if spec.default is MISSING:
                    raise BadInputError(f"{where}: needs {spec.name!r}")
                continue
            try:
                values[spec.name] = self.readers[spec.name](data[spec.name])
            except ValueError:
                raise BadInputError(
                    f"{where}: bad value {data[spec.name]!r} for {spec.name!r}"[:120]
                ) from None
        return kind(**values)


def _plain(value: Any) -> Any:
    return [_plain(item) for item in value] if isinstance(value, tuple) else value


# ----- field readers -------------------------------------------------------------------------


def whole(value: Any) -> int:
    """A whole number (never a JSON true/false)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(value)
    return value


def text(value: Any) -> str:
    """A string."""
    if not isinstance(value, str):
        raise ValueError(value)
    return value


def flag(value: Any) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise ValueError(value)
    return value


def optional(reader: Reader) -> Reader:
    """``reader``'s value, or None for a JSON null."""
    return lambda value: None if value is None else reader(value)


def listed(reader: Reader) -> Reader:
    """A JSON list read item by item, as a tuple."""

    def read(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise ValueError(value)
        return tuple(reader(item) for item in value)

    return read


def pair(reader: Reader) -> Reader:
    """A JSON list of exactly two items, as a tuple."""

    def read(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) != 2:
            raise ValueError(value)
        return tuple(reader(item) for item in value)

    return read


# ----- bots ----------------------------------------------------------------------------------


def greedy_choice(moves: Sequence[M], worth: Callable[[M], float], rng: random.Random) -> M:
    """The move ``worth`` likes best, ties broken by ``rng``."""
    scores = [worth(move) for move in moves]
    best = max(scores)
    return rng.choice([move for move, score in zip(moves, scores, strict=True) if score == best])


def play_out(
    game: RecordedGame[M], choose: Callable[[], M], limit: int = 5000
) -> None:
    """Push ``choose()``'s moves until the game is over (or ``limit`` moves)."""
    for _ in range(limit):
        if game.over:
            return
        game.push(choose())
