"""``conductor play``: the app at a real table.

Threads feed one queue (see ``host.table_loop``): the camera thread turns frames into settled
tables, the web view and the terminal send the players' controls, the board sends its button
presses. The main thread runs the loop, so nothing the camera, the board or the network does
can hold up the game. A camera that stops sending frames pauses refereeing until it is back.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from host.board.events import ButtonPress, DiceRoll
from host.board.lights import BoardLights
from host.camera_feed import CameraFeed
from host.context import AppContext
from host.errors import BadInputError
from host.session import Session
from host.table_game import GameInputs
from host.table_loop import (
    BoardInput,
    CameraBack,
    CameraLost,
    Event,
    PlayerControl,
    Stop,
    TableLoop,
    TableSeen,
    WebEntry,
    ctrl_c_heard,
)
from vision.camera import CameraFrame

CAMERA_SILENCE_SECONDS = 2.0
"""No frame for this long means the camera is gone (unplugged, covered lens driver hang)."""
CAMERA_RETRY_SECONDS = 2.0
"""How often a lost live camera is looked for again."""
TERMINAL_COMMANDS = {
    "u": "undo",
    "undo": "undo",
    "a": "accept",
    "accept": "accept",
    "r": "recheck",
    "recheck": "recheck",
}


@dataclass(frozen=True)
class VideoEnded(Stop):
    """The video file ended (a Stop the players did not ask for)."""


def camera_thread(
    opener: Callable[[], Iterable[CameraFrame]],
    feed: CameraFeed,
    events: queue.Queue[Event],
    live: bool,
    stopping: threading.Event,
) -> threading.Thread:
    """Read frames into ``events``: settled tables, and the camera lost or back. A video file
    ends the job when it ends; a live camera is looked for again until the job stops."""

    def run() -> None:
        lost = False
        while not stopping.is_set():
            try:
                for frame in _watched(opener(), events, stopping):
                    if lost:
                        events.put(CameraBack())
                        lost = False
                    seen = feed.read(frame)
                    if seen is not None:
                        events.put(seen)
            except BadInputError as error:
                if not lost:
                    events.put(CameraLost(str(error)))
                    lost = True
            if not live:
                events.put(VideoEnded())
                return
            if not lost:
                events.put(CameraLost("the camera stopped sending frames"))
                lost = True
            stopping.wait(CAMERA_RETRY_SECONDS)

    thread = threading.Thread(target=run, name="camera", daemon=True)
    thread.start()
    return thread


def _watched(
    frames: Iterable[CameraFrame], events: queue.Queue[Event], stopping: threading.Event
) -> Iterator[CameraFrame]:
    """The frames, with a CameraLost put on the queue whenever one is late, and CameraBack
    when frames come again (a camera that hangs does not always end its stream)."""
    late = threading.Event()
    arrived = threading.Event()

    def watchdog() -> None:
        while not stopping.is_set() and not done.is_set():
            silent = not arrived.wait(CAMERA_SILENCE_SECONDS)
            if silent and not late.is_set() and not done.is_set():
                late.set()
                events.put(CameraLost(f"no frame for {CAMERA_SILENCE_SECONDS:.0f} s"))
            arrived.clear()

    done = threading.Event()
    threading.Thread(target=watchdog, name="camera-watchdog", daemon=True).start()
    try:
        for frame in frames:
            arrived.set()
            if late.is_set():
                late.clear()
                events.put(CameraBack())
            yield frame
            if stopping.is_set():
                return
    finally:
        done.set()


def control_threads(
    app: AppContext,
    lights: BoardLights | None,
    events: queue.Queue[Event],
    stopping: threading.Event,
    terminal: TextIO | None,
    inputs: GameInputs | None = None,
) -> None:
    """Start the threads that turn the players' controls into events: the web view's buttons
    and entries, the terminal's commands and the board's buttons (a seat's short press: the
    game's input, or check the table again; long press: take back the last turn; the roll
    button: the dice it rolled, for a game with ``inputs``)."""

    def web() -> None:
        assert app.web is not None
        while not stopping.is_set():
            try:
                asked = app.web.commands.get(timeout=0.5)
            except queue.Empty:
                continue
            if isinstance(asked, str):
                events.put(PlayerControl(asked, origin="web view"))
            else:
                events.put(WebEntry(str(asked["input"]), asked.get("value")))

    def typed() -> None:
        assert terminal is not None
        for line in terminal:
            command = TERMINAL_COMMANDS.get(line.strip().lower())
            if line.strip().lower() in ("q", "quit"):
                events.put(Stop())
                return
            line_for_referee = inputs.typed(line.strip()) if inputs is not None else None
            if command is not None:
                events.put(PlayerControl(command))
            elif line_for_referee is not None:
                events.put(BoardInput(line_for_referee))
            else:
                extra = f", {inputs.help}" if inputs is not None else ""
                app.say(
                    f"commands: u (undo the last turn), a (accept the table), r (recheck){extra}, q"
                )

    def buttons() -> None:
        assert lights is not None
        while not stopping.is_set():
            event = lights.link.next_event(timeout=0.5)
            if isinstance(event, DiceRoll) and inputs is not None:
                events.put(BoardInput(inputs.rolled([str(face) for face in event.faces])))
            elif isinstance(event, ButtonPress) and event.seat is not None:
                line = inputs.button(event) if inputs is not None and not event.long else None
                if line is not None:
                    events.put(BoardInput(line))
                else:
                    command = "undo" if event.long else "recheck"
                    events.put(PlayerControl(command, origin=f"seat {event.seat}'s button"))

    for target, wanted in (
        (web, app.web is not None),
        (typed, terminal is not None),
        (buttons, lights is not None),
    ):
        if wanted:
            threading.Thread(target=target, name=target.__name__, daemon=True).start()


def play_table(
    *,
    session_for: Callable[[dict[str, Any]], Session[Any]] | None,
    make_loop: Callable[[Session[Any]], TableLoop],
    opener: Callable[[], Iterable[CameraFrame]],
    feed: CameraFeed,
    app: AppContext,
    lights: BoardLights | None,
    live: bool,
    terminal: TextIO | None = None,
    resumed: Session[Any] | None = None,
    inputs: GameInputs | None = None,
) -> TableLoop | None:
    """Watch the table until the game is won, the video ends or the players quit. The first
    settled table starts the game (``session_for`` turns it into a journaled session), unless
    a ``resumed`` game goes on from its journal."""
    events: queue.Queue[Event] = queue.Queue()
    stopping = threading.Event()
    camera = camera_thread(opener, feed, events, live, stopping)
    control_threads(app, lights, events, stopping, terminal, inputs)
    loop = None if resumed is None else make_loop(resumed)
    if loop is None:
        app.say("waiting for the camera to see the table as dealt…")
    try:
        with ctrl_c_heard() as ctrl_c:
            while loop is None:
                ctrl_c.check()
                try:
                    event = events.get(timeout=0.1)
                except queue.Empty:
                    continue
                if isinstance(event, Stop):
                    if isinstance(event, VideoEnded):
                        raise BadInputError(
                            "the video ended before it showed a whole table: no game was started"
                        )
                    return None
                if isinstance(event, CameraLost):
                    app.say(f"camera lost ({event.reason})")
                if isinstance(event, TableSeen) and session_for is not None:
                    loop = make_loop(session_for(event.observation))
        loop.run(events)
        return loop
    finally:
        # Let the camera thread close the capture itself: a thread killed inside OpenCV's
        # read at interpreter exit aborts the process.
        stopping.set()
        camera.join(timeout=10)


def terminal_input() -> TextIO | None:
    """The terminal to read commands from, when there is one."""
    return sys.stdin if sys.stdin is not None and sys.stdin.isatty() else None
