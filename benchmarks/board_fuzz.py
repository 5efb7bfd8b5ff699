"""The long fuzz of the real firmware, and a dice fairness sample through the wire.

Run from the repository root: ``python benchmarks/board_fuzz.py [--examples N] [--rolls R]
[--seed S]``. Part one sends N hypothesis-drawn steps (tests/board_fuzz_helpers.py: every
message type, allowed and forbidden values, bad JSON, damaged and oversize frames, noise) to
the simulated board and counts crashes and protocol violations; it does not stop at the
first. Part two rolls R x 8 dice of each kind in one audited session on a fresh board,
verifies every roll against the revealed secret and prints each kind's chi-square p-value.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from board_fuzz_helpers import Fuzzer, wire_chunks  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from host.board import SimulatedBoard  # noqa: E402
from host.board.conformance import odds_note  # noqa: E402
from host.board.shared import FIRMWARE_FOLDER, dice, protocol  # noqa: E402
from host.board.wire import RawBoard  # noqa: E402


def fuzz(examples: int, chosen_seed: int, firmware: Path) -> None:
    """Run ``examples`` fuzz steps on ``firmware``; print what broke."""
    problems: list[list[str]] = []
    with SimulatedBoard(firmware=firmware) as sim, RawBoard.open(sim.port) as raw:
        fuzzer = Fuzzer(sim, raw)
        started = time.monotonic()

        @seed(chosen_seed)
        @settings(max_examples=examples, database=None, deadline=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(chunks=wire_chunks(base=100))
        def step(chunks: list[bytes]) -> None:
            found = fuzzer.step(chunks)
            if found:
                problems.append(found)

        step()
        elapsed = time.monotonic() - started
        frames = len(raw.log)
        kinds: dict[str, int] = {}
        for frame in raw.log:
            kind = str((frame.message or {}).get("t"))
            kinds[kind] = kinds.get(kind, 0) + 1
    crashes = sum(any("died" in problem for problem in found) for found in problems)
    print(f"fuzz: seed {chosen_seed}, {examples} steps, {fuzzer.inputs} inputs sent, "
          f"{frames} frames back in {elapsed:.1f} s")
    print("  frames by type: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"  steps with a violation: {len(problems)}; board crashes: {crashes}; "
          f"restarts: {fuzzer.restarts}")
    for found in problems[:5]:
        print("  - " + "; ".join(found)[:300])


def fairness(rolls: int) -> None:
    """Roll ``rolls`` x 8 dice of every kind in one audited session; print p-values."""
    with SimulatedBoard() as sim, RawBoard.open(sim.port) as raw:
        raw.send_raw(b"\x00")
        raw.send({"t": "hello", "v": [protocol.VERSION_MAJOR, protocol.VERSION_MINOR],
                  "boot": "", "ack": 0})
        raw.until(lambda frame: (frame.message or {}).get("t") == "hello", 10.0)
        commitment = str(raw.request({"t": "commit"})[-1].message["hash"])  # type: ignore[index]
        seen: list[tuple[int, str, list[object]]] = []
        started = time.monotonic()
        for kind in sorted(dice.FACES):
            for _ in range(rolls):
                frames = raw.request({"t": "roll", "dice": kind, "n": dice.MAX_DICE})
                event = frames[-2].message if len(frames) >= 2 else None
                assert event is not None and event.get("t") == "ev", frames
                seen.append((int(event["roll"]), kind, list(event["faces"])))  # type: ignore[call-overload, arg-type]
                raw.send({"t": "ack", "seq": event["seq"]})
        elapsed = time.monotonic() - started
        reveal = raw.request({"t": "reveal"})[-1].message or {}
    dice.verify(commitment, str(reveal["secret"]), seen)
    print(f"fairness: {len(seen)} audited rolls ({len(seen) * dice.MAX_DICE} dice) in "
          f"{elapsed:.1f} s, all re-derived from the revealed secret")
    for kind in sorted(dice.FACES):
        faces = [face for _, rolled, got in seen if rolled == kind for face in got]
        print("  " + odds_note(kind, faces)[1])


def main() -> None:
    """Parse the options and run both parts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=3000, help="fuzz steps (default 3000)")
    parser.add_argument("--rolls", type=int, default=500, help="rolls of 8 per kind (500)")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed (random)")
    parser.add_argument("--firmware", type=Path, default=FIRMWARE_FOLDER,
                        help="fuzz another firmware folder (an older release, say)")
    args = parser.parse_args()
    chosen_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    fuzz(args.examples, chosen_seed, args.firmware)
    if args.rolls:
        fairness(args.rolls)


if __name__ == "__main__":
    main()
