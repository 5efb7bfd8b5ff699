"""Moves and rearrangements in the players' words ("place 3" counts from 1, as people do)."""

from __future__ import annotations

from typing import Any

from host.trains.moves import Move, MoveKind
from host.trains.position import Position, abilities
from host.trains.rules import REMOVED_PLACE, Ability, Lock


def describe(before: Position, move: Move) -> str:
    """One sentence saying what ``move`` did to the table ``before``."""
    seat = f"seat {move.seat}"
    if move.kind is not MoveKind.ABILITY:
        assert move.slot is not None
        replaced = before.lines[move.seat][move.slot]
        card = move.card if move.kind is MoveKind.DRAFT else move.drawn[0]
        verb = "kept the {} for" if move.kind is MoveKind.DRAFT else "drew the {} into"
        return f"{seat} {verb.format(card)} place {move.slot + 1}; the {replaced} goes face up"
    assert move.card is not None
    ability = abilities()[move.card]
    used = f"{seat} used the {move.card} ({ability.words})"
    line = before.lines[move.seat]
    if ability is Ability.PROTECT:
        lock = Lock.at(move.slot or 0)
        assert lock is not None
        return f"{used} to protect the {lock.value} card, the {line[lock.place]}"
    if ability in REMOVED_PLACE:
        place = REMOVED_PLACE[ability]
        order = [(move.seat + step) % before.seats for step in range(before.seats)]
        removing = [s for s in order if place not in before.locks[s]]
        swaps = [
            f"seat {s} replaced the {before.lines[s][place]} with the {card}"
            for s, card in zip(removing, move.drawn, strict=False)
        ]
        kept = [
            f"seat {s} keeps its protected {before.lines[s][place]}"
            for s in order
            if s not in removing
        ]
        return f"{used}: " + "; ".join(swaps + kept)
    assert move.slot is not None
    after = list(line)
    if ability in (Ability.SWAP_ADJACENT, Ability.SWAP_ACROSS_ONE):
        other = move.slot + (1 if ability is Ability.SWAP_ADJACENT else 2)
        after[move.slot], after[other] = after[other], after[move.slot]
    else:
        end = move.slot + (2 if ability is Ability.MOVE_TWO_RIGHT else -2)
        after.insert(end, after.pop(move.slot))
    return f"{used}: {rearrangement(line, after)}"


def rearrangement(before: list[int] | tuple[int, ...], after: list[int] | tuple[int, ...]) -> str:
    """How a line's own cards were rearranged: a swap, a move, or a general shuffle."""
    changed = [i for i in range(len(before)) if before[i] != after[i]]
    if len(changed) == 2:
        i, j = changed
        return f"swapped places {i + 1} and {j + 1} (the {before[i]} and the {before[j]})"
    for card in before:
        start, end = list(before).index(card), list(after).index(card)
        rest_before = [c for c in before if c != card]
        rest_after = [c for c in after if c != card]
        if start != end and rest_before == rest_after:
            return f"moved the {card} from place {start + 1} to place {end + 1}"
    places = ", ".join(str(i + 1) for i in changed)
    return f"rearranged places {places}"


def consequences(before: Position, move: Move, after: Position) -> list[str]:
    """What the table must do after ``move`` besides the move itself: pairs of face-up cards to
    discard, protect cards lost, the discard pile reshuffled."""
    said: list[str] = []
    if before.draw_count < len(move.drawn):
        said.append("the draw pile ran out: shuffle the discard pile into a new draw pile")
    lost = [
        card
        for seat in range(before.seats)
        for place, card in before.locks[seat].items()
        if after.locks[seat].get(place) != card
    ]
    said += [f"the protect card under it ({card}) goes to the discard pile" for card in lost]
    paired = [
        card
        for card in after.discard
        if card not in before.discard and card != move.card and card not in lost
    ]
    if paired:
        cards = " and ".join(f"the {card}" for card in paired)
        said.append(f"{cards} share an ability: discard them face down")
    return said


def move_summary(before: Position, move: Move, after: Position) -> dict[str, Any]:
    """The ``"move"`` field of a verdict: the move's record form, its ability and a sentence."""
    summary = move.to_json()
    if move.kind is MoveKind.ABILITY and move.card is not None:
        summary["ability"] = abilities()[move.card].value
    summary["text"] = "; ".join([describe(before, move), *consequences(before, move, after)])
    return summary
