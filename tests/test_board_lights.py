"""The app's seat LEDs on the real firmware: pictures go out in the background, and a board
killed and restarted comes back showing the latest turn."""

from __future__ import annotations

import shutil

import pytest
from test_board_e2e import _shows_turn

from host.board import BoardLink, SimulatedBoard
from host.board.lights import BoardLights
from host.turns import TurnIndicator

pytestmark = pytest.mark.skipif(shutil.which("micropython") is None,
                                reason="micropython not installed")


def test_the_latest_turn_survives_the_board_being_killed() -> None:
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link:
        lights = BoardLights(link)
        try:
            lights.show_turn(TurnIndicator(3, 1))
            sim.wait_for_leds(_shows_turn(1, 3), timeout=10)  # type: ignore[arg-type]
            sim.kill()
            lights.show_turn(TurnIndicator(3, 0))  # the board is away: this must not wait
            lights.show_turn(TurnIndicator(3, 2))
            sim.start()
            sim.wait_for_leds(_shows_turn(2, 3), timeout=15)  # type: ignore[arg-type]
        finally:
            lights.close()
