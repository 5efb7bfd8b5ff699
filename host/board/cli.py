"""``conductor board sim|monitor|flash``: simulate a board, watch and drive one, flash one."""

from __future__ import annotations

import argparse
import contextlib
import shutil
import string
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from host.board.errors import BoardError
from host.board.events import BoardEvent, ButtonPress
from host.board.pictures import Picture
from host.board.ports import SerialPort, find_board, open_port
from host.board.recording import RecordingPort, recording_opener
from host.errors import BadInputError
from host.turns import Direction

if TYPE_CHECKING:
    from host.board.link import BoardLink
    from host.board.sim import SimulatedBoard

# The link and the simulator load the firmware's codec; they are imported when a board
# command runs, so a broken install fails that command with one line, not every command.

#: What `board flash` copies to the Pico: every firmware module, flat, main.py last so a
#: half-finished copy never boots into a firmware with missing modules.
FLASH_ORDER = (
    "protocol.py",
    "dice.py",
    "pins.py",
    "buttons.py",
    "leds.py",
    "store.py",
    "core.py",
    "hardware.py",
    "main.py",
)

MONITOR_HELP = """commands:
  roll KIND N           roll N dice (KIND: d6, wheel, doors)
  arm KIND N            make the roll button roll N dice of KIND (N 0: nothing)
  turn SEAT [SEATS] [ccw]   light SEAT's turn with SEATS seats in play (default 4)
  alert | calm          red alert flash on or off
  win SEAT...           light the winners
  commit | reveal       start / end an audited dice session
  quit"""


BOARD_ID_DIGITS = 16
"""A Pico's unique id is 8 bytes, shown as 16 hex digits."""


def board_id(text: str) -> str:
    """``--board-id``: a chip id as the firmware reports it (16 hex digits, lower case)."""
    if len(text) != BOARD_ID_DIGITS or any(c not in string.hexdigits for c in text):
        raise argparse.ArgumentTypeError(
            f"a board id is {BOARD_ID_DIGITS} hex digits (like 514db0a200000001), not {text!r}"
        )
    return text.lower()


def register(commands: Any) -> None:
    """Add ``board`` and its sub-commands to the command line."""
    board = commands.add_parser("board", help="the dice/LED board: simulate, monitor, flash")
    jobs = board.add_subparsers(dest="board_command", required=True, metavar="JOB")

    sim = jobs.add_parser("sim", help="run the simulated board on a pseudo-terminal")
    sim.add_argument("--board-id", type=board_id, default="514db0a200000001",
                     help="simulated chip id (16 hex digits)")
    sim.add_argument("--seed", type=int, default=None,
                     help="make the board's secrets, so its dice, replayable from this number "
                          "(for tests; a real board is unseeded)")
    sim.set_defaults(run=_sim)

    monitor = jobs.add_parser("monitor", help="show board events; roll dice and light seats")
    monitor.add_argument("port", nargs="?", help="serial port, or 'sim' (default: find the Pico)")
    monitor.add_argument(
        "--check",
        action="store_true",
        help="check the board against the protocol (handshake, every request, the test "
        "vectors, an audited roll, a fairness sample), print pass/fail, exit 0 or 2",
    )
    monitor.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="record every byte both ways to FILE (JSON lines)",
    )
    monitor.set_defaults(run=_monitor)

    flash = jobs.add_parser("flash", help="copy the firmware to a Pico with mpremote")
    flash.add_argument("port", nargs="?", help="serial port (default: find the Pico)")
    flash.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    flash.set_defaults(run=_flash)


# -- sim ---------------------------------------------------------------------------------------


def _sim(args: argparse.Namespace) -> int:
    from host.board.sim import SimulatedBoard

    with SimulatedBoard(board_id=args.board_id, seed=args.seed) as sim:
        print(f"simulated board on {sim.port}", flush=True)
        print(f"connect with: conductor board monitor {sim.port}", flush=True)
        print("type: press seat0..seat3|roll [MS], leds, kill, start, quit", flush=True)
        if not drive_simulation(sim, sys.stdin, sys.stdout):
            # The input ended without "quit" (none attached): keep the board up until Ctrl-C.
            threading.Event().wait()
    return 0


def drive_simulation(sim: SimulatedBoard, lines: Iterable[str], out: TextIO) -> bool:
    """Carry out simulation commands (press, leds, kill, start); True once ``quit`` is typed."""
    for line in lines:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "quit":
                return True
            if words[0] == "press" and len(words) in (2, 3):
                sim.press(words[1], int(words[2]) if len(words) == 3 else 80)
            elif words[0] == "leds":
                print(" ".join(f"{r:02x}{g:02x}{b:02x}" for r, g, b in sim.leds()), file=out)
            elif words[0] == "kill":
                sim.kill()
            elif words[0] == "start":
                sim.start()
            else:
                print(f"? {line.strip()}", file=out)
        except (BoardError, ValueError) as error:
            print(f"! {error}", file=out)
        out.flush()
    return False


# -- monitor -----------------------------------------------------------------------------------


def describe(event: BoardEvent) -> str:
    """One line for an event, as the monitor prints it."""
    if isinstance(event, ButtonPress):
        return f"#{event.seq} press {event.button}{' (long)' if event.long else ''}"
    source = "button" if event.by_button else "host"
    faces = " ".join(str(face) for face in event.faces)
    return f"#{event.seq} roll {event.kind} by {source}: {faces} (roll {event.index})"


def _monitor(args: argparse.Namespace) -> int:
    from host.board.sim import SimulatedBoard

    sim = SimulatedBoard() if args.port == "sim" else None
    try:
        port = sim.port if sim is not None else args.port
        if args.check:
            return _check(port, args.record)
        with contextlib.ExitStack() as stack:
            link = stack.enter_context(_open_link(port, args.record, stack))
            info = link.info
            assert info is not None
            print(
                f"board {info.board_id} firmware {info.firmware} protocol "
                f"{info.protocol[0]}.{info.protocol[1]} on {link.name}",
                flush=True,
            )
            if info.lost:
                print(
                    f"warning: the board dropped {info.lost} events nobody acknowledged", flush=True
                )
            print(MONITOR_HELP, flush=True)
            stop = threading.Event()
            printer = threading.Thread(target=_print_events, args=(link, stop), daemon=True)
            printer.start()
            run_monitor_commands(link, sys.stdin, sys.stdout)
            stop.set()
            printer.join(timeout=1.0)
    finally:
        if sim is not None:
            sim.close()
    return 0


def _check(port: str | None, record: Path | None) -> int:
    """Run the conformance check; print one line per check; exit 2 if any failed."""
    from host.board.conformance import check_board
    from host.board.wire import RawBoard

    device = port or find_board()
    with contextlib.ExitStack() as stack:
        serial_port: SerialPort = open_port(device)
        stack.callback(serial_port.close)
        if record is not None:
            serial_port = RecordingPort(serial_port, _record_file(record, stack), time.monotonic())
        print(f"checking the board on {device} against firmware/PROTOCOL.md", flush=True)
        results = check_board(RawBoard(serial_port))
    for result in results:
        print(f"{'PASS' if result.passed else 'FAIL'} {result.name}: {result.detail}")
    failed = [result.name for result in results if not result.passed]
    print(f"{len(results) - len(failed)} of {len(results)} checks passed", flush=True)
    if failed:
        raise BadInputError(f"board check failed: {', '.join(failed)} (see the list above)")
    return 0


def _record_file(record: Path, stack: contextlib.ExitStack) -> TextIO:
    try:
        return stack.enter_context(record.open("w"))
    except OSError as error:
        raise BadInputError(f"cannot write {record}: {error.strerror}") from None


def _open_link(port: str | None, record: Path | None, stack: contextlib.ExitStack) -> BoardLink:
    from host.board.link import BoardLink

    if record is None:
        return BoardLink.open(port)
    device = port or find_board()
    out = _record_file(record, stack)
    link = BoardLink(recording_opener(lambda: open_port(device), out), name=device)
    link.start()
    return link


def _print_events(link: BoardLink, stop: threading.Event) -> None:
    was_connected = True
    while not stop.is_set():
        event = link.next_event(timeout=0.2)
        if event is not None:
            print(describe(event), flush=True)
        if link.connected != was_connected:
            was_connected = link.connected
            print("link up" if was_connected else f"link down: {link.problem}", flush=True)


def run_monitor_commands(link: BoardLink, lines: Iterable[str], out: TextIO) -> None:
    """Carry out monitor commands (see MONITOR_HELP) until ``quit`` or the input ends."""
    picture = Picture(seats=4)
    for line in lines:
        words = line.split()
        if not words:
            continue
        command, rest = words[0], words[1:]
        try:
            if command == "quit":
                return
            if command == "roll" and len(rest) == 2:
                faces = link.roll(rest[0], int(rest[1]))
                print("rolled " + " ".join(str(face) for face in faces), file=out)
            elif command == "arm" and len(rest) == 2:
                link.arm(rest[0], int(rest[1]))
            elif command == "turn" and 1 <= len(rest) <= 3:
                seats = int(rest[1]) if len(rest) >= 2 else 4
                direction = Direction.COUNTERCLOCKWISE if "ccw" in rest else Direction.CLOCKWISE
                picture = Picture(
                    seats=seats, turn=int(rest[0]), direction=direction, dice=picture.dice
                )
                link.show(picture)
            elif command in ("alert", "calm"):
                picture = Picture(
                    picture.seats,
                    picture.turn,
                    picture.direction,
                    picture.skipped,
                    picture.winners,
                    command == "alert",
                    picture.dice,
                )
                link.show(picture)
            elif command == "win" and rest:
                picture = Picture(seats=picture.seats, winners=frozenset(int(s) for s in rest))
                link.show(picture)
            elif command == "commit":
                print(f"committed {link.commit()}", file=out)
            elif command == "reveal":
                report = link.reveal()
                print(
                    f"audit ok: {len(report.rolls)} rolls follow from secret {report.secret}",
                    file=out,
                )
            else:
                print(f"? {line.strip()} (see the commands above)", file=out)
        except (BadInputError, ValueError) as error:
            print(f"! {error}", file=out)
        out.flush()


# -- flash -------------------------------------------------------------------------------------


def flash_commands(port: str, mpremote: list[str]) -> list[list[str]]:
    """The mpremote commands that copy the firmware to the board on ``port`` and restart it."""
    from host.board.shared import FIRMWARE_FOLDER as FIRMWARE

    commands = [
        [*mpremote, "connect", port, "cp", str(FIRMWARE / name), ":" + name] for name in FLASH_ORDER
    ]
    commands.append([*mpremote, "connect", port, "reset"])
    return commands


def _mpremote() -> list[str]:
    found = shutil.which("mpremote")
    if found is None:
        raise BadInputError(
            "mpremote is not installed: pip install mpremote (or pip install 'conductor[flash]')"
        )
    return [found]


def _flash(args: argparse.Namespace) -> int:
    from host.board.shared import FIRMWARE_FOLDER as FIRMWARE

    for name in FLASH_ORDER:
        if not (FIRMWARE / name).exists():
            raise BadInputError(f"firmware file missing: {Path(FIRMWARE, name)}")
    if args.port is not None:
        port = args.port
    elif args.dry_run:
        # A dry run shows the commands; with no board plugged in, a placeholder names the port.
        try:
            port = find_board()
        except BadInputError:
            port = "PORT"
    else:
        port = find_board()
    mpremote = ["mpremote"] if args.dry_run else _mpremote()
    print(
        f"flashing the Conductor firmware to {port}; if the board runs it already, hold the "
        "roll button while plugging it in (maintenance mode) so mpremote can take over"
    )
    for command in flash_commands(port, mpremote):
        print(" ".join(command), flush=True)
        if args.dry_run:
            continue
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            reason = (result.stderr or result.stdout).strip().splitlines()
            raise BadInputError(f"mpremote failed: {reason[-1] if reason else 'no reason given'}")
    return 0
