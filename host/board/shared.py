"""The firmware's codec, dice derivation and pin layout, imported by the host from firmware/.

``firmware/protocol.py`` and ``firmware/dice.py`` are written once in MicroPython-compatible
Python and used on both sides of the wire, so the host can never drift from the board. The
folder ships with the package (and sits beside ``host/`` in a checkout); if it is missing the
host cannot speak to a board at all, which is reported as such instead of an ImportError.
"""

from host.board.errors import BoardError

try:
    from firmware import dice, pins, protocol
except ImportError as missing:  # pragma: no cover - only in a broken install
    raise BoardError(
        "the board firmware folder (firmware/ with protocol.py and dice.py) is missing: "
        "reinstall Conductor from its repository"
    ) from missing

__all__ = ["dice", "pins", "protocol"]
