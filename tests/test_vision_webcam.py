"""A webcam is asked for 1920 x 1080 (OpenCV would open most USB webcams at 640 x 480); one that
gives less than the 1280 x 720 the recognizer was set on is said so in one line, and the game
goes on; a video file is read as it was recorded."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import WEBCAM_LEAST, WEBCAM_MODE, VideoCamera, camera_opener, open_webcam

MJPG = cv2.VideoWriter.fourcc(*"MJPG")
YUYV = cv2.VideoWriter.fourcc(*"YUYV")


class FakeWebcam:
    """A USB webcam as OpenCV's V4L2 backend shows it: it opens at 640 x 480 raw YUYV, and each
    width or height set moves it to the nearest of its own modes."""

    def __init__(self, modes: list[tuple[int, int]]) -> None:
        self.modes = modes
        self.width, self.height = 640, 480
        self.fourcc = YUYV
        self.fps = 30.0
        self.released = False

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float, /) -> bool:
        if prop == cv2.CAP_PROP_FOURCC:
            self.fourcc = int(value)
            return True
        if prop == cv2.CAP_PROP_FPS:
            self.fps = value
            return True
        asked = {cv2.CAP_PROP_FRAME_WIDTH: (value, self.height),
                 cv2.CAP_PROP_FRAME_HEIGHT: (self.width, value)}[prop]
        self.width, self.height = min(self.modes, key=lambda mode: abs(mode[0] - asked[0])
                                      + abs(mode[1] - asked[1]))
        return True

    def get(self, prop: int, /) -> float:
        return {cv2.CAP_PROP_FRAME_WIDTH: float(self.width),
                cv2.CAP_PROP_FRAME_HEIGHT: float(self.height),
                cv2.CAP_PROP_FPS: self.fps, cv2.CAP_PROP_FOURCC: float(self.fourcc)}[prop]

    def read(self) -> tuple[bool, object]:
        return not self.released, np.zeros((self.height, self.width, 3), np.uint8)

    def release(self) -> None:
        self.released = True


def test_a_webcam_is_asked_for_1080p_at_30_frames_a_second() -> None:
    webcam = FakeWebcam([(640, 480), (1280, 720), (1920, 1080)])
    camera = VideoCamera(0, capture=webcam)
    assert camera.size == WEBCAM_MODE[:2] == (1920, 1080)
    assert webcam.fourcc == MJPG  # 1080p at 30 fps over USB 2 needs compressed frames
    assert webcam.fps == WEBCAM_MODE[2]
    assert camera.shortfall() is None
    first = next(iter(camera))
    assert first.image.shape == (1080, 1920, 3)


def test_a_720p_webcam_gives_its_best_without_a_word() -> None:
    camera = VideoCamera(0, capture=FakeWebcam([(640, 480), (1280, 720)]))
    assert camera.size == WEBCAM_LEAST == (1280, 720)
    assert camera.shortfall() is None


def test_a_webcam_that_gives_less_is_said_in_one_line_and_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    opened: list[FakeWebcam] = []

    def small_webcam(source: int) -> FakeWebcam:
        opened.append(FakeWebcam([(320, 240), (640, 480)]))
        return opened[-1]

    monkeypatch.setattr(cv2, "VideoCapture", small_webcam)
    reopen = camera_opener("0")  # what `play --camera 0` does before the game starts
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("conductor: camera 0 gives 640 x 480 pixels (1920 x 1080 asked for)")
    assert opened[0].released  # looked at, then let go until the game opens it
    frames = iter(reopen())
    assert next(frames).image.shape == (480, 640, 3)
    assert capsys.readouterr().err == ""  # said once, not at every reopening
    assert open_webcam(0).shortfall() is not None


class SpiedCapture:
    """A real OpenCV capture that remembers what was set on it."""

    def __init__(self, path: Path) -> None:
        self.capture = cv2.VideoCapture(str(path))
        self.set_calls: list[int] = []

    def isOpened(self) -> bool:
        return bool(self.capture.isOpened())

    def set(self, prop: int, value: float, /) -> bool:
        self.set_calls.append(prop)
        return bool(self.capture.set(prop, value))

    def get(self, prop: int, /) -> float:
        return float(self.capture.get(prop))

    def read(self) -> tuple[bool, object]:
        return self.capture.read()

    def release(self) -> None:
        self.capture.release()


def test_a_video_file_is_read_at_the_size_it_was_recorded(tmp_path: Path) -> None:
    path = tmp_path / "small.avi"
    writer = cv2.VideoWriter(str(path), MJPG, 30.0, (320, 240))
    for shade in range(3):
        writer.write(np.full((240, 320, 3), 80 * shade, np.uint8))
    writer.release()
    spied = SpiedCapture(path)
    camera = VideoCamera(path, capture=spied)
    assert camera.size == (320, 240)
    assert camera.shortfall() is None  # a file is what it is: nothing to ask, nothing to say
    assert spied.set_calls == []
    assert [frame.image.shape for frame in camera] == [(240, 320, 3)] * 3
