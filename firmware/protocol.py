"""The board's wire codec (firmware/PROTOCOL.md): COBS + CRC32 frames of canonical JSON.

Written once for both interpreters: MicroPython on the board and CPython on the host import
this same file. It therefore uses only what both have (binascii, json) and no ``__future__``
or ``typing`` at run time.
"""

import binascii
import json

#: Protocol version spoken by this codec; a major mismatch means the two sides cannot talk.
VERSION_MAJOR = 1
VERSION_MINOR = 1

#: Longest encoded frame a receiver accepts before it gives up and waits for the next 0x00.
MAX_FRAME = 1024

#: The frame delimiter; COBS guarantees it never occurs inside a frame.
DELIMITER = b"\x00"


class FrameError(ValueError):
    """A frame that cannot be decoded: bad COBS, bad checksum, or not a message."""


def cobs_encode(data: bytes) -> bytes:
    """Encode ``data`` so that the result contains no 0x00 byte."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo ``cobs_encode``; raise FrameError if ``data`` is not valid COBS."""
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        if code == 0:
            raise FrameError("zero byte inside a frame")
        end = index + code
        if end > length:
            raise FrameError("block runs past the end of the frame")
        block = data[index + 1 : end]
        if 0 in block:
            raise FrameError("zero byte inside a frame")
        out.extend(block)
        index = end
        if code < 0xFF and index < length:
            out.append(0)
    return bytes(out)


def _encode_string(text: str, out: list[str]) -> None:
    out.append('"')
    for char in text:
        if char == '"' or char == "\\":
            out.append("\\")
            out.append(char)
        elif " " <= char <= "~":
            out.append(char)
        else:
            raise ValueError("only printable ASCII goes on the wire: " + repr(char))
    out.append('"')


def printable(text: str, limit: int) -> str:
    """``text`` made safe to send: printable ASCII only (others become ``?``), one line, at
    most ``limit`` characters. For reasons that quote what a host sent."""
    out = []
    for char in text:
        out.append(char if " " <= char <= "~" else "?")
    if len(out) > limit:
        out = out[: limit - 3] + ["..."]
    return "".join(out)


def _encode_value(value: object, out: list[str]) -> None:
    # bool before int: in CPython True is an int; MicroPython disagrees, so test it first.
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, str):
        _encode_string(value, out)
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for position, item in enumerate(value):
            if position:
                out.append(",")
            _encode_value(item, out)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        for position, key in enumerate(sorted(value)):
            if not isinstance(key, str):
                raise ValueError("object keys must be strings")
            if position:
                out.append(",")
            _encode_string(key, out)
            out.append(":")
            _encode_value(value[key], out)
        out.append("}")
    else:
        raise ValueError("cannot put on the wire: " + repr(value))


def canonical_json(message: dict[str, object]) -> bytes:
    """The canonical JSON form of a message (PROTOCOL.md section 2), as bytes."""
    out: list[str] = []
    _encode_value(message, out)
    return "".join(out).encode()


def crc(payload: bytes) -> bytes:
    """The frame checksum of ``payload``: CRC32, 4 bytes little-endian."""
    checksum: int = binascii.crc32(payload) & 0xFFFFFFFF
    return checksum.to_bytes(4, "little")


def encode_frame(message: dict[str, object]) -> bytes:
    """One message as a complete wire frame, delimiter included."""
    payload = canonical_json(message)
    return cobs_encode(payload + crc(payload)) + DELIMITER


def decode_frame(frame: bytes) -> dict[str, object]:
    """The message in one frame (without its delimiter); FrameError if it is not one."""
    body = cobs_decode(frame)
    if len(body) < 5:
        raise FrameError("frame too short")
    payload = body[:-4]
    if crc(payload) != body[-4:]:
        raise FrameError("checksum mismatch")
    try:
        message = json.loads(payload)
    except ValueError:
        raise FrameError("payload is not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise FrameError("payload is not a message")
    return message


class Receiver:
    """Turns a byte stream into messages, dropping bad frames and resynchronising after them.

    Feed it whatever bytes arrived; it returns the complete messages among them and keeps the
    unfinished tail for the next call. ``bad`` counts the frames it dropped.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = False
        self.bad = 0

    def feed(self, data: bytes) -> list[dict[str, object]]:
        """Add received bytes; return the messages completed by them, in order."""
        messages: list[dict[str, object]] = []
        for byte in data:
            if byte != 0:
                if len(self._buffer) < MAX_FRAME:
                    self._buffer.append(byte)
                elif not self._overflow:
                    self._overflow = True
                    self.bad += 1
                continue
            if self._overflow:
                self._overflow = False
            elif self._buffer:
                try:
                    messages.append(decode_frame(bytes(self._buffer)))
                except FrameError:
                    self.bad += 1
            self._buffer = bytearray()
        return messages
