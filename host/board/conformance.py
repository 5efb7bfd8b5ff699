"""What any board must never send, and whether its dice look fair: shared by the conformance
check (``conductor board monitor --check``), the fuzzer and the long fuzz benchmark.

``frame_problems`` judges one frame from the board by PROTOCOL.md alone; ``chi_square_p``
turns face counts into the probability that fair dice would look at least this uneven.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from host.board.shared import dice
from host.board.wire import Frame

#: What a board may send (PROTOCOL.md section 3).
BOARD_TYPES = ("hello", "pong", "ok", "err", "ev")
#: An err's reason is at most this long (PROTOCOL.md section 3).
REASON_CHARS = 80
BUTTONS = ("seat0", "seat1", "seat2", "seat3", "roll")


def frame_problems(frame: Frame) -> list[str]:
    """What is wrong with one frame from the board, as one short phrase each (none: fine)."""
    message = frame.message
    if message is None:
        return ["a bad frame (COBS, CRC or JSON)"]
    problems = [] if frame.canonical else [f"a frame not in canonical form: {frame.raw[:60]!r}"]
    kind = message.get("t")
    if kind not in BOARD_TYPES:
        return [*problems, f"a message of unknown type {kind!r}"]
    if kind in ("pong", "ok", "err") and not _request_id(message.get("id"), kind == "err"):
        problems.append(f"a {kind} with id {message.get('id')!r}")
    if kind == "err":
        reason = message.get("msg")
        if not (
            isinstance(reason, str)
            and len(reason) <= REASON_CHARS
            and all(" " <= char <= "~" for char in reason)
        ):
            problems.append(f"an err whose msg is not one short printable line: {reason!r}")
    if kind == "ev":
        problems += event_problems(message)
    return problems


def event_problems(event: dict[str, object]) -> list[str]:
    """What is wrong with an ``ev`` message's fields (PROTOCOL.md section 5)."""
    seq = event.get("seq")
    if not (isinstance(seq, int) and not isinstance(seq, bool) and seq >= 1):
        return [f"an event numbered {seq!r}"]
    if event.get("kind") == "press":
        if event.get("button") not in BUTTONS or not isinstance(event.get("long"), bool):
            return [f"a malformed press event {event}"]
        return []
    if event.get("kind") != "roll":
        return [f"an event of unknown kind {event.get('kind')!r}"]
    kind, faces, index = event.get("dice"), event.get("faces"), event.get("roll")
    by, request = event.get("by"), event.get("id")
    allowed = dice.FACES.get(kind) if isinstance(kind, str) else None
    if (
        allowed is None
        or not isinstance(faces, list)
        or not 1 <= len(faces) <= dice.MAX_DICE
        or not all(face in allowed and type(face) is type(allowed[0]) for face in faces)
        or not (isinstance(index, int) and not isinstance(index, bool) and index >= 0)
    ):
        return [f"a malformed roll event {event}"]
    if not ((by == "host" and _request_id(request, False)) or (by == "button" and request is None)):
        return [f"a roll event by {by!r} with id {request!r}"]
    return []


def _request_id(value: object, null_allowed: bool) -> bool:
    if value is None:
        return null_allowed
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 2**53


def chi_square_p(counts: Sequence[int], shares: Sequence[float]) -> float:
    """P(a fair die gives a chi-square statistic at least this large) for observed ``counts``
    of categories expected with probabilities ``shares`` (which sum to 1)."""
    total = sum(counts)
    statistic = sum(
        (seen - total * share) ** 2 / (total * share)
        for seen, share in zip(counts, shares, strict=True)
    )
    return chi_square_survival(statistic, len(counts) - 1)


def chi_square_survival(statistic: float, dof: int) -> float:
    """The chi-square distribution's upper tail, exactly (closed forms for whole dof)."""
    half = statistic / 2
    if dof % 2 == 0:
        term, total = 1.0, 1.0
        for j in range(1, dof // 2):
            term *= half / j
            total += term
        return math.exp(-half) * total
    tail = math.erfc(math.sqrt(half))
    term = math.sqrt(2 * statistic / math.pi) * math.exp(-half)
    for j in range(1, (dof + 1) // 2):
        tail += term
        term *= statistic / (2 * j + 1)
    return min(1.0, tail)


def face_counts(kind: str, faces: Sequence[object]) -> tuple[list[int], list[float]]:
    """Counts of each distinct face of ``kind`` among ``faces``, and each one's fair share."""
    distinct = list(dict.fromkeys(dice.FACES[kind]))
    sides = len(dice.FACES[kind])
    shares = [dice.FACES[kind].count(face) / sides for face in distinct]
    return [sum(1 for face in faces if face == value) for value in distinct], shares
