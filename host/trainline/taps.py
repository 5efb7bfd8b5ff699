"""A Train Line action as players enter it on a phone: cells tapped on the board, cards played.

No camera can read a Train Line board (its diagrams are lost), so players say what they did:
tap their pawn and the cell it goes to, or a start space, or the pawns an action card hits, and
pick the cards they played. ``action_of`` turns that into the one engine move it means, or says
in the players' words why it means none; the engine then judges the move itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from host.errors import IllegalMoveError
from host.trainline.cards import (
    ADVANCED_MOTION,
    ECCENTRIC,
    ENTER_1X,
    ENTER_2X,
    EXIT_1X,
    EXIT_2X,
    EXPRESS,
    PAN_HANDLER,
    PASS_CARDS,
    PLUS_DISCARD,
    REBEL,
    REVERSE,
    TAKE_A_SEAT,
    U_PASS,
)
from host.trainline.game import Phase, TrainlineGame
from host.trainline.moves import (
    Accept,
    Board,
    Cell,
    Eccentric,
    Enter,
    Exit,
    Move,
    MoveAlong,
    PanHandle,
    PlayExpress,
    PlayReverse,
    PlusDiscard,
    Rebel,
    TakeSeat,
    UsePass,
)

ALONE: dict[str, Move] = {
    EXPRESS: PlayExpress(), REVERSE: PlayReverse(), PLUS_DISCARD: PlusDiscard()}
"""Action cards played on nothing: no cell to tap."""


@dataclass(frozen=True)
class Taps:
    """What a player entered: the cells tapped, in order, and the cards played."""

    cells: tuple[Cell, ...]
    """The cells tapped: a pawn, then where it goes; a start space; the pawns or seats an
    action card names."""
    cards: tuple[str, ...]
    """The cards played (number cards, at most one action card, Excuse Me or Rebel Passenger
    spent getting past others, Advanced Motion)."""
    takes: str | None = None
    """The card a Pan Handler takes."""
    seat: int | None = None
    """The seat an action targets, named rather than tapped (a Pan Handler's target may have
    no pawn on the board)."""


def action_of(game: TrainlineGame, taps: Taps) -> Move:
    """The move ``taps`` mean in ``game`` (IllegalMoveError saying why they mean none). The
    move itself may still be illegal: the engine's ``why_illegal`` says."""
    if game.phase is Phase.OVER:
        raise IllegalMoveError("the game is over")
    if game.phase is Phase.BOARDING:
        raise IllegalMoveError("roll the boarding die first (the board's roll button)")
    if game.phase is Phase.RESPONSE:
        return _answer(game, taps)
    numbers = tuple(card for card in taps.cards if card in game.cards.numbers)
    extras = [card for card in taps.cards if card in (*PASS_CARDS, ADVANCED_MOTION)]
    actions = [card for card in taps.cards if card not in numbers and card not in extras]
    if len(actions) > 1:
        raise IllegalMoveError("enter one action card at a time")
    if not actions:
        if numbers or extras:
            return _movement(game, taps, numbers)
        return _boarding(game, taps.cells, None)
    if numbers or extras:
        raise IllegalMoveError(f"enter {actions[0]} on its own, then the move")
    return _action(game, actions[0], taps)


def _answer(game: TrainlineGame, taps: Taps) -> Move:
    if taps.cells or taps.cards not in ((), (REBEL,)):
        raise IllegalMoveError(f"seat {game.acting_seat} must first answer the attack: a Rebel "
                               "Passenger, or let it happen")
    return Rebel() if taps.cards else Accept()


def _movement(game: TrainlineGame, taps: Taps, numbers: tuple[str, ...]) -> MoveAlong:
    me = game.players[game.current]
    if me.aisle is None:
        raise IllegalMoveError(f"seat {game.current} has no pawn in the aisle to move")
    cells = taps.cells[1:] if taps.cells[:1] == (me.aisle,) else taps.cells
    if len(cells) not in (1, 2):
        raise IllegalMoveError("tap the pawn in the aisle, then the cell it goes to (and the "
                               "empty seat an Excuse Me slides a seated pawn to)")
    passes = tuple(card for card in taps.cards if card in PASS_CARDS)
    slide = cells[1] if len(cells) == 2 else None
    return MoveAlong(numbers, ADVANCED_MOTION in taps.cards, passes, cells[0], slide)


def _boarding(game: TrainlineGame, cells: Sequence[Cell], card: str | None) -> Board | UsePass:
    if len(cells) != 1 or cells[0] not in game.layout.entries:
        what = "a U-Pass boards at" if card else "pick the cards played, or tap"
        raise IllegalMoveError(f"{what} a start space (the doors)")
    return UsePass(cells[0]) if card else Board(cells[0])


def _action(game: TrainlineGame, card: str, taps: Taps) -> Move:
    cells = taps.cells
    if card in ALONE:
        return ALONE[card]
    if card == U_PASS:
        return _boarding(game, cells, card)
    if card in (EXIT_1X, EXIT_2X):
        return Exit(card, cells)
    if card in (ENTER_1X, ENTER_2X):
        return Enter(card, cells)
    owner = pawn_owner(game, cells[0]) if len(cells) == 1 else None
    if card == PAN_HANDLER and taps.seat is not None:
        owner = taps.seat
    if owner is None:
        raise IllegalMoveError(f"{card}: tap one pawn of the player it targets"
                               + (" (or name the seat)" if card == PAN_HANDLER else ""))
    if card == PAN_HANDLER:
        if taps.takes is None:
            raise IllegalMoveError("Pan Handler: name the card taken")
        return PanHandle(owner, taps.takes)
    if card == ECCENTRIC:
        return Eccentric(owner, cells[0])
    if card == TAKE_A_SEAT:
        return TakeSeat(owner, cells[0])
    raise IllegalMoveError(f"no Train Line action card {card!r}")


def pawn_owner(game: TrainlineGame, cell: Cell) -> int | None:
    """The seat whose pawn stands on ``cell`` (seated or in the aisle), if any."""
    seated = game.occupant(cell)
    if seated is not None:
        return seated
    return next((seat for seat, player in enumerate(game.players) if player.aisle == cell), None)
