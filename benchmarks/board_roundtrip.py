"""Board link speed through a pty: command round trip vs a bare echo, and event goodput.

Run from the repository root: ``python benchmarks/board_roundtrip.py [--count N]``. Both sides
are real: the firmware in the micropython unix port on a pseudo-terminal, pyserial on the
host. The bare echo is a micropython script on the same kind of pty that reads the same way
the firmware does and sends every frame straight back, so the difference is the cost of the
codec, the asyncio tasks and the host link.
"""

from __future__ import annotations

import argparse
import os
import pty
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import serial  # noqa: E402

from host.board import BoardLink, Picture, SimulatedBoard  # noqa: E402
from host.board.shared import protocol  # noqa: E402

ECHO = """
import select, sys
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
frame = bytearray()
while True:
    poll.poll(-1)
    byte = sys.stdin.buffer.read(1)
    frame.extend(byte)
    if byte == b"\\x00":
        sys.stdout.buffer.write(frame)
        frame = bytearray()
"""


def _percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {p50 * 1000:.2f} ms  p99 {p99 * 1000:.2f} ms  (n={len(ordered)})"


def bare_echo(count: int) -> list[float]:
    """Round trips of one ping-sized frame through a micropython echo on a pty."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    folder = Path(tempfile.mkdtemp())
    script = folder / "echo.py"
    script.write_text(ECHO)
    process = subprocess.Popen(["micropython", str(script)], stdin=master, stdout=master)
    port = serial.Serial(os.ttyname(slave), timeout=2)
    frame = protocol.encode_frame({"t": "ping", "id": 123456789})
    samples = []
    try:
        for index in range(count + 20):  # the first 20 warm up (process start-up)
            start = time.perf_counter()
            port.write(frame)
            port.read(len(frame))
            if index >= 20:
                samples.append(time.perf_counter() - start)
    finally:
        port.close()
        process.kill()
        process.wait()
        for fd in (master, slave):
            os.close(fd)
        shutil.rmtree(folder)
    return samples


def command_round_trips(link: BoardLink, count: int) -> list[float]:
    """Round trips of a whole-picture ``show`` command, sent and acknowledged."""
    samples = []
    for index in range(count):
        picture = Picture(seats=4, turn=index % 4)
        start = time.perf_counter()
        link.show(picture)
        samples.append(time.perf_counter() - start)
    return samples


def event_goodput(link: BoardLink, seconds: float) -> tuple[int, float]:
    """Rolls asked back to back; returns (distinct events delivered, elapsed s)."""
    start = time.perf_counter()
    seen: set[int] = set()
    while time.perf_counter() - start < seconds:
        link.roll("d6", 4)
        seen.update(event.seq for event in link.events())
    elapsed = time.perf_counter() - start
    time.sleep(0.1)
    seen.update(event.seq for event in link.events())
    return len(seen), elapsed


def main() -> None:
    """Run the three measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500, help="round trips per measurement")
    parser.add_argument("--seconds", type=float, default=5.0, help="goodput run length")
    args = parser.parse_args()
    print(f"bare echo over a pty (micropython):   {_percentiles(bare_echo(args.count))}")
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link:
        command_round_trips(link, 20)  # warm up
        print(f"show command round trip (firmware):  "
              f"{_percentiles(command_round_trips(link, args.count))}")
        delivered, elapsed = event_goodput(link, args.seconds)
        print(f"event goodput (roll d6x4 back to back, each event once): "
              f"{delivered / elapsed:.0f} events/s over {elapsed:.1f} s")


if __name__ == "__main__":
    main()
