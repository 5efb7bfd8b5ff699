"""The web view's snapshot of a game: one JSON object the page draws (see docs/formats.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.turns import TurnIndicator


@dataclass
class GameLog:
    """The running log the page shows: one line per verdict worth telling."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    """Each entry: ``seq``, ``verdict`` and ``text``."""

    def add(self, verdict: str, text: str) -> None:
        """Append a line."""
        self.entries.append({"seq": len(self.entries) + 1, "verdict": verdict, "text": text})


def snapshot(
    *,
    game: str,
    title: str,
    turn: TurnIndicator,
    table: dict[str, Any],
    log: GameLog,
    message: tuple[str, str] | None = None,
    scores: list[dict[str, Any]] | None = None,
    camera: bool = False,
    inputs: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Everything the page shows. ``message`` is (``alert`` or ``info``, text); ``inputs``
    are what players may enter now (``host.table_game.WebInputs``)."""
    return {
        "game": game,
        "title": title,
        "status": "over" if turn.over else "playing",
        "turn": {
            "seats": turn.seats,
            "on_turn": turn.on_turn,
            "direction": turn.direction.value,
            "skipped": sorted(turn.skipped),
            "winners": sorted(turn.winners),
            "alert": turn.alert,
        },
        "table": table,
        "log": log.entries,
        "message": None if message is None else {"level": message[0], "text": message[1]},
        "scores": scores or [],
        "camera": camera,
        "inputs": inputs or [],
    }
