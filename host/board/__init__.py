"""The dice/LED board, seen from the app: link, events, pictures, the simulated board.

Typical use::

    with SimulatedBoard() as sim, BoardLink.open(sim.port) as board:
        board.show(picture_for(indicator))
        faces = board.roll("wheel", 4)
        for event in board.events(): ...

See docs/board.md.
"""

from host.board.errors import (
    AuditFailed,
    BoardError,
    BoardSilent,
    FirmwareMismatch,
    NoBoardFound,
    PermissionDenied,
    PortBusy,
)
from host.board.events import BoardEvent, ButtonPress, DiceRoll
from host.board.link import AuditReport, BoardInfo, BoardLink
from host.board.pictures import DiceShown, Face, Picture, picture_for
from host.board.shared import dice
from host.board.sim import SimulatedBoard

#: Raised (a ValueError) for a roll that cannot be made: unknown kind, or not 1-8 dice.
DiceError = dice.DiceError

__all__ = [
    "AuditFailed",
    "AuditReport",
    "BoardError",
    "BoardEvent",
    "BoardInfo",
    "BoardLink",
    "BoardSilent",
    "ButtonPress",
    "DiceError",
    "DiceRoll",
    "DiceShown",
    "Face",
    "FirmwareMismatch",
    "NoBoardFound",
    "PermissionDenied",
    "Picture",
    "PortBusy",
    "SimulatedBoard",
    "picture_for",
]
