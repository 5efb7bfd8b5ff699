"""What can go wrong between the app and the board, each a one-line reason a person can act on."""

from host.errors import BadInputError


class BoardError(BadInputError):
    """The board cannot be used; the message says why and what to do."""


class NoBoardFound(BoardError):
    """No port given and no Pico (USB 2E8A:0005) is plugged in."""


class PortBusy(BoardError):
    """Another program holds the serial port."""


class PermissionDenied(BoardError):
    """The user may not open the serial port (not in the dialout group)."""


class FirmwareMismatch(BoardError):
    """The board speaks another major protocol version (firmware too old, or too new)."""


class BoardSilent(BoardError):
    """The board did not answer in time."""


class AuditFailed(BoardError):
    """The revealed secret does not explain the rolls: the dice cannot be trusted."""
