"""What every running job (a demo, a game at the table) reports to: the terminal, the journal
and, when asked for, the web view."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, TextIO

from host.journal import Journal
from host.web.server import WebView


@dataclass
class AppContext:
    """The app's outputs, handed to a game's demo or resume."""

    out: TextIO
    """The terminal."""
    journal: Journal
    """Where every game is kept."""
    pace: float = 0.0
    """Seconds to wait between turns (a demo people can follow)."""
    web: WebView | None = None
    """The web view, when one is served."""
    camera: str = "rendered"
    """Where the table is seen: ``rendered`` (the demo's video), ``none`` (the demo's tables
    fed straight to the referee), a camera index or a video file."""
    board: str = "sim"
    """The dice/LED board: ``sim`` (the simulated one), ``none``, ``auto`` or a serial port."""

    def say(self, text: str) -> None:
        """One line on the terminal, shown at once."""
        print(text, file=self.out, flush=True)

    def pause(self) -> None:
        """Wait ``pace`` seconds after a turn, so people can follow a demo."""
        if self.pace > 0:
            time.sleep(self.pace)

    def show(self, state: dict[str, Any]) -> None:
        """Publish a snapshot to the web view, if there is one."""
        if self.web is not None:
            self.web.publish(state)
