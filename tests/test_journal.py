"""The journal keeps every game: committed turns survive a kill, undo and export work."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from host.cli import main
from host.journal import EntryKind, Journal, JournalError
from host.session import Session
from host.trains.referee import open_referee

ROOT = Path(__file__).resolve().parent.parent
FAST = ["--camera", "none", "--board", "none"]
"""The demo without the rendered camera and board: the tables go straight to the referee."""
OPENING = {
    "seats": 2,
    "first": 0,
    "phase": "play",
    "lines": [[70, 60, 50, 40, 30, 20, 10], [71, 61, 51, 44, 31, 27, 11]],
    "faceup": [],
    "locks": [],
}


def draw(
    first_card: int, line: list[int], faceup: list[int], other: list[int]
) -> dict[str, object]:
    return {"lines": [[first_card, *line[1:]], other], "faceup": faceup, "locks": []}


def test_a_session_journals_committed_turns_and_resumes_them(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "games.sqlite")
    session = Session.start("trains", OPENING, open_referee, journal, {"mode": "table"})
    lines = OPENING["lines"]
    assert isinstance(lines, list)
    first = draw(2, lines[0], [70], lines[1])
    assert session.feed(first).verdict == "move"
    illegal = {"lines": [[60, 2, *lines[0][2:]], lines[1]], "faceup": [70], "locks": []}
    assert session.feed(illegal).verdict == "illegal"  # not journaled
    second = {"lines": [[2, *lines[0][1:]], [3, *lines[1][1:]]], "faceup": [70, 71], "locks": []}
    assert session.feed(second).verdict == "move"
    journal.close()

    with Journal(tmp_path / "games.sqlite") as again:
        resumed = Session.resume(again, session.game_id, open_referee)
        assert resumed.referee.game.position == session.referee.game.position
        assert again.opening(session.game_id) == OPENING
        assert again.standing_inputs(session.game_id) == [first, illegal, second]
        resumed.undo()
        assert again.standing_inputs(session.game_id) == [first]
        assert again.summary(session.game_id).turns == 1 and resumed.turns == 1
        after_first = Session.resume(again, session.game_id, open_referee).referee.game.position
        assert resumed.referee.game.position == after_first
        assert len(after_first.lines) == 2 and after_first.to_play == 1
        assert [e.kind for e in again.entries(session.game_id)][-1] is EntryKind.UNDO


def test_a_journal_from_a_newer_conductor_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    Journal(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version=99")
    with pytest.raises(JournalError, match="newer Conductor"):
        Journal(path)


def test_a_file_that_is_not_a_journal_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.sqlite"
    path.write_bytes(b"not a database " * 100)
    assert main(["games", "--db", str(path)]) == 2
    assert "is not a Conductor journal" in capsys.readouterr().err
    assert main(["export", "7", "--db", str(tmp_path / "new.sqlite")]) == 2


def test_an_exported_game_is_judged_again_to_the_same_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "games.sqlite")
    assert (
        main(["demo", "trains", "--seed", "8", "--db", db, "--camera", "none", "--board", "none"])
        == 0
    )
    demo_lines = capsys.readouterr().out.splitlines()
    exported = tmp_path / "game.jsonl"
    assert main(["export", "1", "--db", db, "-o", str(exported)]) == 0
    assert main(["referee", "trains", str(exported)]) == 0
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert verdicts[-1]["verdict"] == "win"
    moves = sum(verdict["verdict"] in ("move", "win") for verdict in verdicts)
    assert demo_lines[-1] == f"Seat {verdicts[-1]['seat']} wins after {moves} moves."
    assert main(["games", "--db", db]) == 0
    assert "won by seat" in capsys.readouterr().out


def test_a_demo_killed_mid_game_resumes_to_the_same_end(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    command = [sys.executable, "-m", "host"]
    whole = subprocess.run(
        [*command, "demo", "trains", "--seed", "2", *FAST, "--db", str(tmp_path / "other.sqlite")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    killed = subprocess.Popen(
        [*command, "demo", "trains", "--seed", "2", *FAST, "--pace", "0.2", "--db", db],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert killed.stdout is not None
    seen = [killed.stdout.readline() for _ in range(9)]  # the header, 3 lines, 5 turns
    os.kill(killed.pid, signal.SIGKILL)
    killed.wait()
    assert seen[-1].strip().startswith("5.")
    resumed = subprocess.run(
        [*command, "resume", "1", *FAST, "--db", db],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert resumed[0].startswith("Resuming game 1 after")
    assert resumed[-4:] == whole[-4:]  # the same final lines and winner


def test_an_accepted_table_is_journaled_resumed_and_exported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite"
    journal = Journal(db)
    session = Session.start("trains", OPENING, open_referee, journal, {"mode": "table"})
    lines = OPENING["lines"]
    assert isinstance(lines, list)
    odd = {"lines": [[60, 70, *lines[0][2:]], lines[1]], "faceup": [], "locks": []}
    assert session.feed(odd).verdict == "illegal"
    assert session.feed({**odd, "accepted": True}).verdict == "move"
    journal.close()
    with Journal(db) as again:
        resumed = Session.resume(again, session.game_id, open_referee)
        assert resumed.referee.game.position == session.referee.game.position
    exported = tmp_path / "game.jsonl"
    assert main(["export", str(session.game_id), "--db", str(db), "-o", str(exported)]) == 0
    assert main(["referee", "trains", str(exported)]) == 0
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["verdict"] for v in verdicts] == ["waiting", "illegal", "move"]
    assert verdicts[2]["move"]["kind"] == "accepted"


def test_a_rollecate_game_is_journaled_resumed_and_undone_by_replay(tmp_path: Path) -> None:
    import random

    from rollecate_helpers import play_randomly

    from host.rollecate.referee import open_referee as open_rollecate
    from host.rollecate.state import GameState
    from host.rollecate.transcript import table_lines

    rng = random.Random(4)
    game = GameState.new(3, rng)
    play_randomly(game, rng)
    opening, *lines = table_lines(game)
    db = tmp_path / "games.sqlite"
    journal = Journal(db)
    session = Session.start("rollecate", opening, open_rollecate, journal, {"mode": "table"})
    verdicts = [session.feed(line) for line in lines[:40]]
    assert "illegal" not in [v.verdict for v in verdicts]
    journal.close()

    def state(referee: Any) -> tuple[object, ...]:
        inner = referee.referee
        return (inner.railway, inner.train, inner.piles, inner.seat, inner.stage, inner.held)

    with Journal(db) as again:
        resumed = Session.resume(again, session.game_id, open_rollecate)
        assert state(resumed.referee) == state(session.referee)
        turns = resumed.turns
        resumed.undo()
        assert resumed.turns == turns - 1
        last_end = max(i for i, v in enumerate(verdicts) if v.verdict in ("move", "win"))
        earlier = max(i for i, v in enumerate(verdicts[:last_end]) if v.verdict == "move")
        fresh = open_rollecate(opening)
        for line in lines[: earlier + 1]:
            fresh.feed(line)
        assert state(resumed.referee) == state(fresh)
        assert Session.resume(again, session.game_id, open_rollecate).turns == turns - 1
