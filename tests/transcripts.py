"""What a referee should answer to each line of an engine game's transcript."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from host.referee import Verdict
from host.turns import TurnIndicator

Expected = tuple[str, TurnIndicator | None]


def expected_verdicts(
    lines: list[tuple[dict[str, Any], TurnIndicator | None]],
) -> tuple[list[str], list[Expected]]:
    """The transcript as JSON lines, and for every line after the opening the verdict kind and
    seat lights it should get: ``waiting`` mid-turn, ``move`` at a turn's end, ``win`` at the
    last."""
    expected: list[Expected] = []
    for _, lights in lines[1:]:
        if lights is None:
            expected.append(("waiting", None))
        else:
            expected.append(("move" if lights.on_turn is not None else "win", lights))
    return [json.dumps(line) for line, _ in lines], expected


def moves_in(scenes: Sequence[Any], feed: Callable[[Any], Verdict]) -> int:
    """How many turns a referee (``feed``: one line in, its verdict out) finds in a demo's
    scenes fed straight to it, after the opening table: what the camera should find too."""
    return sum(feed(line).verdict == "move"
               for scene in scenes[1:] for line in (scene.view.to_json(), *scene.events))
