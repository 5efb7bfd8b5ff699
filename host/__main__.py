"""The ``conductor`` command (``python -m host`` from a checkout): the command line, with Ctrl-C
one line from the very first moment, while OpenCV and the rest are still being imported."""

import sys


def main() -> int:
    """Run the command line; exit status 130 and one line if Ctrl-C comes before it is loaded."""
    try:
        from host.cli import main as command_line
    except KeyboardInterrupt:
        # Python's own handler would print a traceback of whichever import was running.
        print("conductor: interrupted", file=sys.stderr)
        return 130
    return command_line()


if __name__ == "__main__":
    sys.exit(main())
