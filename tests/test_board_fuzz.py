"""A property-based fuzzer of the real firmware (micropython, over the pty).

Hypothesis draws host messages of every type, with every value the spec allows and many it
does not (floats, bools, strings and junk where integers belong, unknown types, characters
the encoder refuses, JSON the strict grammar refuses, damaged and oversize frames, noise).
After each draw the board must be running, answer a ping, and have sent nothing PROTOCOL.md
forbids, with every reply the one its model expects (tests/board_fuzz_helpers.py). The long
run is benchmarks/board_fuzz.py.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from board_fuzz_helpers import Fuzzer, firmware_with_fault, wire_chunks
from hypothesis import HealthCheck, Phase, given, settings

from host.board import SimulatedBoard
from host.board.wire import RawBoard

pytestmark = pytest.mark.skipif(shutil.which("micropython") is None,
                                reason="micropython not installed")


@pytest.fixture(scope="module")
def fuzzer() -> Iterator[Fuzzer]:
    with SimulatedBoard() as sim, RawBoard.open(sim.port) as raw:
        yield Fuzzer(sim, raw)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chunks=wire_chunks(base=100))
def test_nothing_a_host_sends_stops_the_board_or_makes_it_break_the_protocol(
    fuzzer: Fuzzer, chunks: list[bytes]
) -> None:
    assert fuzzer.step(chunks) == []


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
