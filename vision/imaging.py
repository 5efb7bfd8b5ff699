"""Image types and the few image helpers every stage shares."""

from __future__ import annotations

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


def read_image(path: Path) -> Image:
    """A BGR image from a file, or BadInputError with a one-line reason."""
    if not path.is_file():
        raise BadInputError(f"no image file {path}")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise BadInputError(f"cannot read {path} as an image")
    return np.asarray(image, dtype=np.uint8)


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
