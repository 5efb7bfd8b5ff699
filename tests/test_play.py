"""``conductor play`` at a table: a video file played to the win, and a session that survives
the camera dropping out and the board process being killed."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest

from host.board import BoardLink, SimulatedBoard
from host.board.lights import BoardLights
from host.camera_feed import CameraFeed
from host.context import AppContext
from host.journal import Journal
from host.play import play_table
from host.session import Session
from host.table_loop import TableLoop
from host.tables.trains import demo_table
from host.trains.observation import TrainsObservation
from host.trains.referee import open_referee
from vision.camera import CameraFrame, RenderedCamera
from vision.pipeline import Pipeline
from vision.trains_zones import TrainsZones

ROOT = Path(__file__).resolve().parent.parent
SEED, PLAYERS = 26, 2  # a short seeded 2-seat game: 10 moves


def rendered_game() -> tuple[list[dict[str, object]], RenderedCamera]:
    tables = demo_table(SEED, PLAYERS).lines
    camera = RenderedCamera([TrainsObservation.from_json(t) for t in tables], seed=SEED)
    return tables, camera


def write_video(path: Path, camera: RenderedCamera) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), camera.fps, (1280, 720))
    for frame in camera:
        writer.write(frame.image)
    writer.release()
    return path


def test_play_follows_a_video_file_to_the_win(tmp_path: Path) -> None:
    tables, camera = rendered_game()
    video = write_video(tmp_path / "table.avi", camera)
    first = str(tables[0]["first"])
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "host",
            "play",
            "trains",
            "--players",
            "2",
            "--first",
            first,
            "--camera",
            str(video),
            "--board",
            "none",
            "--db",
            str(tmp_path / "games.sqlite"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].endswith("wins after 10 moves.")


def test_a_table_game_stopped_half_way_is_resumed_from_the_journal(tmp_path: Path) -> None:
    tables = demo_table(SEED, PLAYERS).lines
    observed = [TrainsObservation.from_json(t) for t in tables]
    first_half = write_video(tmp_path / "a.avi", RenderedCamera(observed[:6], seed=SEED))
    second_half = write_video(tmp_path / "b.avi", RenderedCamera(observed[5:], seed=SEED))
    db = str(tmp_path / "games.sqlite")
    run = [sys.executable, "-m", "host"]
    common = ["--board", "none", "--db", db]
    stopped = subprocess.run(
        [
            *run,
            "play",
            "trains",
            "--players",
            "2",
            "--first",
            str(tables[0]["first"]),
            "--camera",
            str(first_half),
            *common,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    assert stopped.stdout.splitlines()[-1].startswith("Stopped after 5 moves")
    resumed = subprocess.run(
        [*run, "resume", "1", "--camera", str(second_half), *common],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    assert resumed.stdout.splitlines()[0].startswith("Resuming game 1 after 5 moves")
    assert resumed.stdout.splitlines()[-1].endswith("wins after 10 moves.")


def test_play_with_a_missing_camera_is_a_one_line_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "host",
            "play",
            "trains",
            "--players",
            "2",
            "--camera",
            str(tmp_path / "nothing.mp4"),
            "--board",
            "none",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "no camera or video file" in result.stderr


@pytest.mark.skipif(shutil.which("micropython") is None, reason="micropython not installed")
def test_a_session_survives_a_camera_dropout_and_the_board_being_killed(tmp_path: Path) -> None:
    tables, camera = rendered_game()
    out = io.StringIO()
    journal = Journal(tmp_path / "games.sqlite")
    app = AppContext(out=out, journal=journal, board="sim")
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link:
        lights = BoardLights(link)

        def troubled_camera() -> Iterator[CameraFrame]:
            for index, frame in enumerate(camera):
                if index == 60:
                    time.sleep(2.6)  # the camera hangs: refereeing pauses, then resumes
                if index == 110:
                    sim.kill()  # the board's process dies mid-game and comes back
                    sim.start()
                yield frame

        def session_for(table: dict[str, object]) -> Session[object]:  # type: ignore[type-var]
            opening = {"seats": PLAYERS, "first": tables[0]["first"], **table}
            return Session.start("trains", opening, open_referee, journal, {"mode": "table"})

        loop = play_table(
            session_for=session_for,  # type: ignore[arg-type]
            make_loop=lambda session: TableLoop(session, app, "trains", "trains", lights=lights),
            opener=troubled_camera,
            feed=CameraFeed(Pipeline(zones=TrainsZones(PLAYERS))),
            app=app,
            lights=lights,
            live=False,
        )
        assert loop is not None and loop.over, out.getvalue()
        winner = loop.session.referee.game.position.winner
        assert "camera lost (no frame for 2 s)" in out.getvalue()
        assert "camera back" in out.getvalue()
        assert loop.session.turns == len(tables) - 1

        def shows_the_winner(pixels: list[tuple[int, int, int]]) -> bool:
            arc = pixels[winner * 4 : winner * 4 + 4]
            others = [
                sum(map(sum, pixels[s * 4 : s * 4 + 4])) for s in range(PLAYERS) if s != winner
            ]
            return (
                len(set(arc)) == 1 and sum(arc[0]) > 0 and all(sum(arc[0]) * 4 > o for o in others)
            )

        sim.wait_for_leds(shows_the_winner, timeout=15)
        assert link.reconnects >= 1
        lights.close()
