"""The Rollecate referee at a real table: observations and dice in, one verdict each out.

The referee knows what the table shows (the railway, the train, the discard piles), never the
hands. It recognises each action from the change it sees (a build, a pass, chaos cards on a
discard pile), asks the board for the dice a build needs, works out the ride with the same rule
functions as the engine, tells the player what to do (move the train, take these penalty
cards, put them down in this order) and checks that the table then shows it.

Verdicts (``Verdict.verdict``): ``waiting`` (nothing to judge yet, or a turn half done: the
instructions say what is still to do), ``roll`` (roll ``dice`` dice now), ``move`` (a turn is
complete; ``next`` plays), ``illegal`` (``reason``; the table should be put back) and ``win``
(the final count). The format is public: docs/rollecate.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from host.errors import BadInputError
from host.jsonl import read_json_lines
from host.referee import Verdict as TableVerdict
from host.rollecate.belief import (
    Step,
    World,
    Worlds,
    advance,
    finished_unseen,
    fitting,
    likeliest,
    pruned,
)
from host.rollecate.cards import CardBook, Kind, default_book
from host.rollecate.discard import DiscardAdvice, Pile, advise
from host.rollecate.observation import (
    DiceEvent,
    DoneEvent,
    Event,
    PassEvent,
    Spread,
    TableView,
    parse_event,
)
from host.rollecate.rules import (
    DICE_PER_ROLL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REMOVED_UNSEEN,
    STARTING_HAND,
    Face,
    Ride,
    build_problem,
    dice_for,
    pass_ride,
    penalty_count,
    ride,
)
from host.rollecate.scoring import Scoring, score_seat, score_table
from host.rollecate.words import card_words, cards_words, dice_words, ordinal, plural
from host.turns import TurnIndicator

SPREAD_OUT = ("spread out your discard pile and your hand in front of you for the final count: "
              "every card, none covering another, your pile's place left empty")
"""What the players do at the end: the camera then counts every card."""


class Stage(Enum):
    """What the referee waits for."""

    ACTION = "action"
    """The player on turn has drawn: a pass, a build or chaos cards on the discard pile."""
    ROLL = "roll"
    """A build stands: the dice for its ride."""
    CHAOS = "chaos"
    """Chaos cards are going on the discard pile: more may follow until the seat's button."""
    SETTLE = "settle"
    """The ride or pass is decided: the train, the penalty cards and the discard pile."""
    END = "end"
    """The draw pile is empty: the hands, spread out for the final count."""
    DONE = "done"
    """The game is scored."""


@dataclass(frozen=True)
class Verdict:
    """The referee's answer to one observation or event (one JSON line)."""

    verdict: str
    """``waiting``, ``roll``, ``move``, ``illegal`` or ``win``."""
    seat: int | None
    """The seat whose turn it is (None once the game is over)."""
    next: int | None
    """Who plays next: the same seat until its turn is complete, None at the end."""
    move: Mapping[str, Any] | None = None
    """The action recognised, in the engine's move format (``{"action": "build", ...}``)."""
    dice: int = 0
    """For ``roll``: how many dice to roll now (at most four)."""
    reason: str = ""
    """For ``illegal``: why, in the game's words."""
    instructions: tuple[str, ...] = ()
    """What the players should do now, in order."""
    ride: Mapping[str, Any] | None = None
    """The ride or pass worked out: steps, stop, derailed by, broken tracks, penalty cards."""
    advice: Mapping[str, Any] | None = None
    """The best order to put the owed cards down, and the points it saves."""
    scores: Mapping[str, Any] | None = None
    """For ``win``: the final scoring (as ``conductor score rollecate --json``)."""
    exact: bool | None = None
    """For ``win``: True when the count rests on nothing the referee had to assume."""
    assumed: tuple[Mapping[str, Any], ...] = ()
    """For ``win``: each seat whose count rests on an assumption (``{"seat", "what"}``)."""
    disagree: tuple[Mapping[str, Any], ...] = ()
    """For ``illegal`` at the final count: each seat whose cards disagree with the game the
    referee followed, and how (``{"seat", "what"}``)."""
    accepted: tuple[Mapping[str, Any], ...] = ()
    """For ``win``: the disagreements the players accepted."""

    def to_json(self) -> dict[str, Any]:
        """The verdict as one JSON object, without the fields that do not apply."""
        data: dict[str, Any] = {"verdict": self.verdict, "seat": self.seat, "next_seat": self.next}
        optional = {
            "move": self.move,
            "dice": self.dice,
            "reason": self.reason,
            "instructions": list(self.instructions),
            "ride": self.ride,
            "advice": self.advice,
            "scores": self.scores,
            "assumed": [dict(entry) for entry in self.assumed],
            "disagree": [dict(entry) for entry in self.disagree],
            "accepted": [dict(entry) for entry in self.accepted],
        }
        data.update({key: value for key, value in optional.items() if value})
        if self.exact is not None:
            data["exact"] = self.exact
        return data


@dataclass(frozen=True)
class _Settlement:
    """How the table must end up after a ride or a pass."""

    move: Mapping[str, Any]
    """The action, as the verdicts report it."""
    before: tuple[str, ...]
    """The railway before the ride (with the build)."""
    ride: Ride
    """Where the train goes and what it costs."""
    penalty: tuple[str, ...]
    """The penalty cards to take, from the start of the railway."""
    pile: Pile
    """The player's discard pile before the owed cards go on it."""
    advice: DiscardAdvice
    """The best way to put the penalty cards down."""

    @property
    def railway(self) -> tuple[str, ...]:
        return self.before[len(self.penalty) :]

    @property
    def train(self) -> int:
        return self.ride.stop - len(self.penalty)

    def stages(self) -> list[tuple[tuple[str, ...], int]]:
        """Every (railway, train) the table may show on the way, the finished one last."""
        shown = [(self.before, self.ride.start)]
        for taken in range(len(self.penalty) + 1):
            shown.append((self.before[taken:], self.ride.start - taken))
            shown.append((self.before[taken:], self.ride.stop - taken))
        return shown


@dataclass
class Referee:
    """Judges a real game of Rollecate from what the table shows.

    Make one with ``from_setup`` and change it only through ``feed`` (or ``observe``, ``dice``,
    ``declare_pass``, ``declare_done``); the fields are public to read.
    """

    seats: int
    """How many players."""
    railway: tuple[str, ...]
    """The railway as last confirmed, from its start."""
    train: int
    """The train's position as last confirmed."""
    worlds: Worlds
    """Every way the hidden part of the table (the piles under their tops, the hands' sizes,
    where the chaos cards are) may be, given all the referee has seen."""
    seat: int
    """The seat on turn."""
    draw_left: int
    """Cards left in the draw pile."""
    book: CardBook = field(default_factory=default_book, repr=False)
    """The deck's cards."""
    stage: Stage = Stage.ACTION
    """What the referee waits for."""
    dice_left: int = 0
    """Dice still to roll for the current build."""
    wheels: int = 0
    """Wheels rolled so far for the current build."""
    build: tuple[str, ...] = ()
    """The cards of the current build."""
    settlement: _Settlement | None = None
    """How the table must end up after the current ride or pass."""
    owed: frozenset[Step] = frozenset()
    """During a settlement: every world the player may have reached, with the owed cards
    not yet down."""
    chaos: frozenset[Step] = frozenset()
    """During a chaos discard: every world the views allow (unseen and hands as before it),
    with the chaos cards not yet seen on a pile."""
    guessed: set[int] = field(default_factory=set)
    """Seats whose pile the referee could not follow every way (too many possibilities):
    their final count says it may be wrong."""
    maybe_finished: Worlds | None = None
    """Worlds in which the turn may be finished or half-way: the player's ``done`` decides."""
    winners: tuple[int, ...] = ()
    """The winners, once the game is scored."""
    scoring: Scoring | None = None
    """The final count, once the game is scored."""

    @classmethod
    def from_setup(cls, data: Mapping[str, Any], view: TableView, book: CardBook) -> Referee:
        """The referee for the set-up on a file's first line (``seats``, ``first``, table)."""
        seats, first = data.get("seats"), data.get("first", 0)
        if not isinstance(seats, int) or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            raise BadInputError(f'the first line needs "seats": {MIN_PLAYERS} to {MAX_PLAYERS}')
        if not isinstance(first, int) or not 0 <= first < seats:
            raise BadInputError(f'"first" is a seat from 0 to {seats - 1}')
        if view.railway is None or view.train is None or not view.railway:
            raise BadInputError('the first line shows the starting "railway" and "train"')
        if not 0 <= view.train < len(view.railway):
            raise BadInputError('"train" must be the position of a card of the railway')
        if not all(book.card(name).has_rails for name in view.railway):
            raise BadInputError("the railway holds track cards only")
        deck_size = len(book.full_deck())
        size = deck_size - len(view.railway) - REMOVED_UNSEEN[seats] - STARTING_HAND * seats
        draw = data.get("draw_pile", size)
        if not isinstance(draw, int) or draw < 1:
            raise BadInputError('"draw_pile" is the number of cards in the draw pile')
        piles = tuple(pile or () for pile in (view.discard or (None,) * seats))
        chaos = [name for name in book.full_deck() if book.card(name).kind is Kind.CHAOS]
        unseen = tuple(sorted(name for name in chaos if all(name not in p for p in piles)))
        held = tuple(STARTING_HAND + (seat == first) for seat in range(seats))  # first draws
        world = World(piles, unseen, held)
        return cls(seats, view.railway, view.train, frozenset([world]), first, draw - 1, book)

    # -- what the hidden part most likely is ------------------------------------------------

    @property
    def likely(self) -> World:
        """The likeliest world (see ``belief.likeliest``)."""
        return likeliest(self.worlds, self.book.value)

    @property
    def piles(self) -> list[frozenset[Pile]]:
        """Each seat's discard pile: every pile (bottom first) it may be."""
        return [frozenset(world.piles[seat] for world in self.worlds)
                for seat in range(self.seats)]

    @property
    def held(self) -> tuple[int, ...]:
        """How many cards each seat holds (in the likeliest world)."""
        return self.likely.held

    # -- what the app and the board read --------------------------------------------------

    @property
    def dice_wanted(self) -> int:
        """How many dice the board should roll now (0 if none are due)."""
        return min(self.dice_left, DICE_PER_ROLL) if self.stage is Stage.ROLL else 0

    def turn_indicator(self) -> TurnIndicator:
        """Whose turn it is, for the seat LEDs."""
        on_turn = self.seat if self.stage not in (Stage.END, Stage.DONE) else None
        return TurnIndicator(self.seats, on_turn, winners=frozenset(self.winners))

    def opening(self) -> Verdict:
        """The verdict on the set-up line: who starts."""
        return self._waiting(self._action_prompt())

    # -- judging --------------------------------------------------------------------------

    def feed(self, event: Event) -> Verdict:
        """Judge one observation or event."""
        if self.stage is Stage.DONE:
            if isinstance(event, DoneEvent):  # a button pressed once more: no harm done
                return Verdict("waiting", None, None, instructions=("the game is over",))
            if isinstance(event, TableView) and self._agrees_with_count(event):
                # The camera settling on the counted table (the final line after a button
                # ended a game with nothing to spread): it is the same count.
                return Verdict("waiting", None, None,
                               instructions=("the game is over: the count stands",))
            return self._illegal("the game is over and scored")
        if isinstance(event, DiceEvent):
            return self.dice(event.faces)
        if isinstance(event, PassEvent):
            return self.declare_pass()
        if isinstance(event, DoneEvent):
            return self.declare_done(event.seat)
        return self.observe(event)

    def observe(self, view: TableView) -> Verdict:
        """Judge what the table shows now."""
        spreading = self.stage is Stage.END and view.spread is not None
        problem = None if spreading else self._other_piles_problem(view)
        if problem:
            return self._illegal(problem)
        if view.accepted and (self.stage is not Stage.END or view.spread is None):
            return self._illegal("only a final count spread out can be accepted as it is")
        if self.stage is Stage.END:
            return self._final_count(view)
        if view.spread is not None:
            # Not a count before the end: most likely a railway the camera lost for a moment.
            return self._waiting(("the game is not over: the camera does not see the railway",))
        if view.hands is not None:
            return self._illegal("the game is not over: keep your hands to yourselves")
        if self.stage is Stage.ACTION:
            return self._judge_action(view)
        if self.stage is Stage.CHAOS:
            return self._judge_chaos(view)
        if self.stage is Stage.ROLL:
            if self._shows(view, self.railway, self.train):
                return self._roll_prompt()
            return self._illegal(
                f"roll the dice first ({self.dice_wanted} now); the table should still show "
                "the build"
            )
        assert self.settlement is not None  # Stage.SETTLE always has one
        return self._judge_settlement(view, self.settlement)

    def dice(self, faces: tuple[Face, ...]) -> Verdict:
        """Take a roll of the dice (from the board, or typed in)."""
        if self.stage is not Stage.ROLL:
            return self._illegal("no dice are due now")
        if len(faces) != self.dice_wanted:
            return self._illegal(f"roll {self.dice_wanted} dice, not {len(faces)}")
        self.dice_left -= len(faces)
        self.wheels += sum(face is Face.WHEEL for face in faces)
        if self.dice_left:
            return self._roll_prompt()
        outcome = ride([self.book[name] for name in self.railway], self.train, self.wheels)
        move = {"action": "build", "cards": list(self.build), "wheels": self.wheels}
        return self._settle(move, outcome)

    def declare_pass(self) -> Verdict:
        """The player on turn passes (said out loud, by a button or typed in)."""
        if self.stage is not Stage.ACTION:
            return self._illegal("a pass is only possible instead of a build or chaos discard")
        outcome = pass_ride([self.book[name] for name in self.railway], self.train)
        return self._settle({"action": "pass"}, outcome)

    def declare_done(self, seat: int | None = None) -> Verdict:
        """A player says their turn is complete (the seat's button; None: the seat on turn).

        Another seat's press changes nothing: most often it is the last player's, pressed
        after the referee had already seen their turn complete.
        """
        if seat is not None and seat != self.seat and self.stage is not Stage.END:
            return self._waiting(self._action_prompt())
        if self.stage is Stage.ACTION:
            return self._unseen_chaos_discard() or self._waiting(self._action_prompt())
        if self.stage is Stage.END:
            # With every hand empty and every pile known, there is nothing the spread could
            # tell: the button ends the game. Otherwise the count waits for the spread.
            empty = all(not any(world.held) for world in self.worlds)
            hands = tuple(() for _ in range(self.seats)) if empty else None
            counted = self._count(TableView(None, None, None, hands))
            if isinstance(counted, Verdict) or counted[1]:
                return self._waiting((SPREAD_OUT,))
            return self._win(counted[0], (), ())
        if self.stage is Stage.CHAOS:
            return self._end_chaos()
        if self.stage is Stage.SETTLE and self.maybe_finished is not None:
            assert self.settlement is not None  # Stage.SETTLE always has one
            return self._finish(self.settlement, self.maybe_finished)
        return self._illegal("the turn is not complete yet")

    # -- the three actions ----------------------------------------------------------------

    def _judge_action(self, view: TableView) -> Verdict:
        railway = view.railway if view.railway is not None else self.railway
        train = view.train if view.train is not None else self.train
        pile_view = view.discard[self.seat] if view.discard is not None else None
        if railway == self.railway and train == self.train:
            if pile_view is None:
                return self._waiting(self._action_prompt())
            narrowed = fitting(self.worlds, self.seat, pile_view)
            if narrowed:
                self.worlds = narrowed
                return self._waiting(self._action_prompt())
            return self._chaos_discard(pile_view)
        if railway[: len(self.railway)] == self.railway and train == self.train:
            if pile_view is not None and not fitting(self.worlds, self.seat, pile_view):
                return self._illegal("build or discard, not both: one action per turn")
            return self._build(railway[len(self.railway) :])
        outcome = pass_ride([self.book[name] for name in self.railway], self.train)
        settlement = self._settlement({"action": "pass"}, outcome)
        if (railway, train) in settlement.stages():
            self._begin_settlement(settlement)
            return self._judge_settlement(view, settlement)
        return self._illegal(
            "the railway changed in a way no action explains; "
            f"it should show {self._describe(self.railway, self.train)}"
        )

    def _build(self, added: tuple[str, ...]) -> Verdict:
        cards = [self.book[name] for name in added]
        problem = build_problem(self.book[self.railway[-1]], cards)
        if problem is None:
            problem = self._impossible_cards([*self.railway, *added, *self._on_every_pile()])
        able = frozenset(world for world in self.worlds if world.held[self.seat] >= len(added))
        if problem is None and not able:
            most = max(world.held[self.seat] for world in self.worlds)
            problem = f"seat {self.seat} holds only {plural(most, 'card')}"
        if problem is not None:
            return self._illegal(problem, ("take the cards back into your hand",))
        self.railway = (*self.railway, *added)
        self.worlds = frozenset(world.with_held(self.seat, -len(added)) for world in able)
        self.build = added
        self.dice_left, self.wheels = dice_for(cards), 0
        self.stage = Stage.ROLL
        return self._roll_prompt(move={"action": "build", "cards": list(added)})

    def _chaos_discard(self, pile_view: tuple[str, ...]) -> Verdict:
        before = self.worlds
        self.chaos = frozenset((world, world.unseen) for world in self.worlds)
        verdict = self._explain_chaos(pile_view)
        if verdict.verdict == "illegal":
            self.worlds, self.chaos = before, frozenset()
            return verdict
        if any(world.held[self.seat] and world.unseen for world in self.worlds):
            # A camera may see the first chaos card before the next goes down.
            self.stage = Stage.CHAOS
            return verdict
        return self._end_chaos()

    def _unseen_chaos_discard(self) -> Verdict | None:
        """The turn, when the player says it is over though the table looks unchanged: chaos
        cards that combined away leave the pile's top as it was (a pile of two 3s and a chaos
        3 shows a 3 before and after). None if no chaos discard can look like that."""
        tops = {world.piles[self.seat][-1:] for world in self.worlds}
        if len(tops) != 1:
            return None
        verdict = self._chaos_discard(next(iter(tops)))
        if verdict.verdict == "illegal":
            return None
        return self._end_chaos() if self.stage is Stage.CHAOS else verdict

    def _judge_chaos(self, view: TableView) -> Verdict:
        if (view.railway or self.railway) != self.railway or (
            view.train if view.train is not None else self.train
        ) != self.train:
            return self._illegal(
                f"seat {self.seat} is discarding chaos cards: press your button when done"
            )
        pile_view = view.discard[self.seat] if view.discard is not None else None
        if pile_view is None:
            return self._waiting(self._chaos_prompt())
        return self._explain_chaos(pile_view)

    def _explain_chaos(self, pile_view: tuple[str, ...]) -> Verdict:
        """Every way the chaos cards may have gone down, from all views of the pile since the
        discard began (the hands at the end tell the rest)."""
        seat = self.seat
        steps = self._discarding(self._followed(advance(self.chaos, seat, pile_view,
                                                        self.book.value)))
        if not steps and self.guessed:
            # Some ways were let go earlier (``guessed``): the truth may be among them, with a
            # chaos card this view shows still in a hand. The pile is as it shows.
            shown = [self._as_shown(world, pile_view) for world, _ in self.chaos]
            steps = self._discarding(step for step, _ in shown)
            self.guessed.update(other for step, changed in shown if step in steps
                                for other in changed)
        if not steps:
            return self._illegal(
                f"seat {seat}'s discard pile cannot show that: in this turn only chaos "
                "cards may go on it (and only when there is no build or pass)"
            )
        self.chaos = steps
        self.worlds = self._keep(
            replace(world, unseen=left).with_held(seat, len(left) - len(world.unseen))
            for world, left in steps
        )
        return self._waiting(self._chaos_prompt())

    def _discarding(self, steps: Iterable[Step]) -> frozenset[Step]:
        """The ``steps`` in which the seat on turn put down at least one chaos card, and no
        more than it holds."""
        return frozenset((world, left) for world, left in steps
                         if 0 < len(world.unseen) - len(left) <= world.held[self.seat])

    def _as_shown(self, world: World, pile_view: Pile) -> tuple[Step, set[int]]:
        """``world`` with the seat on turn's pile as ``pile_view`` shows it, the chaos cards
        there that its pile did not hold just put down from the hand: taken out of any other
        pile the world had guessed them on, and the step's cards still to go without them;
        with the seats whose piles it changed (to be marked guessed)."""
        def chaos(pile: Pile) -> Counter[str]:
            return Counter(name for name in pile if self.book[name].kind is Kind.CHAOS)

        put = chaos(pile_view) - chaos(world.piles[self.seat])
        misplaced = put - Counter(world.unseen)
        piles = list(world.piles)
        changed = {self.seat}
        for other, pile in enumerate(piles):
            kept = []
            for name in pile:
                if other != self.seat and misplaced[name]:
                    misplaced[name] -= 1
                    changed.add(other)
                else:
                    kept.append(name)
            piles[other] = tuple(kept)
        piles[self.seat] = pile_view
        unseen = Counter(world.unseen) | put
        left = unseen - put
        return ((World(tuple(piles), tuple(sorted(unseen.elements())), world.held),
                 tuple(sorted(left.elements()))), changed)

    def _chaos_prompt(self) -> tuple[str, ...]:
        return (f"seat {self.seat}: put down any more chaos cards, then press your button",)

    def _end_chaos(self) -> Verdict:
        # The verdict names the fewest chaos cards that explain the table.
        world, left = max(self.chaos, key=lambda step: (len(step[1]), step[1], step[0]))
        discarded = sorted((Counter(world.unseen) - Counter(left)).elements())
        self.chaos = frozenset()
        return self._end_turn({"action": "discard-chaos", "cards": discarded}, ())

    # -- rides, penalty cards and discarding ----------------------------------------------

    def _settlement(self, move: Mapping[str, Any], outcome: Ride) -> _Settlement:
        taken = penalty_count(outcome.stop, outcome.penalty)
        penalty = self.railway[:taken]
        pile = self.likely.piles[self.seat]
        return _Settlement(
            move, self.railway, outcome, penalty, pile, advise(pile, penalty, self.book.value)
        )

    def _settle(self, move: Mapping[str, Any], outcome: Ride) -> Verdict:
        settlement = self._settlement(move, outcome)
        self._begin_settlement(settlement)
        if settlement.train == self.train and not settlement.penalty:
            return self._finish(settlement, self.worlds)
        return self._waiting(self._settle_instructions(settlement), settlement)

    def _judge_settlement(self, view: TableView, settlement: _Settlement) -> Verdict:
        railway = view.railway if view.railway is not None else settlement.railway
        train = view.train if view.train is not None else settlement.train
        if (railway, train) not in settlement.stages():
            return self._illegal(
                f"the table should show {self._describe(settlement.railway, settlement.train)}",
                self._settle_instructions(settlement),
            )
        pile_view = view.discard[self.seat] if view.discard is not None else None
        done = (railway, train) == (settlement.railway, settlement.train)
        if pile_view is None:
            # The pile cannot be seen: cards may still be going down. The seat's button (or a
            # view of the pile) says when they are; then it holds the owed cards put down in
            # any way the rules allow, and later views of it tell which.
            if done:
                self.maybe_finished = finished_unseen(self.owed, self.seat, self.book.value)
                said = (*self._settle_instructions(settlement), "press your button when done")
                return self._waiting(said, settlement)
            return self._waiting(self._settle_instructions(settlement), settlement)
        value = self.book.value
        # Any number of cards may have gone down since the last view (a player faster than
        # the camera): following only a few would silently lose the table as it is.
        states = self._followed(advance(self.owed, self.seat, pile_view, value))
        if not states:
            # Some way was let go that this view needed: explain the pile from the start of the
            # discard, all at once, in every world (``worlds`` still holds the piles as they
            # were before the discard).
            self.guessed.add(self.seat)
            owed = tuple(sorted(settlement.penalty))
            states = self._followed(advance([(world, owed) for world in self.worlds], self.seat,
                                            pile_view, value))
        if not states and self.seat in self.guessed:
            # A pile the referee could not follow every way: it is as it shows.
            states = frozenset((world.with_pile(self.seat, pile_view), ())
                               for world in self.worlds)
        if not states:
            return self._illegal(
                f"seat {self.seat}'s discard pile cannot show that: put down "
                f"{cards_words(settlement.penalty, self.book) or 'nothing'}, combining only "
                "cards of equal value",
                self._settle_instructions(settlement),
            )
        self.owed = states
        finished = frozenset(world for world, left in states if not left)
        self.maybe_finished = None
        if finished and done:
            if all(not left for _, left in states):
                return self._finish(settlement, finished)
            # The same pile shows half-way too (owed cards that pair up among themselves leave
            # no trace; a camera sees only the top card): only the player can say the turn is
            # complete.
            self.maybe_finished = finished
            said = (*self._settle_instructions(settlement), "press your button when done")
            return self._waiting(said, settlement)
        return self._waiting(self._settle_instructions(settlement), settlement)

    def _begin_settlement(self, settlement: _Settlement) -> None:
        self.stage, self.settlement = Stage.SETTLE, settlement
        owed = tuple(sorted(settlement.penalty))
        self.owed = frozenset((world, owed) for world in self.worlds)

    def _finish(self, settlement: _Settlement, worlds: Worlds) -> Verdict:
        self.railway, self.train = settlement.railway, settlement.train
        self.worlds = self._keep(worlds)
        return self._end_turn(settlement.move, self._settle_instructions(settlement))

    def _settle_instructions(self, settlement: _Settlement) -> tuple[str, ...]:
        outcome = settlement.ride
        said: list[str] = []
        if outcome.derailed:
            said.append(
                f"Rollecate derailed ({plural(outcome.missed, 'step')} short): "
                "put her on the last card"
            )
        elif outcome.stop != outcome.start:
            there = card_words(settlement.before[outcome.stop], self.book)
            said.append(
                f"Rollecate rides {plural(outcome.stop - outcome.start, 'card')}: put her on the "
                f"{ordinal(outcome.stop + 1)} card ({there})"
            )
        elif settlement.move.get("action") == "build":
            said.append("no wheels: Rollecate stays where she is")
        if outcome.broken:
            said.append(
                f"she passed or stopped on {plural(len(outcome.broken), 'broken track')}: "
                f"{plural(len(outcome.broken), 'penalty card')} for the repairs"
            )
        penalty = settlement.penalty
        if penalty:
            said.append(
                f"take {plural(len(penalty), 'penalty card')}: "
                f"{cards_words(penalty, self.book)} at the start of the railway"
            )
        if outcome.penalty > len(penalty):
            short = outcome.penalty - len(penalty)
            said.append(
                f"{plural(short, 'penalty card')} cannot be taken: never the card Rollecate "
                "stands on"
            )
        if penalty:
            said.append(self._advice_words(settlement.advice))
        return tuple(said)

    def _advice_words(self, advice: DiscardAdvice) -> str:
        steps = [
            card_words(step.card, self.book) + (" (combine)" if step.combine else "")
            for step in advice.steps
        ]
        saved = f"saves {plural(advice.points_saved, 'point')}"
        return f"put them on your discard pile in this order: {', '.join(steps)}; {saved}"

    # -- turns and the end ----------------------------------------------------------------

    def _end_turn(self, move: Mapping[str, Any], said: tuple[str, ...]) -> Verdict:
        seat = self.seat
        move = {**move, "text": self._move_text(seat, move)}
        self.stage, self.settlement, self.build = Stage.ACTION, None, ()
        self.maybe_finished, self.owed = None, frozenset()
        if self.draw_left == 0:
            self.stage = Stage.END
            said = (*said, f"the draw pile is empty: the game is over; {SPREAD_OUT}")
            return Verdict("move", seat, None, move=move, instructions=said)
        self.seat = (self.seat + 1) % self.seats
        self.draw_left -= 1
        self.worlds = frozenset(world.with_held(self.seat, 1) for world in self.worlds)
        said = (*said, *self._action_prompt())
        return Verdict("move", seat, self.seat, move=move, instructions=said)

    def _move_text(self, seat: int, move: Mapping[str, Any]) -> str:
        """The turn in a few words, for the game's log."""
        action = move.get("action")
        if action == "build":
            cards = cards_words(move.get("cards", []), self.book)
            return f"seat {seat} built {cards}: {plural(move.get('wheels', 0), 'wheel')}"
        if action == "discard-chaos":
            return f"seat {seat} discarded {cards_words(move.get('cards', []), self.book)}"
        return f"seat {seat} passed"

    def _final_count(self, view: TableView) -> Verdict:
        counted = self._count(view)
        if isinstance(counted, Verdict) and counted.disagree and view.accepted:
            # The players accept the table as it is: every card was seen, so the count is
            # exact; the win says what they accepted.
            assert view.spread is not None  # only a spread is disputed
            cards = tuple(tuple(name for name in shown if name is not None)
                          for shown in view.spread if shown is not None)
            return self._win(self._scoring(cards), (), counted.disagree)
        if isinstance(counted, Verdict):
            return counted
        scoring, assumed = counted
        return self._win(scoring, tuple(assumed), ())

    def _win(self, scoring: Scoring, assumed: tuple[Mapping[str, Any], ...],
             accepted: tuple[Mapping[str, Any], ...]) -> Verdict:
        self.stage, self.winners, self.scoring = Stage.DONE, scoring.winners, scoring
        winners = " and ".join(f"seat {seat}" for seat in scoring.winners)
        said = (f"{winners} won", *(entry["what"] for entry in assumed),
                *(f"accepted: {entry['what']}" for entry in accepted))
        return Verdict("win", None, None, scores=scoring.to_json(), instructions=said,
                       exact=not assumed, assumed=assumed, accepted=accepted)

    def _scoring(self, seats: Iterable[Iterable[str]]) -> Scoring:
        return score_table([[self.book.value(name) for name in cards] for cards in seats])

    def _count(self, view: TableView) -> tuple[Scoring, list[dict[str, Any]]] | Verdict:
        """The final count the table shows, and what it had to assume seat by seat (a verdict
        instead when the table cannot be counted yet)."""
        if view.spread is not None:
            return self._count_spread(view.spread)
        hands = view.hands
        if hands is None and all(not any(world.held) and not any(world.piles)
                                 for world in self.worlds):
            hands = tuple(() for _ in range(self.seats))  # nothing to spread: all is seen
        if hands is None:
            return self._waiting((SPREAD_OUT,))
        # The hands settle what the camera could not see: how many cards each seat kept, and
        # which chaos cards never went on a pile.
        in_hands = Counter(name for hand in hands for name in hand
                           if self.book.card(name).kind is Kind.CHAOS)
        worlds = frozenset(
            world for world in self.worlds
            if world.held == tuple(len(hand) for hand in hands)
            and not in_hands - Counter(world.unseen)
        )
        likely = likeliest(worlds or self.worlds, self.book.value)
        problem = self._impossible_cards(
            [*self.railway, *(card for group in (*likely.piles, *hands) for card in group)]
        )
        for seat, hand in enumerate(hands):
            if len(hand) != likely.held[seat] and not problem:
                should = plural(likely.held[seat], "card")
                problem = f"seat {seat} should hold {should}, not {len(hand)}"
        if problem or not worlds:
            return self._illegal(problem or "a chaos card in a hand was seen on a discard pile")
        scoring = score_table(
            [
                [self.book.value(name) for name in (*pile, *hand)]
                for pile, hand in zip(likely.piles, hands, strict=True)
            ]
        )
        assumed: list[dict[str, Any]] = []
        for seat, pile in enumerate(likely.piles):
            keys = {score_seat(seat, [self.book.value(name) for name in world.piles[seat]]).key
                    for world in worlds}
            if len(keys) > 1 or seat in self.guessed:
                # Never a silent guess: say what was assumed, so the players can check it.
                assumed.append({"seat": seat, "what": (
                    f"the camera did not see all of seat {seat}'s discard pile: counted as "
                    f"{cards_words(pile, self.book) or 'empty'} ({self._total(pile)} points)")})
        return scoring, assumed

    def _count_spread(self, spread: Spread) -> tuple[Scoring, list[dict[str, Any]]] | Verdict:
        """The count of every card spread out, once it is read in full and agrees with the game
        followed (else a verdict: waiting for a clearer view, or the disagreement)."""
        unread = [seat for seat, cards in enumerate(spread) if cards is None or None in cards]
        if unread:
            seats = " and ".join(f"seat {seat}" for seat in unread)
            return self._waiting((f"the camera cannot read every card of {seats}: spread them "
                                  "so none covers another",))
        cards = tuple(tuple(name for name in shown if name is not None)
                      for shown in spread if shown is not None)
        disagree = self._spread_problems(cards)
        if disagree:
            return Verdict(
                "illegal", None, None, reason="; ".join(entry["what"] for entry in disagree),
                instructions=("put the cards right, or accept the table as it is",),
                disagree=tuple(disagree))
        return self._scoring(cards), []

    def _spread_problems(self, spread: tuple[tuple[str, ...], ...]) -> list[dict[str, Any]]:
        """How the spread cards disagree with every world the referee followed (none if one
        agrees), seat by seat, in the players' words."""
        table = [*self.railway, *(name for cards in spread for name in cards)]
        over = self._over_copies(table)
        if over:
            name, copies = over
            seats = [seat for seat, cards in enumerate(spread) if name in cards]
            return [{"seat": seat, "what": f"seat {seat} shows {card_words(name, self.book)}: "
                     f"{copies}"} for seat in seats]
        worlds = sorted(self.worlds)
        if any(self._spread_fits(world, spread, range(self.seats)) for world in worlds):
            return []
        problems = []
        for seat, cards in enumerate(spread):
            if any(self._spread_fits(world, spread, (seat,)) for world in worlds):
                continue
            problems.append({"seat": seat, "what": self._spread_words(seat, cards, worlds)})
        return problems or [{"seat": None, "what": "the seats' cards do not fit together: "
                             "a chaos card shown twice, or one that lies on a pile"}]

    def _spread_fits(self, world: World, spread: tuple[tuple[str, ...], ...],
                     seats: Iterable[int]) -> bool:
        """True if ``seats``' spread cards are their piles in ``world`` and a hand of the size
        the world has, with no chaos card that lies on a pile. A seat whose pile could not be
        followed every way is taken as it shows."""
        in_hands: Counter[str] = Counter()
        for seat in seats:
            if seat in self.guessed:
                continue
            shown, pile = Counter(spread[seat]), Counter(world.piles[seat])
            if pile - shown or len(spread[seat]) != len(world.piles[seat]) + world.held[seat]:
                return False
            in_hands += Counter(name for name in (shown - pile).elements()
                                if self.book.card(name).kind is Kind.CHAOS)
        # Where a pile was let go, which chaos cards lie on the piles is not sure either.
        return bool(self.guessed) or not in_hands - Counter(world.unseen)

    def _spread_words(self, seat: int, cards: tuple[str, ...], worlds: list[World]) -> str:
        """How one seat's cards disagree with the likeliest way its pile and hand can be."""
        shown = Counter(cards)

        def distance(world: World) -> int:
            missing = sum((Counter(world.piles[seat]) - shown).values())
            return missing + abs(len(cards) - len(world.piles[seat]) - world.held[seat])

        world = min(worlds, key=distance)
        missing = sorted((Counter(world.piles[seat]) - shown).elements())
        should = len(world.piles[seat]) + world.held[seat]
        if missing:
            return (f"seat {seat}'s spread lacks {cards_words(missing, self.book)} that its "
                    f"discard pile holds")
        if len(cards) != should:
            return (f"seat {seat} shows {plural(len(cards), 'card')}; its discard pile and hand "
                    f"hold {should}")
        extra = sorted(name for name in (shown - Counter(world.piles[seat])).elements()
                       if self.book.card(name).kind is Kind.CHAOS
                       and name not in world.unseen)
        return (f"seat {seat} shows {cards_words(extra, self.book)} that its pile and hand "
                "could not hold: it lies on another discard pile")

    def _agrees_with_count(self, view: TableView) -> bool:
        """True if a table seen after the game was scored shows the same count."""
        counted = self._count(view)
        return not isinstance(counted, Verdict) and counted[0] == self.scoring

    # -- helpers --------------------------------------------------------------------------

    def _action_prompt(self) -> tuple[str, ...]:
        return (f"seat {self.seat}: draw a card, then pass, build or discard chaos cards",)

    def _roll_prompt(self, move: Mapping[str, Any] | None = None) -> Verdict:
        return Verdict(
            "roll",
            self.seat,
            self.seat,
            move=move,
            dice=self.dice_wanted,
            instructions=(f"roll {dice_words(self.dice_wanted)} ({self.dice_left} still to roll)",),
        )

    def _waiting(self, said: tuple[str, ...], settlement: _Settlement | None = None) -> Verdict:
        if settlement is None:
            return Verdict("waiting", self.seat, self.seat, instructions=said)
        outcome = settlement.ride
        ride_json = {
            "from": outcome.start,
            "to": outcome.stop,
            "steps": outcome.steps,
            "derailed_by": outcome.missed,
            "broken_tracks": list(outcome.broken),
            "penalty_cards": list(settlement.penalty),
        }
        advice = {
            "order": [{"card": s.card, "combine": s.combine} for s in settlement.advice.steps],
            "points_saved": settlement.advice.points_saved,
        }
        return Verdict(
            "waiting",
            self.seat,
            self.seat,
            move=settlement.move,
            instructions=said,
            ride=ride_json,
            advice=advice if settlement.penalty else None,
        )

    def _illegal(self, reason: str, said: tuple[str, ...] = ()) -> Verdict:
        on_turn = self.seat if self.stage not in (Stage.END, Stage.DONE) else None
        return Verdict("illegal", on_turn, on_turn, reason=reason, instructions=said)

    def _followed(self, advanced: tuple[frozenset[Step], bool]) -> frozenset[Step]:
        """The steps ``advance`` found; when it had to let some go, every seat whose piles
        differ among them is marked as guessed (the let go may have been the truth)."""
        steps, every = advanced
        if not every:
            for seat in range(self.seats):
                if len({world.piles[seat] for world, _ in steps}) > 1:
                    self.guessed.add(seat)
            self.guessed.add(self.seat)
        return steps

    def _keep(self, worlds: Iterable[World]) -> Worlds:
        """The worlds the referee can afford to keep; seats whose piles differ among the
        worlds let go are marked as guessed, so the final count says so."""
        every = frozenset(worlds)
        kept = pruned(every, self.book.value)
        if len(kept) < len(every):
            for seat in range(self.seats):
                if len({world.piles[seat] for world in every}) > 1:
                    self.guessed.add(seat)
        return kept

    def _shows(self, view: TableView, railway: tuple[str, ...], train: int) -> bool:
        pile_view = view.discard[self.seat] if view.discard is not None else None
        return (
            (view.railway is None or view.railway == railway)
            and (view.train is None or view.train == train)
            and (pile_view is None or bool(fitting(self.worlds, self.seat, pile_view)))
        )

    def _other_piles_problem(self, view: TableView) -> str | None:
        """Why the other seats' piles cannot show what they show; each view of them narrows
        what the referee believes they hold."""
        if view.discard is None:
            return None
        for seat, shown in enumerate(view.discard):
            if seat == self.seat or shown is None:
                continue
            narrowed = fitting(self.worlds, seat, shown)
            if not narrowed and seat in self.guessed:
                # A pile the referee could not follow every way: it is as it shows.
                narrowed = frozenset(world.with_pile(seat, shown) for world in self.worlds)
            if not narrowed:
                return f"seat {seat}'s discard pile changed, but it is seat {self.seat}'s turn"
            self.worlds = narrowed
        return None

    def _on_every_pile(self) -> list[str]:
        """The cards every world has on the discard piles: cards the table shows (each pile's
        top, and what lies under it as far as the referee is sure)."""
        sure: list[str] = []
        for seat in range(self.seats):
            piles = iter({world.piles[seat] for world in self.worlds})
            common = Counter(next(piles, ()))
            for pile in piles:
                common &= Counter(pile)
            sure.extend(common.elements())
        return sure

    def _impossible_cards(self, cards: list[str]) -> str | None:
        over = self._over_copies(cards)
        return None if over is None else over[1]

    def _over_copies(self, cards: list[str]) -> tuple[str, str] | None:
        """The first card the table shows more copies of than the deck has, and why."""
        in_deck = Counter(self.book.full_deck())
        for name, count in sorted(Counter(cards).items()):
            if count > in_deck[name]:
                return name, f"the table shows {count} x {name}; the deck has {in_deck[name]}"
        return None

    def _total(self, pile: Pile) -> int:
        return sum(self.book.value(name) for name in pile)

    def _describe(self, railway: tuple[str, ...], train: int) -> str:
        return (
            f"Rollecate on the {ordinal(train + 1)} card of {len(railway)} "
            f"(from the start: {', '.join(str(self.book.value(n)) for n in railway)})"
        )


class LineReferee:
    """The referee as the app sees every game's (``host.referee.TableReferee``): JSON lines in,
    verdicts out."""

    def __init__(self, opening: Mapping[str, Any], book: CardBook | None = None) -> None:
        self.book = book or default_book()
        seats = opening.get("seats")
        # The set-up's piles and hands are checked against its own seat count.
        view = parse_event(opening, self.book, seats if type(seats) is int else None)
        if not isinstance(view, TableView) or "seats" not in opening:
            raise BadInputError('the first line carries "seats", "first" and the set-up')
        self.referee = Referee.from_setup(opening, view, self.book)

    def opening(self) -> TableVerdict:
        """The verdict on the set-up line."""
        return TableVerdict.of(self.referee.opening().to_json())

    def feed(self, line: Mapping[str, Any]) -> TableVerdict:
        """Judge one observation or event line."""
        event = parse_event(line, self.book, self.referee.seats)
        return TableVerdict.of(self.referee.feed(event).to_json())

    def turn_indicator(self) -> TurnIndicator:
        """Whose turn it is, for the seat LEDs."""
        return self.referee.turn_indicator()

    @property
    def dice_wanted(self) -> int:
        """How many dice the board should roll now (0 if none are due)."""
        return self.referee.dice_wanted

    def table(self) -> dict[str, Any]:
        """The table as last confirmed, for the web view: the railway (the train on its
        ``train``-th card) and each seat's pile (top card last) and hand size."""
        referee, book = self.referee, self.book
        likely = referee.likely

        def drawn(name: str) -> dict[str, Any]:
            card = book.card(name)
            return {"name": name, "value": card.value, "kind": card.kind.value}

        return {
            "kind": "rollecate",
            "railway": [drawn(name) for name in referee.railway],
            "train": referee.train,
            "seats": [
                {"seat": seat, "discard": [drawn(name) for name in pile], "held": held}
                for seat, (pile, held) in enumerate(zip(likely.piles, likely.held, strict=True))
            ],
            "draw_pile": referee.draw_left,
            "stage": referee.stage.value,
        }


def open_referee(opening: dict[str, Any]) -> LineReferee:
    """A referee for the table described by a game's first line."""
    return LineReferee(opening)


def judge_file(path: Path) -> list[dict[str, Any]]:
    """Judge every line of a referee file; BadInputError (with the line) if one is malformed."""
    verdicts: list[dict[str, Any]] = []
    referee: LineReferee | None = None
    for number, data in read_json_lines(path):
        try:
            if referee is None:
                referee = LineReferee(data)
                verdicts.append(referee.opening().to_json())
            else:
                verdicts.append(referee.feed(data).to_json())
        except BadInputError as error:
            raise BadInputError(f"{path}:{number}: {error}") from None
    return verdicts
