"""A fake ``machine`` for the MicroPython unix port: the simulated board's pins and chip.

Put firmware/sim first on MICROPYPATH and the firmware's hardware adapter gets these instead
of the Pico's. Button presses come from a control file that tests (or ``conductor board
sim``) append to: one line ``PIN HOLD_MS`` per press, in $CONDUCTOR_SIM_DIR/buttons. Each press
bounces for a few milliseconds at both edges, as a real contact does.
"""

import hashlib
import os
import time

#: How long a simulated contact chatters at each edge, in ms.
BOUNCE_MS = 6
#: The control file is looked at no more often than this.
POLL_MS = 10

_DIR = os.getenv("CONDUCTOR_SIM_DIR")
_presses: "list[tuple[int, int, int]]" = []  # (pin, start ms, end ms)
_state = {"offset": 0, "checked": 0}


def _skip_old_presses() -> None:
    # A restarted board must not replay presses meant for its previous run.
    if _DIR is not None:
        try:
            _state["offset"] = os.stat(_DIR + "/buttons")[6]
        except OSError:
            pass


_skip_old_presses()


def _poll_control(now: int) -> None:
    if _DIR is None or time.ticks_diff(now, _state["checked"]) < POLL_MS:
        return
    _state["checked"] = now
    try:
        with open(_DIR + "/buttons") as control:
            control.seek(_state["offset"])
            text = control.read()
    except OSError:
        return
    end = text.rfind("\n") + 1  # only whole lines; a half-written one waits
    _state["offset"] += end
    for line in text[:end].split("\n"):
        words = line.split()
        if len(words) == 2:
            _presses.append((int(words[0]), now, now + int(words[1])))


def _held(pin: int, now: int) -> bool:
    for number, start, end in _presses:
        if number != pin:
            continue
        for edge in (start, end):
            since = time.ticks_diff(now, edge)
            if 0 <= since < BOUNCE_MS:
                return since % 2 == 0  # chatter
        if time.ticks_diff(now, start) >= 0 and time.ticks_diff(end, now) > 0:
            return True
    return False


class Pin:
    """A GPIO: inputs read the simulated buttons (low while held, like a pull-up button)."""

    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, number: int, mode: int = -1, pull: int = -1, value: int = 1) -> None:
        self.number = number

    def value(self) -> int:
        """0 while the simulated button on this pin is held, else 1."""
        now = time.ticks_ms()
        _poll_control(now)
        return 0 if _held(self.number, now) else 1


class WDT:
    """The watchdog; the simulation only counts feeds (the process is restarted from outside)."""

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        self.timeout = timeout
        self.feeds = 0

    def feed(self) -> None:
        """Record that the firmware is alive."""
        self.feeds += 1


def unique_id() -> bytes:
    """The simulated chip id: $CONDUCTOR_SIM_BOARD_ID (hex) or a fixed one."""
    given = os.getenv("CONDUCTOR_SIM_BOARD_ID")
    if given:
        return bytes.fromhex(given)
    return b"\x51\x4d\xb0\xa2\x00\x00\x00\x01"


_SEED = os.getenv("CONDUCTOR_SIM_SEED")
_drawn = [0]


def seeded_entropy(count: int) -> bytes:
    """The next ``count`` bytes of SHA-256(seed ‖ block number) for block 0, 1, 2 ...

    Only while $CONDUCTOR_SIM_SEED is set (hardware.Hardware.entropy looks for it): a test
    can then replay the board's secrets, and with them every roll. The stream starts again
    at every power-up, so a restarted seeded board repeats the secrets of its previous run.
    """
    out = b""
    while len(out) < count:
        out += hashlib.sha256((str(_SEED) + ":" + str(_drawn[0])).encode()).digest()
        _drawn[0] += 1
    return out[:count]


if _SEED is None:
    del seeded_entropy  # unseeded, the simulated chip is as random as a real one


def reset() -> None:
    """A reset ends the simulated board; its supervisor starts it again."""
    raise SystemExit(1)
