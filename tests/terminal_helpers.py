"""Tests that need Ctrl-C as a player's terminal delivers it."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def ctrl_c_as_in_a_terminal() -> Iterator[None]:
    """SIGINT handled while the block runs, as a shell leaves it for a command run in the
    foreground. A test run started in the background without job control (``pytest ... &``
    in a script) ignores SIGINT, as POSIX has it: the app, and any child it starts (an
    ignored signal is inherited), would never see the player's Ctrl-C."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
