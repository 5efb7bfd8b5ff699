"""``conductor referee trainline`` over camera observations: pawns, cards played, die rolls."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from transcripts import Expected, expected_verdicts

from host.cli import main
from host.errors import BadInputError
from host.trainline import bots
from host.trainline.game import TrainlineGame
from host.trainline.observer import judge_observations
from host.trainline.transcript import observation_lines


def observed_game(seed: int, players: int) -> tuple[list[str], list[Expected]]:
    """Observations of a bot game after every turn (die rolls and buttons from the board), and
    the verdict kind and seat lights the referee should give for each line."""
    rng = random.Random(seed)
    game = TrainlineGame.new(players, rng)
    bots.play_out(game, rng)
    return expected_verdicts(observation_lines(game))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
# Exit 2X on two pawns that were not the last two seated: legal, once missing from legal_moves.
@example(seed=6310685, players=2)
def test_the_observer_follows_every_legal_game(seed: int, players: int) -> None:
    lines, expected = observed_game(seed, players)
    verdicts = list(judge_observations(lines))
    assert [(v["verdict"]) for v in verdicts] == [kind for kind, _ in expected]
    for verdict, (kind, lights) in zip(verdicts, expected, strict=True):
        if kind == "move" and lights is not None:
            assert verdict["next_seat"] == lights.on_turn
            assert verdict["direction"] == lights.direction.value
            assert verdict["skipped"] == sorted(lights.skipped)


def _pawns(**seat0: object) -> list[dict[str, object]]:
    return [{"seated": [], "aisle": None, "missed": None, **seat0},
            {"seated": [], "aisle": None, "missed": None}]


HEAD = json.dumps({"seats": 2, "first": 0})


def test_a_pawn_that_appears_without_a_card_or_roll_is_illegal() -> None:
    line = json.dumps({"pawns": _pawns(seated=[[2, 0]]), "played": []})
    (verdict,) = judge_observations([HEAD, line])
    assert verdict["verdict"] == "illegal"


def test_an_enter_card_explains_a_new_seated_pawn_and_ends_the_turn() -> None:
    line = json.dumps({"pawns": _pawns(seated=[[2, 0]]), "played": ["enter-1x"]})
    (verdict,) = judge_observations([HEAD, line])
    assert verdict["verdict"] == "move" and verdict["next_seat"] == 1


def test_a_wrong_exact_count_is_illegal() -> None:
    roll = json.dumps({"event": "roll", "open": True})
    boarded = json.dumps({"pawns": _pawns(aisle=[1, 4]), "played": []})
    # From the door at (1, 4), a 1 cannot reach (3, 4): that is two spaces.
    moved = json.dumps({"pawns": _pawns(aisle=[3, 4]), "played": ["red-1"]})
    verdicts = list(judge_observations([HEAD, roll, boarded, moved]))
    assert [v["verdict"] for v in verdicts] == ["waiting", "waiting", "illegal"]


@pytest.mark.parametrize(
    ("line", "reason"),
    [('{"pawns": []}', "one object per seat"),
     (json.dumps({"pawns": _pawns(aisle=[1]), "played": []}), "a cell is"),
     (json.dumps({"pawns": _pawns(), "played": ["joker"]}), "no Train Line card"),
     ('{"event": "roll"}', "open")],
)
def test_malformed_observations_are_a_clear_error(line: str, reason: str) -> None:
    with pytest.raises(BadInputError, match=reason):
        list(judge_observations([HEAD, line]))


def test_referee_command_reads_observations(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    lines, expected = observed_game(11, 2)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["referee", "trainline", str(path)]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["verdict"] for v in printed] == [kind for kind, _ in expected]
