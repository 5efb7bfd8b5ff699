"""``conductor demo trainline``: a whole seeded game, readable turns, the winner."""

from __future__ import annotations

import io
import re

from host.cli import main
from host.tables.trainline import transcript
from host.trainline.game import PAWNS


def _run(seed: int, players: int) -> str:
    out = io.StringIO()
    assert transcript(seed, players, out) == 0
    return out.getvalue()


def test_demo_plays_to_a_winner_with_every_pawn_seated() -> None:
    text = _run(2, 3)
    assert text == _run(2, 3)
    last_turn = re.findall(r"\(seated \[([\d, ]+)\]\) -> game over$", text, re.M)
    assert len(last_turn) == 1
    seated = [int(n) for n in last_turn[0].split(", ")]
    winner = re.search(r"^winner: seat (\d)", text, re.M)
    assert winner is not None and seated[int(winner.group(1))] == PAWNS[3]


def test_demo_refuses_a_player_count_the_game_has_not() -> None:
    assert main(["demo", "trainline", "--players", "5"]) == 2
