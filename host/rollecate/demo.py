"""A whole seeded game between simple bots, told turn by turn (``conductor demo rollecate``)."""

from __future__ import annotations

import random

from host.rollecate.bots import simple_policy
from host.rollecate.cards import CardBook, Kind
from host.rollecate.discard import advise
from host.rollecate.moves import Build, Discard, DiscardChaos, Move, Pass, Roll
from host.rollecate.state import Effect, GameState, Phase
from host.rollecate.words import cards_words, dice_words, ordinal, plural


def card_short(name: str, book: CardBook) -> str:
    """A card in few characters: ``3`` (track card), ``b3`` (broken track), ``c3`` (chaos)."""
    card = book[name]
    return str(card.value) if card.kind is Kind.TRACK else f"{card.kind.value[0]}{card.value}"


def railway_words(state: GameState) -> str:
    """The railway from its start, the train's card in brackets."""
    shown = [card_short(name, state.book) for name in state.railway]
    shown[state.train] = f"[{shown[state.train]}]"
    return " ".join(shown)


def play_demo(seed: int, players: int) -> list[str]:
    """Play a game with ``simple_policy`` seats and dice from ``random.Random(seed)``."""
    rng = random.Random(seed)
    state = GameState.new(players, rng)
    lines = [
        f"Rollecate, seed {seed}, {players} players",
        f"starting railway: {railway_words(state)} "
        f"(the train on the {ordinal(state.train + 1)} card)",
    ]
    lines.append(_turn_line(state))
    while not state.over:
        seat, phase = state.seat, state.phase
        move = state.roll_dice(rng) if state.is_chance_node() else simple_policy(state)
        effect = state.push(move)
        lines.extend(_move_lines(move, effect, state))
        if state.phase is Phase.DISCARD and phase is not Phase.DISCARD:
            advice = advise(state.discards[seat], state.owed, state.book.value)
            order = ", ".join(
                card_short(step.card, state.book) + (" (combine)" if step.combine else "")
                for step in advice.steps
            )
            lines.append(f"  advice: {order}; saves {plural(advice.points_saved, 'point')}")
        if state.over or state.seat != seat:
            lines.append(f"  railway: {railway_words(state)}")
            if not state.over:
                lines.append(_turn_line(state))
    scores = state.scores()
    lines.append("game over: the draw pile is empty; hands join the discard piles")
    lines.extend(
        f"seat {score.seat}: {score.total} points in {score.cards} cards" for score in scores.seats
    )
    winners = " and ".join(f"seat {seat}" for seat in scores.winners)
    lines.append(f"winner: {winners} (decided by {scores.decided_by})")
    return lines


def _turn_line(state: GameState) -> str:
    hand = " ".join(card_short(name, state.book) for name in state.hands[state.seat])
    return f"turn {state.turns}, seat {state.seat} draws; hand: {hand}"


def _move_lines(move: Move, effect: Effect, state: GameState) -> list[str]:
    book = state.book
    lines: list[str] = []
    match move:
        case Pass():
            lines.append("  passes")
        case Build(cards):
            lines.append(f"  builds {cards_words(cards, book)}: {dice_words(state.dice_left)}")
        case DiscardChaos(cards):
            lines.append(f"  discards chaos cards: {cards_words(cards, book)}")
        case Roll(faces):
            shown = " ".join(face.value for face in faces)
            lines.append(f"  rolls {shown} ({plural(move.wheels, 'wheel')})")
        case Discard(card, combine):
            verb = "combines" if combine else "puts down"
            lines.append(f"  {verb} {cards_words([card], book)}")
    if effect.ride is not None:
        ride = effect.ride
        if ride.derailed:
            lines.append(f"  Rollecate derailed, {plural(ride.missed, 'step')} short")
        elif ride.stop != ride.start:
            lines.append(f"  Rollecate rides {plural(ride.stop - ride.start, 'card')}")
        if ride.broken:
            lines.append(f"  {plural(len(ride.broken), 'broken track')} passed or stopped on")
        if effect.penalty:
            lines.append(f"  penalty cards: {cards_words(effect.penalty, book)}")
    return lines
