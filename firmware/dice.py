"""Dice the board rolls, derived from a committed secret so that every roll can be audited.

Shared by the firmware (which rolls) and the host (which verifies after the reveal); see
PROTOCOL.md section 6. MicroPython-compatible: hashlib, binascii and os only.
"""

import binascii
import hashlib
import os

try:
    from typing import Callable
except ImportError:  # MicroPython has no typing module; annotations are never evaluated
    pass

#: The faces of each kind of die, in protocol order (a face is picked by index).
FACES: dict[str, tuple[object, ...]] = {
    "d6": (1, 2, 3, 4, 5, 6),
    # Rollecate: four wheel faces and two blank faces (PRODUCT.md, Rulings).
    "wheel": ("wheel", "wheel", "wheel", "wheel", "blank", "blank"),
    # Train Line boarding die: the engine's ruling (host/trainline/game.py BOARDING_DIE), which
    # this file cannot import; tests/test_board_doors.py keeps the two the same multiset.
    # Protocol 1.x rolled 3 open, 3 closed: changing the faces made this protocol 2.0.
    "doors": ("open", "open", "open", "open", "closed", "closed"),
}

#: Most dice one roll may ask for (Rollecate rolls in batches of at most 4).
MAX_DICE = 8

SECRET_BYTES = 32


class DiceError(ValueError):
    """A roll that cannot be made (unknown kind, bad count) or an audit that fails."""


def _hex(data: bytes) -> str:
    return binascii.hexlify(data).decode()


def commitment(secret: bytes) -> str:
    """The hash the board publishes before the first roll: hex SHA-256 of the secret."""
    return _hex(hashlib.sha256(secret).digest())


def integer_in(value: object, low: int, high: int) -> bool:
    """True if ``value`` is an integer from ``low`` to ``high`` (never a bool or a float).

    For every number the host sends; here because every firmware module imports dice.
    """
    # bool is an int in CPython (not in MicroPython): refuse it explicitly on both.
    return isinstance(value, int) and value is not True and value is not False \
        and low <= value <= high


def check_roll(kind: object, count: object) -> None:
    """Raise DiceError unless ``count`` dice of ``kind`` can be rolled."""
    if not isinstance(kind, str) or kind not in FACES:
        raise DiceError("unknown dice kind: " + str(kind))
    if not integer_in(count, 1, MAX_DICE):
        raise DiceError("number of dice must be 1 to " + str(MAX_DICE))


def derive_roll(secret: bytes, index: int, kind: str, count: int) -> list[object]:
    """Roll number ``index`` of the session with ``secret``: ``count`` faces of ``kind``.

    Bytes come from SHA-256(secret, "roll", index, block) and are rejection-sampled, so each
    face is exactly equally likely.
    """
    if kind not in FACES:
        raise DiceError("unknown dice kind: " + str(kind))
    faces = FACES[kind]
    sides = len(faces)
    limit = 256 - 256 % sides
    prefix = secret + b"roll" + index.to_bytes(4, "big")
    result: list[object] = []
    block = 0
    while len(result) < count:
        for byte in hashlib.sha256(prefix + block.to_bytes(4, "big")).digest():
            if byte < limit:
                result.append(faces[byte % sides])
                if len(result) == count:
                    break
        block += 1
    return result


class Session:
    """One audited run of rolls: a secret, its published hash and how many rolls were made."""

    def __init__(self, entropy: "Callable[[int], bytes]" = os.urandom,
                 secret: "bytes | None" = None, rolls: int = 0) -> None:
        # A secret and roll count are given back when a session is restored after a reset.
        self.secret = entropy(SECRET_BYTES) if secret is None else secret
        self.hash = commitment(self.secret)
        self.rolls = rolls

    def roll(self, kind: str, count: int) -> tuple[int, list[object]]:
        """Make the next roll; return its index in the session and its faces."""
        check_roll(kind, count)
        faces = derive_roll(self.secret, self.rolls, kind, count)
        index = self.rolls
        self.rolls += 1
        return index, faces

    def reveal(self) -> str:
        """The secret, in hex, for the host to check every roll against the commitment."""
        return _hex(self.secret)


def verify(commit: str, secret_hex: str, rolls: "list[tuple[int, str, list[object]]]") -> None:
    """Check revealed ``secret_hex`` against ``commit`` and every (index, kind, faces) seen.

    Raises DiceError naming the first roll that the secret does not explain.
    """
    try:
        secret = binascii.unhexlify(secret_hex)
    except ValueError:
        raise DiceError("revealed secret is not hex") from None
    if commitment(secret) != commit:
        raise DiceError("revealed secret does not match the commitment")
    for index, kind, faces in rolls:
        if derive_roll(secret, index, kind, len(faces)) != list(faces):
            raise DiceError("roll " + str(index) + " does not follow from the secret")
