"""The Express referee: observations of engine-played hands, and tables the rules forbid."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from transcripts import Expected, expected_verdicts

from host.cli import main
from host.errors import BadInputError
from host.express.game import ExpressGame, Phase
from host.express.referee import judge_lines
from host.express.transcript import observation_lines
from tests.test_express_properties import pick


def recorded_hand(seed: int, players: int) -> tuple[list[str], list[Expected]]:
    """Observations of a random engine hand (with mid-turn looks and the board buttons a real
    table needs), and the verdict kind and seat lights the referee should give for each line."""
    rng = random.Random(seed)
    game = ExpressGame.new(players, rng)
    while game.phase is not Phase.OVER:
        game.push(pick(game, rng))
    return expected_verdicts(observation_lines(game, looks=rng))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_the_referee_follows_every_legal_hand(seed: int, players: int) -> None:
    lines, expected = recorded_hand(seed, players)
    verdicts = list(judge_lines(lines))
    assert len(verdicts) == len(expected)
    for verdict, (kind, lights) in zip(verdicts, expected, strict=True):
        assert verdict["verdict"] == kind, verdict
        if kind == "move" and lights is not None:
            assert verdict["next_seat"] == lights.on_turn
            assert verdict["direction"] == lights.direction.value
            assert verdict["skipped"] == sorted(lights.skipped)


def _table(**changes: object) -> str:
    table: dict[str, object] = {"trains": [[], []], "way_cars": [[], []], "discard": None,
                                "discards": 0, "special": [], "hands": [10, 10]}
    table.update(changes)
    return json.dumps(table)


HEAD = json.dumps({"seats": 2, "first": 0})


def _verdicts(*lines: str) -> list[dict[str, object]]:
    return list(judge_lines([HEAD, *lines]))


def test_a_legal_first_turn_then_a_caboose_too_early_is_illegal() -> None:
    train = {"loco": "face-down", "cars": ["box-car", "box-car"]}
    first = _table(trains=[[train] * 3, []], discard="coach", discards=1, hands=[2, 10])
    early = {"loco": "face-down", "cars": ["reefer", "caboose"]}
    second = _table(trains=[[train] * 3, [early]], discard="mail", discards=2, hands=[2, 8])
    verdicts = _verdicts(first, second)
    assert verdicts[0]["verdict"] == "move" and verdicts[0]["next_seat"] == 1
    assert verdicts[1]["verdict"] == "illegal"
    assert "1st or 2nd car" in str(verdicts[1]["reason"])


def test_the_hand_limit_and_first_turn_disasters_are_caught() -> None:
    one = {"loco": "face-down", "cars": []}
    too_many = _table(trains=[[one], []], discard="coach", discards=1, hands=[10, 10])
    assert "hand limit" in str(_verdicts(too_many)[0]["reason"])
    disaster = _table(trains=[[one] * 6, []], special=["derailment"], hands=[5, 10])
    assert "first turn" in str(_verdicts(disaster)[0]["reason"])


def test_a_change_at_another_seat_is_illegal() -> None:
    other = _table(trains=[[], [{"loco": "face-down", "cars": []}]], hands=[10, 9])
    assert "outside their turn" in str(_verdicts(other)[0]["reason"])


def test_an_unchanged_table_is_waiting() -> None:
    assert _verdicts(_table())[0]["verdict"] == "waiting"


def test_referee_command_prints_one_verdict_per_line(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    lines, expected = recorded_hand(3, 3)
    path = tmp_path / "hand.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["referee", "express", str(path)]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["verdict"] for v in printed] == [kind for kind, _ in expected]


@pytest.mark.parametrize(
    ("lines", "reason"),
    [(["{"], "not JSON"), (['{"first": 0}'], "seats"),
     ([HEAD, '{"trains": [[]]}'], "one list per seat"),
     ([HEAD, _table(hands=[1])], "card counts"),
     ([HEAD, _table(trains=[[{"cars": ["zeppelin"]}], []])], "no Express card")],
)
def test_malformed_observations_are_a_clear_error(lines: list[str], reason: str) -> None:
    with pytest.raises(BadInputError, match=reason):
        list(judge_lines(lines))


def test_referee_command_exits_2_on_bad_input(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(HEAD + "\n[1, 2]\n")
    assert main(["referee", "express", str(path)]) == 2
    assert "line 2" in capsys.readouterr().err
