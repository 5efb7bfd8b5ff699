"""The referee: turns what the camera sees into moves, or says precisely why it cannot.

Like a chess board that predicts the squares each legal move would change, the referee builds the
moves of the seat to play that could explain the table (the new cards it shows are the chance
outcomes), plays each on the committed position and keeps the one whose table is the one seen.
The table equal to the committed one means nothing happened yet; a table on the way to a legal
turn (a face-up card picked up, a replaced card still in hand) means the turn is in progress.
Anything else is illegal, with the reason, and the committed position stays as it was.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from host.errors import IllegalMoveError
from host.referee import Verdict
from host.trains.describe import move_summary, rearrangement
from host.trains.game import Game
from host.trains.moves import Move, MoveKind
from host.trains.observation import (
    MalformedObservationError,
    TrainsObservation,
    parse_observation,
)
from host.trains.position import Phase, Position, abilities, apply, check_seats, keep_choices
from host.trains.rules import (
    HOLE,
    LINE_LENGTH,
    REMOVED_PLACE,
    ability_slots,
    is_ascending,
)
from host.turns import TurnIndicator


class Referee:
    """Follows one game from observations; the committed game is ``self.game``."""

    def __init__(self, start: Position) -> None:
        self.game = Game(start)
        self.previous: Position | None = None
        """The position before the last committed move: a table showing it offers a takeback."""
        self._superseded: list[Game] = []
        """Games replaced by a table the players accepted, for undo."""

    def observe(self, seen: TrainsObservation) -> Verdict:
        """Judge the table as now seen, committing the move it shows if it shows one."""
        position = self.game.position
        if position.phase is Phase.OVER:
            return Verdict("waiting", position.to_play, {"reason": "the game is over"})
        if seen.unreadable:
            where = ", ".join(seen.unreadable)
            return Verdict(
                "waiting",
                position.to_play,
                {"unreadable": list(seen.unreadable), "reason": f"cannot read {where} yet"},
            )
        if seen.same_table(TrainsObservation.of(position)):
            return Verdict("waiting", position.to_play, {"phase": position.phase.value})
        if self.previous is not None and seen.same_table(TrainsObservation.of(self.previous)):
            return Verdict(
                "waiting",
                position.to_play,
                {"takeback": True, "reason": "the table is back before the last move"},
            )
        move, errors = _explain(position, seen)
        if move is not None:
            return self._commit(move)
        pending = _in_progress(position, seen)
        if pending is not None:
            return Verdict("waiting", position.to_play, {"pending": pending})
        return Verdict("illegal", position.to_play, {"reason": _diagnose(position, seen, errors)})

    def opening(self) -> Verdict:
        """The verdict on the opening table: who plays first."""
        return self.observe(TrainsObservation.of(self.game.position))

    def feed(self, line: Mapping[str, Any]) -> Verdict:
        """Judge one observation in its JSON form (MalformedObservationError if malformed).
        An observation marked ``"accepted": true`` is the players overruling the referee."""
        seen = parse_observation(line, self.game.position.seats)
        if line.get("accepted") is True:
            return self.accept(seen)
        return self.observe(seen)

    @property
    def dice_wanted(self) -> int:
        """The Game of Trains rolls no dice."""
        return 0

    def accept(self, seen: TrainsObservation) -> Verdict:
        """The players overrule the referee: the table as seen stands as the turn of the seat
        to play. Cards that left the table go to the discard pile; new ones came from the draw
        pile (or back from the discard pile)."""
        before = self.game.position
        if before.phase is Phase.OVER:
            return Verdict("waiting", before.to_play, {"reason": "the game is over"})
        seat = before.to_play
        table = before.copy()
        visible_before = before.on_table()
        table.lines = [list(line) for line in seen.cards_in_lines]
        table.faceup = sorted(seen.faceup_cards)
        table.locks = [
            {lock.place: before.locks[s].get(lock.place, 0)
             for s_, lock in seen.lock_places if s_ == s}
            for s in range(before.seats)
        ]
        visible_after = table.on_table()
        table.discard += sorted(visible_before - visible_after)
        for card in sorted(visible_after - visible_before):
            if card in table.discard:
                table.discard.remove(card)
            else:
                table.draw_count = max(0, table.draw_count - 1)
        if table.phase is Phase.DRAFT:
            table.drafted += 1
            done = table.drafted == table.seats
            table.phase = Phase.PLAY if done else Phase.DRAFT
            table.to_play = table.first if done else (table.first + table.drafted) % table.seats
        else:
            table.to_play = (seat + 1) % table.seats
        winners = [s for s, line in enumerate(table.lines) if is_ascending(line)]
        if winners:
            table.phase, table.to_play = Phase.OVER, winners[0]
        self._superseded.append(self.game)
        self.previous, self.game = before, Game(table)
        summary = {
            "kind": "accepted",
            "text": f"the players accepted the table as seat {seat}'s turn",
        }
        if winners:
            return Verdict("win", winners[0], {"move": summary, "by": seat})
        return Verdict("move", seat, {"move": summary, "next_seat": table.to_play})

    def undo(self) -> None:
        """Take back the last committed move or accepted table (IndexError if there is none)."""
        if self.game.moves:
            self.game.pop()
        elif self._superseded:
            self.game = self._superseded.pop()
        else:
            raise IndexError("no move to take back")
        moves = self.game.moves
        self.previous = self.game.replay(moves[:-1]) if moves else None

    def turn_indicator(self) -> TurnIndicator:
        """Whose turn it is, or who won."""
        position = self.game.position
        winner = position.winner
        return TurnIndicator(
            seats=position.seats,
            on_turn=None if winner is not None else position.to_play,
            winners=frozenset() if winner is None else frozenset({winner}),
        )

    def table(self) -> dict[str, Any]:
        """The committed table for the web view: each seat's railcars with their abilities and
        protect cards, the face-up area and the draw pile's size."""
        position = self.game.position

        def card(number: int, locked: bool = False) -> dict[str, Any]:
            ability = abilities().get(number)
            return {
                "number": number,
                "ability": ability.value if ability else None,
                "locked": locked,
            }

        return {
            "kind": "trains",
            "seats": [
                {
                    "seat": seat,
                    "cards": [
                        card(number, place in position.locks[seat])
                        for place, number in enumerate(line)
                    ],
                }
                for seat, line in enumerate(position.lines)
            ],
            "faceup": [card(number) for number in position.faceup],
            "draw_pile": position.draw_count,
        }

    def _commit(self, move: Move) -> Verdict:
        before = self.previous = self.game.position
        after = self.game.push(move)
        summary = move_summary(before, move, after)
        if after.phase is Phase.OVER:
            return Verdict("win", after.to_play, {"move": summary, "by": move.seat})
        return Verdict("move", move.seat, {"move": summary, "next_seat": after.to_play})


def _candidates(position: Position, seen: TrainsObservation) -> Iterator[Move]:
    """The moves of the seat to play that could explain ``seen``, chance outcomes read off it."""
    seat = position.to_play
    before, after = position.lines[seat], seen.cards_in_lines[seat]
    changed = [place for place in range(LINE_LENGTH) if before[place] != after[place]]
    if len(changed) == 1:
        place = changed[0]
        if position.phase is Phase.DRAFT:
            yield Move(seat, MoveKind.DRAFT, place, after[place])
        else:
            yield Move(seat, MoveKind.DRAW, place, drawn=(after[place],))
    if position.phase is not Phase.PLAY:
        return
    for card in position.faceup:
        if card in seen.faceup_cards:
            continue
        ability = abilities()[card]
        if ability in REMOVED_PLACE:
            yield from _removals(position, seen, card, REMOVED_PLACE[ability])
            continue
        for slot in ability_slots(ability):
            yield Move(seat, MoveKind.ABILITY, slot, card)


def _removals(position: Position, seen: TrainsObservation, card: int, place: int) -> Iterator[Move]:
    """A remove ability: the replacements are the new cards seen at ``place``, clockwise."""
    seat = position.to_play
    order = [(seat + step) % position.seats for step in range(position.seats)]
    # Every refill as seen, and each shorter run for a win that stopped the refills early. A
    # card seen where it was may have been drawn straight back after a reshuffle.
    seen_refills = tuple(
        seen.cards_in_lines[other][place] for other in order if place not in position.locks[other]
    )
    decision = Move(seat, MoveKind.ABILITY, None, card)
    for keep in keep_choices(position, decision):
        if not all(kept in seen.faceup_cards for kept in keep):
            continue
        for count in range(len(seen_refills), -1, -1):
            yield Move(seat, MoveKind.ABILITY, None, card, drawn=seen_refills[:count], keep=keep)


def _explain(position: Position, seen: TrainsObservation) -> tuple[Move | None, list[str]]:
    """The one candidate move whose table is ``seen``, and the rules the near misses broke."""
    errors: list[str] = []
    for move in _candidates(position, seen):
        try:
            result = apply(position, move)
        except IllegalMoveError as error:
            if move.kind is not MoveKind.ABILITY or move.slot is None:
                errors.append(str(error))
            continue
        if _shows(result, seen):
            return move, errors
    return None, errors


def _shows(result: Position, seen: TrainsObservation) -> bool:
    """True when the table ``seen`` is ``result``. Once a remove ends the game with a win, the
    seats after the winner never replace their card, so their lines are not compared."""
    expected = TrainsObservation.of(result)
    if result.phase is not Phase.OVER or all(HOLE not in line for line in result.lines):
        return expected.same_table(seen)
    return all(
        HOLE in line or line == now
        for line, now in zip(expected.cards_in_lines, seen.cards_in_lines, strict=True)
    )


def _in_progress(position: Position, seen: TrainsObservation) -> str | None:
    """What the seat to play still has to do, if ``seen`` is on the way to a legal turn."""
    seat, now = position.to_play, TrainsObservation.of(position)
    if seen.lock_places != now.lock_places:
        return None
    taken = now.faceup_cards - seen.faceup_cards
    if (seen.cards_in_lines == now.cards_in_lines and len(taken) == 1
            and seen.faceup_cards < now.faceup_cards):
        (card,) = taken
        return f"seat {seat} took the face-up {card} ({abilities()[card].words}) and may now use it"
    if len(taken) == 1 and abilities()[next(iter(taken))] in REMOVED_PLACE:
        return _removal_in_progress(position, seen, next(iter(taken)))
    others_same = all(
        seen.cards_in_lines[other] == now.cards_in_lines[other]
        for other in range(position.seats) if other != seat
    )
    changed = [p for p in range(LINE_LENGTH)
               if seen.cards_in_lines[seat][p] != now.cards_in_lines[seat][p]]
    if others_same and len(changed) == 1 and seen.faceup_cards == now.faceup_cards:
        place = changed[0]
        kind = MoveKind.DRAFT if position.phase is Phase.DRAFT else MoveKind.DRAW
        card = seen.cards_in_lines[seat][place]
        move = (
            Move(seat, kind, place, card)
            if kind is MoveKind.DRAFT
            else Move(seat, kind, place, drawn=(card,))
        )
        try:
            apply(position, move)
        except IllegalMoveError:
            return None
        replaced = now.cards_in_lines[seat][place]
        return f"seat {seat} put the {card} into place {place + 1}: lay the {replaced} face up"
    return None


def _removal_in_progress(position: Position, seen: TrainsObservation, card: int) -> str | None:
    """A remove ability part-way: some lines refilled, the removed cards coming face up."""
    ability = abilities()[card]
    place = REMOVED_PLACE[ability]
    removed = set()
    for seat in range(position.seats):
        before, after = position.lines[seat], seen.cards_in_lines[seat]
        if any(before[p] != after[p] for p in range(LINE_LENGTH) if p != place):
            return None
        if before[place] != after[place]:
            if place in position.locks[seat] or after[place] not in position.unseen():
                return None
            removed.add(before[place])
    if not removed or not seen.faceup_cards <= (set(position.faceup) - {card}) | removed:
        return None
    where = {0: "leftmost", LINE_LENGTH - 1: "rightmost"}.get(place, "middle")
    return (
        f"seat {position.to_play} used the {card} ({ability.words}): every line without a "
        f"protect card there lays its {where} card face up and refills it from the draw pile, "
        f"clockwise from seat {position.to_play}"
    )


def _diagnose(position: Position, seen: TrainsObservation, errors: list[str]) -> str:
    """Why no legal turn of the seat to play explains ``seen``, as precisely as can be said."""
    seat, now = position.to_play, TrainsObservation.of(position)
    if errors:
        return f"seat {seat}: {errors[0]}"
    taken = sorted(now.faceup_cards - seen.faceup_cards)
    appeared = sorted(seen.faceup_cards - now.faceup_cards)
    movers = [s for s in range(position.seats) if seen.cards_in_lines[s] != now.cards_in_lines[s]]
    used = " and ".join(f"{c} ({abilities()[c].words})" for c in taken)
    if len(taken) > 1:
        return f"the face-up {used} were taken together: a turn uses at most one face-up card"
    if any(s != seat for s in movers) and not any(abilities()[c] in REMOVED_PLACE for c in taken):
        other = next(s for s in movers if s != seat)
        return f"seat {other}'s line changed, but it is seat {seat}'s turn"
    if seat in movers:
        before, after = now.cards_in_lines[seat], seen.cards_in_lines[seat]
        if sorted(before) == sorted(after):
            what = f"seat {seat} {rearrangement(before, after)}"
            if not taken:
                return f"{what} without using a face-up ability"
            return f"{what}: the face-up {used} does not allow that"
        new = [card for card in after if card not in before]
        if len(new) > 1:
            return f"seat {seat}'s line shows {len(new)} new cards: a turn brings at most one"
        if taken:
            return (
                f"seat {seat} used the face-up {used} and also brought the {new[0]} into the line"
            )
    if taken:
        return f"the face-up {used} was used but seat {seat}'s line did not change as it allows"
    if appeared:
        cards = ", ".join(str(card) for card in appeared)
        return f"the {cards} appeared face up, but no line gave it up"
    if seen.lock_places != now.lock_places:
        return "a protect card appeared or vanished without a protect ability being used"
    return f"the table changed in a way no turn of seat {seat} explains"


def open_referee(opening: dict[str, Any]) -> Referee:
    """A referee for the table described by a game's first observation."""
    return Referee(parse_opening(opening))


def parse_opening(data: Any) -> Position:
    """The first observation of a game: the table after dealing or after set-up.

    It carries ``"seats"`` and ``"first"``; ``"phase"`` (``"draft"`` or ``"play"``) says
    whether the set-up draft is still to come. Without it, a table with no face-up cards and
    every line descending is taken as just dealt.
    """
    if not isinstance(data, dict):
        raise MalformedObservationError("an observation is a JSON object")
    seats, first = data.get("seats"), data.get("first", 0)
    if not isinstance(seats, int) or isinstance(seats, bool):
        raise MalformedObservationError('the first observation needs "seats", the seat count')
    if not isinstance(first, int) or isinstance(first, bool):
        raise MalformedObservationError('"first" must be the number of the seat that starts')
    check_seats(seats, first)
    observation = parse_observation(data, seats)
    if observation.unreadable:
        raise MalformedObservationError(
            "the first observation must show every card: cannot read " + observation.unreadable[0]
        )
    if observation.locks:
        raise MalformedObservationError("no protect card can lie out before the first turn")
    phase_name = data.get("phase")
    if phase_name is None:
        dealt = not observation.faceup_cards and all(
            list(line) == sorted(line, reverse=True) for line in observation.cards_in_lines
        )
        phase = Phase.DRAFT if dealt else Phase.PLAY
    elif phase_name in ("draft", "play"):
        phase = Phase(phase_name)
    else:
        raise MalformedObservationError('"phase" must be "draft" or "play"')
    lines = [list(line) for line in observation.cards_in_lines]
    return Position.from_table(seats, first, lines, sorted(observation.faceup_cards), phase)
