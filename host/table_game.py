"""A game as the app plays it at a table: one small descriptor per game (``TableGame``).

The app runs ``demo``, ``play``, ``resume``, ``referee`` and ``score`` for any game from its
descriptor (``host.table_runner``): how to open its referee, how the camera reads its table,
its inputs besides the camera, where its demo comes from and how it is told in words. The
descriptors themselves live in ``host.tables``; ``host.games`` names them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TextIO, TypeVar

from host.board.events import ButtonPress
from host.errors import BadInputError
from host.referee import TableReferee

if TYPE_CHECKING:  # the recognizer (OpenCV) loads only for a game played through the camera
    from vision.calibration import EmptyTable
    from vision.camera import TableObservation
    from vision.deck_references import DeckReferences
    from vision.pipeline import Pipeline

R = TypeVar("R", bound=TableReferee)

PHOTO_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")
"""A score file with one of these is a photo of the final count."""


@dataclass(frozen=True)
class WebInputs:
    """What players enter on the web view that the camera cannot see (a move on a board no
    camera reads, a Derailment's target): the page offers what ``offers`` lists, and a player's
    entry comes back as ``{"input": name, "value": ...}`` to become a referee line."""

    offers: Callable[[Any, bool], list[dict[str, Any]]]
    """What the page offers now, for the game's referee (and True when dice are rolled by hand:
    there is no board): each offer ``{"name", "label"}`` with ``choices`` (buttons, each
    ``{"label", "value"}``) or ``taps`` (cells tapped on the drawn table, and the ``cards`` the
    player picks from; ``takes``: a card named too)."""
    line: Callable[[str, Any], dict[str, Any]]
    """The referee line for an entry (the offer's ``name`` and the ``value`` entered); a
    BadInputError for an entry no offer makes."""


@dataclass(frozen=True)
class GameInputs:
    """A game's own inputs besides the camera: typed lines and board events that become lines
    for its referee (dice rolled, a seat saying its turn is done)."""

    typed: Callable[[str], dict[str, Any] | None]
    """A line for the referee from what a player typed, or None if it is not one."""
    button: Callable[[ButtonPress], dict[str, Any] | None]
    """A line for the referee from a short press of a seat button, or None (then: recheck)."""
    help: str
    """The typed commands, for the terminal's help line."""
    is_event: Callable[[Mapping[str, Any]], bool]
    """True for an input line that is a board event (dice, a button), not an observation."""
    tell: Callable[[Mapping[str, Any]], str | None] = lambda line: None
    """What the terminal says when the demo feeds an event line (None: nothing)."""
    typed_dice: str = ""
    """How a roll of the dice is typed, told when dice are due and no board rolls them."""
    rolled: Callable[[Sequence[str]], dict[str, Any]] = lambda faces: {"dice": list(faces)}
    """The referee line for the faces the board's roll button rolled."""
    web: WebInputs | None = None
    """What players enter on the web view (None: only undo and accept)."""


@dataclass(frozen=True)
class Scene:
    """One table the camera shows, and the board events that follow it."""

    view: TableObservation
    """What the camera sees."""
    events: tuple[dict[str, Any], ...] = ()
    """Dice, passes and button presses, in order, once the table shows ``view``."""


@dataclass(frozen=True)
class DemoTable:
    """A seeded game played by bots, standing in for a real table."""

    lines: list[dict[str, Any]]
    """The game's record: the opening line, then observations and board events in order (what
    the referee gets with ``--camera none``)."""
    scenes: list[Scene]
    """The same game as the rendered camera shows it, starting with the opening table."""
    note: str | None = None
    """A line told after the opening (how the demo stands in for the players)."""
    unseen: str | None = None
    """Why the rendered camera cannot show this game (None: it can; the game is then fed
    straight to the referee with ``--camera none`` only)."""
    still_frames: int = 12
    """Rendered frames each table stands still."""
    hand_frames: int = 6
    """Rendered frames a hand passes over the table between two tables."""


def seats_between(title: str, fewest: int, most: int) -> Callable[[int, int], None]:
    """A ``check_seats`` for a game for ``fewest`` to ``most`` players."""

    def check(players: int, first: int) -> None:
        if not fewest <= players <= most:
            raise BadInputError(f"{title} is for {fewest} to {most} players, not {players}")
        if not 0 <= first < players:
            raise BadInputError(f"the first seat is one from 0 to {players - 1}, not {first}")

    return check


def opening_seats(opening: Mapping[str, Any], check_seats: Callable[[int, int], None]
                  ) -> tuple[int, int]:
    """The seat count and first seat an opening line gives (``first`` 0 unless it says)."""
    seats, first = opening.get("seats"), opening.get("first", 0)
    if not isinstance(seats, int) or isinstance(seats, bool) or not isinstance(first, int):
        raise BadInputError('the first line needs "seats" (a number) and "first" (a seat)')
    check_seats(seats, first)
    return seats, first


Score = Callable[[Path, bool, TextIO, "int | None", "DeckReferences | None",
                  "EmptyTable | None"], int]
"""Scores an end-of-game table file (``path``, ``as_json``, ``out``, ``players``, the
references a photo's cards are read with: None for Conductor's own faces, and the calibrated
empty table they are read with: None for none)."""


@dataclass(frozen=True)
class TableGame(Generic[R]):
    """Everything the app needs to play, demonstrate, resume, judge and score one game."""

    name: str
    """The game's name on the command line, in files and in the journal."""
    title: str
    """What people call it."""
    check_seats: Callable[[int, int], None]
    """BadInputError unless the game can be played by so many seats with this first seat."""
    open_referee: Callable[[dict[str, Any]], R]
    """Opens the game's referee on its opening line."""
    referee_file: Callable[[Path, TextIO], int]
    """``conductor referee``: judge a recorded file, one verdict per line."""
    pipeline: Callable[[int, DeckReferences | None], Pipeline] | None = None
    """The recognizer reading this game's table for so many players, with the players' own
    enrolled deck's references (None: Conductor's faces) (no pipeline: no camera yet)."""
    inputs: GameInputs | None = None
    """Inputs besides the camera (None: the camera alone)."""
    dice: str | None = None
    """The kind of dice the board's roll button rolls for it (None: it rolls none)."""
    demo: Callable[[int, int], DemoTable] | None = None
    """The seeded demo game (``seed``, ``players``) played through the table runner."""
    transcript: Callable[[int, int, TextIO, Callable[[], None]], int] | None = None
    """For a game with no table yet: a demo told in words (``seed``, ``players``, ``out``,
    and ``pause``, called after each turn)."""
    score: Score | None = None
    """``conductor score``, if the game is scored from a file."""
    photo_scoring: bool = False
    """Whether ``score`` takes a photo (and ``--players``)."""
    show: Callable[[R], Sequence[str]] = lambda referee: ()
    """The committed table in words, for the terminal."""
    ending: Callable[[R, int], Sequence[str]] = lambda referee, turns: ()
    """The end of the game in words (``turns``: how many were played)."""
    draw: Callable[[R], dict[str, Any]] | None = None
    """The committed table for the web view, if the game draws one."""
    turn_word: str = "turns"
    """What a turn is called in the terminal's lines (``moves`` in The Game of Trains)."""
    demo_seats: int = 3
    """The demo's players when none are asked for: as many as its table shows to the camera."""

    @property
    def played_on_web(self) -> bool:
        """True for a game no camera reads whose moves players enter on the web view."""
        return self.pipeline is None and self.inputs is not None and self.inputs.web is not None
