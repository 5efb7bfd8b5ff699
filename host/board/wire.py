"""Frames to and from a board with nothing in between: no retries, no acks, no heartbeat.

``BoardLink`` hides the protocol; conformance checks and fuzzers need to see it. A
``RawBoard`` sends exactly the bytes or messages it is given and hands back every frame the
board sent, with its bytes, so a check can judge the frames themselves (canonical form, CRC).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from host.board.errors import BoardError
from host.board.ports import SerialPort, open_port
from host.board.shared import protocol

Message = dict[str, object]


@dataclass(frozen=True)
class Frame:
    """One frame from the board: its bytes (without the delimiter) and its message."""

    raw: bytes
    """The frame as received, COBS-encoded, without the final 0x00."""
    message: Message | None
    """The decoded message, or None if the frame is bad (which a board must never send)."""

    @property
    def canonical(self) -> bool:
        """True if the frame is exactly how PROTOCOL.md section 2 encodes its message."""
        if self.message is None:
            return False
        try:
            return protocol.encode_frame(self.message)[:-1] == self.raw
        except ValueError:
            return False


class RawBoard:
    """A serial port speaking frames; every frame received is also kept in ``log``."""

    def __init__(self, port: SerialPort) -> None:
        self._port = port
        self._buffer = bytearray()
        self.log: list[Frame] = []
        """Every frame received, in order."""
        self.next_id = 1000
        """The id ``request`` gives the next request (the caller may move it on)."""

    @classmethod
    def open(cls, device: str) -> RawBoard:
        """Open the serial port ``device`` (BoardError subclasses on failure)."""
        return cls(open_port(device))

    def close(self) -> None:
        """Release the port."""
        self._port.close()

    def __enter__(self) -> RawBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send_raw(self, data: bytes) -> None:
        """Put ``data`` on the line as it is (BoardError if the port fails)."""
        try:
            self._port.write(data)
        except (serial.SerialException, OSError) as error:
            raise _port_failed(error) from None

    def send(self, message: Message) -> None:
        """Send one message as a frame (with a leading delimiter, as hosts do)."""
        self.send_raw(protocol.DELIMITER + protocol.encode_frame(message))

    def receive(self, timeout: float) -> list[Frame]:
        """Every frame that arrives within ``timeout`` seconds."""
        return self.until(lambda frame: False, timeout)

    def until(self, done: Callable[[Frame], bool], timeout: float) -> list[Frame]:
        """Frames up to and including the first for which ``done`` is true, or up to timeout.

        Raises BoardError if the port fails (an unplugged board)."""
        out: list[Frame] = []
        deadline = time.monotonic() + timeout
        while True:
            # Frames already complete in the buffer first: a read may bring several at once.
            while protocol.DELIMITER in self._buffer:
                end = self._buffer.index(protocol.DELIMITER)
                raw, self._buffer = bytes(self._buffer[:end]), self._buffer[end + 1 :]
                if not raw:
                    continue
                frame = _frame(raw)
                self.log.append(frame)
                out.append(frame)
                if done(frame):
                    return out
            if time.monotonic() >= deadline:
                return out
            try:
                data = self._port.read(1)
                if data:
                    data += self._port.read(self._port.in_waiting)
            except (serial.SerialException, OSError) as error:
                raise _port_failed(error) from None
            self._buffer += data

    def request(self, message: Message, timeout: float = 2.0) -> list[Frame]:
        """Send ``message`` with the next id; return the frames up to its reply (last)."""
        self.next_id += 1
        request = self.next_id
        self.send({**message, "id": request})
        return self.until(lambda frame: is_reply(frame, request), timeout)


def frame_of(payload: bytes) -> bytes:
    """A wire frame (delimiter included) around any payload, even one no encoder would make."""
    checksum = protocol.crc(payload)
    return protocol.cobs_encode(payload + checksum) + protocol.DELIMITER


def is_reply(frame: Frame, request: object) -> bool:
    """True if ``frame`` answers the request with id ``request``."""
    message = frame.message
    return (
        message is not None
        and message.get("t") in ("pong", "ok", "err")
        and message.get("id") == request
        and type(message.get("id")) is type(request)
    )


def _port_failed(error: Exception) -> BoardError:
    return BoardError(f"the serial port failed (unplugged?): {error}")


def _frame(raw: bytes) -> Frame:
    try:
        return Frame(raw, protocol.decode_frame(raw))
    except protocol.FrameError:
        return Frame(raw, None)
