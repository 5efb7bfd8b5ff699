"""Cameras: a rendered one (a seeded video of a game in progress) and real ones (OpenCV).

``RenderedCamera(observations, seed)`` plays a game on a rendered table (The Game of Trains,
Rollecate or Express, by the observations' kind): each observation is shown still for a while,
then a hand reaches over the table while the cards change, then the next observation is shown
still. It is what the app runs on without a webcam, and what tests and the demo feed the
whole pipeline with.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from host.errors import BadInputError, warn
from host.express.observation import ExpressObservation
from host.rollecate.observation import RollecateObservation
from host.trains.observation import TrainsObservation
from vision.express_scene import lay_express
from vision.imaging import Image
from vision.rollecate_scene import lay_rollecate
from vision.scene import (
    OWN_FACES,
    Difficulty,
    FaceSource,
    Look,
    Tabletop,
    difficulty,
    lay_table,
    photograph,
    trains_layout,
)

TableObservation = TrainsObservation | RollecateObservation | ExpressObservation
"""A table the rendered camera can draw."""


@dataclass(frozen=True)
class CameraFrame:
    """One frame of a camera."""

    timestamp: float
    """Seconds since the first frame."""
    image: Image
    """The BGR picture."""
    shown: TableObservation | None
    """For a rendered camera: the observation on the table in this frame (None while a hand
    is changing it); None for a real camera."""


class RenderedCamera:
    """A seeded video of a table going through ``observations`` (all of one game).

    Each observation stays still for ``still_frames`` frames, then a hand passes over the table
    for ``hand_frames`` frames while the table changes to the next one. Camera pose, cloth and
    light are drawn once from ``seed`` at the difficulty ``level``; noise changes every frame.
    """

    def __init__(self, observations: Sequence[TableObservation], seed: int = 1,
                 level: str | Difficulty = "easy", still_frames: int = 12, hand_frames: int = 6,
                 fps: float = 15.0, faces: FaceSource = OWN_FACES) -> None:
        if not observations:
            raise ValueError("a rendered camera needs at least one observation")
        self.observations = list(observations)
        self.level = difficulty(level) if isinstance(level, str) else level
        self.look = Look.draw(seed, self.level)
        self.seed = seed
        self.still_frames = still_frames
        self.hand_frames = hand_frames
        self.fps = fps
        self.faces = faces
        """The card faces drawn: Conductor's own, or a deck of the players' (Express tables
        are always drawn with ours)."""

    def _table(self, observation: TableObservation) -> Tabletop:
        if isinstance(observation, RollecateObservation):
            return lay_rollecate(observation, self.look, self.seed, self.faces)
        if isinstance(observation, ExpressObservation):
            return lay_express(observation, self.look, self.seed)
        assert isinstance(observation, TrainsObservation)
        return lay_table(trains_layout(observation, self.seed, self.level.jitter_degrees),
                         self.look, faces=self.faces)

    def __len__(self) -> int:
        return (len(self.observations) * self.still_frames
                + (len(self.observations) - 1) * self.hand_frames)

    def __iter__(self) -> Iterator[CameraFrame]:
        shot = 0
        following: Tabletop | None = None
        for index, observation in enumerate(self.observations):
            table = following or self._table(observation)
            for _ in range(self.still_frames):
                image, _ = photograph(table, shot, hands=0)
                yield CameraFrame(shot / self.fps, image, observation)
                shot += 1
            if index + 1 == len(self.observations):
                break
            following = self._table(self.observations[index + 1])
            for step in range(self.hand_frames):
                # The cards change while the hand is over the table.
                image, _ = photograph(table if step < self.hand_frames // 2 else following, shot,
                                      hands=1)
                yield CameraFrame(shot / self.fps, image, None)
                shot += 1


WEBCAM_MODE = (1920, 1080, 30)
"""What a webcam is asked for: width, height and frames a second. OpenCV otherwise opens most
USB webcams at 640 x 480, where a card's corner number is 2-4 pixels tall. At 1920 x 1080 near
twins are named far more often than at 1280 x 720 for about the same CPU per frame (the outline
search works on a top-down view of fixed px/mm; docs/vision.md, "At 1920 x 1080"), and the
stillness test expects about 30 frames a second."""
WEBCAM_LEAST = (1280, 720)
"""The smallest frame the recognizer was set on: a webcam giving less is said so."""


class Capture(Protocol):
    """What ``VideoCamera`` uses of ``cv2.VideoCapture`` (so tests can hand in a webcam)."""

    def isOpened(self) -> bool: ...
    def set(self, prop: int, value: float, /) -> bool: ...
    def get(self, prop: int, /) -> float: ...
    def read(self) -> tuple[bool, object]: ...
    def release(self) -> None: ...


class VideoCamera:
    """Frames from a webcam (by index) or a video file, through OpenCV."""

    def __init__(self, source: int | Path, capture: Capture | None = None) -> None:
        """Open ``source`` (a webcam is asked for ``WEBCAM_MODE``); ``capture``: the device
        already opened (tests hand in a webcam); BadInputError if it cannot be opened."""
        self.source = source
        # OpenCV reports a missing camera in several lines of its own; our one line is enough.
        previous = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            if capture is None:
                capture = (cv2.VideoCapture(source) if isinstance(source, int)
                           else cv2.VideoCapture(str(source)))
            if capture.isOpened() and isinstance(source, int):
                _ask_for_mode(capture)
        finally:
            cv2.utils.logging.setLogLevel(previous)
        if not capture.isOpened():
            what = f"camera {source}" if isinstance(source, int) else f"video file {source}"
            raise BadInputError(f"cannot open {what}")
        self._capture = capture
        self.size = (round(capture.get(cv2.CAP_PROP_FRAME_WIDTH)),
                     round(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        """Width and height of the frames, as the camera (or file) says it gives them."""

    def shortfall(self) -> str | None:
        """A line for the players when a webcam gives smaller frames than ``WEBCAM_LEAST``
        (cards will often be left unnamed), else None."""
        width, height = self.size
        least_width, least_height = WEBCAM_LEAST
        if not isinstance(self.source, int) or width * height >= least_width * least_height:
            return None
        wanted_width, wanted_height, _ = WEBCAM_MODE
        return (f"camera {self.source} gives {width} x {height} pixels ({wanted_width} x "
                f"{wanted_height} asked for): cards will often be left unnamed (a webcam of "
                f"{least_width} x {least_height} or more reads them)")

    def close(self) -> None:
        """Let the camera go (another program, or the next opening, may take it)."""
        self._capture.release()

    def __iter__(self) -> Iterator[CameraFrame]:
        frame_index = 0
        fps = self._capture.get(cv2.CAP_PROP_FPS) or 30.0
        start = time.monotonic()
        try:
            while True:
                ok, image = self._capture.read()
                if not ok or image is None:
                    return
                # A live camera is timed by the clock; a file by its frame rate.
                live = isinstance(self.source, int)
                timestamp = time.monotonic() - start if live else frame_index / fps
                yield CameraFrame(timestamp, np.asarray(image, np.uint8), None)
                frame_index += 1
        finally:
            self._capture.release()


def open_webcam(index: int) -> VideoCamera:
    """Webcam ``index``, asked for ``WEBCAM_MODE``; a line on stderr if it gives less (the
    game goes on: a smaller picture still reads many cards). BadInputError if it is not there."""
    camera = VideoCamera(index)
    shortfall = camera.shortfall()
    if shortfall is not None:
        warn(shortfall)
    return camera


def camera_opener(spec: str) -> Callable[[], VideoCamera]:
    """What ``--camera`` names, a webcam index or a video file, checked now: a way to (re)open
    it. BadInputError, one line, if it cannot be opened (later a missing camera would only look
    "lost", and a game would wait for it for ever)."""
    if spec.isdigit():
        index = int(spec)
        try:
            # Looked at (a webcam giving less than asked is said once, here), then let go
            # until the caller opens it.
            open_webcam(index).close()
        except BadInputError:
            raise BadInputError(
                f"cannot open camera {index}: plug it in, or give --camera with another index "
                "or a video file"
            ) from None
        return lambda: VideoCamera(index)
    path = Path(spec)
    if not path.is_file():
        raise BadInputError(f"no camera or video file {spec!r} (give a camera index or a file)")
    VideoCamera(path).close()  # a file OpenCV cannot read fails now
    return lambda: VideoCamera(path)


def _ask_for_mode(capture: Capture) -> None:
    """Ask a webcam for ``WEBCAM_MODE``; it gives the nearest it has (``VideoCamera.size``)."""
    width, height, fps = WEBCAM_MODE
    # Compressed frames first: over USB 2 most webcams give 1280 x 720 at 30 frames a second
    # only as MJPG (raw YUYV manages 5-10). A camera without MJPG keeps its own format.
    capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
    capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
    capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
    capture.set(cv2.CAP_PROP_FPS, fps)
