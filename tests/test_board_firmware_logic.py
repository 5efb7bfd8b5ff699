"""The firmware's game-free logic (core, buttons, LEDs, dice) under CPython and micropython.

The same scenario script runs under both interpreters and must print the same result; the
behaviour itself is asserted on the CPython side, with hypothesis where inputs vary.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
SCENARIO = ROOT / "tests/fixtures/board/scenario.py"
# The firmware's modules import each other flat, as they sit on the Pico.
sys.path.append(str(FIRMWARE))  # appended: never shadows another module

import buttons  # noqa: E402
import core  # noqa: E402
import dice  # noqa: E402
import leds  # noqa: E402
import pins  # noqa: E402
import protocol  # noqa: E402

#: The version a host of this checkout greets the board with.
HELLO_V = [protocol.VERSION_MAJOR, protocol.VERSION_MINOR]


def _scenario(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    result = subprocess.run([*command, str(SCENARIO)], capture_output=True, text=True,
                            env={**os.environ, **env}, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


@pytest.fixture(scope="module")
def scenario() -> dict[str, Any]:
    return _scenario([sys.executable], {"PYTHONPATH": str(FIRMWARE)})


@pytest.mark.skipif(shutil.which("micropython") is None, reason="micropython not installed")
def test_micropython_and_cpython_agree_on_the_whole_scenario(scenario: dict[str, Any]) -> None:
    assert _scenario(["micropython"], {"MICROPYPATH": str(FIRMWARE)}) == scenario


def test_bouncy_press_long_press_and_glitch_give_one_event_each(scenario: dict[str, Any]) -> None:
    assert [kind for _, kind in scenario["presses"]] == ["short", "long"]


def test_core_insists_on_hello_then_serves_requests_once(scenario: dict[str, Any]) -> None:
    log = scenario["core"]
    assert log[0] == [{"t": "err", "id": 1, "msg": "say hello first", "need": "hello"}]
    first_roll, repeated_roll = log[3], log[4]
    assert [m["t"] for m in first_roll] == ["ev", "ok"]
    assert repeated_roll == [first_roll[1]]  # the same answer, no second roll event
    assert log[5][0]["t"] == "err" and log[6] == [{"t": "ok", "id": 5}]
    assert log[7][0]["t"] == "err" and "frobnicate" in log[8][0]["msg"]


def test_core_resends_unacknowledged_events_and_replays_only_the_rest(
    scenario: dict[str, Any],
) -> None:
    log = scenario["core"]
    button_events = log[10]
    assert [(m["kind"], m.get("by")) for m in button_events] == [("press", None),
                                                                  ("roll", "button")]
    resent, replay = log[11], log[12]
    assert [m["seq"] for m in resent] == [1, 2, 3]
    assert replay[0]["t"] == "hello"
    assert [m["seq"] for m in replay[1:]] == [3]


def test_revealed_secret_proves_every_roll_of_the_session(scenario: dict[str, Any]) -> None:
    log = scenario["core"]
    commitment = log[2][0]["hash"]
    reveal = log[-1][0]
    rolls = [(m["roll"], m["dice"], m["faces"]) for entry in log for m in entry
             if m.get("t") == "ev" and m.get("kind") == "roll"]
    unique = sorted({(i, k, tuple(f)) for i, k, f in rolls})
    assert reveal["rolls"] == len(unique) == 2
    dice.verify(commitment, reveal["secret"], [(i, k, list(f)) for i, k, f in unique])
    tampered = [(i, k, list(f)) for i, k, f in unique]
    tampered[0][2][0] = "wheel" if tampered[0][2][0] == "blank" else "blank"
    with pytest.raises(dice.DiceError):
        dice.verify(commitment, reveal["secret"], tampered)


# -- dice ------------------------------------------------------------------------------------

CHI_SQUARE_5_DOF_P001 = 20.515  # 0.1 % critical value: a fair die fails 1 seed in 1000
CHI_SQUARE_1_DOF_P001 = 10.828


@pytest.mark.parametrize("seed", [20261122])
def test_d6_faces_are_uniform(seed: int) -> None:
    entropy = random.Random(seed).randbytes
    counts = dict.fromkeys(dice.FACES["d6"], 0)
    for _ in range(400):
        session = dice.Session(entropy)
        for _ in range(10):
            for face in session.roll("d6", 8)[1]:
                counts[face] += 1
    expected = sum(counts.values()) / 6
    chi_square = sum((seen - expected) ** 2 / expected for seen in counts.values())
    assert chi_square < CHI_SQUARE_5_DOF_P001, (seed, counts)


@pytest.mark.parametrize(("kind", "common", "share"), [("wheel", "wheel", 4 / 6),
                                                       ("doors", "open", 4 / 6)])
def test_wheel_and_doors_dice_follow_their_faces(kind: str, common: str, share: float) -> None:
    seed = 7
    entropy = random.Random(seed).randbytes
    session = dice.Session(entropy)
    faces = [face for _ in range(3000) for face in session.roll(kind, 4)[1]]
    hits = faces.count(common)
    expected_hits, expected_misses = len(faces) * share, len(faces) * (1 - share)
    chi_square = ((hits - expected_hits) ** 2 / expected_hits
                  + (len(faces) - hits - expected_misses) ** 2 / expected_misses)
    assert chi_square < CHI_SQUARE_1_DOF_P001, (seed, hits, len(faces))


def test_bytes_that_would_bias_the_die_are_rejected() -> None:
    # Roll 4 of the PROTOCOL.md vector secret starts with byte 0xfc (252): it must be skipped.
    import hashlib

    secret = bytes(range(32))
    stream = hashlib.sha256(secret + b"roll" + (4).to_bytes(4, "big") + bytes(4)).digest()
    assert stream[0] >= 252
    faces = dice.derive_roll(secret, 4, "d6", 4)
    assert faces == [dice.FACES["d6"][b % 6] for b in stream if b < 252][:4]


@pytest.mark.parametrize(("kind", "count"), [("d20", 1), ("d6", 0), ("d6", 9), ("d6", True)])
def test_impossible_rolls_are_refused(kind: str, count: int) -> None:
    with pytest.raises(dice.DiceError):
        dice.Session(random.Random(1).randbytes).roll(kind, count)


# -- buttons ---------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(
    hold=st.integers(min_value=40, max_value=1500),
    press_chatter=st.lists(st.integers(1, 3), max_size=6),
    release_chatter=st.lists(st.integers(1, 3), max_size=6),
)
def test_any_bounce_gives_exactly_one_press_of_the_right_length(
    hold: int, press_chatter: list[int], release_chatter: list[int]
) -> None:
    levels: list[bool] = [False] * 5
    for chatter in (press_chatter, release_chatter):
        pressing = chatter is press_chatter
        for position, run in enumerate(chatter):  # alternating runs shorter than the debounce
            levels += [pressing == (position % 2 == 0)] * run
        levels += [pressing] * (hold if pressing else 60)
    button = buttons.Button("seat1")
    presses = [p for now, level in enumerate(levels) if (p := button.update(level, now))]
    # Chatter counts as contact time too: the press spans at most all of it plus the hold.
    span = sum(press_chatter) + hold + sum(release_chatter)
    long_enough = hold >= buttons.LONG_PRESS_MS + buttons.DEBOUNCE_MS
    too_short = span + buttons.DEBOUNCE_MS < buttons.LONG_PRESS_MS
    assert len(presses) == 1
    if long_enough:
        assert presses == ["long"]
    if too_short:
        assert presses == ["short"]


# -- LEDs ------------------------------------------------------------------------------------

@pytest.mark.parametrize("pic", [
    {"seats": 5}, {"turn": 4}, {"dir": 0}, {"skip": [7]}, {"alert": 1}, {"level": 300},
    {"dice": {"kind": "d6", "faces": [7]}}, {"dice": {"kind": "d6", "faces": [1] * 5}}, [],
])
def test_impossible_pictures_are_refused(pic: object) -> None:
    with pytest.raises(ValueError):
        leds.parse_picture(pic)


def _seat_brightness(pixels: list[tuple[int, int, int]], seat: int) -> int:
    first = seat * pins.LEDS_PER_SEAT
    return sum(sum(p) for p in pixels[first: first + pins.LEDS_PER_SEAT])


def test_seat_on_turn_outshines_the_others_and_dark_seats_stay_dark() -> None:
    picture = leds.parse_picture({"seats": 3, "turn": 1})
    for now in range(0, 2400, 97):
        pixels = leds.render(picture, now, idle=False)
        assert _seat_brightness(pixels, 1) > 2 * _seat_brightness(pixels, 0)
        assert _seat_brightness(pixels, 3) == 0


def test_travelling_light_runs_the_way_play_goes() -> None:
    def white_led(direction: int, now: int) -> int:
        picture = leds.parse_picture({"seats": 2, "turn": 0, "dir": direction})
        pixels = leds.render(picture, now, idle=False)
        return pixels.index((255, 255, 255))

    steps = [leds.STEP_MS * k for k in range(3)]
    assert [white_led(1, t) for t in steps] == [0, 1, 2]
    assert [white_led(-1, t) for t in steps] == [3, 2, 1]


def test_idle_shows_only_the_status_breath() -> None:
    pixels = leds.render(leds.parse_picture({"seats": 4, "turn": 0}), 1000, idle=True)
    assert all(p == (0, 0, 0) for i, p in enumerate(pixels) if i != pins.STATUS_LED)
    assert pixels[pins.STATUS_LED][2] > 0


@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
                min_size=pins.LED_COUNT, max_size=pins.LED_COUNT), st.integers(0, 255))
def test_brightness_never_exceeds_the_cap_or_the_current_budget(
    pixels: list[tuple[int, int, int]], level: int
) -> None:
    limited = leds.limit(pixels, level)
    assert max(max(p) for p in limited) <= leds.MAX_LEVEL
    total_ma = sum(sum(p) for p in limited) * leds.CHANNEL_MA / 255
    assert total_ma <= leds.CURRENT_BUDGET_MA


def test_outbox_overflow_drops_the_oldest_and_says_so() -> None:
    board = core.BoardCore("ab", random.Random(3).randbytes)
    board.receive({"t": "hello", "v": HELLO_V, "boot": "", "ack": 0}, 0)
    for seq in range(core.OUTBOX_SIZE + 3):
        board.receive({"t": "roll", "id": 100 + seq, "dice": "d6", "n": 1}, seq)
    again = board.receive({"t": "hello", "v": HELLO_V, "boot": board.boot, "ack": 0}, 1000)
    assert again[0]["lost"] == 3
    assert [m["seq"] for m in again[1:]] == list(range(4, core.OUTBOX_SIZE + 4))


_field = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=8,
)
_host_message = st.fixed_dictionaries(
    {"t": st.sampled_from(["hello", "ping", "ack", "show", "roll", "arm", "commit", "reveal",
                           "nonsense"])},
    optional={key: _field for key in ("id", "seq", "boot", "ack", "v", "pic", "dice", "n")},
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_host_message, max_size=12))
def test_no_host_message_can_stop_the_board(messages: list[dict[str, object]]) -> None:
    board = core.BoardCore("ab", random.Random(0).randbytes)
    board.receive({"t": "hello", "v": HELLO_V, "boot": "", "ack": 0}, 0)
    for now, message in enumerate(messages, start=1):
        replies = board.receive(message, now)
        assert all(isinstance(reply.get("t"), str) for reply in replies)
        board.pixels(now)  # whatever was accepted can still be drawn


class MemoryStore:
    """The state file, in memory."""

    def __init__(self, state: dict[str, object] | None = None) -> None:
        self.state = state

    def load(self) -> dict[str, object] | None:
        return self.state

    def save(self, state: dict[str, object]) -> None:
        self.state = json.loads(json.dumps(state))  # only what survives the file


def test_a_reset_board_takes_up_numbering_events_and_audit_where_it_left_off() -> None:
    store = MemoryStore()
    entropy = random.Random(9).randbytes
    board = core.BoardCore("ab", entropy, store)
    board.receive({"t": "hello", "v": HELLO_V, "boot": "", "ack": 0}, 0)
    commit = board.receive({"t": "commit", "id": 1}, 1)[0]
    board.receive({"t": "roll", "id": 2, "dice": "d6", "n": 2}, 2)
    board.receive({"t": "roll", "id": 3, "dice": "wheel", "n": 3}, 3)
    board.receive({"t": "ack", "seq": 1}, 4)

    reborn = core.BoardCore("ab", entropy, store)
    assert reborn.receive({"t": "ping", "id": 4}, 0)[0]["need"] == "hello"
    hello = reborn.receive({"t": "hello", "v": HELLO_V, "boot": board.boot, "ack": 1}, 1)
    assert hello[0]["boot"] == board.boot and hello[0]["first"] == 2
    assert [m["seq"] for m in hello[1:]] == [2]
    assert reborn.receive({"t": "roll", "id": 3, "dice": "wheel", "n": 3}, 2) == [
        {"t": "ok", "id": 3, "seq": 2}]  # served before the reset: not rolled again
    reveal = reborn.receive({"t": "reveal", "id": 5}, 3)[0]
    assert reveal["rolls"] == 2
    dice.verify(str(commit["hash"]), str(reveal["secret"]),
                [(0, "d6", dice.derive_roll(board.session.secret, 0, "d6", 2)),
                 (1, "wheel", dice.derive_roll(board.session.secret, 1, "wheel", 3))])


@pytest.mark.parametrize("damage", [{"boot": 5}, {"outbox": "x"}, {"secret": "zz"},
                                    {"served": [[1]]}, {"seq": None}])
def test_a_damaged_state_file_means_a_fresh_start(damage: dict[str, object]) -> None:
    store = MemoryStore()
    board = core.BoardCore("ab", random.Random(1).randbytes, store)
    assert store.state is not None
    store.state = {**store.state, **damage}
    fresh = core.BoardCore("ab", random.Random(2).randbytes, store)
    assert fresh.boot != board.boot
    hello = fresh.receive({"t": "hello", "v": HELLO_V, "boot": "", "ack": 0}, 0)
    assert hello[0]["first"] == 1


def _greeted(store: MemoryStore | None = None) -> core.BoardCore:
    board = core.BoardCore("ab", random.Random(5).randbytes, store)
    board.receive({"t": "hello", "v": HELLO_V, "boot": "", "ack": 0}, 0)
    return board


def test_held_events_are_resent_all_together_oldest_first() -> None:
    board = _greeted()
    board.receive({"t": "roll", "id": 1, "dice": "d6", "n": 1}, 0)
    board.receive({"t": "roll", "id": 2, "dice": "d6", "n": 1}, 400)
    assert [m["seq"] for m in board.tick(500)] == [1, 2]  # 1 is due: 2 goes after it
    # The host falls silent; an event made meanwhile waits, and goes out after the older ones.
    held = [board.sample([ms < 40, False, False, False, False], 6000 + ms) for ms in range(80)]
    assert held == [[]] * 80 and board.idle(6080)
    board.receive({"t": "ping", "id": 3}, 6100)
    assert [m["seq"] for m in board.tick(6100)] == [1, 2, 3]


def test_a_hello_of_another_major_version_is_answered_but_not_a_handshake() -> None:
    board = _greeted()
    board.receive({"t": "roll", "id": 1, "dice": "d6", "n": 1}, 1)
    major = protocol.VERSION_MAJOR
    for version in ([major + 1, 0], [major - 1, 2], [0, 9], "2.0", None, [major], [True, 0]):
        reply = board.receive({"t": "hello", "v": version, "boot": board.boot, "ack": 1}, 2)
        assert [m["t"] for m in reply] == ["hello"], version  # no event replayed to it
        assert board.receive({"t": "ack", "seq": 1}, 3) == []
        assert board.receive({"t": "ping", "id": 9}, 4)[0]["need"] == "hello"
        assert board.tick(10_000) == []
    # The event was neither acknowledged nor sent: a proper host still gets it.
    again = board.receive({"t": "hello", "v": HELLO_V, "boot": board.boot, "ack": 0}, 5)
    assert [m.get("seq") for m in again] == [None, 1]


def test_lost_events_are_still_counted_after_a_reset() -> None:
    store = MemoryStore()
    board = _greeted(store)
    for seq in range(core.OUTBOX_SIZE + 2):
        board.receive({"t": "roll", "id": 100 + seq, "dice": "d6", "n": 1}, seq)
    reborn = core.BoardCore("ab", random.Random(6).randbytes, store)
    hello = reborn.receive({"t": "hello", "v": HELLO_V, "boot": board.boot, "ack": 0}, 0)
    assert hello[0]["lost"] == 2 and hello[0]["first"] == 3


def test_every_session_numbers_its_rolls_from_zero() -> None:
    board = _greeted()
    indexes = []
    for request, kind in enumerate(["roll", "roll", "commit", "roll", "reveal", "roll"], 1):
        sent = board.receive({"t": kind, "id": request, "dice": "wheel", "n": 2}, request)
        indexes += [m["roll"] for m in sent if m["t"] == "ev"]
    assert indexes == [0, 1, 0, 0]
