"""The Rollecate referee's end of the game: the final count, and the faults issue 14 found.

Each fault's transcript is the issue's own, kept in tests/fixtures/rollecate/fault_*.jsonl.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from host.rollecate.referee import judge_file

FIXTURES = Path(__file__).parent / "fixtures" / "rollecate"


def _wins(verdicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [verdict for verdict in verdicts if verdict["verdict"] == "win"]


def test_with_every_hand_empty_the_final_line_is_accepted_and_the_win_said_once() -> None:
    verdicts = judge_file(FIXTURES / "fault_all_hands_empty.jsonl")
    assert [v for v in verdicts if v["verdict"] == "illegal"] == []
    (win,) = _wins(verdicts)
    assert win["scores"]["winners"] == [0, 1] and win["exact"] is True
    # The final line (with "hands") agrees with the count: the game stays scored.
    assert verdicts[-1]["verdict"] == "waiting"
    assert verdicts[-1]["instructions"] == ["the game is over: the count stands"]


def test_four_equal_cards_between_two_views_are_never_counted_by_silent_guess() -> None:
    """Four 1s put down without combining show a 1 on top, as one 1 or three would: the count
    cannot know which, so it says what it assumed for that seat."""
    verdicts = judge_file(FIXTURES / "fault_four_equal_cards.jsonl")
    assert [v for v in verdicts if v["verdict"] == "illegal"] == []
    (win,) = _wins(verdicts)
    assert win["exact"] is False
    assert [entry["seat"] for entry in win["assumed"]] == [0]
    assert "seat 0's discard pile" in win["assumed"][0]["what"]
    assert any("seat 0's discard pile" in said for said in win["instructions"])


def test_a_copy_lying_on_a_pile_counts_against_the_deck() -> None:
    verdicts = judge_file(FIXTURES / "fault_copy_on_a_pile.jsonl")
    assert [v["verdict"] for v in verdicts[:5]] == ["waiting", "waiting", "waiting", "move",
                                                     "waiting"]
    assert verdicts[5]["verdict"] == "illegal"
    assert verdicts[5]["reason"] == "the table shows 2 x broken-1; the deck has 1"
