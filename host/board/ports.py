"""Finding the board's serial port and opening it without resetting the board."""

from __future__ import annotations

import errno
from typing import Protocol

import serial
from serial.tools import list_ports

from host.board.errors import BoardError, NoBoardFound, PermissionDenied, PortBusy

#: USB vendor and product id of a Raspberry Pi Pico running MicroPython.
PICO_VID = 0x2E8A
PICO_PID = 0x0005
#: The stable name hardware/99-conductor-board.rules gives the board.
UDEV_SYMLINK = "/dev/conductor-board"
#: A read returns after this long even if nothing came, so the link can keep time.
READ_TIMEOUT_S = 0.05
#: A write that cannot finish in this long means nobody is reading: the link is down.
WRITE_TIMEOUT_S = 1.0


class SerialPort(Protocol):
    """What the board link needs of a serial port (pyserial's Serial, or a test double)."""

    @property
    def in_waiting(self) -> int:
        """Bytes received and not yet read."""

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes; fewer (maybe none) after the read timeout."""

    def write(self, data: bytes, /) -> int | None:
        """Send bytes."""

    def close(self) -> None:
        """Release the port."""


def find_board() -> str:
    """The device path of the first plugged-in Pico; NoBoardFound if there is none."""
    boards = sorted(
        port.device
        for port in list_ports.comports()
        if port.vid == PICO_VID and port.pid == PICO_PID
    )
    if not boards:
        raise NoBoardFound(
            "no board found: plug in the Conductor board (USB 2E8A:0005) or name its port"
        )
    return boards[0]


def open_port(device: str) -> serial.Serial:
    """Open ``device`` for the board without toggling DTR/RTS (which could reset some boards).

    Raises PortBusy, PermissionDenied or BoardError with a one-line reason.
    """
    port = serial.Serial(timeout=READ_TIMEOUT_S, write_timeout=WRITE_TIMEOUT_S, exclusive=True)
    port.port = device
    # pyserial sets DTR and RTS right after opening; Linux has just raised both, so asking
    # for "raised" leaves the lines untouched: no pulse that could reset a board. (The Pico
    # ignores them anyway; boards wired like some ESP32s reset on a DTR/RTS toggle.)
    port.dtr = True
    port.rts = True
    try:
        port.open()
    except serial.SerialException as error:
        raise _explain(device, error) from None
    return port


def _explain(device: str, error: serial.SerialException) -> BoardError:
    code = getattr(error, "errno", None)
    text = str(error)
    if code == errno.EACCES or "Permission denied" in text:
        return PermissionDenied(
            f"permission denied on {device}: add yourself to the dialout group "
            "(sudo usermod -aG dialout $USER, then log in again)"
        )
    if code in (errno.EBUSY, errno.EAGAIN) or "Could not exclusively lock" in text:
        return PortBusy(f"port busy: {device} is open in another program (close it and retry)")
    if code == errno.ENOENT or "No such file" in text:
        return NoBoardFound(f"no board found at {device}: is it plugged in?")
    return BoardError(f"cannot open {device}: {text}")
