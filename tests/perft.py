"""Move counts from known positions, python-chess perft style, for every game.

``perft(game, depth)`` counts the move sequences of ``depth`` pushes from a position: a seat's
decisions and chance's outcomes alike (a die's faces, the card a known draw pile deals). A game
that ends sooner adds nothing. ``divide`` gives the count under each first move, which is how a
wrong total is tracked down to the move whose subtree is wrong.

The fixtures are ``tests/fixtures/perft/GAME.json``: positions (a Trains position as JSON, or a
game's record), the counts at each depth, and the per-move counts at the deepest. Write them
again after a deliberate rule change with ``python tests/perft.py`` and review the diff; the
first depths of each position say in ``about`` how they can be counted by hand.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host.express.game import ExpressGame
from host.rollecate.moves import move_to_json as rollecate_json
from host.rollecate.state import GameState
from host.trainline.game import TrainlineGame
from host.trains.game import Game
from host.trains.moves import Drawn, Move
from host.trains.position import Position

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "perft"


def perft(game: Any, depth: int) -> int:
    """How many sequences of ``depth`` legal pushes there are from ``game`` (left as it was)."""
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += perft(game, depth - 1)
        game.pop()
    return total


def divide(game: Any, depth: int, said: Callable[[Any], str]) -> dict[str, int]:
    """``perft`` under each first move, keyed by the move's JSON."""
    counts = {}
    for move in game.legal_moves():
        game.push(move)
        counts[said(move)] = perft(game, depth - 1)
        game.pop()
    return counts


def _trains_said(move: Move | Drawn) -> str:
    data = move.to_json() if isinstance(move, Move) else {"drawn": move.card}
    return json.dumps(data, sort_keys=True)


def _record_lines(case: dict[str, Any]) -> list[str]:
    return [json.dumps(line) for line in case["record"]]


@dataclass(frozen=True)
class Rules:
    """How to open one game's fixture positions and name its moves."""

    load: Callable[[dict[str, Any]], Any]
    said: Callable[[Any], str]


RULES = {
    "trains": Rules(lambda case: Game(Position.from_json(case["position"])), _trains_said),
    "express": Rules(
        lambda case: ExpressGame.from_record_lines(_record_lines(case)),
        lambda move: json.dumps(ExpressGame.codec.to_json(move), sort_keys=True),
    ),
    "trainline": Rules(
        lambda case: TrainlineGame.from_record_lines(_record_lines(case)),
        lambda move: json.dumps(TrainlineGame.codec.to_json(move), sort_keys=True),
    ),
    "rollecate": Rules(
        lambda case: GameState.from_record(_record_lines(case)),
        lambda move: json.dumps(rollecate_json(move), sort_keys=True),
    ),
}


def fixtures() -> list[tuple[str, dict[str, Any]]]:
    """Every fixture position, with its game's name."""
    found = []
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found += [(data["game"], case) for case in data["positions"]]
    return found


# ----- writing the fixtures ------------------------------------------------------------------


def _played(game: Any, pushes: int, rng: random.Random) -> Any:
    """``game`` after ``pushes`` seeded random pushes (chance drawn by the engine)."""
    for _ in range(pushes):
        chance = game.is_chance_node()
        game.push(game.sample_chance(rng) if chance else rng.choice(game.legal_moves()))
    return game


def _cases() -> dict[str, list[tuple[str, str, Any, int]]]:
    """Each game's positions: (id, about, game, deepest depth)."""
    rng = random.Random(12)
    three = Game(Position.deal(3, 0, rng))
    mid = Game(three.position.copy())
    _played(mid, 9, random.Random(4))
    mid = Game(mid.position)
    express = ExpressGame.new(3, random.Random(5))
    trainline = TrainlineGame.new(2, random.Random(6))
    rollecate = GameState.new(2, random.Random(7))
    return {
        "trains": [
            ("dealt-3-seats", "the set-up draft: seat 0 draws 1 card, seat 1 2, seat 2 3, and "
             "each keeps one in any of 7 places: 7, 7 x 14 = 98, 98 x 21 = 2058", three, 3),
            ("mid-game", "after the draft and some turns: 7 draws (each then dealt its one "
             "known top card) and every face-up ability at each place it fits", mid, 4),
        ],
        "express": [
            ("first-turn", "the first seat may only draw from the deck (the discard pile is "
             "empty): 1; then it plays", express, 3),
            ("mid-hand", "later in the same hand", _played(ExpressGame.new(3, random.Random(5)),
                                                          25, random.Random(8)), 3),
        ],
        "trainline": [
            ("first-turn", "a fresh two-seat game", trainline, 3),
            ("mid-game", "later in the same game", _played(TrainlineGame.new(2, random.Random(6)),
                                                           30, random.Random(9)), 2),
        ],
        "rollecate": [
            ("first-turn", "the first seat's action, then its dice: a build of value V rolls "
             "V dice, at most 4 a roll, each roll 2 ** dice outcomes", rollecate, 4),
        ],
    }


def _position(name: str, game: Any) -> dict[str, Any]:
    if name == "trains":
        return {"position": game.position.to_json()}
    lines = game.record() if name == "rollecate" else game.record_lines()
    return {"record": [json.loads(line) for line in lines]}


def write() -> None:
    """Count every fixture position with the engines as they are and write the files."""
    for name, cases in _cases().items():
        positions = []
        for case_id, about, game, depth in cases:
            counts = [[d, perft(game, d)] for d in range(1, depth + 1)]
            positions.append({
                "id": case_id,
                "about": about,
                **_position(name, game),
                "perft": counts,
                "divide": divide(game, depth, RULES[name].said),
            })
            print(f"{name} {case_id}: {counts}")
        path = FIXTURES / f"{name}.json"
        path.write_text(json.dumps({"game": name, "positions": positions}, indent=1) + "\n")


if __name__ == "__main__":
    write()
