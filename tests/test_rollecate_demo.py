"""``conductor demo rollecate``: a seeded game told turn by turn, compared with its transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from host.cli import main

GOLDEN = Path(__file__).parent / "fixtures" / "rollecate" / "demo_seed1_3players.txt"


def test_the_seed_1_game_matches_its_golden_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "rollecate", "--seed", "1", "--players", "3"]) == 0
    # If a rule change alters this game on purpose, regenerate the file with the same command.
    assert capsys.readouterr().out == GOLDEN.read_text(encoding="utf-8")


def test_the_demo_plays_every_player_count_to_a_winner(capsys: pytest.CaptureFixture[str]) -> None:
    for players in (2, 4):
        assert main(["demo", "rollecate", "--seed", "5", "--players", str(players)]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0] == f"Rollecate, seed 5, {players} players"
        assert sum(line.startswith("seat ") for line in lines[-players - 1 :]) == players
        assert lines[-1].startswith("winner: seat ")


def test_an_impossible_player_count_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "rollecate", "--players", "5"]) == 2
    assert capsys.readouterr().err == "conductor: Rollecate is for 2 to 4 players\n"
