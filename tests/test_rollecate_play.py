"""``conductor play rollecate``: a build seen by the camera arms the board's roll button; a
player's press rolls the dice on the board and the referee takes them."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest

from host.board import BoardLink, SimulatedBoard
from host.board.events import ButtonPress, DiceRoll
from host.board.lights import BoardLights
from host.board.pictures import picture_for
from host.cli import main
from host.context import AppContext
from host.journal import Journal
from host.rollecate.observation import is_event
from host.rollecate.referee import open_referee
from host.session import Session
from host.table_loop import BoardInput, PlayerControl, TableLoop, TableSeen
from host.table_runner import play_at_table, resume
from host.tables.rollecate import GAME, demo_table, typed_line
from host.turns import TurnIndicator
from vision.camera import CameraFrame, RenderedCamera, camera_opener

SEED = 3  # seat 0 builds a 4 in the first turn: four dice


def test_a_build_arms_the_roll_button_and_the_boards_dice_go_to_the_referee(
    tmp_path: Path,
) -> None:
    scenes = demo_table(SEED, 2).scenes[:2]  # the set-up, then the build
    frames = list(RenderedCamera([scene.view for scene in scenes], seed=SEED))
    out = io.StringIO()
    journal = Journal(tmp_path / "games.sqlite")
    app = AppContext(out=out, journal=journal, camera="table.avi", board="sim")
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link:
        lights = BoardLights(link)

        def table_with_a_player() -> Iterator[CameraFrame]:
            yield from frames
            # The build stands; a player presses the roll button once the referee asks.
            last, pressed, now = frames[-1], None, frames[-1].timestamp
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                now += 1 / 15
                yield CameraFrame(now, last.image, last.shown)
                time.sleep(0.02)
                if pressed is None and "press the board's roll button" in out.getvalue():
                    sim.press("roll", 150)
                    pressed = time.monotonic()
                if pressed is not None and time.monotonic() - pressed > 3:
                    return

        assert play_at_table(GAME, 2, 0, app, lambda: table_with_a_player(), lights) == 0
        lights.close()
    said = out.getvalue()
    game_id = journal.games()[-1].id
    dice = [line for line in journal.standing_inputs(game_id) if "dice" in line]
    assert len(dice) == 1 and len(dice[0]["dice"]) == 4, said
    assert set(dice[0]["dice"]) <= {"wheel", "blank"}
    # The referee took them: it now says where the train goes (or that she stays).
    assert "roll 4 dice" in said and ("Rollecate" in said.split("press the board's")[-1]
                                      or "no wheels" in said), said


@pytest.mark.parametrize(
    ("typed", "line"),
    [
        ("roll w b w", {"dice": ["wheel", "blank", "wheel"]}),
        ("dice wheel, blank", {"dice": ["wheel", "blank"]}),
        ("pass", {"pass": True}),
        ("done", {"done": True}),
        ("roll x", None),
        ("roll", None),
        ("hello", None),
    ],
)
def test_dice_rolled_by_hand_are_typed(typed: str, line: dict[str, object] | None) -> None:
    assert typed_line(typed) == line


def test_a_table_game_cut_off_before_its_dice_resumes_asking_for_them(tmp_path: Path) -> None:
    scenes = demo_table(SEED, 2).scenes[:2]  # the set-up, then the build
    camera = RenderedCamera([scene.view for scene in scenes], seed=SEED)
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), camera.fps, (1280, 720))
    for frame in camera:
        writer.write(frame.image)
    writer.release()
    db = tmp_path / "games.sqlite"
    out = io.StringIO()
    with Journal(db) as journal:
        app = AppContext(out=out, journal=journal, camera=str(video), board="none")
        # The game is played until the build stands; then the app is gone (the video ends).
        assert play_at_table(GAME, 2, 0, app, camera_opener(str(video)), None) == 0
        game_id = journal.games()[-1].id
    assert "roll 4 dice" in out.getvalue() and "type the dice" in out.getvalue()
    again = io.StringIO()
    with Journal(db) as journal:
        app = AppContext(out=again, journal=journal, camera=str(video), board="none")
        assert resume(GAME, game_id, app) == 0
    said = again.getvalue()
    assert f"Resuming game {game_id} after 0 turns" in said
    assert "type the dice" in said.split("Resuming")[1], said  # the build's dice are still due


def test_a_demo_game_is_resumed_as_a_demo_not_at_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "rollecate", "--seed", "2", "--camera", "none", "--board", "none"]) == 0
    ending = capsys.readouterr().out.splitlines()[-1]
    assert main(["resume", "1"]) == 0  # over already: the same count again
    assert capsys.readouterr().out.splitlines()[-1] == ending
    assert main(["resume", "1", "--camera", "0"]) == 2
    assert "--camera is rendered or none" in capsys.readouterr().err


class BoardNow:
    """The board's LEDs and roll button driven straight through the link: each call returns once
    the board has answered, so the test knows what the roll button holds when it presses it."""

    def __init__(self, link: BoardLink) -> None:
        self.link = link
        self.armed: list[int] = []

    def show_turn(self, turn: TurnIndicator) -> None:
        self.link.show(picture_for(turn))

    def arm_dice(self, kind: str, count: int) -> None:
        self.link.arm(kind, count)
        self.armed.append(count)


def rolled_on_press(sim: SimulatedBoard, link: BoardLink) -> int | None:
    """Press the board's roll button: how many dice it rolled (None: it rolled none)."""
    sim.press("roll", 150)
    pressed_at = None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        event = link.next_event(timeout=0.2)
        if isinstance(event, DiceRoll):
            return len(event.faces)
        if isinstance(event, ButtonPress) and event.button == "roll":
            pressed_at = time.monotonic()
        if pressed_at is not None and time.monotonic() - pressed_at > 1.5:
            return None  # the board sends a button's roll with its press: none is coming
    raise AssertionError("the board never reported the press")


def test_an_undo_disarms_the_roll_button_the_undone_turn_had_armed(tmp_path: Path) -> None:
    """Seat 0's turn is complete, seat 1's build wants three dice and arms the button; the
    players take back seat 0's turn: no dice are due, so the button must roll nothing."""
    lines = demo_table(SEED, 2).lines
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link, \
            Journal(tmp_path / "games.sqlite") as journal:
        board = BoardNow(link)
        app = AppContext(out=io.StringIO(), journal=journal, board="sim")
        session = Session.start("rollecate", lines[0], open_referee, journal, {"mode": "table"})
        loop = TableLoop(session, app, "Rollecate", "rollecate", lights=board, dice="wheel")
        for now, line in enumerate(lines[1:5], start=1):
            loop.handle(BoardInput(line) if is_event(line) else TableSeen(line), float(now))
        assert session.turns == 1 and session.referee.dice_wanted == 3
        assert board.armed[-1] == 3
        assert rolled_on_press(sim, link) == 3
        loop.handle(PlayerControl("undo"), 5.0)
        assert session.turns == 0 and session.referee.dice_wanted == 0
        assert board.armed[-1] == 0
        assert rolled_on_press(sim, link) is None
