"""The app's loop with a fake clock and fake LEDs: when it speaks, what the LEDs show."""

from __future__ import annotations

import io
import itertools
import queue
import signal
from pathlib import Path

import pytest
from terminal_helpers import ctrl_c_as_in_a_terminal

from host.context import AppContext
from host.journal import Journal
from host.session import Session
from host.table_loop import (
    CameraBack,
    CameraLost,
    Event,
    PlayerControl,
    Stop,
    TableLoop,
    TableSeen,
)
from host.trains.referee import open_referee
from host.turns import TurnIndicator

LINES = [[70, 60, 50, 40, 30, 20, 10], [71, 61, 51, 44, 31, 27, 11]]
OPENING = {"seats": 2, "first": 0, "phase": "play", "lines": LINES, "faceup": [], "locks": []}
DRAWN = {"lines": [[2, *LINES[0][1:]], LINES[1]], "faceup": [70], "locks": []}
SHUFFLED = {"lines": [LINES[0], [61, 71, *LINES[1][2:]]], "faceup": [], "locks": []}


class FakeLights:
    def __init__(self) -> None:
        self.shown: list[TurnIndicator] = []

    def show_turn(self, turn: TurnIndicator) -> None:
        self.shown.append(turn)


@pytest.fixture
def loop(tmp_path: Path) -> TableLoop:
    journal = Journal(tmp_path / "games.sqlite")
    app = AppContext(out=io.StringIO(), journal=journal)
    session = Session.start("trains", OPENING, open_referee, journal, {"mode": "table"})
    return TableLoop(session, app, "The Game of Trains", "trains", lights=FakeLights())  # type: ignore[arg-type]


def lights(loop: TableLoop) -> TurnIndicator:
    assert isinstance(loop.lights, FakeLights)
    return loop.lights.shown[-1]


def test_a_legal_turn_lights_the_next_seat(loop: TableLoop) -> None:
    assert lights(loop).on_turn == 0
    loop.handle(TableSeen(DRAWN), now=0.0)
    assert lights(loop).on_turn == 1 and not lights(loop).alert
    assert loop.log.entries[-1]["text"].startswith("seat 0 drew the 2")


def test_an_illegal_table_is_called_out_only_after_it_stood_a_while(loop: TableLoop) -> None:
    loop.handle(TableSeen(SHUFFLED), now=10.0)
    loop.tick(11.0)
    assert not lights(loop).alert
    loop.tick(12.5)
    assert lights(loop).alert and loop.message is not None
    assert loop.message[0] == "alert" and "seat 1's line changed" in loop.message[1]
    loop.handle(TableSeen({"lines": LINES, "faceup": [], "locks": []}), now=13.0)
    assert not lights(loop).alert  # put back as it was: nothing to complain about


def test_a_quick_fix_never_raises_the_alert(loop: TableLoop) -> None:
    loop.handle(TableSeen(SHUFFLED), now=0.0)
    loop.handle(TableSeen(DRAWN), now=1.0)
    loop.tick(5.0)
    assert not lights(loop).alert and lights(loop).on_turn == 1


def test_refereeing_pauses_while_the_camera_is_lost(loop: TableLoop) -> None:
    loop.handle(CameraLost("no frames for 2 s"), now=0.0)
    loop.handle(TableSeen(DRAWN), now=1.0)
    assert lights(loop).on_turn == 0
    loop.handle(CameraBack(), now=2.0)
    assert lights(loop).on_turn == 1


def test_the_players_take_back_a_turn_or_accept_the_table(loop: TableLoop) -> None:
    loop.handle(TableSeen(DRAWN), now=0.0)
    loop.handle(PlayerControl("undo", origin="web"), now=1.0)
    assert lights(loop).on_turn == 0 and loop.session.turns == 0
    loop.handle(TableSeen(SHUFFLED), now=2.0)
    loop.handle(PlayerControl("accept"), now=3.0)
    assert lights(loop).on_turn == 1 and loop.session.turns == 1


def test_run_handles_queued_events_until_stop(loop: TableLoop) -> None:
    events: queue.Queue[Event] = queue.Queue()
    for event in (TableSeen(DRAWN), Stop()):
        events.put(event)
    loop.run(events)
    assert loop.session.turns == 1


def test_ctrl_c_inside_a_finalizer_still_ends_the_loop(loop: TableLoop) -> None:
    """A SIGINT whose handler runs inside a finalizer (as it did inside the import machinery's
    weakref callback, the game then waiting for ever): Python's own KeyboardInterrupt is
    printed as ignored there; the loop hears the Ctrl-C and ends before the Stop comes."""
    events: queue.Queue[Event] = queue.Queue()

    class Finalized:
        def __del__(self) -> None:
            signal.raise_signal(signal.SIGINT)  # the handler runs here, in the finalizer

    ticks = itertools.count()

    def clock() -> float:
        tick = next(ticks)
        if tick == 0:
            Finalized()  # dropped at once
        if tick == 3:
            events.put(Stop())  # a lost Ctrl-C: the loop ends here instead
        return float(tick)

    with ctrl_c_as_in_a_terminal():
        before = signal.getsignal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            loop.run(events, clock=clock)
        assert signal.getsignal(signal.SIGINT) is before
    assert loop.session.turns == 0
