"""Express rules, clause by clause (rulebook 002 and PRODUCT.md's Express rulings)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from host.errors import BadInputError, IllegalMoveError
from host.express.cards import standard_cards
from host.express.game import (
    HAND_LIMIT,
    HAND_SIZE,
    ExpressGame,
    Phase,
    Setup,
    deck_for,
)
from host.express.moves import (
    Accept,
    AddCar,
    BreakCar,
    Derail,
    Discard,
    DrawFromDeck,
    ExchangeLoco,
    PlayTurntable,
    PlayWayCar,
    Protect,
    StartTrain,
    Steal,
    SwitchEngines,
    TakeBackLoco,
    TakeDiscard,
    Wreck,
    move_from_json,
    move_to_json,
)
from host.express.trains import Car, Train, why_car_cannot_follow
from host.turns import Direction

CARDS = standard_cards()


def arranged(hands: list[list[str]], draws: tuple[str, ...] = (), first: int = 0) -> ExpressGame:
    """A hand whose deals and first draws are the given cards (hands padded with box cars)."""
    players = len(hands)
    rest = Counter(deck_for(players, CARDS))
    full_hands = []
    for hand in hands:
        assert len(hand) <= HAND_SIZE
        full_hands.append(list(hand))
    for hand in full_hands:
        rest.subtract(hand)
    for card in draws:
        rest[card] -= 1
    assert all(count >= 0 for count in rest.values())
    filler = sorted(rest.elements(), key=lambda c: c != "box-car")
    for hand in full_hands:
        while len(hand) < HAND_SIZE:
            hand.append(filler.pop(0))
    deck = [card for hand in full_hands for card in hand] + list(draws) + filler
    return ExpressGame(Setup(players, first, tuple(deck)))


def give_trains(game: ExpressGame, seat: int, *trains: list[str]) -> None:
    """Lay trains straight onto a seat's table (test set-up; cards come from nowhere)."""
    for cars in trains:
        game.seats[seat].trains.append(
            Train("box-car", cars=tuple(Car(*c.split(":")) if ":" in c else Car(c, c)
                                        for c in cars)))


def illegal(game: ExpressGame, move: object, reason: str) -> None:
    with pytest.raises(IllegalMoveError, match=reason):
        game.push(move)  # type: ignore[arg-type]


def test_the_deck_has_the_published_counts_and_loses_a_turntable_for_two_or_three() -> None:
    counts = CARDS.counts
    assert (counts["wild"], counts["caboose"], counts["diesel"]) == (2, 3, 2)
    assert [counts[n] for n in ("mail", "coach", "dome", "sleeper", "observation")] == [
        2, 6, 2, 2, 2]
    for name, info in CARDS.info.items():
        if info.kind.value == "freight":
            assert counts[name] == 13 - info.value
    assert Counter(deck_for(3, CARDS))["turntable"] == 2
    assert Counter(deck_for(4, CARDS))["turntable"] == 3


def test_each_seat_is_dealt_ten_and_player_count_is_checked() -> None:
    game = ExpressGame.new(4, random.Random(1))
    assert [len(seat.hand) for seat in game.seats] == [10] * 4
    with pytest.raises(BadInputError):
        ExpressGame.new(1, random.Random(1))


def test_a_turn_starts_with_one_draw_two_from_the_deck_or_the_discard_top() -> None:
    game = arranged([["coach"] * 6, []], draws=("mail", "dome"))
    illegal(game, StartTrain("coach"), "draw first")
    illegal(game, TakeDiscard(), "discard pile is empty")
    game.push(DrawFromDeck())
    assert Counter(game.seats[0].hand)["mail"] == 1 and len(game.seats[0].hand) == 12
    illegal(game, DrawFromDeck(), "already drawn")
    game.discard_pile.append("sleeper")
    game.order.current, game.phase = 1, Phase.DRAW
    game.push(TakeDiscard())
    assert "sleeper" in game.seats[1].hand and not game.discard_pile


def test_cars_need_a_loco_and_freight_trains_keep_one_type() -> None:
    game = arranged([["box-car", "box-car", "flat-car", "coach", "mail"], []])
    game.push(DrawFromDeck())
    illegal(game, AddCar("box-car", 0), "no train 0")
    game.push(StartTrain("flat-car"))
    game.push(AddCar("box-car", 0))
    illegal(game, AddCar("coach", 0), "passenger car cannot follow")
    game.push(StartTrain("box-car"))
    game.push(AddCar("mail", 1))
    game.push(AddCar("coach", 1))
    illegal(game, AddCar("box-car", 1), "freight car cannot follow coach")
    illegal(game, AddCar("flat-car", 0), "one car type only")


def test_caboose_is_third_or_later_and_ends_the_train() -> None:
    game = arranged([["caboose", "coach", "coach", "coach", "mail"], []])
    game.push(DrawFromDeck())
    game.push(StartTrain("mail"))
    game.push(AddCar("coach", 0))
    illegal(game, AddCar("caboose", 0), "1st or 2nd car")
    game.push(AddCar("coach", 0))
    game.push(AddCar("caboose", 0))
    illegal(game, AddCar("coach", 0), "follow a Caboose")


def test_wild_car_is_never_alone_and_allows_a_transition_after_two_cars() -> None:
    game = arranged([["wild", "wild", "box-car", "box-car", "coach", "box-car"], []])
    game.push(DrawFromDeck())
    game.push(StartTrain("box-car"))
    illegal(game, AddCar("wild", 0, "box-car"), "only car")
    illegal(game, AddCar("wild", 0), "say what a Wild Car")
    game.push(AddCar("box-car", 0))
    game.push(AddCar("wild", 0, "box-car"))  # behind one car: no transition yet
    illegal(game, AddCar("coach", 0), "passenger car cannot follow")
    game.push(AddCar("wild", 0, "box-car"))  # behind two cars: any type may follow
    game.push(AddCar("coach", 0))
    train = Train("box-car", cars=(Car("coach", "coach"),))
    assert "cannot be played as" in str(why_car_cannot_follow(train, Car("wild", "caboose"), CARDS))


def test_hand_limit_after_the_discard() -> None:
    game = arranged([[], []])
    game.push(DrawFromDeck())
    illegal(game, Discard(game.seats[0].hand[0]), f"at most {HAND_LIMIT}")
    for card in list(game.seats[0].hand[:6]):
        game.push(StartTrain(card))
    game.push(Discard(game.seats[0].hand[0]))
    assert len(game.seats[0].hand) == HAND_LIMIT and game.current == 1


def test_going_out_needs_a_five_and_a_four_car_train_and_no_short_train() -> None:
    game = arranged([["coach"] * 6 + ["box-car"] * 4, []], draws=("box-car", "box-car"))
    game.push(DrawFromDeck())
    game.push(StartTrain("coach"))
    for _ in range(5):
        game.push(AddCar("coach", 0))
    game.push(StartTrain("box-car"))
    for _ in range(3):
        game.push(AddCar("box-car", 1))
    assert len(game.seats[0].hand) == 2
    # One more car would leave a single card that cannot go out: keep two.
    illegal(game, StartTrain("box-car"), "keep two cards")
    game.push(AddCar("box-car", 1))
    assert game.seats[0].hand == ["box-car"]
    game.push(Discard("box-car"))
    assert game.phase is Phase.OVER and game.went_out == 0
    assert game.turn_indicator().on_turn is None
    assert 0 in game.turn_indicator().winners


def test_no_disaster_or_turntable_on_a_players_first_turn() -> None:
    game = arranged([["derailment", "turntable"], []])
    game.push(DrawFromDeck())
    for card in game.seats[0].hand[2:9]:
        game.push(StartTrain(card))
    illegal(game, Derail(1), "first turn")
    illegal(game, PlayTurntable(), "first turn")


def _second_turn(game: ExpressGame, seat: int = 0) -> None:
    """Mark the seats as past their first turn and put ``seat`` on turn, drawn."""
    for other in game.seats:
        other.turns_taken = 1
        del other.hand[HAND_LIMIT + 1:]
    game.order.current, game.phase = seat, Phase.PLAY


def test_turntable_gives_another_turn_then_reverses_play() -> None:
    game = arranged([["turntable"], [], []])
    _second_turn(game)
    game.push(PlayTurntable())
    assert game.current == 0 and game.order.direction is Direction.CLOCKWISE
    game.push(DrawFromDeck())
    game.push(StartTrain(game.seats[0].hand[0]))
    game.push(StartTrain(game.seats[0].hand[0]))
    game.push(Discard(game.seats[0].hand[0]))
    assert game.current == 2 and game.order.direction is Direction.COUNTERCLOCKWISE


def test_derailment_costs_the_next_turn_unless_a_boom_answers() -> None:
    game = arranged([["derailment", "derailment"], ["boom"], []])
    _second_turn(game)
    game.push(Derail(1))
    assert game.phase is Phase.RESPONSE and game.turn_indicator().on_turn == 1
    illegal(game, DrawFromDeck(), "already drawn|answer")
    game.push(Accept())
    assert game.turn_indicator().on_turn == 2
    assert game.turn_indicator().skipped == frozenset()  # the lost turn was just used
    game.push(DrawFromDeck())
    for card in game.seats[2].hand[:3]:
        game.push(StartTrain(card))
    game.push(Discard(game.seats[2].hand[0]))
    assert game.current == 0
    game.push(DrawFromDeck())
    for card in [c for c in game.seats[0].hand if c != "derailment"][:2]:
        game.push(StartTrain(card))
    game.push(Derail(1))
    game.push(Protect())
    assert "boom" in game.seats[1].way_cars and game.current == 1


def test_derailment_shows_the_skipped_seat_until_its_turn_is_lost() -> None:
    game = arranged([["derailment"], [], [], []])
    _second_turn(game)
    game.push(Derail(2))
    game.push(Accept())
    assert game.current == 1 and game.turn_indicator().skipped == frozenset({2})


def test_wreck_broken_car_and_steal_take_cars_into_the_special_discard_slot() -> None:
    game = arranged([["wreck", "broken-car", "steal"], ["heavy-crane"]])
    _second_turn(game)
    give_trains(game, 1, ["coach", "coach", "dome"], ["box-car", "box-car"],
                ["tank-car", "tank-car", "tank-car", "caboose"])
    give_trains(game, 0, ["box-car", "box-car"])
    illegal(game, BreakCar(1, 2), "without a Caboose")
    illegal(game, BreakCar(0, 0), "another seat")
    game.push(BreakCar(1, 0))
    game.push(Accept())
    assert [c.card for c in game.seats[1].trains[0].cars] == ["coach", "coach"]
    assert game.special_discards[-2:] == ["broken-car", "dome"]
    _second_turn(game)
    game.push(Steal(1, 1, onto=0))
    game.push(Accept())
    assert len(game.seats[0].trains[0].cars) == 3 and len(game.seats[1].trains[1].cars) == 1
    _second_turn(game)
    game.push(Wreck(1, 2))
    game.push(Protect())
    assert len(game.seats[1].trains) == 3 and game.seats[1].way_cars == ["heavy-crane"]


def test_switch_engines_swaps_locos_and_a_diesel_keeps_its_face() -> None:
    game = arranged([["switch-engines"], []])
    _second_turn(game)
    game.seats[0].trains.append(Train("coach"))
    game.seats[1].trains.append(Train("diesel", diesel=True, cars=(Car("mail", "mail"),)))
    illegal(game, SwitchEngines(1, ((0, 0), (0, 0))), "at most once")
    game.push(SwitchEngines(1, ((0, 0),)))
    game.push(Accept())
    assert game.seats[0].trains[0].diesel and game.seats[0].trains[0].loco == "diesel"
    assert game.seats[1].trains[0].loco == "coach" and game.seats[1].trains[0].cars


def test_locos_can_be_exchanged_or_picked_up_after_the_draw() -> None:
    game = arranged([["diesel", "coach", "mail"], []])
    game.push(DrawFromDeck())
    game.push(StartTrain("coach"))
    game.push(ExchangeLoco(0, "diesel", diesel=True))
    assert game.seats[0].trains[0].diesel and "coach" in game.seats[0].hand
    illegal(game, StartTrain("mail", diesel=True), "only a Diesel")
    game.push(TakeBackLoco(0))
    assert not game.seats[0].trains and "diesel" in game.seats[0].hand


def test_way_cars_are_played_on_their_own() -> None:
    game = arranged([["boom"], []])
    game.push(DrawFromDeck())
    illegal(game, PlayWayCar("box-car"), "not a Way Car")
    game.push(PlayWayCar("boom"))
    assert game.seats[0].way_cars == ["boom"]


def test_a_disaster_played_when_going_out_has_no_effect() -> None:
    game = arranged([["derailment"], []])
    _second_turn(game)
    game.seats[0].hand[:] = ["derailment"]
    give_trains(game, 0, ["coach"] * 5, ["box-car"] * 4)
    game.push(Derail(1))
    assert game.phase is Phase.OVER and game.order.lost[1] == 0


def test_undo_replays_the_record_without_the_last_move() -> None:
    game = ExpressGame.new(3, random.Random(7))
    before = game.record_lines()
    game.push(DrawFromDeck())
    hand = list(game.seats[0].hand)
    game.push(StartTrain(hand[0]))
    assert game.pop() == StartTrain(hand[0])
    assert game.seats[0].hand == hand
    game.pop()
    assert game.record_lines() == before and game.phase is Phase.DRAW
    with pytest.raises(IllegalMoveError):
        game.pop()


@pytest.mark.parametrize(
    "move",
    [DrawFromDeck(), AddCar("wild", 2, "dome"), Steal(1, 0, None), Steal(2, 1, 3),
     SwitchEngines(1, ((0, 1), (2, 0))), ExchangeLoco(0, "diesel", True), Protect()],
)
def test_moves_round_trip_through_json(move: object) -> None:
    assert move_from_json(move_to_json(move)) == move  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "reason"),
    [({"action": "fly"}, "not an Express action"), ({"action": "discard"}, "needs 'card'"),
     ({"action": "derailment", "seat": "1"}, "bad value"),
     ({"action": "draw", "extra": 1}, "unknown field")],
)
def test_malformed_actions_are_refused_with_a_reason(data: dict[str, object], reason: str) -> None:
    with pytest.raises(BadInputError, match=reason):
        move_from_json(data)


def test_a_record_with_an_illegal_line_names_the_line() -> None:
    game = ExpressGame.new(2, random.Random(3))
    lines = [*game.record_lines(), '{"action": "discard", "card": "box-car"}']
    with pytest.raises(BadInputError, match="line 2: draw first"):
        ExpressGame.from_record_lines(lines)


def test_a_card_drawn_into_an_empty_hand_may_be_discarded_without_going_out() -> None:
    game = arranged([["derailment"], ["boom"]])
    _second_turn(game)
    game.push(Derail(1))
    game.seats[1].hand[:] = ["boom"]
    game.push(Protect())  # seat 1 answers with its last card
    assert game.seats[1].hand == [] and game.current == 1
    game.discard_pile.append("mail")
    game.push(TakeDiscard())
    game.push(Discard("mail"))
    assert game.phase is Phase.DRAW and game.went_out is None and game.current == 0
