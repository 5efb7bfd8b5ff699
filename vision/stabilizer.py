"""Time: report a change of the table only once it has been still for a short while.

The stabilizer is fed one reading per frame with the frame's timestamp (seconds, from the
caller: no clock in here). A reading is whatever the frame showed (an observation), or None
when the frame could not be read completely (a hand over the table, a line half covered).
It reports a reading when, over the last ``still_seconds``, at least ``agreement`` of the frames
showed exactly that reading, and it differs from the last one reported. So a hand moving over
the table produces no events, one bad frame neither drops a card nor delays a report much, and
a real change is reported once, ``still_seconds`` after the table settles.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Reading = TypeVar("Reading", bound=Hashable)

STILL_SECONDS = 0.6
"""How long the table must show the same thing before it counts."""
EPSILON = 1e-6
"""Seconds of rounding error forgiven in frame timestamps."""
AGREEMENT = 0.8
"""Share of the frames in that time that must agree (the rest may be bad frames)."""


@dataclass
class Stabilizer(Generic[Reading]):
    """Turns a stream of per-frame readings into reported changes."""

    still_seconds: float = STILL_SECONDS
    """Window of time that must agree."""
    agreement: float = AGREEMENT
    """Share of frames in the window that must show the same reading."""
    reported: Reading | None = None
    """The last reading reported (None before the first)."""
    _window: deque[tuple[float, Reading | None]] = field(default_factory=deque, repr=False)

    def feed(self, timestamp: float, reading: Reading | None) -> Reading | None:
        """Add a frame's reading; return the reading if this frame makes it a new stable one.

        Timestamps must not go backwards (ValueError): a restarted camera needs a new
        stabilizer.
        """
        if self._window and timestamp < self._window[-1][0]:
            raise ValueError("frame timestamps went backwards")
        self._window.append((timestamp, reading))
        # Keep the newest frames that span still_seconds (plus the one just before them). The
        # epsilon keeps frame times like 64/15 and 73/15 exactly 0.6 s apart.
        span = self.still_seconds - EPSILON
        while len(self._window) > 1 and self._window[1][0] <= timestamp - span:
            self._window.popleft()
        if timestamp - self._window[0][0] < span:
            return None  # not watched for long enough yet
        counts = Counter(r for _, r in self._window)
        best, votes = counts.most_common(1)[0]
        if best is None or votes < self.agreement * len(self._window) or best == self.reported:
            return None
        self.reported = best
        return best
