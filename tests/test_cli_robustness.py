"""Every input answered, nothing lost (issue 13): each case the hostile user found, pinned.

Commands run in-process where that is faithful, as ``python -m host`` where the process itself
matters (a full disk on stdout, a camera that is not there, a missing home folder).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from random import Random

import numpy as np
import pytest

from host import context
from host.cli import main
from host.errors import BadInputError
from host.games import COMMANDS, GAMES, table_game
from host.journal import Journal
from host.jsonl import MAX_LINE_BYTES
from host.rollecate.observation import is_event
from host.session import Session
from host.table_runner import scenes_left
from host.tables.rollecate import demo_table
from host.trains.observation import TrainsObservation
from host.trains.position import Position
from host.trains.referee import open_referee
from vision.imaging import write_image

ROOT = Path(__file__).resolve().parent.parent


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run a command that must refuse its input: exit 2, one line on stderr; that line."""
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def conductor(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120, stdout: int | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host", *args],
        cwd=ROOT,
        capture_output=stdout is None,
        stdout=stdout,
        stderr=subprocess.PIPE if stdout is not None else None,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


# -- numbers from the command line -------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("players", ["0", "-3", "1", "99"])
def test_a_demo_for_an_impossible_number_of_players_is_refused(
    game: str, players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    said = refused(["demo", game, "--players", players, "--camera", "none"], capsys)
    assert f"not {players}" in said and ("players" in said or "seats" in said), said


@pytest.mark.parametrize(
    "args",
    [
        ["demo", "--seed", "-7"],
        ["vision", "render", "out.png", "--seed", "-1"],
        ["resume", "99999999999999999999999"],
        ["export", "99999999999999999999999"],
        ["export", "0"],
        ["demo", "--pace", "-1"],
        ["demo", "--pace", "nan"],
        ["demo", "--pace", "inf"],
        ["board", "sim", "--board-id", "zz"],
        ["score", "rollecate", "table.jpg", "--players", "0"],
        ["score", "rollecate", "table.jpg", "--players", "99"],
        ["play", "express", "--players", "3"],
        ["score", "trains", "table.json"],
        ["demo", "--bogus"],
    ],
)
def test_a_bad_value_on_the_command_line_is_one_line_with_a_hint(
    args: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    try:
        status = main([*args, "--db", str(tmp_path / "j.sqlite")] if args[0] in ("demo",) else args)
    except SystemExit as leaving:  # argparse leaves through sys.exit
        status = int(leaving.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert not (tmp_path / "j.sqlite").exists()


def test_argparse_errors_name_the_help_to_read(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--seed", "x"])
    err = capsys.readouterr().err
    assert err == (
        "conductor demo: argument --seed: a seed is a whole number, not 'x' "
        "(see conductor demo --help)\n"
    )


def test_help_offers_only_the_games_that_have_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, offered in COMMANDS.items():
        game = table_game(name)
        can = {"referee"} | ({"demo"} if game.demo or game.transcript else set())
        can |= {"play", "resume"} if game.pipeline or game.played_on_web else set()
        can |= {"score"} if game.score else set()
        assert offered == can, name
    for command, without in (("score", ("trains", "trainline")),):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        usage = capsys.readouterr().out.split("\n\n")[0]
        assert all(game not in usage for game in without), usage


def test_the_player_counts_offered_are_the_rules_own() -> None:
    from host.express.game import MAX_PLAYERS as EXPRESS_MAX
    from host.express.game import MIN_PLAYERS as EXPRESS_MIN
    from host.rollecate.rules import MAX_PLAYERS, MIN_PLAYERS
    from host.trainline.game import PAWNS
    from host.trains.rules import MAX_SEATS, MIN_SEATS

    rules = {"trains": (MIN_SEATS, MAX_SEATS), "rollecate": (MIN_PLAYERS, MAX_PLAYERS),
             "express": (EXPRESS_MIN, EXPRESS_MAX), "trainline": (min(PAWNS), max(PAWNS))}
    assert set(rules) == set(GAMES)
    for name, (fewest, most) in rules.items():
        check = table_game(name).check_seats
        check(fewest, 0)
        check(most, 0)
        for players in (fewest - 1, most + 1):
            with pytest.raises(BadInputError):
                check(players, 0)


def test_pace_waits_between_the_turns_of_every_demo(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for game in sorted(GAMES):
        waits: list[float] = []
        monkeypatch.setattr(context.time, "sleep", waits.append)
        args = ["demo", game, "--camera", "none", "--board", "none", "--pace", "0.25"]
        assert main([*args, "--db", str(tmp_path / "j.sqlite")]) == 0
        assert len(waits) >= 5 and set(waits) == {0.25}, game
    capsys.readouterr()


# -- files that are not what they claim --------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("args", "content", "reason"),
    [
        *[(["referee", game], DEEP, "nested deeper") for game in sorted(GAMES)],
        (["score", "rollecate"], DEEP, "nested deeper"),
        (["score", "express"], DEEP, "nested deeper"),
        (["referee", "trains"], '{"seats": 3, "lines": [[' + "9" * 5000 + "]]}", "digits"),
        (["referee", "express"], '{"seats": 3, "faceup": [1e999]}', "too large"),
        (["referee", "express"], '{"seats": 0}', "2 to 6 seats"),
        (["referee", "express"], '{"seats": 1}', "2 to 6 seats"),
        (["referee", "express"], '{"seats": 1000000}', "2 to 6 seats"),
        (["referee", "rollecate"], json.dumps({
            "seats": 3, "first": 0, "railway": ["track-2", "track-4", "broken-3", "track-1"],
            "train": 2, "discard": [[]]}), "one entry per seat"),
    ],
)
def test_a_hostile_file_is_refused_in_one_line(
    args: list[str], content: str, reason: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "input.json"
    path.write_text(content + "\n")
    assert reason in refused([*args, str(path)], capsys)


def test_vision_render_refuses_a_deep_observation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "nested deeper" in refused(
        ["vision", "render", str(tmp_path / "x.png"), "--observation", DEEP], capsys
    )


def test_an_endless_line_is_cut_off_at_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert f"longer than {MAX_LINE_BYTES // 1024} KB" in refused(
        ["referee", "trains", "/dev/zero"], capsys
    )


def a_picture(tmp_path: Path) -> str:
    import cv2
    import numpy as np

    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((120, 160, 3), 90, np.uint8))
    return str(path)


@pytest.mark.parametrize("content", [b"", b"\x00\xff" * 100, b"{not json"],
                         ids=["empty", "binary", "text"])
def test_vision_refuses_references_that_are_not_references(
    content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    references = tmp_path / "refs.npz"
    references.write_bytes(content)
    line = refused(
        ["vision", "identify", "--references", str(references), a_picture(tmp_path)], capsys
    )
    assert "not a references file" in line


def test_vision_says_which_decks_it_draws(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(["vision", "identify", "--deck", "trainline", a_picture(tmp_path)], capsys)
    assert "enroll it" in line


# -- the journal -------------------------------------------------------------------------------


def demo_journal(path: Path, games: int = 2) -> None:
    for seed in range(1, games + 1):
        assert main(["demo", "--seed", str(seed), "--camera", "none", "--board", "none",
                     "--db", str(path)]) == 0


def test_reading_commands_create_no_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere" / "games.sqlite"
    assert main(["games", "--db", str(missing)]) == 0
    assert "no games journaled" in capsys.readouterr().out
    refused(["export", "1", "--db", str(missing)], capsys)
    refused(["resume", "1", "--db", str(missing)], capsys)
    assert not (tmp_path / "nowhere").exists()


def test_no_folder_is_made_under_a_missing_home(tmp_path: Path) -> None:
    home = tmp_path / "gone"
    env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"}
    env["HOME"] = str(home)
    for args in (["games"], ["export", "1"], ["resume", "1"]):
        done = conductor(*args, env=env)
        assert done.returncode in (0, 2) and "Traceback" not in done.stderr
    assert not home.exists()


def test_a_foreign_sqlite_file_is_refused_and_left_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "photos.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE photos (name TEXT)")
    before = other.read_bytes()
    for args in (["games"], ["export", "1"], ["resume", "1"],
                 ["demo", "--camera", "none", "--board", "none"]):
        assert "not a Conductor journal" in refused([*args, "--db", str(other)], capsys)
    assert other.read_bytes() == before


def test_a_damaged_game_is_named_and_the_others_stay_usable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.sqlite"
    demo_journal(path, games=3)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE entries SET kind = 'bogus' WHERE game_id = 1 AND seq = 3")
        db.execute("UPDATE entries SET payload = '{' WHERE game_id = 2 AND seq = 2")
        db.execute("UPDATE games SET settings = 'nonsense' WHERE id = 3")
    capsys.readouterr()
    for game, what in ((1, "unknown kind 'bogus'"), (2, "JSON object"), (3, "settings")):
        line = refused(["export", str(game), "--db", str(path)], capsys)
        assert f"{path}: game {game} is damaged" in line and what in line
    assert main(["games", "--db", str(path)]) == 0
    listing = capsys.readouterr().out
    assert "   3  damaged" in listing and "won by seat" in listing
    demo_journal(path, games=1)  # a new game is journaled beside the damaged ones
    capsys.readouterr()
    assert main(["export", "4", "--db", str(path)]) == 0


def test_export_refuses_to_overwrite_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.sqlite"
    demo_journal(path, games=1)
    for target in (path, Path(f"{path}-wal"), tmp_path / "." / "games.sqlite"):
        assert "the journal itself" in refused(
            ["export", "1", "--db", str(path), "-o", str(target)], capsys
        )
    assert main(["export", "1", "--db", str(path)]) == 0


@pytest.mark.parametrize(
    "args",
    [
        ["export", "1", "--db", "DB"],
        ["referee", "trains", "RECORD"],
        ["demo", "--camera", "none", "--board", "none", "--db", "DB"],
        ["games", "--db", "DB"],
    ],
)
def test_a_full_disk_on_stdout_is_one_line(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.sqlite"
    demo_journal(path, games=1)
    record = tmp_path / "record.jsonl"
    assert main(["export", "1", "--db", str(path), "-o", str(record)]) == 0
    named = {"DB": str(path), "RECORD": str(record)}
    with open("/dev/full", "w") as full:
        done = conductor(*[named.get(arg, arg) for arg in args], stdout=full.fileno())
    assert done.returncode == 2, done.stderr
    assert done.stderr == "conductor: cannot write the output: No space left on device\n"


# -- cameras and boards that are not there -----------------------------------------------------


def test_play_and_resume_with_a_missing_camera_exit_at_once(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    done = conductor("play", "trains", "--players", "3", "--camera", "99", "--board", "none",
                     "--db", str(path), timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("conductor: cannot open camera 99")
    assert done.stderr.count("\n") == 1
    with Journal(path) as journal:  # a game at a table, journaled before a crash
        dealt = TrainsObservation.of(Position.deal(3, 0, Random(1))).to_json()
        opening = {"seats": 3, "first": 0, **dealt}
        Session.start("trains", opening, open_referee, journal, {"mode": "table", "camera": "0"})
    done = conductor("resume", "1", "--camera", "99", "--board", "none", "--db", str(path),
                     timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("conductor: cannot open camera 99")


def test_a_video_that_never_shows_a_table_is_an_error(tmp_path: Path) -> None:
    import cv2
    import numpy as np

    video = tmp_path / "noise.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    rng = np.random.default_rng(13)
    for _ in range(12):
        writer.write(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8))
    writer.release()
    done = conductor("play", "trains", "--players", "3", "--camera", str(video), "--board", "none",
                     "--db", str(tmp_path / "games.sqlite"))
    assert done.returncode == 2
    assert done.stderr == (
        "conductor: the video ended before it showed a whole table: no game was started\n"
    )


def test_a_demo_resumed_with_a_webcam_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.sqlite"
    demo_journal(path, games=1)
    assert "--camera is rendered or none" in refused(
        ["resume", "1", "--camera", "99", "--db", str(path)], capsys
    )


def test_play_without_a_board_names_the_other_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(["play", "trains", "--players", "3", "--db", str(tmp_path / "j")], capsys)
    assert "--board none" in line and "--board sim" in line


def test_a_dry_run_flash_needs_no_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "flash", "--dry-run"]) == 0
    assert "mpremote connect PORT cp" in capsys.readouterr().out


# -- Rollecate demos resume --------------------------------------------------------------------


def _demo_fed_straight_and_cut(path: Path, cut: float,
                               capsys: pytest.CaptureFixture[str]) -> str:
    """A Rollecate demo fed straight to the referee, its journal cut after that share of its
    entries as if killed there; returns the whole demo's last line."""
    args = ["demo", "rollecate", "--seed", "4", "--camera", "none", "--board", "none"]
    assert main([*args, "--db", str(path)]) == 0
    whole = capsys.readouterr().out.splitlines()[-1]
    with sqlite3.connect(path) as db:
        (last,) = db.execute("SELECT MAX(seq) FROM entries").fetchone()
        db.execute("DELETE FROM entries WHERE seq > ?", (int(last * cut),))
        db.execute("UPDATE games SET status = 'playing', winners = NULL")
    return whole


@pytest.mark.parametrize("cut", [0.2, 0.5, 0.9])
def test_a_rollecate_demo_cut_short_resumes_to_the_same_end(
    cut: float, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.sqlite"
    whole = _demo_fed_straight_and_cut(path, cut, capsys)
    assert main(["resume", "1", "--db", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == whole
    assert main(["games", "--db", str(path)]) == 0
    assert "won by seat" in capsys.readouterr().out


def test_a_rollecate_demo_fed_straight_resumes_through_the_camera_to_the_same_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The journal's game is the same whichever way its tables reached the referee: resumed
    # with --camera rendered, the camera shows the rest of it.
    path = tmp_path / "games.sqlite"
    whole = _demo_fed_straight_and_cut(path, 0.95, capsys)
    assert main(["resume", "1", "--camera", "rendered", "--db", str(path)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[-1] == whole and any(line.startswith("camera: ") for line in said), said


def test_a_rollecate_demo_seen_by_the_camera_resumes_at_its_table() -> None:
    scenes = demo_table(4, 3).scenes
    third = next(index for index, scene in enumerate(scenes) if len(scene.events) >= 2)
    inputs = []
    for scene in scenes[:third]:
        inputs += [scene.view.to_json(), *scene.events]
    inputs += [{"railway": ["misread"]}, scenes[third].view.to_json(), scenes[third].events[0]]
    left = scenes_left(scenes, inputs, is_event)
    assert left[0].view == scenes[third].view
    assert left[0].events == scenes[third].events[1:]
    assert left[1:] == scenes[third + 1:]
    assert scenes_left(scenes, [], is_event) == scenes


def test_a_damaged_photo_is_one_line_from_the_process_too(tmp_path: Path) -> None:
    """libjpeg writes its own complaints straight to the process's stderr, past Python: the
    command's stderr must still be our one line, or nothing for a JPEG cut short, which decodes
    with its missing part grey (a PNG cut short, refused, is a sharp case of the fuzz
    harness)."""
    whole = tmp_path / "whole.jpg"
    write_image(whole, np.zeros((60, 80, 3), np.uint8))
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    for command in (["vision", "identify"], ["score", "rollecate"]):
        done = conductor(*command, str(cut))
        assert done.stderr.count("\n") <= 1 and "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 2 or not done.stderr, done.stderr


def test_ctrl_c_while_the_command_line_is_still_loading_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Loading OpenCV and the rest takes a while after `conductor` starts; a Ctrl-C then used to
    # print Python's traceback of whichever import was running.
    import builtins

    from host.__main__ import main as conductor_main

    real_import = builtins.__import__

    def interrupted(name: str, *args: object, **kwargs: object) -> object:
        if name == "host.cli":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert conductor_main() == 130
    assert capsys.readouterr().err == "conductor: interrupted\n"
