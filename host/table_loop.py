"""The app's one loop: everything that happens at the table arrives as an event, in order.

Producers (the camera thread, the board link, the web view, the terminal) put events on one
queue; the loop takes them one at a time and never waits on any producer, so a camera that
stalls or a board that is unplugged never freezes the game. Like a chess board that waits for
the pieces to settle, an illegal table is only called out after it has stood for a moment: a
player may still be putting things right.
"""

from __future__ import annotations

import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from types import FrameType
from typing import Any, Protocol

from host.context import AppContext
from host.errors import BadInputError
from host.session import Session
from host.table_game import WebInputs
from host.turns import TurnIndicator
from host.web.snapshot import GameLog, snapshot

COMPLAIN_AFTER_SECONDS = 2.0
"""How long an illegal table must stand before the referee flashes the alert and says why."""


@dataclass(frozen=True)
class TableSeen:
    """The recognizer saw the table settle in a new state."""

    observation: dict[str, Any]
    """The observation, in the game's public format."""


@dataclass(frozen=True)
class CameraLost:
    """No frames are coming: refereeing pauses."""

    reason: str
    """What went wrong, in words for the players."""


@dataclass(frozen=True)
class CameraBack:
    """Frames are coming again."""


@dataclass(frozen=True)
class PlayerControl:
    """A player asked for something: from the web view, the terminal or a seat button."""

    command: str
    """``undo`` (take back the last turn), ``accept`` (the table as it is) or ``recheck``."""
    origin: str = "terminal"
    """Where it came from, for the log."""


@dataclass(frozen=True)
class BoardInput:
    """A line for the referee from the board (dice rolled), already in the game's format."""

    data: dict[str, Any]
    """The input line, e.g. ``{"dice": ["wheel", "blank"]}``."""


@dataclass(frozen=True)
class WebEntry:
    """A player entered something on the web view (``host.table_game.WebInputs``)."""

    name: str
    """The offer it answers."""
    value: Any
    """What was entered."""


@dataclass(frozen=True)
class Stop:
    """The job is over (the camera's video ended, or the user quit)."""


Event = TableSeen | CameraLost | CameraBack | PlayerControl | BoardInput | WebEntry | Stop


class CtrlC:
    """Ctrl-C while the table is watched, noted by the handler and acted on by the loop between
    two events. Python's own handler raises KeyboardInterrupt wherever the main thread is; when
    that is inside a finalizer or a weakref callback (the import machinery's module locks have
    one) the exception is printed as ignored and the Ctrl-C is lost: the game went on waiting
    for its players. A second Ctrl-C raises at once, for a loop held up inside one event."""

    def __init__(self) -> None:
        self.heard = False

    def hear(self, signum: int, frame: FrameType | None) -> None:
        """The SIGINT handler."""
        if self.heard:
            raise KeyboardInterrupt
        self.heard = True

    def check(self) -> None:
        """KeyboardInterrupt, raised in the loop's own code, once Ctrl-C was heard."""
        if self.heard:
            raise KeyboardInterrupt


@contextmanager
def ctrl_c_heard() -> Iterator[CtrlC]:
    """SIGINT noted by a ``CtrlC`` while the block runs (in the main thread, the one signals
    reach, unless SIGINT is ignored: a job started in the background stays deaf to it)."""
    ctrl_c = CtrlC()
    before = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or before == signal.SIG_IGN:
        yield ctrl_c
        return
    signal.signal(signal.SIGINT, ctrl_c.hear)
    try:
        yield ctrl_c
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler if before is None else before)


class Lights(Protocol):
    """The seat LEDs (the board link, or nothing when there is no board)."""

    def show_turn(self, turn: TurnIndicator) -> None:
        """Light the seat on turn, the direction, skipped seats, the alert or the winners."""

    def arm_dice(self, kind: str, count: int) -> None:
        """Make the roll button roll ``count`` dice of ``kind`` (0: none)."""


@dataclass
class TableLoop:
    """Judges the table as events arrive and tells everyone: LEDs, terminal, web view."""

    session: Session[Any]
    """The journaled, refereed game (any game's referee)."""
    app: AppContext
    """Terminal, journal and web view."""
    title: str
    """The game's name for people."""
    game: str
    """The game's name in files."""
    lights: Lights | None = None
    """The seat LEDs, if a board is connected."""
    complain_after: float = COMPLAIN_AFTER_SECONDS
    """Seconds an illegal table stands before the alert."""
    table_for_web: Callable[[], dict[str, Any]] | None = None
    """Draws the committed table for the web view (the game's own drawing), if it has one."""
    dice: str | None = None
    """The kind of dice the board's roll button rolls for the game, when the loop keeps it
    armed with the referee's ``dice_wanted`` (None: the loop leaves the button alone)."""
    dice_typed: str = ""
    """How players type a roll by hand, told when dice are due and no board rolls them."""
    web_inputs: WebInputs | None = None
    """What players may enter on the web view, and the lines their entries become."""

    def __post_init__(self) -> None:
        self.log = GameLog()
        self.last_seen: dict[str, Any] | None = None
        self.complaint: tuple[float, str] | None = None
        self.alerting = False
        self.paused: str | None = None
        self.message: tuple[str, str] | None = None
        self.camera = False
        self.armed: int | None = None
        """Dice the roll button was last armed with (None: not yet)."""
        self._announce()
        self._arm(prompt=True)

    @property
    def over(self) -> bool:
        """True once the game is over."""
        return bool(self.session.referee.turn_indicator().over)

    def handle(self, event: Event, now: float) -> None:
        """Take one event into account; ``now`` is the loop's clock (seconds)."""
        if isinstance(event, TableSeen):
            self.camera = True
            self.last_seen = event.observation
            if self.paused is None:
                self._judge(event.observation, now)
        elif isinstance(event, BoardInput):
            self._judge(event.data, now)
        elif isinstance(event, WebEntry):
            self._entry(event, now)
        elif isinstance(event, PlayerControl):
            self._control(event, now)
        elif isinstance(event, CameraLost):
            self.paused = event.reason
            self._say("info", f"camera lost ({event.reason}): refereeing paused")
        elif isinstance(event, CameraBack):
            self.paused = None
            self._say("info", "camera back: refereeing resumes")
            if self.last_seen is not None:
                self._judge(self.last_seen, now)

    def tick(self, now: float) -> None:
        """Time passes: an illegal table that has stood long enough is called out."""
        if self.complaint is not None and not self.alerting:
            since, reason = self.complaint
            if now - since >= self.complain_after:
                self.alerting = True
                self._say("alert", f"illegal: {reason}")

    def run(self, events: queue.Queue[Event], clock: Callable[[], float] = time.monotonic) -> None:
        """Handle events until a Stop arrives or the game is won; Ctrl-C ends it between two
        events (KeyboardInterrupt), so the journal holds every event handled and no other."""
        with ctrl_c_heard() as ctrl_c:
            while not self.over:
                ctrl_c.check()
                try:
                    event = events.get(timeout=0.1)
                except queue.Empty:
                    self.tick(clock())
                    continue
                if isinstance(event, Stop):
                    return
                self.handle(event, clock())
                self.tick(clock())

    def _entry(self, entry: WebEntry, now: float) -> None:
        """A player's entry: judged at once, and an illegal one explained at once (nobody is
        still putting the table right, as with a table the camera sees)."""
        if self.web_inputs is None:
            self._say("alert", "this game takes no entries from the web view")
            return
        try:
            line = self.web_inputs.line(entry.name, entry.value)
        except BadInputError as error:
            self._say("alert", f"that entry cannot be used: {error}")
            return
        self._judge(line, now, told_at_once=True)

    def _judge(self, data: dict[str, Any], now: float, told_at_once: bool = False) -> None:
        try:
            verdict = self.session.feed(data)
        except BadInputError as error:
            where = "that entry" if told_at_once else "the camera's view"
            self._say("alert", f"{where} cannot be used: {error}")
            return
        self._arm(prompt=verdict.verdict == "roll")
        kind = verdict.verdict
        if kind == "illegal" and told_at_once:
            self.log.add(kind, verdict.reason)
            self._say("alert", f"illegal: {verdict.reason}")
            return
        if kind == "illegal":
            if self.complaint is None or self.complaint[1] != verdict.reason:
                self.complaint = (now, verdict.reason)
            return
        self.complaint, self.alerting = None, False
        if verdict.ends_turn:
            text = str(verdict.move.get("text", kind))
            winners = sorted(self.session.referee.turn_indicator().winners)
            if kind == "win" and winners:
                seats = " and ".join(f"seat {seat}" for seat in winners)
                text += f" — {seats} {'WINS' if len(winners) == 1 else 'SHARE THE WIN'}"
            self.log.add(kind, text)
            self._say("info", f"{self.session.turns:3}. {text}")
            self.app.pause()
        elif verdict.pending:
            self._say("info", verdict.pending)
        else:
            self._announce()

    def _arm(self, prompt: bool) -> None:
        """Keep the board's roll button armed with the dice the referee wants now (none after
        the last roll of a build, or after an undo), and ask for them if ``prompt``."""
        if self.dice is None:
            return
        wanted = self.session.referee.dice_wanted
        if self.lights is not None and wanted != self.armed:
            self.lights.arm_dice(self.dice, wanted)
            self.armed = wanted
        if prompt and wanted:
            if self.lights is not None:
                self.app.say("     press the board's roll button")
            elif self.web_inputs is not None:
                self.app.say(f"     enter the roll made by hand on the web view (or type: "
                             f"{self.dice_typed})")
            else:
                self.app.say(f"     type the dice: {self.dice_typed}")

    def _control(self, control: PlayerControl, now: float) -> None:
        if control.command == "undo":
            try:
                self.session.undo()
            except BadInputError as error:
                self._say("alert", str(error))
                return
            self.log.add("undo", f"the last turn was taken back ({control.origin})")
            self.complaint, self.alerting = None, False
            self._say("info", "the last turn was taken back: put the table back as it was")
            self._arm(prompt=True)
        elif control.command == "accept" and self.last_seen is not None:
            self._judge({**self.last_seen, "accepted": True}, now)
        elif control.command == "recheck" and self.last_seen is not None:
            self._judge(self.last_seen, now)

    def _say(self, level: str, text: str) -> None:
        if self.message != (level, text):  # the table shown half-way repeats the instructions
            self.app.say(text)
        self.message = (level, text)
        self._announce()

    def _offers(self) -> list[dict[str, Any]]:
        """What the page offers players to enter now (dice by hand when no board rolls them)."""
        if self.web_inputs is None:
            return []
        return self.web_inputs.offers(self.session.referee, self.lights is None)

    def _announce(self) -> None:
        turn = replace(self.session.referee.turn_indicator(), alert=self.alerting)
        if self.lights is not None:
            self.lights.show_turn(turn)
        if self.app.web is not None:
            table = self.table_for_web() if self.table_for_web is not None else {}
            self.app.show(
                snapshot(
                    game=self.game,
                    title=self.title,
                    turn=turn,
                    table=table,
                    log=self.log,
                    message=self.message,
                    camera=self.camera,
                    inputs=self._offers(),
                )
            )
