"""The Train Line Chicago referee over camera observations: pawns, cards played, die rolls.

The camera sees where every pawn stands and the cards put on the discard piles; it cannot see
hands. So the referee explains each new table by searching for a sequence of legal actions that
plays exactly the cards seen played (and the boarding die rolls the board reported) and leaves
the pawns where the camera sees them. The format is documented in ``docs/trainline.md``.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from host.errors import BadInputError
from host.jsonl import json_objects, judged, seats_and_first
from host.referee import Verdict
from host.trainline.cards import ADVANCED_MOTION, REBEL
from host.trainline.game import Phase, TrainlineGame, action_card
from host.trainline.moves import (
    Accept,
    Board,
    BoardingDie,
    EndTurn,
    Enter,
    Move,
    MoveAlong,
    Rebel,
    UseToken,
    move_to_json,
)
from host.turns import TurnIndicator

Cell = tuple[int, int]
#: How many positions the search may visit to explain one observation before giving up.
SEARCH_BUDGET = 20000


@dataclass(frozen=True)
class Pawns:
    """Where one seat's pawns stand, as the camera sees them."""

    seated: frozenset[Cell]
    """Seats holding this player's pawns."""
    aisle: Cell | None
    """The player's pawn in the aisle, if any."""
    missed: Cell | None
    """The start space whose missed-train space holds the player's pawn, if any."""


def _cell(value: Any, where: str) -> Cell | None:
    if value is None:
        return None
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise BadInputError(f"{where}: a cell is [row, col]")


def parse_pawns(data: Any, seats: int) -> tuple[Pawns, ...]:
    """Read an observation's ``pawns`` (a BadInputError if malformed)."""
    if not isinstance(data, list) or len(data) != seats:
        raise BadInputError(f'"pawns" needs one object per seat ({seats})')
    found = []
    for seat, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("seated", []), list):
            raise BadInputError(f'pawns of seat {seat}: {{"seated": [...], "aisle": ..., ...}}')
        seated = [_cell(cell, f"seat {seat}") for cell in item.get("seated", [])]
        found.append(
            Pawns(
                frozenset(c for c in seated if c is not None),
                _cell(item.get("aisle"), f"seat {seat}"),
                _cell(item.get("missed"), f"seat {seat}"),
            )
        )
    return tuple(found)


def pawns_of(game: TrainlineGame) -> tuple[Pawns, ...]:
    """Where the engine's pawns stand, as the camera would see them."""
    return tuple(Pawns(frozenset(p.seated), p.aisle, p.missed) for p in game.players)


def observation_of(game: TrainlineGame, played: Sequence[str]) -> dict[str, Any]:
    """An observation line for the engine's table, with the cards played since the last one."""
    return {
        "pawns": [
            {
                "seated": [list(c) for c in sorted(p.seated)],
                "aisle": list(p.aisle) if p.aisle else None,
                "missed": list(p.missed) if p.missed else None,
            }
            for p in game.players
        ],
        "played": list(played),
    }


class TrainlineObserver:
    """Judges observations one at a time, keeping the public game (pawns, turn order)."""

    def __init__(self, seats: int, first: int) -> None:
        # The decks' order is unknown and does not matter: hands are set from what is played.
        self.game = TrainlineGame.new(seats, random.Random(0), first)
        self.rolls: list[bool] = []

    def opening(self) -> Verdict:
        """The verdict on the opening line: who plays first."""
        return Verdict("waiting", self.game.acting_seat)

    def feed(self, line: Mapping[str, Any]) -> Verdict:
        """The verdict on one line: an observation, a die roll or a seat's button."""
        return Verdict.of(self._judge(line))

    def turn_indicator(self) -> TurnIndicator:
        """Whose turn it is, for the seat LEDs."""
        return self.game.turn_indicator()

    @property
    def dice_wanted(self) -> int:
        """The boarding die is not rolled on the board yet."""
        return 0

    def _judge(self, data: Mapping[str, Any]) -> dict[str, Any]:
        seat = self.game.acting_seat
        if self.game.phase is Phase.OVER:
            return {"verdict": "illegal", "seat": None, "reason": "the game is over"}
        event = data.get("event")
        if event == "roll":
            if not isinstance(data.get("open"), bool):
                raise BadInputError('a roll event needs "open": true or false')
            self.rolls.append(data["open"])
            return {"verdict": "waiting", "seat": seat}
        if event == "button":
            return self._button(data.get("seat"))
        seen = parse_pawns(data.get("pawns"), len(self.game.players))
        played = data.get("played", [])
        if not isinstance(played, list) or not all(isinstance(c, str) for c in played):
            raise BadInputError('"played" is a list of card names')
        known = set(self.game.cards.numbers) | set(self.game.cards.ends_turn)
        if set(played) - known:
            raise BadInputError(f"no Train Line card {sorted(set(played) - known)}")
        if seen == pawns_of(self.game) and not played and not self.rolls:
            return {"verdict": "waiting", "seat": seat}
        found = self._explain(played, seen)
        if found is None:
            return {
                "verdict": "illegal",
                "seat": seat,
                "reason": "no legal turn plays exactly these cards and leaves this table",
            }
        begun = self.game.turns_begun
        self.game, moves = found
        self.rolls = []
        said = [move_to_json(move) for move in moves]
        if self.game.phase is Phase.OVER:
            return {
                "verdict": "win",
                "seat": seat,
                "moves": said,
                "winners": sorted(self.game.winners),
                "next_seat": None,
            }
        if self.game.turns_begun == begun:
            return {"verdict": "waiting", "seat": seat, "moves": said}
        return {
            "verdict": "move",
            "seat": seat,
            "moves": said,
            "next_seat": self.game.acting_seat,
            **self._lights(),
        }

    def _button(self, seat: Any) -> dict[str, Any]:
        """The seat on turn ends its turn without moving (the table has shown all it did)."""
        if seat != self.game.acting_seat or self.game.phase is not Phase.MAIN:
            return {"verdict": "waiting", "seat": self.game.acting_seat}
        self.game.push(EndTurn())
        self.rolls = []
        return {
            "verdict": "move",
            "seat": seat,
            "moves": [move_to_json(EndTurn())],
            "next_seat": self.game.acting_seat,
            **self._lights(),
        }

    def _lights(self) -> dict[str, Any]:
        shown = self.game.turn_indicator()
        return {"direction": shown.direction.value, "skipped": sorted(shown.skipped)}

    def _copy(self, game: TrainlineGame) -> TrainlineGame:
        shared = {id(game.layout): game.layout, id(game.cards): game.cards}
        child = copy.deepcopy(game, memo=shared)
        child.record = []
        return child

    def _explain(
        self, played: Sequence[str], seen: tuple[Pawns, ...]
    ) -> tuple[TrainlineGame, list[Move]] | None:
        start = self._copy(self.game)
        actor = start.players[start.current]
        actor.numbers = [card for card in played if card in start.cards.numbers]
        actor.actions = [card for card in played if card not in start.cards.numbers]
        for other, player in enumerate(start.players):
            if other != start.current:
                # Whatever a Pan Handler takes is out of sight: offer it number cards.
                player.numbers = [next(iter(start.cards.numbers))] * len(played)
                player.actions = []
        budget = [SEARCH_BUDGET]
        wanted = Counter(played)
        # Action cards land on their discard pile in the order the camera saw them played.
        numbers = start.cards.numbers
        action_order = [card for card in played if card not in numbers]
        begun = start.turns_begun

        def search(
            game: TrainlineGame, moves: list[Move], rolls: int
        ) -> Iterator[tuple[TrainlineGame, list[Move]]]:
            budget[0] -= 1
            if budget[0] < 0:
                return
            used = Counter(card for move in moves for card in cards_played(move))
            ended = game.turns_begun != begun or game.phase is Phase.OVER
            settled = ended or game.phase is Phase.MAIN  # an attack's answer is not pending
            if used == wanted and rolls == len(self.rolls) and settled and (pawns_of(game) == seen):
                yield game, moves
            if ended:
                return
            acted = [c for m in moves for c in cards_played(m) if c not in numbers]
            for move in self._options(game, rolls):
                acts = [card for card in cards_played(move) if card not in numbers]
                following = action_order[len(acted) : len(acted) + len(acts)]
                if Counter(acts) != Counter(following):
                    continue
                if isinstance(move, Enter) and not set(move.seats) <= seen[game.current].seated:
                    continue  # a pawn seated this turn stays seated this turn
                child = self._copy(game)
                if isinstance(move, Rebel):
                    mover = child.players[child.current]
                    mover.actions.remove(REBEL)
                    child.players[child.acting_seat or 0].actions.append(REBEL)
                if child.why_illegal(move) is not None:
                    continue
                child.push(move)
                yield from search(child, [*moves, move], rolls + isinstance(move, BoardingDie))

        return next(search(start, [], 0), None)

    def _options(self, game: TrainlineGame, rolls: int) -> Iterator[Move]:
        if game.phase is Phase.RESPONSE:
            yield Accept()
            if REBEL in game.players[game.current].actions:
                yield Rebel()
            return
        if game.is_chance_node():  # the die shows what the board reported, if it has
            if rolls < len(self.rolls):
                yield BoardingDie(self.rolls[rolls])
            return
        for move in game.legal_moves():
            if isinstance(move, UseToken | EndTurn):  # unseen: a button ends a turn
                continue
            if isinstance(move, Board) and rolls >= len(self.rolls):
                continue  # no roll reported for it
            yield move


def cards_played(move: Move) -> list[str]:
    """The cards a move puts on the discard piles, in the order they are played."""
    if isinstance(move, MoveAlong):
        return [*move.numbers, *move.passes] + ([ADVANCED_MOTION] if move.motion else [])
    if isinstance(move, Rebel):
        return [REBEL]
    card = action_card(move)
    return [card] if card is not None else []


def judge_observations(lines: Sequence[str]) -> Iterator[dict[str, Any]]:
    """One verdict per line after the first (``{"seats": N, "first": S}``)."""
    (_, head), *rows = json_objects(lines)
    observer = TrainlineObserver(*seats_and_first(head))
    yield from judged(rows, lambda data: observer.feed(data).to_json())
