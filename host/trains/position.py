"""The table of The Game of Trains at one moment, and the rules that move it on.

A ``Position`` is plain data. ``decide`` checks a seat's decision against the rules; a draw or a
remove then leaves the position at a chance node (``refill``) until ``deal`` brings the cards the
draw pile owes, one ``Drawn`` outcome at a time. ``apply`` plays a whole turn as the record writes
it. The draw pile is either known (a simulation dealt it) or unseen (a real table): on a real
table a drawn card may be any card the referee cannot place elsewhere, and a card it saw go into
the discard pile only comes back after the discard pile was reshuffled into an empty draw pile.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from typing import Any

from host.errors import BadInputError, IllegalMoveError
from host.trains.moves import Drawn, Move, MoveKind
from host.trains.rules import (
    HOLE,
    LINE_LENGTH,
    MAX_SEATS,
    MIN_SEATS,
    MOVE_DISTANCE,
    REMOVED_PLACE,
    SWAP_DISTANCE,
    Ability,
    Lock,
    ability_map,
    ability_slots,
    draft_size,
    is_ascending,
)

DECK_SIZE = 84


@cache
def abilities() -> dict[int, Ability]:
    """The ability of every railcar number, from the deck data."""
    return ability_map()


class Phase(Enum):
    """Where the game is."""

    DRAFT = "draft"
    """Set-up: each seat in turn keeps one of the cards it drew."""
    PLAY = "play"
    """Turns: draw a card or use a face-up ability."""
    OVER = "over"
    """A line is ascending: its seat has won."""


@dataclass
class Position:
    """Everything on and around the table. Seats are numbered 0.. clockwise."""

    seats: int
    """How many seats play (2 to 4)."""
    first: int
    """The seat that starts (the set-up draft and the first turn)."""
    lines: list[list[int]]
    """Each seat's seven railcars from that player's left to right."""
    locks: list[dict[int, int]] = field(default_factory=list)
    """Each seat's protect cards: place guarded -> the protect card's number."""
    faceup: list[int] = field(default_factory=list)
    """The cards lying face up beside the draw pile, in the order they arrived."""
    draw_pile: list[int] | None = None
    """The draw pile, top card last, when it is known (a simulation); None on a real table."""
    draw_count: int = 0
    """How many cards the draw pile holds."""
    discard: list[int] = field(default_factory=list)
    """Face-down discards whose numbers are known (used abilities, pairs, lost protections)."""
    discard_unseen: int = 0
    """Face-down discards nobody saw (the cards not kept at the set-up draft)."""
    phase: Phase = Phase.DRAFT
    """Set-up draft, turns, or over."""
    to_play: int = 0
    """The seat whose turn it is (or who won, once the game is over)."""
    drafted: int = 0
    """How many seats have made their set-up choice."""
    refill: Refill | None = None
    """A turn part-way, waiting on the draw pile (a chance node); None between turns."""

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def deal(cls, seats: int, first: int, rng: random.Random) -> Position:
        """A simulated game: shuffle the 84 railcars, deal 7 to each seat in descending order."""
        check_seats(seats, first)
        pile = list(range(1, DECK_SIZE + 1))
        rng.shuffle(pile)
        lines = [
            sorted((pile.pop() for _ in range(LINE_LENGTH)), reverse=True) for _ in range(seats)
        ]
        return cls(
            seats=seats,
            first=first,
            lines=lines,
            locks=[{} for _ in range(seats)],
            draw_pile=pile,
            draw_count=len(pile),
            to_play=first,
        )

    @classmethod
    def from_table(
        cls, seats: int, first: int, lines: list[list[int]], faceup: list[int], phase: Phase
    ) -> Position:
        """A real table seen after dealing (``Phase.DRAFT``) or after the set-up draft."""
        check_seats(seats, first)
        dealt = seats * LINE_LENGTH
        position = cls(
            seats=seats,
            first=first,
            lines=[list(line) for line in lines],
            locks=[{} for _ in range(seats)],
            faceup=list(faceup),
            to_play=first,
            phase=phase,
        )
        if phase is Phase.DRAFT:
            if faceup:
                raise BadInputError("a table before the set-up draft has no face-up cards")
            position.draw_count = DECK_SIZE - dealt
        else:
            drafted = sum(draft_size(order) for order in range(seats))
            position.drafted = seats
            position.draw_count = DECK_SIZE - dealt - drafted
            position.discard_unseen = DECK_SIZE - dealt - len(faceup) - position.draw_count
            if position.discard_unseen < 0:
                raise BadInputError(f"{len(faceup)} face-up cards cannot lie out after set-up")
        return position

    def copy(self) -> Position:
        """An independent copy (by hand: deepcopy was the engine's hot spot)."""
        return replace(
            self,
            lines=[list(line) for line in self.lines],
            locks=[dict(locks) for locks in self.locks],
            faceup=list(self.faceup),
            draw_pile=None if self.draw_pile is None else list(self.draw_pile),
            discard=list(self.discard),
        )

    # --- what is where ------------------------------------------------------------------------

    @property
    def known_pile(self) -> bool:
        """True when the draw pile's order is known (a simulation)."""
        return self.draw_pile is not None

    def is_chance_node(self) -> bool:
        """True when the draw pile owes a line its next card."""
        return self.refill is not None

    @property
    def winner(self) -> int | None:
        """The winning seat, once the game is over."""
        return self.to_play if self.phase is Phase.OVER else None

    def on_table(self) -> set[int]:
        """Every card lying visibly on the table: lines, protect cards and the face-up area."""
        cards = {card for line in self.lines for card in line if card != HOLE}
        cards.update(card for locks in self.locks for card in locks.values())
        cards.update(self.faceup)
        return cards

    def unseen(self) -> set[int]:
        """The cards a draw may bring: in the draw pile, or discarded where nobody saw them."""
        if self.draw_pile is not None:
            return set(self.draw_pile)
        return set(range(1, DECK_SIZE + 1)) - self.on_table() - set(self.discard)

    def protect_slots(self, seat: int) -> list[Lock]:
        """The places of ``seat``'s line showing a protect card."""
        return [lock for lock in Lock if lock.place in self.locks[seat]]

    # --- serialisation ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The position as a JSON object."""
        return {
            "seats": self.seats,
            "first": self.first,
            "lines": self.lines,
            "locks": [{str(place): card for place, card in locks.items()} for locks in self.locks],
            "faceup": self.faceup,
            "draw_pile": self.draw_pile,
            "draw_count": self.draw_count,
            "discard": self.discard,
            "discard_unseen": self.discard_unseen,
            "phase": self.phase.value,
            "to_play": self.to_play,
            "drafted": self.drafted,
            "refill": None if self.refill is None else self.refill.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read a position written by ``to_json``."""
        try:
            position = cls(
                seats=data["seats"],
                first=data["first"],
                lines=[list(line) for line in data["lines"]],
                locks=[
                    {int(place): card for place, card in locks.items()} for locks in data["locks"]
                ],
                faceup=list(data["faceup"]),
                draw_pile=None if data["draw_pile"] is None else list(data["draw_pile"]),
                draw_count=data["draw_count"],
                discard=list(data["discard"]),
                discard_unseen=data["discard_unseen"],
                phase=Phase(data["phase"]),
                to_play=data["to_play"],
                drafted=data["drafted"],
                refill=None if data.get("refill") is None else Refill.from_json(data["refill"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise BadInputError(f"not a Game of Trains position ({error})") from None
        check_seats(position.seats, position.first)
        return position


@dataclass(frozen=True)
class Refill:
    """A turn waiting on the draw pile (a chance node): the lines still owed a card."""

    place: int
    """The place in each line the drawn card goes to."""
    seats: tuple[int, ...]
    """The seats still owed a card, in order (clockwise from the user after a remove)."""
    draw: bool = False
    """A draw turn: the drawn card replaces the railcar at ``place``, which then goes face up."""
    keep: tuple[int, ...] = ()
    """A draw turn's choice of the face-up card that stays (``Move.keep``)."""

    def to_json(self) -> dict[str, Any]:
        """The refill as a JSON object."""
        return {
            "place": self.place,
            "seats": list(self.seats),
            "draw": self.draw,
            "keep": list(self.keep),
        }

    @classmethod
    def from_json(cls, data: Any) -> Refill:
        """Read a refill written by ``to_json``."""
        return cls(
            int(data["place"]),
            tuple(int(seat) for seat in data["seats"]),
            bool(data["draw"]),
            tuple(int(card) for card in data["keep"]),
        )


def check_seats(seats: int, first: int) -> None:
    """Refuse a seat count the game is not for, or a first seat not at the table."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise BadInputError(
            f"The Game of Trains is for {MIN_SEATS} to {MAX_SEATS} seats, not {seats}"
        )
    if not 0 <= first < seats:
        raise BadInputError(f"the first seat must be 0 to {seats - 1}, not {first}")


# --- the rules ---------------------------------------------------------------------------------


class _Turn:
    """One step of a turn carried out on a copy of the position, checking every rule on the way."""

    def __init__(
        self,
        position: Position,
        keep: tuple[int, ...] = (),
        shuffle: tuple[int, ...] = (),
        shuffler: random.Random | None = None,
    ) -> None:
        self.position = position.copy()
        self.keep = keep
        self.given_shuffle = shuffle
        self.shuffler = shuffler
        self.shuffle: tuple[int, ...] = ()
        self.keep_used: list[int] = []

    def draw(self, expected: int | None) -> int:
        """Draw the top card (reshuffling an empty draw pile first)."""
        p = self.position
        if p.draw_count == 0:
            self.reshuffle()
        if p.draw_pile is not None:
            card = p.draw_pile.pop()
            if expected is not None and card != expected:
                raise IllegalMoveError(
                    f"the top card of the draw pile is the {card}, not the {expected}"
                )
        else:
            if expected is None:
                raise IllegalMoveError("on a real table the drawn card must be named")
            if expected in p.discard:
                raise IllegalMoveError(
                    f"the {expected} was discarded and cannot be drawn before the discard pile "
                    "is reshuffled"
                )
            if expected in p.faceup:
                raise IllegalMoveError(
                    f"the {expected} was face up: a face-up card is used for its ability, "
                    "never put into a line"
                )
            if expected in p.on_table() or not 1 <= expected <= DECK_SIZE:
                raise IllegalMoveError(f"the {expected} cannot have come from the draw pile")
            card = expected
        p.draw_count -= 1
        return card

    def reshuffle(self) -> None:
        """The draw pile ran out: the discard pile becomes the new draw pile."""
        p = self.position
        if p.draw_pile is not None:
            order = self.given_shuffle
            if not order and self.shuffler is not None:
                order = tuple(self.shuffler.sample(p.discard, len(p.discard)))
            if sorted(order) != sorted(p.discard):
                raise IllegalMoveError(
                    "the draw pile ran out: the move must give the reshuffled order"
                )
            self.shuffle = tuple(order)
            p.draw_pile = list(order)
        p.draw_count = len(p.discard) + p.discard_unseen
        p.discard, p.discard_unseen = [], 0

    def to_faceup(self, arrivals: list[int]) -> None:
        """Lay cards face up; cards sharing an ability are discarded in pairs."""
        p = self.position
        p.faceup.extend(arrivals)
        stays, gone = _pairs_gone(p.faceup, self.keep)
        self.keep_used.extend(stays)
        for card in gone:
            p.faceup.remove(card)
            p.discard.append(card)

    def lose_protection(self, seat: int, before: list[int]) -> None:
        """Protect cards under railcars that this seat's own action moved or replaced go away."""
        p = self.position
        for place in list(p.locks[seat]):
            if p.lines[seat][place] != before[place]:
                p.discard.append(p.locks[seat].pop(place))

    def finish(self, seat: int) -> None:
        """The turn is over: a win ends the game, otherwise the next seat plays."""
        p = self.position
        if p.phase is Phase.OVER:
            return
        if p.phase is Phase.DRAFT:
            p.drafted += 1
            if p.drafted == p.seats:
                p.phase, p.to_play = Phase.PLAY, p.first
            else:
                p.to_play = (p.first + p.drafted) % p.seats
            return
        if is_ascending(p.lines[seat]):
            p.phase = Phase.OVER
            return
        p.to_play = (seat + 1) % p.seats

    def check_keep(self) -> None:
        """The table's choice must name exactly the face-up cards that were in question."""
        if sorted(self.keep_used) != sorted(self.keep):
            raise IllegalMoveError("the move keeps face-up cards that were not in question")


def _groups(cards: list[int]) -> list[list[int]]:
    by_ability: dict[Ability, list[int]] = defaultdict(list)
    for card in cards:
        by_ability[abilities()[card]].append(card)
    return list(by_ability.values())


def _pairs_gone(faceup: list[int], keep: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Of the face-up cards, the ones the table keeps out of an odd group, and the ones that go
    to the discard pile because they share an ability (in the order they lie)."""
    stays: list[int] = []
    gone: list[int] = []
    for group in _groups(faceup):
        if len(group) < 2:
            continue
        chosen: list[int] = []
        if len(group) % 2:
            chosen = [card for card in group if card in keep]
            if len(chosen) != 1:
                names = ", ".join(str(card) for card in group)
                raise IllegalMoveError(
                    f"the face-up {names} share an ability: exactly one of them stays"
                )
            stays += chosen
        gone += [card for card in group if card not in chosen]
    return stays, gone


def decide(position: Position, decision: Move) -> Position:
    """The position after a seat's decision (a move without chance outcomes). A draw or a remove
    leaves it at a chance node: ``deal`` then brings each card the draw pile owes."""
    p = position
    if p.phase is Phase.OVER:
        raise IllegalMoveError(f"the game is over: seat {p.to_play} won")
    if p.refill is not None:
        raise IllegalMoveError("the draw pile deals first: a line is still owed a card")
    if decision.seat != p.to_play:
        raise IllegalMoveError(f"it is seat {p.to_play}'s turn, not seat {decision.seat}'s")
    if p.phase is Phase.DRAFT and decision.kind is not MoveKind.DRAFT:
        raise IllegalMoveError("during set-up each seat keeps one drawn card (a draft move)")
    if p.phase is Phase.PLAY and decision.kind is MoveKind.DRAFT:
        raise IllegalMoveError("the set-up draft is over")
    if decision.drawn or decision.shuffle:
        raise IllegalMoveError("a decision names no drawn card: the draw pile deals it")
    turn = _Turn(p, decision.keep)
    if decision.kind is MoveKind.ABILITY:
        _use_ability(turn, decision)
    elif decision.kind is MoveKind.DRAFT:
        _draft(turn, decision)
    else:
        _draw(turn, decision)
    turn.check_keep()
    if turn.position.refill is None:
        turn.finish(decision.seat)
    return turn.position


def deal(
    position: Position,
    card: int | None,
    shuffle: tuple[int, ...] = (),
    shuffler: random.Random | None = None,
) -> tuple[Position, Drawn]:
    """The position after the draw pile deals the next card owed, and that chance outcome.

    ``card`` names the card drawn (on a real table it must); ``None`` takes a known pile's top
    card. A known pile that ran out is first reshuffled into the order ``shuffle`` gives, or that
    ``shuffler`` makes.
    """
    refill = position.refill
    if refill is None:
        raise IllegalMoveError("no line is owed a card from the draw pile now")
    turn = _Turn(position, refill.keep, shuffle, shuffler)
    p = turn.position
    seat, line = refill.seats[0], turn.position.lines[refill.seats[0]]
    drawn = turn.draw(card)
    replaced, before = line[refill.place], list(line)
    line[refill.place] = drawn
    rest = refill.seats[1:]
    p.refill = replace(refill, seats=rest) if rest else None
    if refill.draw:
        turn.lose_protection(seat, before)
        turn.to_faceup([replaced])
    elif is_ascending(line):
        # A refill that makes a line ascending ends the game at once: later seats get none.
        p.phase, p.to_play, p.refill = Phase.OVER, seat, None
    if p.refill is None:
        turn.finish(p.to_play)
    return p, Drawn(drawn, turn.shuffle)


def drawable(position: Position) -> list[int]:
    """The cards the draw pile may deal now: a known pile's top card (any card of the discard
    pile, once it is reshuffled), or on a real table any card it cannot place elsewhere."""
    p = position
    if p.draw_pile is not None:
        return [p.draw_pile[-1]] if p.draw_count else sorted(p.discard)
    reshuffled = p.draw_count == 0  # the discard pile comes back first
    out = p.on_table() | (set() if reshuffled else set(p.discard))
    return [card for card in range(1, DECK_SIZE + 1) if card not in out]


def sample_chance(position: Position, rng: random.Random) -> Drawn:
    """A chance outcome for the card now owed, drawn from ``rng`` (a known pile's top card, or
    its reshuffle; any card that can be drawn, alike, on a real table)."""
    if position.draw_pile is not None:
        return deal(position, None, shuffler=rng)[1]
    return Drawn(rng.choice(drawable(position)))


def apply(position: Position, move: Move) -> Position:
    """The position after a whole turn (the decision, then the draw pile deals the cards
    ``move.drawn`` names, or a known pile's top cards); IllegalMoveError names a broken rule."""
    return _turn(position, move, None, deal_all=True)[0]


def complete(position: Position, decision: Move, rng: random.Random) -> Move:
    """Fill in a decision's chance outcomes from the known draw pile (``rng`` reshuffles)."""
    if not position.known_pile:
        raise ValueError("only a known draw pile can deal the chance outcomes")
    return _turn(position, decision, rng, deal_all=True)[1]


def play(position: Position, move: Move | Drawn) -> Position:
    """The position after one push: a chance outcome, or a turn as far as the cards it names
    go (a turn naming fewer cards than its lines are owed leaves a chance node)."""
    if isinstance(move, Drawn):
        return deal(position, move.card, move.shuffle)[0]
    return _turn(position, move, None, deal_all=False)[0]


def _turn(
    position: Position, move: Move, shuffler: random.Random | None, deal_all: bool
) -> tuple[Position, Move]:
    """A decision and the cards dealt for it: those ``move.drawn`` names, then (``deal_all``)
    the known pile's top cards for the rest; a win cuts the refills short."""
    p = decide(position, move.decision())
    refill = p.refill
    if refill is not None and p.draw_pile is None and len(move.drawn) > len(refill.seats):
        raise IllegalMoveError(f"only {len(refill.seats)} lines lost a card")
    drawn: list[int] = []
    shuffle: tuple[int, ...] = ()
    while p.refill is not None and (deal_all or len(drawn) < len(move.drawn)):
        expected = move.drawn[len(drawn)] if len(drawn) < len(move.drawn) else None
        p, outcome = deal(p, expected, move.shuffle, shuffler)
        drawn.append(outcome.card)
        shuffle = shuffle or outcome.shuffle
    whole = Move(move.seat, move.kind, move.slot, move.card, tuple(drawn), move.keep, shuffle)
    return p, whole


def _place(slot: int | None, kind: str) -> int:
    if slot is None or not 0 <= slot < LINE_LENGTH:
        raise IllegalMoveError(f"{kind} needs a place from 1 to {LINE_LENGTH}")
    return slot


def _draft(turn: _Turn, move: Move) -> None:
    """Set-up: the card kept replaces one in the line; the old one goes face up."""
    p = turn.position
    slot = _place(move.slot, move.kind.value)
    before = list(p.lines[move.seat])
    size = draft_size(p.drafted)
    if p.draw_pile is not None:
        drawn = [p.draw_pile.pop() for _ in range(size)]
        if move.card not in drawn:
            raise IllegalMoveError(f"the {move.card} is not among the cards drawn {drawn}")
        drawn.remove(move.card)
        p.discard.extend(drawn)
    else:
        if move.card is None or move.card not in p.unseen() or move.card in p.discard:
            raise IllegalMoveError(f"the {move.card} cannot have been drawn at set-up")
        p.discard_unseen += size - 1
    p.draw_count -= size
    replaced = p.lines[move.seat][slot]
    p.lines[move.seat][slot] = move.card
    turn.lose_protection(move.seat, before)
    turn.to_faceup([replaced])


def _draw(turn: _Turn, move: Move) -> None:
    """A draw: the line's place waits for the draw pile's top card (a chance node). Which
    face-up card stays is already decided: the card replaced is known."""
    p = turn.position
    slot = _place(move.slot, move.kind.value)
    if move.card is not None:
        raise IllegalMoveError("a draw uses no face-up card")
    stays, _ = _pairs_gone([*p.faceup, p.lines[move.seat][slot]], move.keep)
    turn.keep_used.extend(stays)
    p.refill = Refill(slot, (move.seat,), draw=True, keep=move.keep)


def _use_ability(turn: _Turn, move: Move) -> None:
    p = turn.position
    if move.card is None or move.card not in p.faceup:
        raise IllegalMoveError(f"the {move.card} is not face up beside the draw pile")
    ability = abilities()[move.card]
    p.faceup.remove(move.card)
    line = p.lines[move.seat]
    before = list(line)
    if ability is Ability.PROTECT:
        lock = Lock.at(_place(move.slot, "protect"))
        if lock is None:
            raise IllegalMoveError(
                "a protect card goes under the leftmost, middle or rightmost card"
            )
        if lock.place in p.locks[move.seat]:
            raise IllegalMoveError(f"the {lock.value} card is protected already")
        p.locks[move.seat][lock.place] = move.card
        return
    p.discard.append(move.card)
    if ability in SWAP_DISTANCE:
        first = _place(move.slot, ability.words)
        second = first + SWAP_DISTANCE[ability]
        if second >= LINE_LENGTH:
            raise IllegalMoveError(f"{ability.words} from place {first + 1} runs off the line")
        line[first], line[second] = line[second], line[first]
    elif ability in MOVE_DISTANCE:
        start = _place(move.slot, ability.words)
        end = start + MOVE_DISTANCE[ability]
        if not 0 <= end < LINE_LENGTH:
            raise IllegalMoveError(
                f"{ability.words}: the card in place {start + 1} cannot move exactly 2 places"
            )
        line.insert(end, line.pop(start))
    else:
        if move.slot is not None:
            raise IllegalMoveError(f"{ability.words} takes no place")
        _remove(turn, move.seat, REMOVED_PLACE[ability])
        return
    turn.lose_protection(move.seat, before)


def _remove(turn: _Turn, user: int, place: int) -> None:
    """Every unprotected line loses the card at ``place``; the draw pile then owes each one a
    card, clockwise from the user (a chance node)."""
    p = turn.position
    order = [(user + step) % p.seats for step in range(p.seats)]
    removing = [seat for seat in order if place not in p.locks[seat]]
    removed = [p.lines[seat][place] for seat in removing]
    for seat in removing:
        p.lines[seat][place] = HOLE
    turn.to_faceup(removed)
    if removing:
        p.refill = Refill(place, tuple(removing))


# --- legal moves -------------------------------------------------------------------------------


def decisions(position: Position) -> Iterator[Move]:
    """Every choice open to the seat to play, without chance outcomes (and without the table's
    choice of which face-up card stays: see ``keep_choices``)."""
    p, seat = position, position.to_play
    if p.phase is Phase.OVER or p.refill is not None:
        return
    if p.phase is Phase.DRAFT:
        candidates = p.draw_pile[-draft_size(p.drafted) :] if p.draw_pile is not None else []
        for card in candidates:
            for slot in range(LINE_LENGTH):
                yield Move(seat, MoveKind.DRAFT, slot, card)
        return
    for slot in range(LINE_LENGTH):
        yield Move(seat, MoveKind.DRAW, slot)
    for card in p.faceup:
        ability = abilities()[card]
        if ability in REMOVED_PLACE:
            yield Move(seat, MoveKind.ABILITY, None, card)
            continue
        for slot in ability_slots(ability):
            if ability is not Ability.PROTECT or slot not in p.locks[seat]:
                yield Move(seat, MoveKind.ABILITY, slot, card)


def keep_choices(position: Position, decision: Move) -> list[tuple[int, ...]]:
    """The face-up cards the table may choose to keep after a remove (``[()]`` when no choice)."""
    if decision.kind is not MoveKind.ABILITY or decision.card is None:
        return [()]
    ability = abilities()[decision.card]
    if ability not in REMOVED_PLACE:
        return [()]
    place = REMOVED_PLACE[ability]
    faceup = [card for card in position.faceup if card != decision.card]
    faceup += [
        line[place] for seat, line in enumerate(position.lines) if place not in position.locks[seat]
    ]
    choices: list[tuple[int, ...]] = [()]
    for group in _groups(faceup):
        if len(group) >= 3 and len(group) % 2:
            choices = [(*choice, card) for choice in choices for card in group]
    return choices


def legal_moves(position: Position, rng: random.Random) -> list[Move]:
    """Every legal move with its chance outcomes dealt from the known draw pile.

    ``rng`` shuffles the discard pile should the draw pile run out; the same ``rng`` state gives
    the same moves.
    """
    moves = []
    for decision in decisions(position):
        for keep in keep_choices(position, decision):
            chosen = Move(decision.seat, decision.kind, decision.slot, decision.card, keep=keep)
            moves.append(complete(position, chosen, random.Random(rng.random())))
    return moves
