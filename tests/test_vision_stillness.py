"""Stillness on rendered video: still tables are quiet, arms and shadows are not; a hand held
still is seen as something over the table; arms and shadows passing make no false event."""

from __future__ import annotations

import numpy as np
import pytest

from vision.motion_scene import judge, passing_hands
from vision.pipeline import Pipeline
from vision.stillness import FOREIGN_SHARE, Stillness
from vision.trains_zones import TrainsZones
from vision.watcher import TableWatcher


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_still_table_is_quiet_a_moving_arm_is_not_and_a_still_hand_is_not_clear(level: str
                                                                                  ) -> None:
    seed = 11  # one arm, which stops dead still over the table for a while
    clip = passing_hands(seed, level)
    arm = clip.passes[0]
    assert arm.arm and arm.tremble == 0
    stillness = Stillness()
    end = arm.first + len(arm.path)
    moved = stopped = 0
    for index, frame in enumerate(clip):
        if index == end:
            break
        calm = stillness.look(frame.image, [])
        if index == 5:
            stillness.keep([])
        tip, before = arm.at(index), arm.at(index - 1)
        if not frame.passing and index > 0:
            assert calm.quiet and (index <= 5 or calm.clear), f"seed {seed} frame {index}"
        elif tip is not None and before is not None and 0 < tip[0] < 1280 and 0 < tip[1] < 720:
            step = float(np.linalg.norm(tip - before))
            if step > 8:
                assert not calm.quiet, f"seed {seed} frame {index}: moved {step:.0f} px"
                moved += 1
            alone = all(item.at(index) is None for item in clip.passes[1:])
            if step == 0 and alone and index != clip.change_at:
                # Nothing moves (the hand has not just swapped a card), but the hand is there.
                assert calm.quiet and not calm.clear, f"seed {seed} frame {index}"
                assert calm.foreign is not None and calm.foreign > 3 * FOREIGN_SHARE
                stopped += 1
    assert moved >= 5 and stopped >= 3


def test_a_change_of_light_is_neither_motion_nor_something_over_the_table() -> None:
    frames = iter(passing_hands(4, "medium"))
    stillness = Stillness()
    stillness.look(next(frames).image, [])
    stillness.keep([])
    dimmer = np.asarray(next(frames).image * 0.9, np.uint8)
    calm = stillness.look(dimmer, [])
    assert calm.quiet and calm.clear


def test_a_frame_of_another_size_starts_afresh() -> None:
    stillness = Stillness()
    stillness.keep([])  # nothing seen yet: nothing to keep
    assert stillness.look(np.zeros((720, 1280, 3), np.uint8), []).foreign is None
    assert stillness.motion(np.zeros((360, 640, 3), np.uint8)) == 1.0


def test_broken_frames_are_taken_without_an_error_and_report_nothing() -> None:
    watcher = TableWatcher(Pipeline(zones=TrainsZones(2)))
    for index, shape in enumerate([(0, 0, 3), (3, 3, 3), (3, 3, 3), (1, 1), (720, 1280),
                                   (720, 1280, 3), (720, 1280, 3), (720, 1280, 3)]):
        assert watcher.read(index / 30, np.zeros(shape, np.uint8))[1] is None


@pytest.mark.parametrize("seed", [3, 14])
def test_arms_and_shadows_passing_make_no_false_event_and_the_change_is_reported(seed: int
                                                                                 ) -> None:
    # Seed 3: an arm stops dead still and swaps a railcar, a shadow sweeps across; seed 14: two
    # arms stop dead still and a shadow passes, and the table stays as it was.
    clip = passing_hands(seed, "easy")
    watcher = TableWatcher(Pipeline(zones=TrainsZones(len(clip.before.lines))))
    watched = judge(clip, lambda frame: watcher.read(frame.timestamp, frame.image)[1])
    expected = [clip.before, clip.after] if clip.changes else [clip.before]
    assert [event for _, event in watched.events] == expected, f"seed {seed}"
    assert watched.false == watched.misread == watched.unread == watched.extra == 0
    assert not watched.missed
    assert watcher.skipped > 0  # the frames that moved were not read
    if clip.changes:
        assert watched.delay is not None and watched.delay <= 0.2, f"seed {seed}"


def test_a_card_the_recognizer_lost_on_an_unchanged_table_is_not_clear() -> None:
    frames = iter(passing_hands(4, "easy"))
    pipeline, stillness = Pipeline(zones=TrainsZones(2)), Stillness()
    first = next(frames).image
    cards = [card.corners for card in pipeline.read(first).cards]
    stillness.look(first, cards)
    stillness.keep(cards)
    still = next(frames).image
    assert stillness.look(still, cards).clear
    calm = stillness.look(still, cards[1:])  # the same picture, one card not found
    assert calm.quiet and not calm.clear
