"""A session recorded from firmware 0.4.0 speaking protocol 2.0 (``conductor board monitor sim
--record``, the simulated board: the real firmware in the real micropython) stays understood by
this host: it decodes cleanly, a host replaying it gets the same events, and its dice audit still
verifies with today's dice code (the derivation is part of the protocol). One recorded from
firmware 0.1.0 (protocol 1.0, whose boarding die rolled 3 open / 3 closed) is refused at the
handshake with one line that says how to update the board."""

from __future__ import annotations

from pathlib import Path

import pytest

from host.board import BoardError, BoardLink, DiceRoll, FirmwareMismatch
from host.board.recording import ReplayPort, load_recording
from host.board.shared import dice, protocol

FIXTURES = Path(__file__).resolve().parent / "fixtures/board"
RECORDING = FIXTURES / "session-fw0.4.0.jsonl"
#: Real traffic with a board of protocol 1.0 (firmware 0.1.0).
OLD_LEVEL = FIXTURES / "session-fw0.1.0.jsonl"


def _messages(source: str) -> tuple[list[dict[str, object]], int]:
    receiver = protocol.Receiver()
    messages = []
    for _, side, data in load_recording(RECORDING):
        if side == source:
            messages += receiver.feed(data)
    return messages, receiver.bad


def test_the_recording_decodes_without_a_bad_frame() -> None:
    for side in ("host", "board"):
        messages, bad = _messages(side)
        assert messages and bad == 0, side


def test_a_host_replaying_the_board_side_gets_every_event_once() -> None:
    board_side, _ = _messages("board")
    recorded = sorted({m["seq"] for m in board_side if m["t"] == "ev"})  # type: ignore[type-var]
    port = ReplayPort(load_recording(RECORDING))
    with BoardLink(lambda: port, name="replay") as link:
        info = link.start()
        events = []
        while (event := link.next_event(timeout=0.5)) is not None:
            events.append(event)
    assert info.firmware == "0.4.0" and info.protocol == (2, 0)
    assert [e.seq for e in events] == recorded
    assert all(isinstance(e, DiceRoll) for e in events)


def test_the_recorded_audit_still_verifies() -> None:
    host_side, _ = _messages("host")
    board_side, _ = _messages("board")
    kinds = {m["id"]: m["t"] for m in host_side if "id" in m}
    replies = {kinds.get(m["id"]): m for m in board_side if m["t"] == "ok"}
    commit, reveal = replies["commit"], replies["reveal"]
    after = commit["seq"]
    assert isinstance(after, int)
    rolls = {(m["roll"], m["dice"], tuple(m["faces"]))  # type: ignore[arg-type]
             for m in board_side if m["t"] == "ev" and m["seq"] > after}  # type: ignore[operator]
    assert len(rolls) == reveal["rolls"] == 2
    assert "doors" in {kind for _, kind, _ in rolls}
    dice.verify(str(commit["hash"]), str(reveal["secret"]),
                [(i, k, list(f)) for i, k, f in sorted(rolls)])


def test_a_board_of_protocol_1_is_refused_at_the_handshake_in_one_line() -> None:
    port = ReplayPort(load_recording(OLD_LEVEL))
    link = BoardLink(lambda: port, name="replay")
    with pytest.raises(FirmwareMismatch) as refused:
        link.start()
    reason = str(refused.value)
    assert "\n" not in reason and reason.startswith("firmware too old: ")
    assert "protocol 1.0" in reason and "boarding die 4 open / 2 closed" in reason
    assert reason.endswith("update the board with `conductor board flash`")
    assert link.events() == []  # not one of its rolls reached the game


def test_an_unreadable_recording_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"ms": 1, "from": "host", "hex": "00"}\nnot json\n')
    with pytest.raises(BoardError, match=r"bad.jsonl:2: not a board recording line"):
        load_recording(bad)
    with pytest.raises(BoardError, match="cannot read recording"):
        load_recording(tmp_path / "missing.jsonl")
