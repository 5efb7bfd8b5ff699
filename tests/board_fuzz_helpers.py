"""Fuzzing the real firmware over the pty: random host messages, and a model of the answers.

Shared by tests/test_board_fuzz.py (a short run in every CI build) and
benchmarks/board_fuzz.py (a long one). A ``Fuzzer`` sends what hypothesis draws, then a ping,
and judges every frame that came back by PROTOCOL.md: each one well formed (host.board.
conformance), the replies the model expects in the order of the requests, no event while the
host is not greeted, and the ping answered by a firmware that is still running.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

from host.board import SimulatedBoard
from host.board.conformance import frame_problems
from host.board.shared import FIRMWARE_FOLDER, dice, protocol
from host.board.wire import Frame, RawBoard, frame_of, is_reply

MAX_ID = 2**53 - 1
#: A little more than the firmware's LED frame (main.FRAME_MS).
LED_FRAME_S = 0.05
KINDS = sorted(dice.FACES)
REQUESTS = ("ping", "show", "roll", "arm", "commit", "reveal")
SERVED_REQUESTS = 8


def _text() -> st.SearchStrategy[str]:
    return st.text(max_size=6) | st.sampled_from(["ping\n", "\t", "ping\x00", "\u00e9t\u00e9",
                                                  "\U0001f3b2", "d6\n", "D6", "wheel "])


_anything = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**64), 2**64) | st.floats() | _text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text(), inner, max_size=3),
    max_leaves=6,
)
_seat = st.integers(-1, 4)
_face = st.sampled_from([face for faces in dice.FACES.values() for face in faces])
_picture_fields = {
    "seats": st.integers(-1, 5) | _anything,
    "turn": st.none() | _seat | _anything,
    "dir": st.sampled_from([1, -1, 0, 2, 1.0, True]) | _anything,
    "skip": st.lists(_seat, max_size=5) | _anything,
    "win": st.lists(_seat, max_size=5) | _anything,
    "alert": st.booleans() | _anything,
    "dice": st.none()
    | st.fixed_dictionaries(
        {"kind": st.sampled_from([*KINDS, "d20"]), "faces": st.lists(_face, max_size=6)}
    )
    | _anything,
    "level": st.integers(-1, 300) | _anything,
}
_pictures = st.fixed_dictionaries({}, optional=_picture_fields) | _anything


def _valid_ids(base: int) -> st.SearchStrategy[int]:
    """Valid ids: mostly fresh, sometimes from a small pool at ``base`` (so repeats happen)."""
    return st.integers(base + 1000, MAX_ID) | st.integers(base, base + 6)


def request_ids(base: int) -> st.SearchStrategy[object]:
    """Ids: mostly valid, sometimes anything."""
    valid = _valid_ids(base)
    edges = st.sampled_from([0, -1, MAX_ID, MAX_ID + 1, 1.5, 1000.0, True, False, "7", [7]])
    return valid | valid | edges | _anything


_valid_pictures = st.fixed_dictionaries({}, optional={
    "seats": st.integers(0, 4), "turn": st.none() | st.integers(0, 3),
    "dir": st.sampled_from([1, -1]), "skip": st.lists(st.integers(0, 3), max_size=3),
    "win": st.lists(st.integers(0, 3), max_size=3), "alert": st.booleans(),
    "dice": st.none() | st.sampled_from(KINDS).flatmap(lambda kind: st.fixed_dictionaries(
        {"kind": st.just(kind), "faces": st.lists(st.sampled_from(dice.FACES[kind]),
                                                   max_size=4)})),
    "level": st.integers(0, 255),
})


@st.composite
def _well_formed(draw: st.DrawFn, base: int) -> dict[str, object]:
    """A request as the spec allows it, every value in range."""
    kind = draw(st.sampled_from([*REQUESTS, "roll", "roll", "ack", "hello"]))
    message: dict[str, object] = {"t": kind, "id": draw(_valid_ids(base))}
    if kind == "show":
        message["pic"] = draw(_valid_pictures)
    elif kind in ("roll", "arm"):
        message["dice"] = draw(st.sampled_from(KINDS))
        message["n"] = draw(st.integers(1 if kind == "roll" else 0, dice.MAX_DICE))
    elif kind == "ack":
        message = {"t": kind, "seq": draw(st.integers(0, 40))}
    elif kind == "hello":
        message = {"t": kind, "v": [protocol.VERSION_MAJOR, draw(st.integers(0, 9))],
                   "boot": "", "ack": 0}
    return message


#: Versions a hello may carry: this one, later minors, the old major 1 (whose boards rolled
#: 3/3 doors), the next major, and one long before.
_VERSIONS = [[protocol.VERSION_MAJOR, minor] for minor in (0, protocol.VERSION_MINOR, 99)] + [
    [1, 2], [protocol.VERSION_MAJOR + 1, 0], [0, 9]]


@st.composite
def host_messages(draw: st.DrawFn, base: int) -> dict[str, object]:
    """Host messages of every type: as the spec allows, with one field spoilt, or anything."""
    fields: dict[str, st.SearchStrategy[object]] = {
        "id": request_ids(base),
        "dice": st.sampled_from(KINDS) | _text() | _anything,
        "n": st.integers(-1, 10) | _anything,
        "pic": _pictures,
        "seq": st.integers(-1, 50) | _anything,
        "v": st.sampled_from(_VERSIONS) | _anything,
        "boot": _text(),
        "ack": st.integers(0, 50) | _anything,
        "extra": _anything,
    }
    how = draw(st.integers(0, 5))
    if how == 0:
        return draw(st.fixed_dictionaries(
            {"t": st.sampled_from([*REQUESTS, "hello", "ack"]) | _text()}, optional=fields))
    message = draw(_well_formed(base))
    if how == 1:
        name = draw(st.sampled_from(sorted(fields)))
        if draw(st.booleans()) and name in message:
            del message[name]
        else:
            message[name] = draw(fields[name])
    return message


def _spoil(text: str, how: int) -> bytes:
    """The JSON text of a message made into something the strict grammar refuses."""
    if how == 0 and text.endswith("}"):
        return (text[:-1] + ",}").encode()  # trailing comma
    if how == 1 and '"id":' in text:
        return text.replace('"id":', '"id":0', 1).encode()  # a leading zero (or 0-)
    if how == 2:
        return text.encode()[:-1]  # cut short
    return (text + "x").encode()


@st.composite
def payloads(draw: st.DrawFn, base: int) -> bytes:
    """One frame's payload: a message as JSON (as canonical or not), or JSON gone wrong."""
    message = draw(host_messages(base))
    text = json.dumps(message, ensure_ascii=draw(st.booleans()),
                      separators=draw(st.sampled_from([(",", ":"), (", ", ": ")])))
    if draw(st.integers(0, 9)) == 0:
        return _spoil(text, draw(st.integers(0, 3)))
    return text.encode("utf-8", "surrogatepass")


@st.composite
def wire_chunks(draw: st.DrawFn, base: int) -> list[bytes]:
    """What one fuzz step puts on the line: frames, garbage, damaged and oversize frames."""
    out = []
    for _ in range(draw(st.integers(1, 6))):
        choice = draw(st.integers(0, 19))
        if choice == 0:
            out.append(draw(st.binary(max_size=40)))  # line noise
        elif choice == 1:
            frame = bytearray(frame_of(draw(payloads(base))))
            frame[draw(st.integers(0, len(frame) - 2))] ^= draw(st.integers(1, 255))
            out.append(bytes(frame))  # a damaged frame: dropped whole
        elif choice == 2:
            out.append(b"\x01" * draw(st.integers(1000, 1100)))  # longer than MAX_FRAME
        elif choice == 3:
            out.append(frame_of(draw(st.binary(max_size=60))))  # any bytes, checksum right
        else:
            out.append(frame_of(draw(payloads(base))))
    return out


@dataclass
class Expected:
    """The reply the spec gives to one request: its ``t`` choices and ``id``."""

    types: tuple[str, ...]
    request_id: object
    message: dict[str, object]
    fresh_roll: bool = False
    """A roll carried out now (not a repeat): its own event must come just before the ok."""


@dataclass
class BoardModel:
    """What a board that follows PROTOCOL.md section 3 answers, tracked request by request."""

    greeted: bool = False
    served: list[tuple[str, int]] = field(default_factory=list)

    def expect(self, message: dict[str, object]) -> Expected | None:
        """The reply ``message`` must get (None: no reply), updating the model."""
        kind = message["t"]
        request = message.get("id")
        if kind == "hello":
            version = message.get("v")
            self.greeted = (
                isinstance(version, list)
                and len(version) == 2
                and all(type(part) is int and 0 <= part <= MAX_ID for part in version)
                and version[0] == protocol.VERSION_MAJOR
            )
            return Expected(("hello",), None, message)
        if kind == "ack":
            return None
        if not (type(request) is int and 1 <= request <= MAX_ID):
            return Expected(("err",), None, message)
        if not self.greeted:
            return Expected(("err",), request, message)
        if kind == "ping":
            return Expected(("pong",), request, message)
        if kind == "show":
            return Expected(("ok", "err"), request, message)
        if kind == "arm":
            valid = message.get("dice") in KINDS and type(message.get("n")) is int \
                and 0 <= message.get("n") <= dice.MAX_DICE  # type: ignore[operator]
            return Expected(("ok",) if valid else ("err",), request, message)
        if kind not in ("roll", "commit", "reveal"):
            return Expected(("err",), request, message)
        assert isinstance(kind, str)
        if (kind, request) in self.served:
            return Expected(("ok",), request, message)
        if any(served_id == request for _, served_id in self.served):
            return Expected(("err",), request, message)
        if kind == "roll" and not (message.get("dice") in KINDS and type(message.get("n")) is int
                                   and 1 <= message.get("n") <= dice.MAX_DICE):  # type: ignore[operator]
            return Expected(("err",), request, message)
        self.served = [*self.served, (kind, request)][-SERVED_REQUESTS:]
        return Expected(("ok",), request, message, fresh_roll=kind == "roll")


@dataclass
class Fuzzer:
    """A simulated board, a raw line to it, the model of its answers and what was seen."""

    sim: SimulatedBoard
    raw: RawBoard
    model: BoardModel = field(default_factory=BoardModel)
    inputs: int = 0
    """Frames and chunks sent so far."""
    last_seq: int = 0
    wire_greeted: bool = False
    restarts: int = 0
    """How often the board had died and was started again."""
    """Whether the frames read so far left the board greeted (a fresh board is not)."""

    def step(self, chunks: list[bytes]) -> list[str]:
        """Send ``chunks`` and a ping; return every rule the board broke meanwhile."""
        if not self.sim.running:
            self._restart()
        expected: list[Expected] = []
        used_ids: list[object] = []
        for chunk in chunks:
            message = _message_in(chunk)
            if message is not None:
                used_ids.append(message.get("id"))
                reply = self.model.expect(message)
                if reply is not None:
                    expected.append(reply)
            self.raw.send_raw(b"\x00" + chunk)
            self.inputs += 1
        # A proper hello, so that the ping is answered whatever the chunks did.
        hello = {"t": "hello", "v": [protocol.VERSION_MAJOR, protocol.VERSION_MINOR],
                 "boot": "", "ack": 0}
        expected.append(self.model.expect(hello))  # type: ignore[arg-type]
        self.raw.send(hello)
        self.raw.next_id += 1
        # The wait ends at the reply with the ping's id: a fuzzed request with that id would
        # end it early and leave this step's later replies to be paired with the next step's.
        while self.raw.next_id in used_ids:
            self.raw.next_id += 1
        ping = {"t": "ping", "id": self.raw.next_id}
        expected.append(self.model.expect(ping))  # type: ignore[arg-type]
        self.raw.send(ping)
        frames = self.raw.until(lambda frame: is_reply(frame, ping["id"]), 5.0)
        problems = self._judge(frames, expected)
        if any(_changes_the_leds(frame) for frame in frames):
            # The LED task draws every 40 ms, after the ping may have been answered: give it
            # one frame, so a picture that kills the renderer is blamed on this step.
            time.sleep(LED_FRAME_S)
        if not self.sim.running:
            problems.append(f"the firmware died: {self.sim.errors().strip()[-300:]}")
        elif not frames or not is_reply(frames[-1], ping["id"]):
            problems.append("no pong to the closing ping")
        if self.last_seq:
            self.raw.send({"t": "ack", "seq": self.last_seq})
        return problems

    def _restart(self) -> None:
        """Power the board up again after an earlier step killed it (as its watchdog would),
        so that every step is judged on a running board and hypothesis can shrink a failure."""
        self.raw.receive(0.1)  # what the dying firmware printed is nobody's reply
        self.sim.start()
        self.model.greeted = self.wire_greeted = False
        self.restarts += 1
        self.raw.request({"t": "ping"}, timeout=10.0)  # up again: it says "hello first"

    def _judge(self, frames: list[Frame], expected: list[Expected]) -> list[str]:
        problems: list[str] = []
        replies = iter(expected)
        previous: Frame | None = None
        for frame in frames:
            problems += frame_problems(frame)
            message = frame.message
            if message is None:
                continue
            if message["t"] == "ev":
                if not self.wire_greeted:
                    problems.append(f"an event sent to a host not greeted: {message}")
                seq = message.get("seq")
                if isinstance(seq, int):
                    self.last_seq = max(self.last_seq, seq)
                previous = frame
                continue
            want = next(replies, None)
            if want is None:
                problems.append(f"a reply nobody asked for: {message}")
                continue
            if message["t"] not in want.types or message.get("id") != want.request_id:
                problems.append(f"{want.message} was answered {message}, not {want.types}")
            if message["t"] == "hello":
                # From this reply on, the board may send events only if that hello greeted it.
                probe = BoardModel()
                probe.expect(want.message)
                self.wire_greeted = probe.greeted
            if want.fresh_roll and message["t"] == "ok":
                problems += _roll_problems(want.message, message, previous)
            previous = frame
        return problems


def firmware_with_fault(folder: Path, module: str, fixed: str, fault: str) -> Path:
    """A copy of the firmware in ``folder`` with ``fixed`` (which must occur in ``module``)
    replaced by ``fault``: to show that a check or the fuzzer finds that fault."""
    firmware = folder / "firmware"
    shutil.copytree(FIRMWARE_FOLDER, firmware)
    source = (firmware / module).read_text()
    assert fixed in source, (module, fixed)
    (firmware / module).write_text(source.replace(fixed, fault))
    return firmware


def _changes_the_leds(frame: Frame) -> bool:
    """True for a frame that tells of a new picture: a roll event, or a show accepted."""
    message = frame.message or {}
    return message.get("t") in ("ev", "ok") and (message.get("kind") == "roll"
                                               or set(message) == {"t", "id"})


def _roll_problems(request: dict[str, object], reply: dict[str, object],
                   previous: Frame | None) -> list[str]:
    """A roll carried out must have its own event sent just before its ok."""
    event = previous.message if previous is not None else None
    if event is None or event.get("t") != "ev" or event.get("id") != request["id"]:
        return [f"roll {request} was answered {reply} without its event just before"]
    faces = event.get("faces")
    problems = []
    if reply.get("seq") != event.get("seq"):
        problems.append(f"roll ok {reply} does not name its event {event}")
    if event.get("dice") != request.get("dice") or not isinstance(faces, list) \
            or len(faces) != request.get("n"):
        problems.append(f"roll {request} made {event}")
    return problems


def _message_in(chunk: bytes) -> dict[str, object] | None:
    """The message a board must take from ``chunk`` (None: nothing it may answer)."""
    if not chunk.endswith(b"\x00") or b"\x00" in chunk[:-1]:
        return None
    try:
        return protocol.decode_frame(chunk[:-1])
    except protocol.FrameError:
        return None
