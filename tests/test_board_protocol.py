"""The wire codec against PROTOCOL.md's test vectors, under CPython and the real micropython.

The vectors are read from the document itself, so the doc and the code cannot drift apart.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from firmware import dice, protocol

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
VECTORS: dict[str, Any] = json.loads(
    re.search(r"```json\n(.*?)```", (FIRMWARE / "PROTOCOL.md").read_text(), re.S).group(1)  # type: ignore[union-attr]
)


def test_cobs_vectors() -> None:
    for raw, encoded in VECTORS["cobs"]:
        assert protocol.cobs_encode(bytes.fromhex(raw)).hex() == encoded
        assert protocol.cobs_decode(bytes.fromhex(encoded)).hex() == raw


def test_cobs_accepts_the_short_form_of_a_full_block() -> None:
    full = bytes(range(1, 255))
    assert protocol.cobs_decode(b"\xff" + full) == full


def test_frame_vectors() -> None:
    for message, frame in VECTORS["frames"]:
        assert protocol.encode_frame(message).hex() == frame
        assert protocol.decode_frame(bytes.fromhex(frame)[:-1]) == message


def test_stream_vectors_resynchronise_after_garbage() -> None:
    for stream in VECTORS["streams"]:
        receiver = protocol.Receiver()
        assert receiver.feed(bytes.fromhex(stream["bytes"])) == stream["messages"]
        assert receiver.bad == stream["bad"]


def test_dice_vectors() -> None:
    secret = bytes.fromhex(VECTORS["dice"]["secret"])
    assert dice.commitment(secret) == VECTORS["dice"]["commit"]
    for index, kind, count, faces in VECTORS["dice"]["rolls"]:
        assert dice.derive_roll(secret, index, kind, count) == faces


_INTERPRETERS = [
    pytest.param((["python"], "PYTHONPATH"), id="cpython"),
    pytest.param((["micropython"], "MICROPYPATH"), id="micropython",
                 marks=pytest.mark.skipif(shutil.which("micropython") is None,
                                          reason="micropython not installed")),
]


@pytest.fixture(scope="module", params=_INTERPRETERS)
def computed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> dict[str, Any]:
    """Every vector as the firmware's own modules compute it, under each interpreter."""
    command, path_variable = request.param
    if command == ["python"]:
        command = [sys.executable]
    vectors = tmp_path_factory.mktemp("vectors") / "vectors.json"
    vectors.write_text(json.dumps(VECTORS))
    result = subprocess.run(
        [*command, str(ROOT / "tests/fixtures/board/run_vectors.py"), str(vectors)],
        env={**os.environ, path_variable: str(FIRMWARE)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    got: dict[str, Any] = json.loads(result.stdout)
    return got


def test_codec_and_dice_vectors(computed: dict[str, Any]) -> None:
    assert computed["cobs"] == [[encoded, raw] for raw, encoded in VECTORS["cobs"]]
    assert computed["frames"] == [[frame, message] for message, frame in VECTORS["frames"]]
    assert computed["streams"] == [[s["messages"], s["bad"]] for s in VECTORS["streams"]]
    rolls = [roll[3] for roll in VECTORS["dice"]["rolls"]]
    assert computed["dice"] == [VECTORS["dice"]["commit"], *rolls]


def test_a_frame_of_max_frame_bytes_is_read_and_one_more_is_not(computed: dict[str, Any]) -> None:
    assert computed["padded"] == [[protocol.MAX_FRAME + index, read]
                                  for index, (_, read) in enumerate(VECTORS["padded"])]


def test_one_strict_json_grammar(computed: dict[str, Any]) -> None:
    assert computed["json"] == [accepted for _, accepted in VECTORS["json"]]
    assert computed["json_utf8"] == [accepted for _, accepted in VECTORS["json_utf8"]]
    # Both answers occur, and the board refuses what MicroPython's json.loads would take.
    assert {True, False} == set(computed["json"]) == set(computed["json_utf8"])
    assert ['{"t":"ping","id":01}', False] in VECTORS["json"]


def test_requests_get_the_replies_the_spec_gives(computed: dict[str, Any]) -> None:
    expected = [[t, request_id, events, 0 if t is None else 1]
                for _, t, request_id, events in VECTORS["requests"]]
    assert computed["requests"] == expected


def test_pictures_light_the_leds_the_spec_describes(computed: dict[str, Any]) -> None:
    assert computed["pictures"] == [pixels for _, _, pixels in VECTORS["pictures"]]


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_a_delimiter(data: bytes) -> None:
    encoded = protocol.cobs_encode(data)
    assert 0 not in encoded
    assert protocol.cobs_decode(encoded) == data


_ascii = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12)
_json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), _ascii)
_json = st.recursive(
    _json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_ascii, inner, max_size=4),
    max_leaves=12,
)
_messages = st.dictionaries(
    st.text(st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=6), _json,
    max_size=5,
).map(lambda body: {**body, "t": "x"})


@given(st.lists(_messages, max_size=5), st.lists(st.binary(max_size=40), max_size=6))
def test_every_good_frame_survives_garbage_between_frames(
    messages: list[dict[str, object]], garbage: list[bytes]
) -> None:
    stream = b""
    for position, message in enumerate(messages):
        noise = garbage[position] if position < len(garbage) else b""
        # Garbage ends with a delimiter (as line noise before a frame's start eventually does).
        stream += noise + b"\x00" + protocol.encode_frame(message)
    receiver = protocol.Receiver()
    got = [m for chunk in (stream[i : i + 7] for i in range(0, len(stream), 7))
           for m in receiver.feed(chunk)]
    assert got == messages


@given(_messages, st.integers(min_value=0), st.integers(min_value=1, max_value=255))
def test_a_corrupted_byte_never_yields_a_wrong_message(
    message: dict[str, object], where: int, flip: int
) -> None:
    frame = bytearray(protocol.encode_frame(message))
    frame[where % (len(frame) - 1)] ^= flip
    got = protocol.Receiver().feed(bytes(frame))
    # CRC32 catches every error burst up to 32 bits, so one bad byte always loses the frame.
    assert got == []


def test_an_overlong_frame_is_dropped_and_the_next_one_read() -> None:
    receiver = protocol.Receiver()
    ping = {"t": "ping", "id": 1}
    got = receiver.feed(b"\x01" * (protocol.MAX_FRAME + 50) + b"\x00" + protocol.encode_frame(ping))
    assert got == [ping]
    assert receiver.bad == 1


def test_non_ascii_text_is_refused_before_it_reaches_the_wire() -> None:
    with pytest.raises(ValueError, match="ASCII"):
        protocol.encode_frame({"t": "err", "msg": "caf\u00e9"})


@given(st.binary(max_size=200))
def test_the_parser_refuses_any_bytes_with_a_frame_error_only(data: bytes) -> None:
    try:
        value = protocol.parse_json(data)
    except protocol.FrameError:
        return
    assert value == json.loads(data)  # what the strict grammar takes, CPython reads alike


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=4),
    max_leaves=20,
)


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


@given(_json_values, st.booleans(), st.sampled_from([None, 1]))
def test_the_parser_reads_what_a_json_encoder_writes(
    value: object, ascii_only: bool, indent: int | None
) -> None:
    assume(_depth(value) <= protocol.MAX_DEPTH)
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    assert protocol.parse_json(text.encode("utf-8", "surrogatepass")) == json.loads(text)
