"""A small JSON file on the board's flash for state that must survive a reset.

The board keeps its event numbering, unacknowledged events and audit session here, so a
power cut or watchdog reset loses none of them. Writes go to a temporary file that is then
renamed over the old one, so a reset in the middle of a write leaves the previous state.
"""

import json
import os


class FileStore:
    """State kept in one JSON file (on the Pico's littlefs; in the simulation, the sim folder)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def load(self) -> "dict[str, object] | None":
        """The saved state, or None if there is none or it cannot be read."""
        try:
            with open(self.path) as source:
                state = json.load(source)
        except (OSError, ValueError):
            return None
        return state if isinstance(state, dict) else None

    def save(self, state: "dict[str, object]") -> None:
        """Replace the saved state."""
        temporary = self.path + ".tmp"
        with open(temporary, "w") as out:
            out.write(json.dumps(state))
        os.rename(temporary, self.path)
