"""The host's board link against the firmware core in-process, over a line that loses frames.

The port handed to BoardLink is a test double running the real ``core.BoardCore`` (CPython),
so the host's protocol handling is tested without processes or ptys; the same code against the
real firmware in micropython is tests/test_board_e2e.py.
"""

from __future__ import annotations

import errno
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
import serial

from host.board import (
    AuditFailed,
    BoardLink,
    BoardSilent,
    ButtonPress,
    DiceRoll,
    DiceShown,
    FirmwareMismatch,
    NoBoardFound,
    PermissionDenied,
    Picture,
    PortBusy,
    picture_for,
)
from host.board import ports as board_ports
from host.board.shared import protocol
from host.turns import Direction, TurnIndicator

sys.path.append(str(Path(__file__).resolve().parent.parent / "firmware"))
import core

Message = dict[str, object]


class FakeBoard:
    """A BoardCore behind fake serial ports; frames may be lost or rewritten in transit."""

    def __init__(self, seed: int, loss: float = 0.0) -> None:
        self.random = random.Random(seed)
        self.loss = loss
        self.core = core.BoardCore("feed", self.random.randbytes)
        self.rewrite: Callable[[Message], Message] = lambda message: message
        self.hello_version = [protocol.VERSION_MAJOR, protocol.VERSION_MINOR]
        self.opened = 0

    def reset(self) -> None:
        """Power-cycle: a new core (new boot id, nothing remembered)."""
        self.core = core.BoardCore("feed", self.random.randbytes)

    def open(self) -> FakePort:
        self.opened += 1
        self.port = FakePort(self)
        return self.port

    def sample(self, levels: list[bool], now: int) -> None:
        """Feed button levels to the core, as its scanner task does, and send what it says."""
        with self.port.ready:
            self.port._deliver(self.core.sample(levels, now))


class FakePort:
    def __init__(self, board: FakeBoard) -> None:
        self.board = board
        self.receiver = protocol.Receiver()
        self.incoming = bytearray()
        self.ready = threading.Condition()
        self.start = time.monotonic()

    def _now(self) -> int:
        return int((time.monotonic() - self.start) * 1000)

    def _lossy(self) -> bool:
        return self.board.random.random() < self.board.loss

    def _deliver(self, messages: list[Message]) -> None:
        for message in messages:
            if message["t"] == "hello":
                message = {**message, "v": self.board.hello_version}
            if not self._lossy():
                self.incoming += protocol.encode_frame(self.board.rewrite(message))
        self.ready.notify_all()

    @property
    def in_waiting(self) -> int:
        return len(self.incoming)

    def write(self, data: bytes, /) -> int:
        with self.ready:
            for message in self.receiver.feed(data):
                if not self._lossy():
                    self._deliver(self.board.core.receive(message, self._now()))
        return len(data)

    def read(self, size: int = 1) -> bytes:
        with self.ready:
            self._deliver(self.board.core.tick(self._now()))
            if not self.incoming:
                self.ready.wait(0.02)
            data = bytes(self.incoming[:size])
            del self.incoming[:size]
            return data

    def close(self) -> None:
        pass


def _link(board: FakeBoard, timeout: float = 3.0) -> BoardLink:
    link = BoardLink(board.open, name="fake")
    link.start(timeout)
    return link


def _drain(link: BoardLink, count: int, timeout: float = 10.0) -> list[object]:
    events: list[object] = []
    deadline = time.monotonic() + timeout
    while len(events) < count and time.monotonic() < deadline:
        event = link.next_event(timeout=0.1)
        if event is not None:
            events.append(event)
    return events


@pytest.mark.parametrize("seed", [5])
def test_rolls_over_a_lossy_line_arrive_once_each_in_order(seed: int) -> None:
    board = FakeBoard(seed, loss=0.1)
    with _link(board, timeout=10) as link:
        faces = [link.roll("d6", 3, timeout=10) for _ in range(12)]
        events = _drain(link, 12)
        time.sleep(0.6)  # a re-send window: nothing more may arrive
        events += link.events()
    assert [e.seq for e in events if isinstance(e, DiceRoll)] == list(range(1, 13)), seed
    assert [list(e.faces) for e in events if isinstance(e, DiceRoll)] == faces


def test_button_presses_are_delivered_and_roll_button_rolls_what_is_armed() -> None:
    board = FakeBoard(1)
    with _link(board) as link:
        link.arm("wheel", 4)
        for now in range(10_000, 10_100):
            board.sample([now < 10_050, False, False, False, now < 10_050], now)
        events = _drain(link, 3)
    assert isinstance(events[0], ButtonPress) and events[0].seat == 0
    assert isinstance(events[1], ButtonPress) and events[1].seat is None
    assert isinstance(events[2], DiceRoll) and events[2].by_button and len(events[2].faces) == 4


def test_board_reset_is_noticed_and_the_picture_restored() -> None:
    board = FakeBoard(2)
    picture = Picture(seats=3, turn=2, direction=Direction.COUNTERCLOCKWISE,
                      skipped=frozenset({0}))
    with _link(board) as link:
        link.show(picture)
        link.roll("doors", 2)
        assert board.core.picture["dice"] is not None
        board.reset()
        assert board.core.picture["seats"] == 0
        deadline = time.monotonic() + 5
        while (link.reconnects == 0 or not link.connected) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
        restored = board.core.picture
        faces = link.roll("d6", 1)
        events = _drain(link, 2)
    assert link.reconnects == 1
    assert restored == {**picture.to_wire(), "dice": restored["dice"]}
    assert restored["dice"] is not None  # the last roll stays on show
    assert [e.seq for e in events] == [1, 1]  # the new boot numbers from 1 again
    assert isinstance(events[1], DiceRoll) and list(events[1].faces) == faces


def test_a_silent_board_is_declared_dead_and_reconnected() -> None:
    board = FakeBoard(3)
    with _link(board) as link:
        board.loss = 1.0
        deadline = time.monotonic() + 6
        while link.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not link.connected
        assert link.problem is not None and "silent" in link.problem
        board.loss = 0.0
        deadline = time.monotonic() + 6
        while not link.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        assert link.connected and board.opened >= 2


def test_firmware_with_another_major_version_is_refused() -> None:
    board = FakeBoard(4)
    board.hello_version = [0, 9]
    with pytest.raises(FirmwareMismatch, match=r"firmware too old.*conductor board flash"):
        _link(board)


def test_a_board_that_never_answers_is_reported() -> None:
    board = FakeBoard(4, loss=1.0)
    with pytest.raises(BoardSilent, match="did not answer"):
        _link(board, timeout=0.5)


def test_audit_passes_for_honest_dice_and_fails_for_a_tampered_roll() -> None:
    board = FakeBoard(6)
    with _link(board) as link:
        commitment = link.commit()
        link.roll("wheel", 4)
        link.roll("d6", 2)
        report = link.reveal()
        assert report.commitment == commitment and len(report.rolls) == 2

        link.commit()

        def loaded(message: Message) -> Message:
            if message.get("kind") == "roll":
                return {**message, "faces": [6] * len(message["faces"])}  # type: ignore[arg-type]
            return message

        board.rewrite = loaded
        link.roll("d6", 8)
        board.rewrite = lambda message: message
        with pytest.raises(AuditFailed):
            link.reveal()


def test_picture_for_a_turn_indicator() -> None:
    indicator = TurnIndicator(seats=4, on_turn=3, direction=Direction.COUNTERCLOCKWISE,
                              skipped=frozenset({1}), alert=True)
    wire = picture_for(indicator, DiceShown("wheel", ("wheel", "blank"))).to_wire()
    assert wire == {"seats": 4, "turn": 3, "dir": -1, "skip": [1], "win": [], "alert": True,
                    "dice": {"kind": "wheel", "faces": ["wheel", "blank"]}, "level": 255}
    over = picture_for(TurnIndicator(seats=2, on_turn=None, winners=frozenset({0, 1})))
    assert over.to_wire()["win"] == [0, 1] and over.to_wire()["turn"] is None


@pytest.mark.parametrize(("code", "text", "error"), [
    (errno.EACCES, "[Errno 13] could not open port: Permission denied", PermissionDenied),
    (errno.EBUSY, "[Errno 16] Device or resource busy", PortBusy),
    (None, "Could not exclusively lock port /dev/ttyACM0", PortBusy),
    (errno.ENOENT, "[Errno 2] No such file or directory", NoBoardFound),
])
def test_port_failures_become_one_line_reasons(
    code: int | None, text: str, error: type[Exception], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(self: serial.Serial) -> None:
        raise serial.SerialException(code, text) if code else serial.SerialException(text)

    monkeypatch.setattr(serial.Serial, "open", refuse)
    with pytest.raises(error) as raised:
        board_ports.open_port("/dev/ttyACM0")
    assert "\n" not in str(raised.value)
    if error is PermissionDenied:
        assert "dialout" in str(raised.value)


def test_the_board_is_found_by_its_usb_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    found = [SimpleNamespace(device="/dev/ttyACM3", vid=0x2E8A, pid=0x0005),
             SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001)]
    monkeypatch.setattr(board_ports.list_ports, "comports", lambda: found)
    assert board_ports.find_board() == "/dev/ttyACM3"
    monkeypatch.setattr(board_ports.list_ports, "comports", lambda: found[1:])
    with pytest.raises(NoBoardFound, match="2E8A:0005"):
        board_ports.find_board()


def test_a_new_host_takes_up_the_boards_numbering_even_after_an_overflow() -> None:
    board = FakeBoard(8)
    with _link(board) as link:
        link.roll("d6", 1)
        assert len(_drain(link, 1)) == 1  # seq 1, acknowledged
    # While no host listens, more events pile up than the board can hold.
    for request in range(core.OUTBOX_SIZE + 5):
        board.core.receive({"t": "roll", "id": 500 + request, "dice": "d6", "n": 1}, 100)
    with _link(board) as link:
        events = _drain(link, core.OUTBOX_SIZE)
        time.sleep(0.6)
        events += link.events()
    assert link.info is not None and link.info.lost == 5
    held_from = 1 + 1 + 5  # after seq 1 (acknowledged) and the 5 oldest (dropped)
    assert [e.seq for e in events] == list(range(held_from, held_from + core.OUTBOX_SIZE))


def test_the_codec_loads_from_beside_host_when_firmware_is_not_a_known_package() -> None:
    # An editable install made before firmware/ was packaged cannot import it by name.
    code = (
        "import sys; sys.modules['firmware'] = None\n"
        "import host.board.shared as shared\n"
        "assert shared.protocol.decode_frame(shared.protocol.encode_frame({'t': 'x'})[:-1])"
        " == {'t': 'x'}\n"
        "print(shared.FIRMWARE_FOLDER)\n"
    )
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                            text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()) == root / "firmware"
