"""The hardware docs agree with firmware/pins.py and the host's idea of the board's USB ids."""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

from firmware import pins
from host.board import ports

ROOT = Path(__file__).resolve().parent.parent
HARDWARE = ROOT / "hardware"
sys.path.append(str(HARDWARE))

import make_wiring  # noqa: E402


def _pinout_rows() -> dict[str, tuple[int, str]]:
    rows = {}
    for line in (HARDWARE / "pinout.md").read_text().splitlines():
        match = re.match(r"\|\s*GP(\d+)\s*\|\s*(\d+)\s*\|\s*(.+?)\s*\|$", line)
        if match:
            rows[f"GP{match.group(1)}"] = (int(match.group(2)), match.group(3))
    return rows


def test_pinout_table_matches_the_firmware_pins() -> None:
    wanted = {pins.LED_DATA: "LED data", pins.ROLL_BUTTON: "roll button",
              pins.BUZZER: "buzzer"}
    for seat, gpio in enumerate(pins.SEAT_BUTTONS):
        wanted[gpio] = f"seat {seat} button"
    rows = _pinout_rows()
    assert sorted(rows) == sorted(f"GP{gpio}" for gpio in wanted)
    for gpio, what in wanted.items():
        physical, description = rows[f"GP{gpio}"]
        assert physical == make_wiring.physical_pin(gpio), gpio
        assert what in description, (gpio, description)


def test_pinout_led_chain_matches_the_firmware_layout() -> None:
    text = (HARDWARE / "pinout.md").read_text()
    assert f"| 0-{pins.RING_LEDS - 1}  |" in text
    assert f"| {pins.RING_LEDS}-{pins.STATUS_LED - 1} |" in text
    assert f"| {pins.STATUS_LED}    | status" in text
    assert f"LEDs {pins.LEDS_PER_SEAT}-{2 * pins.LEDS_PER_SEAT - 1}" in text


def test_physical_pins_skip_the_grounds() -> None:
    grounds = {3, 8, 13, 18}
    numbers = [make_wiring.physical_pin(gpio) for gpio in range(16)]
    assert len(set(numbers)) == 16 and not grounds & set(numbers) and max(numbers) == 20


def test_committed_wiring_diagram_is_what_the_generator_draws() -> None:
    assert (HARDWARE / "wiring.svg").read_text() == make_wiring.draw(), (
        "hardware/wiring.svg is stale: run python hardware/make_wiring.py"
    )


def test_udev_rule_names_the_board_and_keeps_modemmanager_away() -> None:
    rule = (HARDWARE / "99-conductor-board.rules").read_text()
    active = [line for line in rule.splitlines() if line and not line.startswith("#")]
    assert len(active) == 1
    assert f'ATTRS{{idVendor}}=="{ports.PICO_VID:04x}"' in active[0]
    assert f'ATTRS{{idProduct}}=="{ports.PICO_PID:04x}"' in active[0]
    assert f'SYMLINK+="{Path(ports.UDEV_SYMLINK).name}"' in active[0]
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in active[0]


def test_bill_of_materials_is_complete_and_covers_the_leds_and_buttons() -> None:
    with open(HARDWARE / "bom.csv", newline="") as source:
        rows = list(csv.DictReader(source))
    assert rows and all(r["part"] and int(r["quantity"]) > 0 and float(r["unit cost (USD)"]) > 0
                        for r in rows)
    buttons = sum(int(r["quantity"]) for r in rows if "push button" in r["part"])
    assert buttons == len(pins.SEAT_BUTTONS) + 1
    ring = next(r for r in rows if "ring" in r["part"])
    assert str(pins.RING_LEDS) in ring["part"]
