"""The LED picture: checking what the host asks for and turning it into pixel colours.

No hardware here: ``render`` maps a picture and the time to one (r, g, b) per LED, including
the animations (pulse on the seat on turn, a light travelling the play direction, a red alert
flash, the idle breath) and the brightness limit.
"""

import dice
import pins

#: Highest brightness the firmware ever drives (of 255): keeps the LEDs bearable and cool.
MAX_LEVEL = 96
#: Current budget for the whole chain, in mA (USB gives 500 mA; the Pico and margin take 100).
CURRENT_BUDGET_MA = 400
#: Current of one colour channel at full brightness, in mA (WS2812B datasheet).
CHANNEL_MA = 20

SEAT_COLOURS = ((0, 90, 255), (0, 255, 60), (255, 200, 0), (200, 0, 255))
SKIPPED = (120, 40, 0)
WINNER = (255, 170, 0)
ALERT = (255, 0, 0)
CONNECTED = (0, 40, 0)
IDLE = (0, 0, 255)
FACE_COLOURS = {
    1: (255, 0, 0), 2: (255, 140, 0), 3: (255, 255, 0),
    4: (0, 255, 0), 5: (0, 80, 255), 6: (180, 0, 255),
    "wheel": (0, 255, 0), "blank": (40, 40, 40),
    "open": (0, 255, 0), "closed": (255, 0, 0),
}

PULSE_MS = 1200
STEP_MS = 150
FLASH_MS = 500
BREATH_MS = 4000

MAX_SEATS = len(pins.SEAT_BUTTONS)


def blank_picture() -> "dict[str, object]":
    """The picture before the host has said anything: nothing lit."""
    return {"seats": 0, "turn": None, "dir": 1, "skip": [], "win": [], "alert": False,
            "dice": None, "level": 255}


def _seat(value: object) -> bool:
    return dice.integer_in(value, 0, MAX_SEATS - 1)


def parse_picture(fields: object) -> "dict[str, object]":
    """A complete picture from the host's ``pic`` (missing fields get defaults).

    Raises ValueError with a one-line reason when a field is out of range.
    """
    if not isinstance(fields, dict):
        raise ValueError("pic must be an object")
    picture = blank_picture()
    for key in picture:
        if key in fields:
            picture[key] = fields[key]
    seats = picture["seats"]
    if not dice.integer_in(seats, 0, MAX_SEATS):
        raise ValueError("seats must be 0 to " + str(MAX_SEATS))
    if picture["turn"] is not None and not _seat(picture["turn"]):
        raise ValueError("turn must be a seat number or null")
    if not dice.integer_in(picture["dir"], -1, 1) or picture["dir"] == 0:
        raise ValueError("dir must be 1 or -1")
    for key in ("skip", "win"):
        seat_list = picture[key]
        if not isinstance(seat_list, list) or not all(_seat(s) for s in seat_list):
            raise ValueError(key + " must be a list of seat numbers")
    if picture["alert"] is not True and picture["alert"] is not False:
        raise ValueError("alert must be true or false")
    level = picture["level"]
    if not dice.integer_in(level, 0, 255):
        raise ValueError("level must be 0 to 255")
    shown = picture["dice"]
    if shown is not None:
        if not isinstance(shown, dict) or shown.get("kind") not in dice.FACES:
            raise ValueError("dice must be null or {kind, faces}")
        faces = shown.get("faces")
        allowed = dice.FACES[str(shown["kind"])]
        # 1.0 == 1 and True == 1 in Python: a face must also be of its kind's type.
        if not isinstance(faces, list) or len(faces) > pins.DICE_LEDS \
                or not all(face in allowed and type(face) is type(allowed[0]) for face in faces):
            raise ValueError("dice faces do not fit the kind or the LEDs")
    return picture


def _scale(colour: "tuple[int, int, int]", numerator: int, denominator: int) -> "tuple[int, int, int]":
    return (colour[0] * numerator // denominator, colour[1] * numerator // denominator,
            colour[2] * numerator // denominator)


def _triangle(now: int, period: int, low: int) -> int:
    """A brightness in [low, 255] going up and down once per period."""
    phase = now % period
    half = period // 2
    rising = phase if phase < half else period - phase
    return low + (255 - low) * rising // half


def render(picture: "dict[str, object]", now: int, idle: bool) -> "list[tuple[int, int, int]]":
    """The colour of every LED at ``now`` ms, before the brightness limit."""
    pixels: list[tuple[int, int, int]] = [(0, 0, 0)] * pins.LED_COUNT
    if idle:
        pixels[pins.STATUS_LED] = _scale(IDLE, _triangle(now, BREATH_MS, 10), 255)
        return pixels
    pixels[pins.STATUS_LED] = CONNECTED
    seats = picture["seats"]
    skipped = picture["skip"]
    winners = picture["win"]
    assert isinstance(seats, int) and isinstance(skipped, list) and isinstance(winners, list)
    turn = picture["turn"]
    direction = picture["dir"]
    assert isinstance(direction, int)
    for seat in range(seats):
        first = seat * pins.LEDS_PER_SEAT
        if seat in winners:
            colour = WINNER
        elif seat in skipped:
            colour = SKIPPED
        elif seat == turn:
            colour = _scale(SEAT_COLOURS[seat], _triangle(now, PULSE_MS, 60), 255)
        else:
            colour = _scale(SEAT_COLOURS[seat], 1, 12)
        for led in range(first, first + pins.LEDS_PER_SEAT):
            pixels[led] = colour
        if seat == turn and seat not in winners:
            # One white light runs round the arc in the direction play goes on.
            step = (now // STEP_MS) % pins.LEDS_PER_SEAT
            pixels[first + (step if direction == 1 else pins.LEDS_PER_SEAT - 1 - step)] = \
                (255, 255, 255)
    if picture["alert"]:
        flash = ALERT if (now // FLASH_MS) % 2 == 0 else (0, 0, 0)
        for led in range(pins.RING_LEDS):
            pixels[led] = flash
    shown = picture["dice"]
    if isinstance(shown, dict):
        faces = shown["faces"]
        assert isinstance(faces, list)
        for position, face in enumerate(faces):
            pixels[pins.RING_LEDS + position] = FACE_COLOURS[face]
    return pixels


def limit(pixels: "list[tuple[int, int, int]]", level: int) -> "list[tuple[int, int, int]]":
    """Apply the requested level, capped at MAX_LEVEL and at the chain's current budget."""
    level = min(level, MAX_LEVEL)
    scaled = [_scale(pixel, level, 255) for pixel in pixels]
    total = 0
    for pixel in scaled:
        total += pixel[0] + pixel[1] + pixel[2]
    current_ma = total * CHANNEL_MA // 255
    if current_ma > CURRENT_BUDGET_MA:
        scaled = [_scale(pixel, CURRENT_BUDGET_MA, current_ma) for pixel in scaled]
    return scaled
