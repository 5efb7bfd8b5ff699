"""``conductor board monitor --check``: the conformance check, against the simulated board and
against copies of the firmware with a fault put in."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from board_fuzz_helpers import firmware_with_fault

from host.board import BoardError, SimulatedBoard
from host.board.conformance import (
    FAIRNESS_ALPHA,
    FAIRNESS_ROLLS,
    check_board,
    chi_square_survival,
    frame_problems,
    odds_note,
)
from host.board.shared import dice, pins, protocol
from host.board.wire import Frame, RawBoard, frame_of

ROOT = Path(__file__).resolve().parent.parent
needs_micropython = pytest.mark.skipif(shutil.which("micropython") is None,
                                       reason="micropython not installed")


def _check(port: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "host", "board", "monitor", "--check", port],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)


#: The simulated board's secrets come from this seed, so the check's fairness sample (a fair
#: die fails it now and then, by chance) gives the same rolls on every run.
SIM_SEED = 7


@needs_micropython
def test_the_simulated_board_passes_every_check_and_is_left_dark() -> None:
    with SimulatedBoard(seed=SIM_SEED) as sim:
        result = _check(sim.port)
        pixels = sim.wait_for_leds(lambda shown: not any(map(any, shown[:pins.STATUS_LED])))
    assert pixels[pins.STATUS_LED] != (0, 0, 0)  # still connected, nothing else lit
    assert result.returncode == 0, f"board seed {SIM_SEED}: {result.stdout}{result.stderr}"
    lines = result.stdout.splitlines()
    verdicts = [line for line in lines if line.startswith(("PASS", "FAIL"))]
    assert len(verdicts) == 14 and all(line.startswith("PASS") for line in verdicts)
    assert lines[-1] == "14 of 14 checks passed" and result.stderr == ""
    for what in ("handshake", "test vectors: requests", "audited rolls verified",
                 "fairness sample"):
        assert any(line.startswith(f"PASS {what}:") for line in verdicts), what


@needs_micropython
@pytest.mark.parametrize(("module", "fixed", "fault", "failing"), [
    # Rolls drawn from fresh randomness, not from the committed secret: unprovable dice.
    ("dice.py", "faces = derive_roll(self.secret, self.rolls, kind, count)",
     "faces = derive_roll(os.urandom(32), self.rolls, kind, count)",
     "audited rolls verified"),
    # Issue 15's first fault: a roll of more dice than LEDs kills the board.
    ("core.py", '"faces": faces[:pins.DICE_LEDS]}', '"faces": faces}',
     "roll every kind, 1 to 8 dice"),
])
def test_a_faulty_board_fails_the_check_with_one_line(
    tmp_path: Path, module: str, fixed: str, fault: str, failing: str
) -> None:
    firmware = firmware_with_fault(tmp_path, module, fixed, fault)
    with SimulatedBoard(firmware=firmware) as sim:
        result = _check(sim.port)
    assert result.returncode == 2
    assert f"FAIL {failing}:" in result.stdout
    error = result.stderr.strip()
    assert "\n" not in error and error.startswith("conductor: board check failed: ")
    assert failing in error and "Traceback" not in result.stdout + result.stderr


def test_no_board_at_the_port_is_one_line() -> None:
    result = _check("/dev/nope")
    assert result.returncode == 2
    assert result.stderr.strip() == "conductor: no board found at /dev/nope: is it plugged in?"


@pytest.mark.parametrize(("statistic", "dof", "p_value"), [
    (3.841459, 1, 0.05), (5.991465, 2, 0.05), (11.070498, 5, 0.05), (20.515006, 5, 0.001),
    (0.0, 5, 1.0), (9.236357, 5, 0.1),
])
def test_chi_square_tail_matches_the_tables(statistic: float, dof: int, p_value: float) -> None:
    assert chi_square_survival(statistic, dof) == pytest.approx(p_value, abs=1e-6)


@pytest.mark.parametrize("seed", [20261125])
def test_the_fairness_sample_holds_the_ruled_doors_die_and_catches_a_3_3_one(seed: int) -> None:
    """The sample's test, on dice rolled by a seeded rng: a die at the ruled 4:2 odds fails it
    about as rarely as FAIRNESS_ALPHA says, and one at protocol 1.x's 3:3 never passes."""
    rng = random.Random(seed)
    sample = FAIRNESS_ROLLS["doors"] * dice.MAX_DICE
    ruled = dice.FACES["doors"]
    even = ("open", "open", "open", "closed", "closed", "closed")
    assert Counter(ruled) == {"open": 4, "closed": 2}
    trials = 1000
    ruled_failed = sum(odds_note("doors", rng.choices(ruled, k=sample))[0] < FAIRNESS_ALPHA
                       for _ in range(trials))
    even_passed = sum(odds_note("doors", rng.choices(even, k=sample))[0] >= FAIRNESS_ALPHA
                      for _ in range(200))
    # 1 in 1000 expected; 6 or more would happen by chance about 6 times in 10,000.
    assert ruled_failed <= 5, (seed, ruled_failed)
    assert even_passed == 0, (seed, even_passed)


@needs_micropython
def test_a_board_rolling_the_old_3_3_doors_die_fails_the_fairness_sample(tmp_path: Path) -> None:
    firmware = firmware_with_fault(
        tmp_path, "dice.py", '"doors": ("open", "open", "open", "open", "closed", "closed"),',
        '"doors": ("open", "open", "open", "closed", "closed", "closed"),')
    with SimulatedBoard(firmware=firmware, seed=SIM_SEED) as sim:
        result = _check(sim.port)
    assert result.returncode == 2, f"board seed {SIM_SEED}: {result.stdout}"
    fairness = next(line for line in result.stdout.splitlines()
                    if line.startswith("FAIL fairness sample:"))
    assert "dice off their odds: " in fairness and "doors open/closed " in fairness
    assert "at odds 4:2" in fairness and "FAIL audited rolls verified:" in result.stdout


def _frame(raw: bytes) -> Frame:
    try:
        return Frame(raw, protocol.decode_frame(raw))
    except protocol.FrameError:
        return Frame(raw, None)


@pytest.mark.parametrize(("payload", "bad"), [
    (b'{"id":7,"t":"pong"}', False),
    (b'{"t":"pong","id":7}', True),  # keys not sorted: not canonical
    (b'{"id":null,"msg":"two\\nlines","t":"err"}', True),
    (b'{"id":7.0,"t":"ok"}', True),
    (b'{"t":"ready"}', True),
    (b'{"by":"host","dice":"d6","faces":[7],"id":3,"kind":"roll","roll":0,"seq":1,"t":"ev"}',
     True),
    (b'{"by":"button","dice":"d6","faces":[6],"id":null,"kind":"roll","roll":0,"seq":1,"t":"ev"}',
     False),
    (b'{"t":"ok"', True),
])
def test_frame_problems_name_what_a_board_may_not_send(payload: bytes, bad: bool) -> None:
    frame = _frame(frame_of(payload)[:-1])
    assert bool(frame_problems(frame)) == bad, frame_problems(frame)


class UnpluggedPort:
    """A serial port whose board was pulled out: every read and write fails."""

    in_waiting = 0

    def read(self, size: int = 1) -> bytes:
        raise OSError(5, "Input/output error")

    def write(self, data: bytes, /) -> int:
        raise OSError(5, "Input/output error")

    def close(self) -> None:
        pass


def test_an_unplugged_board_is_a_board_error_not_a_traceback() -> None:
    raw = RawBoard(UnpluggedPort())
    with pytest.raises(BoardError, match="unplugged"):
        check_board(raw)


def _commitment(sim: SimulatedBoard) -> str:
    with RawBoard.open(sim.port) as raw:
        raw.send({"t": "hello", "v": [protocol.VERSION_MAJOR, protocol.VERSION_MINOR],
                  "boot": "", "ack": 0})
        raw.until(lambda frame: (frame.message or {}).get("t") == "hello", 10.0)
        reply = raw.request({"t": "commit"}, timeout=10.0)[-1].message or {}
    return str(reply.get("hash"))


@needs_micropython
def test_a_seeded_simulated_board_commits_to_the_same_secret_on_every_run() -> None:
    hashes = []
    for seed in (SIM_SEED, SIM_SEED, SIM_SEED + 1, None):
        with SimulatedBoard(seed=seed) as sim:
            hashes.append(_commitment(sim))
    assert all(len(commit) == 64 for commit in hashes), hashes
    assert hashes[0] == hashes[1]
    assert len(set(hashes[1:])) == 3, hashes  # another seed, or none, commits to another
