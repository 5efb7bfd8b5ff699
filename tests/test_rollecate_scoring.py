"""Final scoring, tie-breaks down to a shared win, and ``conductor score rollecate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from host.cli import main
from host.rollecate.scoring import score_table


@pytest.mark.parametrize(
    ("seats", "winners", "decided_by"),
    [
        ([[1], [2]], (0,), "total"),
        ([[4], [2, 2]], (0,), "cards"),
        ([[4, 1], [3, 2]], (1,), "4s"),
        ([[3, 2, 2], [3, 3, 1]], (0,), "3s"),
        # A chaos card of value 5 makes equal totals with different 2s possible.
        ([[2, 2, 2, 2], [5, 1, 1, 1]], (1,), "2s"),
        # The shipped values (1 to 5) can never reach the 1s; a house-rule 0 and 8 can.
        ([[8, 0], [7, 1]], (0,), "1s"),
        ([[2, 3], [3, 2]], (0, 1), "shared"),
    ],
)
def test_ties_are_broken_at_each_level(
    seats: list[list[int]], winners: tuple[int, ...], decided_by: str
) -> None:
    scoring = score_table(seats)
    assert scoring.winners == winners and scoring.decided_by == decided_by


def test_tied_winners_share_the_win_ahead_of_a_third_seat() -> None:
    scoring = score_table([[4], [9], [4]])
    assert scoring.winners == (0, 2) and scoring.ranking == ((0, 2), (1,))
    assert scoring.decided_by == "shared"


def test_the_score_command_says_who_shares_the_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = {"seats": [{"discard": [4], "hand": []}, {"discard": [4, 4], "hand": []},
                       {"discard": [], "hand": [4]}]}
    assert _score(tmp_path, table) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[-1] == "winners: seat 0 and seat 2 share the win (tied all the way)"
    assert _score(tmp_path, table, "--json") == 0
    result = json.loads(capsys.readouterr().out)
    assert result["winners"] == [0, 2] and result["decided_by"] == "shared"


def _score(tmp_path: Path, table: object, *flags: str) -> int:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(table), encoding="utf-8")
    return main(["score", "rollecate", str(path), *flags])


def test_the_score_command_reads_values_and_card_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = {
        "seats": [
            {"discard": [3, "track-2", "rollecate/chaos-4"], "hand": ["broken-1"]},
            {"discard": [4, 4, 2], "hand": []},
        ]
    }
    assert _score(tmp_path, table, "--json") == 0
    result = json.loads(capsys.readouterr().out)
    assert [seat["total"] for seat in result["seats"]] == [10, 10]
    assert result["seats"][0]["counts"] == {"4": 1, "3": 1, "2": 1, "1": 1}
    assert result["winners"] == [1] and result["decided_by"] == "cards"
    assert _score(tmp_path, table) == 0
    text = capsys.readouterr().out
    assert "seat 0: 10 points, 4 cards" in text and "seat 1 wins (decided by cards)" in text


@pytest.mark.parametrize(
    ("table", "reason"),
    [
        ({"seats": [{"discard": [9]}, {}]}, "no Rollecate card has the value 9"),
        ({"seats": [{"discard": ["track-7"]}, {}]}, "no card 'track-7'"),
        ({"seats": [{}]}, "a list of 2 to 4"),
        ({"seats": [{"pile": []}, {}]}, "seat 0: expected"),
        ({"seats": [{"discard": [5, 5]}, {}]}, "2 cards of value 5; the deck has 1"),
        ([1, 2], "a list of 2 to 4"),
    ],
)
def test_a_malformed_table_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: object, reason: str
) -> None:
    assert _score(tmp_path, table) == 2
    error = capsys.readouterr().err
    assert reason in error and error.count("\n") == 1


def test_a_file_that_is_not_json_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.json"
    path.write_text("{seats:", encoding="utf-8")
    assert main(["score", "rollecate", str(path)]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["score", "rollecate", str(tmp_path / "missing.json")]) == 2
