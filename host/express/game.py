"""The rules of one hand of Express: turns, trains, Disasters, going out.

Pure rules: no I/O, no clock; the only chance is the shuffle, made by the ``random.Random``
passed to ``ExpressGame.new`` and kept in the record's set-up, so a record replays exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from host.engine import TurnBasedGame
from host.errors import BadInputError
from host.express.cards import (
    BROKEN_CAR,
    DERAILMENT,
    DIESEL,
    STEAL,
    SWITCH_ENGINES,
    TURNTABLE,
    WILD,
    WRECK,
    ExpressCards,
    Kind,
    standard_cards,
)
from host.express.moves import (
    MOVE_CODEC,
    Accept,
    AddCar,
    BreakCar,
    Derail,
    Disaster,
    Discard,
    DrawFromDeck,
    ExchangeLoco,
    Move,
    PlayTurntable,
    PlayWayCar,
    Protect,
    StartTrain,
    Steal,
    SwitchEngines,
    TakeBackLoco,
    TakeDiscard,
    Wreck,
)
from host.express.scoring import SeatScore, SeatTable, score_seat, winners
from host.express.trains import SCORING_CARS, Car, Train, why_car_cannot_follow
from host.turn_order import TurnOrder

MIN_PLAYERS = 2
#: Ruling: the rulebook names no maximum; six hands of ten leave 28 cards to draw from.
MAX_PLAYERS = 6
HAND_SIZE = 10
#: Hand limit after the discard.
HAND_LIMIT = 5
#: With this many players or fewer, one Turntable is removed before dealing.
FEW_PLAYERS = 3
#: Going out needs one train of at least this many cars ...
GOING_OUT_LONG = 5
#: ... and another of at least this many.
GOING_OUT_SECOND = 4
#: Ruling: the hand also ends when a turn ends with the draw pile empty (the rulebook is silent).
DRAW_PILE_EMPTY_ENDS_HAND = True
#: Cards drawn from the deck in step 1.
DRAW_COUNT = 2



class Phase(Enum):
    """Where the hand stands."""

    DRAW = "draw"
    """Step 1 of the seat on turn."""
    PLAY = "play"
    """Steps 2 and 3 of the seat on turn."""
    RESPONSE = "response"
    """A Disaster waits for its target's answer."""
    OVER = "over"
    """The hand has ended."""


@dataclass
class Seat:
    """One player's cards (mutable engine state)."""

    hand: list[str]
    trains: list[Train] = field(default_factory=list)
    way_cars: list[str] = field(default_factory=list)
    turns_taken: int = 0


@dataclass(frozen=True)
class Setup:
    """How a hand started: everything needed to replay its record."""

    players: int
    """How many seats play."""
    first: int
    """The seat that plays first."""
    deck: tuple[str, ...]
    """The shuffled deck, top card first (Turntable already removed for 2-3 players)."""


def deck_for(players: int, cards: ExpressCards) -> list[str]:
    """The cards of a hand for ``players`` seats, unshuffled."""
    names = [name for name, count in cards.counts.items() for _ in range(count)]
    if players <= FEW_PLAYERS:
        names.remove(TURNTABLE)
    return names


class ExpressGame(TurnBasedGame[Move]):
    """One hand of Express: legal moves, push/pop, the table, the turn indicator."""

    name = "express"
    codec = MOVE_CODEC

    def __init__(self, setup: Setup, cards: ExpressCards | None = None) -> None:
        self.cards = cards or standard_cards()
        if not MIN_PLAYERS <= setup.players <= MAX_PLAYERS:
            raise BadInputError(f"Express is for {MIN_PLAYERS}-{MAX_PLAYERS} players")
        if not 0 <= setup.first < setup.players:
            raise BadInputError(f"no seat {setup.first} to play first")
        if Counter(setup.deck) != Counter(deck_for(setup.players, self.cards)):
            raise BadInputError("the set-up's deck is not an Express deck for this many players")
        self.setup = setup
        self.record: list[Move] = []
        self._start()

    @classmethod
    def new(cls, players: int, rng: random.Random, first: int = 0) -> ExpressGame:
        """A freshly shuffled and dealt hand."""
        cards = standard_cards()
        deck = deck_for(players, cards) if MIN_PLAYERS <= players <= MAX_PLAYERS else []
        rng.shuffle(deck)
        return cls(Setup(players, first, tuple(deck)), cards)

    def _start(self) -> None:
        deck = list(self.setup.deck)
        self.seats = [
            Seat(hand=deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(self.setup.players)
        ]
        # The draw pile's top is the end of the list.
        self.draw_pile = list(reversed(deck[self.setup.players * HAND_SIZE :]))
        self.discard_pile: list[str] = []
        self.special_discards: list[str] = []
        self.order = TurnOrder(self.setup.players, self.setup.first)
        self.phase = Phase.DRAW
        self.pending: Disaster | None = None
        self.went_out: int | None = None

    # ----- queries -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.setup.players

    @property
    def over(self) -> bool:
        """True once the hand has ended."""
        return self.phase is Phase.OVER

    @property
    def answering(self) -> int | None:
        """The seat a Disaster waits on for its answer, if any."""
        return self.pending.seat if self.phase is Phase.RESPONSE and self.pending else None

    def _winners(self) -> frozenset[int]:
        return frozenset(winners(self.scores())) if self.over else frozenset()

    def table(self) -> list[SeatTable]:
        """Every seat's trains, Way Cars and hand, as the scorer reads them."""
        return [
            SeatTable(f"seat {i}", tuple(s.trains), tuple(s.way_cars), tuple(s.hand))
            for i, s in enumerate(self.seats)
        ]

    def scores(self) -> list[SeatScore]:
        """Each seat's score if the hand ended now."""
        return [score_seat(seat, self.cards) for seat in self.table()]

    def all_cards(self) -> Counter[str]:
        """Every card in every zone (for checking that none is lost or made up)."""
        found = Counter(self.draw_pile + self.discard_pile + self.special_discards)
        for seat in self.seats:
            found.update(seat.hand)
            found.update(seat.way_cars)
            for train in seat.trains:
                found[train.loco] += 1
                found.update(car.card for car in train.cars)
        return found

    # ----- legality ------------------------------------------------------------------------

    def _candidates(self) -> Iterator[Move]:
        """Every move worth checking (Switch Engines one pair at a time; see docs)."""
        if self.phase is Phase.DRAW:
            yield from (DrawFromDeck(), TakeDiscard())
            return
        if self.phase is Phase.RESPONSE:
            yield from (Protect(), Accept())
            return
        if self.phase is Phase.OVER:
            return
        me = self.seats[self.current]
        held = sorted(set(me.hand))
        own = range(len(me.trains))
        for card in held:
            yield StartTrain(card)
            yield Discard(card)
            yield PlayWayCar(card)
            for train in own:
                yield ExchangeLoco(train, card)
                if card == WILD:
                    yield from (AddCar(card, train, kind) for kind in self.cards.car_types())
                else:
                    yield AddCar(card, train)
        if DIESEL in held:
            yield StartTrain(DIESEL, diesel=True)
            yield from (ExchangeLoco(train, DIESEL, diesel=True) for train in own)
        yield from (TakeBackLoco(train) for train in own)
        yield PlayTurntable()
        for seat, other in enumerate(self.seats):
            if seat == self.current:
                continue
            yield Derail(seat)
            for train in range(len(other.trains)):
                yield BreakCar(seat, train)
                yield Wreck(seat, train)
                yield Steal(seat, train)
                yield from (Steal(seat, train, mine) for mine in own)
                yield from (SwitchEngines(seat, ((mine, train),)) for mine in own)

    def why_illegal(self, move: Move) -> str | None:
        """Why ``move`` is not allowed now, or None if it is."""
        if self.phase is Phase.OVER:
            return "the hand is over"
        if isinstance(move, DrawFromDeck | TakeDiscard):
            if self.phase is not Phase.DRAW:
                return "you have already drawn this turn"
            if isinstance(move, TakeDiscard) and not self.discard_pile:
                return "the discard pile is empty"
            return None
        if self.phase is Phase.DRAW:
            return "draw first: two cards from the deck or the top of the discard pile"
        if isinstance(move, Protect | Accept):
            return self._why_illegal_answer(move)
        if self.phase is Phase.RESPONSE:
            return f"seat {self.acting_seat} must first answer the Disaster"
        me = self.seats[self.current]
        card = _card_of(move)
        if card is not None and card not in me.hand:
            return f"{card} is not in your hand"
        if isinstance(move, StartTrain | AddCar | PlayWayCar | ExchangeLoco | TakeBackLoco):
            return self._why_illegal_play(move, me)
        return self._why_illegal_ending(move, me)

    def _why_illegal_answer(self, move: Protect | Accept) -> str | None:
        if self.phase is not Phase.RESPONSE or self.pending is None:
            return "no Disaster waits for an answer"
        if isinstance(move, Protect):
            way_car = self.cards.way_car_for(_ending_card(self.pending))
            if way_car is None or way_car not in self.seats[self.pending.seat].hand:
                return f"protecting needs the Way Car against {_ending_card(self.pending)}"
        return None

    def _why_illegal_play(self, move: Move, me: Seat) -> str | None:
        if isinstance(move, TakeBackLoco):
            if not 0 <= move.train < len(me.trains):
                return f"you have no train {move.train}"
            return (
                "a Loco with cars behind it can only be exchanged"
                if me.trains[move.train].cars
                else None
            )
        if isinstance(move, StartTrain | ExchangeLoco):
            if move.diesel and move.card != DIESEL:
                return "only a Diesel card lies face up as a Loco"
            if isinstance(move, ExchangeLoco):
                if not 0 <= move.train < len(me.trains):
                    return f"you have no train {move.train}"
                old = me.trains[move.train]
                if (old.loco, old.diesel) == (move.card, move.diesel):
                    return "that exchange changes nothing"
            return (
                None
                if isinstance(move, ExchangeLoco)
                else self._why_hand_too_small(me, [*me.trains, Train(move.card)])
            )
        if isinstance(move, PlayWayCar):
            if self.cards.kind(move.card) is not Kind.WAYCAR:
                return f"{move.card} is not a Way Car"
            return self._why_hand_too_small(me, me.trains)
        assert isinstance(move, AddCar)
        if not 0 <= move.train < len(me.trains):
            return f"you have no train {move.train}"
        if (move.as_type is not None) != (move.card == WILD):
            return "say what a Wild Car is played as (and only for a Wild Car)"
        train = me.trains[move.train]
        car = Car(move.card, move.as_type or move.card)
        reason = why_car_cannot_follow(train, car, self.cards)
        if reason is not None:
            return reason
        trains = list(me.trains)
        trains[move.train] = replace(train, cars=(*train.cars, car))
        return self._why_hand_too_small(me, trains)

    def _why_hand_too_small(self, me: Seat, trains: list[Train]) -> str | None:
        """A play may leave one card in hand only if discarding it then goes out."""
        if len(me.hand) < 2:
            return "keep a card to discard at the end of your turn"
        if len(me.hand) == 2 and why_cannot_go_out(trains) is not None:
            return "keep two cards: with one left you must go out, and you could not"
        return None

    def _why_illegal_ending(self, move: Move, me: Seat) -> str | None:
        card = _card_of(move) or _ending_card(move)
        if card not in me.hand:
            return f"{card} is not in your hand"
        if not isinstance(move, Discard) and me.turns_taken == 0:
            return "no Disaster or Turntable on a player's first turn"
        left = len(me.hand) - 1
        if not left:
            # Ruling: plays never leave one card unless it goes out, so a last card that cannot
            # go out was drawn into an empty hand (its last card answered a Disaster): it may be
            # discarded, and the hand goes on.
            return None if isinstance(move, Discard) else why_cannot_go_out(me.trains)
        if isinstance(move, Steal) and move.onto is None:
            left += 1
        if left > HAND_LIMIT:
            return f"hand limit: at most {HAND_LIMIT} cards after the discard, not {left}"
        if isinstance(move, BreakCar | Steal | SwitchEngines | Derail | Wreck):
            return self._why_illegal_target(move, me)
        return None

    def _why_illegal_target(self, move: Disaster, me: Seat) -> str | None:
        if move.seat == self.current or not 0 <= move.seat < self.players:
            return "a Disaster is played against another seat"
        if isinstance(move, Derail):
            return None
        them = self.seats[move.seat]
        if isinstance(move, SwitchEngines):
            mine = [pair[0] for pair in move.pairs]
            theirs = [pair[1] for pair in move.pairs]
            if not move.pairs or len(set(mine)) < len(mine) or len(set(theirs)) < len(theirs):
                return "switch each train's Loco at most once, at least one pair"
            if not all(0 <= i < len(me.trains) for i in mine) or not all(
                0 <= i < len(them.trains) for i in theirs
            ):
                return "switch Locos between existing trains"
            return None
        if not 0 <= move.train < len(them.trains):
            return f"seat {move.seat} has no train {move.train}"
        target = them.trains[move.train]
        if isinstance(move, Wreck):
            return None
        if not target.cars or target.has_caboose:
            return "only the last car of a train without a Caboose can be taken"
        if isinstance(move, Steal) and move.onto is not None:
            if not 0 <= move.onto < len(me.trains):
                return f"you have no train {move.onto}"
            return why_car_cannot_follow(me.trains[move.onto], target.cars[-1], self.cards)
        return None

    # ----- playing -------------------------------------------------------------------------

    def _apply(self, move: Move) -> None:
        me = self.seats[self.current]
        if isinstance(move, DrawFromDeck):
            for _ in range(min(DRAW_COUNT, len(self.draw_pile))):
                me.hand.append(self.draw_pile.pop())
            self.phase = Phase.PLAY
        elif isinstance(move, TakeDiscard):
            me.hand.append(self.discard_pile.pop())
            self.phase = Phase.PLAY
        elif isinstance(move, StartTrain):
            me.hand.remove(move.card)
            me.trains.append(Train(move.card, move.diesel))
        elif isinstance(move, AddCar):
            me.hand.remove(move.card)
            train = me.trains[move.train]
            car = Car(move.card, move.as_type or move.card)
            me.trains[move.train] = replace(train, cars=(*train.cars, car))
        elif isinstance(move, PlayWayCar):
            me.hand.remove(move.card)
            me.way_cars.append(move.card)
        elif isinstance(move, ExchangeLoco):
            me.hand.remove(move.card)
            me.hand.append(me.trains[move.train].loco)
            me.trains[move.train] = replace(
                me.trains[move.train], loco=move.card, diesel=move.diesel
            )
        elif isinstance(move, TakeBackLoco):
            me.hand.append(me.trains.pop(move.train).loco)
        elif isinstance(move, Discard):
            me.hand.remove(move.card)
            self.discard_pile.append(move.card)
            self._end_turn()
        elif isinstance(move, Protect | Accept):
            self._answer(move)
        else:
            self._play_ending_card(move)

    def _play_ending_card(self, move: Move) -> None:
        me = self.seats[self.current]
        card = _ending_card(move)
        me.hand.remove(card)
        self.special_discards.append(card)
        if not me.hand:  # going out: the card has no effect
            self._end_turn()
        elif isinstance(move, PlayTurntable):
            self.order.another_turn_then_reverse()
            self._end_turn()
        else:
            assert isinstance(move, BreakCar | Steal | SwitchEngines | Derail | Wreck)
            self.pending = move
            self.phase = Phase.RESPONSE

    def _answer(self, move: Protect | Accept) -> None:
        pending = self.pending
        assert pending is not None
        victim = self.seats[pending.seat]
        if isinstance(move, Protect):
            way_car = self.cards.way_car_for(_ending_card(pending))
            assert way_car is not None
            victim.hand.remove(way_car)
            victim.way_cars.append(way_car)
        else:
            self._disaster_strikes(pending, self.seats[self.current], victim)
        self.pending = None
        self._end_turn()

    def _disaster_strikes(self, move: Disaster, me: Seat, victim: Seat) -> None:
        if isinstance(move, Derail):
            self.order.skip(move.seat)
        elif isinstance(move, Wreck):
            train = victim.trains.pop(move.train)
            self.special_discards.append(train.loco)
            self.special_discards.extend(car.card for car in train.cars)
        elif isinstance(move, SwitchEngines):
            for mine, theirs in move.pairs:
                a, b = me.trains[mine], victim.trains[theirs]
                me.trains[mine] = replace(a, loco=b.loco, diesel=b.diesel)
                victim.trains[theirs] = replace(b, loco=a.loco, diesel=a.diesel)
        else:
            train = victim.trains[move.train]
            victim.trains[move.train] = replace(train, cars=train.cars[:-1])
            car = train.cars[-1]
            if isinstance(move, BreakCar):
                self.special_discards.append(car.card)
            elif move.onto is None:
                me.hand.append(car.card)
            else:
                destination = me.trains[move.onto]
                me.trains[move.onto] = replace(destination, cars=(*destination.cars, car))

    def _end_turn(self) -> None:
        me = self.seats[self.current]
        me.turns_taken += 1
        self.phase = Phase.DRAW
        if not me.hand and why_cannot_go_out(me.trains) is None:
            self.went_out = self.current
            self.phase = Phase.OVER
        elif DRAW_PILE_EMPTY_ENDS_HAND and not self.draw_pile:
            self.phase = Phase.OVER
        else:
            self.order.pass_turn()

    # ----- records -------------------------------------------------------------------------

    def _head(self) -> dict[str, Any]:
        return {"players": self.players, "first": self.setup.first, "deck": list(self.setup.deck)}

    @classmethod
    def _from_head(cls, head: dict[str, Any]) -> ExpressGame:
        players, first, deck = head.get("players"), head.get("first", 0), head.get("deck")
        if (
            not isinstance(players, int)
            or not isinstance(first, int)
            or not isinstance(deck, list)
            or not all(isinstance(c, str) for c in deck)
        ):
            raise BadInputError('line 1: needs "game": "express", "players", "first", "deck"')
        return cls(Setup(players, first, tuple(deck)))


def why_cannot_go_out(trains: Sequence[Train]) -> str | None:
    """Why a player with these trains cannot go out, or None if they can."""
    lengths = sorted((len(train.cars) for train in trains), reverse=True)
    if any(length < SCORING_CARS for length in lengths):
        return f"going out: every train needs {SCORING_CARS}+ cars"
    if len(lengths) < 2 or lengths[0] < GOING_OUT_LONG or lengths[1] < GOING_OUT_SECOND:
        return (
            f"going out needs a train of {GOING_OUT_LONG}+ cars "
            f"and another of {GOING_OUT_SECOND}+ cars"
        )
    return None


def _card_of(move: Move) -> str | None:
    card = getattr(move, "card", None)
    return card if isinstance(card, str) else None


_ENDING_CARDS: dict[type, str] = {
    BreakCar: BROKEN_CAR,
    Steal: STEAL,
    SwitchEngines: SWITCH_ENGINES,
    Derail: DERAILMENT,
    Wreck: WRECK,
    PlayTurntable: TURNTABLE,
}


def _ending_card(move: Move) -> str:
    return _ENDING_CARDS[type(move)]
