"""What a player can do in Train Line Chicago, one action at a time, and its JSON form.

Cells are ``(row, col)`` of the joined layout. Boarding is followed by the boarding die's roll,
a chance outcome (``BoardingDie``) the board rolls; the engine never rolls. An attack a Rebel
Passenger can stop waits for its target's answer (``Rebel`` or ``Accept``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from host.engine import MoveCodec, flag, listed, optional, pair, text, whole

Cell = tuple[int, int]


@dataclass(frozen=True)
class Board:
    """Put a pawn on a start space; the boarding die's roll (``BoardingDie``) follows."""

    start: Cell
    """The start space."""


@dataclass(frozen=True)
class BoardingDie:
    """The boarding die's roll after ``Board``: a chance outcome, from the board or a seeded rng."""

    doors_open: bool
    """Open doors (the pawn boards, the turn goes on) or closed (it misses the train)."""


@dataclass(frozen=True)
class UsePass:
    """Play a U-Pass: board at a start space without the boarding die."""

    start: Cell
    """The start space."""


@dataclass(frozen=True)
class MoveAlong:
    """Move your pawn in the aisle with number cards; this ends the turn."""

    numbers: tuple[str, ...]
    """The number cards played: one, two of one colour, or two of any with Advanced Motion."""
    motion: bool
    """True when an Advanced Motion card adds its plus number (it may also stand alone)."""
    passes: tuple[str, ...]
    """Excuse Me / Rebel Passenger cards spent, each to get past one occupied space."""
    to: Cell
    """Where the pawn ends: an aisle space, an empty seat, or (sliding) an opponent's seat."""
    slide_to: Cell | None = None
    """Excuse Me's slide: the empty seat beside ``to`` its seated opponent moves over to."""


@dataclass(frozen=True)
class PlayExpress:
    """Express: the next player in the direction of play loses a turn (cannot be stopped)."""


@dataclass(frozen=True)
class PlayReverse:
    """Reverse: play goes the other way round the table (cannot be stopped)."""


@dataclass(frozen=True)
class Exit:
    """Exit 1X / 2X: pawns of the next player go from their seats off the train."""

    card: str
    """``exit-1x`` or ``exit-2x``."""
    seats: tuple[Cell, ...]
    """The seats emptied (one or two; fewer if the player has fewer seated pawns)."""


@dataclass(frozen=True)
class Eccentric:
    """Eccentric Passenger: an opponent's seated pawn moves into the aisle."""

    seat: int
    """The player targeted."""
    cell: Cell
    """The seat of the pawn moved."""


@dataclass(frozen=True)
class PanHandle:
    """Pan Handler Passenger: take a card from an opponent's hand."""

    seat: int
    """The player targeted."""
    card: str
    """The card taken."""


@dataclass(frozen=True)
class PlusDiscard:
    """+1 Discard: gain a discard token."""


@dataclass(frozen=True)
class Enter:
    """Enter 1X / 2X: pawns not on the train go straight into empty seats."""

    card: str
    """``enter-1x`` or ``enter-2x``."""
    seats: tuple[Cell, ...]
    """The empty seats filled."""


@dataclass(frozen=True)
class TakeSeat:
    """Take A Seat: an opponent's seated pawn goes to the aisle, one of yours takes its seat."""

    seat: int
    """The player targeted."""
    cell: Cell
    """The seat taken over."""


@dataclass(frozen=True)
class UseToken:
    """Spend a discard token: discard a card and draw one from the same deck."""

    card: str
    """The card discarded."""


@dataclass(frozen=True)
class EndTurn:
    """End the turn without moving."""


@dataclass(frozen=True)
class Rebel:
    """Answer to an attack: a Rebel Passenger nullifies it."""


@dataclass(frozen=True)
class Accept:
    """Answer to an attack: let it take effect."""


Move = (
    Board
    | BoardingDie
    | UsePass
    | MoveAlong
    | PlayExpress
    | PlayReverse
    | Exit
    | Eccentric
    | PanHandle
    | PlusDiscard
    | Enter
    | TakeSeat
    | UseToken
    | EndTurn
    | Rebel
    | Accept
)
#: Action cards a Rebel Passenger can nullify (they take a pawn from a seat or a card from hand).
Attack = Exit | Eccentric | PanHandle | TakeSeat

ACTIONS: dict[str, type[Move]] = {
    "board": Board,
    "boarding-die": BoardingDie,
    "u-pass": UsePass,
    "move": MoveAlong,
    "express": PlayExpress,
    "reverse": PlayReverse,
    "exit": Exit,
    "eccentric-passenger": Eccentric,
    "pan-handler": PanHandle,
    "plus-discard": PlusDiscard,
    "enter": Enter,
    "take-a-seat": TakeSeat,
    "token": UseToken,
    "end-turn": EndTurn,
    "rebel": Rebel,
    "accept": Accept,
}
CELL = pair(whole)
"""A cell's JSON form: ``[row, col]``."""

MOVE_CODEC: MoveCodec[Move] = MoveCodec(
    "a Train Line action",
    ACTIONS,
    {
        "start": CELL,
        "to": CELL,
        "cell": CELL,
        "slide_to": optional(CELL),
        "seats": listed(CELL),
        "seat": whole,
        "numbers": listed(text),
        "passes": listed(text),
        "doors_open": flag,
        "motion": flag,
        "card": text,
    },
)
move_to_json = MOVE_CODEC.to_json
move_from_json = MOVE_CODEC.from_json


def moves_from_json(data: Any) -> list[Move]:
    """The moves one record line holds: one, or two for a ``board`` line written before the
    boarding die became its own line (``doors_open`` on the board line, as records still hold)."""
    if isinstance(data, dict) and data.get("action") == "board" and "doors_open" in data:
        board = {key: value for key, value in data.items() if key != "doors_open"}
        die = {"action": "boarding-die", "doors_open": data["doors_open"]}
        return [move_from_json(board), move_from_json(die)]
    return [move_from_json(data)]


def describe(move: Move) -> str:
    """The move in words, for the demo."""
    match move:
        case Board(start):
            return f"steps up to the doors at {start} and rolls the boarding die"
        case BoardingDie(doors_open):
            return "open doors, boards" if doors_open else "closed doors, misses the train"
        case UsePass(start):
            return f"boards with a U-Pass at {start}"
        case MoveAlong(numbers, motion, passes, to, slide_to):
            extra = " + Advanced Motion" if motion else ""
            past = f", spending {', '.join(passes)}" if passes else ""
            slide = f", sliding the pawn there to {slide_to}" if slide_to else ""
            return f"moves with {', '.join(numbers) or 'nothing'}{extra}{past} to {to}{slide}"
        case PlayExpress():
            return "plays Express"
        case PlayReverse():
            return "plays Reverse"
        case Exit(card, seats):
            return f"plays {card} on seat(s) {list(seats)}"
        case Eccentric(seat, cell):
            return f"plays Eccentric Passenger: seat {seat}'s pawn at {cell} into the aisle"
        case PanHandle(seat, card):
            return f"plays Pan Handler: takes {card} from seat {seat}"
        case PlusDiscard():
            return "plays +1 Discard"
        case Enter(card, seats):
            return f"plays {card}: pawn(s) into {list(seats)}"
        case TakeSeat(seat, cell):
            return f"plays Take A Seat on seat {seat}'s pawn at {cell}"
        case UseToken(card):
            return f"spends a discard token on {card}"
        case EndTurn():
            return "ends the turn"
        case Rebel():
            return "answers with a Rebel Passenger: nullified"
        case Accept():
            return "lets it happen"
    raise AssertionError(move)
