"""Reading the JSON files people hand to Conductor (``conductor referee``, ``score``, decks):
every reader goes through here, so a bad file gets the same one-line reasons everywhere.

Input from outside is bounded before it is trusted: a file is read up to ``MAX_FILE_BYTES``, a
line up to ``MAX_LINE_BYTES`` (so ``/dev/zero`` or a runaway file fails at once instead of
filling the memory), and JSON is refused when it nests deeper than ``MAX_DEPTH`` or carries a
number longer than ``MAX_DIGITS`` digits (no observation needs either; both would otherwise
surface as Python's own errors deep in a referee).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from host.errors import BadInputError

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest file read: a recorded game of thousands of turns is well under 1 MB."""
MAX_LINE_BYTES = 1024 * 1024
"""The longest line read from a JSON-lines file: an observation is a few hundred bytes."""
MAX_DEPTH = 32
"""The deepest nesting accepted in JSON: the formats nest four levels at most."""
MAX_DIGITS = 18
"""The longest integer accepted in JSON (it still fits a 64-bit number)."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number longer than {MAX_DIGITS} digits")
    return int(text)


def _constant(text: str) -> float:
    raise ValueError(f"{text} is not a JSON number")


def loads(text: str) -> Any:
    """``json.loads`` for input from outside: anything that is not plain, reasonably shaped
    JSON raises ``json.JSONDecodeError`` (so callers report it as they report bad JSON)."""
    try:
        data = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except RecursionError:
        raise json.JSONDecodeError(f"nested deeper than {MAX_DEPTH} levels", text, 0) from None
    except json.JSONDecodeError:
        raise
    except ValueError as error:
        raise json.JSONDecodeError(str(error), text, 0) from None
    if _too_deep(data) or _has_infinity(data):
        reason = (
            f"nested deeper than {MAX_DEPTH} levels" if _too_deep(data) else "a number too large"
        )
        raise json.JSONDecodeError(reason, text, 0)
    return data


def _children(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return value
    return []


def _too_deep(data: Any) -> bool:
    level = [data]
    for _ in range(MAX_DEPTH + 1):
        level = [child for value in level for child in _children(value)]
        if not level:
            return False
    return True


def _has_infinity(data: Any) -> bool:
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return True
        pending.extend(_children(value))
    return False


def _open_error(path: Path, error: OSError) -> BadInputError:
    return BadInputError(f"cannot read {path}: {error.strerror or error}")


def read_text(path: Path) -> str:
    """A whole text file, or BadInputError for a missing, unreadable, huge or non-UTF-8 one."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise _open_error(path, error) from None
    if len(data) > MAX_FILE_BYTES:
        raise BadInputError(f"{path} is larger than {MAX_FILE_BYTES // 2**20} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInputError(f"{path} is not UTF-8 text") from None


def read_text_lines(path: Path) -> list[str]:
    """The file's lines, or BadInputError for a missing, unreadable, huge or non-UTF-8 file or
    a line longer than ``MAX_LINE_BYTES``."""
    lines: list[str] = []
    total = 0
    try:
        with path.open("rb") as file:
            while line := file.readline(MAX_LINE_BYTES + 1):
                total += len(line)
                if len(line) > MAX_LINE_BYTES:
                    raise BadInputError(
                        f"{path}:{len(lines) + 1}: a line longer than "
                        f"{MAX_LINE_BYTES // 1024} KB (not a file of observations)"
                    )
                if total > MAX_FILE_BYTES:
                    raise BadInputError(f"{path} is larger than {MAX_FILE_BYTES // 2**20} MB")
                lines.append(line.decode("utf-8").rstrip("\r\n"))
    except OSError as error:
        raise _open_error(path, error) from None
    except UnicodeDecodeError:
        raise BadInputError(f"{path}:{len(lines) + 1}: not UTF-8 text") from None
    return lines


def json_objects(
    lines: Iterable[str], origin: str | None = None
) -> list[tuple[int, dict[str, Any]]]:
    """Each non-blank line's number and JSON object, or BadInputError naming the line (and the
    file, ``origin``, when there is one); an input with no line at all is refused too."""
    rows: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(lines, start=1):
        where = f"{origin}:{number}" if origin else f"line {number}"
        if not line.strip():
            continue
        try:
            data = loads(line)
        except json.JSONDecodeError as error:
            raise BadInputError(f"{where}: not JSON ({error.msg})") from None
        if not isinstance(data, dict):
            raise BadInputError(f"{where}: not a JSON object")
        rows.append((number, data))
    if not rows:
        raise BadInputError(f"{origin or 'the input'}: nothing to judge (no line at all)")
    return rows


def read_json_lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """Each non-blank line's number and JSON object, or BadInputError naming file and line."""
    return json_objects(read_text_lines(path), str(path))


def seats_and_first(head: dict[str, Any]) -> tuple[int, int]:
    """An opening line's seat count and the seat that plays first (0 unless it says), or
    BadInputError naming line 1."""
    seats, first = head.get("seats"), head.get("first", 0)
    if not isinstance(seats, int) or not isinstance(first, int) or not 0 <= first < max(seats, 1):
        raise BadInputError('line 1: needs "seats" (a number) and "first" (a seat)')
    return seats, first


def judged(
    rows: Iterable[tuple[int, dict[str, Any]]], judge: Callable[[dict[str, Any]], dict[str, Any]]
) -> Iterator[dict[str, Any]]:
    """``judge``'s verdict on each numbered line, with its ``"line"``; a BadInputError from a
    line says which."""
    for number, data in rows:
        try:
            verdict = judge(data)
        except BadInputError as error:
            raise BadInputError(f"line {number}: {error}") from None
        yield {"line": number, **verdict}
