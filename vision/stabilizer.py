"""Time: report a change of the table only once it has settled.

The stabilizer is fed one reading per frame with the frame's timestamp (seconds, from the
caller: no clock in here). A reading is whatever the frame showed (an observation), or None
when the frame could not be read completely (a hand over the table, a line half covered).

Fed readings alone, it reports a reading when, over the last ``still_seconds``, at least
``agreement`` of the frames showed exactly that reading, and it differs from the last one
reported. So a hand moving over the table produces no events, one bad frame neither drops a
card nor delays a report much, and a real change is reported once, ``still_seconds`` after the
table settles.

Fed also what the camera saw of the table's stillness (``vision.stillness.Calm``), it decides
by stillness instead of by the clock: the table has settled when the last ``settle_frames``
frames were each the one before them again, up to the sensor's noise, and all showed the same
reading. That reading is reported at once if nothing but cards differs from the last settled
table (no hand, arm or shadow over it) and ``quick`` allows it; otherwise (the first table, a
hand held still, a lamp switched on, a card read as unknown) only if it also won the vote over
``still_seconds`` as above. A frame that moved counts as showing nothing.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from vision.stillness import Calm

Reading = TypeVar("Reading", bound=Hashable)

STILL_SECONDS = 0.6
"""How long the table must show the same thing before it counts (by the clock)."""
EPSILON = 1e-6
"""Seconds of rounding error forgiven in frame timestamps."""
AGREEMENT = 0.8
"""Share of the frames in that time that must agree (the rest may be bad frames)."""
SETTLE_FRAMES = 2
"""Still frames in a row, showing the same reading, that make a settled table (by stillness).
Each is still against the frame before it, so three frames in a row look alike: 67 ms at 30
frames/s after the first frame without a hand."""


@dataclass
class Stabilizer(Generic[Reading]):
    """Turns a stream of per-frame readings into reported changes."""

    still_seconds: float = STILL_SECONDS
    """Window of time that must agree."""
    agreement: float = AGREEMENT
    """Share of frames in the window that must show the same reading."""
    settle_frames: int = SETTLE_FRAMES
    """Still frames in a row that settle the table, when stillness is known."""
    quick: Callable[[Reading], bool] = lambda reading: True
    """Readings that may be reported as soon as a clear table settles; others (a table with a
    card read as unknown, which the next look may well name) wait for the vote too."""
    reported: Reading | None = None
    """The last reading reported (None before the first)."""
    settled: bool = False
    """The last frame fed showed the table settled (reported or not): a stillness watcher
    keeps such a frame to compare later ones with."""
    _window: deque[tuple[float, Reading | None]] = field(default_factory=deque, repr=False)
    _recent: deque[tuple[Reading | None, bool]] = field(default_factory=deque, repr=False)

    def feed(self, timestamp: float, reading: Reading | None, calm: Calm | None = None
             ) -> Reading | None:
        """Add a frame's reading (and, if known, its stillness); return the reading if this
        frame makes it a new settled one.

        Timestamps must not go backwards (ValueError): a restarted camera needs a new
        stabilizer.
        """
        if self._window and timestamp < self._window[-1][0]:
            raise ValueError("frame timestamps went backwards")
        if calm is not None and not calm.quiet:
            reading = None
        voted = self._vote(timestamp, reading)
        if calm is None:
            self.settled = voted is not None
        else:
            self._recent.append((reading, calm.clear))
            while len(self._recent) > self.settle_frames:
                self._recent.popleft()
            alike = (len(self._recent) == self.settle_frames and reading is not None
                     and all(seen == reading for seen, _ in self._recent))
            clear = all(bare for _, bare in self._recent)
            quick = clear and reading is not None and self.quick(reading)
            self.settled = alike and (quick or voted == reading)
            voted = reading if self.settled else None
        if voted is None or voted == self.reported:
            return None
        self.reported = voted
        return voted

    def _vote(self, timestamp: float, reading: Reading | None) -> Reading | None:
        """The reading that at least ``agreement`` of the frames of the last ``still_seconds``
        showed, if any."""
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
        if best is None or votes < self.agreement * len(self._window):
            return None
        return best
