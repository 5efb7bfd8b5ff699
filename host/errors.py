"""Errors the command line turns into exit status 2 with a one-line reason, and the engines' one
error for a move the rules forbid, and the one line a command prints when it goes on without
something."""

import sys


class BadInputError(ValueError):
    """Input from outside (a file, an observation, a command-line value) that cannot be used.

    The message is one line a person can act on; the command line prints it and exits 2.
    """


class IllegalMoveError(ValueError):
    """A move the rules do not allow now, in any game; the message says why, in its words.

    A ValueError (as in python-chess), so callers that only care about "not playable" catch one
    type; referees report the message to the players.
    """


def warn(text: str) -> None:
    """A line on stderr about something left out or less than asked for, the command going
    on without it (an error would be a BadInputError)."""
    print(f"conductor: {text}", file=sys.stderr, flush=True)
