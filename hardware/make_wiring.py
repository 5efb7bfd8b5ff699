"""Draw hardware/wiring.svg from firmware/pins.py, so the diagram always shows the real pins.

Run from the repository root: ``python hardware/make_wiring.py``. The test suite checks that the
committed SVG is what this script draws today.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware import pins  # noqa: E402

OUTPUT = ROOT / "hardware" / "wiring.svg"
SEAT_COLOURS = ("#005aff", "#00c83c", "#e6b400", "#c800ff")


def physical_pin(gpio: int) -> int:
    """The Pico's header pin number of GPIO ``gpio`` (GP0-GP15 are pins 1-20, skipping grounds)."""
    if not 0 <= gpio <= 15:
        raise ValueError(f"GP{gpio} is not on the Pico's left header")
    pin = gpio + 1 + (gpio + 2) // 4  # a ground pin after every four GPIOs, starting at pin 3
    return pin


def _text(x: float, y: float, text: str, size: int = 12, anchor: str = "start") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-family="sans-serif" font-size="{size}" '
            f'text-anchor="{anchor}">{text}</text>')


def _wire(points: list[tuple[float, float]], colour: str) -> str:
    path = " ".join(f"{x:.0f},{y:.0f}" for x, y in points)
    return f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>'


def draw() -> str:
    """The wiring diagram as SVG text."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="820" height="560" '
             'viewBox="0 0 820 560">', '<rect width="820" height="560" fill="white"/>',
             _text(20, 30, "Conductor board wiring (generated from firmware/pins.py)", 16)]
    # The Pico, seen from above, USB at the top; left header pins 1-20 from the top.
    px, py, pitch = 300, 80, 20
    parts.append(f'<rect x="{px}" y="{py}" width="120" height="{pitch * 20 + 20}" rx="6" '
                 'fill="#2e7d32" stroke="black"/>')
    parts.append(_text(px + 60, py - 8, "Raspberry Pi Pico (USB to host)", 12, "middle"))

    def pin_y(gpio: int) -> float:
        return py + 10 + (physical_pin(gpio) - 1) * pitch + pitch / 2

    used = {pins.LED_DATA: "LED data", pins.ROLL_BUTTON: "roll button", pins.BUZZER: "buzzer"}
    for seat, gpio in enumerate(pins.SEAT_BUTTONS):
        used[gpio] = f"seat {seat} button"
    for gpio in sorted(used):
        y = pin_y(gpio)
        parts.append(f'<circle cx="{px}" cy="{y:.0f}" r="4" fill="gold" stroke="black"/>')
        parts.append(_text(px + 8, y + 4, f"GP{gpio} (pin {physical_pin(gpio)})", 10))
    parts.append(_text(px + 115, py + 30, "VBUS (pin 40)", 10, "end"))
    parts.append(_text(px + 115, py + 70, "GND (pin 38)", 10, "end"))
    # The LED ring: one arc per seat, data in at LED 0, then the dice/status stick.
    cx, cy, radius = 620, 200, 90
    for led in range(pins.RING_LEDS):
        angle = -math.pi / 2 + 2 * math.pi * led / pins.RING_LEDS
        seat = led // pins.LEDS_PER_SEAT
        x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
        parts.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="9" fill="{SEAT_COLOURS[seat]}" '
                     'stroke="black"/>')
        parts.append(_text(x, y + 4, str(led), 9, "middle"))
    for seat in range(len(pins.SEAT_BUTTONS)):
        angle = -math.pi / 2 + 2 * math.pi * (seat + 0.4) / len(pins.SEAT_BUTTONS)
        x, y = cx + 1.45 * radius * math.cos(angle), cy + 1.45 * radius * math.sin(angle)
        parts.append(_text(x, y, f"seat {seat}", 11, "middle"))
    parts.append(_text(cx, cy + 4, f"{pins.RING_LEDS}-LED WS2812B ring", 11, "middle"))
    sx, sy = 540, 380
    for position in range(pins.LED_COUNT - pins.RING_LEDS):
        led = pins.RING_LEDS + position
        label = "status" if led == pins.STATUS_LED else f"die {position + 1}"
        parts.append(f'<rect x="{sx + position * 44}" y="{sy}" width="30" height="30" '
                     'fill="#eeeeee" stroke="black"/>')
        parts.append(_text(sx + position * 44 + 15, sy + 19, str(led), 10, "middle"))
        parts.append(_text(sx + position * 44 + 15, sy + 45, label, 9, "middle"))
    parts.append(_wire([(cx, cy - radius - 9), (cx, cy - radius - 30)], "black"))
    last = -math.pi / 2 + 2 * math.pi * (pins.RING_LEDS - 1) / pins.RING_LEDS
    lx, ly = cx + radius * math.cos(last), cy + radius * math.sin(last)
    parts.append(_wire([(lx - 9, ly), (cx - radius - 40, ly), (cx - radius - 40, sy - 20),
                        (sx + 15, sy - 20), (sx + 15, sy)], "black"))
    parts.append(_text(sx + 25, sy - 25, f"DOUT of LED {pins.RING_LEDS - 1} to DIN of LED "
                       f"{pins.RING_LEDS}", 10))
    # Data wire: GPIO -> 330 ohm -> ring DIN (LED 0).
    data_y = pin_y(pins.LED_DATA)
    parts.append(_wire([(px, data_y), (250, data_y), (250, 60), (cx, 60),
                        (cx, cy - radius - 30)], "#d32f2f"))
    parts.append(_text(440, 55, f"GP{pins.LED_DATA} - 330 ohm - DIN (LED 0), 5 V and GND from VBUS",
                       10))
    # Buttons: each GPIO to a push button to ground (internal pull-ups).
    bx = 120
    buttons = [(f"seat {s}", g) for s, g in enumerate(pins.SEAT_BUTTONS)]
    buttons.append(("roll", pins.ROLL_BUTTON))
    for label, gpio in buttons:
        y = pin_y(gpio)
        parts.append(_wire([(px, y), (bx + 40, y)], "#1565c0"))
        parts.append(f'<rect x="{bx}" y="{y - 8:.0f}" width="40" height="16" fill="#bbdefb" '
                     'stroke="black"/>')
        parts.append(_text(bx - 6, y + 4, f"{label} button to GND", 10, "end"))
    buzzer_y = pin_y(pins.BUZZER)
    parts.append(_wire([(px, buzzer_y), (bx + 40, buzzer_y + 30)], "#6d4c41"))
    parts.append(_text(bx + 34, buzzer_y + 44, "optional piezo buzzer to GND", 10, "end"))
    parts.append(_text(20, 540, "Buttons pull their pin to GND (internal pull-ups). "
                       "1000 uF across the LED supply; LEDs capped in firmware (see README).", 11))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    """Write hardware/wiring.svg."""
    OUTPUT.write_text(draw())
    print(f"wrote {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
