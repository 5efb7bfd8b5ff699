"""The board's entry point (runs at power-up on the Pico): asyncio tasks around BoardCore.

Tasks: the serial reader answers the host; the button scanner samples every 5 ms; the LED task
redraws at 25 Hz; the housekeeping task re-sends unacknowledged events and feeds the watchdog
only while the other tasks are alive, so a stuck task resets the board.
"""

import asyncio
import micropython

import core
import hardware
import protocol
import store

#: Event numbering, unacknowledged events and the audit session, kept across resets.
STATE_FILE = "conductor-state.json"
SCAN_MS = 5
FRAME_MS = 40
HOUSEKEEPING_MS = 100
#: A task that has not run for this long counts as stuck: the watchdog is left to bite.
STUCK_MS = 2000


class Firmware:
    """The running board: hardware, core and the tasks that connect them."""

    def __init__(self, hw: "hardware.Hardware") -> None:
        self.hw = hw
        self.core = core.BoardCore(hw.board_id(), entropy=hw.entropy,
                                   store=store.FileStore(STATE_FILE))
        self.receiver = protocol.Receiver()
        self.alive = {"serial": 0, "buttons": 0, "leds": 0}

    def send(self, messages: "list[dict[str, object]]") -> None:
        """Put messages on the serial line, one frame each."""
        for message in messages:
            self.hw.write(protocol.encode_frame(message))

    async def serial(self) -> None:
        """Read the host's frames and answer them."""
        while True:
            now = self.hw.now()
            self.alive["serial"] = now
            data = self.hw.read()
            for message in self.receiver.feed(data):
                self.send(self.core.receive(message, now))
            # Look again at once while bytes flow (a frame rarely comes alone), else in 1 ms.
            await asyncio.sleep_ms(0 if data else 1)

    async def buttons(self) -> None:
        """Sample the buttons and report presses (and rolls from the roll button)."""
        while True:
            now = self.hw.now()
            self.alive["buttons"] = now
            self.send(self.core.sample(self.hw.levels(), now))
            await asyncio.sleep_ms(SCAN_MS)

    async def leds(self) -> None:
        """Redraw the LEDs; the picture animates with time."""
        while True:
            now = self.hw.now()
            self.alive["leds"] = now
            self.hw.show(self.core.pixels(now))
            await asyncio.sleep_ms(FRAME_MS)

    async def housekeeping(self) -> None:
        """Re-send due events; feed the watchdog while every task is running."""
        while True:
            now = self.hw.now()
            self.send(self.core.tick(now))
            if all(now - seen < STUCK_MS for seen in self.alive.values()):
                self.hw.feed()
            await asyncio.sleep_ms(HOUSEKEEPING_MS)

    async def run(self) -> None:
        """Start every task and run forever."""
        self.hw.start_watchdog()
        await asyncio.gather(self.serial(), self.buttons(), self.leds(), self.housekeeping())


def start() -> None:
    """Run the firmware, unless the roll button is held (then stay in the REPL to be flashed)."""
    hw = hardware.Hardware()
    if hw.roll_held():
        print("conductor: roll button held, firmware not started (maintenance mode)")
        return
    # Frames may contain 0x03; it must not interrupt the program like Ctrl-C at the REPL.
    micropython.kbd_intr(-1)
    asyncio.run(Firmware(hw).run())


start()
