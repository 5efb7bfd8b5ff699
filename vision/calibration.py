"""What one look at the empty table shows: the cloth's colour, the light, the markers.

Recorded and reported only. (The recognizer can learn the cloth itself from a frame of the
empty table, `Pipeline.learn_cloth`; docs/vision.md.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.imaging import Image
from vision.markers import TableFinder

GRID = 3
"""The picture is cut into GRID x GRID regions to see how even the light is."""


def calibrate(image: Image) -> dict[str, Any]:
    """The empty table in ``image`` (BGR): resolution, markers found, the cloth's median
    colour and spread, and each region's brightness with how uneven they are."""
    height, width = image.shape[:2]
    grey = image.mean(axis=2) if image.ndim == 3 else image.astype(float)
    pixels = image.reshape(-1, 3) if image.ndim == 3 else grey.reshape(-1, 1)
    regions = [[round(float(grey[row * height // GRID:(row + 1) * height // GRID,
                                 col * width // GRID:(col + 1) * width // GRID].mean()), 1)
                for col in range(GRID)] for row in range(GRID)]
    flat = [value for row in regions for value in row]
    return {
        "resolution": [width, height],
        "markers_found": TableFinder().update(image) is not None,
        "cloth_bgr": [round(float(v), 1) for v in np.median(pixels, axis=0)],
        "cloth_spread": [round(float(v), 1) for v in pixels.std(axis=0)],
        "region_brightness": regions,
        "light_unevenness": round((max(flat) - min(flat)) / max(float(np.mean(flat)), 1.0), 3),
    }
