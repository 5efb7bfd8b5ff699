"""Rule tests for The Game of Trains: every ability, every edge, set-up and the end."""

from __future__ import annotations

import random

import pytest
from trains_helpers import cards_with, everywhere, table

from host.errors import IllegalMoveError
from host.trains.game import Game
from host.trains.moves import Drawn, Move, MoveKind
from host.trains.position import (
    DECK_SIZE,
    Phase,
    Position,
    Refill,
    apply,
    complete,
    deal,
    decide,
    drawable,
    legal_moves,
    sample_chance,
)
from host.trains.rules import HOLE, Ability

SWAP = cards_with(Ability.SWAP_ADJACENT)
ACROSS = cards_with(Ability.SWAP_ACROSS_ONE)
RIGHT = cards_with(Ability.MOVE_TWO_RIGHT)
LEFT = cards_with(Ability.MOVE_TWO_LEFT)
REMOVE_LEFT = cards_with(Ability.REMOVE_LEFTMOST)
REMOVE_MIDDLE = cards_with(Ability.REMOVE_MIDDLE)
REMOVE_RIGHT = cards_with(Ability.REMOVE_RIGHTMOST)
PROTECT = cards_with(Ability.PROTECT)

# Two lines of cards that carry no ability used as a face-up card below.
LINE_A = [70, 60, 50, 40, 30, 20, 10]
LINE_B = [71, 61, 51, 44, 31, 27, 11]


def use(position: Position, card: int, slot: int | None = None, **chance: object) -> Position:
    return apply(position, Move(position.to_play, MoveKind.ABILITY, slot, card, **chance))  # type: ignore[arg-type]


def test_swap_adjacent_swaps_two_neighbours_and_discards_the_ability_card() -> None:
    start = table([LINE_A, LINE_B], faceup=[SWAP[0]])
    after = use(start, SWAP[0], 5)
    assert after.lines[0] == [70, 60, 50, 40, 30, 10, 20]
    assert after.faceup == [] and SWAP[0] in after.discard
    assert after.to_play == 1


def test_swap_adjacent_cannot_start_at_the_last_place() -> None:
    with pytest.raises(IllegalMoveError, match="runs off the line"):
        use(table([LINE_A, LINE_B], faceup=[SWAP[0]]), SWAP[0], 6)


def test_swap_across_one_swaps_cards_with_one_between() -> None:
    after = use(table([LINE_A, LINE_B], faceup=[ACROSS[0]]), ACROSS[0], 4)
    assert after.lines[0] == [70, 60, 50, 40, 10, 20, 30]
    with pytest.raises(IllegalMoveError):
        use(table([LINE_A, LINE_B], faceup=[ACROSS[0]]), ACROSS[0], 5)


@pytest.mark.parametrize(
    ("slot", "line"),
    [
        (0, [60, 50, 70, 40, 30, 20, 10]),
        (4, [70, 60, 50, 40, 20, 10, 30]),
    ],
)
def test_move_two_right_shifts_the_two_cards_it_passes(slot: int, line: list[int]) -> None:
    assert use(table([LINE_A, LINE_B], faceup=[RIGHT[0]]), RIGHT[0], slot).lines[0] == line


@pytest.mark.parametrize("slot", [5, 6])
def test_move_two_right_cannot_use_the_last_two_cards(slot: int) -> None:
    with pytest.raises(IllegalMoveError, match="exactly 2 places"):
        use(table([LINE_A, LINE_B], faceup=[RIGHT[0]]), RIGHT[0], slot)


@pytest.mark.parametrize(
    ("slot", "line"),
    [(2, [50, 70, 60, 40, 30, 20, 10]), (6, [70, 60, 50, 40, 10, 30, 20])],
)
def test_move_two_left_shifts_the_two_cards_it_passes(slot: int, line: list[int]) -> None:
    assert use(table([LINE_A, LINE_B], faceup=[LEFT[0]]), LEFT[0], slot).lines[0] == line


@pytest.mark.parametrize("slot", [0, 1])
def test_move_two_left_cannot_use_the_first_two_cards(slot: int) -> None:
    with pytest.raises(IllegalMoveError, match="exactly 2 places"):
        use(table([LINE_A, LINE_B], faceup=[LEFT[0]]), LEFT[0], slot)


def test_draw_replaces_a_card_which_goes_face_up() -> None:
    start = table([LINE_A, LINE_B], draw_pile=[3, 2])
    after = apply(start, Move(0, MoveKind.DRAW, 6, drawn=(2,)))
    assert after.lines[0][6] == 2 and after.faceup == [10] and after.draw_pile == [3]
    with pytest.raises(IllegalMoveError, match="top card of the draw pile is the 2"):
        apply(start, Move(0, MoveKind.DRAW, 6, drawn=(3,)))


def test_two_face_up_cards_with_one_ability_are_discarded_at_once() -> None:
    # The replaced 10 shares its ability with a face-up card: both go to the discard pile.
    partner = next(c for c in cards_with(Ability.SWAP_ACROSS_ONE) if c != 10)
    assert 10 in ACROSS
    start = table([LINE_A, LINE_B], faceup=[partner], draw_pile=[2])
    after = apply(start, Move(0, MoveKind.DRAW, 6, drawn=(2,)))
    assert after.faceup == [] and {10, partner} <= set(after.discard)


@pytest.mark.parametrize(("card", "place"), [(REMOVE_LEFT[0], 0), (REMOVE_MIDDLE[0], 3)])
def test_remove_takes_the_card_from_every_line_and_refills_clockwise_from_the_user(
    card: int, place: int
) -> None:
    pile = [1, 2, 3]  # top card last: seat 1 draws the 3, seat 2 the 2, seat 0 the 1
    start = table(
        [LINE_A, LINE_B, [72, 62, 52, 42, 32, 22, 12]], faceup=[card], draw_pile=pile, to_play=1
    )
    after = use(start, card)
    assert [line[place] for line in after.lines] == [1, 3, 2]
    removed = {LINE_A[place], LINE_B[place], [72, 62, 52, 42, 32, 22, 12][place]}
    assert removed <= set(after.faceup) | set(after.discard)


def test_a_protected_middle_card_survives_remove_middle() -> None:
    start = table(
        [LINE_A, LINE_B],
        faceup=[REMOVE_MIDDLE[0]],
        draw_pile=[2, 3],
        locks=[{}, {3: PROTECT[0]}],
    )
    after = use(start, REMOVE_MIDDLE[0])
    assert after.lines[1] == LINE_B and after.lines[0][3] == 3
    assert after.locks[1] == {3: PROTECT[0]}


def test_protect_goes_under_an_end_or_the_middle_card_once() -> None:
    start = table([LINE_A, LINE_B], faceup=[PROTECT[0]])
    after = use(start, PROTECT[0], 6)
    assert after.locks[0] == {6: PROTECT[0]} and PROTECT[0] not in after.discard
    with pytest.raises(IllegalMoveError, match="leftmost, middle or rightmost"):
        use(start, PROTECT[0], 2)
    locked = table([LINE_A, LINE_B], faceup=[PROTECT[0]], locks=[{6: PROTECT[1]}, {}])
    with pytest.raises(IllegalMoveError, match="protected already"):
        use(locked, PROTECT[0], 6)


def test_moving_a_protected_card_loses_its_protect_card() -> None:
    start = table([LINE_A, LINE_B], faceup=[SWAP[0]], locks=[{0: PROTECT[0]}, {}])
    after = use(start, SWAP[0], 0)
    assert after.locks[0] == {} and PROTECT[0] in after.discard


def test_replacing_a_protected_card_by_a_draw_loses_its_protect_card() -> None:
    start = table([LINE_A, LINE_B], draw_pile=[2], locks=[{3: PROTECT[0]}, {}])
    after = apply(start, Move(0, MoveKind.DRAW, 3, drawn=(2,)))
    assert after.locks[0] == {} and PROTECT[0] in after.discard


def test_a_swap_elsewhere_keeps_the_protection() -> None:
    start = table([LINE_A, LINE_B], faceup=[SWAP[0]], locks=[{0: PROTECT[0]}, {}])
    assert use(start, SWAP[0], 1).locks[0] == {0: PROTECT[0]}


def test_a_replacement_draw_that_wins_ends_the_game_before_the_others_draw() -> None:
    # Seat 1 uses remove-rightmost; seat 1 refills first and its line becomes ascending.
    card = REMOVE_RIGHT[0]
    start = table([LINE_A, [3, 9, 17, 25, 33, 41, 2]], faceup=[card], draw_pile=[5, 80], to_play=1)
    after = use(start, card)
    assert after.phase is Phase.OVER and after.winner == 1
    assert after.lines[1][6] == 80 and after.lines[0][6] == 0  # seat 0 never refilled
    with pytest.raises(IllegalMoveError, match="game is over"):
        apply(after, Move(0, MoveKind.DRAW, 0))


def test_a_draw_that_makes_the_line_ascending_wins() -> None:
    start = table([[10, 20, 30, 40, 50, 60, 5], LINE_B], draw_pile=[70])
    after = apply(start, Move(0, MoveKind.DRAW, 6, drawn=(70,)))
    assert after.phase is Phase.OVER and after.winner == 0


def test_a_removal_forming_three_of_an_ability_lets_the_table_choose_which_stays() -> None:
    # Both removed cards and the face-up card share an ability: one stays, the table chooses.
    group = cards_with(Ability.SWAP_ADJACENT)[1:4]
    start = table(
        [[group[0], 60, 50, 40, 30, 20, 10], [group[1], 61, 51, 44, 31, 27, 11]],
        faceup=[REMOVE_LEFT[0], group[2]],
        draw_pile=[2, 3],
    )
    with pytest.raises(IllegalMoveError, match="exactly one of them stays"):
        use(start, REMOVE_LEFT[0])
    for kept in group:
        after = use(start, REMOVE_LEFT[0], keep=(kept,))
        assert after.faceup == [kept]
        assert set(group) - {kept} <= set(after.discard)


def test_a_removal_forming_a_pair_discards_both() -> None:
    first, second = cards_with(Ability.SWAP_ADJACENT)[1:3]
    start = table(
        [[first, 60, 50, 40, 30, 20, 10], [second, 61, 51, 44, 31, 27, 11]],
        faceup=[REMOVE_LEFT[0]],
        draw_pile=[2, 3],
    )
    after = use(start, REMOVE_LEFT[0])
    assert after.faceup == [] and {first, second} <= set(after.discard)


def test_an_empty_draw_pile_is_refilled_by_reshuffling_the_discard_pile() -> None:
    start = table([LINE_A, LINE_B], draw_pile=[])
    assert start.draw_count == 0 and start.discard
    move = complete(start, Move(0, MoveKind.DRAW, 6), random.Random(7))
    assert sorted(move.shuffle) == sorted(start.discard) and move.drawn == (move.shuffle[-1],)
    after = apply(start, move)
    assert after.draw_count == len(start.discard) - 1 and after.discard == []
    assert everywhere(after) == list(range(1, DECK_SIZE + 1))
    with pytest.raises(IllegalMoveError, match="reshuffled order"):
        apply(start, Move(0, MoveKind.DRAW, 6, drawn=(move.drawn[0],)))


def test_on_a_real_table_a_discarded_card_comes_back_only_after_the_reshuffle() -> None:
    real = Position.from_table(2, 0, [LINE_A, LINE_B], [], Phase.PLAY)
    real.discard = [SWAP[0]]
    with pytest.raises(IllegalMoveError, match="discarded"):
        apply(real, Move(0, MoveKind.DRAW, 6, drawn=(SWAP[0],)))
    real.discard_unseen += real.draw_count
    real.draw_count = 0  # the draw pile is empty: the discard pile is reshuffled first
    assert apply(real, Move(0, MoveKind.DRAW, 6, drawn=(SWAP[0],))).lines[0][6] == SWAP[0]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_draft_draws_one_two_three_four_and_keeps_one_each(seats: int) -> None:
    rng = random.Random(seats)
    position = Position.deal(seats, seats - 1, rng)
    assert all(line == sorted(line, reverse=True) for line in position.lines)
    for order in range(seats):
        seat = (seats - 1 + order) % seats
        assert position.phase is Phase.DRAFT and position.to_play == seat
        moves = legal_moves(position, rng)
        assert len({move.card for move in moves}) == order + 1  # the cards this seat drew
        position = apply(position, moves[0])
        assert everywhere(position) == list(range(1, DECK_SIZE + 1))
    assert position.phase is Phase.PLAY and position.to_play == seats - 1
    assert position.draw_count == DECK_SIZE - 7 * seats - seats * (seats + 1) // 2


def test_only_the_seat_on_turn_may_move() -> None:
    start = table([LINE_A, LINE_B], faceup=[SWAP[0]])
    with pytest.raises(IllegalMoveError, match="seat 0's turn"):
        apply(start, Move(1, MoveKind.ABILITY, 0, SWAP[0]))
    with pytest.raises(IllegalMoveError, match="not face up"):
        use(start, SWAP[1], 0)


def test_a_remove_leaves_a_chance_node_and_the_draw_pile_deals_each_line_in_turn() -> None:
    pile = [1, 2, 3]
    start = table(
        [LINE_A, LINE_B, [72, 62, 52, 42, 32, 22, 12]],
        faceup=[REMOVE_LEFT[0]],
        draw_pile=pile,
        to_play=1,
    )
    waiting = decide(start, Move(1, MoveKind.ABILITY, None, REMOVE_LEFT[0]))
    assert waiting.is_chance_node() and waiting.refill == Refill(0, (1, 2, 0))
    assert [line[0] for line in waiting.lines] == [HOLE, HOLE, HOLE]
    assert drawable(waiting) == [3]
    with pytest.raises(IllegalMoveError, match="deals first"):
        decide(waiting, Move(1, MoveKind.DRAW, 0))
    after, outcome = deal(waiting, None)
    assert outcome == Drawn(3) and after.lines[1][0] == 3 and after.refill == Refill(0, (2, 0))
    with pytest.raises(IllegalMoveError, match="top card of the draw pile is the 2"):
        deal(after, 7)
    for _ in range(2):
        after = deal(after, None)[0]
    assert after.refill is None and after.to_play == 2
    assert after == apply(start, Move(1, MoveKind.ABILITY, None, REMOVE_LEFT[0]))
    with pytest.raises(IllegalMoveError, match="no line is owed"):
        deal(after, None)


def test_a_draw_is_a_decision_and_the_drawn_card_is_chance() -> None:
    start = table([LINE_A, LINE_B], draw_pile=[5, 9])
    with pytest.raises(IllegalMoveError, match="names no drawn card"):
        decide(start, Move(0, MoveKind.DRAW, 6, drawn=(9,)))
    waiting = decide(start, Move(0, MoveKind.DRAW, 6))
    assert waiting.lines == start.lines and waiting.refill == Refill(6, (0,), draw=True)
    after, outcome = deal(waiting, None)
    assert outcome == Drawn(9) and after.lines[0][6] == 9 and LINE_A[6] in after.faceup
    assert after.to_play == 1 and after == apply(start, Move(0, MoveKind.DRAW, 6, drawn=(9,)))


def test_on_a_real_table_any_card_it_cannot_place_may_be_drawn() -> None:
    real = Position.from_table(2, 0, [LINE_A, LINE_B], [SWAP[0]], Phase.PLAY)
    real.discard = [SWAP[1]]
    waiting = decide(real, Move(0, MoveKind.DRAW, 0))
    cards = drawable(waiting)
    assert not {*LINE_A, *LINE_B, SWAP[0], SWAP[1]} & set(cards)
    assert len(cards) == DECK_SIZE - 14 - 2
    drawn = sample_chance(waiting, random.Random(3))
    assert drawn.card in cards and deal(waiting, drawn.card)[0].lines[0][0] == drawn.card


def test_a_game_takes_decisions_and_chance_outcomes_and_records_each_turn_whole() -> None:
    start = table([LINE_A, LINE_B], faceup=[REMOVE_MIDDLE[0]], draw_pile=[5, 9, 2, 3])
    game = Game(start)
    game.push(Move(0, MoveKind.ABILITY, None, REMOVE_MIDDLE[0]))
    assert game.is_chance_node() and game.legal_moves() == [Drawn(3)]
    game.push(game.sample_chance(random.Random(0)))
    game.push(Drawn(2))
    game.push(Move(1, MoveKind.DRAW, 0))
    game.push(Drawn(9))
    assert [move.drawn for move in game.moves] == [(3, 2), (9,)]
    assert Game.from_record(game.record()).position == game.position
    assert game.pop() == Drawn(9) and game.is_chance_node()
    game.pop()
    assert game.pop() == Drawn(2) and game.position.refill == Refill(3, (1,))


def test_a_position_written_before_refills_existed_still_reads() -> None:
    data = table([LINE_A, LINE_B]).to_json()
    del data["refill"]
    assert Position.from_json(data) == table([LINE_A, LINE_B])
