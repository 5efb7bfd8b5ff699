"""``conductor referee trains`` and ``conductor demo trains`` as a user runs them."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from host.cli import main
from host.trains.bots import GreedyBot
from host.trains.observation import TrainsObservation
from host.trains.position import Phase, Position, apply

ROOT = Path(__file__).resolve().parent.parent


def recorded_game(seed: int, seats: int = 3) -> tuple[list[dict[str, object]], Position]:
    """The observations a camera would report of a seeded game, and its last position."""
    rng = random.Random(seed)
    position = Position.deal(seats, 0, rng)
    opening = {"seats": seats, "first": 0, **TrainsObservation.of(position).to_json()}
    rows: list[dict[str, object]] = [opening]
    bot = GreedyBot(rng)
    while position.phase is not Phase.OVER:
        position = apply(position, bot.choose(position))
        rows.append(TrainsObservation.of(position).to_json())
    return rows, position


def write(tmp_path: Path, rows: list[object]) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    return path


def test_a_recorded_game_gets_one_verdict_per_observation_ending_in_the_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, last = recorded_game(seed=5)
    assert main(["referee", "trains", str(write(tmp_path, rows))]) == 0
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(verdicts) == len(rows)
    assert verdicts[0] == {"verdict": "waiting", "seat": 0, "phase": "draft"}
    assert all(v["verdict"] == "move" for v in verdicts[1:-1])
    assert verdicts[-1]["verdict"] == "win" and verdicts[-1]["seat"] == last.winner
    assert [v["next_seat"] for v in verdicts[1:4]] == [1, 2, 0]


def test_an_illegal_observation_is_reported_and_the_game_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, _ = recorded_game(seed=6)
    bad = json.loads(json.dumps(rows[4]))
    bad["lines"][1] = list(reversed(bad["lines"][1]))
    main(["referee", "trains", str(write(tmp_path, [*rows[:4], bad, *rows[4:]]))])
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert verdicts[4]["verdict"] == "illegal" and verdicts[4]["reason"]
    assert verdicts[5]["verdict"] == "move"


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        (['{"seats": 2, "lines": [[1,2,3,4,5,6,7], [8,9,10,11,12,13,14]]}', "{oops"], "not JSON"),
        (['{"seats": 2, "lines": [[1,2,3,4,5,6], [8,9,10,11,12,13,14]]}'], "has 6 cards"),
        (['{"seats": 2, "lines": [[1,2,3,4,5,6,85], [8,9,10,11,12,13,14]]}'], "not a number 1..84"),
        (['{"seats": 2, "lines": [[1,2,3,4,5,6,7], [7,9,10,11,12,13,14]]}'], "the 7 is seen in"),
        (['{"lines": [[1,2,3,4,5,6,7], [8,9,10,11,12,13,14]]}'], '"seats"'),
        (['{"seats": 5, "lines": []}'], "2 to 4 seats"),
        (['{"seats": 2, "lines": [[1,2,3,4,5,6,7]]}'], "1 lines seen at a table of 2"),
        ([], "nothing to judge"),
    ],
)
def test_a_malformed_file_exits_2_with_a_one_line_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], reason: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines))
    assert main(["referee", "trains", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and reason in err and err.count("\n") == 1


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", "trains", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_demo_runs_end_to_end_on_the_rendered_camera_and_simulated_board() -> None:
    """The main job on its embedded defaults: rendered video, recognizer, referee, journal and
    the real firmware's seat LEDs (seed 26 is a short 2-seat game, to keep the suite quick)."""
    result = subprocess.run(
        [sys.executable, "-m", "host", "demo", "trains", "--seed", "26", "--players", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("The Game of Trains: 2 seats, seed 26")
    if shutil.which("micropython"):
        assert any(line.startswith("board: ") for line in lines)
    assert any(line.startswith("camera: ") and "rendered frames" in line for line in lines)
    winner_line = lines[-1]
    assert winner_line.startswith("Seat ") and "wins after 10 moves" in winner_line
    winner = int(winner_line.split()[1])
    winning = next(line for line in lines[-3:-1] if line.strip().startswith(f"seat {winner}:"))
    cards = [int(card) for card in winning.split(":")[1].split()]
    assert cards == sorted(cards)


def test_the_seed_1_demo_matches_its_golden_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    """A change to the rules, the bots or the referee's words shows here as a transcript diff.
    If the change is intended, regenerate with
    ``python -m host demo trains --seed 1 --camera none --board none --db /tmp/new.sqlite
    > tests/fixtures/trains/demo-seed-1.txt``."""
    assert main(["demo", "trains", "--seed", "1", "--camera", "none", "--board", "none"]) == 0
    golden = (ROOT / "tests" / "fixtures" / "trains" / "demo-seed-1.txt").read_text()
    assert capsys.readouterr().out == golden
