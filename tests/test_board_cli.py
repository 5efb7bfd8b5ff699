"""``conductor board sim|monitor|flash`` as a user meets them."""

from __future__ import annotations

import io
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host.board import BoardLink, SimulatedBoard
from host.board.cli import FLASH_ORDER, drive_simulation, run_monitor_commands
from host.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
needs_micropython = pytest.mark.skipif(shutil.which("micropython") is None,
                                       reason="micropython not installed")


def _fake_mpremote(folder: Path, status: int) -> Path:
    log = folder / "calls.txt"
    script = folder / "mpremote"
    script.write_text(f'#!/bin/sh\necho "$@" >> {log}\necho "mpremote: no device" >&2\n'
                      f"exit {status}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return log


def test_flash_copies_every_firmware_module_with_main_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _fake_mpremote(tmp_path, 0)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert main(["board", "flash", "/dev/ttyACM7"]) == 0
    calls = log.read_text().splitlines()
    copied = [call.split()[-1] for call in calls if " cp " in call]
    modules = {p.name for p in FIRMWARE.glob("*.py") if p.name != "__init__.py"}
    assert {name.lstrip(":") for name in copied} == modules
    assert copied[-1] == ":main.py"
    assert calls[-1] == "connect /dev/ttyACM7 reset"


def test_flash_failures_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no mpremote anywhere
    assert main(["board", "flash", "/dev/ttyACM7"]) == 2
    assert "mpremote is not installed" in capsys.readouterr().err
    _fake_mpremote(tmp_path, 1)
    assert main(["board", "flash", "/dev/ttyACM7"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "conductor: mpremote failed: mpremote: no device"


def test_flash_dry_run_needs_no_mpremote(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    assert main(["board", "flash", "/dev/ttyACM7", "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum(" cp " in line for line in lines) == len(FLASH_ORDER)


def test_monitor_on_a_missing_port_says_so_in_one_line() -> None:
    result = subprocess.run([sys.executable, "-m", "host", "board", "monitor", "/dev/nope"],
                            cwd=ROOT, capture_output=True, text=True, timeout=30, check=False)
    assert result.returncode == 2
    assert result.stderr.strip() == "conductor: no board found at /dev/nope: is it plugged in?"


@needs_micropython
def test_monitor_commands_roll_light_and_audit() -> None:
    out = io.StringIO()
    script = ["roll d6 3", "turn 2 3 ccw", "alert", "commit", "roll wheel 4", "reveal",
              "roll d20 1", "turn x", "dance", "quit", "roll d6 1"]
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link:
        run_monitor_commands(link, script, out)
        sim.wait_for_leds(lambda pixels: pixels[0] in ((255 * 96 // 255, 0, 0), (0, 0, 0)))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("rolled ") and len(lines[0].split()) == 4
    assert lines[1].startswith("committed ")
    assert lines[3].startswith("audit ok: 1 rolls")
    assert lines[4] == "! unknown dice kind: d20"
    assert lines[5].startswith("! invalid literal") and lines[6].startswith("? dance")
    assert len(lines) == 7  # nothing after quit


@needs_micropython
def test_sim_commands_press_buttons_and_show_leds() -> None:
    out = io.StringIO()
    with SimulatedBoard() as sim, BoardLink.open(sim.port) as link:
        drive_simulation(sim, ["press seat2 150", "press nobody", "bogus", "quit"], out)
        event = link.next_event(timeout=5)
        time.sleep(0.1)
        drive_simulation(sim, ["leds"], out)
    assert event is not None and getattr(event, "button", None) == "seat2"
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("! no button 'nobody'") and lines[1] == "? bogus"
    assert len(lines[2].split()) == 21


@needs_micropython
def test_board_sim_prints_a_port_the_app_can_use() -> None:
    process = subprocess.Popen([sys.executable, "-m", "host", "board", "sim"], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdin is not None
        first = process.stdout.readline().split()
        assert first[:3] == ["simulated", "board", "on"]
        with BoardLink.open(first[-1]) as link:
            assert len(link.roll("doors", 3)) == 3
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(timeout=10) == 0
    finally:
        process.kill()
