"""``conductor demo express``: a seeded bots' hand refereed from the table, through the rendered
camera when its tables fit the marked area and read for sure, straight to the referee if not."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from transcripts import moves_in

from host.camera_feed import CameraFeed
from host.cli import build_parser, main
from host.context import AppContext
from host.express.observation import ExpressObservation
from host.journal import Journal
from host.session import Session
from host.table_loop import TableLoop
from host.table_runner import watch_scenes
from host.tables.express import GAME, camera_pipeline, demo_table, open_referee
from vision.express_scene import express_layout


def test_the_camera_sees_the_turns_the_hand_played(tmp_path: Path) -> None:
    """The first tables of a seeded hand, rendered, read by the recognizer and judged with the
    seats' buttons: every turn is recognised, none called illegal, the referee where the
    tables fed straight leave it."""
    seed = 1
    game = demo_table(seed=seed, players=2)
    assert game.unseen is None, game.unseen
    scenes = game.scenes[:7]
    expected = open_referee(game.lines[0])
    moves = moves_in(scenes, expected.feed)
    assert moves >= 5
    out = io.StringIO()
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = AppContext(out=out, journal=journal, camera="rendered", board="none")
        session = Session.start("express", game.lines[0], open_referee, journal, {})
        loop = TableLoop(session, app, "Express", "express")
        feed = CameraFeed(camera_pipeline(2))
        watch_scenes(GAME, game, scenes, feed, loop, seed=seed)
        said = out.getvalue()
        assert "illegal" not in said, said
        assert session.turns == moves, said
        assert session.referee.table == expected.table
        assert session.referee.turn_indicator() == expected.turn_indicator()


@pytest.mark.parametrize(("seed", "players"), [(4, 3), (1, 2)])
def test_every_demo_table_lays_out_or_says_why_not(seed: int, players: int) -> None:
    game = demo_table(seed, players)
    for scene in game.scenes:
        assert isinstance(scene.view, ExpressObservation)
        assert scene.view.hands is None and scene.view.discards is None  # the camera counts none
    if game.unseen is None:
        for scene in game.scenes:
            assert isinstance(scene.view, ExpressObservation)
            express_layout(scene.view, seed)
    else:
        assert "outgrows" in game.unseen


def test_a_hand_the_camera_cannot_show_goes_straight_to_the_referee_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "journal.sqlite")
    argv = ["demo", "express", "--seed", "4", "--players", "3", "--board", "none", "--db", db]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("The rendered camera cannot show seed 4: table 16 outgrows ")
    assert lines[1].startswith("Express: 3 seats, seed 4")
    assert not [line for line in lines if line.startswith("illegal")]
    assert any("the hand is over after" in line for line in lines)
    # The journal holds the whole hand: resuming it finds nothing left to play.
    assert main(["resume", "1", "--db", db, "--board", "none"]) == 0
    resumed = capsys.readouterr().out.splitlines()
    assert any(line.startswith("Resuming game 1 after ") for line in resumed)
    assert not [line for line in resumed if line.startswith(("illegal", "The referee did not"))]


def test_seen_without_hand_counts_a_seat_goes_out_by_its_button() -> None:
    """Seed 8's bots' hand ends with seat 1 going out: the camera cannot see its empty hand,
    so its button after its last turn ends the hand. Earlier, the button of the seat that just
    played, its trains not allowing it to go out, changes nothing."""
    game = demo_table(seed=8, players=2)
    referee = open_referee(game.lines[0])
    lines = [line for scene in game.scenes[1:] for line in (scene.view.to_json(), *scene.events)]
    assert lines[-1] == {"event": "button", "seat": 1}
    early = 0
    for line in lines[:-1]:
        verdict = referee.feed(line)
        assert verdict.verdict in ("move", "waiting"), verdict
        if verdict.verdict == "move" and early < 3:
            early += 1
            played = verdict.seat
            assert referee.feed({"event": "button", "seat": played}).to_json() == {
                "verdict": "waiting", "seat": referee.current}
    assert early == 3 and not referee.over
    out = referee.feed(lines[-1])
    assert out.verdict == "win" and out.move["text"] == "seat 1 went out"
    assert referee.turn_indicator().over and not referee.turn_indicator().winners


def test_the_default_demo_is_one_the_camera_can_show() -> None:
    """`conductor demo express` with no --players plays as many seats as its table shows the
    camera: the default seed's hand is rendered, not told straight to the referee."""
    args = build_parser().parse_args(["demo", "express"])
    assert args.players is None  # so the descriptor's demo_seats are played
    assert demo_table(seed=args.seed, players=GAME.demo_seats).unseen is None
    assert demo_table(seed=args.seed, players=3).unseen is not None
