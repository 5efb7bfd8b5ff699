"""Where everything is wired on the Pico: the one source for firmware and hardware docs.

hardware/pinout.md and the wiring diagram are checked against (or generated from) these
numbers by the tests, so change a pin here and the docs must follow.
"""

#: GPIO driving the WS2812 chain's data input (through a 330 ohm resistor).
LED_DATA = 2
#: GPIO of each seat button, seat 0 first; buttons pull the pin to ground (internal pull-up).
SEAT_BUTTONS = (10, 11, 12, 13)
#: GPIO of the roll button (also held at power-up to skip the firmware: maintenance mode).
ROLL_BUTTON = 14
#: GPIO of the optional piezo buzzer.
BUZZER = 15

#: LEDs of the seat ring: one arc of LEDS_PER_SEAT per seat, seat 0 first, clockwise.
RING_LEDS = 16
LEDS_PER_SEAT = 4
#: After the ring on the same chain: a stick with one LED per die, then the status LED.
DICE_LEDS = 4
STATUS_LED = RING_LEDS + DICE_LEDS
LED_COUNT = STATUS_LED + 1
