"""Reading the JSON-lines files people hand to ``conductor referee``: every game's referee
reads its input through here, so a bad file gets the same one-line reasons everywhere."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from host.errors import BadInputError


def read_text_lines(path: Path) -> list[str]:
    """The file's lines, or BadInputError for a missing, unreadable or non-UTF-8 file."""
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise BadInputError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise BadInputError(f"{path} is not UTF-8 text") from None


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
            data = json.loads(line)
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
