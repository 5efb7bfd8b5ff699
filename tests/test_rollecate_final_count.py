"""The Rollecate referee's end of the game: the final count, and the faults issue 14 found.

Each fault's transcript is the issue's own, kept in tests/fixtures/rollecate/fault_*.jsonl.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from rollecate_tables import CARDS

from host.context import AppContext
from host.journal import Journal
from host.rollecate.observation import RollecateObservation, is_event
from host.rollecate.referee import judge_file, open_referee
from host.session import Session
from host.table_loop import BoardInput, PlayerControl, TableLoop, TableSeen
from vision.pipeline import CardReading, Pipeline
from vision.rollecate_scene import lay_rollecate, rollecate_layout
from vision.rollecate_table import final_spread_most
from vision.rollecate_zones import RollecateZones, rollecate_observation
from vision.scene import Look, difficulty, photograph
from vision.table import Placement

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


def _lines(name: str) -> list[dict[str, Any]]:
    path = FIXTURES / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _judge_lines(tmp_path: Path, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return judge_file(path)


FOUR_ONES = _lines("fault_four_equal_cards.jsonl")[:-1]
"""The game of the silent wrong count, up to its final line."""
LAST = {"railway": ["track-4", "track-4"], "train": 1, "discard": [[], []]}


def test_the_spread_counts_what_the_top_card_could_not_tell(tmp_path: Path) -> None:
    spread = [["track-1", "track-2", "track-1", "track-1", "track-1"], ["track-3", "track-2"]]
    verdicts = _judge_lines(tmp_path, [*FOUR_ONES, {**LAST, "spread": spread}])
    win = verdicts[-1]
    assert win["verdict"] == "win" and win["exact"] is True and "assumed" not in win
    assert [(seat["total"], seat["cards"]) for seat in win["scores"]["seats"]] == [(6, 5), (5, 2)]
    assert win["scores"]["winners"] == [1]


def test_a_spread_read_in_part_waits_for_a_clearer_view(tmp_path: Path) -> None:
    spread = [["track-1", "track-2", None, "track-1", "track-1"], None]
    verdicts = _judge_lines(tmp_path, [*FOUR_ONES, {**LAST, "spread": spread}])
    assert verdicts[-1]["verdict"] == "waiting"
    assert verdicts[-1]["instructions"] == [
        "the camera cannot read every card of seat 0 and seat 1: spread them so none covers "
        "another"]


def test_a_spread_that_disagrees_names_the_seat_and_waits_for_a_correction_or_an_accept(
    tmp_path: Path,
) -> None:
    # Seat 0's pile holds at least two 1s; seat 1 shows a card too many.
    wrong = [["track-2", "track-1", "track-3"], ["track-3", "track-2", "track-4"]]
    right = [["track-1", "track-2", "track-1"], ["track-3", "track-2"]]
    verdicts = _judge_lines(tmp_path, [
        *FOUR_ONES, {**LAST, "spread": wrong}, {**LAST, "spread": right}])
    disputed, win = verdicts[-2:]
    assert disputed["verdict"] == "illegal"
    assert disputed["disagree"] == [
        {"seat": 0, "what": "seat 0's spread lacks the 1 that its discard pile holds"},
        {"seat": 1, "what": "seat 1 shows 3 cards; its discard pile and hand hold 2"},
    ]
    assert win["verdict"] == "win" and win["exact"] is True
    assert win["scores"]["winners"] == [0]  # 4 points in 3 cards against 5 in 2
    # The app's accept sends the table last seen, marked accepted.
    accepted = _judge_lines(tmp_path, [*FOUR_ONES, {**LAST, "spread": wrong},
                                       {**LAST, "spread": wrong, "accepted": True}])
    assert accepted[-1]["verdict"] == "win" and accepted[-1]["accepted"] == disputed["disagree"]
    assert accepted[-1]["exact"] is True  # every card was seen
    assert [seat["total"] for seat in accepted[-1]["scores"]["seats"]] == [6, 9]


def test_a_spread_with_a_copy_the_deck_does_not_have_is_disputed(tmp_path: Path) -> None:
    spread = [["track-1", "track-2", "track-1"], ["broken-4", "broken-4"]]
    verdicts = _judge_lines(tmp_path, [*FOUR_ONES, {**LAST, "spread": spread}])
    assert verdicts[-1]["disagree"] == [
        {"seat": 1, "what": "seat 1 shows the broken 4: the table shows 2 x broken-4; the deck "
         "has 1"}]


def test_only_a_final_count_can_be_accepted_as_it_is(tmp_path: Path) -> None:
    verdicts = _judge_lines(tmp_path, [*FOUR_ONES[:3], {**FOUR_ONES[4], "accepted": True}])
    assert verdicts[-1]["reason"] == "only a final count spread out can be accepted as it is"


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_the_camera_reads_every_card_of_the_final_count_with_the_railway_cleared(
    players: int, seed: int
) -> None:
    """Rendered and read by the recognizer: every seat's cards in rows in front of it, as many
    as fit readably, none on the railway (cleared away with its start tile)."""
    rng = random.Random(seed)
    deck = [name for name in CARDS if not name.startswith("chaos")]
    rng.shuffle(deck)
    most = final_spread_most(players)
    spread = tuple(tuple(sorted(deck.pop() for _ in range(count)))
                   for count in (most, *(rng.randint(0, most) for _ in range(players - 1))))
    table = RollecateObservation((), 0, tuple(() for _ in range(players)), spread=spread)
    look = Look.draw(seed, difficulty("easy"))
    image, _ = photograph(lay_rollecate(table, look, seed), 0, hands=0)
    pipeline = Pipeline(deck="rollecate", zones=RollecateZones(players))
    pipeline.read(image)  # the first frame finds the markers
    assert pipeline.read(image).observation == table, f"seed {seed}"


def test_a_final_count_with_a_card_out_of_reach_is_not_read() -> None:
    """A card in the middle of a cleared table is nobody's: no count is read, not a guess."""
    spread = (("track-1", "track-2"), ("track-3",))
    table = RollecateObservation((), 0, ((), ()), spread=spread)
    laid, _ = rollecate_layout(table, 3)
    cards = [CardReading(card.name, 1.0, card.placement.corners(), card.placement.corners())
             for card in laid if not card.face_down]
    assert rollecate_observation(cards, 2, None, None) == table
    middle = Placement((450.0, 350.0), 0.0)
    stray = CardReading("rollecate/track-4", 1.0, middle.corners(), middle.corners())
    assert rollecate_observation([*cards, stray], 2, None, None) is None


def test_the_apps_accept_button_accepts_a_disputed_count(tmp_path: Path) -> None:
    """At a table: the disputed spread is said after a while, and the accept button (the web
    view's, or "a" typed) judges the table last seen again, marked accepted."""
    out = io.StringIO()
    wrong = [["track-2", "track-1", "track-3"], ["track-3", "track-2", "track-4"]]
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = AppContext(out=out, journal=journal, camera="none", board="none")
        session = Session.start("rollecate", FOUR_ONES[0], open_referee, journal, {})
        loop = TableLoop(session, app, "Rollecate", "rollecate")
        for now, line in enumerate([*FOUR_ONES[1:], {**LAST, "spread": wrong}], start=1):
            loop.handle(BoardInput(line) if is_event(line) else TableSeen(line), float(now))
        assert session.referee.referee.scoring is None
        loop.handle(PlayerControl("accept"), 30.0)
        scoring = session.referee.referee.scoring
        assert scoring is not None and [seat.total for seat in scoring.seats] == [6, 9]
