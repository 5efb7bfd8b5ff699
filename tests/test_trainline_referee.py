"""``conductor referee trainline``: verdicts on a recorded game's action lines."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from host.cli import main
from host.trainline import bots
from host.trainline.game import TrainlineGame
from host.trainline.referee import judge_lines


def _record(seed: int) -> TrainlineGame:
    rng = random.Random(seed)
    game = TrainlineGame.new(3, rng)
    bots.play_out(game, rng)
    return game


def test_every_line_of_a_legal_game_is_a_move_and_the_last_a_win() -> None:
    game = _record(8)
    verdicts = list(judge_lines(game.record_lines()))
    assert [v["verdict"] for v in verdicts[:-1]] == ["move"] * (len(verdicts) - 1)
    assert verdicts[-1]["verdict"] == "win"
    assert verdicts[-1]["winners"] == sorted(game.winners)


def test_an_illegal_line_is_reported_and_left_out() -> None:
    game = TrainlineGame.new(2, random.Random(2))
    lines = game.record_lines()
    lines.append(json.dumps({"action": "move", "numbers": ["red-1"], "motion": False,
                             "passes": [], "to": [3, 3]}))
    lines.append(json.dumps({"action": "end-turn"}))
    verdicts = list(judge_lines(lines))
    assert verdicts[0]["verdict"] == "illegal" and "aisle" in verdicts[0]["reason"]
    assert verdicts[1] == {**verdicts[1], "verdict": "move", "seat": 0, "next_seat": 1}


def test_referee_command_prints_verdicts_and_exits_2_on_a_bad_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    game = _record(3)
    path.write_text("\n".join(game.record_lines()[:5]) + "\n")
    assert main(["referee", "trainline", str(path)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4
    path.write_text(game.record_lines()[0] + '\n{"action": "jump"}\n')
    assert main(["referee", "trainline", str(path)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_an_older_board_line_with_its_die_roll_is_judged_as_one_line() -> None:
    game = TrainlineGame.new(2, random.Random(2))
    old = {"action": "board", "start": [0, 4], "doors_open": False}
    verdicts = list(judge_lines([*game.record_lines(), json.dumps(old)]))
    assert verdicts == [{**verdicts[0], "verdict": "move", "move": old, "next_seat": 1}]
    assert "misses the train" in verdicts[0]["said"]
