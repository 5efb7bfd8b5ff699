"""The rules of Train Line Chicago: boarding, the aisle, seats, action cards, the win.

Pure rules: no I/O, no clock. The only chance is the shuffle of the two decks (in the set-up,
made by an injected ``random.Random``) and the boarding die, rolled after every ``Board`` move:
a chance node, whose outcome (``BoardingDie``) the physical board rolls.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations
from typing import Any

from host.engine import TurnBasedGame
from host.errors import BadInputError
from host.trainline.cards import (
    ADVANCED_MOTION,
    ECCENTRIC,
    ENTER_1X,
    ENTER_2X,
    EXCUSE_ME,
    EXIT_1X,
    EXIT_2X,
    EXPRESS,
    PAN_HANDLER,
    PASS_CARDS,
    PLUS_DISCARD,
    REBEL,
    REVERSE,
    TAKE_A_SEAT,
    U_PASS,
    TrainlineCards,
    standard_cards,
)
from host.trainline.moves import (
    MOVE_CODEC,
    Accept,
    Attack,
    Board,
    BoardingDie,
    Cell,
    Eccentric,
    EndTurn,
    Enter,
    Exit,
    Move,
    MoveAlong,
    PanHandle,
    PlayExpress,
    PlayReverse,
    PlusDiscard,
    Rebel,
    TakeSeat,
    UsePass,
    UseToken,
    moves_from_json,
)
from host.trainline.tiles import Layout, Space, default_layout
from host.turn_order import TurnOrder

#: Pawns per player, by number of players.
PAWNS = {2: 12, 3: 10, 4: 8}
#: Cards held after every turn (PRODUCT.md ruling: 2 number cards and 3 action cards).
NUMBER_HAND = 2
ACTION_HAND = 3
DISCARD_TOKENS = 3
#: The boarding die (ruling: its faces are not in our text): 4 open-doors faces, 2 closed. The
#: board's `doors` die (firmware/dice.py) rolls the same; tests/test_board_doors.py checks it.
BOARDING_DIE = (True, True, True, True, False, False)
#: Ruling: a pawn whose owner could not move it for this many turns in a row is blocked; from
#: the next such turn on, each blocking player loses one seated pawn per turn.
BLOCKED_TURNS_ALLOWED = 2
#: Ruling: one boarding (die or U-Pass) per turn.
BOARDINGS_PER_TURN = 1


def roll_boarding_die(rng: random.Random) -> bool:
    """A roll of the boarding die: True for open doors."""
    return rng.choice(BOARDING_DIE)



class Phase(Enum):
    """Where the game stands."""

    MAIN = "main"
    BOARDING = "boarding"
    """A pawn stands at the doors: the boarding die is due (a chance node)."""
    RESPONSE = "response"
    OVER = "over"


@dataclass
class Player:
    """One player's cards and pawns (mutable engine state)."""

    numbers: list[str]
    actions: list[str]
    supply: int
    tokens: int = DISCARD_TOKENS
    missed: Cell | None = None
    aisle: Cell | None = None
    seated: list[Cell] = field(default_factory=list)
    blocked_turns: int = 0

    def off_train(self) -> int:
        """Pawns not on the train (in the supply or on the missed-train space)."""
        return self.supply + (self.missed is not None)


@dataclass(frozen=True)
class Setup:
    """How a game started: everything needed to replay its record."""

    players: int
    """How many players (2-4)."""
    first: int
    """The seat that plays first (the pointiest ears)."""
    numbers: tuple[str, ...]
    """The shuffled number deck, top first."""
    actions: tuple[str, ...]
    """The shuffled action deck, top first."""


class TrainlineGame(TurnBasedGame[Move]):
    """A game of Train Line Chicago: legal moves, push/pop, turn indicator, the win."""

    name = "trainline"
    codec = MOVE_CODEC

    def __init__(
        self, setup: Setup, layout: Layout | None = None, cards: TrainlineCards | None = None
    ) -> None:
        self.cards = cards or standard_cards()
        self.layout = layout or default_layout()
        if setup.players not in PAWNS:
            raise BadInputError(f"Train Line Chicago is for {min(PAWNS)}-{max(PAWNS)} players")
        if not 0 <= setup.first < setup.players:
            raise BadInputError(f"no seat {setup.first} to play first")
        if Counter(setup.numbers) != Counter(self.cards.number_deck()) or Counter(
            setup.actions
        ) != Counter(self.cards.action_deck()):
            raise BadInputError("the set-up's decks are not the Train Line decks")
        self.setup = setup
        self.record: list[Move] = []
        self._start()

    @classmethod
    def new(cls, players: int, rng: random.Random, first: int = 0) -> TrainlineGame:
        """A freshly shuffled and dealt game."""
        cards = standard_cards()
        numbers, actions = cards.number_deck(), cards.action_deck()
        rng.shuffle(numbers)
        rng.shuffle(actions)
        return cls(Setup(players, first, tuple(numbers), tuple(actions)), cards=cards)

    def _start(self) -> None:
        self.number_pile = list(reversed(self.setup.numbers))
        self.action_pile = list(reversed(self.setup.actions))
        self.number_discards: list[str] = []
        self.action_discards: list[str] = []
        pawns = PAWNS[self.setup.players]
        self.players = [Player([], [], pawns) for _ in range(self.setup.players)]
        for player in self.players:
            self._refill(player)
        self.order = TurnOrder(self.setup.players, self.setup.first)
        self.phase = Phase.MAIN
        self.pending: Attack | None = None
        self.doors: Cell | None = None
        """The start space of a pawn waiting for the boarding die."""
        self.winners: frozenset[int] = frozenset()
        self.turns_begun = 0
        self._reach: dict[tuple[int, int, int], set[Cell]] = {}
        self._begin_turn()

    # ----- turn bookkeeping ----------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once someone has won."""
        return self.phase is Phase.OVER

    def _begin_turn(self) -> None:
        self.turns_begun += 1
        self.target = self.order.after(self.current)
        self.boardings = 0
        me = self.players[self.current]
        if me.missed is not None and me.aisle is None:
            # A pawn that missed the train enters on its next turn without a roll.
            me.aisle = self.layout.entries[me.missed]
            me.missed = None

    def _end_turn(self) -> None:
        me = self.players[self.current]
        self._refill(me)
        self._check_blocking(self.current)
        if self._check_win():
            return
        self.order.pass_turn()
        self._begin_turn()

    def _draw(self, pile: list[str], discards: list[str]) -> str | None:
        if not pile:
            # Ruling: an empty deck is refilled by turning its discard pile over (no shuffle).
            pile.extend(reversed(discards))
            discards.clear()
        return pile.pop() if pile else None

    def _refill(self, player: Player) -> None:
        while len(player.numbers) < NUMBER_HAND:
            card = self._draw(self.number_pile, self.number_discards)
            if card is None:
                break
            player.numbers.append(card)
        while len(player.actions) < ACTION_HAND:
            card = self._draw(self.action_pile, self.action_discards)
            if card is None:
                break
            player.actions.append(card)

    def _check_win(self) -> bool:
        done = [i for i, p in enumerate(self.players) if len(p.seated) == PAWNS[len(self.players)]]
        if done:
            self.winners = frozenset(done)
            self.phase = Phase.OVER
        return bool(done)

    def _check_blocking(self, seat: int) -> None:
        me = self.players[seat]
        if me.aisle is None or self._can_move_at_all(seat):
            me.blocked_turns = 0
            return
        me.blocked_turns += 1
        if me.blocked_turns <= BLOCKED_TURNS_ALLOWED:
            return
        near = {me.aisle, *self.layout.links[me.aisle]}
        for other, player in enumerate(self.players):
            if other != seat and player.aisle in near and player.seated:
                player.seated.pop()
                player.supply += 1

    # ----- queries -------------------------------------------------------------------------

    @property
    def answering(self) -> int | None:
        """The seat an attack waits on for its answer, if any."""
        if self.phase is Phase.RESPONSE and self.pending is not None:
            return self._victim(self.pending)
        return None

    def _winners(self) -> frozenset[int]:
        return self.winners

    def occupant(self, cell: Cell) -> int | None:
        """The seat whose pawn sits in ``cell`` (seated), if any."""
        for seat, player in enumerate(self.players):
            if cell in player.seated:
                return seat
        return None

    def pawn_count(self, seat: int) -> int:
        """All of a player's pawns, wherever they are (always the number dealt)."""
        p = self.players[seat]
        return p.off_train() + (p.aisle is not None) + len(p.seated)

    def all_cards(self) -> Counter[str]:
        """Every card in every place (for checking none is lost or made up)."""
        found = Counter(
            self.number_pile + self.action_pile + self.number_discards + self.action_discards
        )
        for player in self.players:
            found.update(player.numbers + player.actions)
        return found

    def _victim(self, attack: Attack) -> int:
        return self.target if isinstance(attack, Exit) else attack.seat

    # ----- movement ------------------------------------------------------------------------

    def _occupied(self, cell: Cell, mover: int) -> bool:
        """True when a pawn cannot step through ``cell`` without getting past someone."""
        if self.layout.spaces[cell] is Space.PASSENGER or self.occupant(cell) is not None:
            return True
        return any(p.aisle == cell for i, p in enumerate(self.players) if i != mover)

    def _can_land(self, cell: Cell) -> bool:
        space = self.layout.spaces[cell]
        return space is Space.AISLE or (space is Space.SEAT and self.occupant(cell) is None)

    def landings(self, seat: int, steps: int, passes: int) -> set[Cell]:
        """Where the seat's aisle pawn can end after exactly ``steps`` spaces, getting past at
        most ``passes`` occupied spaces (never across a metal bar, never twice over a space)."""
        key = (seat, steps, passes)
        if key not in self._reach:  # cleared whenever a move changes the table
            start = self.players[seat].aisle
            found: set[Cell] = set()
            if start is not None:
                self._walk(seat, start, steps, passes, {start}, found)
            self._reach[key] = found
        return self._reach[key]

    def _walk(
        self, seat: int, at: Cell, steps: int, passes: int, seen: set[Cell], found: set[Cell]
    ) -> None:
        links = self.layout.links
        for near in links[at]:
            if near in seen:
                continue
            hops = [(near, passes)]
            if self._occupied(near, seat):
                hops = []
                if steps == 1 and self.layout.spaces[near] is Space.AISLE:
                    found.add(near)  # an aisle space may be shared at the end of a move
                if passes:
                    hops = [
                        (far, passes - 1) for far in links[near] if far not in seen and far != at
                    ]
            for cell, left in hops:
                if self._occupied(cell, seat):
                    if steps == 1 and self.layout.spaces[cell] is Space.AISLE:
                        found.add(cell)
                    continue
                if steps == 1:
                    if self._can_land(cell):
                        found.add(cell)
                else:
                    self._walk(seat, cell, steps - 1, left, seen | {near, cell}, found)

    def _can_move_at_all(self, seat: int) -> bool:
        """Ruling: a pawn is blocked when, without Excuse Me, it can at best join an opposing
        pawn's aisle space (and so never get past it)."""
        most = 2 * max(card.number for card in self.cards.numbers.values()) + (
            self.cards.motion_plus
        )
        return any(
            not self._occupied(cell, seat)
            for steps in range(1, most + 1)
            for cell in self.landings(seat, steps, 0)
        )

    # ----- legality ------------------------------------------------------------------------

    def is_chance_node(self) -> bool:
        """True while the boarding die is due."""
        return self.phase is Phase.BOARDING

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """The boarding die's two outcomes with their odds, while it is due."""
        if not self.is_chance_node():
            return []
        opened = BOARDING_DIE.count(True) / len(BOARDING_DIE)
        return [(BoardingDie(True), opened), (BoardingDie(False), 1 - opened)]

    def sample_chance(self, rng: random.Random) -> Move:
        """A roll of the boarding die from ``rng``."""
        return BoardingDie(roll_boarding_die(rng))

    def _candidates(self) -> Iterator[Move]:
        """Every move worth checking (Exit and Enter 2X list each pair of seats once)."""
        if self.phase is Phase.BOARDING:
            yield from (outcome for outcome, _ in self.chance_outcomes())
            return
        if self.phase is Phase.RESPONSE:
            yield from (Rebel(), Accept())
            return
        if self.phase is Phase.OVER:
            return
        me = self.players[self.current]
        yield EndTurn()
        for start in self.layout.starts:
            yield from (Board(start), UsePass(start))
        yield from (UseToken(card) for card in sorted(set(me.numbers + me.actions)))
        yield from (PlayExpress(), PlayReverse(), PlusDiscard())
        victim = self.players[self.target]
        for card, count in ((EXIT_1X, 1), (EXIT_2X, 2)):
            # The player picks which seated pawns leave: every choice is a different move.
            chosen = min(count, len(victim.seated))
            yield from (Exit(card, seats) for seats in combinations(victim.seated, chosen))
        empty = [cell for cell in self.layout.seats() if self.occupant(cell) is None]
        yield from (Enter(ENTER_1X, (cell,)) for cell in empty)
        yield from (Enter(ENTER_2X, pair) for pair in combinations(empty, 2))
        for seat, other in enumerate(self.players):
            if seat == self.current:
                continue
            for cell in other.seated:
                yield from (Eccentric(seat, cell), TakeSeat(seat, cell))
            yield from (
                PanHandle(seat, card) for card in sorted(set(other.numbers + other.actions))
            )
        yield from self._movement_candidates(me)

    def _movement_candidates(self, me: Player) -> Iterator[MoveAlong]:
        if me.aisle is None:
            return
        combos: set[tuple[tuple[str, ...], bool]] = set()
        for card in me.numbers:
            combos.update({((card,), False), ((card,), True)})
        for pair in combinations(sorted(me.numbers), 2):
            combos.update({(pair, False), (pair, True)})
        combos.add(((), True))
        passes = sorted(card for card in me.actions if card in PASS_CARDS)
        for numbers, motion in sorted(combos):
            for used in range(len(passes) + 1):
                spent = tuple(passes[:used])
                steps = self._steps(numbers, motion)
                for cell in sorted(self.landings(self.current, steps, used)):
                    yield MoveAlong(numbers, motion, spent, cell)
                if EXCUSE_ME in spent:
                    for cell in sorted(self.slides(self.current, steps, used - 1)):
                        for over in self.layout.links[cell]:
                            yield MoveAlong(numbers, motion, spent, cell, over)

    def _steps(self, numbers: Sequence[str], motion: bool) -> int:
        return sum(self.cards.numbers[n].number for n in numbers) + (
            self.cards.motion_plus if motion else 0
        )

    def why_illegal(self, move: Move) -> str | None:
        """Why ``move`` is not allowed now, or None if it is."""
        if self.phase is Phase.OVER:
            return "the game is over"
        if (self.phase is Phase.BOARDING) != isinstance(move, BoardingDie):
            waiting = self.phase is Phase.BOARDING
            return "roll the boarding die first" if waiting else "no boarding die is due"
        if isinstance(move, BoardingDie):
            return None
        if isinstance(move, Rebel | Accept):
            if self.phase is not Phase.RESPONSE or self.pending is None:
                return "no attack waits for an answer"
            if (
                isinstance(move, Rebel)
                and REBEL not in self.players[self._victim(self.pending)].actions
            ):
                return "answering needs a Rebel Passenger card"
            return None
        if self.phase is Phase.RESPONSE:
            return f"seat {self.acting_seat} must first answer the attack"
        me = self.players[self.current]
        card = action_card(move)
        if card is not None and card not in me.actions:
            return f"{card} is not in your hand"
        if isinstance(move, Board | UsePass):
            return self._why_cannot_board(move, me)
        if isinstance(move, MoveAlong):
            return self._why_cannot_move(move, me)
        if isinstance(move, UseToken):
            if move.card not in me.numbers + me.actions:
                return f"{move.card} is not in your hand"
            return None if me.tokens else "no discard token left"
        if isinstance(move, Exit | Enter) and move.card not in (
            (EXIT_1X, EXIT_2X) if isinstance(move, Exit) else (ENTER_1X, ENTER_2X)
        ):
            return f"{move.card} is not an {type(move).__name__} card"
        if isinstance(move, Exit):
            victim = self.players[self.target]
            wanted = min(len(victim.seated), 1 if move.card == EXIT_1X else 2)
            if self.target == self.current:
                return "every opponent is skipped: no one is next"
            if len(set(move.seats)) != wanted or not set(move.seats) <= set(victim.seated):
                return f"name {wanted} seat(s) of seat {self.target}'s seated pawns"
            return None
        if isinstance(move, PlayExpress):
            return "every opponent is already skipped" if self.target == self.current else None
        if isinstance(move, Enter):
            wanted = 1 if move.card == ENTER_1X else 2
            if len(set(move.seats)) != wanted:
                return f"{move.card} fills {wanted} seat(s)"
            if me.off_train() < wanted:
                return "not enough pawns off the train"
            return (
                None
                if all(self._can_seat(cell) for cell in move.seats)
                else ("only empty seats can be filled")
            )
        if isinstance(move, Eccentric | TakeSeat | PanHandle):
            if move.seat == self.current or not 0 <= move.seat < len(self.players):
                return "target an opponent"
            them = self.players[move.seat]
            if isinstance(move, PanHandle):
                return (
                    None
                    if move.card in them.numbers + them.actions
                    else (f"seat {move.seat} holds no {move.card}")
                )
            if move.cell not in them.seated:
                return f"seat {move.seat} has no pawn seated at {move.cell}"
            if isinstance(move, TakeSeat) and not me.off_train():
                return "Take A Seat needs one of your pawns off the train"
        return None

    def _can_seat(self, cell: Cell) -> bool:
        return self.layout.spaces.get(cell) is Space.SEAT and self.occupant(cell) is None

    def _why_cannot_board(self, move: Board | UsePass, me: Player) -> str | None:
        if self.boardings >= BOARDINGS_PER_TURN:
            return "one boarding per turn"
        if move.start not in self.layout.entries:
            return f"{move.start} is not a start space"
        if me.missed is not None:
            return "your pawn that missed the train enters first"
        if not me.supply:
            return "no pawn left to board"
        return None

    def _why_cannot_move(self, move: MoveAlong, me: Player) -> str | None:
        if me.aisle is None:
            return "you have no pawn in the aisle"
        numbers = Counter(move.numbers)
        if any(numbers[n] > me.numbers.count(n) for n in numbers) or len(move.numbers) > 2:
            return "play number cards from your hand (one or two)"
        if not move.numbers and not move.motion:
            return "play a number card or Advanced Motion"
        if move.motion and ADVANCED_MOTION not in me.actions:
            return "advanced-motion is not in your hand"
        colours = {self.cards.numbers[n].colour for n in move.numbers}
        if len(colours) > 1 and not move.motion:
            return "two number cards of different colours need Advanced Motion"
        if any(card not in PASS_CARDS for card in move.passes) or any(
            move.passes.count(c) > me.actions.count(c) for c in move.passes
        ):
            return "get past others only with Excuse Me or Rebel Passenger cards you hold"
        steps = self._steps(move.numbers, move.motion)
        if move.slide_to is not None:
            return self._why_cannot_slide(move, steps)
        if move.to not in self.landings(self.current, steps, len(move.passes)):
            return f"no way of exactly {steps} space(s) to {move.to}"
        return None

    def _why_cannot_slide(self, move: MoveAlong, steps: int) -> str | None:
        if EXCUSE_ME not in move.passes:
            return "sliding a seated pawn over takes an Excuse Me"
        if move.to not in self.slides(self.current, steps, len(move.passes) - 1):
            return (
                f"no way of exactly {steps} space(s) into {move.to}, or its pawn sits "
                "next to a passenger"
            )
        if move.slide_to not in self.layout.links[move.to] or not self._can_seat(move.slide_to):
            return "a slid pawn moves over to an empty seat beside it"
        return None

    def slides(self, seat: int, steps: int, passes: int) -> set[Cell]:
        """Opponents' seats the seat's aisle pawn can land in after exactly ``steps`` spaces by
        sliding their pawn over (Excuse Me): seats not next to a printed passenger."""
        start = self.players[seat].aisle
        if start is None:
            return set()
        before = {start} if steps == 1 else self.landings(seat, steps - 1, passes)
        found = set()
        for cell in self.layout.seats():
            owner = self.occupant(cell)
            near = self.layout.links[cell]
            if owner is None or owner == seat or not before & set(near):
                continue
            if all(self.layout.spaces[n] is not Space.PASSENGER for n in near):
                found.add(cell)
        return found

    # ----- playing -------------------------------------------------------------------------

    def _spend(self, card: str) -> None:
        self.players[self.current].actions.remove(card)
        self.action_discards.append(card)

    def _apply(self, move: Move) -> None:
        self._reach = {}  # the table changes: every cached walk is stale
        self._carry_out(move)
        self._reach = {}

    def _carry_out(self, move: Move) -> None:
        me = self.players[self.current]
        card = action_card(move)
        if card is not None:
            self._spend(card)
        if isinstance(move, Board):
            self.boardings += 1
            self.doors = move.start
            self.phase = Phase.BOARDING
        elif isinstance(move, BoardingDie):
            assert self.doors is not None
            start, self.doors, self.phase = self.doors, None, Phase.MAIN
            self._board(start, move.doors_open, me)
        elif isinstance(move, UsePass):
            self.boardings += 1
            self._board(move.start, True, me)
            if self.phase is Phase.MAIN:
                self._after_action(U_PASS)
        elif isinstance(move, MoveAlong):
            for number in move.numbers:
                me.numbers.remove(number)
                self.number_discards.append(number)
            for spent in move.passes:
                self._spend(spent)
            if move.motion:
                self._spend(ADVANCED_MOTION)
            me.aisle = None
            if move.slide_to is not None:
                owner = self.occupant(move.to)
                assert owner is not None
                slid = self.players[owner].seated
                slid[slid.index(move.to)] = move.slide_to
            if self.layout.spaces[move.to] is Space.SEAT:
                me.seated.append(move.to)
            else:
                me.aisle = move.to
            if not self._check_win():
                self._end_turn()
        elif isinstance(move, UseToken):
            me.tokens -= 1
            if move.card in me.numbers:
                me.numbers.remove(move.card)
                self.number_discards.append(move.card)
                drawn = self._draw(self.number_pile, self.number_discards)
                me.numbers.extend([drawn] if drawn else [])
            else:
                me.actions.remove(move.card)
                self.action_discards.append(move.card)
                drawn = self._draw(self.action_pile, self.action_discards)
                me.actions.extend([drawn] if drawn else [])
        elif isinstance(move, PlayExpress | PlayReverse | PlusDiscard | Enter):
            self._play_action(move, me)
        elif isinstance(move, EndTurn):
            self._end_turn()
        elif isinstance(move, Rebel | Accept):
            self._answer(move)
        else:
            self.pending = move
            self.phase = Phase.RESPONSE

    def _play_action(
        self, move: PlayExpress | PlayReverse | PlusDiscard | Enter, me: Player
    ) -> None:
        if isinstance(move, PlayExpress):
            self.order.skip(self.target)
            self.target = self.order.after(self.target)
        elif isinstance(move, PlayReverse):
            self.order.reverse()
            self.target = self.order.after(self.current)
        elif isinstance(move, PlusDiscard):
            me.tokens += 1
        else:
            for cell in move.seats:
                self._take_off_train(me)
                me.seated.append(cell)
        card = action_card(move)
        assert card is not None
        self._after_action(card)

    def _after_action(self, card: str) -> None:
        if self._check_win():
            return
        if self.cards.ends_turn[card]:
            self._end_turn()

    def _take_off_train(self, me: Player) -> None:
        """Use a pawn that is not on the train: the one that missed the train, else the supply."""
        if me.missed is not None:
            me.missed = None
        else:
            me.supply -= 1

    def _board(self, start: Cell, doors_open: bool, me: Player) -> None:
        me.supply -= 1
        if not doors_open:
            me.missed = start
            self._end_turn()
            return
        if me.aisle is not None:
            # Boarding with a pawn still in the aisle: both pawns leave the train.
            me.aisle = None
            me.supply += 2
            return
        me.aisle = self.layout.entries[start]

    def _answer(self, move: Rebel | Accept) -> None:
        attack = self.pending
        assert attack is not None
        victim_seat = self._victim(attack)
        victim = self.players[victim_seat]
        if isinstance(move, Rebel):
            victim.actions.remove(REBEL)
            self.action_discards.append(REBEL)
        else:
            self._attack_strikes(attack, victim)
        self.pending = None
        self.phase = Phase.MAIN
        self._after_action(action_card(attack) or TAKE_A_SEAT)

    def _attack_strikes(self, attack: Attack, victim: Player) -> None:
        me = self.players[self.current]
        if isinstance(attack, Exit):
            for cell in attack.seats:
                victim.seated.remove(cell)
                victim.supply += 1
        elif isinstance(attack, PanHandle):
            if attack.card in victim.numbers:
                victim.numbers.remove(attack.card)
                me.numbers.append(attack.card)
            else:
                victim.actions.remove(attack.card)
                me.actions.append(attack.card)
        elif victim.aisle is not None:
            # Ruling on the penalty: a second pawn in the aisle is not allowed to happen; the
            # victim's aisle pawn is seated instead, and the attacker gains no seat.
            seat = self._nearest(victim.aisle, self._can_seat)
            if seat is not None:
                victim.aisle = None
                victim.seated.append(seat)
        else:
            victim.seated.remove(attack.cell)
            victim.aisle = self._nearest(attack.cell, self._is_aisle)
            if victim.aisle is None:  # a seat cut off from every aisle: the pawn leaves
                victim.supply += 1
            if isinstance(attack, TakeSeat):
                self._take_off_train(me)
                me.seated.append(attack.cell)

    def _is_aisle(self, cell: Cell) -> bool:
        return self.layout.spaces[cell] is Space.AISLE

    def _nearest(self, origin: Cell, wanted: Any) -> Cell | None:
        """The nearest cell (by steps, then reading order) for which ``wanted`` holds."""
        frontier, seen = [origin], {origin}
        while frontier:
            for cell in sorted(frontier):
                if cell != origin and wanted(cell):
                    return cell
            following = []
            for cell in sorted(frontier):
                for near in self.layout.links[cell]:
                    if near not in seen:
                        seen.add(near)
                        following.append(near)
            frontier = following
        return None

    # ----- records -------------------------------------------------------------------------

    def _head(self) -> dict[str, Any]:
        return {
            "players": len(self.players),
            "first": self.setup.first,
            "numbers": list(self.setup.numbers),
            "actions": list(self.setup.actions),
        }

    @classmethod
    def _moves_from_json(cls, data: dict[str, Any]) -> list[Move]:
        return moves_from_json(data)

    @classmethod
    def _from_head(cls, head: dict[str, Any]) -> TrainlineGame:
        try:
            setup = Setup(
                int(head["players"]),
                int(head.get("first", 0)),
                tuple(head["numbers"]),
                tuple(head["actions"]),
            )
        except (KeyError, TypeError, ValueError):
            raise BadInputError('line 1: needs "players", "numbers" and "actions"') from None
        return cls(setup)


_CARD_OF: dict[type, str] = {
    UsePass: U_PASS,
    PlayExpress: EXPRESS,
    PlayReverse: REVERSE,
    PlusDiscard: PLUS_DISCARD,
    Eccentric: ECCENTRIC,
    PanHandle: PAN_HANDLER,
    TakeSeat: TAKE_A_SEAT,
}


def action_card(move: Move) -> str | None:
    """The action card a move plays from hand, if any (a move's cards are counted apart)."""
    if isinstance(move, Exit | Enter):
        return move.card
    return _CARD_OF.get(type(move))
