"""What the board reports: button presses and dice rolls, each delivered to the app exactly once."""

from __future__ import annotations

from dataclasses import dataclass

from host.board.pictures import Face


@dataclass(frozen=True)
class ButtonPress:
    """A player pressed a button on the board."""

    seq: int
    """The event's number on the board since it started (1, 2, ...)."""
    button: str
    """Which button: ``seat0`` .. ``seat3`` or ``roll``."""
    long: bool
    """True for a long press (held 600 ms or more)."""

    @property
    def seat(self) -> int | None:
        """The seat whose button it is, or None for the roll button."""
        return int(self.button[4:]) if self.button.startswith("seat") else None


@dataclass(frozen=True)
class DiceRoll:
    """The board rolled dice, asked by the host or by the roll button."""

    seq: int
    """The event's number on the board since it started (1, 2, ...)."""
    kind: str
    """The kind of die rolled."""
    faces: tuple[Face, ...]
    """The faces that came up, one per die."""
    index: int
    """The roll's number in the board's audit session (see BoardLink.commit)."""
    by_button: bool
    """True if a player pressed the roll button, False if the host asked."""
    request: int | None
    """The host's request id for a roll it asked for."""


BoardEvent = ButtonPress | DiceRoll


def event_from_wire(message: dict[str, object]) -> BoardEvent | None:
    """The event in an ``ev`` message, or None if it is of a kind this host does not know."""
    seq = message.get("seq")
    if not isinstance(seq, int):
        return None
    if message.get("kind") == "press":
        return ButtonPress(seq, str(message.get("button")), message.get("long") is True)
    if message.get("kind") == "roll":
        faces = message.get("faces")
        index = message.get("roll")
        request = message.get("id")
        if not isinstance(faces, list) or not isinstance(index, int):
            return None
        return DiceRoll(
            seq=seq,
            kind=str(message.get("dice")),
            faces=tuple(f for f in faces if isinstance(f, int | str)),
            index=index,
            by_button=message.get("by") == "button",
            request=request if isinstance(request, int) else None,
        )
    return None
