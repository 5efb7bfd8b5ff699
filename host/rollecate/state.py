"""A game of Rollecate with every card known: legal moves, push, pop (undo) and JSON.

The state follows the rulebook turn by turn. Randomness enters only through the set-up (dealt
with an injected ``random.Random``) and the dice, which are chance outcomes (``Roll`` moves) that
a caller draws from ``chance_outcomes``, from ``roll_dice(rng)`` or from the board.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from host.errors import BadInputError, IllegalMoveError
from host.rollecate.cards import CardBook, Kind, RollecateCard, default_book
from host.rollecate.discard import can_combine, put
from host.rollecate.moves import (
    Build,
    Discard,
    DiscardChaos,
    Move,
    Pass,
    Roll,
    move_from_json,
    move_to_json,
)
from host.rollecate.rules import (
    DICE_PER_ROLL,
    DIE_FACES,
    Face,
    Ride,
    build_problem,
    dice_for,
    pass_ride,
    penalty_count,
    ride,
)
from host.rollecate.scoring import Scoring, score_table
from host.rollecate.setup import Setup, deal
from host.turns import TurnIndicator


class Phase(Enum):
    """Where the current turn stands."""

    ACTION = "action"
    """The player has drawn and must pass, build or discard chaos cards."""
    ROLL = "roll"
    """The player built and must roll the dice for the ride."""
    DISCARD = "discard"
    """The player must put the owed cards on the discard pile, one by one."""
    OVER = "over"
    """The draw pile is empty and the last turn is finished."""


@dataclass(frozen=True)
class Effect:
    """What one move did, for people watching (the demo, the referee, a log)."""

    ride: Ride | None = None
    """The train's ride or pass, once it is decided."""
    penalty: tuple[str, ...] = ()
    """Penalty cards taken from the start of the railway, in the order taken."""
    drawn: str | None = None
    """The card the next player drew when this move ended a turn."""
    game_over: bool = False
    """True if this move ended the game."""


@dataclass
class GameState:
    """A game in progress: the table, the hands, the draw pile and the moves so far.

    Change it only through ``push`` and ``pop``; the fields are public to read.
    """

    setup: Setup
    """The table before the first turn; with ``history`` it is the game's record."""
    railway: list[str]
    """The railway's cards from its start."""
    train: int
    """The position of the card the train stands on (0 is the first card)."""
    hands: list[list[str]]
    """Each seat's hand, sorted."""
    discards: list[list[str]]
    """Each seat's discard pile, bottom first."""
    boxed: list[list[str]]
    """Each seat's combined cards, in pairs, out of the game."""
    draw_pile: list[str]
    """The draw pile, top card first."""
    seat: int
    """The seat on turn."""
    phase: Phase
    """Where the turn stands."""
    dice_left: int = 0
    """Dice still to roll for the current build's ride."""
    wheels: int = 0
    """Wheels rolled so far for the current build's ride."""
    owed: list[str] = field(default_factory=list)
    """Cards the seat on turn must still put on its discard pile."""
    turns: int = 1
    """Turns begun so far (the current one included)."""
    history: list[Move] = field(default_factory=list)
    """Every move made, in order."""
    book: CardBook = field(default_factory=default_book, compare=False, repr=False)
    """The deck's cards (by default the shipped deck)."""

    @classmethod
    def start(cls, setup: Setup, book: CardBook | None = None) -> GameState:
        """The game after its set-up, with the first player's card drawn."""
        book = book or default_book()
        setup.check(book)
        state = cls(
            setup=setup,
            railway=list(setup.railway),
            train=setup.train,
            hands=[sorted(hand) for hand in setup.hands],
            discards=[[] for _ in range(setup.seats)],
            boxed=[[] for _ in range(setup.seats)],
            draw_pile=list(setup.draw_pile),
            seat=setup.first,
            phase=Phase.ACTION,
            book=book,
        )
        state._draw()
        return state

    @classmethod
    def new(cls, players: int, rng: random.Random, first: int = 0) -> GameState:
        """A new game dealt with ``rng`` by the published set-up."""
        book = default_book()
        return cls.start(deal(players, rng, book, first), book)

    # -- what may happen next -------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.phase is Phase.OVER

    def is_chance_node(self) -> bool:
        """True when the next move is a roll of the dice."""
        return self.phase is Phase.ROLL

    def dice_to_roll(self) -> int:
        """How many dice the next roll has (0 unless the dice are due)."""
        return min(self.dice_left, DICE_PER_ROLL) if self.phase is Phase.ROLL else 0

    def chance_outcomes(self) -> list[tuple[Roll, float]]:
        """Every roll the dice can show now, with its probability."""
        wheel = DIE_FACES.count(Face.WHEEL) / len(DIE_FACES)
        outcomes = []
        for faces in itertools.product(tuple(Face), repeat=self.dice_to_roll()):
            wheels = faces.count(Face.WHEEL)
            probability = wheel**wheels * (1 - wheel) ** (len(faces) - wheels)
            outcomes.append((Roll(faces), probability))
        return outcomes

    def roll_dice(self, rng: random.Random) -> Roll:
        """A roll of the dice now due, drawn from ``rng``."""
        return Roll(tuple(rng.choice(DIE_FACES) for _ in range(self.dice_to_roll())))

    def sample_chance(self, rng: random.Random) -> Roll:
        """The chance outcome now due, drawn from ``rng`` (every game's name for it)."""
        return self.roll_dice(rng)

    def legal_moves(self) -> list[Move]:
        """Every move allowed now (the rolls, at a chance node)."""
        if self.phase is Phase.ACTION:
            return [Pass(), *self._builds(), *self._chaos_discards()]
        if self.phase is Phase.ROLL:
            return [roll for roll, _ in self.chance_outcomes()]
        if self.phase is Phase.DISCARD:
            pile = tuple(self.discards[self.seat])
            moves: list[Move] = []
            for card in sorted(set(self.owed)):
                if can_combine(pile, card, self.book.value):
                    moves.append(Discard(card, True))
                moves.append(Discard(card, False))
            return moves
        return []

    def _builds(self) -> Iterator[Build]:
        last = self.book[self.railway[-1]]
        by_value: dict[int, Counter[str]] = {}
        for name in self.hands[self.seat]:
            card = self.book[name]
            if card.has_rails:
                by_value.setdefault(card.value, Counter())[name] += 1
        for value in sorted(by_value):
            names = by_value[value]
            if build_problem(last, [self.book[next(iter(names))]]) is None:
                yield from (Build(cards) for cards in _arrangements((), names))

    def _chaos_discards(self) -> Iterator[DiscardChaos]:
        chaos = sorted(n for n in self.hands[self.seat] if self.book[n].kind is Kind.CHAOS)
        for size in range(1, len(chaos) + 1):
            for cards in sorted(set(itertools.combinations(chaos, size))):
                yield DiscardChaos(cards)

    # -- making moves ---------------------------------------------------------------------

    def push(self, move: Move) -> Effect:
        """Make ``move``; IllegalMoveError (a ValueError) with the reason if it is not allowed."""
        effect = self._apply(move)
        self.history.append(move)
        return effect

    def pop(self) -> Move:
        """Undo the last move by replaying every move before it from the set-up."""
        if not self.history:
            raise IllegalMoveError("nothing to undo: no move has been made")
        last = self.history[-1]
        replayed = GameState.start(self.setup, self.book)
        for move in self.history[:-1]:
            replayed.push(move)
        self.__dict__.update(replayed.__dict__)
        return last

    def _apply(self, move: Move) -> Effect:
        if self.phase is Phase.OVER:
            raise IllegalMoveError("the game is over")
        expected = {
            Phase.ACTION: (Pass, Build, DiscardChaos),
            Phase.ROLL: (Roll,),
            Phase.DISCARD: (Discard,),
        }[self.phase]
        if not isinstance(move, expected):
            raise IllegalMoveError(f"seat {self.seat} must {self._duty()} now")
        match move:
            case Pass():
                return self._ride(pass_ride(self._railway_cards(), self.train))
            case Build(cards):
                return self._build(cards)
            case DiscardChaos(cards):
                return self._discard_chaos(cards)
            case Roll(faces):
                return self._roll(move, faces)
            case Discard():
                return self._discard(move)

    def _duty(self) -> str:
        if self.phase is Phase.ACTION:
            return "pass, build or discard chaos cards"
        if self.phase is Phase.ROLL:
            return f"roll {self.dice_to_roll()} dice"
        return "put " + ", ".join(self.owed) + " on the discard pile"

    def _check_holds(self, cards: tuple[str, ...]) -> None:
        hand = Counter(self.hands[self.seat])
        for name, count in Counter(cards).items():
            if hand[name] < count:
                raise IllegalMoveError(f"seat {self.seat} does not hold {count} x {name}")

    def _take_from_hand(self, cards: tuple[str, ...]) -> None:
        hand = Counter(self.hands[self.seat])
        hand.subtract(cards)
        self.hands[self.seat] = sorted(hand.elements())

    def _build(self, cards: tuple[str, ...]) -> Effect:
        self._check_holds(cards)
        problem = build_problem(self.book[self.railway[-1]], [self.book[c] for c in cards])
        if problem is not None:
            raise IllegalMoveError(problem)
        self._take_from_hand(cards)
        self.railway.extend(cards)
        self.dice_left = dice_for([self.book[card] for card in cards])
        self.wheels = 0
        self.phase = Phase.ROLL
        return Effect()

    def _discard_chaos(self, cards: tuple[str, ...]) -> Effect:
        if not cards:
            raise IllegalMoveError("discard at least one chaos card")
        self._check_holds(cards)
        for name in cards:
            if self.book.card(name).kind is not Kind.CHAOS:
                raise IllegalMoveError(f"the {name} is not a chaos card")
        self._take_from_hand(cards)
        self.owed = sorted(cards)
        self.phase = Phase.DISCARD
        return Effect()

    def _roll(self, roll: Roll, faces: tuple[Face, ...]) -> Effect:
        if len(faces) != self.dice_to_roll():
            raise IllegalMoveError(f"roll {self.dice_to_roll()} dice, not {len(faces)}")
        self.dice_left -= len(faces)
        self.wheels += roll.wheels
        if self.dice_left:
            return Effect()
        return self._ride(ride(self._railway_cards(), self.train, self.wheels))

    def _ride(self, outcome: Ride) -> Effect:
        self.train = outcome.stop
        taken = penalty_count(self.train, outcome.penalty)
        penalty = tuple(self.railway[:taken])
        del self.railway[:taken]
        self.train -= taken
        self.owed = sorted(penalty)
        self.dice_left = self.wheels = 0
        if self.owed:
            self.phase = Phase.DISCARD
            return Effect(ride=outcome, penalty=penalty)
        return self._end_turn(Effect(ride=outcome, penalty=penalty))

    def _discard(self, move: Discard) -> Effect:
        if move.card not in self.owed:
            raise IllegalMoveError(f"the {move.card} is not owed: put {', '.join(self.owed)}")
        pile = tuple(self.discards[self.seat])
        try:
            self.discards[self.seat] = list(put(pile, move.step, self.book.value))
        except ValueError as error:
            raise IllegalMoveError(str(error)) from None
        if move.combine:
            self.boxed[self.seat].extend((pile[-1], move.card))
        self.owed.remove(move.card)
        return Effect() if self.owed else self._end_turn(Effect())

    def _end_turn(self, effect: Effect) -> Effect:
        if not self.draw_pile:
            self.phase = Phase.OVER
            return Effect(effect.ride, effect.penalty, game_over=True)
        self.seat = (self.seat + 1) % self.setup.seats
        self.turns += 1
        self.phase = Phase.ACTION
        return Effect(effect.ride, effect.penalty, drawn=self._draw())

    def _draw(self) -> str:
        card = self.draw_pile.pop(0)
        self.hands[self.seat] = sorted([*self.hands[self.seat], card])
        return card

    def _railway_cards(self) -> list[RollecateCard]:
        return [self.book[name] for name in self.railway]

    # -- reading the state ----------------------------------------------------------------

    def scores(self) -> Scoring:
        """Each seat's score if the game ended now: discard pile plus hand, no combining."""
        return score_table(
            [
                [self.book.value(name) for name in (*pile, *hand)]
                for pile, hand in zip(self.discards, self.hands, strict=True)
            ]
        )

    def turn_indicator(self) -> TurnIndicator:
        """Whose turn it is (or who won), for the seat LEDs."""
        if self.over:
            winners = frozenset(self.scores().winners)
            return TurnIndicator(self.setup.seats, None, winners=winners)
        return TurnIndicator(self.setup.seats, self.seat)

    def observation(self) -> dict[str, Any]:
        """What the table shows: the referee's observation format (docs/rollecate.md)."""
        return {
            "railway": list(self.railway),
            "train": self.train,
            "discard": [list(pile) for pile in self.discards],
        }

    def cards_in_play(self) -> Counter[str]:
        """Every card accounted for: table, hands, piles, box, draw pile and removed cards."""
        counted = Counter([*self.railway, *self.draw_pile, *self.owed, *self.setup.removed])
        for group in (*self.hands, *self.discards, *self.boxed):
            counted.update(group)
        return counted

    # -- records and JSON -----------------------------------------------------------------

    def record(self) -> list[str]:
        """The game's record as JSON lines: the set-up, then one line per move."""
        lines = [json.dumps({"setup": self.setup.to_json()})]
        lines.extend(json.dumps(move_to_json(move)) for move in self.history)
        return lines

    @classmethod
    def from_record(cls, lines: list[str]) -> GameState:
        """Replay a record made by ``record``."""
        if not lines:
            raise BadInputError("an empty record has no set-up")
        book = default_book()
        try:
            first = json.loads(lines[0])
            state = cls.start(Setup.from_json(first.get("setup"), book), book)
            for number, line in enumerate(lines[1:], start=2):
                try:
                    state.push(move_from_json(json.loads(line)))
                except IllegalMoveError as error:
                    raise BadInputError(f"record line {number}: {error}") from None
        except (json.JSONDecodeError, AttributeError):
            raise BadInputError("a record is one JSON object per line") from None
        return state

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON (``from_json`` gives it back)."""
        return {
            "setup": self.setup.to_json(),
            "railway": list(self.railway),
            "train": self.train,
            "hands": [list(hand) for hand in self.hands],
            "discards": [list(pile) for pile in self.discards],
            "boxed": [list(box) for box in self.boxed],
            "draw_pile": list(self.draw_pile),
            "seat": self.seat,
            "phase": self.phase.value,
            "dice_left": self.dice_left,
            "wheels": self.wheels,
            "owed": list(self.owed),
            "turns": self.turns,
            "history": [move_to_json(move) for move in self.history],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """The state ``to_json`` wrote."""
        book = default_book()
        try:
            return cls(
                setup=Setup.from_json(data["setup"], book),
                railway=list(data["railway"]),
                train=int(data["train"]),
                hands=[list(hand) for hand in data["hands"]],
                discards=[list(pile) for pile in data["discards"]],
                boxed=[list(box) for box in data["boxed"]],
                draw_pile=list(data["draw_pile"]),
                seat=int(data["seat"]),
                phase=Phase(data["phase"]),
                dice_left=int(data["dice_left"]),
                wheels=int(data["wheels"]),
                owed=list(data["owed"]),
                turns=int(data["turns"]),
                history=[move_from_json(move) for move in data["history"]],
                book=book,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise BadInputError(f"not a Rollecate state: {error}") from None


def _arrangements(prefix: tuple[str, ...], names: Counter[str]) -> Iterator[tuple[str, ...]]:
    """Every distinct non-empty sequence of cards drawn from the multiset ``names``."""
    for name in sorted(names):
        if names[name]:
            sequence = (*prefix, name)
            yield sequence
            names[name] -= 1
            yield from _arrangements(sequence, names)
            names[name] += 1
