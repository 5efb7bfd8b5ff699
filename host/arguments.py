"""Types for values given on the command line (argparse ``type=``): a bad value is refused
by argparse with one line, before any work starts."""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

MAX_PACE_SECONDS = 60.0
"""The longest wait between a demo's turns (longer is a typo, not a wish)."""
MAX_DIGITS = 19
"""The longest whole number taken (a seed or a game number fits 64 bits)."""


def seed(text: str) -> int:
    """``--seed``: a whole number from 0."""
    value = whole(text, "a seed")
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0, not {text}")
    return value


def seats(text: str) -> int:
    """``--players``: a whole number of seats (each game checks its own range)."""
    return whole(text, "a number of players")


def game_number(text: str) -> int:
    """A journaled game's number, as ``conductor games`` lists it."""
    value = whole(text, "a game number")
    if not 0 < value < 2**63:
        raise argparse.ArgumentTypeError(f"no game {text}: games are numbered from 1")
    return value


def pace(text: str) -> float:
    """``--pace``: seconds between turns, 0 to MAX_PACE_SECONDS."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= MAX_PACE_SECONDS:
        raise argparse.ArgumentTypeError(
            f"seconds from 0 to {MAX_PACE_SECONDS:.0f}, not {text}"
        )
    return value


def whole(text: str, what: str) -> int:
    """``text`` as a whole number, or argparse's error naming ``what`` it should be."""
    try:
        if len(text.strip().lstrip("+-")) > MAX_DIGITS:
            raise ValueError(text)
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None


def count(text: str) -> int:
    """A count of things (``--frames``): a whole number from 0."""
    value = whole(text, "a count")
    if value < 0:
        raise argparse.ArgumentTypeError(f"a count is a whole number from 0, not {text}")
    return value


def data_folder() -> Path:
    """The per-user data folder, by the platform's custom: the default home of the journal
    and of what ``vision calibrate`` records."""
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "Conductor"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Conductor"
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "conductor"
