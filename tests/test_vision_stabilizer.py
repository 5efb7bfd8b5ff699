"""The stabilizer: changes reported once the table is still; hands and bad frames ignored."""

from hypothesis import given
from hypothesis import strategies as st

from vision.stabilizer import SETTLE_FRAMES, Stabilizer
from vision.stillness import Calm

FPS = 15.0


def _feed(stabilizer: Stabilizer[str], readings: list[str | None], start: int = 0
          ) -> list[tuple[int, str]]:
    events = []
    for index, reading in enumerate(readings, start=start):
        event = stabilizer.feed(index / FPS, reading)
        if event is not None:
            events.append((index, event))
    return events


def test_a_still_table_is_reported_once_after_the_still_time() -> None:
    stabilizer: Stabilizer[str] = Stabilizer(still_seconds=0.6)
    events = _feed(stabilizer, ["a"] * 40)
    assert events == [(9, "a")]  # 9 frames at 15 fps span the 0.6 s


def test_a_change_is_reported_after_the_hand_has_gone_and_the_table_settled() -> None:
    stabilizer: Stabilizer[str] = Stabilizer(still_seconds=0.6)
    readings: list[str | None] = ["a"] * 20 + [None, "x", None, "y", None] + ["b"] * 20
    events = _feed(stabilizer, readings)
    assert [event for _, event in events] == ["a", "b"]
    # "b" is reported once it has filled 80 % of the 0.6 s window (10 frames), not before.
    frames_of_b = events[1][0] - 25 + 1
    assert frames_of_b == 8


def test_one_bad_frame_neither_drops_a_card_nor_repeats_the_table() -> None:
    stabilizer: Stabilizer[str] = Stabilizer(still_seconds=0.6)
    readings: list[str | None] = ["a"] * 20 + ["a-missing-a-card"] + ["a"] * 20 + [None] + ["a"] * 5
    assert [event for _, event in _feed(stabilizer, readings)] == ["a"]


def test_time_going_backwards_is_refused() -> None:
    stabilizer: Stabilizer[str] = Stabilizer()
    stabilizer.feed(1.0, "a")
    try:
        stabilizer.feed(0.5, "a")
    except ValueError:
        return
    raise AssertionError("expected a ValueError")


@given(st.lists(st.sampled_from(["a", "b", None]), max_size=30))
def test_a_hand_waving_over_the_table_produces_no_event(noise: list[str | None]) -> None:
    # Readings that change every frame or two never agree long enough to be reported.
    flicker = [reading if index % 2 else None for index, reading in enumerate(noise)]
    stabilizer: Stabilizer[str] = Stabilizer(still_seconds=0.6)
    assert _feed(stabilizer, flicker) == []


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(1, 30)), max_size=8))
def test_every_event_held_still_and_every_long_still_run_is_reported(
        runs: list[tuple[str, int]]) -> None:
    readings = [reading for reading, length in runs for _ in range(length)]
    stabilizer: Stabilizer[str] = Stabilizer(still_seconds=0.6)
    events = _feed(stabilizer, list(readings))
    previous = None
    for index, event in events:
        assert event != previous
        window = readings[max(0, index - 9):index + 1]
        assert window.count(event) >= 0.8 * len(window)
        previous = event
    start = 0
    for reading, length in runs:
        end = start + length
        if length >= 10 and readings[start:end] == [reading] * length:
            during = [event for index, event in events if start <= index < end]
            before = [event for index, event in events if index < start]
            # Reported during the run, or already the table's reported state when it began.
            assert (during and during[-1] == reading) or (not during and before[-1:] == [reading])
        start = end


# Settling by stillness: each frame also says whether it moved and whether anything but cards
# differs from the last settled table.
STILL_CLEAR = Calm(0.0, 0.0)
STILL_COVERED = Calm(0.0, 0.05)  # a hand held still over the table
MOVING = Calm(0.05, None)


def _feed_calm(stabilizer: Stabilizer[str], frames: list[tuple[str | None, Calm]], fps: float = 30.0
               ) -> list[tuple[int, str]]:
    events = []
    for index, (reading, calm) in enumerate(frames):
        event = stabilizer.feed(index / fps, reading, calm)
        if event is not None:
            events.append((index, event))
    return events


def test_a_still_clear_table_is_reported_after_a_few_still_frames_not_after_the_window() -> None:
    stabilizer: Stabilizer[str] = Stabilizer()
    frames = [("a", STILL_CLEAR)] * 30 + [(None, MOVING)] * 5 + [("b", STILL_CLEAR)] * 10
    events = _feed_calm(stabilizer, frames)
    assert events[1] == (35 + SETTLE_FRAMES - 1, "b")
    assert stabilizer.settled


def test_a_hand_held_still_waits_for_the_whole_window() -> None:
    stabilizer: Stabilizer[str] = Stabilizer()
    frames = [("a", STILL_CLEAR)] * 30 + [(None, MOVING)] * 5 + [("b", STILL_COVERED)] * 30
    events = _feed_calm(stabilizer, frames)
    # 0.6 s at 30 frames/s, 80 % of them agreeing: the 15th frame of "b" at the earliest.
    assert [event for _, event in events] == ["a", "b"]
    assert events[1][0] - 35 + 1 >= 15


def test_a_moving_frame_shows_nothing_even_with_a_complete_reading() -> None:
    stabilizer: Stabilizer[str] = Stabilizer()
    frames = [("a", STILL_CLEAR)] * 30 + [("b", MOVING)] * 60
    assert [event for _, event in _feed_calm(stabilizer, frames)] == ["a"]
    assert not stabilizer.settled


def test_the_first_table_is_reported_by_the_window_there_is_nothing_to_compare_with_yet() -> None:
    stabilizer: Stabilizer[str] = Stabilizer()
    events = _feed_calm(stabilizer, [("a", Calm(0.0, None))] * 30)
    assert events == [(18, "a")]  # 19 frames span 0.6 s at 30 frames/s


@given(st.lists(st.tuples(st.sampled_from(["a", "b", None]),
                          st.sampled_from([STILL_CLEAR, STILL_COVERED, MOVING])), max_size=60))
def test_every_event_came_after_still_agreeing_frames(frames: list[tuple[str | None, Calm]]
                                                      ) -> None:
    stabilizer: Stabilizer[str] = Stabilizer()
    events = _feed_calm(stabilizer, frames)
    previous = None
    for index, event in events:
        assert event != previous
        recent = frames[index - SETTLE_FRAMES + 1:index + 1]
        assert len(recent) == SETTLE_FRAMES
        assert all(reading == event and calm.quiet for reading, calm in recent)
        if not all(calm.clear for _, calm in recent):
            # Not clear: only as the old window's vote, and moving frames count as nothing.
            window = frames[max(0, index - 18):index + 1]
            votes = sum(reading == event and calm.quiet for reading, calm in window)
            assert votes >= 0.8 * len(window)
        previous = event


def test_a_reading_not_allowed_quick_waits_for_the_vote_even_on_a_clear_table() -> None:
    # A table with a card read as unknown: the next look may name it.
    stabilizer: Stabilizer[str] = Stabilizer(quick=lambda reading: "?" not in reading)
    frames = ([("a", STILL_CLEAR)] * 30 + [(None, MOVING)] * 5 + [("b?", STILL_CLEAR)] * 3
              + [("b", STILL_CLEAR)] * 20)
    events = _feed_calm(stabilizer, frames)
    assert events[1:] == [(38 + SETTLE_FRAMES - 1, "b")]
