"""The referee at a real table: verdicts, turns in progress, and the reasons it gives."""

from __future__ import annotations

from trains_helpers import cards_with

from host.trains.observation import TrainsObservation
from host.trains.position import Phase, Position
from host.trains.referee import Referee
from host.trains.rules import Ability, Lock

SWAP = cards_with(Ability.SWAP_ADJACENT)
PROTECT = cards_with(Ability.PROTECT)
LINE_A = [70, 60, 50, 40, 30, 20, 10]
LINE_B = [71, 61, 51, 44, 31, 27, 11]


def seen(
    lines: list[list[int]], faceup: list[int], locks: set[tuple[int, Lock]] | None = None
) -> TrainsObservation:
    return TrainsObservation(
        lines=tuple(tuple(line) for line in lines),
        faceup=tuple(faceup),
        locks=tuple(sorted((seat, lock.value) for seat, lock in locks or set())),
    )


def in_play(faceup: list[int]) -> Referee:
    return Referee(Position.from_table(2, 0, [LINE_A, LINE_B], faceup, Phase.PLAY))


def test_a_just_dealt_table_waits_for_the_draft_and_recognises_it() -> None:
    referee = Referee(Position.from_table(2, 1, [LINE_A, LINE_B], [], Phase.DRAFT))
    assert referee.observe(seen([LINE_A, LINE_B], [])).verdict == "waiting"
    verdict = referee.observe(seen([LINE_A, [2, *LINE_B[1:]]], [71])).to_json()
    assert verdict["verdict"] == "move" and verdict["seat"] == 1 and verdict["next_seat"] == 0
    assert verdict["move"]["kind"] == "draft" and verdict["move"]["card"] == 2


def test_a_swap_is_recognised_with_the_next_seat() -> None:
    referee = in_play([SWAP[0]])
    swapped = [60, 70, *LINE_A[2:]]
    verdict = referee.observe(seen([swapped, LINE_B], [])).to_json()
    assert verdict["verdict"] == "move" and verdict["next_seat"] == 1
    assert verdict["move"]["ability"] == "swap-adjacent" and verdict["move"]["slot"] == 0
    assert "swapped places 1 and 2" in verdict["move"]["text"]


def test_a_swap_the_ability_does_not_allow_is_illegal_and_nothing_is_committed() -> None:
    referee = in_play([SWAP[0]])
    before = referee.game.position.copy()
    swapped = [70, 60, 30, 40, 50, 20, 10]  # places 3 and 5: one card between them
    verdict = referee.observe(seen([swapped, LINE_B], [])).to_json()
    assert verdict["verdict"] == "illegal"
    assert verdict["reason"] == (
        f"seat 0 swapped places 3 and 5 (the 50 and the 30): the face-up {SWAP[0]} "
        "(swap adjacent) does not allow that"
    )
    assert referee.game.position == before


def test_rearranging_without_a_face_up_card_is_illegal() -> None:
    referee = in_play([SWAP[0]])
    verdict = referee.observe(seen([[60, 70, *LINE_A[2:]], LINE_B], [SWAP[0]]))
    assert verdict.verdict == "illegal"
    assert verdict.to_json()["reason"].endswith("without using a face-up ability")


def test_a_turn_out_of_order_is_illegal() -> None:
    referee = in_play([])
    verdict = referee.observe(seen([LINE_A, [2, *LINE_B[1:]]], [71])).to_json()
    assert verdict["verdict"] == "illegal"
    assert verdict["reason"] == "seat 1's line changed, but it is seat 0's turn"


def test_a_face_up_card_picked_up_is_a_turn_in_progress_then_completes() -> None:
    referee = in_play([SWAP[0]])
    pending = referee.observe(seen([LINE_A, LINE_B], [])).to_json()
    assert pending["verdict"] == "waiting" and "took the face-up" in pending["pending"]
    done = referee.observe(seen([[70, 60, 50, 40, 30, 10, 20], LINE_B], []))
    assert done.verdict == "move"


def test_a_drawn_card_placed_before_the_old_one_is_laid_face_up_is_in_progress() -> None:
    referee = in_play([])
    drawn = [2, *LINE_A[1:]]
    pending = referee.observe(seen([drawn, LINE_B], [])).to_json()
    assert pending["verdict"] == "waiting" and "lay the 70 face up" in pending["pending"]
    assert referee.observe(seen([drawn, LINE_B], [70])).verdict == "move"


def test_a_card_seen_discarded_cannot_be_drawn_back() -> None:
    referee = in_play([SWAP[0]])
    referee.observe(seen([[60, 70, *LINE_A[2:]], LINE_B], []))
    verdict = referee.observe(seen([[60, 70, *LINE_A[2:]], [SWAP[0], *LINE_B[1:]]], [71]))
    assert verdict.verdict == "illegal"
    assert "discarded and cannot be drawn" in verdict.to_json()["reason"]


def test_two_face_up_cards_taken_in_one_turn_is_illegal() -> None:
    referee = in_play([SWAP[0], PROTECT[0]])
    verdict = referee.observe(seen([LINE_A, LINE_B], []))
    assert (
        verdict.verdict == "illegal" and "at most one face-up card" in verdict.to_json()["reason"]
    )


def test_a_protect_card_under_the_wrong_seat_is_illegal() -> None:
    referee = in_play([PROTECT[0]])
    verdict = referee.observe(seen([LINE_A, LINE_B], [], {(1, Lock.LEFT)}))
    assert verdict.verdict == "illegal"
    assert verdict.to_json()["reason"] == (
        f"the face-up {PROTECT[0]} (protect) was used but seat 0's line did not change as it allows"
    )


def test_a_protect_card_under_the_seats_own_card_is_recognised() -> None:
    referee = in_play([PROTECT[0]])
    verdict = referee.observe(seen([LINE_A, LINE_B], [], {(0, Lock.MIDDLE)}))
    assert verdict.verdict == "move" and verdict.to_json()["move"]["slot"] == 3


def test_the_table_put_back_as_before_the_last_move_offers_a_takeback() -> None:
    referee = in_play([SWAP[0]])
    referee.observe(seen([[60, 70, *LINE_A[2:]], LINE_B], []))
    verdict = referee.observe(seen([LINE_A, LINE_B], [SWAP[0]])).to_json()
    assert verdict["verdict"] == "waiting" and verdict["takeback"] is True


def test_a_winning_draw_is_a_win_verdict() -> None:
    referee = Referee(
        Position.from_table(2, 0, [[10, 20, 30, 40, 50, 60, 5], LINE_B], [], Phase.PLAY)
    )
    verdict = referee.observe(seen([[10, 20, 30, 40, 50, 60, 70], LINE_B], [5])).to_json()
    assert verdict["verdict"] == "win" and verdict["seat"] == 0
    assert referee.observe(seen([[10, 20, 30, 40, 50, 60, 70], LINE_B], [5])).verdict == "waiting"


def test_a_remove_half_done_waits_then_completes() -> None:
    remove = cards_with(Ability.REMOVE_LEFTMOST)[0]
    referee = in_play([remove])
    half = seen([[2, *LINE_A[1:]], LINE_B], [70])
    assert "refills it from the draw pile" in referee.observe(half).to_json()["pending"]
    done = referee.observe(seen([[2, *LINE_A[1:]], [3, *LINE_B[1:]]], [70, 71]))
    assert done.verdict == "move" and done.to_json()["move"]["drawn"] == [2, 3]


def test_a_face_up_card_put_into_a_line_is_illegal() -> None:
    referee = in_play([SWAP[0]])
    verdict = referee.observe(seen([[SWAP[0], *LINE_A[1:]], LINE_B], [70]))
    assert verdict.verdict == "illegal"
    assert "used for its ability, never put into a line" in verdict.to_json()["reason"]


def test_the_players_can_overrule_the_referee_and_undo_that() -> None:
    referee = in_play([SWAP[0]])
    before = referee.game.position.copy()
    wrong = {"lines": [[70, 60, 30, 40, 50, 20, 10], LINE_B], "faceup": [], "locks": []}
    assert referee.feed(wrong).verdict == "illegal"
    verdict = referee.feed({**wrong, "accepted": True}).to_json()
    assert verdict["verdict"] == "move" and verdict["next_seat"] == 1
    assert verdict["move"]["kind"] == "accepted"
    assert referee.game.position.lines[0] == [70, 60, 30, 40, 50, 20, 10]
    assert SWAP[0] in referee.game.position.discard  # the face-up card left the table
    drawn = {"lines": [[70, 60, 30, 40, 50, 20, 10], [2, *LINE_B[1:]]], "faceup": [71], "locks": []}
    assert referee.feed(drawn).verdict == "move"
    referee.undo()
    referee.undo()
    assert referee.game.position == before


def test_a_card_the_camera_cannot_read_holds_the_judgement() -> None:
    referee = in_play([SWAP[0]])
    before = referee.game.position.copy()
    unclear = {"lines": [[None, 60, *LINE_A[2:]], LINE_B], "faceup": [], "locks": []}
    verdict = referee.feed(unclear).to_json()
    assert verdict["verdict"] == "waiting" and verdict["unreadable"] == ["place 1 of seat 0's line"]
    assert referee.game.position == before
    assert referee.feed({**unclear, "lines": [[60, 70, *LINE_A[2:]], LINE_B]}).verdict == "move"
