"""The Express referee: judge a recorded sequence of table observations, turn by turn.

The camera sees the public table only: trains, Way Cars in play, the discard pile, the special
discard slot and (when the observer gives them) how many cards each player holds. Each
observation is compared with the last accepted table: a turn that is still going on is
"waiting", a finished turn is a "move" (with who plays next), a table the rules cannot reach is
"illegal" (the referee keeps the last good table until it is put right), and going out is a
"win". The format is documented in ``docs/express.md``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from host.errors import BadInputError
from host.express.cards import (
    BROKEN_CAR,
    DERAILMENT,
    STEAL,
    SWITCH_ENGINES,
    TURNTABLE,
    WRECK,
    ExpressCards,
    Kind,
    standard_cards,
)
from host.express.game import (
    DRAW_COUNT,
    DRAW_PILE_EMPTY_ENDS_HAND,
    HAND_LIMIT,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ExpressGame,
    deck_for,
    why_cannot_go_out,
)
from host.express.observation import ExpressObservation, TrainSeen
from host.express.scoring import cards_from_json, train_from_json
from host.express.trains import Train, why_car_cannot_follow
from host.jsonl import json_objects, judged, seats_and_first
from host.referee import Verdict as TableVerdict
from host.turn_order import TurnOrder
from host.turns import TurnIndicator

Verdict = dict[str, Any]
_NEED_TARGET = "Derailment: press the button of the seat that loses its turn"


@dataclass(frozen=True)
class Observation:
    """The public table at a stable moment."""

    trains: tuple[tuple[Train, ...], ...]
    """Each seat's trains, in the order they lie."""
    way_cars: tuple[tuple[str, ...], ...]
    """Each seat's Way Cars in play."""
    discard: str | None
    """The top card of the discard pile, if any."""
    discards: int | None
    """How many cards the discard pile holds, if the observer says."""
    special: tuple[str, ...]
    """The special discard slot, oldest card first."""
    hands: tuple[int, ...] | None
    """How many cards each seat holds, if the observer says."""


def parse_observation(data: Any, seats: int, cards: ExpressCards) -> Observation:
    """Read one observation line (a BadInputError if it is malformed or names a card that
    cannot lie where it does)."""
    seen = ExpressObservation.from_json(data, seats)
    seat_trains = tuple(
        tuple(train_from_json(train.to_json(), f"seat {seat}, train {n}", cards, False)
              for n, train in enumerate(listed))
        for seat, listed in enumerate(seen.trains)
    )
    ways = tuple(
        tuple(cards_from_json(list(names), f"way cars of seat {s}", (Kind.WAYCAR,), cards))
        for s, names in enumerate(seen.way_cars)
    )
    special = cards_from_json(list(seen.special), "special", tuple(Kind), cards)
    if seen.discard is not None and seen.discard not in cards.info:
        raise BadInputError(f"discard: no Express card {seen.discard!r}")
    return Observation(seat_trains, ways, seen.discard, seen.discards, tuple(special), seen.hands)


class IllegalTable(Exception):
    """A finished turn the rules do not allow (internal: becomes an "illegal" verdict)."""


@dataclass
class _Turn:
    """What the acting seat did in one turn, as far as the table shows."""

    plays: int = 0
    new_trains: int = 0
    ending: str = "discard"
    target: int | None = None
    protected: bool = False
    to_hand: int = 0
    took_top: bool = False


class ExpressReferee:
    """Judges observations one at a time; keeps the turn order for the seat LEDs."""

    def __init__(self, seats: int, first: int, cards: ExpressCards | None = None) -> None:
        self.cards = cards or standard_cards()
        self.seats = seats
        self.order = TurnOrder(seats, first)
        self.turns_taken = [0] * seats
        self.over = False
        self.table = Observation(
            tuple(() for _ in range(seats)),
            tuple(() for _ in range(seats)),
            None,
            0,
            (),
            (HAND_SIZE,) * seats,
        )
        self.needs_target: tuple[Observation, _Turn] | None = None
        self.last_seen = self.table
        self.draw_pile = len(deck_for(seats, self.cards)) - HAND_SIZE * seats

    @property
    def current(self) -> int:
        """The seat on turn."""
        return self.order.current

    def opening(self) -> TableVerdict:
        """The verdict on the opening line: who plays first."""
        return TableVerdict("waiting", self.current)

    def feed(self, line: Mapping[str, Any]) -> TableVerdict:
        """The verdict on one line: an observation, or a board event naming a target. A wait
        with a reason (a seat's button is needed) is what the table is told to do next."""
        verdict = self._judge(line)
        if verdict["verdict"] == "waiting" and "reason" in verdict:
            verdict = {**verdict, "pending": verdict["reason"]}
        if verdict["verdict"] in ("move", "win") and verdict.get("seat") is not None:
            verdict = {**verdict, "move": {**verdict["move"],
                                           "text": _in_words(verdict["seat"], verdict["move"])}}
        return TableVerdict.of(verdict)

    @property
    def dice_wanted(self) -> int:
        """Express rolls no dice."""
        return 0

    def _judge(self, data: Any) -> Verdict:
        if self.over:
            return {"verdict": "illegal", "seat": None, "reason": "the hand is over"}
        if isinstance(data, dict) and data.get("event") == "button":
            return self._button(data.get("seat"))
        seen = parse_observation(data, self.seats, self.cards)
        self.last_seen = seen
        if self.needs_target is not None:
            return {"verdict": "waiting", "seat": self.current, "reason": _NEED_TARGET}
        if seen == self.table:
            return {"verdict": "waiting", "seat": self.current}
        try:
            turn = self._read_turn(seen)
        except IllegalTable as error:
            return {"verdict": "illegal", "seat": self.current, "reason": str(error)}
        if turn is None:
            return {"verdict": "waiting", "seat": self.current}
        if turn.ending == DERAILMENT and turn.target is None:
            self.needs_target = (seen, turn)
            return {"verdict": "waiting", "seat": self.current, "reason": _NEED_TARGET}
        return self._finish(seen, turn)

    def _button(self, seat: Any) -> Verdict:
        if self.needs_target is None:
            if seat != self.current:
                return {"verdict": "waiting", "seat": self.current}
            # The seat on turn says it is done: its turn ended with the table as last seen
            # (taking the discard top and discarding a card of that name shows no change).
            try:
                turn = self._read_turn(self.last_seen, done=True)
            except IllegalTable as error:
                return {"verdict": "illegal", "seat": self.current, "reason": str(error)}
            assert turn is not None
            if turn.ending == DERAILMENT and turn.target is None:
                self.needs_target = (self.last_seen, turn)
                return {"verdict": "waiting", "seat": self.current, "reason": _NEED_TARGET}
            return self._finish(self.last_seen, turn)
        if not isinstance(seat, int) or not 0 <= seat < self.seats or seat == self.current:
            return {
                "verdict": "illegal",
                "seat": self.current,
                "reason": "a Derailment targets another seat",
            }
        seen, turn = self.needs_target
        self.needs_target = None
        turn.target = seat
        return self._finish(seen, turn)

    def _finish(self, seen: Observation, turn: _Turn) -> Verdict:
        actor = self.current
        self.table = seen
        self.turns_taken[actor] += 1
        if not turn.took_top:
            self.draw_pile -= min(DRAW_COUNT, self.draw_pile)
        move = {
            "plays": turn.plays,
            "new_trains": turn.new_trains,
            "ending": turn.ending,
            "target": turn.target,
            "protected": turn.protected,
            "discard": seen.discard,
        }
        if (
            seen.hands is not None
            and seen.hands[actor] == 0
            and (why_cannot_go_out(seen.trains[actor]) is None)
        ):
            self.over = True
            return {"verdict": "win", "seat": actor, "move": move, "next_seat": None}
        if DRAW_PILE_EMPTY_ENDS_HAND and not self.draw_pile:
            self.over = True
            return {
                "verdict": "win",
                "seat": None,
                "move": move,
                "next_seat": None,
                "reason": "the draw pile is empty: the hand is over, score the table",
            }
        if turn.ending == TURNTABLE:
            self.order.another_turn_then_reverse()
        if turn.ending == DERAILMENT and not turn.protected and turn.target is not None:
            self.order.skip(turn.target)
        self.order.pass_turn()
        return {
            "verdict": "move",
            "seat": actor,
            "move": move,
            "next_seat": self.current,
            **self._lights(),
        }

    def turn_indicator(self) -> TurnIndicator:
        """What the seat LEDs show now."""
        return TurnIndicator(
            seats=self.seats,
            on_turn=None if self.over else self.current,
            direction=self.order.direction,
            skipped=self.order.skipped(),
        )

    def _lights(self) -> dict[str, Any]:
        shown = self.turn_indicator()
        return {"direction": shown.direction.value, "skipped": sorted(shown.skipped)}

    # ----- reading a turn from two tables ---------------------------------------------------

    def _read_turn(self, seen: Observation, done: bool = False) -> _Turn | None:
        """What the acting seat did; None while its turn is still going on."""
        before, actor = self.table, self.current
        if seen.special[: len(before.special)] != before.special:
            raise IllegalTable("cards left the special discard slot")
        fresh = seen.special[len(before.special) :]
        turn = _Turn()
        if fresh:
            turn.ending = fresh[0]
            if self.cards.kind(fresh[0]) not in (Kind.DISASTER, Kind.TURNTABLE):
                raise IllegalTable("only a Disaster or Turntable starts the special slot's pile")
            if self.turns_taken[actor] == 0:
                raise IllegalTable("no Disaster or Turntable on a player's first turn")
        self._read_others(before, seen, fresh, turn)
        self._read_own(before, seen, turn)
        # Taking the discard pile's top and discarding a card of the same name leaves the pile
        # looking untouched; the hand count tells (a deck draw would leave two cards more).
        put_back = (
            seen.hands is not None
            and before.hands is not None
            and (seen.hands[actor] == before.hands[actor] - turn.plays + turn.to_hand)
        )
        if not (fresh or _discarded(before, seen) or put_back or done):
            return None
        if not fresh and seen.discard is None:
            raise IllegalTable("a turn ends with a discard, a Disaster or a Turntable")
        turn.took_top = (
            seen.discards is not None
            and before.discards is not None
            and (seen.discards == before.discards - (1 if fresh else 0))
        )
        self._check_hands(before, seen, turn)
        return turn

    def _read_own(self, before: Observation, seen: Observation, turn: _Turn) -> None:
        actor = self.current
        old, new = before.trains[actor], seen.trains[actor]
        became = _align(old, new)
        if became is None:
            raise IllegalTable(f"seat {actor}'s trains: cars can only be added to their ends")
        matched = [j for j in became if j is not None]
        turn.plays -= became.count(None)  # bare Locos picked up go back to hand
        for number, train in enumerate(new):
            kept = old[became.index(number)].cars if number in matched else ()
            built = Train(train.loco, train.diesel, kept)
            for car in train.cars[len(kept) :]:
                reason = why_car_cannot_follow(built, car, self.cards)
                if reason is not None:
                    raise IllegalTable(f"seat {actor}'s train {number}: {reason}")
                built = Train(built.loco, built.diesel, (*built.cars, car))
            turn.plays += len(train.cars) - len(kept) + (number not in matched)
            turn.new_trains += number not in matched
        ways_old, ways_new = before.way_cars[actor], seen.way_cars[actor]
        if ways_new[: len(ways_old)] != ways_old:
            raise IllegalTable(f"seat {actor}'s Way Cars can only be added")
        turn.plays += len(ways_new) - len(ways_old)

    def _read_others(
        self, before: Observation, seen: Observation, fresh: Sequence[str], turn: _Turn
    ) -> None:
        hit = [
            s
            for s in range(self.seats)
            if s != self.current
            and (before.trains[s] != seen.trains[s] or before.way_cars[s] != seen.way_cars[s])
        ]
        if not hit:
            return
        if len(hit) > 1 or not fresh:
            raise IllegalTable(f"seat(s) {hit} changed outside their turn")
        victim, card = hit[0], fresh[0]
        turn.target = victim
        old, new = before.trains[victim], seen.trains[victim]
        way_car = self.cards.way_car_for(card)
        if seen.way_cars[victim] == (*before.way_cars[victim], way_car) and old == new:
            turn.protected = True
            return
        if before.way_cars[victim] != seen.way_cars[victim]:
            raise IllegalTable(f"seat {victim}'s Way Cars changed outside their turn")
        if card in (BROKEN_CAR, STEAL):
            changed = [n for n, (a, b) in enumerate(zip(old, new, strict=False)) if a != b]
            if (
                len(new) != len(old)
                or len(changed) != 1
                or old[changed[0]].has_caboose
                or (new[changed[0]].cars != old[changed[0]].cars[:-1])
                or not old[changed[0]].cars
            ):
                raise IllegalTable(f"{card} takes the last car of one train without a Caboose")
            taken = old[changed[0]].cars[-1]
            if card == STEAL:
                turn.to_hand = 1
                for number, train in enumerate(seen.trains[self.current]):
                    if (
                        train.cars
                        and train.cars[-1] == taken
                        and (
                            number < len(before.trains[self.current])
                            and len(train.cars) > len(before.trains[self.current][number].cars)
                        )
                    ):
                        turn.to_hand, turn.plays = 0, turn.plays - 1
                        break
        elif card == WRECK:
            if len(new) != len(old) - 1 or not any(
                new == old[:n] + old[n + 1 :] for n in range(len(old))
            ):
                raise IllegalTable("Wreck discards exactly one whole train")
        elif card == SWITCH_ENGINES:
            if [t.cars for t in new] != [t.cars for t in old]:
                raise IllegalTable("Switch Engines swaps Locos only")
        else:
            raise IllegalTable(f"{card} does not change seat {victim}'s table")

    def _check_hands(self, before: Observation, seen: Observation, turn: _Turn) -> None:
        if seen.hands is None or before.hands is None:
            return
        actor = self.current
        expected = list(before.hands)
        drawn = 1 if turn.took_top else min(DRAW_COUNT, self.draw_pile)
        expected[actor] += drawn - turn.plays - 1 + turn.to_hand
        if turn.protected and turn.target is not None:
            expected[turn.target] -= 1
        if list(seen.hands) != expected:
            raise IllegalTable(f"hands should hold {expected} cards, not {list(seen.hands)}")
        if expected[actor] > HAND_LIMIT:
            raise IllegalTable(f"hand limit: at most {HAND_LIMIT} cards after the discard")
        reason = why_cannot_go_out(seen.trains[actor])
        if expected[actor] == 0 and reason is not None and (turn.plays or turn.ending != "discard"):
            raise IllegalTable(reason)  # only a card drawn into an empty hand may go unmatched


def _align(old: Sequence[Train], new: Sequence[Train]) -> list[int | None] | None:
    """For each old train in order, the new train it grew into, or None for a bare Loco picked
    up; None if no such reading exists (new trains are laid after the old ones)."""
    if not old:
        return []
    first, rest = old[0], old[1:]
    if new and new[0].cars[: len(first.cars)] == first.cars:
        tail = _align(rest, new[1:])
        if tail is not None:
            return [0, *[None if j is None else j + 1 for j in tail]]
    if not first.cars:
        tail = _align(rest, new)
        if tail is not None:
            return [None, *tail]
    return None


def _in_words(seat: int, move: Mapping[str, Any]) -> str:
    """A finished turn for the terminal and the log."""
    plays = move["plays"]
    words = [f"seat {seat} played {plays} card{'s' if plays != 1 else ''}"]
    if move["new_trains"]:
        words.append(f"{move['new_trains']} new train(s)")
    if move["ending"] not in (None, "discard"):
        against = f" on seat {move['target']}" if move["target"] is not None else ""
        stopped = " (stopped by a Way Car)" if move["protected"] else ""
        words.append(f"{move['ending']}{against}{stopped}")
    elif move["discard"]:
        words.append(f"discarded {move['discard']}")
    return ", ".join(words)


def _discarded(before: Observation, seen: Observation) -> bool:
    """True when the discard pile shows a card put on it this turn (taking its top card, which
    a turn may start with, leaves one card fewer)."""
    if seen.discards is None or before.discards is None:
        return seen.discard != before.discard
    return seen.discards > before.discards or (
        seen.discards == before.discards and seen.discard != before.discard
    )


def judge_lines(lines: Sequence[str]) -> Iterator[Verdict]:
    """One verdict per observation line; the first line names the seats and who plays first."""
    (_, head), *rows = json_objects(lines)
    seats, first = seats_and_first(head)
    if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise BadInputError(f"line 1: Express is for {MIN_PLAYERS} to {MAX_PLAYERS} seats, "
                            f"not {seats}")
    referee = ExpressReferee(seats, first)
    yield from judged(rows, lambda data: referee.feed(data).to_json())


def observation_of(game: ExpressGame) -> dict[str, Any]:
    """What a camera (and an observer counting hands) sees of an engine's table."""

    def train(t: Train) -> TrainSeen:
        cars = [c.card if c.card == c.as_type else f"{c.card}:{c.as_type}" for c in t.cars]
        return TrainSeen("diesel" if t.diesel else "face-down", tuple(cars))

    return ExpressObservation(
        trains=tuple(tuple(train(t) for t in seat.trains) for seat in game.seats),
        way_cars=tuple(tuple(seat.way_cars) for seat in game.seats),
        discard=game.discard_pile[-1] if game.discard_pile else None,
        special=tuple(game.special_discards),
        discards=len(game.discard_pile),
        hands=tuple(len(seat.hand) for seat in game.seats),
    ).to_json()
