"""Every clause of the Rollecate rulebook and the rulings, one edge at a time."""

from __future__ import annotations

import random

import pytest
from rollecate_helpers import B, W, table

from host.errors import IllegalMoveError
from host.rollecate.moves import Build, Discard, DiscardChaos, Pass, Roll
from host.rollecate.rules import REMOVED_UNSEEN, roll_sizes
from host.rollecate.state import GameState, Phase


def test_each_turn_starts_by_drawing_the_top_card() -> None:
    state = table(["track-2"] * 4, 2, [["track-4"], ["track-4"]], draw=["chaos-3", "track-1"])
    assert state.hands[0] == ["chaos-3", "track-4"]
    assert state.draw_pile == ["track-1"]


def test_neighbouring_track_cards_never_differ_by_two() -> None:
    state = table(["track-1"] * 4, 2, [["track-3", "track-3"], []])
    with pytest.raises(IllegalMoveError) as error:
        state.push(Build(("track-3",)))
    assert str(error.value) == (
        "a 3 cannot follow a 1: neighbouring track cards never differ by 2"
    )
    assert all(move != Build(("track-3",)) for move in state.legal_moves())


def test_a_build_adds_cards_of_one_value_and_never_chaos_cards() -> None:
    state = table(["track-2"] * 4, 2, [["track-1", "track-2", "chaos-2", "track-4"], []])
    with pytest.raises(IllegalMoveError, match="one value only"):
        state.push(Build(("track-1", "track-2")))
    with pytest.raises(IllegalMoveError, match="chaos cards have no rails"):
        state.push(Build(("chaos-2",)))
    with pytest.raises(IllegalMoveError, match="does not hold"):
        state.push(Build(("track-3",)))
    state.push(Build(("track-2",)))
    assert state.railway[-1] == "track-2" and state.phase is Phase.ROLL


def test_a_build_of_value_v_rolls_v_dice_at_most_four_at_a_time() -> None:
    assert roll_sizes(11) == [4, 4, 3]
    state = table(["track-3"] * 4, 2, [["track-3", "track-3", "broken-3"], []])
    state.push(Build(("track-3", "broken-3")))
    assert state.dice_to_roll() == 4
    with pytest.raises(IllegalMoveError, match="roll 4 dice, not 2"):
        state.push(Roll((W, W)))
    state.push(Roll((B, B, B, W)))
    assert state.dice_to_roll() == 2
    state.push(Roll((W, B)))
    # Two wheels: the train rides from the 3rd card to the 5th, the broken 3 is the 6th.
    assert state.phase is Phase.ACTION and state.train == 4 and state.seat == 1


def test_the_legal_builds_include_every_order_of_a_broken_track() -> None:
    state = table(["track-2"] * 4, 2, [["track-2", "broken-2"], []])
    builds = {move for move in state.legal_moves() if isinstance(move, Build)}
    builds -= {Build(("track-1",))}  # the card drawn this turn
    assert builds == {
        Build(("track-2",)),
        Build(("broken-2",)),
        Build(("track-2", "broken-2")),
        Build(("broken-2", "track-2")),
    }


def test_a_derail_by_several_steps_costs_the_missing_steps() -> None:
    railway = ["track-2", "track-4", "track-1", "track-3", "track-3"]
    state = table(railway, 4, [["track-4"], []])
    state.push(Build(("track-4",)))
    state.push(Roll((W, W, W, W)))
    # One card ahead: the train reaches it and misses 3 steps, so she derails by 3.
    assert state.owed == sorted(["track-2", "track-4", "track-1"])
    assert state.railway == ["track-3", "track-3", "track-4"]
    assert state.train == 2  # the last card


def test_penalties_stop_at_the_card_the_train_stands_on() -> None:
    state = table(["track-2", "track-4", "track-1", "track-1"], 1, [["track-1"], []])
    state.push(Build(("track-1",)))
    state.push(Roll((B,)))
    assert state.phase is Phase.ACTION  # no wheel, no penalty
    state = table(["track-2", "track-4", "track-1", "track-1"], 1, [["track-4"], []])
    state.push(Build(("track-4",)))
    state.push(Roll((W, W, W, W)))
    # 3 cards ahead, 4 steps: derailed by 1; the train is then on the last card and the
    # one penalty card is the first card of the railway.
    assert state.owed == ["track-2"]
    assert state.train == 3


def test_with_few_cards_behind_the_train_fewer_penalty_cards_are_taken() -> None:
    state = table(["track-2", "track-4", "track-1", "track-1"], 0, [["track-1"], []])
    state.push(Build(("track-1",)))
    state.push(Roll((W,)))
    assert state.train == 1
    state.push(Pass())  # seat 1 passes: the train moves to the 3rd card, 1 penalty card
    assert state.owed == ["track-2"]
    state = table(["track-4", "track-2"], 0, [["track-2", "track-2"], []])
    state.push(Build(("track-2", "track-2")))
    state.push(Roll((W, W, W, W)))
    # 4 steps with 3 cards ahead: derailed by 1, but only the 1 card behind the train (the
    # first) can be taken; the train stands on the last card.
    assert state.owed == ["track-4"] and state.train == 2


def test_with_the_train_on_the_first_card_no_penalty_card_is_taken() -> None:
    state = table(["track-3"], 0, [[], []])
    state.push(Pass())  # cannot move (no card ahead), cannot take the card she stands on
    assert state.railway == ["track-3"] and state.seat == 1 and state.discards[0] == []


def test_a_pass_moves_one_card_never_derails_and_costs_one_penalty() -> None:
    state = table(["track-1", "track-2", "track-3", "track-4"], 3, [[], []])
    state.push(Pass())
    assert state.train == 2 and state.owed == ["track-1"]  # stayed on the last card
    state = table(["track-1", "track-2", "track-3", "broken-4"], 2, [[], []])
    effect = state.push(Pass())
    # Stopping on a broken track during a pass costs one more penalty card.
    assert effect.ride is not None and effect.ride.broken == (3,)
    assert effect.penalty == ("track-1", "track-2")


def test_two_broken_tracks_in_one_ride_cost_two_penalty_cards() -> None:
    railway = ["track-1", "broken-2", "track-2", "broken-3", "track-3", "track-3"]
    state = table(railway, 1, [["track-3"], []])
    state.push(Build(("track-3",)))
    effect = state.push(Roll((W, W, W)))
    # Starting on the broken 2 costs nothing: riding 3 cards passes the broken 3 only.
    assert effect.ride is not None and effect.ride.broken == (3,)
    state = table(railway, 0, [["track-3", "track-3"], []])
    state.push(Build(("track-3", "track-3")))
    state.push(Roll((W, W, W, B)))
    effect = state.push(Roll((B, B)))
    assert effect.ride is not None
    assert effect.ride.broken == (1, 3) and effect.ride.penalty == 2
    assert effect.penalty == ("track-1", "broken-2")


def test_stopping_on_a_broken_track_costs_a_penalty_card() -> None:
    state = table(["track-1", "track-1", "track-1", "broken-2"], 2, [["track-2"], []])
    state.push(Build(("track-2",)))
    effect = state.push(Roll((W, B)))
    assert effect.ride is not None and effect.ride.stop == 3 and effect.penalty == ("track-1",)


def test_penalty_cards_combine_on_the_discard_pile_even_with_cards_of_this_turn() -> None:
    railway = ["track-2", "track-2", "track-3", "track-3"]
    state = table(railway, 3, [["track-3"], []])
    state.push(Build(("track-3",)))
    state.push(Roll((W, W, W)))  # derailed by 2: the two 2s at the start
    assert state.owed == ["track-2", "track-2"]
    assert state.legal_moves() == [Discard("track-2", False)]  # the pile is empty
    state.push(Discard("track-2", False))
    assert Discard("track-2", True) in state.legal_moves()
    state.push(Discard("track-2", True))
    assert state.discards[0] == [] and state.boxed[0] == ["track-2", "track-2"]
    assert state.seat == 1


def test_each_card_combines_only_once() -> None:
    state = table(["track-3", "track-2", "track-3", "track-4"], 3, [[], []])
    state.discards[0] = ["track-3", "track-3"]
    state.push(Pass())
    assert state.owed == ["track-3"]
    state.push(Discard("track-3", True))
    # The discarded 3 took one 3 to the box; the 3 below it stays on the pile.
    assert state.discards[0] == ["track-3"]
    assert state.boxed[0] == ["track-3", "track-3"]


def test_a_combination_needs_equal_values() -> None:
    state = table(["track-2", "track-2", "track-3", "track-4"], 3, [[], []])
    state.discards[0] = ["track-4"]
    state.push(Pass())
    with pytest.raises(IllegalMoveError, match="cannot combine with the track-4"):
        state.push(Discard("track-2", True))
    with pytest.raises(IllegalMoveError, match="not owed"):
        state.push(Discard("track-4", False))


def test_chaos_cards_are_discarded_in_any_order_without_moving_the_train() -> None:
    state = table(["track-2"] * 4, 2, [["chaos-2", "chaos-3", "track-4"], []])
    state.discards[0] = ["track-2"]
    with pytest.raises(IllegalMoveError, match="not a chaos card"):
        state.push(DiscardChaos(("track-4",)))
    state.push(DiscardChaos(("chaos-2", "chaos-3")))
    state.push(Discard("chaos-3", False))
    state.push(Discard("chaos-2", False))
    assert state.discards[0] == ["track-2", "chaos-3", "chaos-2"]
    assert state.train == 2 and len(state.railway) == 4 and state.seat == 1


def test_moves_out_of_turn_order_are_refused_with_the_duty() -> None:
    state = table(["track-2"] * 4, 2, [["track-2"], []])
    with pytest.raises(IllegalMoveError, match="must pass, build or discard chaos cards"):
        state.push(Roll((W,)))
    state.push(Build(("track-2",)))
    with pytest.raises(IllegalMoveError, match="must roll 2 dice"):
        state.push(Pass())


def test_the_player_who_draws_the_last_card_finishes_the_turn() -> None:
    state = table(["track-2"] * 4, 2, [["track-2"], ["track-1"]], draw=["track-3"])
    assert state.draw_pile == [] and not state.over
    state.push(Build(("track-2",)))
    state.push(Roll((W, W)))
    assert state.over and state.seat == 0
    assert state.hands[1] == ["track-1"]  # seat 1 never drew
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.push(Pass())


def test_final_scores_add_the_hand_without_combining() -> None:
    state = table(["track-2"] * 4, 2, [["track-4", "track-4"], ["track-1"]], draw=["track-2"])
    state.discards[0] = ["track-2"]
    state.push(Pass())  # penalty: the first 2; seat 0 keeps both 4s and the drawn 2
    state.push(Discard("track-2", False))
    scores = state.scores()
    # Pile 2, 2 (no combine chosen) plus hand 4, 4, 2: the 2 in hand does not combine.
    assert scores.seats[0].total == 14 and scores.seats[0].cards == 5
    assert state.over and scores.winners == (1,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_set_up_follows_the_published_rules(players: int) -> None:
    state = GameState.new(players, random.Random(players))
    setup = state.setup
    assert len(setup.railway) == 4 and setup.train == 2
    assert all(not name.startswith("chaos") for name in setup.railway)
    assert len(setup.removed) == REMOVED_UNSEEN[players]
    assert all(len(hand) == 2 for hand in setup.hands)
    # 55 - 4 - removed - 2 per player is 36 for every player count; the first turn drew one.
    assert len(setup.draw_pile) == 36 and len(state.draw_pile) == 35
