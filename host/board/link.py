"""The app's connection to the board: handshake, events, LED pictures, dice, heartbeat, reconnects.

A ``BoardLink`` owns one background thread that reads the port, answers the protocol (acks,
heartbeat) and reconnects when the link dies; the app's calls (``roll``, ``show``, ``commit``,
``events``) are thread-safe and never block longer than their timeout. The serial port comes
from an injected opener, so tests hand in a pseudo-terminal and production a USB port.
"""

from __future__ import annotations

import contextlib
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import serial

from host.board.errors import (
    AuditFailed,
    BoardError,
    BoardSilent,
    FirmwareMismatch,
)
from host.board.events import BoardEvent, DiceRoll, event_from_wire
from host.board.pictures import DiceShown, Face, Picture
from host.board.ports import UDEV_SYMLINK, SerialPort, find_board, open_port
from host.board.shared import dice, protocol

#: The host pings this often; the board answers, so a healthy link is never quiet longer.
HEARTBEAT_S = 1.0
#: Nothing heard for this long: the link is dead (PROTOCOL.md, Heartbeat).
DEAD_AFTER_S = 3.0
#: A request without an answer is sent again (same id) after this long.
RETRY_S = 0.5
#: Reconnect attempts wait this long at first, doubling up to BACKOFF_MAX_S.
BACKOFF_MIN_S = 0.2
BACKOFF_MAX_S = 2.0
#: What each major protocol version changed, told to the owner of a board too old for it.
MAJOR_CHANGES = {2: "2.0 rolls the Train Line boarding die 4 open / 2 closed, 1.x rolled 3 / 3"}

Message = dict[str, object]


@dataclass(frozen=True)
class BoardInfo:
    """What the board said about itself in its hello."""

    protocol: tuple[int, int]
    """Protocol version (major, minor)."""
    firmware: str
    """Firmware version."""
    board_id: str
    """The board's unique id (hex)."""
    boot: str
    """The id of the board's event numbering (kept across resets; new on a wiped board)."""
    capabilities: tuple[str, ...]
    """What the board can do (``audit``, ``buttons``, ``dice``, ``leds``)."""
    seats: int
    """Seat buttons fitted."""
    lost: int = 0
    """Events the board had to drop, unacknowledged, because its replay buffer was full."""


@dataclass(frozen=True)
class AuditReport:
    """A verified audit session: every roll follows from the secret committed before them."""

    commitment: str
    """The hash the board published at commit time."""
    secret: str
    """The secret it revealed (hex)."""
    rolls: tuple[tuple[int, str, tuple[Face, ...]], ...]
    """Each verified roll: (index in the session, kind, faces)."""


@dataclass
class _Audit:
    commitment: str
    boot: str
    after_seq: int
    rolls: list[tuple[int, str, list[object]]]


class BoardLink:
    """A live, self-healing connection to the board.

    Create with ``BoardLink.open(port)`` (or ``BoardLink(opener).start()`` with any port
    opener). Events arrive in order, each exactly once, through ``events()`` or ``next_event()``.
    """

    def __init__(
        self,
        opener: Callable[[], SerialPort],
        *,
        name: str = "board",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._opener = opener
        self.name = name
        self._clock = clock
        self._lock = threading.Condition()
        self._write_lock = threading.Lock()
        self._events: queue.Queue[BoardEvent] = queue.Queue()
        self._port: SerialPort | None = None
        self._receiver = protocol.Receiver()
        self._ready = False
        self._broken = False
        self._closing = False
        self._failure: BoardError | None = None
        self._next_id = random.SystemRandom().randrange(1, 2**30)
        self._replies: dict[int, Message] = {}
        self._rolled: dict[int, DiceRoll] = {}
        self._boot = ""
        self._last_seq = 0
        self._heard = 0.0
        self._pinged = 0.0
        self._opened = 0.0
        self._picture: Picture | None = None
        self._armed: tuple[str, int] | None = None
        self._audit: _Audit | None = None
        self.info: BoardInfo | None = None
        self.problem: str | None = None
        """Why the link is down right now (None while connected)."""
        self.reconnects = 0
        """How many times the link came back after dying."""
        self._thread = threading.Thread(target=self._run, name=f"{name}-link", daemon=True)

    # -- opening and closing ---------------------------------------------------------------

    @classmethod
    def open(cls, port: str | None = None, timeout: float = 5.0) -> BoardLink:
        """Connect to the board on ``port``, or find it (udev symlink, then USB 2E8A:0005).

        Raises NoBoardFound, PortBusy, PermissionDenied, FirmwareMismatch or BoardSilent.
        """
        device = port or _default_device()
        link = cls(lambda: open_port(device), name=device)
        link.start(timeout)
        return link

    def start(self, timeout: float = 5.0) -> BoardInfo:
        """Open the port and handshake; return the board's hello. Errors are raised here."""
        self._thread.start()
        deadline = self._clock() + timeout
        with self._lock:
            while not self._ready and self._failure is None:
                left = deadline - self._clock()
                if left <= 0:
                    break
                self._lock.wait(left)
            failure = self._failure
            info = self.info
        if failure is not None or info is None:
            self.close()
            raise failure or BoardSilent(
                f"the board on {self.name} did not answer: is the Conductor firmware on it? "
                "(conductor board flash)"
            )
        return info

    def close(self) -> None:
        """Stop the link and release the port."""
        with self._lock:
            self._closing = True
            self._lock.notify_all()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=2.0)

    def __enter__(self) -> BoardLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        """True while the handshake is done and the board is heard."""
        with self._lock:
            return self._ready

    # -- what the app calls ----------------------------------------------------------------

    def events(self) -> list[BoardEvent]:
        """Every event delivered since the last call, oldest first; never blocks."""
        out: list[BoardEvent] = []
        while True:
            try:
                out.append(self._events.get_nowait())
            except queue.Empty:
                return out

    def next_event(self, timeout: float | None = None) -> BoardEvent | None:
        """The next event, waiting up to ``timeout`` seconds (None: forever) for it."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def show(self, picture: Picture, timeout: float = 3.0) -> None:
        """Make the LEDs show ``picture`` (kept and restored after every reconnect)."""
        with self._lock:
            self._picture = picture
        self._request({"t": "show", "pic": picture.to_wire()}, timeout)

    def roll(self, kind: str, count: int, timeout: float = 5.0) -> list[Face]:
        """Roll ``count`` dice of ``kind`` on the board and return their faces.

        The roll is also delivered as a DiceRoll event (``by_button`` False).
        """
        dice.check_roll(kind, count)
        deadline = self._clock() + timeout
        request = self._allocate_id()
        self._request({"t": "roll", "dice": kind, "n": count}, timeout, request)
        with self._lock:
            while request not in self._rolled:
                left = deadline - self._clock()
                if left <= 0 or self._closing:
                    raise BoardSilent("the board accepted a roll but its result never came")
                self._lock.wait(min(left, RETRY_S))
            return list(self._rolled.pop(request).faces)

    def arm(self, kind: str, count: int, timeout: float = 3.0) -> None:
        """Make the roll button roll ``count`` dice of ``kind`` (count 0: the button rolls none)."""
        dice.check_roll(kind, count or 1)  # disarming (0) still names a known kind
        with self._lock:
            self._armed = (kind, count) if count else None
        self._request({"t": "arm", "dice": kind, "n": count}, timeout)

    def commit(self, timeout: float = 3.0) -> str:
        """Start an audited session; return the board's commitment (hash of its secret)."""
        reply = self._request({"t": "commit"}, timeout)
        commitment, after = reply.get("hash"), reply.get("seq")
        if not isinstance(commitment, str) or not isinstance(after, int):
            raise BoardError("the board's commit answer is malformed")
        with self._lock:
            self._audit = _Audit(commitment, self._boot, after, [])
        return commitment

    def reveal(self, timeout: float = 3.0) -> AuditReport:
        """End the audited session and prove every roll in it followed from the commitment.

        Raises AuditFailed if any roll does not, or the board restarted meanwhile.
        """
        with self._lock:
            audit = self._audit
        if audit is None:
            raise BoardError("nothing to reveal: commit() first")
        reply = self._request({"t": "reveal"}, timeout)
        with self._lock:
            self._audit = None
            boot = self._boot
        secret, made = reply.get("secret"), reply.get("rolls")
        if boot != audit.boot:
            raise AuditFailed(
                "the board lost its state during the audited session: rolls unprovable"
            )
        if not isinstance(secret, str) or made != len(audit.rolls):
            raise AuditFailed(f"the board made {made} rolls, the host saw {len(audit.rolls)}")
        try:
            dice.verify(audit.commitment, secret, audit.rolls)
        except dice.DiceError as error:
            raise AuditFailed(f"dice audit failed: {error}") from None
        rolls = tuple((index, kind, tuple(_faces(faces))) for index, kind, faces in audit.rolls)
        return AuditReport(audit.commitment, secret, rolls)

    # -- requests --------------------------------------------------------------------------

    def _allocate_id(self) -> int:
        with self._lock:
            self._next_id += 1
            return self._next_id

    def _request(self, message: Message, timeout: float, request: int | None = None) -> Message:
        """Send a request (again every RETRY_S, same id) until its answer; raise on err/timeout."""
        request = request if request is not None else self._allocate_id()
        message = {**message, "id": request}
        deadline = self._clock() + timeout
        sent_at: float | None = None
        with self._lock:
            while request not in self._replies:
                if self._failure is not None:
                    raise self._failure
                now = self._clock()
                if now >= deadline or self._closing:
                    raise BoardSilent(f"the board did not answer ({self.problem or 'timeout'})")
                if self._ready and (sent_at is None or now - sent_at >= RETRY_S):
                    sent_at = now
                    self._send(message)
                self._lock.wait(min(deadline - now, RETRY_S))
            reply = self._replies.pop(request)
        if reply["t"] == "err":
            raise BoardError(f"the board refused: {reply.get('msg')}")
        return reply

    def _send(self, message: Message) -> None:
        """Write one frame; a failed write marks the link broken for the I/O thread to fix."""
        port = self._port
        if port is None:
            return
        try:
            with self._write_lock:
                # A leading delimiter too: noise on the line before this frame then costs
                # nothing, instead of spoiling the frame it would otherwise be glued to.
                port.write(protocol.DELIMITER + protocol.encode_frame(message))
        except (serial.SerialException, OSError):
            self._broken = True

    # -- the I/O thread --------------------------------------------------------------------

    def _run(self) -> None:
        backoff = BACKOFF_MIN_S
        while True:
            with self._lock:
                if self._closing or self._failure is not None:
                    self._lock.notify_all()
                    break
                if self._port is None:
                    if not self._connect():
                        if self._failure is not None:
                            self._lock.notify_all()
                            break
                        self._lock.wait(backoff)
                        backoff = min(backoff * 2, BACKOFF_MAX_S)
                        continue
                    backoff = BACKOFF_MIN_S
                port = self._port
            if port is None:
                continue
            try:
                data = port.read(1)
                if data:
                    data += port.read(port.in_waiting)
            except (serial.SerialException, OSError):
                data = b""
                self._broken = True
            with self._lock:
                for message in self._receiver.feed(data):
                    self._heard = self._clock()
                    self._handle(message)
                self._keep_alive()
        with self._lock:
            self._drop("closed")

    def _connect(self) -> bool:
        """Open the port and send hello; the reply is handled like any message. Lock held."""
        try:
            port = self._opener()
        except BoardError as error:
            self.problem = str(error)
            if self.info is None:  # the first connection reports its error to start()
                self._failure = error
            return False
        self._port = port
        self._receiver = protocol.Receiver()
        self._broken = False
        self._heard = self._opened = self._clock()
        # A leading delimiter ends whatever half frame the board was holding.
        self._send_raw(b"\x00")
        self._send_hello()
        return True

    def _send_hello(self) -> None:
        self._pinged = self._clock()
        self._send(
            {
                "t": "hello",
                "v": [protocol.VERSION_MAJOR, protocol.VERSION_MINOR],
                "boot": self._boot,
                "ack": self._last_seq,
            }
        )

    def _send_raw(self, data: bytes) -> None:
        port = self._port
        if port is None:
            return
        try:
            with self._write_lock:
                port.write(data)
        except (serial.SerialException, OSError):
            self._broken = True

    def _keep_alive(self) -> None:
        """Ping when due; give up on a silent or broken link. Lock held."""
        now = self._clock()
        if self._broken:
            self._drop("the serial port failed (unplugged?)")
        elif now - self._heard > DEAD_AFTER_S:
            self._drop(f"the board was silent for {DEAD_AFTER_S:.0f} s")
        elif not self._ready:
            if now - self._opened > DEAD_AFTER_S:
                self._drop("the board did not answer the handshake")
            elif now - self._pinged >= RETRY_S:
                self._send_hello()
        elif now - self._pinged >= HEARTBEAT_S:
            self._pinged = now
            self._next_id += 1
            self._send({"t": "ping", "id": self._next_id})

    def _drop(self, why: str) -> None:
        """Close the port; the loop reconnects. Lock held."""
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
            if self._ready and not self._closing:
                self.reconnects += 1
        self._ready = False
        self.problem = why
        self._lock.notify_all()

    def _handle(self, message: Message) -> None:
        """React to one message from the board. Lock held."""
        kind = message["t"]
        if kind == "hello":
            self._hello(message)
        elif kind == "ev":
            self._event(message)
        elif kind == "err" and message.get("need") == "hello":
            self._drop("the board restarted")  # reconnecting handshakes again
        elif kind in ("ok", "err"):
            request = message.get("id")
            if isinstance(request, int):
                self._replies[request] = message
                self._lock.notify_all()

    def _hello(self, message: Message) -> None:
        version = message.get("v")
        if not (
            isinstance(version, list)
            and len(version) == 2
            and all(isinstance(part, int) for part in version)
        ):
            self._failure = FirmwareMismatch("the board's hello carries no protocol version")
            self._drop("incompatible firmware")
            return
        major, minor = version
        if major != protocol.VERSION_MAJOR:
            self._failure = FirmwareMismatch(_mismatch(major, minor))
            self._drop("incompatible firmware")
            return
        boot, first = str(message.get("boot")), message.get("first")
        if boot != self._boot:
            self._boot = boot
            self._last_seq = 0  # another numbering: from its first held event on
        if isinstance(first, int) and first > self._last_seq + 1:
            # Events before `first` were acknowledged to an earlier host or dropped on overflow.
            self._last_seq = first - 1
        caps, seats, lost = message.get("caps"), message.get("seats"), message.get("lost")
        self.info = BoardInfo(
            protocol=(major, minor),
            firmware=str(message.get("fw")),
            board_id=str(message.get("board")),
            boot=boot,
            capabilities=tuple(str(c) for c in caps) if isinstance(caps, list) else (),
            seats=seats if isinstance(seats, int) else 0,
            lost=lost if isinstance(lost, int) else 0,
        )
        self._ready = True
        self.problem = None
        # Restore what the board should show and roll: it may have restarted meanwhile.
        if self._picture is not None:
            self._next_id += 1
            self._send({"t": "show", "id": self._next_id, "pic": self._picture.to_wire()})
        if self._armed is not None:
            self._next_id += 1
            self._send(
                {"t": "arm", "id": self._next_id, "dice": self._armed[0], "n": self._armed[1]}
            )
        self._lock.notify_all()

    def _event(self, message: Message) -> None:
        """Deliver the next event once, in order; acknowledge. Lock held."""
        seq = message.get("seq")
        if not isinstance(seq, int) or not self._ready:
            return
        if seq > self._last_seq + 1:
            return  # a gap: the board re-sends the missing one first
        if seq == self._last_seq + 1:
            self._last_seq = seq
            event = event_from_wire(message)
            if event is not None:
                self._deliver(event)
        self._send({"t": "ack", "seq": self._last_seq})

    def _deliver(self, event: BoardEvent) -> None:
        if isinstance(event, DiceRoll):
            if self._picture is not None:
                # The board shows a roll's faces itself; keep our copy in step for restores.
                shown = DiceShown(event.kind, event.faces[:4])
                self._picture = self._picture.with_dice(shown)
            audit = self._audit
            if audit is not None and audit.boot == self._boot and event.seq > audit.after_seq:
                audit.rolls.append((event.index, event.kind, list(event.faces)))
            if event.request is not None:
                self._rolled[event.request] = event
        self._events.put(event)
        self._lock.notify_all()


def _mismatch(major: int, minor: int) -> str:
    """Why a board of protocol ``major``.``minor`` cannot be used, and what to do, in one line.

    An older board is refused rather than half used: its dice may mean what they no longer do
    (MAJOR_CHANGES), and a game must never roll at odds its rules do not use.
    """
    ours = protocol.VERSION_MAJOR
    if major > ours:
        return (f"firmware too new: the board speaks protocol {major}.{minor}, this Conductor "
                f"speaks {ours}.x (run `conductor board flash` from a newer Conductor, or "
                "upgrade Conductor)")
    changes = "; ".join(MAJOR_CHANGES[level] for level in range(major + 1, ours + 1)
                        if level in MAJOR_CHANGES)
    return (f"firmware too old: the board speaks protocol {major}.{minor}, this Conductor "
            f"speaks {ours}.x{f' ({changes})' if changes else ''}: update the board with "
            "`conductor board flash`")


def _faces(faces: list[object]) -> list[Face]:
    return [face for face in faces if isinstance(face, int | str)]


def _default_device() -> str:
    return UDEV_SYMLINK if Path(UDEV_SYMLINK).exists() else find_board()
