"""Train Line Chicago rules, clause by clause (rulebook 003 and PRODUCT.md's ruling)."""

from __future__ import annotations

import json
import random

import pytest

from host.errors import BadInputError, IllegalMoveError
from host.trainline.cards import ACTION_TYPES
from host.trainline.game import (
    ACTION_HAND,
    BLOCKED_TURNS_ALLOWED,
    NUMBER_HAND,
    PAWNS,
    Phase,
    TrainlineGame,
)
from host.trainline.moves import (
    Accept,
    Board,
    BoardingDie,
    Eccentric,
    EndTurn,
    Enter,
    Exit,
    MoveAlong,
    PanHandle,
    PlayExpress,
    PlayReverse,
    PlusDiscard,
    Rebel,
    TakeSeat,
    UsePass,
    UseToken,
    move_from_json,
    move_to_json,
    moves_from_json,
)
from host.trainline.tiles import Join, Space, join, load_tile, parse_tile
from host.turns import Direction

START = (0, 4)  # the red-line tile's upper door; its pawns enter at (1, 4)


def fresh(players: int = 2, seed: int = 5) -> TrainlineGame:
    """A game with empty hands, so each test deals exactly the cards it is about."""
    game = TrainlineGame.new(players, random.Random(seed))
    for player in game.players:
        player.numbers, player.actions = [], []
    return game


def illegal(game: TrainlineGame, move: object, reason: str) -> None:
    with pytest.raises(IllegalMoveError, match=reason):
        game.push(move)  # type: ignore[arg-type]


def test_tiles_are_data_and_join_along_either_side() -> None:
    red, blue = load_tile("red-line"), load_tile("blue-line")
    short = join(red, blue, Join.SHORT)
    assert (3, 8) in short.links[(3, 9)]  # the aisles meet where the short sides touch
    long = join(red, blue, Join.LONG)
    assert len(long.starts) == len(short.starts) == 4
    assert (4, 7) not in short.links[(3, 7)]  # a metal bar
    assert short.entries[START] == (1, 4)
    assert short.spaces[(2, 6)] is Space.PASSENGER


@pytest.mark.parametrize(
    ("text", "reason"),
    [("{", "not JSON"), ('{"tile": "x", "rows": ["AA", "A"]}', "same length"),
     ('{"tile": "x", "rows": ["AZ"]}', "unknown cells"),
     ('{"tile": "x", "rows": ["AA"], "bars": [[[0, 0], [1, 1]]]}', "neighbouring"),
     ('{"tile": "x", "rows": ["AA"], "bars": [7]}', "a bar is")],
)
def test_a_bad_tile_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(BadInputError, match=reason):
        parse_tile(text)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_set_up_deals_pawns_cards_and_tokens(players: int) -> None:
    game = TrainlineGame.new(players, random.Random(1))
    for seat, player in enumerate(game.players):
        assert game.pawn_count(seat) == player.supply == PAWNS[players]
        assert (len(player.numbers), len(player.actions), player.tokens) == (2, 3, 3)


def test_open_doors_board_and_keep_the_turn_closed_doors_miss_it() -> None:
    game = fresh()
    game.push(Board(START))
    assert game.is_chance_node() and game.acting_seat == 0
    illegal(game, EndTurn(), "roll the boarding die first")
    game.push(BoardingDie(doors_open=True))
    assert game.players[0].aisle == (1, 4) and game.current == 0
    illegal(game, BoardingDie(doors_open=True), "no boarding die is due")
    illegal(game, Board((6, 4)), "one boarding per turn")
    game.push(EndTurn())
    game.push(Board((6, 4)))
    game.push(BoardingDie(doors_open=False))
    assert game.players[1].missed == (6, 4) and game.current == 0
    game.push(EndTurn())
    # The pawn that missed the train enters on its owner's next turn, without a roll.
    assert game.current == 1 and game.players[1].aisle == (5, 4)
    assert game.players[1].missed is None


def test_refill_to_two_number_cards_and_three_action_cards_after_each_turn() -> None:
    game = fresh()
    game.push(EndTurn())
    assert (len(game.players[0].numbers), len(game.players[0].actions)) == (
        NUMBER_HAND, ACTION_HAND)


def test_u_pass_boards_without_the_die_and_boarding_beside_an_aisle_pawn_costs_both() -> None:
    game = fresh()
    me = game.players[0]
    me.actions = ["u-pass"]
    _in_aisle(game, 0, (3, 0))
    supply = me.supply
    game.push(UsePass(START))
    assert me.aisle is None and me.supply == supply + 1  # both pawns are off the train
    assert game.pawn_count(0) == PAWNS[2]


def _in_aisle(game: TrainlineGame, seat: int, cell: tuple[int, int]) -> None:
    game.players[seat].aisle = cell
    game.players[seat].supply -= 1


def test_moves_are_exact_with_one_card_or_two_of_a_colour() -> None:
    game = fresh()
    _in_aisle(game, 0, (3, 0))
    game.players[0].numbers = ["red-1", "blue-2"]
    illegal(game, MoveAlong(("red-1", "blue-2"), False, (), (3, 3)), "Advanced Motion")
    illegal(game, MoveAlong(("red-1",), False, (), (3, 2)), "exactly 1")
    game.push(MoveAlong(("blue-2",), False, (), (3, 2)))
    assert game.players[0].aisle == (3, 2) and game.current == 1  # moving ends the turn
    assert "blue-2" in game.number_discards


def test_advanced_motion_adds_its_number_mixes_colours_and_stands_alone() -> None:
    game = fresh()
    _in_aisle(game, 0, (3, 0))
    plus = game.cards.motion_plus
    game.players[0].numbers = ["red-1", "blue-2"]
    game.players[0].actions = ["advanced-motion"]
    assert (3, 3 + plus) in game.landings(0, 3 + plus, 0)
    game.push(MoveAlong(("red-1", "blue-2"), True, (), (3, 3 + plus)))
    game.players[1].actions = ["advanced-motion"]
    _in_aisle(game, 1, (3, 17))
    game.push(MoveAlong((), True, (), (3, 17 - plus)))
    assert game.players[1].aisle == (3, 17 - plus)


def test_opposing_pawns_can_be_joined_but_not_passed_without_excuse_me() -> None:
    game = fresh()
    _in_aisle(game, 0, (3, 3))
    _in_aisle(game, 1, (3, 5))
    assert (3, 5) in game.landings(0, 2, 0)  # sharing the aisle space is allowed
    assert (3, 6) not in game.landings(0, 2, 0)
    assert (3, 6) in game.landings(0, 2, 1)  # the space got past is not counted
    game.players[0].numbers = ["red-2"]
    illegal(game, MoveAlong(("red-2",), False, (), (3, 6)), "no way")
    game.players[0].actions = ["excuse-me"]
    game.push(MoveAlong(("red-2",), False, ("excuse-me",), (3, 6)))
    assert "excuse-me" in game.action_discards


def test_seats_behind_a_printed_passenger_need_excuse_me_or_rebel() -> None:
    game = fresh()
    _in_aisle(game, 0, (3, 6))
    assert (1, 6) not in game.landings(0, 1, 0)
    assert (1, 6) in game.landings(0, 1, 1)
    game.players[0].numbers = ["blue-1"]
    game.players[0].actions = ["rebel-passenger"]
    game.push(MoveAlong(("blue-1",), False, ("rebel-passenger",), (1, 6)))
    assert game.players[0].seated == [(1, 6)] and game.players[0].aisle is None


def test_metal_bars_cannot_be_crossed_even_with_excuse_me() -> None:
    game = fresh()
    _in_aisle(game, 0, (3, 7))
    assert (4, 7) not in game.landings(0, 1, 0) | game.landings(0, 1, 1)
    assert (2, 7) in game.landings(0, 1, 0)


def test_express_skips_the_next_player_and_expressing_everyone_gives_a_bonus_turn() -> None:
    game = fresh(players=3)
    game.players[0].actions = ["express", "express", "express"]
    game.push(PlayExpress())
    assert game.turn_indicator().skipped == {1} and game.target == 2
    game.push(PlayExpress())
    illegal(game, PlayExpress(), "already skipped")
    game.push(EndTurn())
    assert game.current == 0 and game.turn_indicator().skipped == frozenset()


def test_reverse_turns_play_and_the_targets_round() -> None:
    game = fresh(players=4)
    game.players[0].actions = ["reverse", "exit-1x"]
    game.players[3].seated = [(2, 0)]
    game.players[3].supply -= 1
    game.push(PlayReverse())
    assert game.direction is Direction.COUNTERCLOCKWISE and game.target == 3
    game.push(Exit("exit-1x", ((2, 0),)))
    assert game.turn_indicator().on_turn == 3  # the target may answer
    game.push(Accept())
    assert game.players[3].seated == [] and game.current == 3  # Exit ends the turn


def test_a_rebel_passenger_nullifies_an_exit_but_not_an_express() -> None:
    game = fresh()
    game.players[0].actions = ["exit-2x", "express"]
    game.players[1].actions = ["rebel-passenger"]
    game.players[1].seated = [(2, 0), (2, 1)]
    game.players[1].supply -= 2
    illegal(game, Exit("exit-2x", ((2, 0),)), "name 2 seat")
    game.push(Exit("exit-2x", ((2, 0), (2, 1))))
    game.push(Rebel())
    assert game.players[1].seated == [(2, 0), (2, 1)] and game.current == 1
    game.players[1].actions = ["express"]
    game.push(PlayExpress())
    assert game.phase is Phase.MAIN  # no answer window for Express


def test_eccentric_passenger_and_the_second_pawn_in_the_aisle_ruling() -> None:
    game = fresh()
    game.players[0].actions = ["eccentric-passenger", "eccentric-passenger"]
    game.players[1].seated = [(2, 0), (4, 1)]
    game.players[1].supply -= 2
    game.push(Eccentric(1, (2, 0)))
    game.push(Accept())
    assert game.players[1].aisle == (3, 0) and game.current == 0  # a Turn Keeper
    game.push(Eccentric(1, (4, 1)))
    game.push(Accept())
    # The second would give seat 1 two pawns in the aisle: its aisle pawn is seated instead.
    assert game.players[1].aisle is None and (4, 1) in game.players[1].seated
    assert len(game.players[1].seated) == 2


def test_take_a_seat_swaps_the_seat_and_pan_handler_takes_a_card() -> None:
    game = fresh()
    game.players[0].actions = ["take-a-seat", "pan-handler"]
    game.players[1].seated = [(2, 0)]
    game.players[1].supply -= 1
    game.players[1].numbers = ["blue-5"]
    game.push(TakeSeat(1, (2, 0)))
    game.push(Accept())
    assert game.players[0].seated == [(2, 0)] and game.players[1].aisle == (3, 0)
    illegal(game, PanHandle(1, "red-1"), "holds no red-1")
    game.push(PanHandle(1, "blue-5"))
    game.push(Accept())
    assert "blue-5" in game.players[0].numbers and not game.players[1].numbers


def test_enter_seats_pawns_from_off_the_train_and_ends_the_turn() -> None:
    game = fresh()
    game.players[0].actions = ["enter-2x"]
    illegal(game, Enter("enter-2x", ((2, 0),)), "fills 2")
    illegal(game, Enter("enter-2x", ((2, 0), (2, 6))), "only empty seats")
    game.push(Enter("enter-2x", ((2, 0), (2, 1))))
    assert game.players[0].seated == [(2, 0), (2, 1)] and game.current == 1


def test_discard_tokens_swap_a_card_for_one_of_the_same_deck() -> None:
    game = fresh()
    game.players[0].numbers = ["red-3"]
    game.players[0].actions = ["plus-discard"]
    game.push(UseToken("red-3"))
    assert len(game.players[0].numbers) == 1 and game.players[0].tokens == 2
    game.push(PlusDiscard())
    assert game.players[0].tokens == 3
    game.players[0].tokens = 0
    illegal(game, UseToken(game.players[0].numbers[0]), "no discard token")


def test_a_blocked_pawn_costs_the_blocker_seated_pawns_after_two_turns() -> None:
    game = fresh()
    # Seat 0's pawn stands in the dead end of the blue tile's door aisle, seat 1's blocks it.
    _in_aisle(game, 0, (1, 11))
    _in_aisle(game, 1, (2, 11))
    for cell in ((1, 9), (1, 10), (2, 10)):
        game.players[1].seated.append(cell)
        game.players[1].supply -= 1
    for _ in range(BLOCKED_TURNS_ALLOWED + 1):
        assert len(game.players[1].seated) == 3
        game.push(EndTurn())
        game.push(EndTurn())
    assert game.players[0].blocked_turns == BLOCKED_TURNS_ALLOWED + 1
    assert len(game.players[1].seated) == 2


def test_seating_the_last_pawn_wins() -> None:
    game = fresh()
    me = game.players[0]
    me.seated = game.layout.seats()[: PAWNS[2] - 1]
    me.supply = 1
    me.actions = ["enter-1x"]
    game.push(Enter("enter-1x", (game.layout.seats()[-1],)))
    assert game.phase is Phase.OVER and game.turn_indicator().winners == {0}
    assert game.turn_indicator().on_turn is None


@pytest.mark.parametrize(
    "move",
    [Board((0, 4)), BoardingDie(True), MoveAlong(("red-1", "red-2"), True, ("excuse-me",), (2, 3)),
     MoveAlong(("blue-4",), False, ("excuse-me",), (2, 0), (1, 0)),
     Exit("exit-2x", ((1, 1), (2, 2))), PanHandle(1, "blue-3"), EndTurn()],
)
def test_moves_round_trip_through_json(move: object) -> None:
    assert move_from_json(json.loads(json.dumps(move_to_json(move)))) == move  # type: ignore


def test_malformed_actions_are_refused_with_a_reason() -> None:
    with pytest.raises(BadInputError, match="needs 'start'"):
        move_from_json({"action": "board"})
    with pytest.raises(BadInputError, match="bad value"):
        move_from_json({"action": "board", "start": [0]})
    with pytest.raises(BadInputError, match="unknown field"):
        move_from_json({"action": "board", "start": [0, 4], "doors_open": True})


def test_a_board_line_holding_its_die_roll_still_reads_as_the_board_and_the_roll() -> None:
    """Records written before the die was a chance outcome of its own still replay."""
    old = {"action": "board", "start": [0, 4], "doors_open": False}
    assert moves_from_json(old) == [Board((0, 4)), BoardingDie(False)]
    game = fresh()
    head = game.record_lines()[0]
    replayed = TrainlineGame.from_record_lines([head, json.dumps(old)])
    assert replayed.players[0].missed == (0, 4) and replayed.current == 1
    assert replayed.record == [Board((0, 4)), BoardingDie(False)]


def test_excuse_me_slides_a_seated_opponent_over_unless_it_sits_by_a_passenger() -> None:
    game = fresh()
    _in_aisle(game, 0, (3, 0))
    game.players[1].seated = [(2, 0), (2, 1)]  # (2, 1) sits next to the passenger at (2, 2)
    game.players[1].supply -= 2
    game.players[0].numbers = ["red-1", "red-2"]
    game.players[0].actions = ["excuse-me", "rebel-passenger"]
    assert game.slides(0, 1, 0) == {(2, 0)}
    illegal(game, MoveAlong(("red-1",), False, ("rebel-passenger",), (2, 0), (1, 0)),
            "takes an Excuse Me")
    illegal(game, MoveAlong(("red-1",), False, ("excuse-me",), (2, 0), (2, 1)), "empty seat")
    game.push(MoveAlong(("red-1",), False, ("excuse-me",), (2, 0), (1, 0)))
    assert game.players[0].seated == [(2, 0)]
    assert sorted(game.players[1].seated) == [(1, 0), (2, 1)]


def test_the_deck_holds_both_colours_of_1_to_5_and_all_14_action_types() -> None:
    cards = TrainlineGame.new(2, random.Random(0)).cards
    assert {(n.colour, n.number) for n in cards.numbers.values()} == {
        (colour, number) for colour in ("red", "blue") for number in range(1, 6)}
    assert set(cards.ends_turn) == set(ACTION_TYPES)
    assert [name for name, ends in cards.ends_turn.items() if ends] == [
        "exit-1x", "exit-2x", "enter-1x", "enter-2x"]
