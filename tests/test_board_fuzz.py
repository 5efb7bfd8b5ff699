"""A property-based fuzzer of the real firmware (micropython, over the pty).

Hypothesis draws host messages of every type, with every value the spec allows and many it
does not (floats, bools, strings and junk where integers belong, unknown types, characters
the encoder refuses, JSON the strict grammar refuses, damaged and oversize frames, noise).
After each draw the board must be running, answer a ping, and have sent nothing PROTOCOL.md
forbids, with every reply the one its model expects (tests/board_fuzz_helpers.py). The long
run is benchmarks/board_fuzz.py.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from board_fuzz_helpers import Fuzzer, firmware_with_fault, wire_chunks
from hypothesis import HealthCheck, Phase, given, seed, settings

from host.board import SimulatedBoard
from host.board.wire import RawBoard, frame_of

pytestmark = pytest.mark.skipif(shutil.which("micropython") is None,
                                reason="micropython not installed")


@pytest.fixture(scope="module")
def fuzzer() -> Iterator[Fuzzer]:
    with SimulatedBoard() as sim, RawBoard.open(sim.port) as raw:
        yield Fuzzer(sim, raw)


#: The search's seed: CONDUCTOR_FUZZ_SEED to replay a run, else a fixed one on CI (every build
#: explores the same steps) and a new one on a developer's machine (each run explores more).
FUZZ_SEED = int(os.environ.get("CONDUCTOR_FUZZ_SEED")
                or (20261124 if os.environ.get("CI") else random.randrange(2**32)))


# Only the search, no shrinking and no example database: the board keeps state (its repeat
# cache above all) from one step to the next, so replaying a step alone need not do the same
# again. The seed replays the whole run.
@seed(FUZZ_SEED)
@settings(max_examples=300, database=None, deadline=None, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])
@given(chunks=wire_chunks(base=100))
def test_nothing_a_host_sends_stops_the_board_or_makes_it_break_the_protocol(
    fuzzer: Fuzzer, chunks: list[bytes]
) -> None:
    problems = fuzzer.step(chunks)
    assert problems == [], f"CONDUCTOR_FUZZ_SEED={FUZZ_SEED} replays this run: {problems}"


@pytest.mark.parametrize(("module", "fixed", "fault"), [
    # Issue 15's faults, put back: the fuzzer must find each by itself.
    ("core.py", '"faces": faces[:pins.DICE_LEDS]}', '"faces": faces}'),
    ("core.py", '"msg": protocol.printable(reason, REASON_CHARS)}', '"msg": reason}'),
])
def test_the_fuzzer_finds_a_fault_put_back_into_the_firmware(
    tmp_path: Path, module: str, fixed: str, fault: str
) -> None:
    firmware = firmware_with_fault(tmp_path, module, fixed, fault)
    found: list[list[str]] = []
    with SimulatedBoard(firmware=firmware) as sim, RawBoard.open(sim.port) as raw:
        broken = Fuzzer(sim, raw)

        # Only the search, no shrinking: the board keeps state (its repeat cache above all)
        # from one example to the next, so replaying an example need not do the same again.
        @settings(max_examples=300, database=None, derandomize=True, deadline=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(chunks=wire_chunks(base=100))
        def search(chunks: list[bytes]) -> None:
            if not found:
                problems = broken.step(chunks)
                if problems:
                    found.append(problems)

        search()
    assert found, f"the fuzzer missed a fault: {fault}"


def test_a_request_with_the_closing_pings_id_does_not_shift_the_next_steps_replies(
    fuzzer: Fuzzer,
) -> None:
    # The flaky failure of a non-derandomized run: a fuzzed request carried the id the closing
    # ping was about to get, its reply ended the wait early, and the replies still on the line
    # (the pong among them) were paired with the next step's requests.
    coming = fuzzer.raw.next_id + 1
    colliding = frame_of(json.dumps({"t": "commit", "id": coming}).encode())
    fresh = frame_of(json.dumps({"t": "commit", "id": coming + 5000}).encode())
    assert fuzzer.step([colliding]) == []
    assert fuzzer.step([fresh]) == []
