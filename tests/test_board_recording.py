"""A session recorded from firmware 0.1.0 speaking protocol 1.0 (``conductor board monitor sim
--record``) stays understood by this host: it decodes cleanly, a host replaying it gets the same
events, and its dice audit still verifies with today's dice code (the derivation is part of the
protocol)."""

from __future__ import annotations

from pathlib import Path

import pytest

from host.board import BoardError, BoardLink, DiceRoll
from host.board.recording import ReplayPort, load_recording
from host.board.shared import dice, protocol

RECORDING = Path(__file__).resolve().parent / "fixtures/board/session-fw0.1.0.jsonl"


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
    assert info.firmware == "0.1.0" and info.protocol == (1, 0)
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
    dice.verify(str(commit["hash"]), str(reveal["secret"]),
                [(i, k, list(f)) for i, k, f in sorted(rolls)])


def test_an_unreadable_recording_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"ms": 1, "from": "host", "hex": "00"}\nnot json\n')
    with pytest.raises(BoardError, match=r"bad.jsonl:2: not a board recording line"):
        load_recording(bad)
    with pytest.raises(BoardError, match="cannot read recording"):
        load_recording(tmp_path / "missing.jsonl")
