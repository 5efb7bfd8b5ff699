"""``conductor demo rollecate``: a seeded game refereed from the table, with and without the
rendered camera."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from host.camera_feed import CameraFeed
from host.cli import main
from host.context import AppContext
from host.journal import Journal
from host.rollecate.cards import default_book
from host.rollecate.observation import is_event
from host.rollecate.referee import open_referee
from host.rollecate.scoring import score_table
from host.session import Session
from host.table_loop import BoardInput, TableLoop, TableSeen
from host.table_runner import watch_scenes
from host.tables.rollecate import GAME, demo_table
from vision.pipeline import Pipeline
from vision.rollecate_zones import RollecateZones

GOLDEN = Path(__file__).parent / "fixtures" / "rollecate" / "demo_seed1_3players.txt"


def test_the_seed_1_game_matches_its_golden_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["demo", "rollecate", "--seed", "1", "--players", "3", "--camera", "none"]
    assert main([*argv, "--board", "none"]) == 0
    # If a rule change alters this game on purpose, regenerate the file with the same command.
    assert capsys.readouterr().out == GOLDEN.read_text(encoding="utf-8")


@pytest.mark.parametrize("players", [2, 4])
def test_the_demo_plays_every_player_count_to_a_winner(
    players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["demo", "rollecate", "--seed", "5", "--players", str(players), "--camera", "none"]
    assert main([*argv, "--board", "none"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"Rollecate: {players} seats, seed 5")
    assert not [line for line in lines if line.startswith("illegal")]
    assert sum(line.startswith("seat ") and "points" in line for line in lines) == players
    assert "wins (decided by" in lines[-1] or "share the win" in lines[-1]


def test_the_camera_sees_the_turns_the_game_played(tmp_path: Path) -> None:
    """The first turns of a game, rendered, read by the recognizer (railway order, the train,
    the pile tops) and judged with their dice: every turn is recognised, none called illegal."""
    game = demo_table(seed=3, players=2)
    scenes = game.scenes[:14]
    # The same scenes fed straight to a referee give the turns the camera should find.
    expected = open_referee(game.lines[0])
    moves = 0
    for scene in scenes[1:]:
        for line in (scene.view.to_json(), *scene.events):
            moves += expected.feed(line).verdict == "move"
    assert moves >= 4
    out = io.StringIO()
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = AppContext(out=out, journal=journal, camera="rendered", board="none")
        session = Session.start("rollecate", game.lines[0], open_referee, journal, {})
        loop = TableLoop(session, app, "Rollecate", "rollecate")
        feed = CameraFeed(Pipeline(deck="rollecate", zones=RollecateZones(2)))
        watch_scenes(GAME, game, scenes, feed, loop, seed=3)
        said = out.getvalue()
        assert "illegal" not in said, said
        assert session.turns == moves, said
        assert session.referee.table() == expected.table()


def test_an_impossible_player_count_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "rollecate", "--players", "5"]) == 2
    assert capsys.readouterr().err == "conductor: Rollecate is for 2 to 4 players, not 5\n"


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 2)])
def test_the_camera_sees_the_final_count_and_the_referee_counts_it_exactly(
    tmp_path: Path, seed: int, players: int
) -> None:
    """The end of a demo game through the rendered camera: the last turn's table, then the
    railway cleared away and every card spread out, read by the recognizer and counted."""
    game = demo_table(seed=seed, players=players)
    scenes = game.scenes
    assert scenes[-1].view.spread is not None and not scenes[-1].view.railway
    out = io.StringIO()
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = AppContext(out=out, journal=journal, camera="rendered", board="none")
        session = Session.start("rollecate", game.lines[0], open_referee, journal, {})
        loop = TableLoop(session, app, "Rollecate", "rollecate")
        for now, scene in enumerate(scenes[1:-2], start=1):  # straight to the referee
            for line in (scene.view.to_json(), *scene.events):
                loop.handle(BoardInput(line) if is_event(line) else TableSeen(line), float(now))
        assert session.referee.referee.scoring is None
        feed = CameraFeed(Pipeline(deck="rollecate", zones=RollecateZones(players)))
        watch_scenes(GAME, game, scenes[-2:], feed, loop, seed=seed)
        said = out.getvalue()
        assert "illegal" not in said, said
        scoring = session.referee.referee.scoring
        assert scoring is not None, said
        # The engine's own final count: every seat's pile and hand, as its record spread them.
        spread = [line for line in game.lines if "spread" in line][-1]["spread"]
        book = default_book()
        expected = score_table([[book.value(name) for name in cards] for cards in spread])
        assert scoring.to_json() == expected.to_json()
