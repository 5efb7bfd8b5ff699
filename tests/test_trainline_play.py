"""``conductor play trainline``: players enter each action on the web view, the referee plays it
or explains why not, the board rolls the boarding die when one is due, and the journal keeps it
all for undo and resume."""

from __future__ import annotations

import io
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from test_rollecate_play import BoardNow, rolled_on_press

from host.board import BoardLink, SimulatedBoard
from host.board.events import DiceRoll
from host.context import AppContext
from host.errors import BadInputError
from host.journal import Journal
from host.session import Session
from host.table_loop import BoardInput, PlayerControl, TableLoop, WebEntry
from host.tables.trainline import GAME, entry_line, offers, open_referee, rolled, typed_line
from host.trainline import bots
from host.trainline.game import TrainlineGame
from host.trainline.observer import TrainlineObserver, pawns_of
from host.trainline.transcript import entry_lines

SEEDS = range(20)
"""Bot games replayed as entries (the referee was written against seeds 0-29 by hand)."""

BOARD = {"event": "play", "cells": [[0, 4]], "cards": []}
"""Seat 0 steps up to the doors at the start space (0, 4): the boarding die is due."""
OPEN = {"event": "roll", "open": True}
ALONG = {"event": "play", "cells": [[1, 4], [3, 4]], "cards": ["red-2"]}
"""Seat 0's pawn, entered at (1, 4), goes two spaces down the aisle: its turn ends."""


def bot_game(seed: int, players: int) -> TrainlineGame:
    rng = random.Random(seed)
    game = TrainlineGame.new(players, rng, first=seed % players)
    bots.play_out(game, rng)
    return game


@pytest.mark.parametrize("seed", SEEDS)
def test_every_action_of_a_bot_game_entered_on_the_web_view_is_accepted(seed: int) -> None:
    players = 2 + seed % 3
    game = bot_game(seed, players)
    lines = entry_lines(game)
    referee = open_referee(lines[0])
    ended = 0
    for number, line in enumerate(lines[1:], start=2):
        verdict = referee.feed(line)
        assert verdict.verdict != "illegal", f"seed {seed}, line {number}: {verdict.reason}"
        ended += verdict.ends_turn
        assert referee.turn_indicator() == referee.game.turn_indicator()
    assert pawns_of(referee.game) == pawns_of(game), f"seed {seed}"
    assert referee.game.winners == game.winners and referee.turn_indicator().winners
    assert ended == game.turns_begun, f"seed {seed}: a verdict per turn"


def test_the_boarding_die_is_wanted_exactly_while_a_pawn_stands_at_the_doors() -> None:
    referee = TrainlineObserver(2, 0)
    assert referee.dice_wanted == 0
    verdict = referee.feed(BOARD)
    assert verdict.verdict == "roll" and referee.dice_wanted == 1
    assert "roll the boarding die" in verdict.pending
    verdict = referee.feed(OPEN)
    assert verdict.verdict == "waiting" and referee.dice_wanted == 0
    assert referee.game.players[0].aisle == (1, 4)
    verdict = referee.feed(ALONG)
    assert verdict.ends_turn and verdict.move["text"].startswith("seat 0: steps up to the doors")
    assert verdict.fields["next_seat"] == 1
    # Closed doors: the pawn misses the train and the turn ends with the roll.
    referee.feed({"event": "play", "cells": [[6, 4]], "cards": []})
    verdict = referee.feed({"event": "roll", "open": False})
    assert verdict.ends_turn and referee.game.players[1].missed == (6, 4)
    assert referee.turn_indicator().on_turn == 0


@pytest.mark.parametrize(
    ("entries", "reason"),
    [
        ([{"event": "play", "cells": [[1, 4], [3, 4]], "cards": ["red-2"]}],
         "seat 0 has no pawn in the aisle to move"),
        ([BOARD, BOARD], "roll the boarding die first"),
        ([BOARD, OPEN, {"event": "play", "cells": [[6, 4]], "cards": []}], "one boarding per turn"),
        ([BOARD, OPEN, {"event": "play", "cells": [[3, 4]], "cards": ["red-5"]}], "5"),
        ([{"event": "play", "cells": [], "cards": ["express", "reverse"]}],
         "one action card at a time"),
        ([{"event": "play", "cells": [[3, 3]], "cards": []}], "start space"),
        ([{"event": "play", "cells": [[2, 0]], "cards": ["eccentric-passenger"]}],
         "tap one pawn of the player it targets"),
        ([{"event": "play", "cells": [], "cards": ["enter-2x"]}], "enter-2x fills 2 seat(s)"),
    ],
)
def test_an_entry_the_rules_refuse_is_explained_and_changes_nothing(
    entries: list[dict[str, Any]], reason: str
) -> None:
    referee = TrainlineObserver(2, 0)
    for line in entries[:-1]:
        assert referee.feed(line).verdict != "illegal"
    before = (pawns_of(referee.game), referee.game.phase, referee.turn_indicator())
    verdict = referee.feed(entries[-1])
    assert verdict.verdict == "illegal" and reason in verdict.reason, verdict.reason
    assert (pawns_of(referee.game), referee.game.phase, referee.turn_indicator()) == before


def test_an_attack_waits_for_its_targets_answer_on_the_web_view() -> None:
    referee = TrainlineObserver(2, 0)
    referee.feed({"event": "play", "cells": [[2, 0]], "cards": ["enter-1x"]})  # ends the turn
    verdict = referee.feed({"event": "play", "cells": [[2, 0]], "cards": ["eccentric-passenger"]})
    assert verdict.verdict == "waiting" and "answer the attack" in verdict.pending
    assert referee.turn_indicator().on_turn == 0  # the target's LEDs: it must answer
    assert [offer["name"] for offer in offers(referee, True)] == ["answer"]
    refused = referee.feed({"event": "play", "cells": [[3, 4]], "cards": ["red-1"]})
    assert refused.verdict == "illegal" and "must first answer the attack" in refused.reason
    verdict = referee.feed(entry_line("answer", "rebel"))
    assert referee.game.players[0].seated == [(2, 0)] and referee.turn_indicator().on_turn == 1


@pytest.mark.parametrize(
    ("name", "value"),
    [("play", "x"), ("end", True), ("end", "1"), ("answer", "maybe"), ("roll", 1), ("zz", None)],
)
def test_an_entry_no_offer_makes_is_bad_input(name: str, value: Any) -> None:
    with pytest.raises(BadInputError):
        entry_line(name, value)


@pytest.mark.parametrize(
    "line",
    [
        {"event": "play", "cells": "x"},
        {"event": "play", "cells": [[1, 2, 3]]},
        {"event": "play", "cells": [[0, 4]] * 9},
        {"event": "play", "cards": ["joker"]},
        {"event": "play", "cards": [1]},
        {"event": "play", "takes": 3},
        {"event": "play", "seat": 7},
        {"event": "play", "seat": True},
    ],
)
def test_a_malformed_entry_line_is_bad_input(line: dict[str, Any]) -> None:
    with pytest.raises(BadInputError):
        TrainlineObserver(2, 0).feed(line)


def test_the_boards_roll_and_typed_rolls_become_the_boarding_die() -> None:
    assert rolled(["open"]) == OPEN and rolled(["closed"]) == {"event": "roll", "open": False}
    assert typed_line("roll closed") == {"event": "roll", "open": False}
    assert typed_line("button 1") == {"event": "button", "seat": 1}
    assert typed_line("roll maybe") is None


def _loop(journal: Journal, lights: Any = None) -> TableLoop:
    session = Session.start("trainline", {"seats": 2, "first": 0}, GAME.open_referee, journal,
                            {"mode": "table", "camera": "none", "board": "none"})
    app = AppContext(out=io.StringIO(), journal=journal, camera="none", board="none")
    assert GAME.inputs is not None
    return TableLoop(session, app, GAME.title, GAME.name, lights=lights, dice=GAME.dice,
                     web_inputs=GAME.inputs.web)


def test_undo_takes_back_the_last_turn_and_resume_rebuilds_the_game(tmp_path: Path) -> None:
    seed, players = 4, 3
    lines = entry_lines(bot_game(seed, players))
    db = tmp_path / "games.sqlite"
    with Journal(db) as journal:
        session = Session.start("trainline", lines[0], GAME.open_referee, journal,
                                {"mode": "table", "camera": "none", "board": "none"})
        ends = [number for number, line in enumerate(lines[1:], start=1)
                if session.feed(line).ends_turn]
        assert len(ends) > 10, f"seed {seed}"
        won = pawns_of(session.referee.game)
        session.undo()  # the winning turn
        again = open_referee(lines[0])
        for line in lines[1 : ends[-2] + 1]:
            again.feed(line)
        assert pawns_of(session.referee.game) == pawns_of(again.game)
        assert session.referee.turn_indicator() == again.turn_indicator()
        game_id = session.game_id
    with Journal(db) as journal:
        resumed = Session.resume(journal, game_id, GAME.open_referee)
        assert pawns_of(resumed.referee.game) == pawns_of(again.game)
        for line in lines[ends[-2] + 1 :]:
            resumed.feed(line)
        assert pawns_of(resumed.referee.game) == won and resumed.referee.turn_indicator().winners


def test_the_page_is_offered_the_acting_seats_entries_and_an_illegal_one_is_said_at_once(
    tmp_path: Path,
) -> None:
    with Journal(tmp_path / "games.sqlite") as journal:
        loop = _loop(journal)
        assert [offer["name"] for offer in loop._offers()] == ["play", "end"]
        loop.handle(WebEntry("play", {"cells": [[0, 4]], "cards": []}), 1.0)
        assert [offer["name"] for offer in loop._offers()] == ["roll"]  # no board: by hand
        loop.handle(WebEntry("roll", "open"), 2.0)
        loop.handle(WebEntry("play", {"cells": [[3, 4]], "cards": ["red-5"]}), 3.0)
        assert loop.message is not None and loop.message[0] == "alert"  # at once, no wait
        assert loop.message[1].startswith("illegal: ")
        loop.handle(WebEntry("play", {"cells": [[1, 4], [3, 4]], "cards": ["red-2"]}), 4.0)
        assert loop.session.turns == 1 and loop.log.entries[-1]["verdict"] == "move"
        loop.handle(WebEntry("end", "seat 1"), 5.0)
        assert loop.message is not None and "cannot be used" in loop.message[1]
        loop.handle(PlayerControl("undo"), 6.0)
        assert loop.session.turns == 0 and loop.session.referee.game.players[0].aisle is None


@pytest.mark.skipif(shutil.which("micropython") is None, reason="micropython not installed")
def test_the_board_arms_the_boarding_die_when_due_and_its_roll_is_the_outcome(
    tmp_path: Path,
) -> None:
    """The real firmware on a pty: a boarding entered on the web view arms the roll button with
    one ``doors`` die, the press rolls it, the roll decides the boarding; an undo disarms it."""
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link, \
            Journal(tmp_path / "games.sqlite") as journal:
        board = BoardNow(link)
        loop = _loop(journal, lights=board)
        assert board.armed == [0]
        loop.handle(WebEntry("play", {"cells": [[0, 4]], "cards": []}), 1.0)
        assert board.armed[-1] == 1
        sim.press("roll", 150)
        roll = None
        for _ in range(50):
            event = link.next_event(timeout=0.2)
            if isinstance(event, DiceRoll):
                roll = [str(face) for face in event.faces]
                break
        assert roll is not None and len(roll) == 1 and roll[0] in ("open", "closed"), roll
        loop.handle(BoardInput(rolled(roll)), 2.0)
        pawn = loop.session.referee.game.players[0]
        assert (pawn.aisle == (1, 4)) if roll == ["open"] else (pawn.missed == (0, 4))
        assert board.armed[-1] == 0 and loop.session.referee.dice_wanted == 0
        assert rolled_on_press(sim, link) is None  # nothing is due: the button rolls nothing
        # Seat 1 steps up to the doors; the players take back seat 0's turn (or its roll).
        if roll == ["open"]:
            loop.handle(WebEntry("play", {"cells": [[1, 4], [3, 4]], "cards": ["red-2"]}), 3.0)
        loop.handle(WebEntry("play", {"cells": [[6, 4]], "cards": []}), 4.0)
        assert board.armed[-1] == 1
        loop.handle(PlayerControl("undo"), 5.0)
        assert loop.session.referee.dice_wanted == 0 and board.armed[-1] == 0
        assert rolled_on_press(sim, link) is None


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ([], "moves are entered on the web view: give --web"),
        (["--web", "127.0.0.1:0", "--camera", "0"], "leave out --camera"),
        (["--web", "127.0.0.1:0", "--deck", "trainline"], "leave out --deck"),
        (["--players", "5", "--web", "127.0.0.1:0"], "for 2 to 4 players"),
    ],
)
def test_play_trainline_says_what_it_needs_in_one_line(
    args: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from host.cli import main

    players = [] if "--players" in args else ["--players", "2"]
    status = main(["play", "trainline", *players, *args, "--board", "none", "--db",
                   str(tmp_path / "games.sqlite")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and said in err, err


def test_a_game_at_the_table_resumes_only_with_the_web_view(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from host.cli import main

    db = tmp_path / "games.sqlite"
    with Journal(db) as journal:
        loop = _loop(journal)
        loop.handle(WebEntry("play", {"cells": [[0, 4]], "cards": []}), 1.0)
    assert main(["resume", "1", "--db", str(db)]) == 2
    assert "entered on the web view: give --web" in capsys.readouterr().err
