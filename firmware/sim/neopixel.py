"""A fake ``neopixel`` for the MicroPython unix port: LED colours go to a file tests can read.

Every ``write`` that changes the colours replaces $CONDUCTOR_SIM_DIR/leds.json with
``{"frame": N, "pixels": [[r, g, b], ...]}`` (written to a temporary file and renamed, so a
reader never sees half of it).
"""

import json
import os

_DIR = os.getenv("CONDUCTOR_SIM_DIR")


class NeoPixel:
    """A chain of ``count`` RGB LEDs on ``pin``."""

    def __init__(self, pin: object, count: int) -> None:
        self._pixels = [(0, 0, 0)] * count
        self._written: "list[tuple[int, int, int]] | None" = None
        self._frame = 0

    def __setitem__(self, index: int, colour: "tuple[int, int, int]") -> None:
        self._pixels[index] = colour

    def __getitem__(self, index: int) -> "tuple[int, int, int]":
        return self._pixels[index]

    def __len__(self) -> int:
        return len(self._pixels)

    def write(self) -> None:
        """Publish the colours (only when they changed)."""
        if self._pixels == self._written or _DIR is None:
            return
        self._written = list(self._pixels)
        self._frame += 1
        temporary = _DIR + "/leds.tmp"
        with open(temporary, "w") as out:
            out.write(json.dumps({"frame": self._frame, "pixels": self._pixels}))
        os.rename(temporary, _DIR + "/leds.json")
