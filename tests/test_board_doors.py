"""The board rolls the boarding die the rules use: the firmware's ``doors`` faces, as the real
firmware holds them in the real micropython, are the engine's ``BOARDING_DIE`` (so the two
cannot drift apart again), and a board of protocol 1.x, whose doors die rolled 3 open and 3
closed, is refused at connect with one line by every command that connects to a board."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from board_fuzz_helpers import firmware_with_fault

from host.board import SimulatedBoard
from host.board.shared import FIRMWARE_FOLDER, dice, protocol
from host.trainline.game import BOARDING_DIE

ROOT = Path(__file__).resolve().parent.parent
needs_micropython = pytest.mark.skipif(shutil.which("micropython") is None,
                                       reason="micropython not installed")

#: The faces a face of the board's doors die stands for in the engine.
DOORS_OPEN = {"open": True, "closed": False}


@needs_micropython
def test_the_boards_doors_faces_are_the_engines_boarding_die() -> None:
    shown = subprocess.run(
        ["micropython", "-c", "import dice, json; print(json.dumps(dice.FACES['doors']))"],
        env={**os.environ, "MICROPYPATH": str(FIRMWARE_FOLDER)},
        capture_output=True, text=True, timeout=60, check=True,
    )
    on_the_board = json.loads(shown.stdout)
    assert on_the_board == list(dice.FACES["doors"])  # the host reads the same file
    assert set(on_the_board) == set(DOORS_OPEN)
    assert Counter(DOORS_OPEN[face] for face in on_the_board) == Counter(BOARDING_DIE)


def old_level_firmware(folder: Path) -> Path:
    """This firmware as a board of protocol 1.2 ran it: its doors die 3 open, 3 closed."""
    firmware = firmware_with_fault(
        folder, "protocol.py",
        f"VERSION_MAJOR = {protocol.VERSION_MAJOR}\nVERSION_MINOR = {protocol.VERSION_MINOR}\n",
        "VERSION_MAJOR = 1\nVERSION_MINOR = 2\n",
    )
    faces = (firmware / "dice.py").read_text()
    ruled = '"doors": ("open", "open", "open", "open", "closed", "closed"),'
    assert ruled in faces
    (firmware / "dice.py").write_text(
        faces.replace(ruled, '"doors": ("open", "open", "open", "closed", "closed", "closed"),'))
    return firmware


@needs_micropython
def test_a_board_of_protocol_1_is_refused_at_connect_in_one_line(tmp_path: Path) -> None:
    journal = str(tmp_path / "games.sqlite")
    with SimulatedBoard(firmware=old_level_firmware(tmp_path)) as sim:
        runs = {
            "monitor": ["board", "monitor", sim.port],
            "check": ["board", "monitor", "--check", sim.port],
            "play": ["play", "trainline", "--players", "2", "--web", "127.0.0.1:0",
                     "--board", sim.port, "--db", journal],
        }
        done = {name: subprocess.run([sys.executable, "-m", "host", *args], cwd=ROOT,
                                     input="quit\n", capture_output=True, text=True,
                                     timeout=120, check=False)
                for name, args in runs.items()}
    for name, result in done.items():
        assert result.returncode == 2, (name, result.stdout, result.stderr)
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, name
    told = "conductor: firmware too old: the board speaks protocol 1.2, this Conductor speaks 2.x"
    assert done["monitor"].stderr.startswith(told)
    assert "boarding die 4 open / 2 closed" in done["monitor"].stderr
    assert done["monitor"].stderr.rstrip().endswith("update the board with `conductor board flash`")
    assert done["play"].stderr.startswith(told)
    assert done["play"].stderr.rstrip().endswith("or play without it: --board none")
    assert "FAIL handshake: protocol [1, 2], this Conductor speaks 2.x" in done["check"].stdout
    assert done["check"].stderr.startswith("conductor: board check failed: handshake")
