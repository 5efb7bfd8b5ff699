"""The board's wire codec (firmware/PROTOCOL.md): COBS + CRC32 frames of canonical JSON.

Written once for both interpreters: MicroPython on the board and CPython on the host import
this same file. It therefore uses only what both have (binascii, json) and no ``__future__``
or ``typing`` at run time.
"""

import binascii

#: Protocol version spoken by this codec; a major mismatch means the two sides cannot talk.
#: 2.0: the `doors` die's faces changed (PROTOCOL.md, Stability).
VERSION_MAJOR = 2
VERSION_MINOR = 0

#: Longest encoded frame a receiver accepts before it gives up and waits for the next 0x00.
MAX_FRAME = 1024

#: The frame delimiter; COBS guarantees it never occurs inside a frame.
DELIMITER = b"\x00"

#: Arrays and objects nested deeper than this make a payload bad (RFC 8259 section 9 lets a
#: parser set such a limit; a message needs 4 levels, and the board's stack is small).
MAX_DEPTH = 16


class FrameError(ValueError):
    """A frame that cannot be decoded: bad COBS, bad checksum, or not a message."""


class _Parser:
    """Strict JSON (RFC 8259) with the I-JSON rules (RFC 7493): well-formed UTF-8, no
    unpaired surrogate escapes, no repeated member name. Written out rather than left to
    ``json.loads``, which accepts ``01`` and trailing commas on MicroPython and not on
    CPython: both sides must read exactly the same frames."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def fail(self, why: str) -> FrameError:
        return FrameError("payload is not JSON: " + why + " at byte " + str(self.at))

    def peek(self) -> int:
        return self.data[self.at] if self.at < len(self.data) else -1

    def skip_space(self) -> None:
        while self.peek() in (0x20, 0x09, 0x0A, 0x0D):
            self.at += 1

    def expect(self, literal: bytes) -> None:
        if self.data[self.at : self.at + len(literal)] != literal:
            raise self.fail("unexpected character")
        self.at += len(literal)

    def value(self, depth: int) -> object:
        self.skip_space()
        byte = self.peek()
        if byte == 0x7B:  # {
            return self.members(depth + 1)
        if byte == 0x5B:  # [
            return self.elements(depth + 1)
        if byte == 0x22:  # "
            return self.string()
        if byte == 0x74:
            self.expect(b"true")
            return True
        if byte == 0x66:
            self.expect(b"false")
            return False
        if byte == 0x6E:
            self.expect(b"null")
            return None
        return self.number()

    def members(self, depth: int) -> "dict[str, object]":
        if depth > MAX_DEPTH:
            raise self.fail("nested too deep")
        self.at += 1
        out: dict[str, object] = {}
        self.skip_space()
        if self.peek() == 0x7D:
            self.at += 1
            return out
        while True:
            self.skip_space()
            if self.peek() != 0x22:
                raise self.fail("member name expected")
            name = self.string()
            if name in out:
                raise self.fail("repeated member name")
            self.skip_space()
            self.expect(b":")
            out[name] = self.value(depth)
            self.skip_space()
            byte = self.peek()
            self.at += 1
            if byte == 0x7D:
                return out
            if byte != 0x2C:
                raise self.fail("',' or '}' expected")

    def elements(self, depth: int) -> "list[object]":
        if depth > MAX_DEPTH:
            raise self.fail("nested too deep")
        self.at += 1
        out: list[object] = []
        self.skip_space()
        if self.peek() == 0x5D:
            self.at += 1
            return out
        while True:
            out.append(self.value(depth))
            self.skip_space()
            byte = self.peek()
            self.at += 1
            if byte == 0x5D:
                return out
            if byte != 0x2C:
                raise self.fail("',' or ']' expected")

    def digits(self) -> int:
        start = self.at
        while 0x30 <= self.peek() <= 0x39:
            self.at += 1
        return self.at - start

    def number(self) -> object:
        start = self.at
        if self.peek() == 0x2D:  # -
            self.at += 1
        if self.peek() == 0x30:  # a leading 0 stands alone: 01 is not a number
            self.at += 1
        elif not self.digits():
            raise self.fail("value expected")
        whole = True
        if self.peek() == 0x2E:  # .
            self.at += 1
            whole = False
            if not self.digits():
                raise self.fail("digit expected")
        if self.peek() in (0x45, 0x65):  # e E
            self.at += 1
            whole = False
            if self.peek() in (0x2B, 0x2D):
                self.at += 1
            if not self.digits():
                raise self.fail("digit expected")
        text = self.data[start : self.at].decode()
        return int(text) if whole else float(text)

    def hex4(self) -> int:
        digits = self.data[self.at : self.at + 4]
        if len(digits) != 4 or not all(b in b"0123456789abcdefABCDEF" for b in digits):
            raise self.fail("bad \\u escape")
        self.at += 4
        return int(digits.decode(), 16)

    def string(self) -> str:
        self.at += 1
        out: list[str] = []
        while True:
            byte = self.peek()
            if byte == 0x22:
                self.at += 1
                return "".join(out)
            if byte < 0x20:  # a control character, or the end of the payload
                raise self.fail("unterminated string or raw control character")
            if byte == 0x5C:
                out.append(self.escape())
            elif byte < 0x80:
                out.append(chr(byte))
                self.at += 1
            else:
                out.append(chr(self.utf8()))

    def escape(self) -> str:
        self.at += 1
        byte = self.peek()
        self.at += 1
        simple = _ESCAPES.get(byte)
        if simple is not None:
            return simple
        if byte != 0x75:  # u
            raise self.fail("bad escape")
        code = self.hex4()
        if 0xDC00 <= code <= 0xDFFF:
            raise self.fail("unpaired surrogate")
        if 0xD800 <= code <= 0xDBFF:
            self.expect(b"\\u")
            low = self.hex4()
            if not 0xDC00 <= low <= 0xDFFF:
                raise self.fail("unpaired surrogate")
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        return chr(code)

    def utf8(self) -> int:
        """One well-formed UTF-8 sequence (Unicode table 3-7), as a code point."""
        lead = self.peek()
        if 0xC2 <= lead <= 0xDF:
            count, code, low, high = 1, lead & 0x1F, 0x80, 0xBF
        elif 0xE0 <= lead <= 0xEF:
            count, code = 2, lead & 0x0F
            low = 0xA0 if lead == 0xE0 else 0x80
            high = 0x9F if lead == 0xED else 0xBF  # ED A0..BF would be a surrogate
        elif 0xF0 <= lead <= 0xF4:
            count, code = 3, lead & 0x07
            low = 0x90 if lead == 0xF0 else 0x80
            high = 0x8F if lead == 0xF4 else 0xBF
        else:
            raise self.fail("bad UTF-8")
        self.at += 1
        for position in range(count):
            byte = self.peek()
            if not (low if position == 0 else 0x80) <= byte <= (high if position == 0 else 0xBF):
                raise self.fail("bad UTF-8")
            code = code << 6 | byte & 0x3F
            self.at += 1
        return code


_ESCAPES = {0x22: '"', 0x5C: "\\", 0x2F: "/", 0x62: "\b", 0x66: "\f", 0x6E: "\n",
            0x72: "\r", 0x74: "\t"}


def parse_json(payload: bytes) -> object:
    """The JSON value in ``payload`` under the protocol's strict grammar (PROTOCOL.md
    section 2); FrameError if ``payload`` is anything else."""
    parser = _Parser(payload)
    value = parser.value(0)
    parser.skip_space()
    if parser.at != len(payload):
        raise parser.fail("trailing characters")
    return value


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
    message = parse_json(payload)
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
