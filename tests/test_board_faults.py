"""Issue 15's board faults, each over the pty against the real firmware in micropython.

Every test talks raw frames (host.board.wire), not through BoardLink, so nothing on the host
side retries, acknowledges or handshakes behind the test's back.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator

import pytest

from host.board import SimulatedBoard
from host.board.shared import dice, pins, protocol
from host.board.wire import Frame, RawBoard, frame_of

pytestmark = pytest.mark.skipif(shutil.which("micropython") is None,
                                reason="micropython not installed")

HELLO = {"t": "hello", "v": [protocol.VERSION_MAJOR, protocol.VERSION_MINOR], "boot": "",
         "ack": 0}


@pytest.fixture
def sim() -> Iterator[SimulatedBoard]:
    with SimulatedBoard() as board:
        yield board
        assert board.running, board.errors()


@pytest.fixture
def raw(sim: SimulatedBoard) -> Iterator[RawBoard]:
    with RawBoard.open(sim.port) as board:
        yield board


def _messages(frames: list[Frame]) -> list[dict[str, object]]:
    assert all(frame.canonical for frame in frames), frames
    return [frame.message for frame in frames if frame.message is not None]


def _greet(raw: RawBoard) -> list[dict[str, object]]:
    raw.send_raw(b"\x00")
    raw.send(HELLO)
    return _messages(raw.until(lambda f: f.message is not None and f.message["t"] == "hello",
                               5.0))


def _alive(sim: SimulatedBoard, raw: RawBoard) -> None:
    """The firmware still runs and answers a ping, after a pause long enough to crash in."""
    time.sleep(0.3)
    replies = _messages(raw.request({"t": "ping"}))
    assert replies and replies[-1] == {"t": "pong", "id": raw.next_id}, replies
    assert sim.running, sim.errors()


@pytest.mark.parametrize(("kind", "count"), [("d6", 6), ("wheel", 7), ("doors", 8), ("d6", 8)])
def test_a_roll_of_more_dice_than_dice_leds_keeps_the_board_alive(
    sim: SimulatedBoard, raw: RawBoard, kind: str, count: int
) -> None:
    _greet(raw)
    got = _messages(raw.request({"t": "roll", "dice": kind, "n": count}))
    event, reply = got[-2], got[-1]
    assert reply == {"t": "ok", "id": raw.next_id, "seq": event["seq"]}
    faces = event["faces"]
    assert isinstance(faces, list) and len(faces) == count
    _alive(sim, raw)
    # The dice LEDs show the first faces, one per LED.
    shown = sim.leds()[pins.RING_LEDS:pins.STATUS_LED]
    assert all(pixel != (0, 0, 0) for pixel in shown), shown


def test_the_roll_button_armed_for_six_dice_keeps_the_board_alive(
    sim: SimulatedBoard, raw: RawBoard
) -> None:
    _greet(raw)
    assert _messages(raw.request({"t": "arm", "dice": "d6", "n": 6}))[-1]["t"] == "ok"
    sim.press("roll", 100)
    events = _messages(raw.until(lambda f: f.message is not None
                                 and f.message.get("kind") == "roll", 5.0))
    assert [e["kind"] for e in events if e["t"] == "ev"] == ["press", "roll"]
    assert events[-1]["by"] == "button" and len(events[-1]["faces"]) == 6  # type: ignore[arg-type]
    _alive(sim, raw)


@pytest.mark.parametrize("payload", [
    {"t": "ping\n", "id": 5}, {"t": "\t", "id": 5}, {"t": "ping\u0000", "id": 5},
    {"t": "\u00e9t\u00e9", "id": 5},
    {"t": "roll", "id": 5, "dice": "\u00e9", "n": 1},
    {"t": "roll", "id": 5, "dice": "d6\n", "n": 1},
    {"t": "arm", "id": 5, "dice": "\U0001f3b2", "n": 1},
])
@pytest.mark.parametrize("ascii_only", [True, False])
def test_a_reply_never_carries_a_character_the_encoder_refuses(
    sim: SimulatedBoard, raw: RawBoard, payload: dict[str, object], ascii_only: bool
) -> None:
    _greet(raw)
    # Sent as \\u escapes, and as raw UTF-8: both are JSON.
    raw.send_raw(b"\x00" + frame_of(json.dumps(payload, ensure_ascii=ascii_only).encode()))
    replies = _messages(raw.until(lambda f: f.message is not None and f.message["t"] == "err",
                                  2.0))
    assert replies[-1]["t"] == "err" and replies[-1]["id"] == 5
    reason = replies[-1]["msg"]
    assert isinstance(reason, str) and all(" " <= c <= "~" for c in reason), reason
    _alive(sim, raw)


@pytest.mark.parametrize("request_id", [1000.0, 1.5, 0, -3, True, "7", [7], None, 2**53])
def test_a_request_whose_id_is_not_a_positive_integer_is_refused_before_any_effect(
    sim: SimulatedBoard, raw: RawBoard, request_id: object
) -> None:
    _greet(raw)
    commit = _messages(raw.request({"t": "commit"}))[-1]
    for kind in ("roll", "reveal", "commit"):
        raw.send_raw(b"\x00" + frame_of(json.dumps(
            {"t": kind, "id": request_id, "dice": "d6", "n": 5}).encode()))
        replies = _messages(raw.until(lambda f: f.message is not None
                                      and f.message["t"] in ("ok", "err"), 2.0))
        assert [m["t"] for m in replies] == ["err"], replies  # no roll event either
        assert replies[0]["id"] is None
    # The audit session is untouched: the real reveal proves the committed secret, no rolls.
    reveal = _messages(raw.request({"t": "reveal"}))[-1]
    assert reveal["rolls"] == 0
    dice.verify(str(commit["hash"]), str(reveal["secret"]), [])
    _alive(sim, raw)


def _no_events_for(raw: RawBoard, seconds: float) -> list[dict[str, object]]:
    """Ping for ``seconds`` without a hello; return what the board sent meanwhile."""
    got: list[dict[str, object]] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got += _messages(raw.request({"t": "ping"}, timeout=0.3))
        got += _messages(raw.receive(0.1))
    return got


def test_no_event_goes_out_before_the_hosts_hello(sim: SimulatedBoard, raw: RawBoard) -> None:
    assert _messages(raw.request({"t": "ping"}, timeout=5.0))  # up (a press before is ignored)
    sim.press("seat1", 80)
    before = _no_events_for(raw, 1.5)
    assert before and all(m["t"] == "err" and m["need"] == "hello" for m in before), before
    greeted = _greet(raw) + _messages(raw.receive(0.2))
    assert [m["t"] for m in greeted][:2] == ["hello", "ev"]
    assert greeted[1]["button"] == "seat1"


def test_no_event_goes_out_after_a_power_cut_before_the_hosts_hello(
    sim: SimulatedBoard, raw: RawBoard
) -> None:
    _greet(raw)
    sim.press("seat2", 80)
    pressed = _messages(raw.until(lambda f: f.message is not None and f.message["t"] == "ev",
                                  5.0))
    sim.kill()  # unacknowledged: the event waits in the state file
    sim.start()
    before = _no_events_for(raw, 1.5)
    assert before and all(m["t"] == "err" for m in before), before
    greeted = _greet(raw) + _messages(raw.receive(0.2))
    assert next(m for m in greeted if m["t"] == "ev") == pressed[-1]


def test_a_request_without_an_id_is_refused_and_never_served_from_the_repeat_cache(
    sim: SimulatedBoard, raw: RawBoard
) -> None:
    _greet(raw)
    for message in ({"t": "roll", "dice": "d6", "n": 5}, {"t": "commit"}, {"t": "reveal"},
                    {"t": "reveal"}):
        raw.send(message)
        replies = _messages(raw.until(lambda f: f.message is not None
                                      and f.message["t"] in ("ok", "err"), 2.0))
        assert [(m["t"], m["id"]) for m in replies] == [("err", None)], replies
    commit = _messages(raw.request({"t": "commit"}))[-1]
    assert "hash" in commit
    # The commit's id again, for a reveal: refused, not answered with the commit's hash.
    raw.send({"t": "reveal", "id": raw.next_id})
    reused = _messages(raw.until(lambda f: f.message is not None
                                 and f.message["t"] in ("ok", "err"), 2.0))
    assert [m["t"] for m in reused] == ["err"] and "hash" not in reused[0]
    # The same request repeated gets the first reply again.
    raw.send({"t": "commit", "id": raw.next_id})
    again = _messages(raw.until(lambda f: f.message is not None and f.message["t"] == "ok", 2.0))
    assert again == [commit]
    _alive(sim, raw)
