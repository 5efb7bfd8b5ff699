"""End to end: the real firmware in the real micropython, on a pty, through real pyserial.

Few and sharp: a whole session (handshake, LEDs, rolls, bouncy buttons, audit), a line that
corrupts and injects bytes both ways, and the board killed and restarted mid-game.
"""

from __future__ import annotations

import os
import random
import shutil
import time
from collections.abc import Iterator

import pytest
import serial

from host.board import (
    BoardEvent,
    BoardLink,
    ButtonPress,
    DiceRoll,
    Picture,
    PortBusy,
    SimulatedBoard,
    picture_for,
)
from host.board.ports import open_port
from host.board.shared import protocol
from host.turns import TurnIndicator

pytestmark = pytest.mark.skipif(shutil.which("micropython") is None,
                                reason="micropython not installed")

LEDS_PER_SEAT = 4


@pytest.fixture
def sim() -> Iterator[SimulatedBoard]:
    with SimulatedBoard() as board:
        yield board
        # Whatever the test threw at it, the firmware must still be running (not crashed).
        assert board.running, board.errors()


def _arc(pixels: list[tuple[int, int, int]], seat: int) -> int:
    return sum(sum(p) for p in pixels[seat * LEDS_PER_SEAT:(seat + 1) * LEDS_PER_SEAT])


def _shows_turn(seat: int, seats: int) -> object:
    def accept(pixels: list[tuple[int, int, int]]) -> bool:
        lit = [_arc(pixels, s) for s in range(4)]
        others = [lit[s] for s in range(seats) if s != seat]
        return all(lit[seat] > 2 * other > 0 for other in others) and lit[seats:] == [0] * (
            4 - seats)
    return accept


def _events(link: BoardLink, count: int, timeout: float = 5.0) -> list[BoardEvent]:
    out: list[BoardEvent] = []
    deadline = time.monotonic() + timeout
    while len(out) < count and time.monotonic() < deadline:
        event = link.next_event(timeout=0.1)
        if event is not None:
            out.append(event)
    return out


def test_a_whole_session(sim: SimulatedBoard) -> None:
    with BoardLink.open(sim.port) as link:
        assert link.info is not None and link.info.protocol[0] == protocol.VERSION_MAJOR
        link.show(picture_for(TurnIndicator(seats=3, on_turn=2)))
        sim.wait_for_leds(_shows_turn(2, 3))  # type: ignore[arg-type]

        commitment = link.commit()
        faces = link.roll("wheel", 4)
        sim.press("seat1", 150)
        sim.press("roll", 900)
        events = _events(link, 3)
        report = link.reveal()
        time.sleep(0.3)
        late = link.events()
    assert isinstance(events[0], DiceRoll) and list(events[0].faces) == faces
    assert events[1:] == [ButtonPress(2, "seat1", False), ButtonPress(3, "roll", True)]
    assert late == []  # contact bounce produced no extra presses
    assert report.commitment == commitment and [r[2] for r in report.rolls] == [tuple(faces)]


class NoisyPort:
    """The real pyserial port, with bytes corrupted and garbage injected on the way in."""

    def __init__(self, port: serial.Serial, rng: random.Random) -> None:
        self.port = port
        self.rng = rng
        self.corrupted = 0

    @property
    def in_waiting(self) -> int:
        return int(self.port.in_waiting)

    def read(self, size: int = 1) -> bytes:
        data = bytearray(self.port.read(size))
        for index in range(len(data)):
            if self.rng.random() < 0.002:
                data[index] ^= 1 << self.rng.randrange(8)
                self.corrupted += 1
        if data and self.rng.random() < 0.01:
            data[0:0] = self.rng.randbytes(self.rng.randrange(1, 30))
        return bytes(data)

    def write(self, data: bytes, /) -> int | None:
        return self.port.write(data)

    def close(self) -> None:
        self.port.close()


@pytest.mark.parametrize("seed", [11])
def test_garbage_and_corruption_both_ways_lose_and_double_nothing(
    sim: SimulatedBoard, seed: int
) -> None:
    rng = random.Random(seed)
    ports: list[NoisyPort] = []

    def opener() -> NoisyPort:
        ports.append(NoisyPort(open_port(sim.port), rng))
        return ports[-1]

    injector = os.open(sim.port, os.O_WRONLY | os.O_NOCTTY)
    try:
        with BoardLink(opener, name=sim.port) as link:
            link.start()
            rolled = []
            for index in range(15):
                # Towards the board: noise, a frame with a flipped byte, half a frame.
                frame = bytearray(protocol.encode_frame({"t": "roll", "id": 7, "dice": "d6",
                                                         "n": 1}))
                frame[3] ^= 0x40
                os.write(injector, rng.randbytes(20) + b"\x00" + bytes(frame) + frame[:5])
                rolled.append(link.roll("d6", 2, timeout=10))
                if index % 5 == 0:
                    sim.press(f"seat{index % 4}", 150)
            events = _events(link, 18, timeout=10)
            time.sleep(0.6)
            events += link.events()
    finally:
        os.close(injector)
    assert [e.seq for e in events] == list(range(1, 19)), seed
    assert [list(e.faces) for e in events if isinstance(e, DiceRoll)] == rolled
    assert [e.button for e in events if isinstance(e, ButtonPress)] == ["seat0", "seat1",
                                                                          "seat2"]
    assert sum(p.corrupted for p in ports) > 0  # the noise really happened


def test_board_killed_and_restarted_mid_game(sim: SimulatedBoard) -> None:
    picture = Picture(seats=4, turn=1)
    with BoardLink.open(sim.port) as link:
        link.show(picture)
        commitment = link.commit()
        first = link.roll("d6", 2)
        sim.press("seat3", 150)
        before = _events(link, 2)
        sim.kill()
        sim.start()
        sim.wait_for_leds(_shows_turn(1, 4), timeout=10)  # type: ignore[arg-type]
        assert link.reconnects == 1
        second = link.roll("doors", 2)
        sim.press("seat0", 150)
        after = _events(link, 2)
        report = link.reveal()  # the audit session survived the reset
        time.sleep(0.6)
        stray = link.events()
    assert [e.seq for e in before + after] == [1, 2, 3, 4]  # numbering goes on
    assert isinstance(before[0], DiceRoll) and list(before[0].faces) == first
    assert isinstance(after[0], DiceRoll) and list(after[0].faces) == second
    assert [e.button for e in before + after if isinstance(e, ButtonPress)] == ["seat3",
                                                                                "seat0"]
    assert stray == []
    assert report.commitment == commitment and len(report.rolls) == 2


def test_an_event_the_host_never_saw_survives_a_reset(sim: SimulatedBoard) -> None:
    with BoardLink.open(sim.port) as link:
        link.roll("d6", 1)
        assert len(_events(link, 1)) == 1
    # Nobody listens now: the press stays unacknowledged on the board...
    sim.press("seat2", 150)
    state = sim.folder / "conductor-state.json"
    deadline = time.monotonic() + 5
    while '"seat2"' not in state.read_text() and time.monotonic() < deadline:
        time.sleep(0.02)
    sim.kill()  # ...and the board loses power before anyone picks it up.
    sim.start()
    with BoardLink.open(sim.port) as link:
        events = _events(link, 1)
        time.sleep(0.6)
        events += link.events()
    assert events == [ButtonPress(2, "seat2", False)]


def test_a_second_program_on_the_port_is_told_it_is_busy(sim: SimulatedBoard) -> None:
    with BoardLink.open(sim.port), pytest.raises(PortBusy, match="port busy"):
        BoardLink.open(sim.port)
