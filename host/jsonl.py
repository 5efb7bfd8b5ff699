"""Reading the JSON-lines files people hand to ``conductor referee``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from host.errors import BadInputError


def read_json_lines(path: Path) -> list[tuple[int, Any]]:
    """Each non-blank line's number and JSON value, or BadInputError naming the file and line
    (a missing or unreadable file, text that is not UTF-8, a line that is not JSON)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BadInputError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise BadInputError(f"{path} is not UTF-8 text") from None
    rows: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append((number, json.loads(line)))
        except json.JSONDecodeError as error:
            raise BadInputError(f"{path}:{number}: not JSON ({error.msg})") from None
    if not rows:
        raise BadInputError(f"{path} holds nothing to judge (the file is empty)")
    return rows
