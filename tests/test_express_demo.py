"""``conductor demo express``: a whole seeded hand, readable turns, the final scores."""

from __future__ import annotations

import io
import re

from host.tables.express import transcript


def _run(seed: int, players: int) -> str:
    out = io.StringIO()
    assert transcript(seed, players, out) == 0
    return out.getvalue()


def test_demo_plays_a_hand_to_its_scores_and_is_reproducible() -> None:
    text = _run(4, 3)
    assert text == _run(4, 3)
    assert text != _run(5, 3)
    turns = re.findall(r"^turn \d+, seat (\d): draws|^turn \d+, seat (\d): takes", text, re.M)
    assert len(turns) > 3
    assert re.search(r"^hand ends: ", text, re.M)
    totals = [int(n) for n in re.findall(r"^seat \d: (-?\d+)$", text, re.M)]
    assert len(totals) == 3
    winner = re.search(r"^winner: (.+)$", text, re.M)
    assert winner is not None
    best = max(totals)
    assert winner.group(1) == ", ".join(f"seat {i}" for i, t in enumerate(totals) if t == best)
