"""Recording the bytes between host and board as JSON lines, and playing a recording back.

A recording is a debugging aid (``conductor board monitor --record FILE``) and a test
fixture: a session recorded from a given firmware must still be understood by later hosts.
Each line is ``{"ms": time since the start, "from": "host" | "board", "hex": the bytes}``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from host.board.errors import BoardError
from host.board.ports import SerialPort


class RecordingPort:
    """A serial port that writes everything it reads and sends to a JSONL file."""

    def __init__(self, port: SerialPort, out: TextIO, start: float) -> None:
        self._port = port
        self._out = out
        self._start = start

    def _log(self, source: str, data: bytes) -> None:
        if data:
            ms = round((time.monotonic() - self._start) * 1000, 1)
            self._out.write(json.dumps({"ms": ms, "from": source, "hex": data.hex()}) + "\n")
            self._out.flush()

    @property
    def in_waiting(self) -> int:
        """Bytes received and not yet read."""
        return self._port.in_waiting

    def read(self, size: int = 1) -> bytes:
        """Read from the port, recording what came."""
        data = self._port.read(size)
        self._log("board", data)
        return data

    def write(self, data: bytes, /) -> int | None:
        """Send to the port, recording what went."""
        self._log("host", data)
        return self._port.write(data)

    def close(self) -> None:
        """Close the port (the recording file stays open for the next connection)."""
        self._port.close()


def recording_opener(opener: Callable[[], SerialPort], out: TextIO) -> Callable[[], SerialPort]:
    """An opener whose ports record to ``out`` (one file across reconnects)."""
    start = time.monotonic()
    return lambda: RecordingPort(opener(), out, start)


def load_recording(path: Path) -> list[tuple[float, str, bytes]]:
    """The chunks of a recording as (ms, "host" | "board", bytes); BoardError if unreadable."""
    chunks = []
    try:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            try:
                entry = json.loads(line)
                chunks.append((float(entry["ms"]), str(entry["from"]), bytes.fromhex(entry["hex"])))
            except (ValueError, KeyError, TypeError):
                raise BoardError(f"{path}:{number}: not a board recording line") from None
    except OSError as error:
        raise BoardError(f"cannot read recording {path}: {error.strerror}") from None
    return chunks


class ReplayPort:
    """Plays the board's side of a recording to a host, ignoring what the host sends."""

    def __init__(self, chunks: list[tuple[float, str, bytes]]) -> None:
        self._pending = bytearray(b"".join(data for _, source, data in chunks if source == "board"))
        self.written = bytearray()

    @property
    def in_waiting(self) -> int:
        """Bytes of the recording not yet read."""
        return len(self._pending)

    def read(self, size: int = 1) -> bytes:
        """The next recorded bytes (none once the recording is played out)."""
        if not self._pending:
            time.sleep(0.01)  # like a read timeout on a quiet line
        data = bytes(self._pending[:size])
        del self._pending[:size]
        return data

    def write(self, data: bytes, /) -> int:
        """Accept (and keep) what the host sends."""
        self.written += data
        return len(data)

    def close(self) -> None:
        """Nothing to release."""
