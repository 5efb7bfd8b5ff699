"""Image types and the few image helpers every stage shares."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from host.errors import BadInputError

Image = npt.NDArray[np.uint8]
"""An 8-bit image as OpenCV uses it: (height, width) grey or (height, width, 3) BGR."""
Points = npt.NDArray[np.float64]
"""An (n, 2) array of x, y points."""
Matrix = npt.NDArray[np.float64]
"""A 3 x 3 homography."""


@contextmanager
def decoders_quiet() -> Iterator[None]:
    """libpng and libjpeg print their own complaints about a damaged file on the real stderr,
    where our one line is the answer: they are sent nowhere while a picture is decoded (the
    commands read pictures at start-up, before any thread runs)."""
    sys.stderr.flush()
    saved = os.dup(2)
    nowhere = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(nowhere, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(nowhere)


def read_image(path: Path) -> Image:
    """A BGR image from a file, or BadInputError with a one-line reason."""
    if not path.is_file():
        raise BadInputError(f"no image file {path}")
    with decoders_quiet():
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise BadInputError(f"cannot read {path} as an image")
    return np.asarray(image, dtype=np.uint8)


SET_ON_WIDTH = 1280
"""Width of the webcam frames (1280 x 720) on which the lengths in pixels that the recognizer
and the rendered camera use were set: a frame of more pixels sees the same table finer."""


def frame_px(length: float, width: int) -> float:
    """``length`` pixels of a frame ``SET_ON_WIDTH`` wide, in a frame ``width`` pixels wide
    (the same length on the table)."""
    return length * width / SET_ON_WIDTH


PHOTO_LONG_SIDE = 1920
"""Longest side a photo is read at, pixels. The table (900 mm wide) filling it is about 2 px/mm,
the resolution the references are kept at: a 12-megapixel photo's extra pixels would only add
time (the recognizer's thresholds are set on webcam frames of 1280 x 720)."""


def scaled_for_reading(image: Image) -> tuple[Image, float]:
    """``image`` shrunk to at most ``PHOTO_LONG_SIDE`` on its long side, and the factor it was
    shrunk by (1.0: it was small enough, and is returned as it is)."""
    factor = PHOTO_LONG_SIDE / max(image.shape[:2])
    if factor >= 1.0:
        return image, 1.0
    size = (round(image.shape[1] * factor), round(image.shape[0] * factor))
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8), factor


def size_read(image: Image, read: Image) -> str:
    """How a photo's size is told: ``4000 x 3000 pixels, read at 1920 x 1440``."""
    said = f"{image.shape[1]} x {image.shape[0]} pixels"
    if read.shape[:2] != image.shape[:2]:
        said += f", read at {read.shape[1]} x {read.shape[0]}"
    return said


def write_image(path: Path, image: Image) -> None:
    """Write an image (format from the suffix), or BadInputError with a one-line reason."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        ok = cv2.imwrite(str(path), image)
    except (OSError, cv2.error) as error:
        raise BadInputError(f"cannot write {path}: {error}") from None
    if not ok:
        raise BadInputError(f"cannot write {path} (unknown image format?)")


def grey(image: Image) -> Image:
    """The image in grey levels (a grey image is returned as it is)."""
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


def transform_points(matrix: Matrix, points: Points) -> Points:
    """Apply a homography to (n, 2) points."""
    shaped = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(shaped, matrix), np.float64).reshape(-1, 2)
