"""Button debouncing and short/long press detection, without any hardware.

The firmware samples each button every few milliseconds and feeds the level here; contact
bounce (a few ms of chatter on press and release) never produces a second press.
"""

#: A level must hold this long before it counts.
DEBOUNCE_MS = 20
#: Held at least this long, a press is long; it is reported the moment the threshold passes.
LONG_PRESS_MS = 600


class Button:
    """One debounced push button; ``update`` returns None, "short" or "long"."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._stable = False
        self._candidate = False
        self._changed_at = 0
        self._pressed_at = 0
        self._long_sent = False

    def update(self, pressed: bool, now: int) -> "str | None":
        """Feed one sample (True while held down) taken at ``now`` ms; return a finished press."""
        if pressed != self._candidate:
            self._candidate = pressed
            self._changed_at = now
            return None
        if self._candidate != self._stable and now - self._changed_at >= DEBOUNCE_MS:
            self._stable = self._candidate
            if self._stable:
                self._pressed_at = self._changed_at
                self._long_sent = False
            elif not self._long_sent:
                return "short"
            return None
        if self._stable and not self._long_sent and now - self._pressed_at >= LONG_PRESS_MS:
            self._long_sent = True
            return "long"
        return None
