"""Does a board do what PROTOCOL.md says? The check ``conductor board monitor --check`` runs.

``check_board`` talks raw frames to a board (handshake, every request type, the spec's test
vectors, an audited session, a fairness sample) and returns a pass/fail list. Its parts are
shared with the fuzzer and the fuzz benchmark: ``frame_problems`` judges one frame from the
board by the spec alone; ``chi_square_p`` turns face counts into the probability that fair
dice would look at least this uneven.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from host.board.shared import FIRMWARE_FOLDER, dice, protocol
from host.board.wire import Frame, Message, RawBoard, frame_of, is_reply

#: What a board may send (PROTOCOL.md section 3).
BOARD_TYPES = ("hello", "pong", "ok", "err", "ev")
#: An err's reason is at most this long (PROTOCOL.md section 3).
REASON_CHARS = 80
#: Rolls of an audit session as the host saw them: (index in the session, kind, faces).
Rolls = list[tuple[int, str, list[object]]]
BUTTONS = ("seat0", "seat1", "seat2", "seat3", "roll")


def frame_problems(frame: Frame) -> list[str]:
    """What is wrong with one frame from the board, as one short phrase each (none: fine)."""
    message = frame.message
    if message is None:
        return ["a bad frame (COBS, CRC or JSON)"]
    problems = [] if frame.canonical else [f"a frame not in canonical form: {frame.raw[:60]!r}"]
    kind = message.get("t")
    if kind not in BOARD_TYPES:
        return [*problems, f"a message of unknown type {kind!r}"]
    if kind in ("pong", "ok", "err") and not _request_id(message.get("id"), kind == "err"):
        problems.append(f"a {kind} with id {message.get('id')!r}")
    if kind == "err":
        reason = message.get("msg")
        if not (
            isinstance(reason, str)
            and len(reason) <= REASON_CHARS
            and all(" " <= char <= "~" for char in reason)
        ):
            problems.append(f"an err whose msg is not one short printable line: {reason!r}")
    if kind == "ev":
        problems += event_problems(message)
    return problems


def event_problems(event: dict[str, object]) -> list[str]:
    """What is wrong with an ``ev`` message's fields (PROTOCOL.md section 5)."""
    seq = event.get("seq")
    if not (isinstance(seq, int) and not isinstance(seq, bool) and seq >= 1):
        return [f"an event numbered {seq!r}"]
    if event.get("kind") == "press":
        if event.get("button") not in BUTTONS or not isinstance(event.get("long"), bool):
            return [f"a malformed press event {event}"]
        return []
    if event.get("kind") != "roll":
        return [f"an event of unknown kind {event.get('kind')!r}"]
    kind, faces, index = event.get("dice"), event.get("faces"), event.get("roll")
    by, request = event.get("by"), event.get("id")
    allowed = dice.FACES.get(kind) if isinstance(kind, str) else None
    if (
        allowed is None
        or not isinstance(faces, list)
        or not 1 <= len(faces) <= dice.MAX_DICE
        or not all(face in allowed and type(face) is type(allowed[0]) for face in faces)
        or not (isinstance(index, int) and not isinstance(index, bool) and index >= 0)
    ):
        return [f"a malformed roll event {event}"]
    if not ((by == "host" and _request_id(request, False)) or (by == "button" and request is None)):
        return [f"a roll event by {by!r} with id {request!r}"]
    return []


def _request_id(value: object, null_allowed: bool) -> bool:
    if value is None:
        return null_allowed
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 2**53


def chi_square_p(counts: Sequence[int], shares: Sequence[float]) -> float:
    """P(a fair die gives a chi-square statistic at least this large) for observed ``counts``
    of categories expected with probabilities ``shares`` (which sum to 1)."""
    total = sum(counts)
    statistic = sum(
        (seen - total * share) ** 2 / (total * share)
        for seen, share in zip(counts, shares, strict=True)
    )
    return chi_square_survival(statistic, len(counts) - 1)


def chi_square_survival(statistic: float, dof: int) -> float:
    """The chi-square distribution's upper tail, exactly (closed forms for whole dof)."""
    half = statistic / 2
    if dof % 2 == 0:
        term, total = 1.0, 1.0
        for j in range(1, dof // 2):
            term *= half / j
            total += term
        return math.exp(-half) * total
    tail = math.erfc(math.sqrt(half))
    term = math.sqrt(2 * statistic / math.pi) * math.exp(-half)
    for j in range(1, (dof + 1) // 2):
        tail += term
        term *= statistic / (2 * j + 1)
    return min(1.0, tail)


def face_counts(kind: str, faces: Sequence[object]) -> tuple[list[int], list[float]]:
    """Counts of each distinct face of ``kind`` among ``faces``, and each one's fair share."""
    distinct = list(dict.fromkeys(dice.FACES[kind]))
    sides = len(dice.FACES[kind])
    shares = [dice.FACES[kind].count(face) / sides for face in distinct]
    return [sum(1 for face in faces if face == value) for value in distinct], shares


# -- the conformance check ---------------------------------------------------------------------

#: Rolls of 8 dice per kind in the fairness sample (d6 gets twice as many: six faces to fill).
FAIRNESS_ROLLS = {"d6": 100, "wheel": 50, "doors": 50}
#: A fair die fails the fairness sample this rarely (per kind).
FAIRNESS_ALPHA = 0.001
#: How long to wait for any one reply.
REPLY_S = 3.0
#: How long a roll's dice take to reach the LEDs (a frame every 40 ms; later on a busy board).
DICE_SHOWN_S = 0.5


class CheckFailed(Exception):
    """One conformance check found the board at odds with PROTOCOL.md."""


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one conformance check."""

    name: str
    passed: bool
    detail: str


def need(condition: bool, why: str) -> None:
    """Fail the running check with ``why`` unless ``condition`` holds."""
    if not condition:
        raise CheckFailed(why)


class BoardCheck:
    """Runs every conformance check against a board on a RawBoard line."""

    def __init__(self, raw: RawBoard, vectors: dict[str, Any]) -> None:
        self.raw = raw
        self.vectors = vectors
        # Ids far from any a host uses, so the board's repeat cache remembers none of them.
        self.raw.next_id = random.SystemRandom().randrange(2**40, 2**50)
        self.last_seq = 0
        self.hello: Message = {}

    def run(self) -> list[CheckResult]:
        """Every check, in order; after a failed handshake the others are not tried."""
        results: list[CheckResult] = []
        silent = False
        for name, check in self.checks():
            # After a failure, a dead or hung board would only make every check wait it out.
            silent = silent or (bool(results) and not results[-1].passed and not self._answers())
            if silent:
                results.append(CheckResult(name, False, "not run: the board stopped answering"))
                continue
            try:
                detail = check()
            except CheckFailed as failure:
                results.append(CheckResult(name, False, str(failure)))
                if name == "handshake":
                    break
            else:
                results.append(CheckResult(name, True, detail))
        if not silent:
            self._tidy()
        return results

    def _tidy(self) -> None:
        """Leave the board dark and disarmed (the checks lit seats and armed the button)."""
        with contextlib.suppress(CheckFailed):
            self._ok({"t": "show", "pic": {}})
            self._ok({"t": "arm", "dice": "d6", "n": 0})

    def _answers(self) -> bool:
        """True if the board still answers a ping (with anything)."""
        frames = self.raw.request({"t": "ping"}, REPLY_S)
        return bool(frames) and is_reply(frames[-1], self.raw.next_id)

    def checks(self) -> list[tuple[str, Callable[[], str]]]:
        """The checks by name."""
        return [
            ("handshake", self.handshake),
            ("another major version is not a handshake", self.other_major),
            ("ping", self.ping),
            ("show", self.show),
            ("roll every kind, 1 to 8 dice", self.rolls),
            ("arm", self.arm),
            ("a repeated roll is not rolled again", self.repeat),
            ("audited rolls verified", self.audit),
            ("test vectors: streams", self.streams),
            ("test vectors: frame size limit", self.padded),
            ("test vectors: strict JSON", self.strict_json),
            ("test vectors: requests", self.requests),
            ("fairness sample", self.fairness),
            ("every frame well formed", self.frames),
        ]

    # -- talking ------------------------------------------------------------------------------

    def _greet(self, version: list[int]) -> list[Frame]:
        self.raw.send_raw(protocol.DELIMITER)
        self.raw.send({"t": "hello", "v": version, "boot": "", "ack": 0})
        frames = self.raw.until(lambda frame: _kind(frame) == "hello", REPLY_S)
        frames += self.raw.receive(0.2)  # the replayed events follow the reply
        need(any(_kind(frame) == "hello" for frame in frames), "no hello in reply to hello")
        self._acknowledge(frames)
        return frames

    def _acknowledge(self, frames: list[Frame]) -> None:
        """Take the events, so the board stops re-sending them (the check consumes them)."""
        for frame in frames:
            seq = (frame.message or {}).get("seq")
            if _kind(frame) == "ev" and isinstance(seq, int):
                self.last_seq = max(self.last_seq, seq)
        if self.last_seq:
            self.raw.send({"t": "ack", "seq": self.last_seq})

    def _ask(self, message: Message) -> tuple[Message, list[Message]]:
        """Send a request; its reply and the events that came with it (fail if none)."""
        frames = self.raw.request(message, REPLY_S)
        need(bool(frames) and is_reply(frames[-1], self.raw.next_id),
             f"no reply to {message['t']} within {REPLY_S:.0f} s")
        self._acknowledge(frames)
        reply = frames[-1].message
        assert reply is not None
        events = [f.message for f in frames[:-1] if f.message is not None and _kind(f) == "ev"]
        return reply, events

    def _ok(self, message: Message) -> tuple[Message, list[Message]]:
        reply, events = self._ask(message)
        need(reply["t"] in ("ok", "pong"), f"{message} was refused: {reply.get('msg')}")
        return reply, events

    def _refused(self, message: Message) -> None:
        reply, _ = self._ask(message)
        need(reply["t"] == "err", f"{message} was not refused: {reply}")

    def _roll(self, kind: str, count: int) -> Message:
        reply, events = self._ok({"t": "roll", "dice": kind, "n": count})
        mine = [e for e in events if e.get("id") == self.raw.next_id and e.get("kind") == "roll"]
        need(len(mine) == 1, f"roll {kind} {count}: {len(mine)} roll events, not 1")
        event = mine[0]
        need(reply.get("seq") == event.get("seq"), f"roll ok {reply} does not name {event}")
        faces = event.get("faces")
        need(event.get("dice") == kind and event.get("by") == "host"
             and isinstance(faces, list) and len(faces) == count,
             f"roll {kind} {count} made {event}")
        return event

    def _answered(self, payload_frame: bytes) -> list[Message]:
        """Send raw bytes, then a ping; the replies that came before the ping's pong."""
        self.raw.send_raw(payload_frame + protocol.DELIMITER)
        frames = self.raw.request({"t": "ping"}, REPLY_S)
        need(bool(frames) and is_reply(frames[-1], self.raw.next_id),
             "the board stopped answering")
        self._acknowledge(frames)
        return [f.message for f in frames[:-1] if f.message is not None and _kind(f) != "ev"]

    # -- the checks ---------------------------------------------------------------------------

    def handshake(self) -> str:
        frames = self._greet([protocol.VERSION_MAJOR, protocol.VERSION_MINOR])
        hello = next(f.message for f in frames if f.message is not None and _kind(f) == "hello")
        self.hello = hello
        version = hello.get("v")
        need(isinstance(version, list) and len(version) == 2
             and version[0] == protocol.VERSION_MAJOR,
             f"protocol {version}, this Conductor speaks {protocol.VERSION_MAJOR}.x")
        need(_hex(hello.get("board")), f"board id {hello.get('board')!r} is not hex")
        need(_hex(hello.get("boot"), 8), f"boot {hello.get('boot')!r} is not 8 hex digits")
        caps, kinds = hello.get("caps"), hello.get("dice")
        need(isinstance(caps, list) and {"audit", "dice", "leds", "buttons"} <= set(caps),
             f"capabilities {caps}")
        need(isinstance(kinds, list) and set(dice.FACES) <= set(kinds), f"dice kinds {kinds}")
        for name in ("seats", "lost", "first"):
            value = hello.get(name)
            need(isinstance(value, int) and not isinstance(value, bool) and value >= 0,
                 f"{name} is {value!r}")
        assert isinstance(version, list)
        return (f"board {hello.get('board')} firmware {hello.get('fw')} protocol "
                f"{version[0]}.{version[1]}, {hello.get('seats')} seats, lost {hello.get('lost')}")

    def other_major(self) -> str:
        frames = self._greet([protocol.VERSION_MAJOR + 1, 0])
        need(not any(_kind(f) == "ev" for f in frames), "events went to a host of another major")
        reply, _ = self._ask({"t": "ping"})
        need(reply.get("need") == "hello", f"after it a ping got {reply}, not need: hello")
        self._greet([protocol.VERSION_MAJOR, protocol.VERSION_MINOR])
        self._ok({"t": "ping"})
        return "answered with its hello, then asked for a handshake"

    def ping(self) -> str:
        reply, _ = self._ok({"t": "ping"})
        need(reply["t"] == "pong", f"ping answered {reply}")
        self._refused({"t": "frob"})
        self.raw.send({"t": "ping"})  # no id: refused with id null
        frames = self.raw.until(lambda f: _kind(f) in ("err", "pong"), REPLY_S)
        last = frames[-1].message or {} if frames else {}
        need(last.get("t") == "err" and last.get("id", 0) is None,
             f"a ping without an id was answered {last}, not refused with id null")
        return "pong; unknown type and missing id refused"

    def show(self) -> str:
        self._ok({"t": "show", "pic": {"seats": 4, "turn": 1, "dir": -1, "skip": [2]}})
        self._refused({"t": "show", "pic": {"seats": 9}})
        self._refused({"t": "show", "pic": {"dice": {"kind": "d6", "faces": [1, 2, 3, 4, 5]}}})
        self._ok({"t": "show", "pic": {"seats": 0}})
        return "a picture taken, impossible ones refused"

    def rolls(self) -> str:
        for kind in sorted(dice.FACES):
            for count in range(1, dice.MAX_DICE + 1):
                self._roll(kind, count)
            # A busy board draws its LEDs only once the requests stop: give it the time to
            # show the last dice, so a board that dies drawing them fails here, not later.
            time.sleep(DICE_SHOWN_S)
            reply, _ = self._ok({"t": "ping"})
            need(reply["t"] == "pong", f"after showing {kind} dice, ping answered {reply}")
        self._refused({"t": "roll", "dice": "d6", "n": 0})
        self._refused({"t": "roll", "dice": "d6", "n": dice.MAX_DICE + 1})
        self._refused({"t": "roll", "dice": "d20", "n": 1})
        return f"{len(dice.FACES) * dice.MAX_DICE} rolls; 0, 9 dice and d20 refused"

    def arm(self) -> str:
        self._ok({"t": "arm", "dice": "d6", "n": 2})
        self._refused({"t": "arm", "dice": "d20", "n": 0})
        self._refused({"t": "arm", "dice": "d6", "n": 9})
        self._ok({"t": "arm", "dice": "d6", "n": 0})
        return "armed and disarmed; d20 and 9 dice refused"

    def repeat(self) -> str:
        first = self._roll("wheel", 3)
        request = {"t": "roll", "id": self.raw.next_id, "dice": "wheel", "n": 3}
        self.raw.send(request)
        frames = self.raw.until(lambda f: is_reply(f, request["id"]), REPLY_S)
        self._acknowledge(frames)
        need(bool(frames) and (frames[-1].message or {}).get("seq") == first.get("seq"),
             "the repeated roll was not answered like the first")
        need(not any((f.message or {}).get("id") == request["id"] and _kind(f) == "ev"
                     and (f.message or {}).get("seq") != first.get("seq") for f in frames),
             "the repeated roll was rolled again")
        return "the first reply again, no second roll"

    def audit(self) -> str:
        commitment, rolls = self._audited({kind: 2 for kind in dice.FACES})
        return f"{len(rolls)} rolls follow from the secret behind {commitment[:16]}..."

    def _audited(self, per_kind: dict[str, int]) -> tuple[str, Rolls]:
        commitment, secret, rolls = self._session(per_kind)
        _verified(commitment, secret, rolls)
        return commitment, rolls

    def _session(self, per_kind: dict[str, int]) -> tuple[str, str, Rolls]:
        """Commit, roll ``per_kind`` rolls of 8 dice of each kind, reveal: the commitment, the
        secret and the rolls, checked for form but not yet against the secret."""
        reply, _ = self._ok({"t": "commit"})
        commitment = reply.get("hash")
        need(_hex(commitment, 64), f"commit hash {commitment!r} is not 64 hex digits")
        assert isinstance(commitment, str)
        rolls: Rolls = []
        for kind, count in per_kind.items():
            for _ in range(count):
                event = self._roll(kind, dice.MAX_DICE)
                rolls.append((int(str(event.get("roll"))), kind, list(event["faces"])))  # type: ignore[call-overload]
        need([index for index, _, _ in rolls] == list(range(len(rolls))),
             f"roll indexes {[index for index, _, _ in rolls]} do not count from 0")
        reply, _ = self._ok({"t": "reveal"})
        secret = reply.get("secret")
        need(_hex(secret, 64), f"revealed secret {secret!r} is not 64 hex digits")
        need(reply.get("rolls") == len(rolls), f"{reply.get('rolls')} rolls revealed, "
                                               f"{len(rolls)} made")
        return commitment, str(secret), rolls

    def streams(self) -> str:
        for stream in self.vectors["streams"]:
            data = bytes.fromhex(stream["bytes"])
            wanted = protocol.Receiver().feed(data + protocol.DELIMITER)
            got = self._answered(protocol.DELIMITER + data)
            need([m.get("id") for m in got] == [m["id"] for m in wanted],
                 f"stream {stream['bytes'][:24]}... answered {got}, not pongs to {wanted}")
        return f"{len(self.vectors['streams'])} streams of garbage and good frames"

    def padded(self) -> str:
        for letters, read in self.vectors["padded"]:
            frame = protocol.encode_frame({"id": 7, "pad": "a" * letters, "t": "ping"})
            got = self._answered(protocol.DELIMITER + frame[:-1])
            need(bool(got) == read, f"a frame of {len(frame) - 1} bytes was "
                                    f"{'not ' if read else ''}answered")
        return f"{protocol.MAX_FRAME} encoded bytes read, one more dropped"

    def strict_json(self) -> str:
        cases = [(text.encode(), ok) for text, ok in self.vectors["json"]]
        cases += [(bytes.fromhex(data), ok) for data, ok in self.vectors["json_utf8"]]
        for payload, ok in cases:
            got = self._answered(protocol.DELIMITER + frame_of(payload)[:-1])
            need(bool(got) == ok, f"{payload!r} was {'not ' if ok else ''}answered")
        return f"{len(cases)} payloads: strict JSON answered, the rest dropped"

    def requests(self) -> str:
        base = self.raw.next_id
        self.raw.next_id += 1000
        self._greet([protocol.VERSION_MAJOR, protocol.VERSION_MINOR])
        for message, kind, request, events in self.vectors["requests"]:
            sent = {**message, "id": _offset(message["id"], base)} if "id" in message else message
            self.raw.send_raw(protocol.DELIMITER
                              + frame_of(json.dumps(sent, separators=(",", ":")).encode()))
            if kind is None:
                continue
            frames = self.raw.until(lambda f: _kind(f) in ("ok", "err", "pong", "hello"),
                                    REPLY_S)
            self._acknowledge(frames)
            reply = frames[-1].message if frames else None
            need(reply is not None and reply["t"] == kind
                 and reply.get("id") == _offset(request, base),
                 f"{message} was answered {reply}, not {kind} {request}")
            made = [f for f in frames if _kind(f) == "ev"
                    and (f.message or {}).get("id") == _offset(request, base)]
            need(len(made) == events, f"{message} made {len(made)} roll events, not {events}")
        self._greet([protocol.VERSION_MAJOR, protocol.VERSION_MINOR])
        return f"{len(self.vectors['requests'])} requests answered as the spec says"

    def fairness(self) -> str:
        commitment, secret, rolls = self._session(FAIRNESS_ROLLS)
        worst = 1.0
        notes = []
        for kind in FAIRNESS_ROLLS:
            faces = [face for _, rolled, made in rolls if rolled == kind for face in made]
            p_value, note = odds_note(kind, faces)
            worst = min(worst, p_value)
            notes.append(note)
        # The odds first: a board rolling other faces (a 1.x doors die, 3:3) is told as such,
        # before its audit fails too.
        need(worst >= FAIRNESS_ALPHA, "dice off their odds: " + ", ".join(notes))
        _verified(commitment, secret, rolls)
        return f"{sum(FAIRNESS_ROLLS.values()) * dice.MAX_DICE} dice, audited: " + ", ".join(notes)

    def frames(self) -> str:
        problems = [problem for frame in self.raw.log for problem in frame_problems(frame)]
        need(not problems, f"{len(problems)} bad: {problems[0] if problems else ''}")
        return f"{len(self.raw.log)} frames, all canonical with a valid CRC"


def odds_note(kind: str, faces: Sequence[object]) -> tuple[float, str]:
    """How likely dice of ``kind`` rolled at the odds of its face list would look at least as
    uneven as ``faces`` (a chi-square test), and one note with the counts against those odds."""
    counts, shares = face_counts(kind, faces)
    p_value = chi_square_p(counts, shares)
    distinct = list(dict.fromkeys(dice.FACES[kind]))
    named = "/".join(str(face) for face in distinct)
    seen = ":".join(str(count) for count in counts)
    odds = ":".join(str(dice.FACES[kind].count(face)) for face in distinct)
    return p_value, f"{kind} {named} {seen} at odds {odds} p={p_value:.3f}"


def _verified(commitment: str, secret: str, rolls: Rolls) -> None:
    try:
        dice.verify(commitment, secret, rolls)
    except dice.DiceError as error:
        raise CheckFailed(f"audit failed: {error}") from None


def _kind(frame: Frame) -> object:
    return (frame.message or {}).get("t")


def _offset(request: object, base: int) -> object:
    """A vector's small id moved to ``base`` (the board may remember the small ones)."""
    if type(request) is int and 1 <= request < 1000:
        return base + request
    return request


def _hex(value: object, digits: int | None = None) -> bool:
    return (
        isinstance(value, str)
        and bool(value)
        and all(char in "0123456789abcdef" for char in value)
        and (digits is None or len(value) == digits)
    )


def protocol_vectors() -> dict[str, Any]:
    """The test vectors of firmware/PROTOCOL.md section 7."""
    text = (FIRMWARE_FOLDER / "PROTOCOL.md").read_text()
    start = text.index("```json\n", text.index("## 7. Test vectors")) + len("```json\n")
    loaded: dict[str, Any] = json.loads(text[start : text.index("```", start)])
    return loaded


def check_board(raw: RawBoard) -> list[CheckResult]:
    """Run the whole conformance check on the board at the other end of ``raw``."""
    return BoardCheck(raw, protocol_vectors()).run()
