"""The thin hardware adapter: pins, the LED chain, the watchdog, the USB serial line, the clock.

Only this module (and main.py through it) touches ``machine`` and ``neopixel``. On the Pico
they are the real modules; under the unix port, firmware/sim/ puts fakes of the same names on
MICROPYPATH, so the very same adapter drives the simulated board.
"""

import os
import select
import sys
import time

import binascii
import machine
import neopixel
import pins

#: The watchdog resets the board if the firmware stops feeding it for this long (rp2 max 8.3 s).
WATCHDOG_MS = 8000
#: USB CDC on the rp2 port can drop data on large single writes: write in small pieces.
WRITE_CHUNK = 64
#: Most bytes read in one go, so the other tasks keep running under a flood.
READ_LIMIT = 512


class Hardware:
    """The board's real (or faked) devices behind a few plain methods."""

    def __init__(self) -> None:
        self._buttons = [machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP)
                         for number in pins.SEAT_BUTTONS + (pins.ROLL_BUTTON,)]
        # The optional buzzer is not sounded yet; driving its pin low keeps it quiet.
        self._buzzer = machine.Pin(pins.BUZZER, machine.Pin.OUT, value=0)
        self._chain = neopixel.NeoPixel(machine.Pin(pins.LED_DATA, machine.Pin.OUT),
                                        pins.LED_COUNT)
        self._watchdog: "machine.WDT | None" = None
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._last_ticks = time.ticks_ms()
        self._now = 0

    def board_id(self) -> str:
        """The chip's unique id, in hex."""
        return binascii.hexlify(machine.unique_id()).decode()

    def entropy(self, count: int) -> bytes:
        """``count`` random bytes for the board id and the dice secrets: the chip's own, or
        a seeded simulated chip's (firmware/sim/machine.py) so that a test can replay them."""
        seeded = getattr(machine, "seeded_entropy", None)
        return seeded(count) if seeded is not None else os.urandom(count)

    def roll_held(self) -> bool:
        """True while the roll button is held (checked at power-up for maintenance mode)."""
        return self._buttons[-1].value() == 0

    def start_watchdog(self) -> None:
        """Arm the watchdog; from now on ``feed`` must be called regularly."""
        self._watchdog = machine.WDT(timeout=WATCHDOG_MS)

    def feed(self) -> None:
        """Tell the watchdog the firmware is alive."""
        if self._watchdog is not None:
            self._watchdog.feed()

    def now(self) -> int:
        """Milliseconds since start; never wraps (ticks_ms does, so differences are summed)."""
        ticks = time.ticks_ms()
        self._now += time.ticks_diff(ticks, self._last_ticks)
        self._last_ticks = ticks
        return self._now

    def levels(self) -> "list[bool]":
        """Each button's level, True while held down (buttons pull their pin low)."""
        return [pin.value() == 0 for pin in self._buttons]

    def show(self, pixels: "list[tuple[int, int, int]]") -> None:
        """Send colours to the LED chain."""
        for index, colour in enumerate(pixels):
            self._chain[index] = colour
        self._chain.write()

    def read(self) -> bytes:
        """The bytes waiting on the serial line (possibly none); never blocks."""
        data = bytearray()
        stream = sys.stdin.buffer
        while len(data) < READ_LIMIT and self._poll.poll(0):
            chunk = stream.read(1)
            if not chunk:
                break
            data.extend(chunk)
        return bytes(data)

    def write(self, data: bytes) -> None:
        """Send bytes on the serial line."""
        stream = sys.stdout.buffer
        for start in range(0, len(data), WRITE_CHUNK):
            stream.write(data[start : start + WRITE_CHUNK])
