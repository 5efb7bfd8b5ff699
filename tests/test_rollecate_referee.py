"""The table referee: verdicts for a hand-made game, a malformed file, and random games."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rollecate_helpers import play_randomly

from host.cli import main
from host.rollecate.referee import judge_file, open_referee
from host.rollecate.state import GameState
from host.rollecate.transcript import table_lines
from host.tables.rollecate import scenes_of


def _judge(tmp_path: Path, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return judge_file(path)


OPENING = {
    "seats": 2,
    "first": 0,
    "draw_pile": 2,
    "railway": ["track-2", "track-4", "track-1", "track-3", "broken-3"],
    "train": 3,
    "discard": [["track-4"], []],
}
AFTER_RIDE = ["track-3", "broken-3", "track-4"]


def test_a_turn_with_a_derail_a_broken_track_and_combining(tmp_path: Path) -> None:
    verdicts = _judge(
        tmp_path,
        [
            OPENING,
            {**OPENING, "railway": [*OPENING["railway"], "track-1"]},
            {**OPENING, "railway": [*OPENING["railway"], "track-4"]},
            {"dice": ["wheel", "wheel", "wheel", "wheel"]},
            {"railway": AFTER_RIDE, "train": 1, "discard": [["track-4"], []]},
            {"railway": AFTER_RIDE, "train": 2, "discard": [["track-4"], []]},
            {"railway": AFTER_RIDE, "train": 2, "discard": [["track-2", "track-1"], []]},
        ],
    )
    assert [v["verdict"] for v in verdicts] == [
        "waiting",
        "illegal",
        "roll",
        "waiting",
        "illegal",
        "waiting",
        "move",
    ]
    assert verdicts[1]["reason"] == (
        "a 1 cannot follow a 3: neighbouring track cards never differ by 2"
    )
    assert verdicts[2]["dice"] == 4 and verdicts[2]["move"]["cards"] == ["track-4"]
    ride = verdicts[3]
    assert ride["ride"]["derailed_by"] == 2 and ride["ride"]["broken_tracks"] == [4]
    assert ride["instructions"][:3] == [
        "Rollecate derailed (2 steps short): put her on the last card",
        "she passed or stopped on 1 broken track: 1 penalty card for the repairs",
        "take 3 penalty cards: the 2, the 4 and the 1 at the start of the railway",
    ]
    assert ride["advice"]["points_saved"] == 8  # the 4 on the 4 already on the pile
    assert "the 3rd card of 3" in verdicts[4]["reason"]
    assert verdicts[6]["next_seat"] == 1 and verdicts[6]["move"]["action"] == "build"


def test_chaos_cards_the_end_and_the_final_count(tmp_path: Path) -> None:
    finished = {"railway": AFTER_RIDE, "train": 2, "discard": [["track-2", "track-1"], []]}
    verdicts = _judge(
        tmp_path,
        [
            OPENING,
            {**OPENING, "railway": [*OPENING["railway"], "track-4"]},
            {"dice": ["wheel", "wheel", "wheel", "wheel"]},
            finished,
            {**finished, "discard": [["track-2"], ["chaos-3"]]},
            {**finished, "discard": [["track-2", "track-1"], ["chaos-3"]]},
            {"done": True},
            {"hands": [["track-1"], ["track-2", "track-2"]]},
            {"hands": [["track-1", "track-3"], ["track-2", "track-2"]]},
            {"dice": ["wheel"]},
        ],
    )
    assert verdicts[4]["verdict"] == "illegal"  # seat 0's pile changed in seat 1's turn
    # Seat 1 still holds cards and more chaos cards are unseen: it may put down another.
    assert verdicts[5]["verdict"] == "waiting"
    assert verdicts[5]["instructions"] == [
        "seat 1: put down any more chaos cards, then press your button"
    ]
    assert verdicts[6]["move"] == {
        "action": "discard-chaos",
        "cards": ["chaos-3"],
        "text": "seat 1 discarded the chaos 3",
    }
    assert verdicts[6]["next_seat"] is None  # the draw pile is empty: the game is over
    # Seat 0 was dealt 2, drew 1 and built 1: a hand of one card is missing a card.
    assert verdicts[7]["reason"] == "seat 0 should hold 2 cards, not 1"
    win = verdicts[8]
    assert win["verdict"] == "win" and win["scores"]["winners"] == [1]
    assert [seat["total"] for seat in win["scores"]["seats"]] == [7, 7]
    assert win["scores"]["decided_by"] == "cards"
    assert verdicts[9]["verdict"] == "illegal"


def test_a_pass_the_table_cannot_show_is_declared(tmp_path: Path) -> None:
    opening = {"seats": 2, "first": 1, "railway": ["track-3"], "train": 0}
    too_many = {"railway": ["track-3", *["track-4"] * 4], "train": 0}
    verdicts = _judge(tmp_path, [opening, {"dice": ["blank"]}, too_many, {"pass": True}])
    assert verdicts[1]["verdict"] == "illegal" and verdicts[1]["reason"] == "no dice are due now"
    # Dealt 2, drew 1: nobody builds 4 cards in the first turn.
    assert verdicts.pop(2)["reason"] == "seat 1 holds only 3 cards"
    assert verdicts[2]["verdict"] == "move" and verdicts[2]["next_seat"] == 0
    assert "cannot be taken" in verdicts[2]["instructions"][0]


def test_owed_cards_that_pair_up_need_the_players_word(tmp_path: Path) -> None:
    opening = {
        "seats": 2,
        "railway": ["track-3", "track-3", "track-2", "track-2"],
        "train": 3,
        "discard": [[], []],
    }
    after = {"railway": ["track-2"] * 4, "train": 3, "discard": [[], []]}
    verdicts = _judge(
        tmp_path,
        [
            opening,
            {**opening, "railway": [*opening["railway"], "track-2", "track-2"]},
            {"dice": ["wheel"] * 4},  # two cards ahead: derailed by 2, the 3s
            after,
            {"done": True},
        ],
    )
    assert verdicts[2]["ride"]["penalty_cards"] == ["track-3", "track-3"]
    assert verdicts[3]["verdict"] == "waiting"
    assert verdicts[3]["instructions"][-1] == "press your button when done"
    assert verdicts[4]["verdict"] == "move" and verdicts[4]["next_seat"] == 1


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        (['{"seats": 2'], ":1: not JSON"),
        (['{"railway": ["track-1"], "train": 0}'], 'carries "seats"'),
        (['{"seats": 5, "railway": ["track-1"], "train": 0}'], '"seats": 2 to 4'),
        (['{"seats": 2, "railway": ["track-9"], "train": 0}'], "no card 'track-9'"),
        (['{"seats": 2, "railway": ["chaos-1"], "train": 0}'], "track cards only"),
        (['{"seats": 2, "railway": [1], "train": 3}'], '"train" must be'),
        (['{"seats": 2, "railway": [1], "train": 0}', '{"dice": ["six"]}'], ':2: dice show'),
        (['{"seats": 2, "railway": [1], "train": 0}', '{"discard": [[]]}'], "one entry per seat"),
        (['{"seats": 2, "railway": [1], "train": 0}', '{"colour": 1}'], "it has colour"),
        ([], "nothing to judge"),
    ],
)
def test_a_malformed_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], reason: str
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert main(["referee", "rollecate", str(path)]) == 2
    captured = capsys.readouterr()
    assert reason in captured.err and captured.err.count("\n") == 1 and captured.out == ""


def test_the_referee_command_prints_one_verdict_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(OPENING) + "\n\n" + json.dumps({"pass": True}) + "\n")
    assert main(["referee", "rollecate", str(path)]) == 0
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["verdict"] for v in verdicts] == ["waiting", "waiting"]
    # The train moves onto the broken 3: one penalty card for the pass, one for the repairs.
    assert verdicts[1]["ride"]["penalty_cards"] == ["track-2", "track-4"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_the_referee_follows_random_games_and_scores_them_alike(
    tmp_path_factory: pytest.TempPathFactory, seed: int, players: int
) -> None:
    rng = random.Random(seed)
    game = GameState.new(players, rng)
    play_randomly(game, rng)
    path = tmp_path_factory.mktemp("referee") / "game.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in table_lines(game)), encoding="utf-8")
    verdicts = judge_file(path)
    assert [v for v in verdicts if v["verdict"] == "illegal"] == []
    assert sum(v["verdict"] == "move" for v in verdicts) == game.turns
    assert verdicts[-1]["verdict"] == "win" and verdicts[-1]["scores"] == game.scores().to_json()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
# A seat that never combined took 9 penalty cards: the ways kept through them lost the world
# where the chaos 4 was still in a hand, and its discard later was called illegal.
@example(seed=323, players=3)
def test_the_referee_follows_random_games_seeing_only_the_top_of_each_pile(
    seed: int, players: int
) -> None:
    """As a camera sees the table: each pile's top card only, after every card put down, and
    at the end every card spread out."""
    rng = random.Random(seed)
    game = GameState.new(players, rng)
    play_randomly(game, rng)
    lines = table_lines(game, every_card=True)
    referee = open_referee(lines[0])
    verdicts = [
        referee.feed(line).to_json()
        for scene in scenes_of(lines)[1:]
        for line in (scene.view.to_json(), *scene.events)
    ]
    assert [v for v in verdicts if v["verdict"] == "illegal"] == []
    assert sum(v["verdict"] == "move" for v in verdicts) == game.turns
    (final,) = [v for v in verdicts if v["verdict"] == "win"]
    # The piles' hidden cards (a card put without combining on an equal one looks like no card
    # put) are counted when every card is spread out at the end: exactly.
    assert final["exact"] is True and final["scores"] == game.scores().to_json()
